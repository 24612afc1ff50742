//! A lattice that cuts every tile in two: the pitch along one axis is half the tiles'.
//!
//! A tile set whose faces carry a strong edge across their middle (a symbol above a plain
//! lower half, a two-tone face) gives the edge profiles as strong a period at half the
//! tile as at the tile. Read at that pitch, each tile is two cells, and the pairs of
//! neighbours (0, 1), (2, 3), … along that axis behave as one picture: wherever the first
//! cell shows a type, the second shows one same other type. On a real board the neighbours
//! of a type's tiles are dealt at random, so for the pairs of the other parity, and for
//! both parities on a lattice at the tiles' own pitch, the partner changes from copy to
//! copy.

use super::config::ReaderConfig;
use crate::board::{Board, Cell, Pos};
use crate::geometry::Grid;

/// The parity (0 or 1) of the neighbour pairs along `axis` (0: along a row, 1: down a
/// column) that behave as halves of one tile, when exactly one parity does.
pub fn bound_parity(board: &Board, axis: usize, cfg: &ReaderConfig) -> Option<usize> {
    let (n_along, n_across) = if axis == 0 {
        (board.cols(), board.rows())
    } else {
        (board.rows(), board.cols())
    };
    let cell = |along: usize, across: usize| {
        if axis == 0 {
            board.get(Pos::new(across, along))
        } else {
            board.get(Pos::new(along, across))
        }
    };
    // Whether the types at the pair starts of parity `k` keep their usual partner, over
    // enough repeated types.
    let keeps = |k: usize| -> bool {
        let mut partners = std::collections::BTreeMap::<u8, Vec<Cell>>::new();
        for across in 0..n_across {
            for a in (k..n_along.saturating_sub(1)).step_by(2) {
                if let Cell::Tile(t) = cell(a, across) {
                    partners.entry(t).or_default().push(cell(a + 1, across));
                }
            }
        }
        let (mut kept, mut tested, mut types) = (0usize, 0usize, 0usize);
        for seen in partners.values().filter(|s| s.len() >= 2) {
            let usual = seen
                .iter()
                .map(|c| seen.iter().filter(|d| *d == c).count())
                .max()
                .unwrap_or(0);
            types += 1;
            tested += seen.len();
            kept += usual;
        }
        types >= cfg.halves_min_types && kept as f32 >= cfg.halves_kept * tested as f32
    };
    match (keeps(0), keeps(1)) {
        (true, false) => Some(0),
        (false, true) => Some(1),
        _ => None,
    }
}

/// The grid at twice the pitch along every axis where `board` (read on `grid`) shows tiles
/// cut in two, or `None` where neither does.
pub fn merged(grid: &Grid, board: &Board, cfg: &ReaderConfig) -> Option<Grid> {
    let mut g = *grid;
    for axis in 0..2 {
        let Some(k) = bound_parity(board, axis, cfg) else {
            continue;
        };
        let n = if axis == 0 { g.cols } else { g.rows };
        let pairs = (n - k) / 2;
        if pairs < 2 {
            continue;
        }
        if axis == 0 {
            g.origin.0 += k as f32 * g.pitch.0;
            g.pitch.0 *= 2.0;
            g.cols = pairs;
        } else {
            g.origin.1 += k as f32 * g.pitch.1;
            g.pitch.1 *= 2.0;
            g.rows = pairs;
        }
    }
    (g != *grid).then_some(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_cut_in_two_down_the_columns_merge_by_rows() {
        // A 2×4 board of types A–D read at half the row pitch: each tile's lower half is
        // its own picture (a–d), the tile's upper half above it.
        let b: Board = "ABCDBADC\nabcdbadc\nDCBAACDB\ndcbaacdb".parse().unwrap();
        let cfg = ReaderConfig::default();
        assert_eq!(bound_parity(&b, 1, &cfg), Some(0));
        assert_eq!(bound_parity(&b, 0, &cfg), None);
        let grid = Grid {
            origin: (10.0, 20.0),
            pitch: (40.0, 25.0),
            rows: 4,
            cols: 8,
        };
        let g = merged(&grid, &b, &cfg).unwrap();
        assert_eq!(
            (g.rows, g.cols, g.pitch, g.origin),
            (2, 8, (40.0, 50.0), (10.0, 20.0))
        );
    }

    #[test]
    fn a_board_at_its_own_pitch_does_not_merge() {
        // Neighbours dealt at random: no parity keeps its partners.
        let b: Board = "ABCDEFGH\nCAEBGDHF\nFHAGBECD\nDGHCFABE".parse().unwrap();
        let cfg = ReaderConfig::default();
        assert_eq!(bound_parity(&b, 0, &cfg), None);
        assert_eq!(bound_parity(&b, 1, &cfg), None);
        let grid = Grid {
            origin: (0.0, 0.0),
            pitch: (40.0, 50.0),
            rows: 4,
            cols: 8,
        };
        assert_eq!(merged(&grid, &b, &cfg), None);
    }
}
