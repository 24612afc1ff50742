//! Admissible distance estimates to the blank-first goal (tile `t` belongs in cell `t`).
//! One function per estimate, computed from scratch; the hand-written IDA* keeps the same
//! values up to date incrementally (see `ida`), and tests check the two agree.

/// Which estimate a search uses, chosen by name on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize)]
pub enum Heuristic {
    /// No estimate (0): turns A*/IDA* into uniform-cost search / iterative deepening.
    Zero,
    /// Tiles not in their goal cell.
    Misplaced,
    /// Sum of each tile's row and column distance to its goal cell.
    Manhattan,
    /// Manhattan plus 2 for each tile that must leave its goal row or column to let
    /// another pass (Hansson, Mayer & Yung 1992).
    LinearConflict,
    /// Additive disjoint pattern databases with the diagonal reflection (Korf & Felner
    /// 2002); boards of at most 32 cells (5×5, 4×8).
    Pdb,
}

/// Number of tiles (blank excluded) away from their goal cell.
pub fn misplaced(tiles: &[u8]) -> u32 {
    tiles
        .iter()
        .enumerate()
        .filter(|&(i, &t)| t != 0 && t as usize != i)
        .count() as u32
}

/// Manhattan distance of one tile at `cell` to its goal cell `tile`.
pub fn tile_manhattan(tile: u8, cell: usize, width: usize) -> u32 {
    let g = tile as usize;
    ((g / width).abs_diff(cell / width) + (g % width).abs_diff(cell % width)) as u32
}

/// Sum of all tiles' Manhattan distances.
pub fn manhattan(tiles: &[u8], width: usize) -> u32 {
    tiles
        .iter()
        .enumerate()
        .filter(|&(_, &t)| t != 0)
        .map(|(i, &t)| tile_manhattan(t, i, width))
        .sum()
}

/// Extra moves forced inside one line: `keys` are the goal positions along the line of the
/// tiles already in their goal line, in board order. The tiles outside a longest increasing
/// subsequence must each step out of the line and back: 2 moves each.
pub fn line_conflict(keys: &[u8]) -> u32 {
    let n = keys.len();
    if n < 2 {
        return 0;
    }
    let mut best = [1u8; 8];
    let mut lis = 1;
    for i in 1..n {
        for j in 0..i {
            if keys[j] < keys[i] && best[j] + 1 > best[i] {
                best[i] = best[j] + 1;
            }
        }
        lis = lis.max(best[i]);
    }
    2 * (n as u32 - lis as u32)
}

/// Conflict of row `r`: tiles whose goal row is `r`, keyed by their goal column.
pub fn row_conflict(tiles: &[u8], width: usize, r: usize) -> u32 {
    let mut keys = [0u8; 8];
    let mut n = 0;
    for c in 0..width {
        let t = tiles[r * width + c] as usize;
        if t != 0 && t / width == r {
            keys[n] = (t % width) as u8;
            n += 1;
        }
    }
    line_conflict(&keys[..n])
}

/// Conflict of column `c`: tiles whose goal column is `c`, keyed by their goal row.
pub fn col_conflict(tiles: &[u8], width: usize, height: usize, c: usize) -> u32 {
    let mut keys = [0u8; 8];
    let mut n = 0;
    for r in 0..height {
        let t = tiles[r * width + c] as usize;
        if t != 0 && t % width == c {
            keys[n] = (t / width) as u8;
            n += 1;
        }
    }
    line_conflict(&keys[..n])
}

/// Manhattan distance plus the row and column conflicts.
pub fn linear_conflict(tiles: &[u8], width: usize, height: usize) -> u32 {
    let rows: u32 = (0..height).map(|r| row_conflict(tiles, width, r)).sum();
    let cols: u32 = (0..width)
        .map(|c| col_conflict(tiles, width, height, c))
        .sum();
    manhattan(tiles, width) + rows + cols
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_on_known_boards() {
        // Korf's first instance: Manhattan 41 (md_h0 column of korf100.txt).
        let t = [14u8, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3];
        assert_eq!(manhattan(&t, 4), 41);
        assert!(linear_conflict(&t, 4, 4) >= 41);
        // Two tiles swapped in their goal row: one must leave, +2.
        let s = [0u8, 2, 1, 3, 4, 5, 6, 7, 8];
        assert_eq!(manhattan(&s, 3), 2);
        assert_eq!(linear_conflict(&s, 3, 3), 4);
        assert_eq!(misplaced(&s), 2);
        assert_eq!(line_conflict(&[2, 1, 0]), 4);
        assert_eq!(line_conflict(&[0, 2, 1, 3]), 2);
    }
}
