//! Spotting a removal in progress: a link line drawn across the board.
//!
//! Games flash the path of a removed pair as a thin line of one colour through cell
//! centres. Reading such a frame would invent tiles where the line crosses empty cells, so
//! the reader refuses it. The test needs no background model: along each row's (column's)
//! centre line it looks for a run of nearly constant colour that crosses a cell boundary and
//! is thin — the pixels a third of a cell to either side are different — and starts and ends
//! near cell centres, where a link's corners are. Tiles never give such a run (their borders
//! break it at every boundary), background never does (it is not thin), and other chrome
//! along the board (a progress bar, a toolbar) rarely ends where cell centres are.

use super::pixels::colour_dist;
use crate::geometry::Grid;
use image::RgbaImage;

/// Where a link line was seen: "row R" or "column C" and the pixel span.
pub fn find_link_line(frame: &RgbaImage, grid: &Grid) -> Option<String> {
    let (fw, fh) = (frame.width() as i64, frame.height() as i64);
    let px = |x: i64, y: i64| -> Option<[f32; 3]> {
        if x < 0 || y < 0 || x >= fw || y >= fh {
            return None;
        }
        let p = frame.get_pixel(x as u32, y as u32).0;
        Some([p[0] as f32, p[1] as f32, p[2] as f32])
    };
    let (bx, by, bw, bh) = grid.bounds();
    let (pw, ph) = grid.pitch;
    // Horizontal runs along row centres, ring rows included.
    for r in -1..=grid.rows as i32 {
        let y = (grid.point_center(crate::board::Point::new(r, 0)).1).round() as i64;
        let off = (ph * 0.34).round() as i64;
        let xa = (bx - pw * 0.5).floor() as i64;
        let xb = (bx + bw + pw * 0.5).ceil() as i64;
        let bounds: Vec<f32> = (0..=grid.cols).map(|c| bx + c as f32 * pw).collect();
        if let Some(span) = scan(
            &px,
            (xa, xb),
            pw,
            &bounds,
            |t| (t, y),
            |t, s| (t, y + s * off),
            r < 0 || r == grid.rows as i32,
        ) {
            return Some(format!("row {r}, x {}..{}", span.0, span.1));
        }
    }
    for c in -1..=grid.cols as i32 {
        let x = (grid.point_center(crate::board::Point::new(0, c)).0).round() as i64;
        let off = (pw * 0.34).round() as i64;
        let ya = (by - ph * 0.5).floor() as i64;
        let yb = (by + bh + ph * 0.5).ceil() as i64;
        let bounds: Vec<f32> = (0..=grid.rows).map(|r| by + r as f32 * ph).collect();
        if let Some(span) = scan(
            &px,
            (ya, yb),
            ph,
            &bounds,
            |t| (x, t),
            |t, s| (x + s * off, t),
            c < 0 || c == grid.cols as i32,
        ) {
            return Some(format!("column {c}, y {}..{}", span.0, span.1));
        }
    }
    None
}

/// Scans one centre line from `range.0` to `range.1` for a thin constant-colour run of at
/// least 0.8 pitch that crosses one of `bounds`; `ring` when the line is the ring around
/// the board.
fn scan(
    px: &impl Fn(i64, i64) -> Option<[f32; 3]>,
    range: (i64, i64),
    pitch: f32,
    bounds: &[f32],
    on: impl Fn(i64) -> (i64, i64),
    side: impl Fn(i64, i64) -> (i64, i64),
    ring: bool,
) -> Option<(i64, i64)> {
    let min_len = (pitch * 0.8) as i64;
    // A link is drawn from cell centre to cell centre (with a dot at each corner), so both
    // ends of its run lie near a centre; a bar or a border of other chrome (a progress bar
    // under the board, a toolbar) ends anywhere.
    let first = bounds.first().copied().unwrap_or(0.0);
    let near_centre = |t: i64| {
        let u = (t as f32 - first) / pitch - 0.5;
        (u - u.round()).abs() * pitch <= (pitch * 0.2).max(3.0)
    };
    let mut start = range.0;
    let mut colour: Option<[f32; 3]> = None;
    let mut t = range.0;
    let check = |a: i64, b: i64, c: [f32; 3]| -> bool {
        if b - a < min_len {
            return false;
        }
        let crosses = bounds
            .iter()
            .any(|&q| q > (a + 2) as f32 && q < (b - 2) as f32);
        if !crosses || !near_centre(a) || !near_centre(b) {
            return false;
        }
        // Thin: both sides differ from the run at three points along it.
        [1, 2, 3].iter().all(|&k| {
            let m = a + (b - a) * k / 4;
            let ok = |s: i64| {
                let (x, y) = side(m, s);
                px(x, y).is_none_or(|p| colour_dist(p, c) > 40.0)
            };
            ok(-1) && ok(1)
        }) && (!ring || {
            // In the ring, one ground on both sides at the middle (a link there runs over
            // background): a frame or panel edge along the board has different sides.
            let m = (a + b) / 2;
            let (x0, y0) = side(m, -1);
            let (x1, y1) = side(m, 1);
            match (px(x0, y0), px(x1, y1)) {
                (Some(p), Some(q)) => colour_dist(p, q) <= 40.0,
                _ => false,
            }
        })
    };
    while t <= range.1 {
        let (x, y) = on(t);
        let p = px(x, y);
        match (p, colour) {
            (Some(p), Some(c)) if colour_dist(p, c) <= 20.0 => {}
            _ => {
                if let Some(c) = colour {
                    if check(start, t, c) {
                        return Some((start, t));
                    }
                }
                start = t;
                colour = p;
            }
        }
        t += 1;
    }
    if let Some(c) = colour {
        if check(start, t, c) {
            return Some((start, t));
        }
    }
    None
}
