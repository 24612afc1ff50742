//! Gravity variants: how tiles slide after a pair is removed.

use super::{Board, Cell, Pos};
use crate::error::UnknownName;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The direction tiles close up toward after each removal. Obstacles never move and split a
/// column (row) into segments; within a segment tiles keep their order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Gravity {
    #[default]
    /// Tiles stay where they are.
    None,
    /// Tiles close up toward the bottom row.
    Down,
    /// Tiles close up toward the top row.
    Up,
    /// Tiles close up toward the left column.
    Left,
    /// Tiles close up toward the right column.
    Right,
    /// In each column, rows `0..R/2` close up downward and rows `R/2..R` upward.
    CenterV,
    /// In each row, cols `0..C/2` close up rightward and cols `C/2..C` leftward.
    CenterH,
}

impl Gravity {
    /// Every mode, in the order the CLI and the benchmark list them.
    pub const ALL: [Gravity; 7] = [
        Gravity::None,
        Gravity::Down,
        Gravity::Up,
        Gravity::Left,
        Gravity::Right,
        Gravity::CenterV,
        Gravity::CenterH,
    ];

    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Gravity::None => "none",
            Gravity::Down => "down",
            Gravity::Up => "up",
            Gravity::Left => "left",
            Gravity::Right => "right",
            Gravity::CenterV => "center-v",
            Gravity::CenterH => "center-h",
        }
    }
}

impl fmt::Display for Gravity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Gravity {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Gravity::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| UnknownName::new("gravity mode", s, Gravity::ALL.map(|g| g.name())))
    }
}

impl Gravity {
    /// Lets the tiles of `board` slide: within each run of non-obstacle cells along the
    /// gravity axis, tiles close up toward the gravity side and keep their order. Applied by
    /// the rules after every removal, and by the practice game the same way, so a plan
    /// predicts the board the game will show.
    pub fn apply(self, board: &mut Board) {
        let (rows, cols) = (board.rows(), board.cols());
        let column = |c: usize, r0: usize, r1: usize| -> Vec<Pos> {
            (r0..r1).map(|r| Pos::new(r, c)).collect()
        };
        let row = |r: usize, c0: usize, c1: usize| -> Vec<Pos> {
            (c0..c1).map(|c| Pos::new(r, c)).collect()
        };
        match self {
            Gravity::None => {}
            Gravity::Down | Gravity::Up => {
                for c in 0..cols {
                    settle(board, &column(c, 0, rows), self == Gravity::Down);
                }
            }
            Gravity::Left | Gravity::Right => {
                for r in 0..rows {
                    settle(board, &row(r, 0, cols), self == Gravity::Right);
                }
            }
            Gravity::CenterV => {
                for c in 0..cols {
                    settle(board, &column(c, 0, rows / 2), true);
                    settle(board, &column(c, rows / 2, rows), false);
                }
            }
            Gravity::CenterH => {
                for r in 0..rows {
                    settle(board, &row(r, 0, cols / 2), true);
                    settle(board, &row(r, cols / 2, cols), false);
                }
            }
        }
    }
}

/// Closes up the tiles of `line` (cells in order) toward its end (`toward_end`) or its start,
/// segment by segment between obstacles.
fn settle(board: &mut Board, line: &[Pos], toward_end: bool) {
    let blocked: Vec<bool> = line
        .iter()
        .map(|&p| board.get(p) == Cell::Obstacle)
        .collect();
    let mut start = 0;
    while start < line.len() {
        let end = (start..line.len())
            .find(|&i| blocked[i])
            .unwrap_or(line.len());
        settle_segment(board, &line[start..end], toward_end);
        start = end + 1;
    }
}

fn settle_segment(board: &mut Board, seg: &[Pos], toward_end: bool) {
    let tiles: Vec<Cell> = seg
        .iter()
        .map(|&p| board.get(p))
        .filter(|c| c.is_tile())
        .collect();
    if tiles.len() == seg.len() || tiles.is_empty() {
        return;
    }
    let gap = seg.len() - tiles.len();
    let mut cells = vec![Cell::Empty; seg.len()];
    let start = if toward_end { gap } else { 0 };
    cells[start..start + tiles.len()].copy_from_slice(&tiles);
    for (&p, c) in seg.iter().zip(cells) {
        board.set(p, c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(g: Gravity, s: &str) -> String {
        let mut b = Board::parse(s).unwrap();
        g.apply(&mut b);
        b.to_text()
    }

    #[test]
    fn every_mode_closes_up_and_keeps_order() {
        let s = "A.B\n.#.\nC..\n.D.";
        assert_eq!(after(Gravity::None, s), s);
        assert_eq!(after(Gravity::Down, s), "...\n.#.\nA..\nCDB");
        assert_eq!(after(Gravity::Up, s), "A.B\nC#.\n.D.\n...");
        assert_eq!(after(Gravity::Left, s), "AB.\n.#.\nC..\nD..");
        assert_eq!(after(Gravity::Right, s), ".AB\n.#.\n..C\n..D");
    }

    #[test]
    fn centre_modes_close_toward_the_middle() {
        // 4 rows: rows 0..2 fall down, rows 2..4 rise up.
        let s = "A.\n..\n..\n.B";
        assert_eq!(after(Gravity::CenterV, s), "..\nA.\n.B\n..");
        // 5 cols: cols 0..2 go right, cols 2..5 go left.
        assert_eq!(after(Gravity::CenterH, "A...B"), ".AB..");
        // Odd rows: 0..1 down (nothing to do), 1..3 up.
        assert_eq!(after(Gravity::CenterV, "A\n.\nB"), "A\nB\n.");
    }

    #[test]
    fn obstacles_split_segments() {
        assert_eq!(after(Gravity::Down, "A\n#\n.\nB\n."), "A\n#\n.\n.\nB");
        assert_eq!(after(Gravity::Left, "..#.A"), "..#A.");
    }
}
