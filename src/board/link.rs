//! The link rule: two equal tiles are removable when a path of at most three straight
//! segments (two turns) joins them through empty cells.

use super::Pos;
use serde::{Deserialize, Serialize};

/// A corner of a link path. Signed because a path may run through the ring just outside the
/// board: row -1 or `rows`, col -1 or `cols`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Point {
    pub row: i32,
    pub col: i32,
}

impl Point {
    pub const fn new(row: i32, col: i32) -> Self {
        Point { row, col }
    }
}

impl From<Pos> for Point {
    fn from(p: Pos) -> Self {
        Point::new(p.row as i32, p.col as i32)
    }
}

/// A removable pair and the path that joins it: `path` starts at `a`, ends at `b`, and lists
/// every corner in between (2 to 4 points), so it can be drawn and checked.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Link {
    pub a: Pos,
    pub b: Pos,
    pub path: Vec<Point>,
}
