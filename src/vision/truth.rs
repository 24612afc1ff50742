//! Truth files, and how a reading is scored against one.
//!
//! A screenshot `NAME.png` (or `.jpg`) comes with `NAME.truth.json` saying what it shows:
//! the schema of `../shared/llk-real`, of `llk render --fixtures` and of the KShisen,
//! xshisen and shisensho captures. One scorer serves `llk bench truth` and the tests, so a
//! frame counts the same everywhere. Each frame lands in one [`Class`]:
//!
//! | class | truth | reading |
//! |---|---|---|
//! | exact | `board` | the truth's cells, types up to renaming ("occupancy only" truth: which cells hold something), but for empty edge lines either side may leave off; where the truth gives no cells: its size (`rows`/`cols`, or a `grid_hint` in words) and the game's own count of tiles left where it gives one |
//! | wrong | any | sure (nothing unsure, every type even) and not exact: the bot would click it |
//! | unsure | any | not exact and not sure: the bot would not click |
//! | refused | `board` | an error |
//! | expected | `no-board`, `animation`, `not-lianliankan` | an error |
//!
//! A board read where the truth says there is none is wrong or unsure by the same test.
//!
//! A board's empty edge lines show nowhere on screen and change no move (links may run
//! outside the board), so where neither the truth nor the reading can see them they do not
//! count.

use super::{is_sure, ReadError, Reading};
use crate::board::{Board, Cell, Pos};
use serde_json::Value;

/// What a truth file says a frame shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Truth {
    /// The screenshot's file name beside the truth file (`image`), when it gives one.
    pub image: Option<String>,
    /// `board`, `no-board`, `animation` or `not-lianliankan`.
    pub kind: String,
    /// The cells, when the truth gives them.
    pub cells: Option<Board>,
    /// Whether the cells tell only which cells hold something (`#` any tile), not types.
    pub occupancy_only: bool,
    /// Rows and columns, from `rows`/`cols` or a `grid_hint` such as "9 cols x 6 rows".
    pub size: Option<(usize, usize)>,
    /// The game's own count of tiles left (`counters.remaining_tiles`).
    pub tiles_left: Option<usize>,
}

/// Why a truth file cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TruthError(pub String);

impl std::fmt::Display for TruthError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TruthError {}

/// How a reading stands against its truth (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// A board read as its truth (`X`).
    Exact,
    /// A board read sure and not as its truth: the bot would click it (`W`).
    Wrong,
    /// A board read not as its truth and not sure: the bot would not click (`U`).
    Unsure,
    /// A board truth refused (`R`).
    Refused,
    /// A frame without a board refused (`E`).
    Expected,
}

impl Class {
    /// The class's letter in `llk bench truth`'s lists.
    pub fn letter(self) -> char {
        match self {
            Class::Exact => 'X',
            Class::Wrong => 'W',
            Class::Unsure => 'U',
            Class::Refused => 'R',
            Class::Expected => 'E',
        }
    }
}

/// A scored frame: its class, and for a refusal of a frame without a board whether the
/// refusal named the truth's kind.
#[derive(Clone, Debug, PartialEq)]
pub struct Score {
    /// Where the frame lands.
    pub class: Class,
    /// For [`Class::Expected`]: whether the error's kind is the truth's.
    pub kind_matches: bool,
    /// What went wrong, for a frame not exact or refused as another kind ("" otherwise).
    pub why: String,
}

impl Score {
    /// Whether the frame is read as its truth says: exact, or refused as its kind.
    pub fn passes(&self) -> bool {
        self.class == Class::Exact || (self.class == Class::Expected && self.kind_matches)
    }
}

impl Truth {
    /// Parses a truth file's text. A `board` truth that gives nothing to score by is no
    /// error here (see [`Truth::scorable`]).
    pub fn parse(text: &str) -> Result<Truth, TruthError> {
        let v: Value =
            serde_json::from_str(text).map_err(|e| TruthError(format!("is not JSON: {e}")))?;
        let kind = v
            .get("kind")
            .and_then(Value::as_str)
            .unwrap_or("board")
            .to_string();
        let cells = match v.get("cells").and_then(Value::as_array) {
            Some(rows) => {
                let rows: Vec<&str> = rows.iter().filter_map(Value::as_str).collect();
                Some(
                    Board::from_rows(&rows)
                        .map_err(|e| TruthError(format!("has bad cells: {e}")))?,
                )
            }
            None => None,
        };
        let says = |field: &str| {
            v.get(field)
                .and_then(Value::as_str)
                .is_some_and(|s| s.contains("occupancy only"))
        };
        let occupancy_only = says("notes") || says("cells_source");
        let count = |field: &str| v.get(field).and_then(Value::as_u64).map(|n| n as usize);
        let size = match (count("rows"), count("cols")) {
            (Some(r), Some(c)) => Some((r, c)),
            _ => v
                .get("grid_hint")
                .and_then(Value::as_str)
                .and_then(hinted_size),
        };
        let tiles_left = v
            .pointer("/counters/remaining_tiles")
            .and_then(Value::as_u64)
            .map(|n| n as usize);
        Ok(Truth {
            image: v.get("image").and_then(Value::as_str).map(str::to_string),
            kind,
            cells,
            occupancy_only,
            size,
            tiles_left,
        })
    }

    /// Whether a reading can be scored against this truth: a refusal always; a board needs
    /// cells, or a size.
    pub fn scorable(&self) -> bool {
        self.kind != "board" || self.cells.is_some() || self.size.is_some()
    }

    /// Scores what the reader made of the frame (see the module doc).
    pub fn score(&self, got: Result<&Reading, &ReadError>) -> Score {
        let plain = |class: Class, why: String| Score {
            class,
            kind_matches: true,
            why,
        };
        let r = match got {
            Err(e) if self.kind == "board" => return plain(Class::Refused, e.to_string()),
            Err(e) => {
                return Score {
                    class: Class::Expected,
                    kind_matches: e.kind() == self.kind,
                    why: if e.kind() == self.kind {
                        String::new()
                    } else {
                        format!("refused as {}, truth says {}", e.kind(), self.kind)
                    },
                }
            }
            Ok(r) => r,
        };
        let why = if self.kind == "board" {
            self.difference(&r.board)
        } else {
            format!(
                "read a {}x{} board, truth says {}",
                r.grid.rows, r.grid.cols, self.kind
            )
        };
        let class = if why.is_empty() {
            Class::Exact
        } else if is_sure(r) {
            Class::Wrong
        } else {
            Class::Unsure
        };
        plain(class, why)
    }

    /// How `got` differs from this board truth ("" when it is exact).
    fn difference(&self, got: &Board) -> String {
        let Some(want) = &self.cells else {
            if let Some((rows, cols)) = self.size {
                if (got.rows(), got.cols()) != (rows, cols) {
                    return format!("size {}x{} want {rows}x{cols}", got.rows(), got.cols());
                }
            }
            return match self.tiles_left {
                Some(n) if n != got.tile_count() => {
                    format!("{} tiles want {n} (the game's count)", got.tile_count())
                }
                _ => String::new(),
            };
        };
        let (want, got) = (want.without_empty_edges(), got.without_empty_edges());
        if (want.rows(), want.cols()) != (got.rows(), got.cols()) {
            return format!(
                "size {}x{} want {}x{} (empty edge lines left off)",
                got.rows(),
                got.cols(),
                want.rows(),
                want.cols()
            );
        }
        let held = |b: &Board, p: Pos| b.get(p) != Cell::Empty;
        let occupancy: Vec<String> = want
            .positions()
            .filter(|&p| held(&want, p) != held(&got, p))
            .map(|p| p.to_string())
            .collect();
        if !occupancy.is_empty() {
            return format!("occupancy differs at {}", occupancy.join(" "));
        }
        if self.occupancy_only {
            return String::new();
        }
        match want.renaming_mismatches(&got) {
            Some(m) if m.is_empty() => String::new(),
            Some(m) => format!(
                "cells differ at {}",
                m.iter()
                    .map(|q| q.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            None => "size differs".into(),
        }
    }
}

/// (rows, cols) from a hint in words such as "9 cols x 6 rows (status bar ...)".
fn hinted_size(hint: &str) -> Option<(usize, usize)> {
    let words: Vec<&str> = hint.split_whitespace().collect();
    let before = |unit: &str| {
        words
            .windows(2)
            .find(|w| w[1].trim_end_matches(|c: char| !c.is_alphabetic()) == unit)
            .and_then(|w| w[0].parse().ok())
    };
    Some((before("rows")?, before("cols")?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Grid;

    fn reading(text: &str, unsure: Vec<Pos>) -> Reading {
        let board = Board::parse(text).unwrap();
        Reading {
            grid: Grid {
                origin: (0.0, 0.0),
                pitch: (30.0, 30.0),
                rows: board.rows(),
                cols: board.cols(),
            },
            board,
            unsure,
            selected: Vec::new(),
        }
    }

    fn truth(json: &str) -> Truth {
        Truth::parse(json).unwrap()
    }

    #[test]
    fn a_reading_equal_up_to_renaming_and_empty_edge_lines_is_exact() {
        let t = truth(r#"{"kind":"board","cells":["....",".AB.",".BA.","...."]}"#);
        assert_eq!(t.score(Ok(&reading("XY\nYX", vec![]))).class, Class::Exact);
        let s = t.score(Ok(&reading("XY\nXY", vec![])));
        assert_eq!(s.class, Class::Wrong);
        assert!(s.why.contains("cells differ"), "{}", s.why);
        let s = t.score(Ok(&reading("XY\nXY", vec![Pos::new(0, 0)])));
        assert_eq!(s.class, Class::Unsure);
    }

    #[test]
    fn occupancy_only_truth_compares_which_cells_hold_something() {
        let t = truth(
            r###"{"kind":"board","cells":["##.","##."],"cells_source":"occupancy only: # = tile"}"###,
        );
        assert!(t.occupancy_only);
        assert_eq!(t.score(Ok(&reading("AB\nBA", vec![]))).class, Class::Exact);
        let s = t.score(Ok(&reading("AB.\nA..", vec![])));
        assert!(s.why.contains("occupancy differs at"), "{}", s.why);
    }

    #[test]
    fn truth_without_cells_scores_the_size_and_the_games_count() {
        let t = truth(r#"{"kind":"board","rows":2,"cols":2,"counters":{"remaining_tiles":4}}"#);
        assert_eq!(t.score(Ok(&reading("AB\nBA", vec![]))).class, Class::Exact);
        let s = t.score(Ok(&reading("AB\nB#", vec![])));
        assert!(s.why.contains("3 tiles want 4"), "{}", s.why);
        let t = truth(r#"{"kind":"board","grid_hint":"3 cols x 1 rows (status bar)"}"#);
        assert_eq!(t.size, Some((1, 3)));
        assert_eq!(t.score(Ok(&reading("AB.", vec![]))).class, Class::Exact);
        assert_eq!(t.score(Ok(&reading("AB\nBA", vec![]))).class, Class::Wrong);
        assert!(!truth(r#"{"kind":"board"}"#).scorable());
    }

    #[test]
    fn refusals_are_scored_by_kind() {
        let t = truth(r#"{"kind":"animation"}"#);
        let s = t.score(Err(&ReadError::Animation("a line".into())));
        assert!(s.passes());
        let s = t.score(Err(&ReadError::NoBoard("nothing".into())));
        assert_eq!(s.class, Class::Expected);
        assert!(!s.passes());
        assert!(s.why.contains("refused as no-board"), "{}", s.why);
        let s = t.score(Ok(&reading("AB\nBA", vec![])));
        assert_eq!(s.class, Class::Wrong);
        assert!(s.why.contains("truth says animation"), "{}", s.why);
        let b = truth(r#"{"kind":"board","cells":["AA"]}"#);
        assert_eq!(
            b.score(Err(&ReadError::NoBoard("x".into()))).class,
            Class::Refused
        );
    }

    #[test]
    fn bad_truth_is_an_error_naming_the_problem() {
        assert!(Truth::parse("{").unwrap_err().0.contains("is not JSON"));
        let e = Truth::parse(r#"{"cells":["AB","A"]}"#).unwrap_err();
        assert!(e.0.contains("has bad cells"), "{e}");
    }
}
