//! Additive disjoint pattern databases (Korf & Felner 2002) for boards of at most 32 cells
//! (up to 5×5 and 4×8), blank-first goal.
//!
//! Each pattern is a set of tiles; its table holds, for every placement of those tiles, the
//! fewest moves *of those tiles* needed to bring them home, found by a breadth-first search
//! backwards from the goal in which moving any other tile is free (a 0-1 BFS over the pattern
//! tiles plus the blank). Because each table counts only its own tiles' moves, the values of
//! disjoint patterns add up and stay admissible. Reflecting the board about the main diagonal
//! gives a second, equally valid lookup in the same tables; the estimate is the larger one.
//!
//! The search keeps, per pattern, its tiles' cells packed 4 bits each (`Σ cell_j << 4j`; 5
//! bits on boards of more than 16 cells), which it updates in O(1) when one tile slides. On
//! boards of up to 16 cells, tables of up to 6 tiles are indexed by that packed value
//! directly (16^6 entries, holes included: no arithmetic per lookup); larger ones, and every
//! table of a larger board (32^6 would be 1G entries), by the dense rank of the placement
//! (16^8 would be 4G entries for 8 tiles, the dense rank 519M), which costs a few operations
//! per lookup. On disk only the `16·15·…` valid
//! placements are stored, one byte each in rank order, behind a checked header. Dense
//! tables keep only their nibble tables (see `PatternDb::excess`), cached as files of their
//! own and mapped into memory (`pdb_bytes`), so a process starts without copying them.

use super::pdb_build::{
    build_dense, cell_bits, digit_weights, max_tiles, placements, rank_packed, EMPTY, MAX_CELLS,
};
use super::pdb_bytes::{self, TableBytes};
use crate::error::Chain;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// Most patterns a database may have (4×4 uses three, 5×5 four of 6 tiles).
pub const MAX_PATTERNS: usize = 4;
/// Most tiles in one pattern (the builder's limit: 519M placements for 8 of 16 cells).
pub const MAX_PATTERN_TILES: usize = super::pdb_build::MAX_TILES;
/// Patterns of up to this many tiles are indexed by their packed cells (16^6 entries);
/// larger ones by dense rank.
const SPARSE_TILES: usize = 6;
const MAGIC: &[u8; 8] = b"LLKSPDB1";

/// Databases loaded in this process, by (width, height, partition).
type DbCache = HashMap<(usize, usize, Vec<Vec<u8>>), Arc<PatternDb>>;

/// A set of additive pattern tables for one board size, ready for lookups.
#[derive(Debug)]
pub struct PatternDb {
    width: usize,
    height: usize,
    patterns: Vec<Vec<u8>>,
    /// Per pattern: the table values, indexed by packed cells (patterns of up to
    /// `SPARSE_TILES` tiles) or by dense rank (larger ones, see `dense`); empty for a dense
    /// table with no capped entry, of which only `excess` is kept (`value` adds the
    /// Manhattan distance back).
    tables: Vec<Vec<u8>>,
    /// Per pattern: whether its tables are indexed by dense rank.
    dense: Vec<bool>,
    /// Per pattern: each tile's digit weight in the dense rank (`digit_weights`).
    weights: Vec<[u32; 16]>,
    /// Bits per cell in a packed placement (`pdb_build::cell_bits`).
    bits: u32,
    reflect: bool,
    /// For each tile: (pattern, bit shift of its cell in that pattern's index).
    slot: Vec<(u8, u8)>,
    /// Per pattern, nibble-packed and indexed like `tables`: (table value − Manhattan
    /// distance of the pattern's tiles) / 2, capped at 15. Half the bytes of `tables` (the
    /// two 6-tile tables then fit the L3 cache together), and the search adds back the
    /// board's Manhattan distance.
    excess: Vec<TableBytes>,
    /// Entries whose excess had to be capped (each still a valid, smaller estimate).
    capped: u64,
}

/// The partition used when none is given: for 4×4 the 7-7-1 split of `NAMED_4X4` (the top
/// two rows; the bottom two but the corner tile 12; tile 12 alone), which generated 10.0M
/// nodes on Korf's 100 with reflection, against 12.2M–17.3M with another tile of the bottom
/// rows alone and 44M for the best 6-6-3 split (docs/sliding.md has the table); for 5×5 the
/// four compact blocks of `PATTERNS_5X5`; otherwise the tiles in goal order cut into the
/// fewest groups of at most 6, as even as possible.
pub fn default_patterns(width: usize, height: usize) -> Vec<Vec<u8>> {
    if width == 4 && height == 4 {
        let (_, groups) = NAMED_4X4[1]; // 7-7-1
        return groups.iter().map(|g| g.to_vec()).collect();
    }
    if width == 5 && height == 5 {
        return PATTERNS_5X5.iter().map(|g| g.to_vec()).collect();
    }
    let n = width * height - 1;
    let groups = n.div_ceil(SPARSE_TILES);
    let mut out = Vec::new();
    let mut next = 1;
    for g in 0..groups {
        let size = n / groups + usize::from(g < n % groups);
        out.push((next..next + size).map(|t| t as u8).collect());
        next += size;
    }
    out
}

/// The 6-6-6-6 partition of the 24-puzzle into compact blocks (blank-first tile numbers):
/// the top-left corner around the blank, a 3×2 block down the right of the top rows, a 3×2
/// block down the left of the bottom rows, and the 2×3 block at the bottom right. Each is
/// one 127.5M-entry table (25!/19! placements).
pub const PATTERNS_5X5: [&[u8]; 4] = [
    &[1, 2, 5, 6, 7, 12],
    &[3, 4, 8, 9, 13, 14],
    &[10, 11, 15, 16, 20, 21],
    &[17, 18, 19, 22, 23, 24],
];

/// The 4×4 partitions that can be chosen by name (blank-first tile numbers).
pub const NAMED_4X4: [(&str, &[&[u8]]); 3] = [
    (
        "6-6-3",
        &[&[1, 4, 5, 8, 9, 12], &[2, 3, 6, 7, 10, 11], &[13, 14, 15]],
    ),
    (
        "7-7-1",
        &[&[1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 13, 14, 15], &[12]],
    ),
    (
        "7-8",
        &[&[1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 12, 13, 14, 15]],
    ),
];

/// The partition called `name`: `default`, one of `NAMED_4X4` on a 4×4 board, or the
/// tiles spelled out, groups separated by `/` and tiles by `,` (`1,2,3/4,5,6,7/8`).
/// `load_or_build` checks that the groups cover every tile once.
pub fn partition(width: usize, height: usize, name: &str) -> Result<Vec<Vec<u8>>> {
    if name == "default" {
        return Ok(default_patterns(width, height));
    }
    if let Some((_, groups)) = NAMED_4X4.iter().find(|(n, _)| *n == name) {
        if (width, height) != (4, 4) {
            return Err(PdbError::PartitionSize {
                name: name.to_string(),
                width,
                height,
            });
        }
        return Ok(groups.iter().map(|g| g.to_vec()).collect());
    }
    name.split('/')
        .map(|g| {
            g.split(',')
                .map(|t| {
                    t.trim().parse::<u8>().map_err(|_| PdbError::PartitionTile {
                        name: name.to_string(),
                        part: t.to_string(),
                    })
                })
                .collect()
        })
        .collect()
}

/// Where tables are cached: `$LLK_CACHE`, else `$XDG_CACHE_HOME/llk`, else `~/.cache/llk`.
/// An empty variable counts as unset (so `LLK_CACHE=""` does not mean the current folder),
/// and so does a relative `XDG_CACHE_HOME`, which the XDG specification says to ignore.
pub fn cache_dir() -> PathBuf {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(p) = var("LLK_CACHE") {
        return PathBuf::from(p);
    }
    if let Some(p) = var("XDG_CACHE_HOME").filter(|p| Path::new(p).is_absolute()) {
        return PathBuf::from(p).join("llk");
    }
    let home = var("HOME").unwrap_or_else(|| ".".into());
    PathBuf::from(home).join(".cache").join("llk")
}

/// Why pattern tables could not be named, loaded, built or cached.
#[derive(Debug, thiserror::Error)]
pub enum PdbError {
    /// A named partition for another board size.
    #[error("partition {name} is for 4x4 boards; this one is {height}x{width}")]
    PartitionSize {
        /// The partition's name.
        name: String,
        /// Board columns.
        width: usize,
        /// Board rows.
        height: usize,
    },
    /// A spelled-out partition with a part that is not a tile number.
    #[error("partition '{name}': '{part}' is not a tile number (or use default, {})", NAMED_4X4.map(|(n, _)| n).join(", "))]
    PartitionTile {
        /// The partition as given.
        name: String,
        /// The part that is not a number.
        part: String,
    },
    /// A file operation on the cache failed: `what` is "cannot create cache folder",
    /// "cannot write", "cannot rename to" or "cannot read".
    #[error("{what} {}", path.display())]
    Io {
        /// What was being done.
        what: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// What the file system said.
        #[source]
        source: std::io::Error,
    },
    /// A cached file made for another pattern, board or format.
    #[error("{}: header does not match this pattern", .0.display())]
    Header(PathBuf),
    /// A cached nibble file in the format of an older llk (rebuilt from the byte table).
    #[error("{}: written by an older llk (another checksum)", .0.display())]
    OldFormat(PathBuf),
    /// A cached nibble file of the wrong length.
    #[error("{}: wrong size (truncated?)", .0.display())]
    WrongSize(PathBuf),
    /// A cached table of the wrong length.
    #[error("{}: {got} payload bytes, expected {want} (truncated or wrong size)", path.display())]
    Payload {
        /// The file.
        path: PathBuf,
        /// Payload bytes found.
        got: usize,
        /// Payload bytes the pattern needs.
        want: usize,
    },
    /// A cached file whose checksum does not match its payload.
    #[error("{}: checksum mismatch (corrupt file)", .0.display())]
    Checksum(PathBuf),
    /// A board larger than the tables index.
    #[error("pattern databases need a board of at most {MAX_CELLS} cells; {height}x{width} has {}", width * height)]
    TooManyCells {
        /// Board columns.
        width: usize,
        /// Board rows.
        height: usize,
    },
    /// No pattern, or more than the tables hold.
    #[error("a pattern database needs 1..={MAX_PATTERNS} patterns")]
    PatternCount,
    /// A pattern with no tile or too many.
    #[error("each pattern on {cells} cells needs 1..={most} tiles, got {got}")]
    PatternSize {
        /// Board cells.
        cells: usize,
        /// Most tiles a pattern may hold on this board.
        most: usize,
        /// Tiles in the pattern.
        got: usize,
    },
    /// The blank, a tile off the board, or a tile in two patterns.
    #[error("tile {0} is invalid or in two patterns")]
    BadTile(u8),
    /// Tiles in no pattern.
    #[error("the patterns must cover every tile 1..{}", .0 - 1)]
    Uncovered(usize),
    /// A table built for the cache could not be saved (`build_into_cache`).
    #[error("could not cache the pattern table")]
    Cache(#[source] Box<PdbError>),
    /// A table neither loaded nor built, or a nibble table of the wrong size: a bug.
    #[error("internal error: {0}")]
    Internal(&'static str),
    /// Another thread panicked while holding the process's table cache.
    #[error("pattern database cache lock poisoned")]
    Poisoned,
}

type Result<T> = std::result::Result<T, PdbError>;

/// The pattern-table cache folder cannot be created or written.
#[derive(Debug, thiserror::Error)]
#[error("the pattern-table cache {} is not writable (set LLK_CACHE to a writable folder)", dir.display())]
pub struct CacheError {
    /// The folder.
    pub dir: PathBuf,
    /// What failed.
    #[source]
    pub source: std::io::Error,
}

/// Creates the cache folder and checks that a file can be written in it (by writing and
/// removing a small probe), so a build that would be lost is refused before it starts.
pub fn check_cache_dir(dir: &Path) -> std::result::Result<(), CacheError> {
    let err = |source| CacheError {
        dir: dir.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(err)?;
    let probe = dir.join(format!(".llk-probe-{}", std::process::id()));
    std::fs::write(&probe, b"llk").map_err(err)?;
    std::fs::remove_file(&probe).map_err(err)
}

/// Wraps a file system error on `path` as a [`PdbError::Io`] saying `what` was done.
fn io<'a>(what: &'static str, path: &'a Path) -> impl FnOnce(std::io::Error) -> PdbError + 'a {
    move |source| PdbError::Io {
        what,
        path: path.to_path_buf(),
        source,
    }
}

/// The little-endian `u64` at byte `at` of `bytes` (the caller has checked the length).
fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0u8; 8];
    word.copy_from_slice(&bytes[at..at + 8]);
    u64::from_le_bytes(word)
}

fn refl_cell(c: usize, width: usize) -> usize {
    (c % width) * width + c / width
}

/// Dense rank of a placement (cells distinct, each < `cells`) in `0..placements(cells, k)`:
/// the on-disk order, by counting; the reference the fast ranks are tested against.
#[cfg(test)]
fn rank(pos: &[usize], cells: usize) -> usize {
    let mut r = 0;
    for (j, &p) in pos.iter().enumerate() {
        let smaller_used = pos[..j].iter().filter(|&&q| q < p).count();
        r = r * (cells - j) + (p - smaller_used);
    }
    r
}

/// Cells of the `k` tiles of a sparse index, or `None` if two share a cell or one is off
/// the board (such indices are never looked up); the test's reference decoding.
#[cfg(test)]
fn decode(idx: usize, k: usize, cells: usize) -> Option<[usize; MAX_PATTERN_TILES]> {
    let mut pos = [0usize; MAX_PATTERN_TILES];
    let mut used = 0u32;
    for (j, p) in pos.iter_mut().enumerate().take(k) {
        let c = (idx >> (4 * j)) & 15;
        if c >= cells || used & (1 << c) != 0 {
            return None;
        }
        used |= 1 << c;
        *p = c;
    }
    Some(pos)
}

/// Calls `f(rank, sparse index, cells)` for every placement of `k` tiles on `cells` cells, in
/// rank order: choosing each tile's cell in increasing order among the free ones counts the
/// mixed-radix rank up by one per placement, so neither the rank nor the index is ever
/// recomputed from scratch. Generic over `f` (not a `dyn` call) so the callback is inlined
/// into the walk: a 7-tile table has 57.7M placements.
fn for_each_placement(cells: usize, k: usize, f: impl FnMut(usize, usize, &[usize])) {
    if cells <= 16 {
        walk_placements::<4>(cells, k, f)
    } else {
        walk_placements::<5>(cells, k, f)
    }
}

/// `for_each_placement` with cells packed `B` bits each (a constant, as the walk is the
/// whole cost of deriving the nibble tables at load).
fn walk_placements<const B: usize>(
    cells: usize,
    k: usize,
    mut f: impl FnMut(usize, usize, &[usize]),
) {
    struct Walk<'f, F, const B: usize> {
        cells: usize,
        k: usize,
        pos: [usize; MAX_PATTERN_TILES],
        rank: usize,
        f: &'f mut F,
    }
    impl<F: FnMut(usize, usize, &[usize]), const B: usize> Walk<'_, F, B> {
        fn go(&mut self, j: usize, used: u32, idx: usize) {
            if j == self.k {
                (self.f)(self.rank, idx, &self.pos[..self.k]);
                self.rank += 1;
                return;
            }
            for c in 0..self.cells {
                if used & (1 << c) == 0 {
                    self.pos[j] = c;
                    self.go(j + 1, used | 1 << c, idx | c << (B * j));
                }
            }
        }
    }
    let mut w: Walk<_, B> = Walk {
        cells,
        k,
        pos: [0; MAX_PATTERN_TILES],
        rank: 0,
        f: &mut f,
    };
    w.go(0, 0, 0);
}

/// Table of one pattern by 0-1 BFS from the goal over (pattern tiles, blank cell): the
/// straightforward method `pdb_build` replaced, kept as the reference its tables are tested
/// against. Returns the sparse table indexed by `Σ cell_j << bj` (`b = cell_bits`; entries
/// of impossible placements are 0).
#[cfg(test)]
fn build_pattern_reference(width: usize, height: usize, tiles: &[u8]) -> Vec<u8> {
    let k = tiles.len();
    let cells = width * height;
    let b = cell_bits(cells);
    let m = (1u32 << b) - 1;
    let size = 1usize << (b as usize * (k + 1));
    let mut nbrs = vec![Vec::new(); cells];
    for (c, n) in nbrs.iter_mut().enumerate() {
        for d in super::puzzle::Dir::ALL {
            if let Some(q) = super::puzzle::step(c, d, width, height) {
                n.push(q as u32);
            }
        }
    }
    let mut dist = vec![u8::MAX; size];
    let mut goal = 0u32; // blank home at cell 0
    for (j, &t) in tiles.iter().enumerate() {
        goal |= (t as u32) << (b * (j as u32 + 1));
    }
    dist[goal as usize] = 0;
    let mut cur = vec![goal];
    let mut next = Vec::new();
    let mut d = 0u8;
    loop {
        let mut i = 0;
        while i < cur.len() {
            let s = cur[i];
            i += 1;
            if dist[s as usize] != d {
                continue;
            }
            let blank = s & m;
            let mut owner = [u8::MAX; 32];
            for j in 0..k {
                owner[((s >> (b * (j as u32 + 1))) & m) as usize] = j as u8;
            }
            for &q in &nbrs[blank as usize] {
                let j = owner[q as usize];
                if j == u8::MAX {
                    let ns = (s & !m) | q;
                    if dist[ns as usize] > d {
                        dist[ns as usize] = d;
                        cur.push(ns);
                    }
                } else {
                    let sh = b * (j as u32 + 1);
                    let ns = (s & !(m << sh) & !m) | (blank << sh) | q;
                    if dist[ns as usize] > d + 1 {
                        dist[ns as usize] = d + 1;
                        next.push(ns);
                    }
                }
            }
        }
        if next.is_empty() {
            break;
        }
        d += 1;
        cur.clear();
        std::mem::swap(&mut cur, &mut next);
    }
    let mut table = vec![u8::MAX; 1 << (b as usize * k)];
    for (s, &v) in dist.iter().enumerate() {
        let t = &mut table[s >> b];
        if v < *t {
            *t = v;
        }
    }
    for t in table.iter_mut() {
        if *t == u8::MAX {
            *t = 0;
        }
    }
    table
}

fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

fn header(width: usize, height: usize, tiles: &[u8]) -> Vec<u8> {
    let mut h = MAGIC.to_vec();
    h.extend([width as u8, height as u8, tiles.len() as u8]);
    h.extend(tiles);
    h
}

/// File a pattern's table is cached in, named after the board and the pattern's tiles.
pub fn cache_file(dir: &Path, width: usize, height: usize, tiles: &[u8]) -> PathBuf {
    let names: Vec<String> = tiles.iter().map(|t| t.to_string()).collect();
    dir.join(format!(
        "slide-pdb-{height}x{width}-{}.bin",
        names.join("-")
    ))
}

/// Writes a table (one byte per placement in rank order) behind its header, payload length
/// and FNV-1a checksum. Written to a temporary name then renamed, so a crash never leaves a
/// half-written file under the real name.
pub fn save_table(
    path: &Path,
    width: usize,
    height: usize,
    tiles: &[u8],
    dense: &[u8],
) -> Result<()> {
    let mut out = header(width, height, tiles);
    out.extend((dense.len() as u64).to_le_bytes());
    out.extend(fnv1a(dense).to_le_bytes());
    out.extend(dense);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io("cannot create cache folder", dir))?;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, &out).map_err(io("cannot write", &tmp))?;
    std::fs::rename(&tmp, path).map_err(io("cannot rename to", path))?;
    Ok(())
}

const MAGIC_EXCESS: &[u8; 8] = b"LLKSPDX2";
/// The nibble files' first format, whose checksum took one FNV-1a lane.
const MAGIC_EXCESS_V1: &[u8; 8] = b"LLKSPDX1";

/// Checksum of the nibble files: FNV-1a's step over four interleaved lanes of 8-byte words,
/// folded together, then FNV-1a over the bytes past the last 32-byte block. The lanes are
/// independent, so the compiler vectorises them: 1.1 ms for a 28.8 MB 4×4 file against
/// 9–11 ms with one lane, which was most of a one-board solve's time.
fn nibble_checksum(bytes: &[u8]) -> u64 {
    let mut h = [0xcbf29ce484222325u64; 4];
    let mut blocks = bytes.chunks_exact(32);
    for block in &mut blocks {
        for (lane, word) in h.iter_mut().zip(block.chunks_exact(8)) {
            *lane ^= u64::from_le_bytes(word.try_into().unwrap_or_default());
            *lane = lane.wrapping_mul(0x100000001b3);
        }
    }
    h[0] ^ h[1].rotate_left(16)
        ^ h[2].rotate_left(32)
        ^ h[3].rotate_left(48)
        ^ fnv1a(blocks.remainder())
}

/// File a pattern's nibble table (boards of more than 16 cells) is cached in.
pub fn excess_file(dir: &Path, width: usize, height: usize, tiles: &[u8]) -> PathBuf {
    cache_file(dir, width, height, tiles).with_extension("nib")
}

/// Writes a nibble table (`PatternDb::excess`, in rank order) and its capped count behind a
/// header, payload length and checksum; through a temporary name as `save_table` does.
fn save_excess(
    path: &Path,
    width: usize,
    height: usize,
    tiles: &[u8],
    nibbles: &[u8],
    capped: u64,
) -> Result<()> {
    let mut out = MAGIC_EXCESS.to_vec();
    out.extend(&header(width, height, tiles)[MAGIC.len()..]);
    out.extend(capped.to_le_bytes());
    out.extend((nibbles.len() as u64).to_le_bytes());
    out.extend(nibble_checksum(nibbles).to_le_bytes());
    out.extend(nibbles);
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    std::fs::write(&tmp, &out).map_err(io("cannot write", &tmp))?;
    std::fs::rename(&tmp, path).map_err(io("cannot rename to", path))?;
    Ok(())
}

/// Maps a nibble table into memory (reads it where it cannot be mapped) with its capped
/// count, refusing a file whose header, size or checksum does not match.
fn load_excess(
    path: &Path,
    width: usize,
    height: usize,
    tiles: &[u8],
) -> Result<(TableBytes, u64)> {
    load_excess_with(path, width, height, tiles, true)
}

/// `load_excess`, mapping the file only when `map` is set.
fn load_excess_with(
    path: &Path,
    width: usize,
    height: usize,
    tiles: &[u8],
    map: bool,
) -> Result<(TableBytes, u64)> {
    let mut file = std::fs::File::open(path).map_err(io("cannot read", path))?;
    let size = file.metadata().map_err(io("cannot read", path))?.len();
    let mut head = MAGIC_EXCESS.to_vec();
    head.extend(&header(width, height, tiles)[MAGIC.len()..]);
    let at = head.len() + 24;
    if size < at as u64 {
        return Err(PdbError::WrongSize(path.to_path_buf()));
    }
    let mut front = vec![0u8; at];
    file.read_exact(&mut front)
        .map_err(io("cannot read", path))?;
    if front[..head.len()] != head[..] {
        if front.starts_with(MAGIC_EXCESS_V1) {
            return Err(PdbError::OldFormat(path.to_path_buf()));
        }
        return Err(PdbError::Header(path.to_path_buf()));
    }
    let word = |i: usize| u64_at(&front, head.len() + 8 * i);
    let (capped, len, sum) = (word(0), word(1), word(2));
    let want = placements(width * height, tiles.len()).div_ceil(2);
    if len != want as u64 || size != (at + want) as u64 {
        return Err(PdbError::WrongSize(path.to_path_buf()));
    }
    let bytes =
        pdb_bytes::payload(&mut file, at as u64, want, map).map_err(io("cannot read", path))?;
    if nibble_checksum(&bytes) != sum {
        return Err(PdbError::Checksum(path.to_path_buf()));
    }
    Ok((bytes, capped))
}

/// Reads a cached table back (one byte per placement in rank order), refusing any file
/// whose header, size or checksum does not match what this pattern needs.
pub fn load_table(path: &Path, width: usize, height: usize, tiles: &[u8]) -> Result<Vec<u8>> {
    let mut bytes = std::fs::read(path).map_err(io("cannot read", path))?;
    let want = placements(width * height, tiles.len());
    let head = header(width, height, tiles);
    if bytes.len() < head.len() + 16 || bytes[..head.len()] != head[..] {
        return Err(PdbError::Header(path.to_path_buf()));
    }
    let at = head.len() + 16;
    let len = u64_at(&bytes, head.len()) as usize;
    let sum = u64_at(&bytes, head.len() + 8);
    if len != want || bytes.len() != at + want {
        return Err(PdbError::Payload {
            path: path.to_path_buf(),
            got: bytes.len() - at.min(bytes.len()),
            want,
        });
    }
    if fnv1a(&bytes[at..]) != sum {
        return Err(PdbError::Checksum(path.to_path_buf()));
    }
    bytes.drain(..at);
    Ok(bytes)
}

/// The sparse form (indexed by `Σ cell_j << bj`, `b = cell_bits`, holes 0) of a table in
/// rank order.
fn sparse_from_dense(cells: usize, k: usize, dense: &[u8]) -> Vec<u8> {
    let mut table = vec![0u8; 1 << (cell_bits(cells) as usize * k)];
    for_each_placement(cells, k, |r, idx, _| table[idx] = dense[r]);
    table
}

/// The nibble-packed excess table of one pattern (see `PatternDb::excess`), indexed like its
/// table `t` (by dense rank when `dense`), and how many entries were capped at 15.
fn excess_table(width: usize, cells: usize, p: &[u8], t: &[u8], dense: bool) -> (Vec<u8>, u64) {
    let mut packed = vec![0u8; t.len().div_ceil(2)];
    let mut capped = 0;
    // Each tile's distance from each cell, looked up rather than divided out.
    let md_of: Vec<u32> = p
        .iter()
        .flat_map(|&tile| (0..cells).map(move |c| super::heuristic::tile_manhattan(tile, c, width)))
        .collect();
    for_each_placement(cells, p.len(), |r, idx, pos| {
        let md: u32 = pos
            .iter()
            .enumerate()
            .map(|(j, &c)| md_of[j * cells + c])
            .sum();
        let at = if dense { r } else { idx };
        let e = (t[at] as u32).saturating_sub(md) / 2;
        if e > 15 {
            capped += 1;
        }
        packed[at >> 1] |= (e.min(15) as u8) << ((at & 1) * 4);
    });
    (packed, capped)
}

impl PatternDb {
    /// Loads each pattern's table from `cache` (when given and valid) or builds it — the
    /// builds run on parallel threads with a progress bar — and saves what it built.
    /// A cached file that fails its checks is reported on stderr and rebuilt; a table that
    /// cannot be saved is reported on stderr and used anyway.
    pub fn load_or_build(
        width: usize,
        height: usize,
        patterns: Vec<Vec<u8>>,
        cache: Option<&Path>,
    ) -> Result<PatternDb> {
        PatternDb::load_or_build_with(width, height, patterns, cache, false)
    }

    /// `load_or_build` for filling the cache (`llk slide pdb`): a table that cannot be
    /// saved in `cache` is an error instead of a warning.
    pub fn build_into_cache(
        width: usize,
        height: usize,
        patterns: Vec<Vec<u8>>,
        cache: &Path,
    ) -> Result<PatternDb> {
        PatternDb::load_or_build_with(width, height, patterns, Some(cache), true)
    }

    fn load_or_build_with(
        width: usize,
        height: usize,
        patterns: Vec<Vec<u8>>,
        cache: Option<&Path>,
        must_save: bool,
    ) -> Result<PatternDb> {
        let cells = width * height;
        if cells > MAX_CELLS {
            return Err(PdbError::TooManyCells { width, height });
        }
        let most = max_tiles(cells);
        if patterns.is_empty() || patterns.len() > MAX_PATTERNS {
            return Err(PdbError::PatternCount);
        }
        let mut seen = vec![false; cells];
        for p in &patterns {
            if p.is_empty() || p.len() > most {
                return Err(PdbError::PatternSize {
                    cells,
                    most,
                    got: p.len(),
                });
            }
            for &t in p {
                if t == 0 || t as usize >= cells || seen[t as usize] {
                    return Err(PdbError::BadTile(t));
                }
                seen[t as usize] = true;
            }
        }
        if seen.iter().skip(1).any(|s| !s) {
            return Err(PdbError::Uncovered(cells));
        }
        // Tables indexed by dense rank (patterns of over 6 tiles, every pattern of a board
        // over 16 cells) keep only their nibble tables when no entry was capped, cached as
        // files of their own: half the bytes, and no walk over every placement at load.
        let dense: Vec<bool> = patterns
            .iter()
            .map(|p| p.len() > SPARSE_TILES || cells > 16)
            .collect();
        let mut ready: Vec<Option<(TableBytes, u64)>> = patterns.iter().map(|_| None).collect();
        let mut tables: Vec<Option<Vec<u8>>> = vec![None; patterns.len()];
        if let Some(dir) = cache {
            // Mapping a nibble file costs nothing; checking its checksum reads every page of
            // it: one thread per file.
            let nibbles: Vec<Option<Result<(TableBytes, u64)>>> = std::thread::scope(|s| {
                let jobs: Vec<_> = patterns
                    .iter()
                    .zip(&dense)
                    .map(|(p, &d)| {
                        let fx = excess_file(dir, width, height, p);
                        (d && fx.exists())
                            .then(|| s.spawn(move || load_excess(&fx, width, height, p)))
                    })
                    .collect();
                jobs.into_iter()
                    .map(|j| {
                        j.map(|j| {
                            j.join().unwrap_or(Err(PdbError::Internal(
                                "a nibble file's check panicked",
                            )))
                        })
                    })
                    .collect()
            });
            for (i, (p, loaded)) in patterns.iter().zip(nibbles).enumerate() {
                match loaded {
                    Some(Ok(e)) => {
                        ready[i] = Some(e);
                        continue;
                    }
                    Some(Err(e)) => eprintln!("pattern cache rejected, rebuilding: {}", Chain(&e)),
                    None => {}
                }
                let f = cache_file(dir, width, height, p);
                if f.exists() {
                    match load_table(&f, width, height, p) {
                        Ok(t) => tables[i] = Some(t),
                        Err(e) => eprintln!("pattern cache rejected, rebuilding: {}", Chain(&e)),
                    }
                }
            }
        }
        let missing: Vec<usize> = (0..patterns.len())
            .filter(|&i| tables[i].is_none() && ready[i].is_none())
            .collect();
        if !missing.is_empty() {
            let total: u64 = missing
                .iter()
                .map(|&i| placements(cells, patterns[i].len()) as u64)
                .sum();
            eprintln!(
                "building {} pattern table(s) for {height}x{width}: {total} entries, {} MB \
                 (cached once built)",
                missing.len(),
                total >> 20
            );
            let clock = std::time::Instant::now();
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template(
                    "building pattern tables {bar:40} {percent}% {elapsed} (eta {eta})",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            // One table at a time, each over all the cores.
            let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
            for &i in &missing {
                let t = build_dense(width, height, &patterns[i], threads, &bar);
                if let Some(dir) = cache {
                    let f = cache_file(dir, width, height, &patterns[i]);
                    match save_table(&f, width, height, &patterns[i], &t) {
                        Err(e) if must_save => {
                            bar.finish_and_clear();
                            return Err(PdbError::Cache(Box::new(e)));
                        }
                        Err(e) => eprintln!("could not cache pattern table: {}", Chain(&e)),
                        Ok(()) => {}
                    }
                }
                tables[i] = Some(t);
            }
            bar.finish_and_clear();
            eprintln!(
                "built the pattern tables in {:.1} s",
                clock.elapsed().as_secs_f64()
            );
        }
        let bits = cell_bits(cells);
        let mut tables: Vec<Vec<u8>> = tables
            .into_iter()
            .zip(patterns.iter().zip(&dense))
            .zip(&ready)
            .map(|((t, (p, &d)), r)| {
                if r.is_some() {
                    return Ok(Vec::new());
                }
                let t = t.ok_or(PdbError::Internal("a pattern table failed to build"))?;
                Ok(if d {
                    t
                } else {
                    sparse_from_dense(cells, p.len(), &t)
                })
            })
            .collect::<Result<_>>()?;
        let mut slot = vec![(0u8, 0u8); cells];
        for (pi, p) in patterns.iter().enumerate() {
            for (j, &t) in p.iter().enumerate() {
                slot[t as usize] = (pi as u8, (bits as usize * j) as u8);
            }
        }
        // The nibble tables, one pattern per thread (a 7-tile table walks 57.7M placements).
        let (excess, capped): (Vec<TableBytes>, Vec<u64>) = std::thread::scope(|s| {
            let jobs: Vec<_> = patterns
                .iter()
                .zip(&tables)
                .zip(&dense)
                .zip(ready)
                .map(|(((p, t), &d), r)| {
                    s.spawn(move || {
                        r.unwrap_or_else(|| {
                            let (e, capped) = excess_table(width, cells, p, t, d);
                            (e.into(), capped)
                        })
                    })
                })
                .collect();
            jobs.into_iter()
                .map(|j| j.join().unwrap_or_default())
                .unzip()
        });
        let sizes_ok = excess
            .iter()
            .zip(&tables)
            .zip(&patterns)
            .all(|((e, t), p)| {
                let n = if t.is_empty() {
                    placements(cells, p.len())
                } else {
                    t.len()
                };
                e.len() == n.div_ceil(2)
            });
        if !sizes_ok {
            return Err(PdbError::Internal(
                "a pattern table's excess could not be computed",
            ));
        }
        for (i, p) in patterns.iter().enumerate() {
            if !dense[i] || tables[i].is_empty() || capped[i] > 0 {
                continue;
            }
            if let Some(dir) = cache {
                let f = excess_file(dir, width, height, p);
                if let Err(e) = save_excess(&f, width, height, p, &excess[i][..], capped[i]) {
                    eprintln!("could not cache pattern table: {}", Chain(&e));
                }
            }
            tables[i] = Vec::new();
        }
        let capped = capped.iter().sum();
        let weights = patterns
            .iter()
            .map(|p| digit_weights(cells, p.len()))
            .collect();
        Ok(PatternDb {
            width,
            height,
            patterns,
            tables,
            weights,
            bits,
            dense,
            reflect: width == height,
            slot,
            excess,
            capped,
        })
    }

    /// The shared database for a board size with the default partition, loaded (or built
    /// and cached) once per process.
    pub fn for_board(width: usize, height: usize) -> Result<Arc<PatternDb>> {
        PatternDb::for_patterns(width, height, default_patterns(width, height))
    }

    /// The shared database for a board size and partition, loaded (or built and cached on
    /// disk) once per process.
    pub fn for_patterns(
        width: usize,
        height: usize,
        patterns: Vec<Vec<u8>>,
    ) -> Result<Arc<PatternDb>> {
        static DBS: OnceLock<Mutex<DbCache>> = OnceLock::new();
        let dbs = DBS.get_or_init(|| Mutex::new(HashMap::new()));
        let mut map = dbs.lock().map_err(|_| PdbError::Poisoned)?;
        let key = (width, height, patterns);
        if let Some(db) = map.get(&key) {
            return Ok(db.clone());
        }
        let dir = cache_dir();
        let db = Arc::new(PatternDb::load_or_build(
            width,
            height,
            key.2.clone(),
            Some(&dir),
        )?);
        map.insert(key, db.clone());
        Ok(db)
    }

    /// Board width.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Board height.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The tiles of each pattern (for reports).
    pub fn patterns(&self) -> &[Vec<u8>] {
        &self.patterns
    }

    /// Whether the diagonal reflection is used (square boards only).
    pub fn reflects(&self) -> bool {
        self.reflect
    }

    /// Pattern and shift of a tile's cell in that pattern's index.
    pub fn slot(&self, tile: u8) -> (usize, u32) {
        let (p, s) = self.slot[tile as usize];
        (p as usize, s as u32)
    }

    /// The reflected tile (or cell) of `t` about the main diagonal; `t` itself on
    /// non-square boards, where the reflection is not used.
    pub fn reflect_cell(&self, t: usize) -> usize {
        if self.reflect {
            refl_cell(t, self.width)
        } else {
            t
        }
    }

    /// Half the moves pattern `p` needs beyond its tiles' Manhattan distance, at `position`
    /// in its tables (see the `excess` field); the search's fast lookup.
    #[inline]
    pub fn excess(&self, p: usize, position: usize) -> u32 {
        ((self.excess[p][position >> 1] >> ((position & 1) * 4)) & 15) as u32
    }

    /// Position in pattern `p`'s tables of the placement with packed cells `idx`: the
    /// packed cells themselves, or their dense rank.
    #[inline]
    pub fn position(&self, p: usize, idx: usize) -> usize {
        if self.dense[p] {
            rank_packed(idx as u32, self.patterns[p].len(), self.width * self.height)
        } else {
            idx
        }
    }

    /// Position of pattern `p` in its tables after its tile in bit slot `s` (see
    /// [`PatternDb::slot`]) slid from cell `from` to the adjacent cell `to`, from the position
    /// `pos` before: packed cells change by the two cells' difference in that slot, a dense
    /// rank is updated by `pdb_build::moved_rank`, for which `tile_at(x)` is the tile on cell
    /// `x` (0: blank).
    #[inline]
    pub fn moved_position(
        &self,
        (p, s): (usize, u32),
        pos: u32,
        from: usize,
        to: usize,
        tile_at: impl Fn(usize) -> u8,
    ) -> u32 {
        if !self.dense[p] {
            return pos - ((from as u32) << s) + ((to as u32) << s);
        }
        let j = (s / self.bits) as usize;
        super::pdb_build::moved_rank(pos as usize, &self.weights[p], j, from, to, |x| {
            let u = tile_at(x);
            let (q, shift) = self.slot[u as usize];
            if u != 0 && q as usize == p {
                shift / self.bits as u8
            } else {
                EMPTY
            }
        }) as u32
    }

    /// Bytes of tables mapped from cached files (the page cache's, shared with other
    /// processes), and bytes held in this process's own memory (built, or read where a
    /// file could not be mapped).
    pub fn footprint(&self) -> (u64, u64) {
        let mut mapped = 0;
        let mut owned: u64 = self.tables.iter().map(|t| t.len() as u64).sum();
        for e in &self.excess {
            if e.is_mapped() {
                mapped += e.len() as u64;
            } else {
                owned += e.len() as u64;
            }
        }
        (mapped, owned)
    }

    /// Number of entries whose excess was capped at 15 (0 for the default partitions).
    pub fn capped(&self) -> u64 {
        self.capped
    }

    /// Table value of pattern `p` for packed cells `idx`.
    #[inline]
    pub fn value(&self, p: usize, idx: usize) -> u32 {
        let pos = self.position(p, idx);
        if !self.tables[p].is_empty() {
            return self.tables[p][pos] as u32;
        }
        // Only the excess is kept: add back the pattern's Manhattan distance.
        let mask = (1usize << self.bits) - 1;
        let md: u32 = self.patterns[p]
            .iter()
            .enumerate()
            .map(|(j, &t)| {
                let cell = (idx >> (self.bits as usize * j)) & mask;
                super::heuristic::tile_manhattan(t, cell, self.width)
            })
            .sum();
        md + 2 * self.excess(p, pos)
    }

    /// Sparse indices of every pattern for `tiles` and for its reflection.
    pub fn indices(&self, tiles: &[u8]) -> ([usize; MAX_PATTERNS], [usize; MAX_PATTERNS]) {
        let mut reg = [0usize; MAX_PATTERNS];
        let mut refl = [0usize; MAX_PATTERNS];
        for (cell, &t) in tiles.iter().enumerate() {
            if t == 0 {
                continue;
            }
            let (p, s) = self.slot(t);
            reg[p] |= cell << s;
            let (p, s) = self.slot(self.reflect_cell(t as usize) as u8);
            refl[p] |= self.reflect_cell(cell) << s;
        }
        (reg, refl)
    }

    /// Sum of the tables at the given indices.
    #[inline]
    pub fn sum(&self, idx: &[usize; MAX_PATTERNS]) -> u32 {
        (0..self.tables.len()).map(|p| self.value(p, idx[p])).sum()
    }

    /// The estimate for a blank-first position: the larger of the direct and reflected sums.
    pub fn estimate(&self, tiles: &[u8]) -> u32 {
        let (reg, refl) = self.indices(tiles);
        let a = self.sum(&reg);
        if self.reflect {
            a.max(self.sum(&refl))
        } else {
            a
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_is_a_bijection() {
        let cells = 9;
        let k = 3;
        let mut seen = vec![false; placements(cells, k)];
        for idx in 0..1 << (4 * k) {
            if let Some(p) = decode(idx, k, cells) {
                let r = rank(&p[..k], cells);
                assert!(!seen[r]);
                seen[r] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
        // The enumeration used for loading visits placements in exactly rank order.
        let mut count = 0;
        for_each_placement(cells, k, |r, idx, pos| {
            assert_eq!(r, count);
            assert_eq!(rank(pos, cells), r);
            assert_eq!(
                decode(idx, k, cells).map(|p| p[..k].to_vec()),
                Some(pos.to_vec())
            );
            count += 1;
        });
        assert_eq!(count, placements(cells, k));
    }

    /// The region BFS gives exactly the tables of the plain 0-1 BFS over blank cells, on
    /// square and oblong boards, small and large patterns.
    #[test]
    fn region_bfs_matches_reference_build() {
        let cases: [(usize, usize, &[u8]); 9] = [
            (6, 3, &[1, 7, 8]),
            (5, 5, &[18, 23]),
            (3, 7, &[20, 19, 1]),
            (3, 3, &[1, 2, 3, 4]),
            (3, 3, &[5, 6, 7, 8]),
            (4, 2, &[1, 2, 5]),
            (4, 3, &[3, 6, 7, 10, 11]),
            (4, 4, &[13, 14, 15]),
            (4, 4, &[1, 2, 4, 5]),
        ];
        for (w, h, tiles) in cases {
            let cells = w * h;
            let reference = build_pattern_reference(w, h, tiles);
            for threads in [1, 2] {
                let dense = build_dense(w, h, tiles, threads, &ProgressBar::hidden());
                assert_eq!(dense.len(), placements(cells, tiles.len()));
                assert_eq!(
                    sparse_from_dense(cells, tiles.len(), &dense),
                    reference,
                    "{h}x{w} {tiles:?} on {threads} threads"
                );
            }
        }
    }

    #[test]
    fn the_4x4_default_is_the_named_7_7_1() {
        assert_eq!(default_patterns(4, 4), partition(4, 4, "7-7-1").unwrap());
        assert_eq!(partition(4, 4, "1,2/3").unwrap(), vec![vec![1, 2], vec![3]]);
        assert!(partition(4, 4, "1,x").is_err());
        assert!(partition(3, 3, "7-8").is_err());
    }

    /// One pattern holding every tile of the 8-puzzle (8 tiles: dense ranks) is the exact
    /// distance to the goal, so its estimate must equal breadth-first search's length.
    #[test]
    fn a_pattern_of_every_tile_is_the_exact_distance() {
        use crate::slide::{solve, Algo, Goal, Heuristic, Limits, Puzzle};
        let db = PatternDb::load_or_build(3, 3, vec![(1..9).collect()], None).unwrap();
        for seed in 0..30 {
            let p = Puzzle::random(3, 3, Goal::BlankFirst, seed).unwrap();
            let bfs = solve(
                &p,
                &Goal::BlankFirst,
                Algo::Bfs,
                Heuristic::Zero,
                &Limits::default(),
            )
            .unwrap();
            assert_eq!(
                db.estimate(p.tiles()) as usize,
                bfs.moves.len(),
                "seed {seed}"
            );
        }
    }

    /// The counter-based rank of packed cells equals the counting rank, up to 8 tiles (6 on
    /// boards of more than 16 cells, packed 5 bits a cell).
    #[test]
    fn packed_rank_matches_counting_rank() {
        let mut x = 12345u64;
        for cells in [9, 12, 16, 18, 25, 32] {
            let bits = cell_bits(cells);
            for k in 1..=max_tiles(cells).min(cells - 1) {
                for _ in 0..2000 {
                    let mut free: Vec<usize> = (0..cells).collect();
                    let mut pos = Vec::new();
                    let mut idx = 0u32;
                    for j in 0..k {
                        x = x
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        let c = free.remove((x >> 33) as usize % free.len());
                        idx |= (c as u32) << (bits * j as u32);
                        pos.push(c);
                    }
                    assert_eq!(rank_packed(idx, k, cells), rank(&pos, cells), "{pos:?}");
                    let p8: Vec<u8> = pos.iter().map(|&c| c as u8).collect();
                    assert_eq!(super::super::pdb_build::rank(&p8, cells), rank(&pos, cells));
                }
            }
        }
    }

    /// A table that cannot be saved is an error for `build_into_cache` (what `llk slide
    /// pdb` uses) and a warning for `load_or_build` (what a solve uses).
    #[test]
    fn build_into_cache_fails_when_the_table_cannot_be_saved() {
        let dir = std::env::temp_dir().join(format!("llk-pdb-ro-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("file");
        std::fs::write(&file, "x").unwrap();
        let cache = file.join("cache");
        let pats = default_patterns(3, 3);
        assert!(check_cache_dir(&cache).is_err());
        let e = PatternDb::build_into_cache(3, 3, pats.clone(), &cache).unwrap_err();
        assert!(matches!(e, PdbError::Cache(_)), "{e:?}");
        assert!(e.to_string().contains("could not cache"), "{e}");
        assert!(PatternDb::load_or_build(3, 3, pats, Some(&cache)).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Dense tables, here on a board of more than 16 cells (cells packed 5 bits), keep and
    /// cache only their nibble tables; the estimate they give equals the sum of the byte tables' values,
    /// whether built or read back, and a corrupt nibble file is rebuilt.
    #[test]
    fn wide_boards_keep_nibble_tables_with_the_byte_values() {
        use crate::slide::{Goal, Puzzle};
        let dir = std::env::temp_dir().join(format!("llk-pdb-wide-{}", std::process::id()));
        let (w, h) = (3, 6);
        let pats: Vec<Vec<u8>> = vec![
            vec![1, 2, 3, 4, 5],
            vec![6, 7, 8, 9, 10],
            vec![11, 12, 13, 14],
            vec![15, 16, 17],
        ];
        let bytes: Vec<Vec<u8>> = pats
            .iter()
            .map(|p| build_dense(w, h, p, 1, &ProgressBar::hidden()))
            .collect();
        let expected = |tiles: &[u8]| -> u32 {
            pats.iter()
                .zip(&bytes)
                .map(|(p, t)| {
                    let cells: Vec<u8> = p
                        .iter()
                        .map(|&x| tiles.iter().position(|&y| y == x).unwrap() as u8)
                        .collect();
                    t[super::super::pdb_build::rank(&cells, w * h)] as u32
                })
                .sum()
        };
        for round in 0..3 {
            if round == 2 {
                let f = excess_file(&dir, w, h, &pats[1]);
                let mut b = std::fs::read(&f).unwrap();
                let last = b.len() - 1;
                b[last] ^= 0x11;
                std::fs::write(&f, &b).unwrap();
                assert!(load_excess(&f, w, h, &pats[1]).is_err());
            }
            let db = PatternDb::load_or_build(w, h, pats.clone(), Some(&dir)).unwrap();
            assert!(db.tables.iter().all(|t| t.is_empty()));
            // Built in round 0; then mapped, but for the one rebuilt in round 2.
            let mapped = db.excess.iter().filter(|e| e.is_mapped());
            assert_eq!(mapped.count(), [0, 4, 3][round], "round {round}");
            for p in &pats {
                assert!(load_excess(&excess_file(&dir, w, h, p), w, h, p).is_ok());
            }
            for seed in 0..25 {
                let b = Puzzle::random(w, h, Goal::BlankFirst, seed).unwrap();
                assert_eq!(db.estimate(b.tiles()), expected(b.tiles()), "round {round}");
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A nibble file reads the same mapped or read; a short, cut or foreign file is a typed
    /// error, and a file replaced while mapped (as a rebuild replaces it) leaves the mapped
    /// bytes as they were.
    #[test]
    fn nibble_files_map_or_read_and_bad_ones_are_refused() {
        let dir = std::env::temp_dir().join(format!("llk-pdb-nib-{}", std::process::id()));
        // Every table of a board over 16 cells is dense: nibble files only.
        let (w, h) = (3, 6);
        let pats: Vec<Vec<u8>> = vec![(1..7).collect(), (7..13).collect(), (13..18).collect()];
        let db = PatternDb::load_or_build(w, h, pats.clone(), Some(&dir)).unwrap();
        assert!(
            db.excess.iter().all(|e| !e.is_mapped()),
            "built, not mapped"
        );
        let f = excess_file(&dir, w, h, &pats[0]);
        let good = std::fs::read(&f).unwrap();
        let (mapped, capped) = load_excess_with(&f, w, h, &pats[0], true).unwrap();
        let (read, _) = load_excess_with(&f, w, h, &pats[0], false).unwrap();
        assert!(mapped.is_mapped());
        assert!(!read.is_mapped());
        assert_eq!(&mapped[..], &db.excess[0][..]);
        assert_eq!(&read[..], &db.excess[0][..]);
        assert_eq!(capped, 0);
        // Replaced the way the cache replaces a file: the mapping keeps the old bytes.
        let tmp = f.with_extension("tmp-test");
        std::fs::write(&tmp, vec![0u8; good.len()]).unwrap();
        std::fs::rename(&tmp, &f).unwrap();
        assert_eq!(&mapped[..], &read[..]);
        let e = load_excess(&f, w, h, &pats[0]).unwrap_err();
        assert!(matches!(e, PdbError::Header(_)), "{e:?}");
        // No mapping is alive from here on: the files below are written in place.
        drop(mapped);
        let cut = |n: usize| {
            std::fs::write(&f, &good[..n]).unwrap();
            load_excess(&f, w, h, &pats[0]).unwrap_err()
        };
        for n in [0, 20, good.len() / 2, good.len() - 1] {
            assert!(matches!(cut(n), PdbError::WrongSize(_)), "cut to {n}");
        }
        let mut long = good.clone();
        long.push(0);
        std::fs::write(&f, &long).unwrap();
        let e = load_excess(&f, w, h, &pats[0]).unwrap_err();
        assert!(e.to_string().contains("wrong size"), "{e}");
        let mut flipped = good.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 0x10;
        std::fs::write(&f, &flipped).unwrap();
        let e = load_excess(&f, w, h, &pats[0]).unwrap_err();
        assert!(matches!(e, PdbError::Checksum(_)), "{e:?}");
        // Another pattern's file under this name.
        std::fs::write(&f, &good).unwrap();
        let e = load_excess(&f, w, h, &[1, 2, 3, 4, 5, 7]).unwrap_err();
        assert!(matches!(e, PdbError::Header(_)), "{e:?}");
        // The first format (one checksum lane) is named, and replaced on the next load.
        let mut old = good.clone();
        old[..8].copy_from_slice(MAGIC_EXCESS_V1);
        std::fs::write(&f, &old).unwrap();
        let e = load_excess(&f, w, h, &pats[0]).unwrap_err();
        assert!(matches!(e, PdbError::OldFormat(_)), "{e:?}");
        PatternDb::load_or_build(w, h, pats.clone(), Some(&dir)).unwrap();
        assert_eq!(std::fs::read(&f).unwrap(), good);
        // A missing file is an error naming it.
        std::fs::remove_file(&f).unwrap();
        let e = load_excess(&f, w, h, &pats[0]).unwrap_err();
        assert!(e.to_string().contains("cannot read"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn cache_roundtrip_and_corruption_is_detected() {
        let dir = std::env::temp_dir().join(format!("llk-pdb-test-{}", std::process::id()));
        let pats = default_patterns(3, 3);
        let db = PatternDb::load_or_build(3, 3, pats.clone(), Some(&dir)).unwrap();
        let f = cache_file(&dir, 3, 3, &pats[0]);
        let t = load_table(&f, 3, 3, &pats[0]).unwrap();
        assert_eq!(sparse_from_dense(9, pats[0].len(), &t), db.tables[0]);
        // Truncate: rejected.
        let bytes = std::fs::read(&f).unwrap();
        std::fs::write(&f, &bytes[..bytes.len() - 10]).unwrap();
        assert!(load_table(&f, 3, 3, &pats[0]).is_err());
        // Flip one payload byte: checksum rejects it.
        let mut bad = bytes.clone();
        let last = bad.len() - 1;
        bad[last] ^= 1;
        std::fs::write(&f, &bad).unwrap();
        let e = load_table(&f, 3, 3, &pats[0]).unwrap_err();
        assert!(e.to_string().contains("checksum"), "{e}");
        // load_or_build rebuilds and rewrites a good file.
        let db2 = PatternDb::load_or_build(3, 3, pats.clone(), Some(&dir)).unwrap();
        assert_eq!(db2.tables, db.tables);
        assert!(load_table(&f, 3, 3, &pats[0]).is_ok());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
