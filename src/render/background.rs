//! Board backgrounds and the window chrome around the board.
//!
//! Empty cells show the background, so vision must tell "textured background" from "tile";
//! each kind here is a real-game look that has broken some reader: flat colour, a gradient
//! (no single background colour), value noise (no two empty cells equal) and a regular
//! pattern (periodic like the tile grid itself).

use super::font;
use super::paint::{disc, fill_rect, mix, px, shade, Rgb};
use super::theme::Style;
use super::tiles::hash01;
use crate::error::UnknownName;
use image::RgbaImage;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// What fills the window behind the tiles.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Background {
    /// One flat colour (RGB(48,76,112) in the classic theme, as a real game's board).
    #[default]
    Plain,
    /// A vertical gradient across the window.
    Gradient,
    /// Smooth value noise plus fine grain, seeded.
    Noise,
    /// A faint diagonal checker pattern.
    Pattern,
}

impl Background {
    /// Every kind, in the order fixtures cycle through them.
    pub const ALL: [Background; 4] = [
        Background::Plain,
        Background::Gradient,
        Background::Noise,
        Background::Pattern,
    ];

    /// The name used on the command line and in truth files.
    pub fn name(self) -> &'static str {
        match self {
            Background::Plain => "plain",
            Background::Gradient => "gradient",
            Background::Noise => "noise",
            Background::Pattern => "pattern",
        }
    }
}

impl fmt::Display for Background {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Background {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Background::ALL
            .into_iter()
            .find(|b| b.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownName::new("background", s, Background::ALL.map(|b| b.name())))
    }
}

fn smoothstep(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
}

/// Value noise in 0..1 with features about `period` pixels wide.
fn value_noise(x: f32, y: f32, period: f32, seed: u64) -> f32 {
    let (gx, gy) = (x / period, y / period);
    let (ix, iy) = (gx.floor() as i64, gy.floor() as i64);
    let (fx, fy) = (smoothstep(gx - ix as f32), smoothstep(gy - iy as f32));
    let v00 = hash01(ix, iy, seed);
    let v10 = hash01(ix + 1, iy, seed);
    let v01 = hash01(ix, iy + 1, seed);
    let v11 = hash01(ix + 1, iy + 1, seed);
    let top = v00 + (v10 - v00) * fx;
    let bottom = v01 + (v11 - v01) * fx;
    top + (bottom - top) * fy
}

/// The background colour at pixel (x, y) of a `w × h` canvas.
pub fn background_colour(kind: Background, base: Rgb, x: u32, y: u32, h: u32, seed: u64) -> Rgb {
    match kind {
        Background::Plain => base,
        Background::Gradient => {
            let t = y as f32 / h.max(1) as f32;
            shade(base, 0.22 - 0.4 * t)
        }
        Background::Noise => {
            let (fx, fy) = (x as f32, y as f32);
            let n =
                value_noise(fx, fy, 22.0, seed) * 0.7 + value_noise(fx, fy, 7.0, seed ^ 1) * 0.3;
            let grain = hash01(x as i64, y as i64, seed ^ 2) - 0.5;
            shade(base, (n - 0.5) * 0.3 + grain * 0.05)
        }
        Background::Pattern => {
            let (u, v) = (x as i32 + y as i32, x as i32 - y as i32);
            let on = (u.div_euclid(14) + v.div_euclid(14)).rem_euclid(2) == 0;
            if on {
                shade(base, 0.07)
            } else {
                shade(base, -0.05)
            }
        }
    }
}

/// Fills a `w × h` canvas with the background.
pub fn fill(kind: Background, base: Rgb, w: u32, h: u32, seed: u64) -> RgbaImage {
    RgbaImage::from_fn(w, h, |x, y| {
        px(background_colour(kind, base, x, y, h, seed))
    })
}

/// Height of the title bar at scale 1.
pub const TITLE_H: u32 = 24;
/// Height of the status bar at scale 1.
pub const STATUS_H: u32 = 22;

/// Draws a game window's chrome: a title bar with window buttons and a title, a status
/// bar with a score and a timer bar, and a frame line around the play area. Vision must
/// ignore all of it; none of it overlaps `keep_clear` (x, y, w, h), the board plus its ring.
pub fn draw_chrome(
    img: &mut RgbaImage,
    style: &Style,
    title: &str,
    keep_clear: (f32, f32, f32, f32),
) {
    let (w, h) = (img.width() as f32, img.height() as f32);
    let top_ok = keep_clear.1 >= TITLE_H as f32;
    let bottom_ok = keep_clear.1 + keep_clear.3 <= h - STATUS_H as f32;
    if top_ok {
        fill_rect(img, 0.0, 0.0, w, TITLE_H as f32, style.chrome, 1.0);
        fill_rect(
            img,
            0.0,
            TITLE_H as f32 - 1.0,
            w,
            TITLE_H as f32,
            shade(style.chrome, -0.3),
            1.0,
        );
        font::draw(img, title, 8, 5, 14.0, style.chrome_text);
        let colours: [Rgb; 3] = [
            [236.0, 96.0, 90.0],
            [240.0, 190.0, 60.0],
            [90.0, 190.0, 90.0],
        ];
        for (i, c) in colours.iter().enumerate() {
            disc(
                img,
                (w - 16.0 - 20.0 * i as f32, TITLE_H as f32 / 2.0),
                6.0,
                *c,
                1.0,
            );
        }
    }
    if bottom_ok {
        let y0 = h - STATUS_H as f32;
        fill_rect(img, 0.0, y0, w, h, style.chrome, 1.0);
        fill_rect(img, 0.0, y0, w, y0 + 1.0, shade(style.chrome, -0.3), 1.0);
        font::draw(img, "SCORE 0120", 8, y0 as i32 + 4, 13.0, style.chrome_text);
        let bar = (w * 0.45, y0 + 6.0, w - 12.0, h - 6.0);
        if bar.2 > bar.0 + 4.0 {
            fill_rect(
                img,
                bar.0,
                bar.1,
                bar.2,
                bar.3,
                shade(style.chrome, -0.25),
                1.0,
            );
            let filled = bar.0 + (bar.2 - bar.0) * 0.7;
            fill_rect(
                img,
                bar.0 + 1.0,
                bar.1 + 1.0,
                filled,
                bar.3 - 1.0,
                mix(style.highlight, [255.0; 3], 0.1),
                1.0,
            );
        }
    }
}
