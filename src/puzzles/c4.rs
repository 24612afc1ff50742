//! Connect four (7 columns, 6 or 7 rows) on the [`TwoPlayerGame`] API, with a positional heuristic
//! for the depth-limited negamax player.

use super::adversarial::{Terminal, TwoPlayerGame};
use super::terminal::RefusedMove;
use super::terminal::TerminalGame;

/// Columns on the board.
pub const WIDTH: usize = 7;
/// The tallest board supported.
pub const MAX_HEIGHT: usize = 7;
/// Columns from the centre outwards: central discs take part in more lines, so searching
/// them first makes alpha-beta cut sooner.
const ORDER: [usize; WIDTH] = [3, 2, 4, 1, 5, 0, 6];

/// A connect-four position. Player 1 moves first; discs fall to the lowest free row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Rows of the board (6 or 7).
    pub height: usize,
    /// `grid[row][col]`, row 0 at the bottom: 0 empty, 1 or 2 the player's disc.
    pub grid: [[u8; WIDTH]; MAX_HEIGHT],
    /// Discs in each column.
    pub heights: [usize; WIDTH],
    /// Discs on the board.
    pub discs: usize,
    /// The player who connected four, if one did (the game is then over).
    pub winner: Option<u8>,
}

/// A connect-four position that cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum C4Error {
    /// A height other than 6 or 7.
    #[error("board height {0} is not supported: connect four is 6 or 7 rows high")]
    Height(usize),
    /// A move list with a move that cannot be played.
    #[error("moves {moves:?}: move {number} {fault}")]
    Moves {
        /// The move list given.
        moves: String,
        /// The move's number, from 1.
        number: usize,
        /// What is wrong with it.
        fault: MovesFault,
    },
}

/// Why a move of a move list cannot be played (each message follows "move N").
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MovesFault {
    /// Not a digit 1-7.
    #[error("is {0:?}, expected a column 1-7")]
    NotAColumn(char),
    /// The game was already won.
    #[error("comes after the game was won")]
    AfterWin,
    /// The column (from 1) is full.
    #[error("drops into column {0} which is full")]
    Full(usize),
}

impl Position {
    /// An empty board `height` rows high (6 or 7).
    pub fn new(height: usize) -> Result<Position, C4Error> {
        if !(6..=MAX_HEIGHT).contains(&height) {
            return Err(C4Error::Height(height));
        }
        Ok(Position {
            height,
            grid: [[0; WIDTH]; MAX_HEIGHT],
            heights: [0; WIDTH],
            discs: 0,
            winner: None,
        })
    }

    /// A position reached by playing `moves`, one digit per disc giving its column 1-7
    /// (the usual notation, e.g. "4453"); spaces and commas are ignored.
    pub fn from_moves(height: usize, moves: &str) -> Result<Position, C4Error> {
        let bad = |n: usize, fault| C4Error::Moves {
            moves: moves.to_string(),
            number: n + 1,
            fault,
        };
        let mut p = Position::new(height)?;
        for (n, ch) in moves
            .chars()
            .filter(|c| !c.is_whitespace() && *c != ',')
            .enumerate()
        {
            let col = match ch.to_digit(10) {
                Some(d @ 1..=7) => d as usize - 1,
                _ => return Err(bad(n, MovesFault::NotAColumn(ch))),
            };
            if p.winner.is_some() {
                return Err(bad(n, MovesFault::AfterWin));
            }
            if p.heights[col] >= height {
                return Err(bad(n, MovesFault::Full(col + 1)));
            }
            p = p.drop_disc(col);
        }
        Ok(p)
    }

    /// The player to move: 1 after an even number of discs, else 2.
    pub fn to_move(&self) -> u8 {
        if self.discs.is_multiple_of(2) {
            1
        } else {
            2
        }
    }

    /// Whether `col` has room for a disc.
    pub fn can_play(&self, col: usize) -> bool {
        col < WIDTH && self.heights[col] < self.height
    }

    /// The position after the side to move drops a disc in `col` (which must have room).
    pub fn drop_disc(&self, col: usize) -> Position {
        let mut p = *self;
        let row = p.heights[col];
        let who = self.to_move();
        p.grid[row][col] = who;
        p.heights[col] += 1;
        p.discs += 1;
        if p.connects_four(row, col) {
            p.winner = Some(who);
        }
        p
    }

    /// Whether the disc at (`row`, `col`) is part of four in a line.
    fn connects_four(&self, row: usize, col: usize) -> bool {
        let who = self.grid[row][col];
        [(0i32, 1i32), (1, 0), (1, 1), (1, -1)]
            .iter()
            .any(|&(dr, dc)| {
                let run = |sign: i32| {
                    let mut n = 0;
                    let (mut r, mut c) = (row as i32 + sign * dr, col as i32 + sign * dc);
                    while r >= 0
                        && r < self.height as i32
                        && c >= 0
                        && c < WIDTH as i32
                        && self.grid[r as usize][c as usize] == who
                    {
                        n += 1;
                        r += sign * dr;
                        c += sign * dc;
                    }
                    n
                };
                1 + run(1) + run(-1) >= 4
            })
    }

    /// Every window of four cells in a line: the units the heuristic scores.
    fn windows(&self) -> impl Iterator<Item = [(usize, usize); 4]> + '_ {
        let h = self.height as i32;
        [(0i32, 1i32), (1, 0), (1, 1), (1, -1)]
            .into_iter()
            .flat_map(move |(dr, dc)| {
                (0..h).flat_map(move |r| {
                    (0..WIDTH as i32).filter_map(move |c| {
                        let (er, ec) = (r + 3 * dr, c + 3 * dc);
                        (er >= 0 && er < h && ec >= 0 && ec < WIDTH as i32).then(|| {
                            [0, 1, 2, 3].map(|k| ((r + k * dr) as usize, (c + k * dc) as usize))
                        })
                    })
                })
            })
    }
}

/// The game of connect four, for the searches in [`super::adversarial`].
#[derive(Clone, Copy, Debug, Default)]
pub struct ConnectFour;

impl TwoPlayerGame for ConnectFour {
    type State = Position;
    type Move = usize;
    const WIN: i32 = 1_000_000;

    fn moves(&self, p: &Position) -> Vec<usize> {
        if p.winner.is_some() {
            return Vec::new();
        }
        ORDER.into_iter().filter(|&c| p.can_play(c)).collect()
    }

    fn play(&self, p: &Position, col: usize) -> Position {
        p.drop_disc(col)
    }

    fn terminal(&self, p: &Position) -> Option<Terminal> {
        if p.winner.is_some() {
            Some(Terminal::Lost)
        } else if p.discs == WIDTH * p.height {
            Some(Terminal::Drawn)
        } else {
            None
        }
    }

    /// The positional heuristic: every window of four that only one side occupies counts for
    /// that side — 2 for two discs, 5 for three (a threat) — and each disc in the centre
    /// column counts 3, as the centre joins the most windows. At most a few hundred, far
    /// below `WIN`.
    fn evaluate(&self, p: &Position) -> i32 {
        let me = p.to_move();
        let mut score = 0;
        for w in p.windows() {
            let (mut mine, mut theirs) = (0, 0);
            for (r, c) in w {
                match p.grid[r][c] {
                    0 => {}
                    x if x == me => mine += 1,
                    _ => theirs += 1,
                }
            }
            let value = |n: usize| match n {
                2 => 2,
                3 => 5,
                _ => 0,
            };
            if theirs == 0 {
                score += value(mine);
            } else if mine == 0 {
                score -= value(theirs);
            }
        }
        for r in 0..p.height {
            match p.grid[r][3] {
                0 => {}
                x if x == me => score += 3,
                _ => score -= 3,
            }
        }
        score
    }
}

impl TerminalGame for ConnectFour {
    fn show(&self, p: &Position) -> String {
        let mut s = String::new();
        for r in (0..p.height).rev() {
            s.push('|');
            for c in 0..WIDTH {
                s.push_str(match p.grid[r][c] {
                    1 => " X",
                    2 => " O",
                    _ => " .",
                });
            }
            s.push_str(" |\n");
        }
        s.push_str("+---------------+\n  1 2 3 4 5 6 7");
        s
    }

    fn parse_move(&self, p: &Position, text: &str) -> Result<usize, RefusedMove> {
        let n = RefusedMove::number(text, "column", WIDTH)?;
        if !p.can_play(n - 1) {
            return Err(RefusedMove::Unavailable {
                n,
                what: "column",
                why: "full",
            });
        }
        Ok(n - 1)
    }

    fn move_name(&self, col: usize) -> String {
        format!("column {}", col + 1)
    }

    fn prompt(&self) -> &'static str {
        "a column 1-7"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::adversarial::{alphabeta, negamax};

    #[test]
    fn four_in_a_row_wins_in_every_direction() {
        // Horizontal, vertical, both diagonals (player 1 = X, the first mover).
        for moves in ["1122334", "1213141", "12234334474", "76654554414"] {
            let p = Position::from_moves(6, moves).unwrap();
            assert_eq!(p.winner, Some(1), "{moves}");
        }
        assert_eq!(Position::from_moves(6, "112233").unwrap().winner, None);
    }

    #[test]
    fn bad_move_lists_are_refused() {
        let e = Position::from_moves(6, "44a").unwrap_err().to_string();
        assert!(e.contains("move 3 is 'a'"), "{e}");
        let e = Position::from_moves(6, "4444444").unwrap_err().to_string();
        assert!(e.contains("column 4 which is full"), "{e}");
        assert!(Position::from_moves(7, "4444444").is_ok());
        let e = Position::from_moves(6, "12131415").unwrap_err().to_string();
        assert!(e.contains("after the game was won"), "{e}");
        assert!(Position::new(5).is_err());
    }

    #[test]
    fn windows_are_counted_right() {
        // 6x7: 24 horizontal, 21 vertical, 12 + 12 diagonal = 69; 7x7: 28 + 28 + 16 + 16.
        assert_eq!(Position::new(6).unwrap().windows().count(), 69);
        assert_eq!(Position::new(7).unwrap().windows().count(), 88);
    }

    #[test]
    fn takes_an_immediate_win_and_blocks_one() {
        // X has three in column 1 (O played elsewhere).
        let p = Position::from_moves(6, "16171").unwrap();
        assert_eq!(p.to_move(), 2);
        // O to move must block column 1.
        assert_eq!(negamax(&ConnectFour, &p, 6).best, Some(0));
        // Both sides have three stacked; X to move wins at once rather than block.
        let p = Position::from_moves(6, "161616").unwrap();
        let r = negamax(&ConnectFour, &p, 6);
        assert_eq!(r.best, Some(0));
        assert_eq!(r.score, ConnectFour::WIN - 1);
        assert_eq!(r, alphabeta(&ConnectFour, &p, 6));
    }

    #[test]
    fn evaluation_is_symmetric() {
        // Mirroring the moves mirrors the board; the centre bonus and windows are symmetric.
        let p = Position::from_moves(6, "4352").unwrap();
        let q = Position::from_moves(6, "4536").unwrap();
        assert_eq!(ConnectFour.evaluate(&p), ConnectFour.evaluate(&q));
    }
}
