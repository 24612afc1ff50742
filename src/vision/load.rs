//! Loading screenshots from disk with hard limits, so a hostile or broken file gives a clear
//! one-line error instead of a panic or an out-of-memory abort.

use anyhow::{bail, Context, Result};
use image::{ImageFormat, ImageReader, Limits, RgbaImage};
use std::io::{BufRead, BufReader, Cursor, Seek};
use std::path::Path;

/// Largest side we accept: bigger than any screen (an 8K display is 7680 px wide).
pub const MAX_SIDE: u32 = 16_384;
/// Most bytes an image may take once decoded and converted to RGBA (4 bytes a pixel), and
/// most the decoder may allocate: a 16384² RGBA image is 1 GiB, far more than a screenshot
/// needs, so stop at 512 MiB (an 8K frame, 7680×4320, is 127 MiB).
pub const MAX_ALLOC: u64 = 512 * 1024 * 1024;

/// Loads PNG/JPEG/BMP with memory limits; errors name the file and the problem.
///
/// The format is sniffed from the bytes (a PNG saved as `.jpg` still loads), and the
/// decoder's [`Limits`] bound width, height and allocation before any pixel is decoded, so a
/// 20000×20000 header costs nothing.
pub fn load_image(path: &Path) -> Result<RgbaImage> {
    let open = || {
        std::fs::File::open(path)
            .map(BufReader::new)
            .with_context(|| format!("cannot open image {}", path.display()))
    };
    if open()?.get_ref().metadata().is_ok_and(|m| m.len() == 0) {
        bail!("{}: empty file (0 bytes), not an image", path.display());
    }
    decode(&path.display().to_string(), open)
}

/// Loads an image held in memory (read from stdin, say) with the same checks and limits as
/// [`load_image`]; `name` stands for the file in the errors.
pub fn load_image_bytes(name: &str, bytes: &[u8]) -> Result<RgbaImage> {
    if bytes.is_empty() {
        bail!("{name}: empty (0 bytes), not an image");
    }
    decode(name, || Ok(Cursor::new(bytes)))
}

/// Sniffs, checks and decodes the image `open` reads (it is called twice: once for the
/// header, once to decode).
fn decode<R: BufRead + Seek>(name: &str, open: impl Fn() -> Result<R>) -> Result<RgbaImage> {
    let mut reader = ImageReader::new(open()?)
        .with_guessed_format()
        .with_context(|| format!("cannot read image {name}"))?;
    match reader.format() {
        Some(ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::Bmp) => {}
        Some(f) => bail!("{name}: {f:?} images are not supported (use PNG, JPEG or BMP)"),
        None => bail!("{name}: not a PNG, JPEG or BMP image (unrecognised header)"),
    }
    // The header alone (no pixel buffer yet) tells the size, so the error can name it.
    reader.no_limits();
    // `image`'s decoding errors print their cause in their own text and give it again as
    // their source, so only the text is kept (the chain would print it twice).
    let (w, h) = reader
        .into_dimensions()
        .map_err(|e| anyhow::anyhow!("{name}: cannot read the image header: {e}"))?;
    if w > MAX_SIDE || h > MAX_SIDE {
        bail!(
            "{name}: image is {w}x{h} px, larger than the {MAX_SIDE} px a side this reader accepts"
        );
    }
    // The decoder's own limit counts its buffer in the file's pixel format, 1/32 of RGBA's
    // for a 1-bit PNG, so a small file could still cost gigabytes after conversion: bound
    // the RGBA size before decoding.
    let rgba = u64::from(w) * u64::from(h) * 4;
    if rgba > MAX_ALLOC {
        bail!(
            "{name}: a {w}x{h} image takes {} MiB as RGBA, more than the {} MiB this reader accepts",
            rgba >> 20,
            MAX_ALLOC >> 20
        );
    }
    // into_dimensions consumed the reader: open again to decode.
    let mut reader = ImageReader::new(open()?)
        .with_guessed_format()
        .with_context(|| format!("cannot read image {name}"))?;
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    reader.limits(limits);
    let img = reader
        .decode()
        .map_err(|e| anyhow::anyhow!("{name}: cannot decode {w}x{h} image: {e}"))?;
    if img.width() == 0 || img.height() == 0 {
        bail!("{name}: image has zero size ({w}x{h})");
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

    /// Issue 21 item 8: a small 16384² 1-bit PNG decoded under the decoder's limit (32 MiB
    /// as 1-bit, 256 MiB as 8-bit grey) and cost 1 GiB more when converted to RGBA. Its RGBA
    /// size is refused before decoding; a picture within the bound still loads.
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
}
