//! Stage 2, the extent: which lattice cells are the board.
//!
//! The board is where paired pictures are: the largest cluster of cells whose picture
//! recurs elsewhere, taken with the empties between them. Pictures that pair by chance in
//! a game's chrome (two equal toolbar icons, digits of a counter) lie apart from that cluster
//! and are left out. Empty lines at the board's edge show no pixel of their own, so a board
//! whose outer lines are all cleared reads smaller: only a hint or a profile restores them.

/// A rectangle of lattice cells: rows `r0..r1`, columns `c0..c1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellRect {
    /// First row.
    pub r0: usize,
    /// One past the last row.
    pub r1: usize,
    /// First column.
    pub c0: usize,
    /// One past the last column.
    pub c1: usize,
}

impl CellRect {
    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.r1 - self.r0
    }
    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.c1 - self.c0
    }
    /// Whether lattice cell (`r`, `c`) lies inside.
    pub fn contains(&self, r: usize, c: usize) -> bool {
        (self.r0..self.r1).contains(&r) && (self.c0..self.c1).contains(&c)
    }
}

/// The bounding box of the largest cluster of marked cells on a `rows × cols` sheet, where
/// two marked cells belong together when at most `bridge` cells lie between them on both
/// axes (a cleared stretch inside a board does not split it). `None` when nothing is marked.
pub fn main_cluster(marked: &[bool], rows: usize, cols: usize, bridge: usize) -> Option<CellRect> {
    let mut label = vec![usize::MAX; rows * cols];
    let mut best: Option<(usize, CellRect)> = None;
    let reach = bridge as isize + 1;
    for start in 0..rows * cols {
        if !marked[start] || label[start] != usize::MAX {
            continue;
        }
        let id = start;
        label[start] = id;
        let mut stack = vec![start];
        let mut size = 0;
        let mut rect = CellRect {
            r0: start / cols,
            r1: start / cols + 1,
            c0: start % cols,
            c1: start % cols + 1,
        };
        while let Some(i) = stack.pop() {
            size += 1;
            let (r, c) = ((i / cols) as isize, (i % cols) as isize);
            rect.r0 = rect.r0.min(r as usize);
            rect.r1 = rect.r1.max(r as usize + 1);
            rect.c0 = rect.c0.min(c as usize);
            rect.c1 = rect.c1.max(c as usize + 1);
            for dr in -reach..=reach {
                for dc in -reach..=reach {
                    let (rr, cc) = (r + dr, c + dc);
                    if rr < 0 || cc < 0 || rr >= rows as isize || cc >= cols as isize {
                        continue;
                    }
                    let j = rr as usize * cols + cc as usize;
                    if marked[j] && label[j] == usize::MAX {
                        label[j] = id;
                        stack.push(j);
                    }
                }
            }
        }
        if best.is_none_or(|(s, _)| size > s) {
            best = Some((size, rect));
        }
    }
    best.map(|b| b.1)
}

/// The `rows × cols` window of the sheet holding the most marked cells (a hinted board
/// size); ties go to the window nearest the marked cells' centre. `None` when the sheet is
/// smaller than the window.
pub fn best_window(
    marked: &[bool],
    sheet_rows: usize,
    sheet_cols: usize,
    rows: usize,
    cols: usize,
) -> Option<CellRect> {
    if rows > sheet_rows || cols > sheet_cols || rows == 0 || cols == 0 {
        return None;
    }
    let count = |r0: usize, c0: usize| {
        (r0..r0 + rows)
            .flat_map(|r| (c0..c0 + cols).map(move |c| (r, c)))
            .filter(|&(r, c)| marked[r * sheet_cols + c])
            .count()
    };
    let (mut sr, mut sc, mut n) = (0f32, 0f32, 0f32);
    for (i, _) in marked.iter().enumerate().filter(|(_, &m)| m) {
        sr += (i / sheet_cols) as f32;
        sc += (i % sheet_cols) as f32;
        n += 1.0;
    }
    let centre = if n > 0.0 {
        (sr / n, sc / n)
    } else {
        (0.0, 0.0)
    };
    let mut best: Option<(usize, f32, CellRect)> = None;
    for r0 in 0..=sheet_rows - rows {
        for c0 in 0..=sheet_cols - cols {
            let k = count(r0, c0);
            let off = (r0 as f32 + (rows as f32 - 1.0) / 2.0 - centre.0).abs()
                + (c0 as f32 + (cols as f32 - 1.0) / 2.0 - centre.1).abs();
            let better = match best {
                None => true,
                Some((bk, boff, _)) => k > bk || (k == bk && off < boff),
            };
            if better {
                best = Some((
                    k,
                    off,
                    CellRect {
                        r0,
                        r1: r0 + rows,
                        c0,
                        c1: c0 + cols,
                    },
                ));
            }
        }
    }
    best.map(|b| b.2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sheet(rows: &[&str]) -> (Vec<bool>, usize, usize) {
        let cols = rows[0].len();
        let m = rows
            .iter()
            .flat_map(|r| r.chars().map(|c| c == 'x'))
            .collect();
        (m, rows.len(), cols)
    }

    #[test]
    fn the_board_is_the_largest_cluster_and_its_gaps() {
        let (m, r, c) = sheet(&[
            "x..........x",
            "............",
            "............",
            "....xxx.x...",
            "....x....x..",
            "....xx.xxx..",
            "............",
        ]);
        let rect = main_cluster(&m, r, c, 1).expect("a cluster");
        assert_eq!(
            rect,
            CellRect {
                r0: 3,
                r1: 6,
                c0: 4,
                c1: 10
            }
        );
    }

    #[test]
    fn a_hinted_size_takes_the_fullest_window() {
        let (m, r, c) = sheet(&["......", ".xx.x.", ".x..x.", "......"]);
        let rect = best_window(&m, r, c, 2, 4).expect("fits");
        assert_eq!(
            rect,
            CellRect {
                r0: 1,
                r1: 3,
                c0: 1,
                c1: 5
            }
        );
        assert!(best_window(&m, r, c, 5, 4).is_none());
    }

    #[test]
    fn nothing_marked_is_no_board() {
        let (m, r, c) = sheet(&["....", "...."]);
        assert!(main_cluster(&m, r, c, 1).is_none());
    }
}
