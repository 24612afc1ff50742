//! The one embedded font (DejaVu Sans Bold, from the `dejavu` crate) used for window titles
//! and annotation labels: embedding it means a label never depends on fonts installed on the
//! machine that runs the bot or CI.

use super::paint::{q, Rgb};
use ab_glyph::{FontRef, PxScale};
use image::{Rgba, RgbaImage};
use imageproc::drawing::{draw_text_mut, text_size};
use std::sync::OnceLock;

/// The parsed font, loaded once per process.
pub fn font() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    FONT.get_or_init(|| {
        FontRef::try_from_slice(dejavu::sans::bold()).expect("the embedded DejaVu font parses")
    })
}

/// Size in pixels of `text` at height `px`.
pub fn measure(text: &str, px: f32) -> (u32, u32) {
    text_size(PxScale::from(px), font(), text)
}

/// Draws `text` with its top-left at (x, y). imageproc blends glyph coverage over the
/// existing pixels, so text stays anti-aliased on any background.
pub fn draw(img: &mut RgbaImage, text: &str, x: i32, y: i32, px: f32, c: Rgb) {
    draw_text_mut(
        img,
        Rgba([q(c[0]), q(c[1]), q(c[2]), 255]),
        x,
        y,
        PxScale::from(px),
        font(),
        text,
    );
}

/// Draws `text` centred on (cx, cy).
pub fn draw_centred(img: &mut RgbaImage, text: &str, cx: f32, cy: f32, px: f32, c: Rgb) {
    let (w, h) = measure(text, px);
    draw(
        img,
        text,
        (cx - w as f32 / 2.0).round() as i32,
        (cy - h as f32 / 2.0).round() as i32,
        px,
        c,
    );
}
