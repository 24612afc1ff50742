//! Self-calibration of the pitch from the board's own pairs.
//!
//! Edge profiles give the pitch to a few hundredths of a pixel, which is not enough: across
//! 19 columns an error of 0.05 px moves the last column a whole pixel off, and a pixel is
//! what tells two small, high-contrast symbols apart. Tiles of one type are the same
//! picture, so the displacement that best overlays two of them, several columns apart, says
//! exactly how far apart they really are; a least-squares fit over many such pairs gives the
//! pitch to a few thousandths of a pixel.

use super::cells::{INSET_HI, INSET_LO};
use super::pixels::sad_rgb;
use super::Reading;
use crate::board::{Cell, Pos};
use crate::geometry::Grid;
use image::RgbaImage;

/// Largest correction accepted, as a fraction of the pitch: beyond that the first reading
/// paired the wrong tiles, and the profiles' pitch is the better guess.
const MAX_CHANGE: f32 = 0.02;

/// [`Least::Drift`]'s bar: a correction whose drift across the board (the change per cell
/// times the cells from the first line to the last) stays under this many pixels is not
/// made. Measured on KShisen's classic tiles: a pitch 0.004 px short drifts 0.1 px across
/// 24 columns, which is enough to part two copies of a sharp-edged sprite (bamboo sticks,
/// 3-pixel blocks) by a picture distance of 3, above the types' cut, and is skipped under
/// [`Least::PerCell`].
const NEGLIGIBLE_DRIFT: f32 = 0.02;

/// [`Least::PerCell`]'s bar: a correction under this many pixels per cell is not made.
const NEGLIGIBLE_PER_CELL: f32 = 0.005;

/// Which corrections [`refine_pitch`] leaves undone as negligible.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Least {
    /// Those whose drift across the board stays under 0.02 px (the stage reader).
    Drift,
    /// Those under 0.005 px per cell, whatever the board's size (the legacy chain, whose
    /// origin passes after it were fitted with this bar).
    PerCell,
}

/// The grid with its pitch (and origin, keeping the tiles' mean position) corrected from
/// same-type pairs of `reading`, or `None` when too few pairs are spread along an axis to
/// tell, or the correction is negligible on both axes.
pub fn refine_pitch(frame: &RgbaImage, reading: &Reading, least: Least) -> Option<Grid> {
    let g = reading.grid;
    let b = &reading.board;
    // The tiles of each type, in reading order.
    let mut by_type: Vec<(u8, Vec<Pos>)> = Vec::new();
    for p in b.positions() {
        if let Cell::Tile(t) = b.get(p) {
            match by_type.iter_mut().find(|e| e.0 == t) {
                Some(e) => e.1.push(p),
                None => by_type.push((t, vec![p])),
            }
        }
    }
    let search = ((g.pitch.0.min(g.pitch.1) * 0.06).ceil() as i64).clamp(2, 6);
    // Per axis: Σ Δk·(measured distance) and Σ Δk² over pairs.
    let mut acc = [(0f64, 0f64, 0usize); 2];
    for (_, tiles) in &by_type {
        // Each type gives its most distant pair along each axis.
        for (axis, sums) in acc.iter_mut().enumerate() {
            let key = |p: &Pos| if axis == 0 { p.col } else { p.row };
            let (Some(a), Some(z)) = (
                tiles.iter().min_by_key(|p| key(p)),
                tiles.iter().max_by_key(|p| key(p)),
            ) else {
                continue;
            };
            let dk = key(z) as f64 - key(a) as f64;
            if dk < 2.0 {
                continue;
            }
            let Some((dx, dy)) = displacement(frame, &g, *a, *z, search) else {
                continue;
            };
            let measured = if axis == 0 { dx } else { dy };
            sums.0 += dk * measured;
            sums.1 += dk * dk;
            sums.2 += 1;
        }
    }
    let mut pitch = g.pitch;
    let mut changed = false;
    for (axis, &(num, den, n)) in acc.iter().enumerate() {
        if n < 3 || den <= 0.0 {
            continue;
        }
        let p = (num / den) as f32;
        let old = if axis == 0 { g.pitch.0 } else { g.pitch.1 };
        let span = if axis == 0 { g.cols } else { g.rows }
            .saturating_sub(1)
            .max(1) as f32;
        let negligible = match least {
            Least::Drift => (p - old).abs() * span < NEGLIGIBLE_DRIFT,
            Least::PerCell => (p - old).abs() < NEGLIGIBLE_PER_CELL,
        };
        if (p - old).abs() > old * MAX_CHANGE || negligible {
            continue;
        }
        changed = true;
        if axis == 0 {
            pitch.0 = p;
        } else {
            pitch.1 = p;
        }
    }
    if !changed {
        return None;
    }
    // Keep the tiles' mean position where it was.
    let (mut sr, mut sc, mut n) = (0f32, 0f32, 0f32);
    for (_, tiles) in &by_type {
        for p in tiles {
            sr += p.row as f32;
            sc += p.col as f32;
            n += 1.0;
        }
    }
    let (mr, mc) = (sr / n, sc / n);
    Some(Grid {
        origin: (
            g.origin.0 + mc * (g.pitch.0 - pitch.0),
            g.origin.1 + mr * (g.pitch.1 - pitch.1),
        ),
        pitch,
        ..g
    })
}

/// How far (dx, dy) cell `b`'s picture lies from cell `a`'s, to a fraction of a pixel: the
/// offset that best overlays `b`'s interior (the part the reader compares) on `a`'s, by a
/// whole-pixel search within ±`search` and a parabola through the costs around the best;
/// `None` when a crop leaves the frame or the best overlay is poor (not the same picture
/// after all).
fn displacement(frame: &RgbaImage, g: &Grid, a: Pos, b: Pos, search: i64) -> Option<(f64, f64)> {
    let (w, h) = (frame.width() as i64, frame.height() as i64);
    let rect = |p: Pos| {
        let (x, y, cw, ch) = g.cell_rect(p.row as i32, p.col as i32);
        (
            (x + cw * INSET_LO).round() as i64,
            (y + ch * INSET_LO).round() as i64,
            (cw * (INSET_HI - INSET_LO)).round() as i64,
            (ch * (INSET_HI - INSET_LO)).round() as i64,
        )
    };
    let (ax, ay, cw, ch) = rect(a);
    let (bx, by, _, _) = rect(b);
    let inside = |x: i64, y: i64| x >= 0 && y >= 0 && x + cw <= w && y + ch <= h;
    if !inside(ax, ay) || !inside(bx - search, by - search) || !inside(bx + search, by + search) {
        return None;
    }
    let raw = frame.as_raw();
    let stride = w as usize * 4;
    // Every second row: half the work, and a misalignment still shows on every edge the
    // sampled rows cross. The sum stops as soon as it passes `limit` (`None`): a wrong
    // overlay is usually far worse than the best, so most shifts end after a few rows.
    let len = cw as usize * 4;
    let cost = |dx: i64, dy: i64, limit: u64| -> Option<u64> {
        let mut s = 0u64;
        for j in (0..ch).step_by(2) {
            let ra = (ay + j) as usize * stride + ax as usize * 4;
            let rb = (by + dy + j) as usize * stride + (bx + dx) as usize * 4;
            s += sad_rgb(&raw[ra..ra + len], &raw[rb..rb + len], 1) as u64;
            if s > limit {
                return None;
            }
        }
        Some(s)
    };
    let samples = (3 * cw as u64 * (ch as u64).div_ceil(2)).max(1) as f64;
    let n = (2 * search + 1) as usize;
    // Shifts nearest the unshifted overlay first, where the best usually is, so the bound
    // is tight early. The winner is the least sum, ties to the first in row-major order,
    // exactly as a full scan would pick.
    let mut order: Vec<usize> = (0..n * n).collect();
    order.sort_by_key(|&k| ((k % n).abs_diff(n / 2) + (k / n).abs_diff(n / 2), k));
    let mut costs: Vec<Option<u64>> = vec![None; n * n];
    let mut best = (0usize, u64::MAX);
    for k in order {
        let c = cost((k % n) as i64 - search, (k / n) as i64 - search, best.1);
        costs[k] = c;
        if let Some(c) = c {
            if c < best.1 || (c == best.1 && k < best.0) {
                best = (k, c);
            }
        }
    }
    // The parabola needs the exact costs beside the best, which may have stopped early.
    let full = |k: usize| -> f64 {
        let c = costs[k]
            .or_else(|| cost((k % n) as i64 - search, (k / n) as i64 - search, u64::MAX))
            .unwrap_or(u64::MAX);
        c as f64 / samples
    };
    let best = (best.0, best.1 as f64 / samples);
    let (bi, bj) = (best.0 % n, best.0 / n);
    // On the search border the true overlay may lie outside it; a poor best is no match.
    if bi == 0 || bj == 0 || bi == n - 1 || bj == n - 1 || best.1 > 12.0 {
        return None;
    }
    let vertex = |l: f64, m: f64, r: f64| {
        let d = l - 2.0 * m + r;
        if d > 1e-9 {
            (0.5 * (l - r) / d).clamp(-0.5, 0.5)
        } else {
            0.0
        }
    };
    let fx = vertex(full(bj * n + bi - 1), best.1, full(bj * n + bi + 1));
    let fy = vertex(full((bj - 1) * n + bi), best.1, full((bj + 1) * n + bi));
    Some((
        (bx - ax) as f64 + bi as f64 - search as f64 + fx,
        (by - ay) as f64 + bj as f64 - search as f64 + fy,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use image::{Rgba, RgbaImage};

    /// A frame of tiles at exactly `pitch` laid out as `rows_text`, each type a sprite of
    /// sharp-edged bars.
    fn striped_board(rows_text: &[&str], pitch: (u32, u32), origin: (u32, u32)) -> RgbaImage {
        let (rows, cols) = (rows_text.len() as u32, rows_text[0].len() as u32);
        let mut img = RgbaImage::from_pixel(
            origin.0 * 2 + cols * pitch.0,
            origin.1 * 2 + rows * pitch.1,
            Rgba([200, 190, 170, 255]),
        );
        for (r, line) in rows_text.iter().enumerate() {
            for (c, t) in line.bytes().enumerate() {
                let k = (t - b'A') as u32;
                let (x0, y0) = (origin.0 + c as u32 * pitch.0, origin.1 + r as u32 * pitch.1);
                for y in 3..pitch.1 - 3 {
                    for x in 3..pitch.0 - 3 {
                        // Bars 3 px wide of the type's own random shades, a block in height
                        // per 11 px: sharp edges everywhere, no period.
                        let h = (x / 3 + 37 * (y / 11) + 101 * k)
                            .wrapping_mul(2654435761)
                            .rotate_left(13);
                        let v = (h % 200 + 30) as u8;
                        img.put_pixel(x0 + x, y0 + y, Rgba([v, 255 - v, v / 2, 255]));
                    }
                }
            }
        }
        img
    }

    #[test]
    fn a_pitch_a_few_thousandths_short_is_corrected_when_it_drifts_across_the_board() {
        let rows = [
            "ABCDEFGHABCDEFGHABCDEFGH",
            "EFGHABCDEFGHABCDEFGHABCD",
            "CDABGHEFCDABGHEFCDABGHEF",
        ];
        let frame = striped_board(&rows, (48, 66), (20, 30));
        // The profiles' pitch 0.004 px short per cell: 0.1 px across 24 columns, enough
        // to part two copies of a striped sprite, though each step is tiny.
        let grid = Grid {
            origin: (20.0, 30.0),
            pitch: (47.996, 66.0),
            rows: 3,
            cols: 24,
        };
        let reading = Reading {
            grid,
            board: Board::from_rows(&rows).unwrap(),
            unsure: Vec::new(),
            selected: Vec::new(),
        };
        let g = refine_pitch(&frame, &reading, Least::Drift).expect("a correction");
        assert!((g.pitch.0 - 48.0).abs() < 0.0015, "{g:?}");
        assert!((g.pitch.1 - 66.0).abs() < 0.01, "{g:?}");
    }
}
