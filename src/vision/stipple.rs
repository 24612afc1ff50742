//! Stage 3 aid, stippled tiles: a selection drawn as a stipple over the tile.
//!
//! Games drawn with X11's core drawing calls mark a selected tile by filling it through a
//! checkerboard stipple: every other pixel (one parity of `x + y`) takes one colour and the
//! rest keep the sprite. The cell then keeps half its sprite's pixels exactly, but its block
//! means mix the sprite with the stipple's colour at a different ratio in every block
//! (pixel art has one-pixel detail), so neither the block descriptor nor its tint-free shape
//! matches the tile's type. Compared on the kept pixels only, against the same pixels of
//! the other tiles, the tile is its type again: same-sprite distances measure 0.0 there
//! (the game draws both from one image) and other types 8 and more.
//!
//! Nothing here decides a reading: the cells stage asks which cells are stippled, and how
//! far a stippled cell's kept pixels lie from a tile's.

use super::config::ReaderConfig;
use image::RgbaImage;

/// A checkerboard stipple over a cell: the frame pixels whose `(x + y) % 2` is `covered`
/// all show `colour`; the others keep the picture beneath.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stipple {
    /// Parity of `x + y` (frame coordinates) of the covered pixels: 0 or 1.
    pub covered: u32,
    /// The stipple's colour.
    pub colour: [u8; 3],
}

/// The pixel rectangle `[x0, x1) × [y0, y1)` of the cell `rect` (x, y, w, h in frame pixels)
/// inset by [`ReaderConfig::inset`] on each side, clipped to the frame; `None` when empty.
fn inner(frame: &RgbaImage, rect: (f32, f32, f32, f32), cfg: &ReaderConfig) -> Option<[u32; 4]> {
    let (x, y, w, h) = rect;
    let (ix, iy) = (w * cfg.inset, h * cfg.inset);
    let (fw, fh) = frame.dimensions();
    let x0 = (x + ix).round().max(0.0) as u32;
    let y0 = (y + iy).round().max(0.0) as u32;
    let x1 = ((x + w - ix).round().max(0.0) as u32).min(fw);
    let y1 = ((y + h - iy).round().max(0.0) as u32).min(fh);
    (x1 > x0 + 1 && y1 > y0 + 1).then_some([x0, y0, x1, y1])
}

/// The stipple over cell `rect`'s inner part, if one lies there: on one parity at least
/// [`ReaderConfig::stipple_cover`] of the pixels lie within
/// [`ReaderConfig::stipple_tolerance`] of one colour (per channel), a share that exceeds
/// the other parity's by [`ReaderConfig::stipple_contrast`], and the other parity holds a
/// picture (its block means spread over [`ReaderConfig::flat_spread`], as a tile face's
/// do). A flat ground has both parities one colour, a checker-dithered ground both parities
/// flat; a photo, a texture or a tile has no parity of one colour, or both parities alike.
/// Not every pixel need be covered: a removal's link line drawn over a stippled tile hides
/// some.
pub fn stipple_in(
    frame: &RgbaImage,
    rect: (f32, f32, f32, f32),
    cfg: &ReaderConfig,
) -> Option<Stipple> {
    let [x0, y0, x1, y1] = inner(frame, rect, cfg)?;
    let tol = cfg.stipple_tolerance;
    let parity_pixels = |parity: u32| {
        (y0..y1).flat_map(move |y| {
            let first = x0 + ((parity + x0 + y) % 2);
            (first..x1).step_by(2).map(move |x| {
                let q = frame.get_pixel(x, y);
                [q[0], q[1], q[2]]
            })
        })
    };
    let share = |parity: u32, colour: [u8; 3]| {
        let (mut near, mut all) = (0usize, 0usize);
        for q in parity_pixels(parity) {
            all += 1;
            near += (0..3).all(|c| q[c].abs_diff(colour[c]) <= tol) as usize;
        }
        near as f32 / all.max(1) as f32
    };
    for covered in 0..2u32 {
        // The parity's commonest colour: the stipple's, where one is drawn.
        let mut counts = std::collections::HashMap::<[u8; 3], usize>::new();
        for q in parity_pixels(covered) {
            *counts.entry(q).or_default() += 1;
        }
        let Some((&colour, _)) = counts.iter().max_by_key(|(c, n)| (**n, **c)) else {
            continue;
        };
        let on = share(covered, colour);
        if on < cfg.stipple_cover || on - share(1 - covered, colour) < cfg.stipple_contrast {
            continue;
        }
        let kept = parity_blocks(frame, rect, 1 - covered, cfg)?;
        if super::pictures::Picture::from_blocks(kept, Vec::new()).spread > cfg.flat_spread {
            return Some(Stipple { covered, colour });
        }
    }
    None
}

/// Block means (`blocks × blocks`, RGB interleaved, rows top to bottom) of cell `rect`'s
/// inner part over the pixels whose `(x + y) % 2` is `parity` only; `None` when the inner
/// part is too small to hold one such pixel in every block.
pub fn parity_blocks(
    frame: &RgbaImage,
    rect: (f32, f32, f32, f32),
    parity: u32,
    cfg: &ReaderConfig,
) -> Option<Vec<f32>> {
    let [x0, y0, x1, y1] = inner(frame, rect, cfg)?;
    let b = cfg.blocks.max(1) as u32;
    let edge = |lo: u32, hi: u32, i: u32| lo + (hi - lo) * i / b;
    let mut out = Vec::with_capacity((b * b * 3) as usize);
    for by in 0..b {
        let (ya, yb) = (edge(y0, y1, by), edge(y0, y1, by + 1));
        for bx in 0..b {
            let (xa, xb) = (edge(x0, x1, bx), edge(x0, x1, bx + 1));
            let mut sum = [0u32; 3];
            let mut n = 0u32;
            for y in ya..yb {
                let mut x = xa + ((parity + xa + y) % 2);
                while x < xb {
                    let q = frame.get_pixel(x, y);
                    for c in 0..3 {
                        sum[c] += u32::from(q[c]);
                    }
                    n += 1;
                    x += 2;
                }
            }
            if n == 0 {
                return None;
            }
            out.extend(sum.map(|s| s as f32 / n as f32));
        }
    }
    Some(out)
}

/// Block means of cell `rect` over each parity in turn ([`parity_blocks`]), those the cell
/// holds: what a stippled cell's kept pixels are compared with ([`kept_distance`]).
pub fn both_parities(
    frame: &RgbaImage,
    rect: (f32, f32, f32, f32),
    cfg: &ReaderConfig,
) -> Vec<Vec<f32>> {
    (0..2)
        .filter_map(|parity| parity_blocks(frame, rect, parity, cfg))
        .collect()
}

/// How far a stippled cell's kept pixels (`kept`, from [`parity_blocks`] on the parity the
/// stipple leaves) lie from another cell of the same frame, given as its
/// [`both_parities`]: the mean absolute block difference against the nearer of the two (a
/// sprite drawn an odd number of pixels away has its kept pixels on the other parity
/// there).
pub fn kept_distance(kept: &[f32], parities: &[Vec<f32>]) -> f32 {
    parities
        .iter()
        .filter(|other| other.len() == kept.len())
        .map(|other| {
            kept.iter()
                .zip(other)
                .map(|(a, b)| (a - b).abs())
                .sum::<f32>()
                / kept.len().max(1) as f32
        })
        .fold(f32::INFINITY, f32::min)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    /// A 64x40 frame of ground with two 20x20 "sprites" (a pattern with one-pixel detail)
    /// at (0, 0) and (21, 0) (an odd offset), and a third of another pattern at (40, 0);
    /// `stipple` covers the first with black on parity 0.
    fn frame(stipple: bool) -> RgbaImage {
        let sprite = |x: u32, y: u32, kind: u32| {
            let coarse = ((x / 4 + y / 4 * 3 + kind * 2) % 5) as u8 * 40;
            let v = coarse + ((x * 7 + y * 13) % 11) as u8 * 4;
            Rgba([v, 255 - v, (v / 2) + (kind as u8 * 60), 255])
        };
        let mut img = RgbaImage::from_pixel(64, 40, Rgba([30, 90, 30, 255]));
        for y in 0..20 {
            for x in 0..20 {
                img.put_pixel(x, y, sprite(x, y, 0));
                img.put_pixel(21 + x, y, sprite(x, y, 0));
                img.put_pixel(42 + x, y, sprite(x, y, 1));
                if stipple && (x + y) % 2 == 0 {
                    img.put_pixel(x, y, Rgba([0, 0, 0, 255]));
                }
            }
        }
        img
    }

    fn cfg() -> ReaderConfig {
        ReaderConfig {
            inset: 0.0,
            blocks: 5,
            ..ReaderConfig::default()
        }
    }

    #[test]
    fn a_stippled_sprite_is_found_and_its_plain_twin_is_not() {
        let f = frame(true);
        let s = stipple_in(&f, (0.0, 0.0, 20.0, 20.0), &cfg());
        assert_eq!(
            s,
            Some(Stipple {
                covered: 0,
                colour: [0, 0, 0]
            })
        );
        assert_eq!(stipple_in(&f, (21.0, 0.0, 20.0, 20.0), &cfg()), None);
    }

    #[test]
    fn a_stipple_under_a_link_line_is_found_and_a_mostly_plain_face_is_none() {
        // A 3-px line across a tenth of the stippled sprite's rows still leaves a stipple.
        let mut f = frame(true);
        for y in 9..11 {
            for x in 8..20 {
                f.put_pixel(x, y, Rgba([0, 0, 255, 255]));
            }
        }
        let s = stipple_in(&f, (0.0, 0.0, 20.0, 20.0), &cfg());
        assert_eq!(s.map(|s| s.covered), Some(0));
        // A white face with a small mark: most pixels of both parities are white, alike.
        let mut face = RgbaImage::from_pixel(20, 20, Rgba([240, 240, 240, 255]));
        for y in 6..12 {
            for x in 5..9 {
                face.put_pixel(x, y, Rgba([200, 20, 20, 255]));
            }
        }
        assert_eq!(stipple_in(&face, (0.0, 0.0, 20.0, 20.0), &cfg()), None);
    }

    #[test]
    fn flat_ground_and_a_dithered_ground_are_no_stipple() {
        let f = frame(false);
        assert_eq!(stipple_in(&f, (0.0, 22.0, 20.0, 16.0), &cfg()), None);
        let mut d = RgbaImage::from_pixel(20, 20, Rgba([200, 200, 200, 255]));
        for y in 0..20 {
            for x in (y % 2..20).step_by(2) {
                d.put_pixel(x, y, Rgba([0, 0, 0, 255]));
            }
        }
        assert_eq!(stipple_in(&d, (0.0, 0.0, 20.0, 20.0), &cfg()), None);
    }

    #[test]
    fn kept_pixels_match_their_sprite_at_an_odd_offset_and_not_another_sprite() {
        let f = frame(true);
        let c = cfg();
        let kept = parity_blocks(&f, (0.0, 0.0, 20.0, 20.0), 1, &c).unwrap();
        let twin = kept_distance(&kept, &both_parities(&f, (21.0, 0.0, 20.0, 20.0), &c));
        let other = kept_distance(&kept, &both_parities(&f, (42.0, 0.0, 20.0, 20.0), &c));
        assert!(twin < 0.01, "twin {twin}");
        assert!(other > 10.0, "other {other}");
    }

    #[test]
    fn a_cell_off_the_frame_has_no_blocks() {
        let f = frame(true);
        assert_eq!(parity_blocks(&f, (70.0, 0.0, 20.0, 20.0), 0, &cfg()), None);
        assert_eq!(stipple_in(&f, (70.0, 0.0, 20.0, 20.0), &cfg()), None);
    }
}
