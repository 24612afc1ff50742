//! The tiles' outline as a phase detector.
//!
//! A lattice a third of a cell off the tiles can read a full board perfectly well: each cell
//! holds most of one tile's symbol and a plain strip of its neighbour, so every picture still
//! has its twin and twin distances cannot tell the phase (pastel tiles, whose plain bottom
//! third is the same on every tile). What differs is where the tiles' outline lies. A tile's
//! top and bottom (left and right) edges run across the whole tile, on every tile at the same
//! place in its cell; a symbol's edges run across part of it, at a place that depends on the
//! symbol. So along each offset into the cell, the share of the cell's width that crosses an
//! edge there is measured, and its median over the tiles peaks on the outline.
//!
//! Measured with the lattice found, over rendered fixtures 0..1400 (2 800 axes): where the
//! lattice lines sit on the outline, the peak away from the lines is at most 0.067 above the
//! peak near them (pastel, across; 0.04 on the first 200 fixtures and every real file). The
//! lattices read a third or a quarter of a cell off show 0.19 to 0.60 more away from the
//! lines, e.g. 0.51–0.60 near them against 0.91–1.00 at the outline; the least of them are
//! pastel boards on a checked pattern whose edges fill the strip near the lines (0.73 near
//! against 0.93). The margin lies between the two: 0.12.

use crate::board::Board;
use crate::geometry::Grid;
use image::RgbaImage;

/// A pixel is on an edge across the axis when its neighbours before and after differ by
/// more than this (sum of absolute channel differences, 0..765): a tile's border against
/// the ground, not JPEG ringing.
const EDGE_STEP: i32 = 40;

/// How much higher the outline's coverage must be away from the lattice lines than near
/// them for the lattice to be called off its tiles (see the module note for the figures).
const MISPLACED_BY: f32 = 0.12;

/// Tiles sampled: the median over this many spread over the board is stable.
const SAMPLE: usize = 32;

/// How far past each lattice line (in pixels, along `axis`: 0 across, 1 down) the tiles'
/// outline lies on `grid` when it lies clearly away from the lines, else `None`.
///
/// The offset found is an edge of the outline (a tile's top or bottom), not the middle of
/// the gap between tiles; the caller centres the lines afterwards.
pub(crate) fn misplaced_by(
    frame: &RgbaImage,
    grid: &Grid,
    board: &Board,
    axis: usize,
) -> Option<f32> {
    let tiles: Vec<_> = board.tiles().map(|(p, _)| p).collect();
    if tiles.len() < 8 {
        return None;
    }
    let step = tiles.len().div_ceil(SAMPLE);
    let (along, across) = if axis == 0 {
        (grid.pitch.0, grid.pitch.1)
    } else {
        (grid.pitch.1, grid.pitch.0)
    };
    // Offsets 0..n cover one cell, n the next line. Rounded, not truncated: truncating a
    // pitch of 34.99999 gives n = 34, and an offset 6 px before the next line (where a
    // tile's top edge can sit) would count as "near the line", so a lattice a quarter cell
    // off would look already on the outline.
    let n = along.round() as usize;
    if n < 8 {
        return None;
    }
    let (w, h) = (frame.width() as i64, frame.height() as i64);
    let (len_along, len_across) = if axis == 0 { (w, h) } else { (h, w) };
    let raw = frame.as_raw();
    // The byte offset of pixel (a, b): `a` along the axis, `b` across it.
    let at = |a: i64, b: i64| {
        let (x, y) = if axis == 0 { (a, b) } else { (b, a) };
        (y * w + x) as usize * 4
    };
    // Each sampled tile's cell span across the axis and its start along it.
    let spans: Vec<(f32, i64, i64)> = tiles
        .iter()
        .step_by(step)
        .filter_map(|p| {
            let (x0, y0, _, _) = grid.cell_rect(p.row as i32, p.col as i32);
            let (a0, b0) = if axis == 0 { (x0, y0) } else { (y0, x0) };
            let lo = ((b0 + 0.15 * across).round() as i64).max(0);
            let hi = ((b0 + 0.85 * across).round() as i64).min(len_across);
            (hi > lo).then_some((a0, lo, hi))
        })
        .collect();
    // The median over the sampled tiles of the share of the span on an edge at offset `d`.
    let mut shares: Vec<f32> = Vec::with_capacity(spans.len());
    let mut coverage = |d: usize| -> f32 {
        shares.clear();
        for &(a0, lo, hi) in &spans {
            let a = (a0 + d as f32).round() as i64;
            if a < 1 || a + 1 >= len_along {
                continue;
            }
            let (mut hits, mut seen) = (0u32, 0u32);
            for b in (lo..hi).step_by(2) {
                let (u, v) = (at(a - 1, b), at(a + 1, b));
                let step: i32 = (0..3)
                    .map(|k| (raw[u + k] as i32 - raw[v + k] as i32).abs())
                    .sum();
                seen += 1;
                hits += (step > EDGE_STEP) as u32;
            }
            shares.push(hits as f32 / seen as f32);
        }
        if shares.is_empty() {
            return 0.0;
        }
        shares.sort_by(f32::total_cmp);
        shares[shares.len() / 2]
    };
    // Near the lines first: where the outline is found there (most readings), no offset
    // can beat it by the margin and the rest is not measured.
    let reach = (0.12 * along) as usize + 1;
    let is_near = |d: usize| d <= reach || d + reach >= n;
    let mut near: f32 = 0.0;
    for d in (0..n).filter(|&d| is_near(d)) {
        near = near.max(coverage(d));
        if near + MISPLACED_BY >= 1.0 {
            return None;
        }
    }
    let (peak_at, peak) = (0..n)
        .filter(|&d| !is_near(d))
        .map(|d| (d, coverage(d)))
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    if peak - near <= MISPLACED_BY {
        return None;
    }
    let d = peak_at as f32;
    Some(if d > along / 2.0 { d - along } else { d })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use image::Rgba;

    /// Tiles 40 px square with a 4 px gap on a pink ground; each has a plain face and a
    /// dark bar across its lower part whose length depends on its type, as symbols differ.
    fn board_image(rows: usize, cols: usize) -> (RgbaImage, Grid, Board) {
        let pitch = 44.0;
        let grid = Grid {
            origin: (20.0, 20.0),
            pitch: (pitch, pitch),
            rows,
            cols,
        };
        let mut img = RgbaImage::from_pixel(
            (40.0 + pitch * cols as f32) as u32,
            (40.0 + pitch * rows as f32) as u32,
            Rgba([246, 214, 226, 255]),
        );
        let mut text = String::new();
        for r in 0..rows {
            for c in 0..cols {
                let t = (r * cols + c) / 2 % 5;
                text.push((b'A' + t as u8) as char);
                let (x0, y0) = (20 + 44 * c as u32 + 2, 20 + 44 * r as u32 + 2);
                for y in y0..y0 + 40 {
                    for x in x0..x0 + 40 {
                        img.put_pixel(x, y, Rgba([252, 250, 248, 255]));
                    }
                }
                let len = 8 + 5 * t as u32;
                for y in y0 + 24..y0 + 30 {
                    for x in x0 + 20 - len / 2..x0 + 20 + len / 2 {
                        img.put_pixel(x, y, Rgba([40, 36, 44, 255]));
                    }
                }
            }
            text.push('\n');
        }
        (img, grid, text.parse().unwrap())
    }

    #[test]
    fn a_lattice_on_the_tiles_is_not_misplaced() {
        let (img, grid, board) = board_image(4, 6);
        assert_eq!(misplaced_by(&img, &grid, &board, 0), None);
        assert_eq!(misplaced_by(&img, &grid, &board, 1), None);
    }

    #[test]
    fn a_lattice_a_third_of_a_cell_off_is_sent_back_to_the_outline() {
        let (img, mut grid, board) = board_image(4, 6);
        grid.origin.1 += 15.0;
        // The outline's nearest edges: the tiles' tops 13 px up, the bottoms of the tiles
        // above 17 px up...
        let d = misplaced_by(&img, &grid, &board, 1).expect("off by a third");
        assert!((-18.0..=-12.0).contains(&d), "moved by {d}");
        // ...and across, the lattice still sits on the tiles.
        assert_eq!(misplaced_by(&img, &grid, &board, 0), None);
    }
}
