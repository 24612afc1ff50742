//! The board's backdrop panel: where a game draws its board on a panel of one colour with a
//! visible edge, the panel bounds the board even where its edge rows or columns are cleared.
//!
//! A cleared edge column shows the board's background, the same colour as the ring around
//! the board, so the tiles alone cannot tell the board's extent (on a QQ board with both
//! edge columns empty, the opponents' panels above pair with themselves). The panel can:
//! its background, grown from the board's own empty cells, stops at the panel's edge, and
//! the board is the whole cells of the tiles' lattice inside it. Only a panel closed on all
//! four sides counts: our renderer's window has a ground closed by its title and status bars
//! too, with a ring of background cells around the board, but that ground runs to the
//! frame's sides. A side moves out to the panel only where the panel is snug (under half a
//! cell to spare) and its edge is a colour step; lines outside the panel are dropped anyway.

use super::pixels::colour_dist;
use crate::board::Pos;
use crate::geometry::Grid;
use image::RgbaImage;

/// How far (mean absolute difference per channel) a pixel may be from the background
/// colour and still be backdrop: JPEG ringing on a flat colour stays within this.
const BACKDROP: f32 = 14.0;
/// A panel's edge: the median colour step (mean absolute difference per channel) between
/// neighbouring samples across it, along the stretch where the backdrop reaches it (tiles
/// or effects may cover the rest). A real game's panel edge, a dark line, steps by 26.
const EDGE_STEP: f32 = 20.0;
/// Board lines may lie this far (fraction of the pitch) outside the panel's edge.
const SLACK: f32 = 0.1;

/// The grid of `g`'s lattice fitted to the backdrop panel its empty cells lie on (see the
/// module notes); `None` when nothing changes or there is no closed panel.
pub fn fit(frame: &RgbaImage, g: &Grid, empty: &[Pos]) -> Option<Grid> {
    let (w, h) = frame.dimensions();
    if w == 0 || h == 0 {
        return None;
    }
    let px = |x: f32, y: f32| -> [f32; 3] {
        let p = frame
            .get_pixel((x as u32).min(w - 1), (y as u32).min(h - 1))
            .0;
        [p[0] as f32, p[1] as f32, p[2] as f32]
    };
    // Mean colour of each empty cell's interior (5 × 5 samples).
    let means: Vec<(Pos, [f32; 3])> = empty
        .iter()
        .map(|&p| {
            let (x, y, cw, ch) = g.cell_rect(p.row as i32, p.col as i32);
            let mut m = [0f32; 3];
            for j in 0..5 {
                for i in 0..5 {
                    let c = px(
                        x + cw * (0.2 + 0.15 * i as f32),
                        y + ch * (0.2 + 0.15 * j as f32),
                    );
                    for k in 0..3 {
                        m[k] += c[k] / 25.0;
                    }
                }
            }
            (p, m)
        })
        .collect();
    // The background: the colour most empty cells share.
    let bg = means
        .iter()
        .max_by_key(|(_, a)| {
            means
                .iter()
                .filter(|(_, b)| colour_dist(*a, *b) < BACKDROP)
                .count()
        })?
        .1;
    let seeds: Vec<Pos> = means
        .iter()
        .filter(|(_, m)| colour_dist(*m, bg) < BACKDROP)
        .map(|(p, _)| *p)
        .collect();
    if seeds.len() < 3 {
        return None;
    }
    // Sample lattice over the board and two cells around it, clamped to the frame.
    let (bx, by, bw, bh) = g.bounds();
    let s = (g.pitch.0.min(g.pitch.1) / 8.0).max(1.0);
    let x0 = (bx - 2.0 * g.pitch.0).max(0.0);
    let y0 = (by - 2.0 * g.pitch.1).max(0.0);
    let x1 = (bx + bw + 2.0 * g.pitch.0).min(w as f32 - 1.0);
    let y1 = (by + bh + 2.0 * g.pitch.1).min(h as f32 - 1.0);
    let nx = ((x1 - x0) / s) as usize + 1;
    let ny = ((y1 - y0) / s) as usize + 1;
    if nx * ny > 4_000_000 {
        return None;
    }
    // Samples are tested only as the fill reaches them, and the fill stops as soon as it
    // reaches the sampled area's border: a panel is closed on all four sides, and a
    // backdrop that runs off the area on any side (a window's ground between its title and
    // status bars, running to the frame's sides) is a background that says nothing about the
    // board's extent. On such a frame this costs a fraction of testing every sample.
    // `imageproc::region_labelling::connected_components` finds the same region but needs
    // every sample tested first: over 185 × 121 samples (a 19 × 11 board of 40 px cells)
    // 0.33–0.41 ms where the fill leaves at once (0.001 ms) on a ground that runs off, and
    // 0.43–0.64 ms against 0.11–0.17 ms on a closed panel; every read without a size hint
    // comes here, and a read's target is 5 ms.
    let is_bg = |k: usize| {
        colour_dist(px(x0 + (k % nx) as f32 * s, y0 + (k / nx) as f32 * s), bg) < BACKDROP
    };
    let mut seen = vec![false; nx * ny];
    let mut stack: Vec<usize> = Vec::new();
    for p in &seeds {
        let (cx, cy) = g.center(*p);
        let (i, j) = (((cx - x0) / s) as usize, ((cy - y0) / s) as usize);
        let k = j.min(ny - 1) * nx + i.min(nx - 1);
        if !seen[k] && is_bg(k) {
            seen[k] = true;
            stack.push(k);
        }
    }
    let (mut lo_i, mut hi_i, mut lo_j, mut hi_j) = (nx, 0, ny, 0);
    while let Some(k) = stack.pop() {
        let (i, j) = (k % nx, k / nx);
        if i == 0 || j == 0 || i + 1 == nx || j + 1 == ny {
            return None;
        }
        lo_i = lo_i.min(i);
        hi_i = hi_i.max(i);
        lo_j = lo_j.min(j);
        hi_j = hi_j.max(j);
        for n in [k - 1, k + 1, k - nx, k + nx] {
            if !seen[n] && is_bg(n) {
                seen[n] = true;
                stack.push(n);
            }
        }
    }
    if lo_i > hi_i {
        return None;
    }
    let mut out = *g;
    let axes = [
        (lo_i, hi_i, x0, g.origin.0, g.pitch.0, g.cols),
        (lo_j, hi_j, y0, g.origin.1, g.pitch.1, g.rows),
    ];
    for (axis, (lo, hi, start, origin, pitch, count)) in axes.into_iter().enumerate() {
        // A panel's edge is a step, straight along the panel: over half the backdrop's span
        // on that side, the sample just outside differs from the one inside by a step
        // (a gradient drifting out of tolerance, or a noisy ground, is no edge).
        let edge_ok = |inside: usize, outside: usize| -> bool {
            let (span_lo, span_hi) = if axis == 0 {
                (lo_j, hi_j)
            } else {
                (lo_i, hi_i)
            };
            // Sample index at position `a` across the edge and `t` along it.
            let along = |t: usize, a: usize| if axis == 0 { t * nx + a } else { a * nx + t };
            let at = |k: usize| px(x0 + (k % nx) as f32 * s, y0 + (k / nx) as f32 * s);
            let mut steps: Vec<f32> = (span_lo..=span_hi)
                .filter(|&t| seen[along(t, inside)])
                .map(|t| colour_dist(at(along(t, inside)), at(along(t, outside))))
                .collect();
            steps.sort_by(f32::total_cmp);
            let span = span_hi - span_lo + 1;
            steps.len() * 4 >= span && steps[steps.len() / 2] >= EDGE_STEP
        };
        // The panel's inner edges: half a sample beyond the last backdrop samples.
        let (a, b) = (start + (lo as f32 - 0.5) * s, start + (hi as f32 + 0.5) * s);
        // The whole cells inside the panel, lines up to SLACK beyond its edges.
        let first = ((a - SLACK * pitch - origin) / pitch).ceil() as i64;
        let last = ((b + SLACK * pitch - origin) / pitch).floor() as i64;
        // A side moves out to the panel only where the panel is snug there (a board is
        // drawn edge to edge on its panel; a status bar inside the panel leaves more) and
        // its edge is a true edge; elsewhere lines outside the panel are still dropped.
        let snug_lo = origin + first as f32 * pitch - a < 0.5 * pitch && edge_ok(lo, lo - 1);
        let snug_hi = b - (origin + last as f32 * pitch) < 0.5 * pitch && edge_ok(hi, hi + 1);
        let from = if snug_lo { first } else { first.max(0) };
        let to = if snug_hi {
            last
        } else {
            last.min(count as i64)
        };
        let cells = to - from;
        if !(2..=256).contains(&cells) {
            return None;
        }
        if axis == 0 {
            out.origin.0 = origin + from as f32 * pitch;
            out.cols = cells as usize;
        } else {
            out.origin.1 = origin + from as f32 * pitch;
            out.rows = cells as usize;
        }
    }
    (out != *g).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    const BG: [u8; 3] = [48, 76, 112];

    /// A 12 × 7 board of 30 × 40 cells at (30, 30) on a panel edged by a dark line, its
    /// first and last columns and its middle row cleared; `panel_sides` false runs the
    /// backdrop to the frame's left and right edges instead (a window's ground).
    fn frame(panel_sides: bool) -> RgbaImage {
        let mut img = RgbaImage::from_pixel(420, 340, Rgba([190, 190, 190, 255]));
        let (x0, x1) = if panel_sides { (27, 393) } else { (0, 420) };
        for y in 27..313 {
            for x in x0..x1 {
                let inner = (30..310).contains(&y) && (!panel_sides || (30..390).contains(&x));
                let c = if inner { BG } else { [20, 30, 50] };
                img.put_pixel(x, y, Rgba([c[0], c[1], c[2], 255]));
            }
        }
        for r in 0..7 {
            for c in 1..11 {
                if r == 3 {
                    continue;
                }
                let (cx, cy) = (30 + c * 30, 30 + r * 40);
                for y in cy + 2..cy + 38 {
                    for x in cx + 2..cx + 28 {
                        img.put_pixel(x, y, Rgba([230, 220, 180, 255]));
                    }
                }
            }
        }
        img
    }

    /// The board as the tiles show it: columns 1..11, the middle row empty.
    fn tiles_box() -> (Grid, Vec<Pos>) {
        let g = Grid {
            origin: (60.0, 30.0),
            pitch: (30.0, 40.0),
            rows: 7,
            cols: 10,
        };
        (g, (0..10).map(|c| Pos::new(3, c)).collect())
    }

    /// The cleared edge columns are board: the panel's edge is half a pixel from them.
    #[test]
    fn cleared_edge_columns_inside_a_panel_are_board() {
        let (g, empty) = tiles_box();
        let got = fit(&frame(true), &g, &empty).expect("the panel bounds the board");
        assert_eq!((got.rows, got.cols), (7, 12));
        assert_eq!(got.origin, (30.0, 30.0));
    }

    /// A ground closed above and below but running to the frame's sides is no panel: the
    /// board keeps what its tiles show.
    #[test]
    fn a_ground_open_at_the_sides_says_nothing() {
        let (g, empty) = tiles_box();
        assert_eq!(fit(&frame(false), &g, &empty), None);
    }
}
