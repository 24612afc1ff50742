//! The board: what a screenshot becomes and what the planner works on.
//!
//! A board is a rectangle of cells, each empty, an obstacle, or a tile of some type. Its text
//! form is the one `../shared/llk-real/*.truth.json` uses, so a board read from a screen, a
//! board typed by hand and a ground-truth board can be compared line by line:
//! one line per row, one char per cell, `.` empty, `#` obstacle, any other printable ASCII
//! char a tile type (equal chars = same picture).

pub mod gravity;
pub mod link;

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

pub use gravity::Gravity;
pub use link::{
    can_link, check_link, find_link, removable_pairs, IllegalLink, Link, LinkFault, Point,
};

/// One cell of the board.
///
/// A tile's type is kept as the ASCII char of the text form, so a board survives a
/// parse/print round trip with its letters unchanged.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Cell {
    /// Nothing: links pass through.
    Empty,
    /// Never removed, never passed through, never moved by gravity (crates, stones, locks).
    Obstacle,
    /// A tile of a type, the ASCII char of its text form.
    Tile(u8),
}

impl Cell {
    /// The char of the text form.
    pub fn to_char(self) -> char {
        match self {
            Cell::Empty => '.',
            Cell::Obstacle => '#',
            Cell::Tile(t) => t as char,
        }
    }

    /// Whether the cell is empty.
    pub fn is_empty(self) -> bool {
        self == Cell::Empty
    }

    /// Whether the cell holds a tile.
    pub fn is_tile(self) -> bool {
        matches!(self, Cell::Tile(_))
    }
}

/// A cell on the board, 0-based.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Pos {
    /// Row, from the top.
    pub row: usize,
    /// Column, from the left.
    pub col: usize,
}

impl Pos {
    /// The cell at `row`, `col`.
    pub const fn new(row: usize, col: usize) -> Self {
        Pos { row, col }
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}

/// Cells as messages list them: `(r,c) (r,c) …`.
pub fn cell_list(cells: &[Pos]) -> String {
    cells
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The game settings that change which moves are legal and what a move does.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Rules {
    /// Whether a link may run through the ring of cells just outside the board. Many games
    /// allow it, so it is on by default.
    pub outside: bool,
    /// How the remaining tiles slide after a pair is removed.
    pub gravity: Gravity,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            outside: true,
            gravity: Gravity::None,
        }
    }
}

/// Why a text could not be read as a board; carries the 1-based line and column so the
/// user can find the offending char in their file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseError {
    /// Line of the text, from 1.
    pub line: usize,
    /// Column (char) in the line, from 1.
    pub col: usize,
    /// What is wrong there.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}", self.message)
        } else {
            write!(
                f,
                "line {}, column {}: {}",
                self.line, self.col, self.message
            )
        }
    }
}

impl std::error::Error for ParseError {}

/// The tile types a board holds an odd number of times, with their counts: such a board can
/// never be cleared, and in a screenshot it means a tile was misread.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("tile types with an odd count (a board needs pairs): {}", odd_list(.0))]
pub struct OddTypes(pub Vec<(u8, usize)>);

fn odd_list(odd: &[(u8, usize)]) -> String {
    let named: Vec<String> = odd
        .iter()
        .map(|&(t, n)| format!("'{}' ×{n}", t as char))
        .collect();
    named.join(", ")
}

/// Most rows and most columns a board may have. Real boards are far smaller (QQ 11×19,
/// KShisen 18×8); the bound keeps every strategy's one-move step, which is linear in the
/// cells, small enough that a planning budget is overshot by milliseconds, not seconds.
pub const MAX_SIDE: usize = 256;

/// A rows × cols grid of cells, stored row-major.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    rows: usize,
    cols: usize,
    cells: Vec<Cell>,
}

impl Board {
    /// An all-empty board. Sizes of zero are allowed (an empty board is trivially clear).
    pub fn new(rows: usize, cols: usize) -> Self {
        Board {
            rows,
            cols,
            cells: vec![Cell::Empty; rows * cols],
        }
    }

    /// Parses the text form. Blank lines before and after the board and trailing `\r` are
    /// ignored; a blank line inside it, ragged rows and non-ASCII chars are errors.
    pub fn parse(text: &str) -> Result<Board, ParseError> {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim_end_matches('\r').trim_end()))
            .collect();
        let first = lines.iter().position(|(_, l)| !l.is_empty());
        let last = lines.iter().rposition(|(_, l)| !l.is_empty());
        let (first, last) = match (first, last) {
            (Some(f), Some(l)) => (f, l),
            _ => {
                return Err(ParseError {
                    line: 0,
                    col: 0,
                    message: "the board is empty (no rows)".into(),
                })
            }
        };
        let body = &lines[first..=last];
        let cols = body[0].1.chars().count();
        if body.len() > MAX_SIDE || cols > MAX_SIDE {
            return Err(ParseError {
                line: 0,
                col: 0,
                message: format!(
                    "the board is {}x{cols}: at most {MAX_SIDE} rows and {MAX_SIDE} columns are \
                     supported",
                    body.len()
                ),
            });
        }
        let mut cells = Vec::with_capacity(body.len() * cols);
        for &(line_no, line) in body {
            let width = line.chars().count();
            if width == 0 {
                return Err(ParseError {
                    line: line_no,
                    col: 1,
                    message: "blank line inside the board".into(),
                });
            }
            if width != cols {
                return Err(ParseError {
                    line: line_no,
                    col: width.min(cols) + 1,
                    message: format!("ragged row: {width} cells, but the first row has {cols}"),
                });
            }
            for (i, ch) in line.chars().enumerate() {
                cells.push(Cell::from_char(ch).ok_or_else(|| ParseError {
                    line: line_no,
                    col: i + 1,
                    message: format!(
                        "{ch:?} is not a cell: use '.' for empty, '#' for an obstacle, \
                         or a printable ASCII char for a tile type"
                    ),
                })?);
            }
        }
        Ok(Board {
            rows: body.len(),
            cols,
            cells,
        })
    }

    /// Builds a board from row strings, as in a truth file's `cells`.
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Board, ParseError> {
        let text: Vec<&str> = rows.iter().map(|r| r.as_ref()).collect();
        Board::parse(&text.join("\n"))
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The cell at `p`. Panics when `p` is off the board, as slice indexing does: callers
    /// hold positions they got from this board.
    #[inline]
    pub fn get(&self, p: Pos) -> Cell {
        debug_assert!(p.row < self.rows && p.col < self.cols, "{p} off the board");
        self.cells[p.row * self.cols + p.col]
    }

    /// The cell at signed coordinates, `None` off the board (ring cells included).
    #[inline]
    pub fn get_signed(&self, row: i32, col: i32) -> Option<Cell> {
        if row < 0 || col < 0 || row as usize >= self.rows || col as usize >= self.cols {
            None
        } else {
            Some(self.cells[row as usize * self.cols + col as usize])
        }
    }

    #[inline]
    /// Puts `cell` at `p`. Panics when `p` is off the board, as [`Board::get`] does.
    pub fn set(&mut self, p: Pos, cell: Cell) {
        debug_assert!(p.row < self.rows && p.col < self.cols, "{p} off the board");
        self.cells[p.row * self.cols + p.col] = cell;
    }

    /// Whether `p` lies on the board.
    pub fn contains(&self, p: Pos) -> bool {
        p.row < self.rows && p.col < self.cols
    }

    /// The cells row-major, for code that wants to index or hash them directly.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// Every position, row-major.
    pub fn positions(&self) -> impl Iterator<Item = Pos> + '_ {
        let cols = self.cols;
        (0..self.rows * self.cols).map(move |i| Pos::new(i / cols, i % cols))
    }

    /// Every position holding a tile, row-major, with its type.
    pub fn tiles(&self) -> impl Iterator<Item = (Pos, u8)> + '_ {
        self.positions().filter_map(|p| match self.get(p) {
            Cell::Tile(t) => Some((p, t)),
            _ => None,
        })
    }

    /// Number of tiles left.
    pub fn tile_count(&self) -> usize {
        self.cells.iter().filter(|c| c.is_tile()).count()
    }

    /// Whether no tile is left.
    pub fn is_clear(&self) -> bool {
        !self.cells.iter().any(|c| c.is_tile())
    }

    /// How many tiles of each type are on the board.
    pub fn type_counts(&self) -> BTreeMap<u8, usize> {
        let mut counts = BTreeMap::new();
        for c in &self.cells {
            if let Cell::Tile(t) = c {
                *counts.entry(*t).or_insert(0) += 1;
            }
        }
        counts
    }

    /// The most tiles of one type (counting all of its tiles on the board) among the types
    /// with a tile on `cells`; 0 when none holds a tile.
    pub fn widest_type_on(&self, cells: &[Pos]) -> usize {
        let counts = self.type_counts();
        cells
            .iter()
            .filter_map(|&p| match self.get(p) {
                Cell::Tile(t) => counts.get(&t).copied(),
                _ => None,
            })
            .max()
            .unwrap_or(0)
    }

    /// What one move does: empties `a` and `b`, then lets the other tiles slide under
    /// `gravity`. Does not check the move is legal (see [`check_link`]).
    pub fn remove_pair(&mut self, a: Pos, b: Pos, gravity: Gravity) {
        self.set(a, Cell::Empty);
        self.set(b, Cell::Empty);
        gravity.apply(self);
    }

    /// Whether `other` is this board with the tile types renamed (a bijection between the
    /// letters): two readings of one screen, or a reading and a truth file, name types
    /// differently but must agree on which cells hold equal pictures.
    pub fn same_up_to_renaming(&self, other: &Board) -> bool {
        self.renaming_mismatches(other)
            .is_some_and(|m| m.is_empty())
    }

    /// Whether this board is `other` with some of its types split in two or more: the same
    /// size, the same cells empty, obstacles and tiles, and each of this board's types
    /// wholly within one of `other`'s (a board is its own refinement).
    pub fn refines(&self, other: &Board) -> bool {
        if (self.rows, self.cols) != (other.rows, other.cols) {
            return false;
        }
        let mut into = [None::<u8>; 256];
        self.positions().all(|p| match (self.get(p), other.get(p)) {
            (Cell::Tile(x), Cell::Tile(y)) => *into[x as usize].get_or_insert(y) == y,
            (a, b) => a == b,
        })
    }

    /// The cells where `other` disagrees with this board under the best renaming built
    /// greedily in row-major order (first occurrence fixes a letter's partner); `None` when
    /// the sizes differ. Used to score a reading cell by cell.
    pub fn renaming_mismatches(&self, other: &Board) -> Option<Vec<Pos>> {
        if (self.rows, self.cols) != (other.rows, other.cols) {
            return None;
        }
        let mut fwd = [None::<u8>; 256];
        let mut back = [None::<u8>; 256];
        let mut bad = Vec::new();
        for p in self.positions() {
            let ok = match (self.get(p), other.get(p)) {
                (Cell::Tile(x), Cell::Tile(y)) => match (fwd[x as usize], back[y as usize]) {
                    (None, None) => {
                        fwd[x as usize] = Some(y);
                        back[y as usize] = Some(x);
                        true
                    }
                    (f, b) => f == Some(y) && b == Some(x),
                },
                (a, b) => a == b,
            };
            if !ok {
                bad.push(p);
            }
        }
        Some(bad)
    }

    /// This board without its empty edge lines: rows and columns at its edges holding
    /// neither tile nor obstacle are dropped, while any are left. Links may run outside the
    /// board, so an empty edge line changes no move; and on screen nothing shows it (a
    /// board's ground and the ground around it are one), so a reading may leave it off. A
    /// board with no tile or obstacle stays as it is.
    ///
    /// ```
    /// use llk::board::Board;
    /// let b = Board::parse("....\n.AA.\n....").unwrap();
    /// assert_eq!(b.without_empty_edges().to_text(), "AA");
    /// ```
    pub fn without_empty_edges(&self) -> Board {
        let full = |p: Pos| !self.get(p).is_empty();
        let row_full = |r: usize| (0..self.cols).any(|c| full(Pos::new(r, c)));
        let col_full = |c: usize| (0..self.rows).any(|r| full(Pos::new(r, c)));
        let (Some(r0), Some(c0)) = (
            (0..self.rows).find(|&r| row_full(r)),
            (0..self.cols).find(|&c| col_full(c)),
        ) else {
            return self.clone();
        };
        let r1 = (0..self.rows).rfind(|&r| row_full(r)).unwrap_or(r0);
        let c1 = (0..self.cols).rfind(|&c| col_full(c)).unwrap_or(c0);
        let mut out = Board::new(r1 - r0 + 1, c1 - c0 + 1);
        for p in out.positions().collect::<Vec<_>>() {
            out.set(p, self.get(Pos::new(p.row + r0, p.col + c0)));
        }
        out
    }

    /// Fails naming every type that occurs an odd number of times: such a board can never
    /// be cleared, and in a screenshot it means a tile was misread.
    pub fn check_even(&self) -> Result<(), OddTypes> {
        let odd: Vec<(u8, usize)> = self
            .type_counts()
            .into_iter()
            .filter(|&(_, n)| n % 2 == 1)
            .collect();
        if odd.is_empty() {
            Ok(())
        } else {
            Err(OddTypes(odd))
        }
    }

    /// The text form, one line per row, no trailing newline.
    pub fn to_text(&self) -> String {
        self.row_strings().join("\n")
    }

    /// One string per row, as in a truth file's `cells`.
    pub fn row_strings(&self) -> Vec<String> {
        (0..self.rows)
            .map(|r| {
                self.cells[r * self.cols..(r + 1) * self.cols]
                    .iter()
                    .map(|c| c.to_char())
                    .collect()
            })
            .collect()
    }
}

impl Cell {
    /// The cell for a char of the text form, `None` for chars that cannot be a cell.
    pub fn from_char(ch: char) -> Option<Cell> {
        match ch {
            '.' => Some(Cell::Empty),
            '#' => Some(Cell::Obstacle),
            c if c.is_ascii_graphic() => Some(Cell::Tile(c as u8)),
            _ => None,
        }
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

impl std::str::FromStr for Board {
    type Err = ParseError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Board::parse(s)
    }
}

/// The chars used to name tile types that have no name of their own (vision, the
/// generator): letters first so small boards look like the truth files.
pub const TYPE_ALPHABET: &[u8] =
    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789@$%&*+=?!<>^~";

/// The char for the `i`-th tile type, `None` past the alphabet.
pub fn type_char(i: usize) -> Option<u8> {
    TYPE_ALPHABET.get(i).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_edge_lines_are_dropped_and_inner_ones_kept() {
        let b = Board::parse("......\n.A..#.\n......\n.A.B..\n...B..").unwrap();
        assert_eq!(b.without_empty_edges().to_text(), "A..#\n....\nA.B.\n..B.");
        let full = Board::parse("AB\nBA").unwrap();
        assert_eq!(full.without_empty_edges(), full);
        let empty = Board::parse("...\n...").unwrap();
        assert_eq!(empty.without_empty_edges(), empty);
    }

    #[test]
    fn round_trip_keeps_letters() {
        let text = "AB.#\nBA#.";
        let b = Board::parse(text).unwrap();
        assert_eq!(b.rows(), 2);
        assert_eq!(b.cols(), 4);
        assert_eq!(b.get(Pos::new(1, 2)), Cell::Obstacle);
        assert_eq!(b.to_text(), text);
        assert_eq!(b.tile_count(), 4);
        assert!(b.check_even().is_ok());
    }

    #[test]
    fn errors_name_line_and_column() {
        let e = Board::parse("AB\nA").unwrap_err();
        assert_eq!((e.line, e.col), (2, 2));
        assert!(e.to_string().contains("ragged"));
        let e = Board::parse("AB\nAé").unwrap_err();
        assert_eq!((e.line, e.col), (2, 2));
        let e = Board::parse("\n  \n").unwrap_err();
        assert!(e.to_string().contains("empty"));
        let e = Board::parse("AB\n\nBA").unwrap_err();
        assert_eq!(e.line, 2);
    }

    #[test]
    fn renaming_is_a_bijection() {
        let a = Board::parse("AB.\nBA#").unwrap();
        assert!(a.same_up_to_renaming(&Board::parse("xy.\nyx#").unwrap()));
        // Two letters mapped onto one is not a renaming.
        let merged = Board::parse("xx.\nxx#").unwrap();
        assert!(!a.same_up_to_renaming(&merged));
        assert_eq!(
            a.renaming_mismatches(&merged).unwrap(),
            vec![Pos::new(0, 1), Pos::new(1, 0)]
        );
        assert!(!a.same_up_to_renaming(&Board::parse("AB.\nB.#").unwrap()));
        assert!(a
            .renaming_mismatches(&Board::parse("AB").unwrap())
            .is_none());
    }

    #[test]
    fn a_board_refines_one_that_lumps_its_types() {
        let fine = Board::parse("AB.\nBA#").unwrap();
        let lumped = Board::parse("xx.\nxx#").unwrap();
        assert!(fine.refines(&lumped) && !lumped.refines(&fine));
        assert!(fine.refines(&Board::parse("yx.\nxy#").unwrap()));
        // Cells must agree in kind and size.
        assert!(!fine.refines(&Board::parse("xx.\nx.#").unwrap()));
        assert!(!fine.refines(&Board::parse("xx\nxx").unwrap()));
    }

    #[test]
    fn odd_types_are_named() {
        let b = Board::parse("AAB\n.C.").unwrap();
        let e = b.check_even().unwrap_err();
        assert_eq!(e, OddTypes(vec![(b'B', 1), (b'C', 1)]));
        let e = e.to_string();
        assert!(e.contains("'B'") && e.contains("'C'"), "{e}");
    }
}
