//! Pixel checks that tell what a game did with a click without reading the board: whether
//! a cell looks different from before (a selection highlight) and whether anything else
//! did (a link being drawn, a pair fading).
//!
//! They let the loop tell a lost click from a slow game: after clicking A then B, "only A
//! changed" means B was lost, "nothing changed" means both were, and "something between
//! them changed" means the game is animating the removal.

use crate::board::{Link, Point, Pos};
use crate::geometry::Grid;
use crate::vision::pixels::{colour_dist, rgb_at};
use image::RgbaImage;

/// Mean absolute difference per channel (RGB, 0–255) over cell `(row, col)` of the grid,
/// inset by `inset` of the cell on each side; 0 when the cell is off either image.
pub fn cell_difference(a: &RgbaImage, b: &RgbaImage, grid: &Grid, p: Point, inset: f32) -> f32 {
    let (x, y, w, h) = grid.cell_rect(p.row, p.col);
    let (x0, y0) = ((x + w * inset).ceil(), (y + h * inset).ceil());
    let (x1, y1) = (
        (x + w * (1.0 - inset)).floor(),
        (y + h * (1.0 - inset)).floor(),
    );
    let (wa, ha) = a.dimensions();
    let (wb, hb) = b.dimensions();
    let xmax = wa.min(wb) as f32;
    let ymax = ha.min(hb) as f32;
    let (x0, y0) = (x0.max(0.0) as u32, y0.max(0.0) as u32);
    let (x1, y1) = (x1.min(xmax) as u32, y1.min(ymax) as u32);
    if x1 <= x0 || y1 <= y0 {
        return 0.0;
    }
    let mut sum = 0u64;
    for yy in y0..y1 {
        for xx in x0..x1 {
            let (pa, pb) = (a.get_pixel(xx, yy), b.get_pixel(xx, yy));
            for c in 0..3 {
                sum += u64::from(pa[c].abs_diff(pb[c]));
            }
        }
    }
    sum as f32 / (3 * (x1 - x0) * (y1 - y0)) as f32
}

/// A cell counts as changed above this mean difference: far above capture noise (live
/// captures are exact), far below a highlight or a removed tile.
pub const CHANGED: f32 = 6.0;

/// Whether cell `p` looks different in `now` than in `before`.
pub fn cell_changed(before: &RgbaImage, now: &RgbaImage, grid: &Grid, p: Pos) -> bool {
    cell_difference(before, now, grid, Point::from(p), 0.1) > CHANGED
}

/// Whether any cell of the board or its ring, other than `except`, looks different: the
/// sign of a link or an animation in progress.
pub fn other_cells_changed(
    before: &RgbaImage,
    now: &RgbaImage,
    grid: &Grid,
    except: &[Pos],
) -> bool {
    let skip: Vec<Point> = except.iter().map(|&p| Point::from(p)).collect();
    (-1..=grid.rows as i32).any(|r| {
        (-1..=grid.cols as i32).any(|c| {
            let p = Point::new(r, c);
            !skip.contains(&p) && cell_difference(before, now, grid, p, 0.0) > CHANGED
        })
    })
}

/// The cells a link's path crosses between its two tiles, ring cells included, in order
/// from `a` to `b`; none for a pair side by side.
pub fn crossed_cells(link: &Link) -> Vec<Point> {
    let mut out = Vec::new();
    for w in link.path.windows(2) {
        let (dr, dc) = (
            (w[1].row - w[0].row).signum(),
            (w[1].col - w[0].col).signum(),
        );
        let mut p = w[0];
        while p != w[1] {
            p = Point::new(p.row + dr, p.col + dc);
            out.push(p);
        }
    }
    out.retain(|&p| p != Point::from(link.a) && p != Point::from(link.b));
    out
}

/// Whether the game still shows the removal of `link` in progress: its line drawn along
/// the path. The path's cells between the pair were empty when the move was planned, and
/// stay so whatever the gravity (a board at rest has nothing beyond an empty cell on the
/// side its gravity pulls from, so no tile falls into one): while a game draws the line
/// across them they differ from before — at least half of them, since a cell of the ring
/// can hold chrome that changes on its own. A pair side by side crosses no cell: there the
/// line is a thin run of one colour joining the two tiles' centres ([`thin_run`]).
///
/// A reading of such a frame can look like the removal done without gravity: the game
/// draws the line over both tiles (selected, tinted or stippled), which can read as bare
/// ground, and lets the tiles above fall only once the line is gone.
pub fn link_drawn(before: &RgbaImage, now: &RgbaImage, grid: &Grid, link: &Link) -> bool {
    let crossed = crossed_cells(link);
    if crossed.is_empty() {
        return thin_run(now, grid, Point::from(link.a), Point::from(link.b));
    }
    let changed = crossed
        .iter()
        .filter(|&&p| cell_difference(before, now, grid, p, 0.1) > CHANGED)
        .count();
    2 * changed >= crossed.len()
}

/// Whether a line of one colour runs straight from the centre of cell `a` to that of `b`
/// and is thin: nine in ten pixels along it within 20 of the colour at its middle, and at
/// a quarter, half and three quarters of its length the colour spans less than a quarter
/// of a pitch across it while a third of a pitch to both sides it differs (by over 40) at
/// two of those points at least. Link lines measured 0.03–0.18 of a pitch wide; an
/// emptied cell shows one ground on and beside the centre line (not thin), a tile's face
/// is broken by its border where two cells meet.
pub fn thin_run(frame: &RgbaImage, grid: &Grid, a: Point, b: Point) -> bool {
    let (xa, ya) = grid.point_center(a);
    let (xb, yb) = grid.point_center(b);
    let len = (xb - xa).hypot(yb - ya);
    if len < 2.0 {
        return false;
    }
    let (ux, uy) = ((xb - xa) / len, (yb - ya) / len);
    let pitch_across = if ux.abs() > uy.abs() {
        grid.pitch.1
    } else {
        grid.pitch.0
    };
    let px = |t: f32, d: f32| {
        rgb_at(
            frame,
            (xa + ux * t - uy * d).floor() as i64,
            (ya + uy * t + ux * d).floor() as i64,
        )
    };
    let Some(c) = px(len / 2.0, 0.0) else {
        return false;
    };
    let n = len.floor() as usize;
    let on = (0..=n)
        .filter(|&i| px(i as f32, 0.0).is_some_and(|p| colour_dist(p, c) <= 20.0))
        .count();
    if on * 10 < (n + 1) * 9 {
        return false;
    }
    let off = pitch_across * 0.34;
    let band_max = (pitch_across * 0.25).max(4.0);
    let mut sides_differ = 0;
    for k in 1..=3 {
        let t = len * k as f32 / 4.0;
        let reach = |s: f32| {
            (1..=off.round() as i32)
                .take_while(|&d| px(t, s * d as f32).is_some_and(|p| colour_dist(p, c) <= 20.0))
                .count() as f32
        };
        if reach(-1.0) + reach(1.0) >= band_max {
            return false;
        }
        let differs = |s: f32| px(t, s * off).is_none_or(|p| colour_dist(p, c) > 40.0);
        sides_differ += (differs(-1.0) && differs(1.0)) as usize;
    }
    sides_differ >= 2
}

/// What a click pair has visibly done so far, judged against the frame it was planned on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Reaction {
    /// Nothing changed: both clicks were lost.
    Nothing,
    /// Only the first tile changed (selected): the second click was lost.
    FirstOnly,
    /// Only the second tile changed: the first click was lost.
    SecondOnly,
    /// Other cells changed, or both tiles did: the game is busy with the pair.
    Busy,
}

/// Classifies a frame taken after clicking `a` then `b`.
pub fn reaction(before: &RgbaImage, now: &RgbaImage, grid: &Grid, a: Pos, b: Pos) -> Reaction {
    if other_cells_changed(before, now, grid, &[a, b]) {
        return Reaction::Busy;
    }
    match (
        cell_changed(before, now, grid, a),
        cell_changed(before, now, grid, b),
    ) {
        (false, false) => Reaction::Nothing,
        (true, false) => Reaction::FirstOnly,
        (false, true) => Reaction::SecondOnly,
        (true, true) => Reaction::Busy,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Gravity, Link};
    use crate::render::{RenderSpec, Renderer};

    /// A link from (0,0) to (1,1) round by (0,2) and (1,2).
    fn round_link() -> Link {
        Link {
            a: Pos::new(0, 0),
            b: Pos::new(1, 1),
            path: vec![
                Point::new(0, 0),
                Point::new(0, 2),
                Point::new(1, 2),
                Point::new(1, 1),
            ],
        }
    }

    #[test]
    fn reactions_from_rendered_frames() {
        let board = Board::parse("AB.\nBA.\n.CC").unwrap();
        let mut r = Renderer::new(&RenderSpec::default(), 3, 3);
        let before = r.draw(&board, &[], &[]);
        let g = before.grid;
        let (a, b) = (Pos::new(2, 1), Pos::new(2, 2));
        let same = r.draw(&board, &[], &[]).image;
        assert_eq!(reaction(&before.image, &same, &g, a, b), Reaction::Nothing);
        let sel_a = r.draw(&board, &[a], &[]).image;
        assert_eq!(
            reaction(&before.image, &sel_a, &g, a, b),
            Reaction::FirstOnly
        );
        let sel_b = r.draw(&board, &[b], &[]).image;
        assert_eq!(
            reaction(&before.image, &sel_b, &g, a, b),
            Reaction::SecondOnly
        );
        let busy = r.draw(&board, &[], &[round_link()]).image;
        assert_eq!(
            reaction(&before.image, &busy, &g, Pos::new(0, 0), Pos::new(1, 1)),
            Reaction::Busy
        );
    }

    #[test]
    fn crossed_cells_run_along_the_path_between_the_pair() {
        assert_eq!(
            crossed_cells(&round_link()),
            vec![Point::new(0, 1), Point::new(0, 2), Point::new(1, 2)]
        );
        let side_by_side = Link {
            a: Pos::new(2, 1),
            b: Pos::new(2, 2),
            path: vec![Point::new(2, 1), Point::new(2, 2)],
        };
        assert!(crossed_cells(&side_by_side).is_empty());
    }

    #[test]
    fn a_link_line_shows_until_the_game_takes_it_away() {
        let board = Board::parse("A..\nB.A\n.BC\n..C").unwrap();
        let mut r = Renderer::new(&RenderSpec::default(), 4, 3);
        let before = r.draw(&board, &[], &[]);
        let g = before.grid;
        // Across empty cells: (0,0) right to (0,2), down to (1,2).
        let far = Link {
            a: Pos::new(0, 0),
            b: Pos::new(1, 2),
            path: vec![Point::new(0, 0), Point::new(0, 2), Point::new(1, 2)],
        };
        // Drawn while the game shows the line over the selected pair, not once the pair
        // is gone.
        let mut shown_then_gone = |link: &Link| {
            let drawn = r
                .draw(&board, &[link.a, link.b], std::slice::from_ref(link))
                .image;
            let mut gone = board.clone();
            gone.remove_pair(link.a, link.b, Gravity::None);
            let done = r.draw(&gone, &[], &[]).image;
            (
                link_drawn(&before.image, &drawn, &g, link),
                link_drawn(&before.image, &done, &g, link),
            )
        };
        assert_eq!(shown_then_gone(&far), (true, false));
        // Side by side: the pair C at (2,2) and (3,2).
        let near = Link {
            a: Pos::new(2, 2),
            b: Pos::new(3, 2),
            path: vec![Point::new(2, 2), Point::new(3, 2)],
        };
        assert_eq!(shown_then_gone(&near), (true, false));
        let still = r.draw(&board, &[near.a, near.b], &[]).image;
        assert!(!link_drawn(&before.image, &still, &g, &near));
    }

    #[test]
    fn off_image_cells_do_not_count() {
        let a = RgbaImage::new(10, 10);
        let g = Grid {
            origin: (0.0, 0.0),
            pitch: (10.0, 10.0),
            rows: 1,
            cols: 1,
        };
        assert_eq!(cell_difference(&a, &a, &g, Point::new(5, 5), 0.0), 0.0);
    }
}
