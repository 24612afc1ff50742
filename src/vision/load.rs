//! Loading screenshots from disk with hard limits, so a hostile or broken file gives a clear
//! one-line error instead of a panic or an out-of-memory abort.

use image::{ImageError, ImageFormat, ImageReader, Limits, RgbaImage};
use std::io::{BufRead, BufReader, Cursor, Seek};
use std::path::Path;

/// Largest side we accept: bigger than any screen (an 8K display is 7680 px wide).
pub const MAX_SIDE: u32 = 16_384;
/// Most bytes an image may take once decoded and converted to RGBA (4 bytes a pixel), and
/// most the decoder may allocate: a 16384² RGBA image is 1 GiB, far more than a screenshot
/// needs, so stop at 512 MiB (an 8K frame, 7680×4320, is 127 MiB).
pub const MAX_ALLOC: u64 = 512 * 1024 * 1024;

/// Why an image could not be loaded. Every message starts with or names the input (a
/// file's path, or the name given to [`load_image_bytes`]).
///
/// `image`'s decoding errors print their cause in their own text and give it again as
/// their source, so [`LoadError::Header`] and [`LoadError::Decode`] show that text and keep
/// the error as a plain field, not as a source (a chain would print the cause twice).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be opened.
    #[error("cannot open image {name}")]
    Open {
        /// The file.
        name: String,
        /// What the file system said.
        #[source]
        source: std::io::Error,
    },
    /// The input holds no byte.
    #[error("{name}: {} (0 bytes), not an image", if *.file { "empty file" } else { "empty" })]
    Empty {
        /// The input.
        name: String,
        /// Whether the input is a file (rather than bytes in memory).
        file: bool,
    },
    /// The first bytes could not be read to tell the format.
    #[error("cannot read image {name}")]
    Read {
        /// The input.
        name: String,
        /// What the reader said.
        #[source]
        source: std::io::Error,
    },
    /// An image format other than PNG, JPEG and BMP.
    #[error("{name}: {format:?} images are not supported (use PNG, JPEG or BMP)")]
    Unsupported {
        /// The input.
        name: String,
        /// The format its header shows.
        format: ImageFormat,
    },
    /// A header of no known image format.
    #[error("{name}: not a PNG, JPEG or BMP image (unrecognised header)")]
    Unrecognised {
        /// The input.
        name: String,
    },
    /// The header could not be read (a truncated or corrupt file).
    #[error("{name}: cannot read the image header: {cause}")]
    Header {
        /// The input.
        name: String,
        /// What the decoder said (boxed: 64 bytes, more than the rest of the error).
        cause: Box<ImageError>,
    },
    /// A side longer than [`MAX_SIDE`].
    #[error(
        "{name}: image is {w}x{h} px, larger than the {MAX_SIDE} px a side this reader accepts"
    )]
    TooLarge {
        /// The input.
        name: String,
        /// Width, pixels.
        w: u32,
        /// Height, pixels.
        h: u32,
    },
    /// More than [`MAX_ALLOC`] bytes once converted to RGBA.
    #[error(
        "{name}: a {w}x{h} image takes {} MiB as RGBA, more than the {} MiB this reader accepts",
        rgba_bytes(*.w, *.h) >> 20,
        MAX_ALLOC >> 20
    )]
    TooMuchMemory {
        /// The input.
        name: String,
        /// Width, pixels.
        w: u32,
        /// Height, pixels.
        h: u32,
    },
    /// The pixels could not be decoded.
    #[error("{name}: cannot decode {w}x{h} image: {cause}")]
    Decode {
        /// The input.
        name: String,
        /// Width, pixels, as the header says.
        w: u32,
        /// Height, pixels, as the header says.
        h: u32,
        /// What the decoder said (boxed: 64 bytes, more than the rest of the error).
        cause: Box<ImageError>,
    },
    /// An image with no pixel.
    #[error("{name}: image has zero size ({w}x{h})")]
    ZeroSize {
        /// The input.
        name: String,
        /// Width, pixels.
        w: u32,
        /// Height, pixels.
        h: u32,
    },
}

type Result<T> = std::result::Result<T, LoadError>;

/// The size of a `w`×`h` image as RGBA, bytes.
fn rgba_bytes(w: u32, h: u32) -> u64 {
    u64::from(w) * u64::from(h) * 4
}

/// Loads PNG/JPEG/BMP with memory limits; errors name the file and the problem.
///
/// The format is sniffed from the bytes (a PNG saved as `.jpg` still loads), and the
/// decoder's [`Limits`] bound width, height and allocation before any pixel is decoded, so a
/// 20000×20000 header costs nothing.
pub fn load_image(path: &Path) -> Result<RgbaImage> {
    let name = path.display().to_string();
    let open = || {
        std::fs::File::open(path)
            .map(BufReader::new)
            .map_err(|source| LoadError::Open {
                name: name.clone(),
                source,
            })
    };
    if open()?.get_ref().metadata().is_ok_and(|m| m.len() == 0) {
        return Err(LoadError::Empty { name, file: true });
    }
    decode(&name, open)
}

/// Loads an image held in memory (read from stdin, say) with the same checks and limits as
/// [`load_image`]; `name` stands for the file in the errors.
pub fn load_image_bytes(name: &str, bytes: &[u8]) -> Result<RgbaImage> {
    if bytes.is_empty() {
        return Err(LoadError::Empty {
            name: name.to_string(),
            file: false,
        });
    }
    decode(name, || Ok(Cursor::new(bytes)))
}

/// Sniffs, checks and decodes the image `open` reads (it is called twice: once for the
/// header, once to decode).
fn decode<R: BufRead + Seek>(name: &str, open: impl Fn() -> Result<R>) -> Result<RgbaImage> {
    let named = || name.to_string();
    let sniff = || {
        ImageReader::new(open()?)
            .with_guessed_format()
            .map_err(|source| LoadError::Read {
                name: named(),
                source,
            })
    };
    let mut reader = sniff()?;
    match reader.format() {
        Some(ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::Bmp) => {}
        Some(format) => {
            return Err(LoadError::Unsupported {
                name: named(),
                format,
            })
        }
        None => return Err(LoadError::Unrecognised { name: named() }),
    }
    // The header alone (no pixel buffer yet) tells the size, so the error can name it.
    reader.no_limits();
    let (w, h) = reader
        .into_dimensions()
        .map_err(|cause| LoadError::Header {
            name: named(),
            cause: Box::new(cause),
        })?;
    if w > MAX_SIDE || h > MAX_SIDE {
        return Err(LoadError::TooLarge {
            name: named(),
            w,
            h,
        });
    }
    // The decoder's own limit counts its buffer in the file's pixel format, 1/32 of RGBA's
    // for a 1-bit PNG, so a small file could still cost gigabytes after conversion: bound
    // the RGBA size before decoding.
    if rgba_bytes(w, h) > MAX_ALLOC {
        return Err(LoadError::TooMuchMemory {
            name: named(),
            w,
            h,
        });
    }
    // into_dimensions consumed the reader: open again to decode.
    let mut reader = sniff()?;
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    reader.limits(limits);
    let img = reader.decode().map_err(|cause| LoadError::Decode {
        name: named(),
        w,
        h,
        cause: Box::new(cause),
    })?;
    if img.width() == 0 || img.height() == 0 {
        return Err(LoadError::ZeroSize {
            name: named(),
            w,
            h,
        });
    }
    Ok(img.into_rgba8())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `w`×`h` 1-bit grey PNG, all black: a few hundred bytes a megapixel.
    fn one_bit_png(path: &Path, w: u32, h: u32) {
        let file = std::fs::File::create(path).unwrap();
        let mut enc = png::Encoder::new(std::io::BufWriter::new(file), w, h);
        enc.set_color(png::ColorType::Grayscale);
        enc.set_depth(png::BitDepth::One);
        let mut writer = enc.write_header().unwrap();
        let row = vec![0u8; w.div_ceil(8) as usize];
        let mut stream = writer.stream_writer().unwrap();
        for _ in 0..h {
            std::io::Write::write_all(&mut stream, &row).unwrap();
        }
        stream.finish().unwrap();
    }

    /// A small 16384² 1-bit PNG decodes under the decoder's limit (32 MiB as 1-bit, 256 MiB
    /// as 8-bit grey) but takes 1 GiB as RGBA: its RGBA size is refused before decoding; a
    /// picture within the bound still loads.
    #[test]
    fn rgba_size_is_bounded_before_decoding() {
        let dir = std::env::temp_dir().join(format!("llk-load-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let big = dir.join("big-1bit.png");
        one_bit_png(&big, MAX_SIDE, MAX_SIDE);
        assert!(std::fs::metadata(&big).unwrap().len() < 1 << 20);
        // Never format the image itself: its Debug form lists every byte.
        let e = match load_image(&big) {
            Ok(img) => panic!("a {:?} image was decoded", img.dimensions()),
            Err(e) => e.to_string(),
        };
        assert!(e.contains("1024 MiB as RGBA"), "{e}");
        let ok = dir.join("ok-1bit.png");
        one_bit_png(&ok, 640, 480);
        let img = load_image(&ok).unwrap();
        assert_eq!(img.dimensions(), (640, 480));
        assert_eq!(img.get_pixel(3, 3).0, [0, 0, 0, 255]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn each_refusal_has_its_kind() {
        assert!(matches!(
            load_image_bytes("stdin", b""),
            Err(LoadError::Empty { file: false, .. })
        ));
        let e = load_image_bytes("stdin", b"not an image").unwrap_err();
        assert!(matches!(e, LoadError::Unrecognised { .. }), "{e}");
        assert_eq!(
            e.to_string(),
            "stdin: not a PNG, JPEG or BMP image (unrecognised header)"
        );
        let e = load_image(Path::new("/nonexistent/llk-load.png")).unwrap_err();
        assert!(matches!(e, LoadError::Open { .. }), "{e}");
        assert!(std::error::Error::source(&e).is_some());
    }
}
