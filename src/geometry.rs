//! Where the board sits in a frame: the bridge between pixels and cells.
//!
//! Vision produces a [`Grid`], the renderer draws with one, the annotator labels with one and
//! the agent turns a planned cell into a click with one — so all of them agree on what
//! "cell (r, c)" means in pixels.

use crate::board::{Point, Pos};
use serde::{Deserialize, Serialize};

/// A regular grid of cells in image pixels. The pitch is fractional because screens scaled
/// by 125 % DPI give pitches such as 38.75 px.
#[derive(Clone, Copy, PartialEq, Debug, Serialize, Deserialize)]
pub struct Grid {
    /// Top-left corner of cell (0, 0), in pixels.
    pub origin: (f32, f32),
    /// Distance from one cell's top-left to the next, (x, y) in pixels.
    pub pitch: (f32, f32),
    /// Rows of cells.
    pub rows: usize,
    /// Columns of cells.
    pub cols: usize,
}

impl Grid {
    /// The rectangle of cell `(row, col)` as (x, y, w, h) in pixels; signed coordinates so ring
    /// cells outside the board (-1, rows, cols) have a rectangle too.
    pub fn cell_rect(&self, row: i32, col: i32) -> (f32, f32, f32, f32) {
        (
            self.origin.0 + col as f32 * self.pitch.0,
            self.origin.1 + row as f32 * self.pitch.1,
            self.pitch.0,
            self.pitch.1,
        )
    }

    /// The centre of a board cell, where the bot clicks.
    pub fn center(&self, p: Pos) -> (f32, f32) {
        self.point_center(Point::from(p))
    }

    /// The centre of a path corner, ring cells included, where a link line is drawn.
    pub fn point_center(&self, p: Point) -> (f32, f32) {
        let (x, y, w, h) = self.cell_rect(p.row, p.col);
        (x + w / 2.0, y + h / 2.0)
    }

    /// The cell under a pixel, `None` outside the board.
    pub fn cell_at(&self, x: f32, y: f32) -> Option<Pos> {
        let c = ((x - self.origin.0) / self.pitch.0).floor();
        let r = ((y - self.origin.1) / self.pitch.1).floor();
        if r < 0.0 || c < 0.0 || r as usize >= self.rows || c as usize >= self.cols {
            None
        } else {
            Some(Pos::new(r as usize, c as usize))
        }
    }

    /// The board's bounding box (x, y, w, h) in pixels.
    pub fn bounds(&self) -> (f32, f32, f32, f32) {
        (
            self.origin.0,
            self.origin.1,
            self.cols as f32 * self.pitch.0,
            self.rows as f32 * self.pitch.1,
        )
    }

    /// The cells of this grid whose centres lie inside `other`'s rectangle, as a grid;
    /// `None` when none do.
    pub fn part_within(&self, other: &Grid) -> Option<Grid> {
        let (x0, y0, w, h) = other.bounds();
        let inside = |n: usize, o: f32, p: f32, lo: f32, len: f32| {
            let k: Vec<usize> = (0..n)
                .filter(|&k| (lo..=lo + len).contains(&(o + (k as f32 + 0.5) * p)))
                .collect();
            Some(*k.first()?..*k.last()? + 1)
        };
        let cols = inside(self.cols, self.origin.0, self.pitch.0, x0, w)?;
        let rows = inside(self.rows, self.origin.1, self.pitch.1, y0, h)?;
        Some(self.sub(rows, cols))
    }

    /// The lattice of this grid's cells `rows` × `cols`: what is left of a board when edge
    /// lines go.
    pub fn sub(&self, rows: std::ops::Range<usize>, cols: std::ops::Range<usize>) -> Grid {
        Grid {
            origin: (
                self.origin.0 + cols.start as f32 * self.pitch.0,
                self.origin.1 + rows.start as f32 * self.pitch.1,
            ),
            pitch: self.pitch,
            rows: rows.len(),
            cols: cols.len(),
        }
    }

    /// The grid with one more line of cells on `side`, the lattice continued at the same
    /// pitch; `None` when that line would not lie wholly inside a `width` x `height` frame.
    /// A board is a lattice, so tiles a reading left out sit on such a line.
    pub fn grown(&self, side: Side, width: u32, height: u32) -> Option<Grid> {
        let mut g = *self;
        match side {
            Side::Top => {
                g.origin.1 -= g.pitch.1;
                g.rows += 1;
            }
            Side::Bottom => g.rows += 1,
            Side::Left => {
                g.origin.0 -= g.pitch.0;
                g.cols += 1;
            }
            Side::Right => g.cols += 1,
        }
        let (x, y, w, h) = g.bounds();
        let inside = x >= 0.0 && y >= 0.0 && x + w <= width as f32 && y + h <= height as f32;
        inside.then_some(g)
    }

    /// The cells of `grown` (this grid grown on `side`) that this grid does not have.
    pub fn new_line(&self, side: Side) -> Vec<Pos> {
        match side {
            Side::Top => (0..self.cols).map(|c| Pos::new(0, c)).collect(),
            Side::Bottom => (0..self.cols).map(|c| Pos::new(self.rows, c)).collect(),
            Side::Left => (0..self.rows).map(|r| Pos::new(r, 0)).collect(),
            Side::Right => (0..self.rows).map(|r| Pos::new(r, self.cols)).collect(),
        }
    }
}

/// A side of a grid.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Side {
    /// Above row 0.
    Top,
    /// Below the last row.
    Bottom,
    /// Left of column 0.
    Left,
    /// Right of the last column.
    Right,
}

impl Side {
    /// All four sides.
    pub const ALL: [Side; 4] = [Side::Top, Side::Bottom, Side::Left, Side::Right];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_part_of_a_grid_within_another_keeps_the_cells_centred_inside() {
        // A board of 19 columns and a lattice that runs on 5 columns over a side panel.
        let board = Grid {
            origin: (17.5, 206.5),
            pitch: (31.0, 35.0),
            rows: 11,
            cols: 19,
        };
        let wide = Grid {
            cols: 24,
            origin: (17.0, 206.0),
            ..board
        };
        let part = wide.part_within(&board).unwrap();
        assert_eq!((part.rows, part.cols, part.origin), (11, 19, (17.0, 206.0)));
        let apart = Grid {
            origin: (700.0, 0.0),
            ..board
        };
        assert_eq!(apart.part_within(&board), None);
    }

    #[test]
    fn centre_and_lookup_agree() {
        let g = Grid {
            origin: (13.0, 178.0),
            pitch: (31.0, 35.0),
            rows: 11,
            cols: 19,
        };
        let p = Pos::new(3, 7);
        let (x, y) = g.center(p);
        assert_eq!(g.cell_at(x, y), Some(p));
        assert_eq!(g.cell_at(12.0, 200.0), None);
        assert_eq!(g.point_center(Point::new(-1, 0)).1, 178.0 - 17.5);
    }

    #[test]
    fn a_grown_grid_continues_the_lattice_inside_the_frame() {
        let g = Grid {
            origin: (40.0, 20.0),
            pitch: (20.0, 25.0),
            rows: 2,
            cols: 3,
        };
        let left = g.grown(Side::Left, 200, 200).unwrap();
        assert_eq!((left.origin, left.cols, left.rows), ((20.0, 20.0), 4, 2));
        // The old cell (0, 0) is the grown grid's (0, 1), at the same pixels.
        assert_eq!(left.center(Pos::new(0, 1)), g.center(Pos::new(0, 0)));
        assert_eq!(g.new_line(Side::Left), vec![Pos::new(0, 0), Pos::new(1, 0)]);
        let bottom = g.grown(Side::Bottom, 200, 200).unwrap();
        assert_eq!((bottom.origin, bottom.rows), (g.origin, 3));
        assert_eq!(g.new_line(Side::Bottom).len(), 3);
        // A line that would leave the frame is not added.
        assert_eq!(g.grown(Side::Top, 200, 200), None);
        assert_eq!(g.grown(Side::Right, 119, 200), None);
        assert!(g.grown(Side::Right, 120, 200).is_some());
    }
}
