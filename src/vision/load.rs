//! Loading screenshots from disk with hard limits, so a hostile or broken file gives a clear
//! one-line error instead of a panic or an out-of-memory abort.

use anyhow::{bail, Context, Result};
use image::{ImageFormat, ImageReader, Limits, RgbaImage};
use std::io::BufReader;
use std::path::Path;

/// Largest side we accept: bigger than any screen (an 8K display is 7680 px wide).
pub const MAX_SIDE: u32 = 16_384;
/// Most bytes the decoder may allocate: a 16384² RGBA image is 1 GiB, far more than a
/// screenshot needs, so stop at 512 MiB.
pub const MAX_ALLOC: u64 = 512 * 1024 * 1024;

/// Loads PNG/JPEG/BMP with memory limits; errors name the file and the problem.
///
/// The format is sniffed from the bytes (a PNG saved as `.jpg` still loads), and the
/// decoder's [`Limits`] bound width, height and allocation before any pixel is decoded, so a
/// 20000×20000 header costs nothing.
pub fn load_image(path: &Path) -> Result<RgbaImage> {
    let file = std::fs::File::open(path)
        .with_context(|| format!("cannot open image {}", path.display()))?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if len == 0 {
        bail!("{}: empty file (0 bytes), not an image", path.display());
    }
    let mut reader = ImageReader::new(BufReader::new(file))
        .with_guessed_format()
        .with_context(|| format!("cannot read image {}", path.display()))?;
    match reader.format() {
        Some(ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::Bmp) => {}
        Some(f) => bail!(
            "{}: {f:?} images are not supported (use PNG, JPEG or BMP)",
            path.display()
        ),
        None => bail!(
            "{}: not a PNG, JPEG or BMP image (unrecognised header)",
            path.display()
        ),
    }
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    reader.limits(limits);
    let (w, h) = reader
        .into_dimensions()
        .with_context(|| format!("{}: cannot read the image header", path.display()))?;
    if w > MAX_SIDE || h > MAX_SIDE {
        bail!(
            "{}: image is {w}x{h} px, larger than the {MAX_SIDE} px a side this reader accepts",
            path.display()
        );
    }
    // into_dimensions consumed the reader: open again to decode.
    let file = std::fs::File::open(path)
        .with_context(|| format!("cannot open image {}", path.display()))?;
    let mut reader = ImageReader::new(BufReader::new(file))
        .with_guessed_format()
        .with_context(|| format!("cannot read image {}", path.display()))?;
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    reader.limits(limits);
    let img = reader
        .decode()
        .map_err(|e| anyhow::anyhow!("{}: cannot decode {w}x{h} image: {e}", path.display()))?;
    if img.width() == 0 || img.height() == 0 {
        bail!("{}: image has zero size ({w}x{h})", path.display());
    }
    Ok(img.to_rgba8())
}
