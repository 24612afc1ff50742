//! Pixel checks that tell what a game did with a click without reading the board: whether
//! a cell looks different from before (a selection highlight) and whether anything else
//! did (a link being drawn, a pair fading).
//!
//! They let the loop tell a lost click from a slow game: after clicking A then B, "only A
//! changed" means B was lost, "nothing changed" means both were, and "something between
//! them changed" means the game is animating the removal.

use crate::board::{Point, Pos};
use crate::geometry::Grid;
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
    use crate::board::{Board, Link};
    use crate::render::{RenderSpec, Renderer};

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
        let far = Link {
            a: Pos::new(0, 0),
            b: Pos::new(1, 1),
            path: vec![
                Point::new(0, 0),
                Point::new(0, 2),
                Point::new(1, 2),
                Point::new(1, 1),
            ],
        };
        let busy = r.draw(&board, &[], &[far]).image;
        assert_eq!(
            reaction(&before.image, &busy, &g, Pos::new(0, 0), Pos::new(1, 1)),
            Reaction::Busy
        );
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
