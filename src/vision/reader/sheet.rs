//! The lattice's sheet: every whole cell of a lattice inside the window, described, and the
//! ground learnt from the sheet's outer ring (the cells around any board the window holds).

use crate::vision::config::ReaderConfig;
use crate::vision::lattice::Axis;
use crate::vision::pictures::{describe, Picture};
use crate::vision::pixels::{colour_dist, Integral};

/// Every whole lattice cell inside a window, described.
#[derive(Clone)]
pub(super) struct Sheet {
    pub(super) x: Axis,
    pub(super) y: Axis,
    /// Lattice index of the sheet's first column and row.
    pub(super) kx: i64,
    pub(super) ky: i64,
    pub(super) rows: usize,
    pub(super) cols: usize,
    pub(super) pics: Vec<Option<Picture>>,
}

impl Sheet {
    pub(super) fn rect(&self, r: usize, c: usize) -> (f32, f32, f32, f32) {
        self.rect_on(&self.x, &self.y, r, c)
    }

    /// The rectangle of the sheet's cell (r, c) on lattice (x, y) instead of its own.
    pub(super) fn rect_on(&self, x: &Axis, y: &Axis, r: usize, c: usize) -> (f32, f32, f32, f32) {
        (
            x.phase + (self.kx + c as i64) as f32 * x.pitch,
            y.phase + (self.ky + r as i64) as f32 * y.pitch,
            x.pitch,
            y.pitch,
        )
    }

    /// The sheet of every cell of lattice (x, y) wholly inside `window`.
    pub(super) fn new(
        integral: &Integral,
        x: Axis,
        y: Axis,
        window: (u32, u32, u32, u32),
        cfg: &ReaderConfig,
    ) -> Sheet {
        let first = |a: &Axis, lo: u32| ((lo as f32 - a.phase) / a.pitch).ceil() as i64;
        let last =
            |a: &Axis, lo: u32, len: u32| (((lo + len) as f32 - a.phase) / a.pitch).floor() as i64;
        let kx = first(&x, window.0);
        let ky = first(&y, window.1);
        let cols = (last(&x, window.0, window.2) - kx).max(0) as usize;
        let rows = (last(&y, window.1, window.3) - ky).max(0) as usize;
        let mut s = Sheet {
            x,
            y,
            kx,
            ky,
            rows,
            cols,
            pics: Vec::new(),
        };
        s.pics = (0..rows * cols)
            .map(|i| describe(integral, s.rect(i / cols, i % cols), cfg))
            .collect();
        s
    }

    /// The part of `window` (the sheet's) the stage reader works on once the ground is
    /// learnt: the cells [`Ground::far`] from it, but for bars across the window
    /// ([`busy_part`]), and `margin` cells round them; whole pixels round those cells, the
    /// window's own edge where the part reaches it. `window` itself where no cell lies far
    /// from the ground, where the part leaves out less than [`ReaderConfig::left_out_min`]
    /// of the sheet, or where fewer than [`ReaderConfig::left_out_ground`] of the cells it
    /// leaves out hold the ground.
    pub(super) fn around_busy(
        &self,
        ground: &Ground,
        window: (u32, u32, u32, u32),
        margin: usize,
        cfg: &ReaderConfig,
    ) -> (u32, u32, u32, u32) {
        let busy: Vec<bool> = self
            .pics
            .iter()
            .map(|p| p.as_ref().is_some_and(|p| ground.far(p, cfg)))
            .collect();
        let Some((r0, r1, c0, c1)) = busy_part(&busy, self.cols, margin, cfg.bar_share) else {
            return window;
        };
        // What the part leaves out must be ground, not only short of clearly off it: faint
        // tiles (a few light symbols on a light ground) lie between the two.
        let (mut out, mut held) = (0usize, 0usize);
        for (i, p) in self.pics.iter().enumerate() {
            let (r, c) = (i / self.cols, i % self.cols);
            if !(r0..r1).contains(&r) || !(c0..c1).contains(&c) {
                out += 1;
                held += p.as_ref().is_some_and(|p| ground.holds(p, cfg)) as usize;
            }
        }
        if (out as f32) < cfg.left_out_min * self.pics.len() as f32
            || (held as f32) < cfg.left_out_ground * out as f32
        {
            return window;
        }
        let (ax, ay, _, _) = self.rect(r0, c0);
        let (bx, by, bw, bh) = self.rect(r1 - 1, c1 - 1);
        let (wx1, wy1) = (window.0 + window.2, window.1 + window.3);
        let x0 = if c0 == 0 {
            window.0
        } else {
            (ax.floor().max(0.0) as u32).max(window.0)
        };
        let y0 = if r0 == 0 {
            window.1
        } else {
            (ay.floor().max(0.0) as u32).max(window.1)
        };
        let x1 = if c1 == self.cols {
            wx1
        } else {
            ((bx + bw).ceil() as u32).min(wx1)
        };
        let y1 = if r1 == self.rows {
            wy1
        } else {
            ((by + bh).ceil() as u32).min(wy1)
        };
        (x0, y0, x1.saturating_sub(x0), y1.saturating_sub(y0))
    }
}

/// The rows `r0..r1` and columns `c0..c1` of a sheet `cols` wide, given which of its cells
/// are busy, within `margin` cells of its busy cells, leaving out bars: lines busy in at
/// least `bar_share` of their cells that run from a side of the sheet inwards (a title or
/// status bar across the whole window), unless they reach the other busy cells (a board
/// that fills the window on that side, or a ground darker or lighter there than on most of
/// the window's edge). `None` when nothing is busy off the bars.
pub(super) fn busy_part(
    busy: &[bool],
    cols: usize,
    margin: usize,
    bar_share: f32,
) -> Option<(usize, usize, usize, usize)> {
    let rows = busy.len() / cols.max(1);
    if rows == 0 || cols == 0 {
        return None;
    }
    let at = |r: usize, c: usize| busy[r * cols + c];
    let bar = |n: usize, len: usize| n as f32 >= bar_share * len as f32;
    // Lines that are bars, kept only in the runs from each side of the sheet.
    let edge_runs = |mut bars: Vec<bool>| {
        let len = bars.len();
        let head = bars.iter().take_while(|&&b| b).count();
        let tail = bars.iter().rev().take_while(|&&b| b).count();
        for (i, b) in bars.iter_mut().enumerate() {
            *b &= i < head || i >= len - tail;
        }
        bars
    };
    let row_bar = edge_runs(
        (0..rows)
            .map(|r| bar((0..cols).filter(|&c| at(r, c)).count(), cols))
            .collect(),
    );
    let col_bar = edge_runs(
        (0..cols)
            .map(|c| bar((0..rows).filter(|&r| at(r, c)).count(), rows))
            .collect(),
    );
    let (mut r0, mut r1, mut c0, mut c1) = (usize::MAX, 0, usize::MAX, 0);
    for r in (0..rows).filter(|&r| !row_bar[r]) {
        for c in (0..cols).filter(|&c| !col_bar[c] && at(r, c)) {
            (r0, r1, c0, c1) = (r0.min(r), r1.max(r + 1), c0.min(c), c1.max(c + 1));
        }
    }
    if r0 == usize::MAX {
        return None;
    }
    // Bars that run along the busy cells are part of what they border (a board whose
    // full lines span the window).
    while r0 > 0 && row_bar[r0 - 1] {
        r0 -= 1;
    }
    while r1 < rows && row_bar[r1] {
        r1 += 1;
    }
    while c0 > 0 && col_bar[c0 - 1] {
        c0 -= 1;
    }
    while c1 < cols && col_bar[c1] {
        c1 += 1;
    }
    Some((
        r0.saturating_sub(margin),
        (r1 + margin).min(rows),
        c0.saturating_sub(margin),
        (c1 + margin).min(cols),
    ))
}

/// What the ground looks like: the commonest cell colour on the window's outer ring, with
/// the spread of colour and texture its cells show.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ground {
    pub(super) colour: [f32; 3],
    pub(super) colour_tol: f32,
    pub(super) spread_max: f32,
}

impl Ground {
    pub(super) fn from_cells(pics: &[&Picture], cfg: &ReaderConfig) -> Option<Ground> {
        // The colour with the most ring cells within the tolerance of it.
        let tol = cfg.ground_margin * 2.0;
        let centre = pics.iter().max_by_key(|p| {
            pics.iter()
                .filter(|q| colour_dist(p.mean, q.mean) <= tol)
                .count()
        })?;
        let near: Vec<&&Picture> = pics
            .iter()
            .filter(|q| colour_dist(centre.mean, q.mean) <= tol)
            .collect();
        let mut colour = [0f32; 3];
        for p in &near {
            for (c, m) in colour.iter_mut().zip(p.mean) {
                *c += m / near.len() as f32;
            }
        }
        // Three quarters of the ring's ground cells, so chrome that happens to share the
        // ground's mean colour (text on it) does not widen the model.
        let quartile = |mut v: Vec<f32>| {
            v.sort_by(|a, b| a.total_cmp(b));
            v[(v.len() * 3 / 4).min(v.len() - 1)]
        };
        let colour_tol = quartile(near.iter().map(|p| colour_dist(colour, p.mean)).collect());
        let spread_max = quartile(near.iter().map(|p| p.spread).collect());
        Some(Ground {
            colour,
            colour_tol,
            spread_max,
        })
    }

    /// Whether most of a picture's blocks show the ground's colour, lit or in shadow (a cell
    /// of ground with a neighbour's 3-D side along one edge and its soft drop shadow over
    /// more).
    pub(super) fn covers_most(&self, p: &Picture, cfg: &ReaderConfig) -> bool {
        let n = p.blocks.len() / 3;
        n > 0 && self.shown(p, cfg) as f32 >= cfg.ground_share * n as f32
    }

    /// How many of a picture's blocks show the ground's colour, lit or in shadow
    /// ([`Ground::shows`]).
    fn shown(&self, p: &Picture, cfg: &ReaderConfig) -> usize {
        p.blocks
            .chunks_exact(3)
            .filter(|b| self.shows([b[0], b[1], b[2]], cfg))
            .count()
    }

    /// The share of a picture's blocks that show the ground's colour, lit or in shadow
    /// ([`Ground::shows`]); 0 for a picture without blocks.
    pub(super) fn shown_share(&self, p: &Picture, cfg: &ReaderConfig) -> f32 {
        self.shown(p, cfg) as f32 / (p.blocks.len() / 3).max(1) as f32
    }

    /// Whether a block's colour is the ground's, or the ground's darkened by a shadow: a
    /// shadow scales the ground's colour down, down to [`ReaderConfig::shadow_min`] of it,
    /// and keeps its hue.
    pub(super) fn shows(&self, b: [f32; 3], cfg: &ReaderConfig) -> bool {
        let g = self.colour;
        let gg: f32 = g.iter().map(|v| v * v).sum();
        let k = if gg > 0.0 {
            (b.iter().zip(g).map(|(x, y)| x * y).sum::<f32>() / gg).clamp(cfg.shadow_min, 1.0)
        } else {
            1.0
        };
        colour_dist([g[0] * k, g[1] * k, g[2] * k], b) <= self.colour_tol + cfg.ground_margin
    }

    /// Whether a picture's mean colour or spread lies past what [`Ground::holds`] takes by
    /// more than [`ReaderConfig::busy_excess`]: clearly not ground.
    pub(super) fn far(&self, p: &Picture, cfg: &ReaderConfig) -> bool {
        let slack = cfg.ground_margin + cfg.busy_excess;
        colour_dist(self.colour, p.mean) > self.colour_tol + slack
            || p.spread > self.spread_max + slack
    }

    pub(super) fn holds(&self, p: &Picture, cfg: &ReaderConfig) -> bool {
        colour_dist(self.colour, p.mean) <= self.colour_tol + cfg.ground_margin
            && p.spread <= self.spread_max + cfg.ground_margin
    }
}

/// The ground learnt from a sheet's outer ring.
pub(super) fn ring_ground(sheet: &Sheet, cfg: &ReaderConfig) -> Option<Ground> {
    let pics: Vec<&Picture> = ring_pictures(sheet).collect();
    Ground::from_cells(&pics, cfg)
}

/// The described cells of a sheet's outer ring.
pub(super) fn ring_pictures(sheet: &Sheet) -> impl Iterator<Item = &Picture> {
    ring(sheet.rows, sheet.cols)
        .into_iter()
        .filter_map(|i| sheet.pics[i].as_ref())
}

/// The ground learnt from the calm cells of a sheet's outer ring (spread under
/// [`ReaderConfig::busy_ground_spread`]), `None` with fewer than four: on a lattice off the
/// tiles' phase around a board that fills the window, the ring lies half on tiles, and
/// light tile faces can share a light ground's mean colour within the ground's tolerance
/// (only their spread sets them apart).
pub(super) fn calm_ring_ground(sheet: &Sheet, cfg: &ReaderConfig) -> Option<Ground> {
    let pics: Vec<&Picture> = ring_pictures(sheet)
        .filter(|p| p.spread < cfg.busy_ground_spread)
        .collect();
    (pics.len() >= 4)
        .then(|| Ground::from_cells(&pics, cfg))
        .flatten()
}

/// The outer ring of a `rows × cols` sheet, as indices.
pub(super) fn ring(rows: usize, cols: usize) -> Vec<usize> {
    (0..rows * cols)
        .filter(|&i| ring_sides(rows, cols, i).contains(&true))
        .collect()
}

/// Which sides of a `rows × cols` sheet's ring cell `i` lies on: top, bottom, left, right.
pub(super) fn ring_sides(rows: usize, cols: usize, i: usize) -> [bool; 4] {
    let (r, c) = (i / cols, i % cols);
    [r == 0, r + 1 == rows, c == 0, c + 1 == cols]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 10×10-block picture whose first `dark` columns are shadow and the rest ground.
    fn shadowed(ground: [f32; 3], dark: usize) -> Picture {
        let mut blocks = Vec::new();
        for _r in 0..10 {
            for c in 0..10 {
                let v = if c < dark { [10.0, 10.0, 10.0] } else { ground };
                blocks.extend(v);
            }
        }
        Picture {
            blocks,
            mean: ground,
            spread: 0.0,
            frame: Vec::new(),
        }
    }

    /// A busy map from lines of text, '#' busy.
    fn map(lines: &[&str]) -> (Vec<bool>, usize) {
        let cols = lines[0].len();
        (
            lines
                .iter()
                .flat_map(|l| l.chars().map(|c| c == '#'))
                .collect(),
            cols,
        )
    }

    #[test]
    fn the_busy_part_leaves_out_bars_away_from_the_board() {
        let (busy, cols) = map(&[
            "##########",
            "..........",
            "..........",
            "....##....",
            "....#.#...",
            "..........",
            "..........",
            "..........",
            "#########.",
        ]);
        // The title bar and the status bar (one cell short of the window) are left out.
        assert_eq!(busy_part(&busy, cols, 1, 0.9), Some((2, 6, 3, 8)));
        // A line as busy inside the window is not a bar.
        let mut inner = busy.clone();
        inner[60..70].fill(true);
        assert_eq!(busy_part(&inner, cols, 0, 0.9), Some((3, 7, 0, 10)));
        assert_eq!(busy_part(&busy, cols, 0, 0.9), Some((3, 5, 4, 7)));
        // A margin past the sheet stops at its sides.
        assert_eq!(busy_part(&busy, cols, 5, 0.9), Some((0, 9, 0, 10)));
        // Nothing busy but the bars: no part.
        let (bars, cols) = map(&["####", "....", "####"]);
        assert_eq!(busy_part(&bars, cols, 1, 0.9), None);
    }

    #[test]
    fn a_board_whose_full_lines_span_the_window_keeps_them() {
        let (busy, cols) = map(&[
            "........", "########", "########", "##.#..##", "........", "........",
        ]);
        assert_eq!(busy_part(&busy, cols, 0, 0.9), Some((1, 4, 0, 8)));
        // A board that fills most of every column is no bar either.
        let (busy, cols) = map(&[
            "..........",
            "..######..",
            "..######..",
            "..######..",
            "..######..",
            "..######..",
            "..######..",
            "..######..",
            "..######..",
            "..######..",
            "..........",
        ]);
        assert_eq!(busy_part(&busy, cols, 0, 0.8), Some((1, 10, 2, 8)));
        // Every line a bar: no part, the whole window is read.
        let (full, cols) = map(&["####", "####"]);
        assert_eq!(busy_part(&full, cols, 0, 0.9), None);
    }

    #[test]
    fn a_cell_of_ground_with_a_shadow_strip_is_mostly_ground() {
        let cfg = ReaderConfig::default();
        let g = Ground {
            colour: [50.0, 100.0, 50.0],
            colour_tol: 3.0,
            spread_max: 2.0,
        };
        // A fifth of the cell in shadow: mostly ground.
        assert!(g.covers_most(&shadowed([51.0, 99.0, 50.0], 2), &cfg));
        // A tile face (white) with no ground showing: not.
        assert!(!g.covers_most(&shadowed([235.0, 235.0, 235.0], 0), &cfg));
        // Half in black: not mostly ground.
        assert!(!g.covers_most(&shadowed([51.0, 99.0, 50.0], 5), &cfg));
    }

    #[test]
    fn a_soft_shadow_over_half_a_cell_of_ground_is_still_ground() {
        let cfg = ReaderConfig::default();
        let g = Ground {
            colour: [50.0, 100.0, 50.0],
            colour_tol: 1.0,
            spread_max: 2.0,
        };
        // Columns darkening towards the left edge (the shadow of a tile on the left), from
        // 55 % of the ground's brightness to all of it: every block is the ground's hue.
        let mut p = shadowed([50.0, 100.0, 50.0], 0);
        for r in 0..10 {
            for c in 0..5 {
                let k = 0.55 + 0.09 * c as f32;
                p.blocks[(r * 10 + c) * 3..][..3].copy_from_slice(&[50.0 * k, 100.0 * k, 50.0 * k]);
            }
        }
        assert!(g.covers_most(&p, &cfg));
        // The same darkening in another hue (a tile's grey 3-D side) is not the ground's.
        for r in 0..10 {
            for c in 0..5 {
                p.blocks[(r * 10 + c) * 3..][..3].copy_from_slice(&[60.0, 60.0, 60.0]);
            }
        }
        assert!(!g.covers_most(&p, &cfg));
    }
}
