//! Stage 2, the extent: which lattice cells are the board.
//!
//! The board is where paired pictures are: the largest cluster of cells whose picture
//! recurs elsewhere, taken with the empties between them. Pictures that pair by chance in
//! a game's chrome (two equal toolbar icons, digits of a counter) lie apart from that cluster
//! and are left out. Empty lines at the board's edge show no pixel of their own, so a board
//! whose outer lines are all cleared reads smaller: only a hint or a profile restores them.

use image::{GrayImage, Luma};
use imageproc::drawing::draw_filled_rect_mut;
use imageproc::rect::Rect;
use imageproc::region_labelling::{connected_components, Connectivity};

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
/// axes (a cleared stretch inside a board does not split it); ties go to the cluster whose
/// first cell (row-major) comes first. `None` when nothing is marked.
pub fn main_cluster(marked: &[bool], rows: usize, cols: usize, bridge: usize) -> Option<CellRect> {
    let mut best: Option<Cluster> = None;
    for c in clusters(marked, rows, cols, bridge) {
        if best.is_none_or(|b| c.size > b.size) {
            best = Some(c);
        }
    }
    best.map(|b| b.rect)
}

/// A cluster of marked cells: how many, and their bounding box.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cluster {
    /// Number of marked cells in it.
    pub size: usize,
    /// Their bounding box.
    pub rect: CellRect,
}

/// The clusters of marked cells on a `rows × cols` sheet, two marked cells belonging
/// together when at most `bridge` cells lie between them on both axes, in the order of
/// their first cells (row-major).
///
/// Labelled by `imageproc::region_labelling::connected_components` (8-connected) on a mask
/// where each marked cell is a square of `bridge + 1` pixels from its own corner: two such
/// squares touch exactly when their cells lie at most `bridge + 1` apart on both axes.
pub fn clusters(marked: &[bool], rows: usize, cols: usize, bridge: usize) -> Vec<Cluster> {
    let side = bridge + 1;
    let mut mask = GrayImage::new((cols + bridge) as u32, (rows + bridge) as u32);
    let cells = || {
        (0..rows * cols)
            .filter(|&i| marked[i])
            .map(move |i| (i / cols, i % cols))
    };
    for (r, c) in cells() {
        let square = Rect::at(c as i32, r as i32).of_size(side as u32, side as u32);
        draw_filled_rect_mut(&mut mask, square, Luma([255]));
    }
    let labels = connected_components(&mask, Connectivity::Eight, Luma([0]));
    // Label → index into `out`, filled as each cluster's first cell is met.
    let mut slot: Vec<Option<usize>> = Vec::new();
    let mut out: Vec<Cluster> = Vec::new();
    for (r, c) in cells() {
        let label = labels.get_pixel(c as u32, r as u32)[0] as usize;
        if slot.len() <= label {
            slot.resize(label + 1, None);
        }
        let k = *slot[label].get_or_insert_with(|| {
            out.push(Cluster {
                size: 0,
                rect: CellRect {
                    r0: r,
                    r1: r + 1,
                    c0: c,
                    c1: c + 1,
                },
            });
            out.len() - 1
        });
        let cl = &mut out[k];
        cl.size += 1;
        cl.rect.r0 = cl.rect.r0.min(r);
        cl.rect.r1 = cl.rect.r1.max(r + 1);
        cl.rect.c0 = cl.rect.c0.min(c);
        cl.rect.c1 = cl.rect.c1.max(c + 1);
    }
    out
}

/// How many of the marked cells on a sheet `cols` wide lie inside `rect`, and how many
/// outside it.
pub fn marked_inside(marked: &[bool], cols: usize, rect: &CellRect) -> (usize, usize) {
    let mut counts = (0, 0);
    for (i, _) in marked.iter().enumerate().filter(|(_, &m)| m) {
        if rect.contains(i / cols.max(1), i % cols.max(1)) {
            counts.0 += 1;
        } else {
            counts.1 += 1;
        }
    }
    counts
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
    fn marked_cells_are_counted_inside_and_outside_a_rect() {
        let (m, _, c) = sheet(&[
            "x...x", //
            ".xx..", //
            ".x.x.", //
        ]);
        let rect = CellRect {
            r0: 1,
            r1: 3,
            c0: 1,
            c1: 3,
        };
        assert_eq!(marked_inside(&m, c, &rect), (3, 3));
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
    fn clusters_join_cells_at_most_bridge_cells_apart() {
        let (m, r, c) = sheet(&["x..x....x", ".........", "x.......x"]);
        let found = |bridge| -> Vec<(usize, CellRect)> {
            clusters(&m, r, c, bridge)
                .iter()
                .map(|k| (k.size, k.rect))
                .collect()
        };
        let rect = |r0, r1, c0, c1| CellRect { r0, r1, c0, c1 };
        // One cell between: joined; two: apart. In the order of their first cells.
        assert_eq!(
            found(1),
            [
                (2, rect(0, 3, 0, 1)),
                (1, rect(0, 1, 3, 4)),
                (2, rect(0, 3, 8, 9))
            ]
        );
        assert_eq!(found(2).len(), 2);
        assert_eq!(found(0).len(), 5);
    }

    #[test]
    fn nothing_marked_is_no_board() {
        let (m, r, c) = sheet(&["....", "...."]);
        assert!(main_cluster(&m, r, c, 1).is_none());
    }
}
