//! The ground remembered cell by cell on a locked grid: how each cell looked when the
//! caller last knew it empty.
//!
//! A game draws its background once and its tiles over it, so a cell a game has emptied
//! shows the same pixels for the rest of the game, except where a neighbouring tile's 3-D
//! side and drop shadow come or go along the edge they share. A cell the frame alone cannot
//! tell from a tile (a photo's leaf or branch, a gradient's stretch beside a tile's shadow,
//! read as a picture of its own) is ground when it shows the ground remembered there. A
//! tile on such a cell shows its border all round, which no neighbour's change explains.

use super::config::ReaderConfig;
use super::pictures::{describe, Picture};
use super::pixels::Integral;
use crate::board::{Board, Cell, Pos};
use crate::geometry::Grid;
use image::RgbaImage;

/// The remembered ground of the cells of one grid.
#[derive(Clone, Debug)]
pub struct GroundMemory {
    grid: Grid,
    /// Per board cell (row-major): its picture when last known empty.
    looks: Vec<Option<Picture>>,
}

impl GroundMemory {
    /// Nothing remembered yet on `grid`.
    pub fn new(grid: Grid) -> GroundMemory {
        GroundMemory {
            grid,
            looks: vec![None; grid.rows * grid.cols],
        }
    }

    /// The grid the memory belongs to.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// How many cells have a remembered ground.
    pub fn len(&self) -> usize {
        self.looks.iter().filter(|l| l.is_some()).count()
    }

    /// Whether no cell has a remembered ground.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Learns `board` as `frame` shows it on the memory's grid: its empty cells' pictures are
    /// their ground from now on, and cells holding a tile or an obstacle forget theirs.
    /// A board of another size than the grid is ignored.
    pub fn learn(&mut self, frame: &RgbaImage, board: &Board, cfg: &ReaderConfig) {
        let g = self.grid;
        if board.rows() != g.rows || board.cols() != g.cols {
            return;
        }
        let integral = board_integral(frame, &g);
        for p in board.positions() {
            self.looks[p.row * g.cols + p.col] = match board.get(p) {
                Cell::Empty => describe(&integral, cell_rect(&g, p), cfg),
                _ => None,
            };
        }
    }

    /// The cells of the grid whose picture in `frame` shows their remembered ground
    /// ([`shows_remembered`]).
    pub fn ground_in(&self, frame: &RgbaImage, cfg: &ReaderConfig) -> Vec<Pos> {
        if self.is_empty() {
            return Vec::new();
        }
        let g = self.grid;
        let integral = board_integral(frame, &g);
        let mut out = Vec::new();
        for (i, then) in self.looks.iter().enumerate() {
            let Some(then) = then else { continue };
            let p = Pos::new(i / g.cols, i % g.cols);
            if let Some(now) = describe(&integral, cell_rect(&g, p), cfg) {
                if shows_remembered(then, &now, cfg) {
                    out.push(p);
                }
            }
        }
        out
    }

    /// Whether cell `p` (of the grid) has a remembered ground that `now`, its picture in a
    /// new frame, shows.
    pub fn shows(&self, p: Pos, now: &Picture, cfg: &ReaderConfig) -> bool {
        (p.row < self.grid.rows && p.col < self.grid.cols)
            .then(|| self.looks[p.row * self.grid.cols + p.col].as_ref())
            .flatten()
            .is_some_and(|then| shows_remembered(then, now, cfg))
    }
}

/// A summed-area table of `frame` over the grid's cells (clipped to the frame).
fn board_integral(frame: &RgbaImage, g: &Grid) -> Integral {
    let (x, y, w, h) = g.bounds();
    Integral::new(
        frame,
        x.floor() as i64,
        y.floor() as i64,
        w.ceil() as i64 + 2,
        h.ceil() as i64 + 2,
    )
}

fn cell_rect(g: &Grid, p: Pos) -> (f32, f32, f32, f32) {
    g.cell_rect(p.row as i32, p.col as i32)
}

/// Whether `now` shows the ground `then` showed on the same cell: at least
/// [`ReaderConfig::remembered_share`] of the inner blocks, and of the blocks along
/// [`ReaderConfig::remembered_sides`] sides of the outer ring, lie within
/// [`ReaderConfig::remembered_gap`] of the remembered ones. A neighbour that came or went
/// changes one side and the band its shadow covers; a tile drawn on the cell changes its
/// ring on every side, blank face or not.
pub fn shows_remembered(then: &Picture, now: &Picture, cfg: &ReaderConfig) -> bool {
    let b = cfg.blocks.max(1);
    if then.blocks.len() != now.blocks.len()
        || then.frame.len() != now.frame.len()
        || then.frame.len() != ring_len(b) * 3
    {
        return false;
    }
    let close = |x: &[f32], y: &[f32]| {
        ((x[0] - y[0]).abs() + (x[1] - y[1]).abs() + (x[2] - y[2]).abs()) / 3.0
            <= cfg.remembered_gap
    };
    let share = |alike: usize, n: usize| n > 0 && alike as f32 >= cfg.remembered_share * n as f32;
    let inner = then
        .blocks
        .chunks_exact(3)
        .zip(now.blocks.chunks_exact(3))
        .filter(|(x, y)| close(x, y))
        .count();
    if !share(inner, then.blocks.len() / 3) {
        return false;
    }
    // The ring's blocks in row-major order of the b × b split; per side, how many there are
    // and how many are alike.
    let ring = (0..b)
        .flat_map(|r| (0..b).map(move |c| (r, c)))
        .filter(|&(r, c)| r == 0 || c == 0 || r + 1 == b || c + 1 == b);
    let mut sides = [(0usize, 0usize); 4];
    for ((r, c), (x, y)) in ring.zip(then.frame.chunks_exact(3).zip(now.frame.chunks_exact(3))) {
        let alike = close(x, y) as usize;
        for (s, on) in [r == 0, r + 1 == b, c == 0, c + 1 == b]
            .into_iter()
            .enumerate()
        {
            if on {
                sides[s].0 += 1;
                sides[s].1 += alike;
            }
        }
    }
    sides.iter().filter(|&&(n, alike)| share(alike, n)).count() >= cfg.remembered_sides
}

/// Blocks on the outer ring of a `b × b` split.
fn ring_len(b: usize) -> usize {
    if b < 2 {
        b * b
    } else {
        4 * b - 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    const PITCH: u32 = 40;

    /// A frame of `rows × cols` cells of PITCH px at (20, 20) on a speckled ground (each
    /// pixel its own shade, as a photo's), for drawing on.
    fn speckled(rows: u32, cols: u32) -> (RgbaImage, Grid) {
        let img = RgbaImage::from_fn(cols * PITCH + 40, rows * PITCH + 40, |x, y| {
            let v = ((x * 37 + y * 91) % 97) as u8;
            Rgba([60 + v, 90 + v / 2, 40 + v, 255])
        });
        let grid = Grid {
            origin: (20.0, 20.0),
            pitch: (PITCH as f32, PITCH as f32),
            rows: rows as usize,
            cols: cols as usize,
        };
        (img, grid)
    }

    fn fill(img: &mut RgbaImage, x0: u32, y0: u32, w: u32, h: u32, c: [u8; 3]) {
        for y in y0..y0 + h {
            for x in x0..x0 + w {
                img.put_pixel(x, y, Rgba([c[0], c[1], c[2], 255]));
            }
        }
    }

    /// A tile on cell (r, c): a light face with a dark border all round.
    fn tile(img: &mut RgbaImage, r: u32, c: u32, face: [u8; 3]) {
        let (x, y) = (20 + c * PITCH, 20 + r * PITCH);
        fill(img, x + 1, y + 1, PITCH - 2, PITCH - 2, [40, 40, 40]);
        fill(img, x + 3, y + 3, PITCH - 6, PITCH - 6, face);
    }

    fn empty_board(rows: usize, cols: usize) -> Board {
        Board::parse(&vec![".".repeat(cols); rows].join("\n")).unwrap()
    }

    /// A memory of `grid` that learnt every cell of `img` as ground.
    fn all_ground(img: &RgbaImage, grid: Grid, cfg: &ReaderConfig) -> GroundMemory {
        let mut m = GroundMemory::new(grid);
        m.learn(img, &empty_board(grid.rows, grid.cols), cfg);
        m
    }

    #[test]
    fn an_emptied_cell_shows_its_ground_again_whatever_its_ground() {
        let cfg = ReaderConfig::default();
        let (img, grid) = speckled(2, 3);
        let m = all_ground(&img, grid, &cfg);
        assert_eq!(m.len(), 6);
        assert_eq!(m.ground_in(&img, &cfg).len(), 6);
    }

    #[test]
    fn a_tile_on_a_remembered_cell_is_not_its_ground_even_a_blank_face_of_the_grounds_colour() {
        let cfg = ReaderConfig::default();
        let (plain, grid) = {
            let (mut img, grid) = speckled(1, 3);
            let (w, h) = img.dimensions();
            fill(&mut img, 0, 0, w, h, [200, 200, 190]);
            (img, grid)
        };
        let m = all_ground(&plain, grid, &cfg);
        let mut now = plain.clone();
        // A blank face in the ground's own colour: only its border tells it.
        tile(&mut now, 0, 1, [200, 200, 190]);
        assert_eq!(
            m.ground_in(&now, &cfg),
            vec![Pos::new(0, 0), Pos::new(0, 2)]
        );
    }

    #[test]
    fn a_neighbours_side_and_shadow_along_one_edge_leave_the_cell_its_ground() {
        let cfg = ReaderConfig::default();
        let (img, grid) = speckled(1, 2);
        let m = all_ground(&img, grid, &cfg);
        let mut now = img.clone();
        // A tile on (0, 0) whose 3-D side and shadow fall a fifth of a pitch into (0, 1).
        tile(&mut now, 0, 0, [230, 230, 220]);
        fill(&mut now, 20 + PITCH, 20, PITCH / 5, PITCH, [30, 30, 30]);
        assert_eq!(m.ground_in(&now, &cfg), vec![Pos::new(0, 1)]);
    }

    #[test]
    fn learning_a_tile_forgets_the_cells_ground() {
        let cfg = ReaderConfig::default();
        let (img, grid) = speckled(1, 2);
        let mut m = all_ground(&img, grid, &cfg);
        m.learn(&img, &Board::parse("A.").unwrap(), &cfg);
        assert_eq!(m.len(), 1);
        assert_eq!(m.ground_in(&img, &cfg), vec![Pos::new(0, 1)]);
        // A board of another size teaches nothing.
        m.learn(&img, &empty_board(2, 2), &cfg);
        assert_eq!(m.len(), 1);
    }
}
