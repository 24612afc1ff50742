//! Tic-tac-toe on the [`TwoPlayerGame`] API: the board, a rule-based player (Newell and Simon's
//! ordered rules) and a position evaluation for depth-limited searches.

use super::adversarial::{Terminal, TwoPlayerGame};
use super::terminal::RefusedMove;
use super::terminal::TerminalGame;
use std::fmt;

/// A player's mark. X always moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// The first player.
    X,
    /// The second player.
    O,
}

impl Mark {
    /// The other player.
    pub fn other(self) -> Mark {
        match self {
            Mark::X => Mark::O,
            Mark::O => Mark::X,
        }
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Mark::X => "X",
            Mark::O => "O",
        })
    }
}

/// The eight lines of three, by cell index (row-major 0..9).
pub const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// A tic-tac-toe position: nine cells, row-major; whose turn it is follows from the counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct TttBoard {
    /// Cell `i` is row `i / 3`, column `i % 3`.
    pub cells: [Option<Mark>; 9],
}

/// A tic-tac-toe board text [`TttBoard::parse`] cannot take: the text and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("board {text:?}{fault}")]
pub struct TttError {
    /// The text given.
    pub text: String,
    /// What is wrong with it.
    pub fault: TttFault,
}

/// What is wrong with a tic-tac-toe board text (each message follows the board's text).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TttFault {
    /// Not nine cells.
    #[error(" has {0} cells, expected 9 (row-major, each X, O or .)")]
    Cells(usize),
    /// Cell `i` (from 0) holds a char that is not X, O or '.'.
    #[error(": cell {0} is {1:?}, expected X, O or .")]
    Mark(usize, char),
    /// X and O counts no game reaches (X moves first).
    #[error(" has {0} X and {1} O: X moves first, so X must have as many marks as O or one more")]
    Counts(usize, usize),
    /// Both sides have a line.
    #[error(" has a line for both X and O, which no game can reach")]
    BothWon,
    /// The side with a line is not the side that moved last.
    #[error(": the winner's line must have been the last move made")]
    PlayedOn,
}

impl TttBoard {
    /// Reads nine cells row-major from `X`, `O` and `.` (case-insensitive; spaces, `|` and
    /// `/` are ignored so "XO./.../..." works), checking that the position can arise in a
    /// real game: X moves first, so X has as many marks as O or one more, and at most one
    /// side has a line.
    pub fn parse(text: &str) -> Result<TttBoard, TttError> {
        let bad = |fault| TttError {
            text: text.to_string(),
            fault,
        };
        let chars: Vec<char> = text
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '|' && *c != '/')
            .collect();
        if chars.len() != 9 {
            return Err(bad(TttFault::Cells(chars.len())));
        }
        let mut b = TttBoard::default();
        for (i, c) in chars.into_iter().enumerate() {
            b.cells[i] = match c.to_ascii_uppercase() {
                'X' => Some(Mark::X),
                'O' => Some(Mark::O),
                '.' | '-' | '_' => None,
                _ => return Err(bad(TttFault::Mark(i, c))),
            };
        }
        let (x, o) = (b.count(Mark::X), b.count(Mark::O));
        if x != o && x != o + 1 {
            return Err(bad(TttFault::Counts(x, o)));
        }
        let (xw, ow) = (b.has_line(Mark::X), b.has_line(Mark::O));
        if xw && ow {
            return Err(bad(TttFault::BothWon));
        }
        if (xw && x != o + 1) || (ow && x != o) {
            return Err(bad(TttFault::PlayedOn));
        }
        Ok(b)
    }

    /// How many cells hold `m`.
    pub fn count(&self, m: Mark) -> usize {
        self.cells.iter().filter(|c| **c == Some(m)).count()
    }

    /// Whose turn it is: X when the counts are equal.
    pub fn to_move(&self) -> Mark {
        if self.count(Mark::X) == self.count(Mark::O) {
            Mark::X
        } else {
            Mark::O
        }
    }

    /// Whether `m` has three in a line.
    pub fn has_line(&self, m: Mark) -> bool {
        LINES
            .iter()
            .any(|l| l.iter().all(|&i| self.cells[i] == Some(m)))
    }

    /// The player with a line, if any.
    pub fn winner(&self) -> Option<Mark> {
        [Mark::X, Mark::O].into_iter().find(|&m| self.has_line(m))
    }

    /// The empty cells, in index order.
    pub fn empty(&self) -> Vec<usize> {
        (0..9).filter(|&i| self.cells[i].is_none()).collect()
    }

    /// The board with `m` in `cell`.
    pub fn with(&self, cell: usize, m: Mark) -> TttBoard {
        let mut b = *self;
        b.cells[cell] = Some(m);
        b
    }

    /// The cells where `m` would complete a line right now.
    pub fn winning_cells(&self, m: Mark) -> Vec<usize> {
        let mut cells: Vec<usize> = LINES
            .iter()
            .filter_map(|l| {
                let mine = l.iter().filter(|&&i| self.cells[i] == Some(m)).count();
                let empty: Vec<usize> = l
                    .iter()
                    .copied()
                    .filter(|&i| self.cells[i].is_none())
                    .collect();
                (mine == 2 && empty.len() == 1).then(|| empty[0])
            })
            .collect();
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    /// The text form [`TttBoard::parse`] reads.
    pub fn to_text(&self) -> String {
        self.cells
            .iter()
            .map(|c| match c {
                Some(Mark::X) => 'X',
                Some(Mark::O) => 'O',
                None => '.',
            })
            .collect()
    }
}

/// The game of tic-tac-toe, for the searches in [`super::adversarial`].
#[derive(Clone, Copy, Debug, Default)]
pub struct TicTacToe;

impl TwoPlayerGame for TicTacToe {
    type State = TttBoard;
    type Move = usize;
    const WIN: i32 = 100;

    /// Centre, then corners, then sides: the strong cells first, so alpha-beta cuts early.
    fn moves(&self, b: &TttBoard) -> Vec<usize> {
        if b.winner().is_some() {
            return Vec::new();
        }
        [4, 0, 2, 6, 8, 1, 3, 5, 7]
            .into_iter()
            .filter(|&i| b.cells[i].is_none())
            .collect()
    }

    fn play(&self, b: &TttBoard, cell: usize) -> TttBoard {
        b.with(cell, b.to_move())
    }

    fn terminal(&self, b: &TttBoard) -> Option<Terminal> {
        if b.winner().is_some() {
            Some(Terminal::Lost)
        } else if b.cells.iter().all(|c| c.is_some()) {
            Some(Terminal::Drawn)
        } else {
            None
        }
    }

    /// Lines still open to the side to move minus those open to the opponent, with two
    /// marks in an open line worth more than one: at most ±24, far below `WIN`.
    fn evaluate(&self, b: &TttBoard) -> i32 {
        let me = b.to_move();
        let weight = [0, 1, 3, 0];
        LINES
            .iter()
            .map(|l| {
                let mine = l.iter().filter(|&&i| b.cells[i] == Some(me)).count();
                let theirs = l
                    .iter()
                    .filter(|&&i| b.cells[i] == Some(me.other()))
                    .count();
                match (mine, theirs) {
                    (m, 0) => weight[m],
                    (0, t) => -weight[t],
                    _ => 0,
                }
            })
            .sum()
    }
}

impl TerminalGame for TicTacToe {
    fn show(&self, b: &TttBoard) -> String {
        let cell = |i: usize| match b.cells[i] {
            Some(m) => m.to_string(),
            None => (i + 1).to_string(),
        };
        let row = |r: usize| {
            format!(
                " {} | {} | {}",
                cell(3 * r),
                cell(3 * r + 1),
                cell(3 * r + 2)
            )
        };
        format!(
            "{}\n---+---+---\n{}\n---+---+---\n{}",
            row(0),
            row(1),
            row(2)
        )
    }

    fn parse_move(&self, b: &TttBoard, text: &str) -> Result<usize, RefusedMove> {
        let n = RefusedMove::number(text, "cell", 9)?;
        if b.cells[n - 1].is_some() {
            return Err(RefusedMove::Unavailable {
                n,
                what: "cell",
                why: "taken",
            });
        }
        Ok(n - 1)
    }

    fn move_name(&self, cell: usize) -> String {
        format!("cell {}", cell + 1)
    }

    fn prompt(&self) -> &'static str {
        "a cell 1-9"
    }
}

/// The number of lines `m` would threaten (two marks and a free cell) after playing `cell`.
fn threats_after(b: &TttBoard, cell: usize, m: Mark) -> usize {
    let after = b.with(cell, m);
    LINES
        .iter()
        .filter(|l| {
            l.contains(&cell)
                && l.iter().filter(|&&i| after.cells[i] == Some(m)).count() == 2
                && l.iter().any(|&i| after.cells[i].is_none())
        })
        .count()
}

/// The cells where `m` would make a fork: two threats at once, which cannot both be blocked.
fn fork_cells(b: &TttBoard, m: Mark) -> Vec<usize> {
    b.empty()
        .into_iter()
        .filter(|&c| threats_after(b, c, m) >= 2)
        .collect()
}

/// The rule-based player (Newell and Simon, 1972): the first rule that applies picks the
/// cell — win, block, fork, block a fork, centre, opposite corner, empty corner, empty side.
/// It searches nothing, which makes it the baseline the searching players are compared
/// with; it never loses (a test plays it against every opponent line). `None` when the game
/// is over.
pub fn rule_move(b: &TttBoard) -> Option<usize> {
    if b.winner().is_some() || b.empty().is_empty() {
        return None;
    }
    let me = b.to_move();
    let them = me.other();
    // 1. Win. 2. Block.
    if let Some(&c) = b.winning_cells(me).first() {
        return Some(c);
    }
    if let Some(&c) = b.winning_cells(them).first() {
        return Some(c);
    }
    // 3. Fork.
    if let Some(&c) = fork_cells(b, me).first() {
        return Some(c);
    }
    // 4. Block the opponent's fork.
    let forks = fork_cells(b, them);
    match forks.len() {
        0 => {}
        1 => return Some(forks[0]),
        _ => {
            // Several forks cannot all be blocked by occupying them: threaten instead, so
            // the opponent must answer on a cell that gives them no fork.
            for c in b.empty() {
                let after = b.with(c, me);
                let replies = after.winning_cells(me);
                if replies.len() == 1 {
                    let forced = after.with(replies[0], them);
                    if forced.winning_cells(them).len() < 2 {
                        return Some(c);
                    }
                }
            }
            return Some(forks[0]);
        }
    }
    // 5. Centre.
    if b.cells[4].is_none() {
        return Some(4);
    }
    // 6. The corner opposite one of the opponent's.
    for (corner, opposite) in [(0, 8), (2, 6), (6, 2), (8, 0)] {
        if b.cells[corner] == Some(them) && b.cells[opposite].is_none() {
            return Some(opposite);
        }
    }
    // 7. An empty corner. 8. An empty side.
    [0, 2, 6, 8, 1, 3, 5, 7]
        .into_iter()
        .find(|&i| b.cells[i].is_none())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::adversarial::{alphabeta, minimax, negamax};

    #[test]
    fn parse_reads_and_rejects() {
        let b = TttBoard::parse("X.O......").unwrap();
        assert_eq!(b.to_move(), Mark::X);
        assert_eq!(b.to_text(), "X.O......");
        assert_eq!(TttBoard::parse("x../.o./...").unwrap().to_move(), Mark::X);
        assert_eq!(TttBoard::parse("X........").unwrap().to_move(), Mark::O);
        let e = TttBoard::parse("X.O.....").unwrap_err().to_string();
        assert!(e.contains("8 cells, expected 9"), "{e}");
        let e = TttBoard::parse("X.Z......").unwrap_err().to_string();
        assert!(e.contains("cell 2 is 'Z'"), "{e}");
        let e = TttBoard::parse("XX.......").unwrap_err().to_string();
        assert!(e.contains("2 X and 0 O"), "{e}");
        let e = TttBoard::parse("XXXOOO...").unwrap_err().to_string();
        assert!(e.contains("both"), "{e}");
        let e = TttBoard::parse("XXXOO.O..").unwrap_err().to_string();
        assert!(e.contains("last move"), "{e}");
    }

    #[test]
    fn full_minimax_visits_the_whole_game_tree() {
        // The complete tic-tac-toe game tree has 549,946 nodes (root included); a plain
        // minimax to depth 9 must visit every one of them, and the game is a draw.
        let r = minimax(&TicTacToe, &TttBoard::default(), 9);
        assert_eq!(r.nodes, 549_946);
        assert_eq!(r.score, 0);
        let a = alphabeta(&TicTacToe, &TttBoard::default(), 9);
        assert_eq!(a.score, 0);
        assert!(a.nodes * 10 < r.nodes, "pruning saves most: {}", a.nodes);
    }

    #[test]
    fn takes_a_win_and_blocks_a_loss() {
        // X to move, X can win at 2; O also threatens at 8 — winning comes first.
        let b = TttBoard::parse("XX.OO....").unwrap();
        for r in [minimax(&TicTacToe, &b, 9), negamax(&TicTacToe, &b, 9)] {
            assert_eq!(r.best, Some(2));
            assert_eq!(r.score, 99);
        }
        assert_eq!(rule_move(&b), Some(2));
        // O to move must block X at 2.
        let b = TttBoard::parse("XX..O....").unwrap();
        assert_eq!(alphabeta(&TicTacToe, &b, 9).best, Some(2));
        assert_eq!(rule_move(&b), Some(2));
    }

    #[test]
    fn rule_player_blocks_the_double_corner_trap() {
        // X in opposite corners, O in the centre: O must play a side, not a corner.
        let b = TttBoard::parse("X...O...X").unwrap();
        let c = rule_move(&b).unwrap();
        assert!([1, 3, 5, 7].contains(&c), "played {c}");
    }

    #[test]
    fn evaluation_favours_the_side_with_open_lines() {
        // X in the centre, O to move: X has four open lines, O none.
        let b = TttBoard::parse("....X....").unwrap();
        assert_eq!(TicTacToe.evaluate(&b), -4);
    }
}
