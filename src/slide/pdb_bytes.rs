//! A pattern table's bytes in memory: either built in this process, or the payload of a
//! cached file mapped into memory, so that nothing is copied into the process: its pages are
//! the operating system's page cache, shared by every process that maps the same file.
//! Where a file cannot be mapped, its payload is read instead.

use memmap2::{Mmap, MmapOptions};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::ops::Deref;

/// Table bytes: built or read into this process's memory, or mapped from a cached file.
#[derive(Debug)]
pub enum TableBytes {
    /// Owned bytes (built in this process, or a file's payload read whole).
    Owned(Vec<u8>),
    /// A cached file's payload, mapped read-only.
    Mapped(Mmap),
}

impl TableBytes {
    /// Whether these bytes are a mapped file (not the process's own memory).
    pub fn is_mapped(&self) -> bool {
        matches!(self, TableBytes::Mapped(_))
    }
}

impl Deref for TableBytes {
    type Target = [u8];

    #[inline]
    fn deref(&self) -> &[u8] {
        match self {
            TableBytes::Owned(v) => v,
            TableBytes::Mapped(m) => m,
        }
    }
}

impl Default for TableBytes {
    fn default() -> TableBytes {
        TableBytes::Owned(Vec::new())
    }
}

impl From<Vec<u8>> for TableBytes {
    fn from(v: Vec<u8>) -> TableBytes {
        TableBytes::Owned(v)
    }
}

/// The `len` bytes of `file` from byte `offset` on: mapped when `map` is set and the
/// operating system allows it, else read. A file that does not hold them all is an
/// `UnexpectedEof` error (a mapping past the end would fault when read).
pub fn payload(file: &mut File, offset: u64, len: usize, map: bool) -> std::io::Result<TableBytes> {
    let size = file.metadata()?.len();
    if offset.checked_add(len as u64).is_none_or(|end| end > size) {
        return Err(std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            format!("{len} bytes from byte {offset} asked of a file of {size} bytes"),
        ));
    }
    if map && len > 0 {
        // SAFETY: the mapping is read-only, and the cache's files are never changed in
        // place: they are written whole under a temporary name and renamed over the old
        // one, and a rebuild removes the old file first, so a mapped file keeps its bytes
        // for as long as it is mapped (a removed or replaced file stays alive until
        // unmapped). Only a process that truncated or rewrote the file in place, which llk
        // never does, could change the mapped bytes or make reading them fault.
        let mapped = unsafe { MmapOptions::new().offset(offset).len(len).map(&*file) };
        if let Ok(m) = mapped {
            return Ok(TableBytes::Mapped(m));
        }
    }
    file.seek(SeekFrom::Start(offset))?;
    let mut bytes = vec![0u8; len];
    file.read_exact(&mut bytes)?;
    Ok(TableBytes::Owned(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both ways give the same bytes, from an offset that is not a page boundary.
    #[test]
    fn mapped_and_read_payloads_are_equal() {
        let path = std::env::temp_dir().join(format!("llk-pdb-bytes-{}.bin", std::process::id()));
        let data: Vec<u8> = (0..20_000u32).map(|i| (i * 7 + i / 300) as u8).collect();
        std::fs::write(&path, &data).unwrap();
        let mut f = File::open(&path).unwrap();
        let mapped = payload(&mut f, 37, 15_000, true).unwrap();
        let read = payload(&mut f, 37, 15_000, false).unwrap();
        assert!(mapped.is_mapped());
        assert!(!read.is_mapped());
        assert_eq!(&mapped[..], &data[37..15_037]);
        assert_eq!(&read[..], &data[37..15_037]);
        // Asking for more than the file holds fails either way, and never maps past the end.
        for map in [true, false] {
            let e = payload(&mut f, 19_990, 100, map).unwrap_err();
            assert_eq!(e.kind(), std::io::ErrorKind::UnexpectedEof);
        }
        let _ = std::fs::remove_file(&path);
    }
}
