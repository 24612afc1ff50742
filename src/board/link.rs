//! The link rule: two equal tiles are removable when a path of at most three straight
//! segments (two turns) joins them through empty cells.
//!
//! The finder returns the path itself (its corners), not just a yes/no, because the same
//! answer is drawn on annotated frames, replayed by the practice game and checked by tests.
//! Among the legal paths it prefers the fewest turns, then the shortest, which is what games
//! draw and what a person would pick.

use super::{Board, Cell, Pos, Rules};
use serde::{Deserialize, Serialize};

/// A corner of a link path. Signed because a path may run through the ring just outside the
/// board: row -1 or `rows`, col -1 or `cols`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub struct Point {
    /// Row; -1 or `rows` on the ring.
    pub row: i32,
    /// Column; -1 or `cols` on the ring.
    pub col: i32,
}

impl Point {
    /// The corner at (`row`, `col`).
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
    /// The first tile.
    pub a: Pos,
    /// The second tile.
    pub b: Pos,
    /// Corners from `a` to `b`, both ends included.
    pub path: Vec<Point>,
}

impl Link {
    /// Number of turns (corners between the ends): 0, 1 or 2.
    pub fn turns(&self) -> usize {
        self.path.len().saturating_sub(2)
    }

    /// Length of the path in cells (sum of the segment lengths).
    pub fn length(&self) -> u32 {
        self.path
            .windows(2)
            .map(|w| w[0].row.abs_diff(w[1].row) + w[0].col.abs_diff(w[1].col))
            .sum()
    }
}

/// Whether a path may pass through `(row, col)`: an empty board cell, or a ring cell when
/// the rules allow links outside the board. Anything further out is never free.
#[inline]
pub fn passable(board: &Board, rules: &Rules, row: i32, col: i32) -> bool {
    let (rows, cols) = (board.rows() as i32, board.cols() as i32);
    if row >= 0 && col >= 0 && row < rows && col < cols {
        board.get(Pos::new(row as usize, col as usize)) == Cell::Empty
    } else {
        rules.outside && row >= -1 && col >= -1 && row <= rows && col <= cols
    }
}

/// Whether every cell strictly between two points of the same row or column is passable.
fn clear_between(board: &Board, rules: &Rules, a: Point, b: Point) -> bool {
    if a.row == b.row {
        let (lo, hi) = (a.col.min(b.col), a.col.max(b.col));
        (lo + 1..hi).all(|c| passable(board, rules, a.row, c))
    } else if a.col == b.col {
        let (lo, hi) = (a.row.min(b.row), a.row.max(b.row));
        (lo + 1..hi).all(|r| passable(board, rules, r, a.col))
    } else {
        false
    }
}

/// The run of passable cells through `p` along one axis, as inclusive bounds: how far a
/// straight segment leaving `p` can go left/right (`horizontal`) or up/down.
fn reach(board: &Board, rules: &Rules, p: Point, horizontal: bool) -> (i32, i32) {
    let step = |k: i32| {
        if horizontal {
            Point::new(p.row, p.col + k)
        } else {
            Point::new(p.row + k, p.col)
        }
    };
    let free = |q: Point| passable(board, rules, q.row, q.col);
    let (mut lo, mut hi) = (0, 0);
    while free(step(lo - 1)) {
        lo -= 1;
    }
    while free(step(hi + 1)) {
        hi += 1;
    }
    let base = if horizontal { p.col } else { p.row };
    (base + lo, base + hi)
}

fn path_length(path: &[Point]) -> u32 {
    path.windows(2)
        .map(|w| w[0].row.abs_diff(w[1].row) + w[0].col.abs_diff(w[1].col))
        .sum()
}

/// The best link between `a` and `b` under `rules`, or `None` when they are not the same
/// tile type or no path of at most two turns exists. Fewest turns first, then shortest.
pub fn find_link(board: &Board, rules: &Rules, a: Pos, b: Pos) -> Option<Link> {
    if a == b || !board.contains(a) || !board.contains(b) {
        return None;
    }
    match (board.get(a), board.get(b)) {
        (Cell::Tile(x), Cell::Tile(y)) if x == y => {}
        _ => return None,
    }
    let (pa, pb) = (Point::from(a), Point::from(b));
    let make = |path: Vec<Point>| Some(Link { a, b, path });

    // No turn: same row or column, nothing between.
    if (pa.row == pb.row || pa.col == pb.col) && clear_between(board, rules, pa, pb) {
        return make(vec![pa, pb]);
    }
    // One turn: through one of the two corners of their rectangle.
    for corner in [Point::new(pa.row, pb.col), Point::new(pb.row, pa.col)] {
        if corner != pa
            && corner != pb
            && passable(board, rules, corner.row, corner.col)
            && clear_between(board, rules, pa, corner)
            && clear_between(board, rules, corner, pb)
        {
            return make(vec![pa, corner, pb]);
        }
    }
    // Two turns: leave `a` along one axis to some line, cross along it, and come back to `b`
    // along the same axis. The crossing line must lie within both ends' free runs.
    let mut best: Option<Vec<Point>> = None;
    for horizontal in [true, false] {
        let (lo_a, hi_a) = reach(board, rules, pa, horizontal);
        let (lo_b, hi_b) = reach(board, rules, pb, horizontal);
        let (lo, hi) = (lo_a.max(lo_b), hi_a.min(hi_b));
        for k in lo..=hi {
            let (ca, cb) = if horizontal {
                (Point::new(pa.row, k), Point::new(pb.row, k))
            } else {
                (Point::new(k, pa.col), Point::new(k, pb.col))
            };
            if ca == pa || cb == pb || ca == cb {
                continue; // a shorter path shape, already tried above
            }
            if clear_between(board, rules, ca, cb) {
                let path = vec![pa, ca, cb, pb];
                if best
                    .as_ref()
                    .is_none_or(|b| path_length(&path) < path_length(b))
                {
                    best = Some(path);
                }
            }
        }
    }
    best.and_then(make)
}

/// Whether `a` and `b` can be removed now.
pub fn can_link(board: &Board, rules: &Rules, a: Pos, b: Pos) -> bool {
    find_link(board, rules, a, b).is_some()
}

/// Every removable pair on the board with its path, each pair once with `a` before `b` in
/// row-major order, listed row-major by `a` then `b`.
pub fn removable_pairs(board: &Board, rules: &Rules) -> Vec<Link> {
    let mut by_type: std::collections::BTreeMap<u8, Vec<Pos>> = Default::default();
    for (p, t) in board.tiles() {
        by_type.entry(t).or_default().push(p);
    }
    let mut out = Vec::new();
    for (a, t) in board.tiles() {
        for &b in &by_type[&t] {
            if b > a {
                if let Some(l) = find_link(board, rules, a, b) {
                    out.push(l);
                }
            }
        }
    }
    out
}

/// Checks that `link` is a legal removal on `board`: same type at both ends, a path of 2 to 4
/// corners made of straight axis-aligned segments that starts at `a`, ends at `b` and passes
/// only through passable cells. Used to validate plans and the practice game's clicks
/// independently of how the path was found.
pub fn check_link(board: &Board, rules: &Rules, link: &Link) -> Result<(), IllegalLink> {
    let (a, b) = (link.a, link.b);
    let illegal = |fault| Err(IllegalLink { a, b, fault });
    if !board.contains(a) || !board.contains(b) {
        return illegal(LinkFault::OffBoard);
    }
    match (board.get(a), board.get(b)) {
        (Cell::Tile(x), Cell::Tile(y)) if x == y && a != b => {}
        (ca, cb) => return illegal(LinkFault::NotAPair(ca.to_char(), cb.to_char())),
    }
    let path = &link.path;
    if !(2..=4).contains(&path.len()) {
        return illegal(LinkFault::Corners(path.len()));
    }
    if path[0] != Point::from(a) || path[path.len() - 1] != Point::from(b) {
        return illegal(LinkFault::WrongEnds);
    }
    for (i, w) in path.windows(2).enumerate() {
        if w[0].row != w[1].row && w[0].col != w[1].col {
            return illegal(LinkFault::NotStraight(i));
        }
        if w[0] == w[1] {
            return illegal(LinkFault::ZeroLength(i));
        }
        if !clear_between(board, rules, w[0], w[1]) {
            return illegal(LinkFault::SegmentBlocked(i));
        }
    }
    for c in &path[1..path.len() - 1] {
        if !passable(board, rules, c.row, c.col) {
            return illegal(LinkFault::CornerBlocked(*c));
        }
    }
    Ok(())
}

/// A link [`check_link`] refuses: its two ends and what is wrong with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{a}-{b}: {fault}")]
pub struct IllegalLink {
    /// The link's first end.
    pub a: Pos,
    /// The link's second end.
    pub b: Pos,
    /// What is wrong with it.
    pub fault: LinkFault,
}

/// What is wrong with an illegal link.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LinkFault {
    /// An end lies outside the board.
    #[error("off the board")]
    OffBoard,
    /// The ends are not two tiles of one type (the cells' chars are given).
    #[error("not two tiles of one type ({0:?} and {1:?})")]
    NotAPair(char, char),
    /// The path has this many corners, not 2..=4.
    #[error("path has {0} corners (2..=4)")]
    Corners(usize),
    /// The path does not start at the first end and end at the second.
    #[error("path does not run from a to b")]
    WrongEnds,
    /// Segment `i` is not horizontal or vertical.
    #[error("segment {0} is not straight")]
    NotStraight(usize),
    /// Segment `i` starts and ends at the same point.
    #[error("segment {0} has zero length")]
    ZeroLength(usize),
    /// Segment `i` crosses a cell that is not passable.
    #[error("segment {0} is blocked")]
    SegmentBlocked(usize),
    /// A corner lies on a cell that is not passable.
    #[error("corner ({},{}) is blocked", .0.row, .0.col)]
    CornerBlocked(Point),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(s: &str) -> Board {
        Board::parse(s).unwrap()
    }
    const IN: Rules = Rules {
        outside: false,
        gravity: super::super::Gravity::None,
    };
    const OUT: Rules = Rules {
        outside: true,
        gravity: super::super::Gravity::None,
    };

    #[test]
    fn straight_link() {
        let b = board("A..A\n####");
        let l = find_link(&b, &IN, Pos::new(0, 0), Pos::new(0, 3)).unwrap();
        assert_eq!(l.turns(), 0);
        assert_eq!(l.length(), 3);
        let b = board("A.BA");
        assert!(find_link(&b, &IN, Pos::new(0, 0), Pos::new(0, 3)).is_none());
    }

    #[test]
    fn adjacent_tiles_link() {
        let b = board("AA\n##");
        let l = find_link(&b, &IN, Pos::new(0, 0), Pos::new(0, 1)).unwrap();
        assert_eq!(l.path.len(), 2);
    }

    #[test]
    fn one_turn() {
        let b = board("A.\n#A");
        let l = find_link(&b, &IN, Pos::new(0, 0), Pos::new(1, 1)).unwrap();
        assert_eq!(l.turns(), 1);
        assert_eq!(l.path[1], Point::new(0, 1));
        // Both corners blocked: only a two-turn path through column 1 is left.
        let b = board("A.#\n#.A");
        let l = find_link(&b, &IN, Pos::new(0, 0), Pos::new(1, 2)).unwrap();
        assert_eq!(l.turns(), 2);
        assert_eq!(l.path[1], Point::new(0, 1));
    }

    #[test]
    fn two_turns_inside() {
        // A at (0,0) and (2,2): down column 1? no — via the empty middle row.
        let b = board("A##\n...\n##A");
        let l = find_link(&b, &IN, Pos::new(0, 0), Pos::new(2, 2)).unwrap();
        assert_eq!(l.turns(), 2);
        assert_eq!(
            l.path,
            vec![
                Point::new(0, 0),
                Point::new(1, 0),
                Point::new(1, 2),
                Point::new(2, 2)
            ]
        );
    }

    #[test]
    fn three_turns_is_too_many() {
        // Inside the board only an S-shaped path of 3+ turns joins them...
        let b = board("A#...\n.#.#.\n...#A");
        let (a, c) = (Pos::new(0, 0), Pos::new(2, 4));
        assert!(find_link(&b, &IN, a, c).is_none());
        // ...but the ring gives a 2-turn path (above or below: both are 8 cells long).
        let l = find_link(&b, &OUT, a, c).unwrap();
        assert_eq!(l.turns(), 2);
        assert!([-1, 3].contains(&l.path[1].row), "{:?}", l.path);
        check_link(&b, &OUT, &l).unwrap();
    }

    #[test]
    fn outside_ring() {
        let b = board("ABA\nBAB");
        let (a, c) = (Pos::new(0, 0), Pos::new(0, 2));
        assert!(find_link(&b, &IN, a, c).is_none());
        let l = find_link(&b, &OUT, a, c).unwrap();
        assert_eq!(l.path[1], Point::new(-1, 0));
        assert_eq!(l.path[2], Point::new(-1, 2));
        check_link(&b, &OUT, &l).unwrap();
        assert!(check_link(&b, &IN, &l).is_err());
        // Bottom ring for the B pair.
        let l = find_link(&b, &OUT, Pos::new(1, 0), Pos::new(1, 2)).unwrap();
        assert_eq!(l.path[1], Point::new(2, 0));
    }

    #[test]
    fn obstacles_block() {
        let b = board("A#A");
        assert!(find_link(&b, &IN, Pos::new(0, 0), Pos::new(0, 2)).is_none());
        assert!(find_link(&b, &OUT, Pos::new(0, 0), Pos::new(0, 2)).is_some());
    }

    #[test]
    fn different_types_never_link() {
        let b = board("AB");
        assert!(find_link(&b, &OUT, Pos::new(0, 0), Pos::new(0, 1)).is_none());
    }

    #[test]
    fn pairs_listed_once() {
        // The two diagonal pairs are boxed in by the other two tiles.
        let b = board("AA\nAA");
        let pairs = removable_pairs(&b, &OUT);
        assert_eq!(pairs.len(), 4);
        assert!(pairs.iter().all(|l| l.a < l.b));
    }

    #[test]
    fn shortest_of_two_turn_paths() {
        // Both the row above (ring) and row 2 would do; row 2 is nearer... but it is blocked,
        // so the nearest free row wins.
        let b = board("A#A\n.#.\n...");
        let l = find_link(&b, &OUT, Pos::new(0, 0), Pos::new(0, 2)).unwrap();
        assert_eq!(l.path[1], Point::new(-1, 0));
        let b = board("A#A\n.#.\n...\n...");
        let l = find_link(&b, &IN, Pos::new(0, 0), Pos::new(0, 2)).unwrap();
        assert_eq!(l.path[1], Point::new(2, 0));
    }
}
