//! Stage 4, the verdict: is what the cells show a Lianliankan board, and how sure is each
//! cell?
//!
//! Tiles come in pairs. A frame whose pictures mostly have no twin is some other game (a
//! sliding puzzle's numbers, a grid of digits); a board with more lone pictures than a
//! selection explains is being redrawn (a link line crosses it, tiles explode); a frame with
//! hardly any tiles shows no board. Each refusal says what was counted.

use super::config::ReaderConfig;
use super::pictures::{describe, distance, shape_distance};
use super::pixels::Integral;
use super::{ReadError, Reading};
use crate::board::Cell;
use image::RgbaImage;

/// What the cells of a candidate board came to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Cells read as tiles (paired or not).
    pub tiles: usize,
    /// Tiles whose picture has no twin on the board and matches no type even after a
    /// tint is taken out.
    pub lone: usize,
    /// Tiles of types whose count is odd (a twin misread or hidden).
    pub odd: usize,
    pub rows: usize,
    pub cols: usize,
}

/// Accepts the board, or says why not.
pub fn judge(t: &Tally, cfg: &ReaderConfig) -> Result<(), ReadError> {
    if t.tiles < cfg.min_tiles {
        return Err(ReadError::NoBoard(format!(
            "{} tile-like cells in a {}x{} lattice (need {})",
            t.tiles, t.rows, t.cols, cfg.min_tiles
        )));
    }
    if t.lone as f32 > cfg.max_unpaired_share * t.tiles as f32 {
        return Err(ReadError::NotLianliankan(format!(
            "{} of {} pictures have no twin in the {}x{} grid: tiles here do not come in pairs",
            t.lone, t.tiles, t.rows, t.cols
        )));
    }
    if t.lone + t.odd > cfg.max_unpaired {
        return Err(ReadError::Animation(format!(
            "{} pictures without a twin and {} tiles of odd types in the {}x{} board: it is \
             being redrawn",
            t.lone, t.odd, t.rows, t.cols
        )));
    }
    Ok(())
}

/// How many looks the obstacle cells of `reading` show: their pictures grouped by single
/// linkage under [`ReaderConfig::obstacle_look_gap`].
pub fn obstacle_looks(frame: &RgbaImage, reading: &Reading, cfg: &ReaderConfig) -> usize {
    let b = &reading.board;
    let cells: Vec<_> = b
        .positions()
        .filter(|&p| b.get(p) == Cell::Obstacle)
        .collect();
    if cells.len() < 2 {
        return cells.len();
    }
    let (w, h) = frame.dimensions();
    let integral = Integral::new(frame, 0, 0, w as i64, h as i64);
    let pics: Vec<_> = cells
        .iter()
        .filter_map(|p| {
            describe(
                &integral,
                reading.grid.cell_rect(p.row as i32, p.col as i32),
                cfg,
            )
        })
        .collect();
    let mut parent: Vec<usize> = (0..pics.len()).collect();
    fn root(parent: &[usize], mut i: usize) -> usize {
        while parent[i] != i {
            i = parent[i];
        }
        i
    }
    for i in 0..pics.len() {
        for j in i + 1..pics.len() {
            let d = distance(&pics[i], &pics[j]).min(shape_distance(&pics[i], &pics[j]));
            if d < cfg.obstacle_look_gap {
                let (a, c) = (root(&parent, i), root(&parent, j));
                parent[a] = c;
            }
        }
    }
    (0..pics.len()).filter(|&i| root(&parent, i) == i).count()
}

/// Marks every obstacle of `reading` unsure when they show more looks than a game draws
/// obstacles with ([`ReaderConfig::max_obstacle_looks`]): they are tiles the reading could
/// not pair, so the board around them cannot be trusted either.
pub fn doubt_mixed_obstacles(frame: &RgbaImage, reading: &mut Reading, cfg: &ReaderConfig) {
    if obstacle_looks(frame, reading, cfg) <= cfg.max_obstacle_looks {
        return;
    }
    let b = &reading.board;
    for p in b.positions().filter(|&p| b.get(p) == Cell::Obstacle) {
        if !reading.unsure.contains(&p) {
            reading.unsure.push(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::geometry::Grid;
    use image::Rgba;

    /// A 2x4 board of 40 px cells on grey; cell (r, c) gets the sprite `looks[r][c]`: 0 is
    /// ground, others a stripe pattern whose stripe width is the look number.
    fn frame_with(looks: [[u32; 4]; 2]) -> (RgbaImage, Grid) {
        let mut img = RgbaImage::from_pixel(200, 120, Rgba([120, 120, 120, 255]));
        for (r, row) in looks.iter().enumerate() {
            for (c, &k) in row.iter().enumerate() {
                if k == 0 {
                    continue;
                }
                for y in 0..40 {
                    for x in 0..40 {
                        let on = ((x / (2 * k)) + (y / (3 * k))) % 2 == 0;
                        let v = if on { 230 } else { 30 };
                        let px = Rgba([v, (v + 40 * k as u8) % 255, 255 - v, 255]);
                        img.put_pixel(20 + c as u32 * 40 + x, 20 + r as u32 * 40 + y, px);
                    }
                }
            }
        }
        let grid = Grid {
            origin: (20.0, 20.0),
            pitch: (40.0, 40.0),
            rows: 2,
            cols: 4,
        };
        (img, grid)
    }

    fn reading(grid: Grid, rows: &str) -> Reading {
        Reading {
            grid,
            board: Board::parse(rows).unwrap(),
            unsure: vec![],
            selected: vec![],
        }
    }

    #[test]
    fn obstacles_of_one_sprite_are_one_look_and_stay_sure() {
        let cfg = ReaderConfig::default();
        let (img, grid) = frame_with([[1, 1, 2, 2], [1, 0, 0, 1]]);
        let mut r = reading(grid, "##AA\n#..#");
        assert_eq!(obstacle_looks(&img, &r, &cfg), 1);
        doubt_mixed_obstacles(&img, &mut r, &cfg);
        assert!(r.unsure.is_empty());
    }

    #[test]
    fn obstacles_of_three_sprites_are_tiles_left_unpaired() {
        let cfg = ReaderConfig::default();
        let (img, grid) = frame_with([[1, 2, 3, 3], [1, 2, 0, 0]]);
        let mut r = reading(grid, "###A\n##..");
        assert_eq!(obstacle_looks(&img, &r, &cfg), 3);
        doubt_mixed_obstacles(&img, &mut r, &cfg);
        assert_eq!(r.unsure.len(), 5, "every obstacle is unsure");
    }

    fn tally(tiles: usize, lone: usize, odd: usize) -> Tally {
        Tally {
            tiles,
            lone,
            odd,
            rows: 6,
            cols: 14,
        }
    }

    #[test]
    fn a_paired_board_passes_with_a_selection() {
        let cfg = ReaderConfig::default();
        assert!(judge(&tally(84, 0, 0), &cfg).is_ok());
        assert!(judge(&tally(84, 1, 0), &cfg).is_ok());
    }

    #[test]
    fn each_refusal_has_its_kind() {
        let cfg = ReaderConfig::default();
        assert_eq!(judge(&tally(2, 0, 0), &cfg).unwrap_err().kind(), "no-board");
        assert_eq!(
            judge(&tally(15, 14, 0), &cfg).unwrap_err().kind(),
            "not-lianliankan"
        );
        assert_eq!(
            judge(&tally(84, 3, 2), &cfg).unwrap_err().kind(),
            "animation"
        );
    }
}
