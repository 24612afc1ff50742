//! The sliding-tile board: tiles in row-major order with 0 as the blank, the two goal
//! conventions, solvability by inversion parity, moves of the blank and a seeded generator.

use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::fmt;

/// Smallest side accepted: a 1-wide board cannot move anything but back and forth.
pub const MIN_SIDE: usize = 2;
/// Largest side accepted: the packed search states and the fast solver size their tables
/// for at most 64 cells.
pub const MAX_SIDE: usize = 8;

/// Where the blank sits in the solved board. Korf's papers and the benchmark files use
/// blank-first; most games put the blank last. Both describe the same puzzle up to a 180°
/// rotation and the relabelling `x → N − x` (see [`Puzzle::converted`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize)]
pub enum Goal {
    /// `0 1 2 … N−1`: blank in the top-left corner.
    BlankFirst,
    /// `1 2 … N−1 0`: blank in the bottom-right corner.
    BlankLast,
}

/// Direction the blank moves in; the tile on that side slides the opposite way. Letters
/// follow the usual `U D L R` notation so a solution reads as one word.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Blank moves up (the tile above slides down).
    Up,
    /// Blank moves down.
    Down,
    /// Blank moves left.
    Left,
    /// Blank moves right.
    Right,
}

impl Dir {
    /// All four, in the order searches try them (so results are reproducible).
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Left, Dir::Right, Dir::Down];

    /// The letter used in move strings.
    pub fn letter(self) -> char {
        match self {
            Dir::Up => 'U',
            Dir::Down => 'D',
            Dir::Left => 'L',
            Dir::Right => 'R',
        }
    }

    /// Reads one move letter (either case), so solutions can be replayed from text.
    pub fn from_letter(c: char) -> Option<Dir> {
        match c.to_ascii_uppercase() {
            'U' => Some(Dir::Up),
            'D' => Some(Dir::Down),
            'L' => Some(Dir::Left),
            'R' => Some(Dir::Right),
            _ => None,
        }
    }

    /// The move that undoes this one; searches skip it right after this one.
    pub fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }
}

impl serde::Serialize for Dir {
    /// A move serialises as its letter, so JSON move lists read like the text form.
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_char(self.letter())
    }
}

/// Why text or tiles are not a sliding board, or moves do not fit one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PuzzleError {
    /// A move letter other than U, D, L, R.
    #[error("move '{0}' is not one of U D L R")]
    BadMove(char),
    /// A side outside [`MIN_SIDE`]..=[`MAX_SIDE`].
    #[error("board {name} {value} is outside {MIN_SIDE}..={MAX_SIDE}")]
    Side {
        /// "width" or "height".
        name: &'static str,
        /// The side given.
        value: usize,
    },
    /// Not as many tiles as the board has cells.
    #[error("a {height}x{width} board needs {} tiles (0..={}), got {got}", width * height, width * height - 1)]
    TileCount {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
        /// Tiles given.
        got: usize,
    },
    /// A tile number at or past the board's cell count.
    #[error("tile {tile} is out of range for a {height}x{width} board (0..={})", width * height - 1)]
    OutOfRange {
        /// The tile.
        tile: usize,
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
    },
    /// A tile given twice.
    #[error("tile {0} appears more than once")]
    Repeated(usize),
    /// A tile not given.
    #[error("tile {0} is missing")]
    Missing(usize),
    /// A token that is not a number.
    #[error("tile '{token}' is not a non-negative number")]
    NotANumber {
        /// The token.
        token: String,
        /// What the number parser said.
        #[source]
        source: std::num::ParseIntError,
    },
    /// A number above 255.
    #[error("tile {0} is out of range (boards have at most 64 cells)")]
    TooLarge(u32),
    /// More tiles than the largest board holds.
    #[error("{}: boards are at most {MAX_SIDE}x{MAX_SIDE} ({} tiles)", too_many(*.0), MAX_SIDE * MAX_SIDE)]
    TooMany(usize),
    /// A tile count that is not a square, with no size given.
    #[error("{0} tiles is not a square board; give --size ROWSxCOLS")]
    NotSquare(usize),
    /// A move that would take the blank off the board.
    #[error("move {number} ('{}') runs off the board", dir.letter())]
    OffBoard {
        /// The move's number in the list, from 1.
        number: usize,
        /// The move.
        dir: Dir,
    },
    /// A size without an `x`.
    #[error("size '{0}' is not of the form ROWSxCOLS, e.g. 3x4")]
    SizeForm(String),
    /// A size whose rows or columns are not a number.
    #[error("size '{size}': {what} '{part}' is not a number")]
    SizeNumber {
        /// The size given.
        size: String,
        /// "rows" or "columns".
        what: &'static str,
        /// The part that is not a number.
        part: String,
        /// What the number parser said.
        #[source]
        source: std::num::ParseIntError,
    },
}

/// "N tiles make a SxS board" when N is a square, else "N tiles are more than a board holds".
fn too_many(n: usize) -> String {
    let side = (0usize..).find(|s| s * s >= n).unwrap_or(0);
    if side * side == n {
        format!("{n} tiles make a {side}x{side} board")
    } else {
        format!("{n} tiles are more than a board holds")
    }
}

type Result<T> = std::result::Result<T, PuzzleError>;

/// Formats moves as the `UDLR` word printed by the CLI and stored in JSON.
pub fn moves_to_string(moves: &[Dir]) -> String {
    moves.iter().map(|d| d.letter()).collect()
}

/// Parses a `UDLR` word (spaces and commas ignored), e.g. to replay a saved solution.
pub fn moves_from_str(s: &str) -> Result<Vec<Dir>> {
    s.chars()
        .filter(|c| !c.is_whitespace() && *c != ',')
        .map(|c| Dir::from_letter(c).ok_or(PuzzleError::BadMove(c)))
        .collect()
}

/// Cell reached from `cell` by moving one step in `dir` on a `width × height` board, if any.
pub fn step(cell: usize, dir: Dir, width: usize, height: usize) -> Option<usize> {
    let (r, c) = (cell / width, cell % width);
    match dir {
        Dir::Up if r > 0 => Some(cell - width),
        Dir::Down if r + 1 < height => Some(cell + width),
        Dir::Left if c > 0 => Some(cell - 1),
        Dir::Right if c + 1 < width => Some(cell + 1),
        _ => None,
    }
}

/// A sliding-tile position: `height` rows of `width` tiles, row-major, 0 is the blank.
/// Always a permutation of `0..width*height` with both sides in 2..=8 (checked on creation),
/// so every other stage can index without re-checking.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Puzzle {
    width: usize,
    height: usize,
    tiles: Vec<u8>,
}

impl Puzzle {
    /// Checks the size and that the tiles are exactly `0..width*height` once each, and says
    /// which tile is repeated or missing otherwise.
    pub fn new(width: usize, height: usize, tiles: Vec<u8>) -> Result<Puzzle> {
        for (name, value) in [("width", width), ("height", height)] {
            if !(MIN_SIDE..=MAX_SIDE).contains(&value) {
                return Err(PuzzleError::Side { name, value });
            }
        }
        let n = width * height;
        if tiles.len() != n {
            return Err(PuzzleError::TileCount {
                width,
                height,
                got: tiles.len(),
            });
        }
        let mut seen = vec![false; n];
        for &t in &tiles {
            let t = t as usize;
            if t >= n {
                return Err(PuzzleError::OutOfRange {
                    tile: t,
                    width,
                    height,
                });
            }
            if seen[t] {
                return Err(PuzzleError::Repeated(t));
            }
            seen[t] = true;
        }
        if let Some(missing) = seen.iter().position(|s| !s) {
            return Err(PuzzleError::Missing(missing));
        }
        Ok(Puzzle {
            width,
            height,
            tiles,
        })
    }

    /// Reads tiles separated by spaces or commas. The size is `size` (rows, columns) when
    /// given, else inferred from a square count (9 → 3×3, 16 → 4×4, …).
    pub fn parse(text: &str, size: Option<(usize, usize)>) -> Result<Puzzle> {
        let mut tiles = Vec::new();
        for tok in text.split(|c: char| c.is_whitespace() || c == ',') {
            if tok.is_empty() {
                continue;
            }
            let v: u32 = tok.parse().map_err(|source| PuzzleError::NotANumber {
                token: tok.to_string(),
                source,
            })?;
            if v > 255 {
                return Err(PuzzleError::TooLarge(v));
            }
            tiles.push(v as u8);
        }
        let (h, w) = match size {
            Some(s) => s,
            None => {
                let n = tiles.len();
                let most = MAX_SIDE * MAX_SIDE;
                // The smallest side whose square holds n tiles.
                let side = (0usize..).find(|s| s * s >= n).unwrap_or(0);
                if n > most {
                    return Err(PuzzleError::TooMany(n));
                }
                if side * side != n {
                    return Err(PuzzleError::NotSquare(n));
                }
                (side, side)
            }
        };
        Puzzle::new(w, h, tiles)
    }

    /// The solved board in the given convention.
    pub fn solved(width: usize, height: usize, goal: Goal) -> Result<Puzzle> {
        let n = width * height;
        let tiles = match goal {
            Goal::BlankFirst => (0..n as u8).collect(),
            Goal::BlankLast => (1..n as u8).chain([0]).collect(),
        };
        Puzzle::new(width, height, tiles)
    }

    /// A uniformly random position that can reach `goal`, reproducible from `seed`: shuffle,
    /// then swap two tiles if the parity is wrong (exactly half of all orders are solvable).
    pub fn random(width: usize, height: usize, goal: Goal, seed: u64) -> Result<Puzzle> {
        let mut p = Puzzle::solved(width, height, goal)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        p.tiles.shuffle(&mut rng);
        if !p.is_solvable(goal) {
            let a = p.tiles.iter().position(|&t| t != 0).unwrap_or(0);
            let b = p.tiles.iter().rposition(|&t| t != 0).unwrap_or(0);
            p.tiles.swap(a, b);
        }
        Ok(p)
    }

    /// Tiles per row.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Row-major tiles, 0 = blank.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// Cell index of the blank.
    pub fn blank(&self) -> usize {
        self.tiles.iter().position(|&t| t == 0).unwrap_or(0)
    }

    /// Whether this is the solved board of `goal`.
    pub fn is_goal(&self, goal: Goal) -> bool {
        let n = self.tiles.len();
        self.tiles.iter().enumerate().all(|(i, &t)| match goal {
            Goal::BlankFirst => t as usize == i,
            Goal::BlankLast => t as usize == (i + 1) % n,
        })
    }

    /// Parity invariant of a position: inversions among the tiles, plus the blank's row
    /// when the width is even (a vertical move jumps a tile over `width − 1` others, which
    /// flips the inversion parity exactly when the width is even).
    fn parity(&self) -> usize {
        let t: Vec<u8> = self.tiles.iter().copied().filter(|&t| t != 0).collect();
        let mut inv = 0usize;
        for i in 0..t.len() {
            for j in i + 1..t.len() {
                if t[i] > t[j] {
                    inv += 1;
                }
            }
        }
        if self.width.is_multiple_of(2) {
            inv += self.blank() / self.width;
        }
        inv % 2
    }

    /// Whether `goal` can be reached: the parity invariant must match the goal's. This is
    /// exact (half of all orders are solvable), so unsolvable input is rejected at once.
    pub fn is_solvable(&self, goal: Goal) -> bool {
        match Puzzle::solved(self.width, self.height, goal) {
            Ok(g) => self.parity() == g.parity(),
            Err(_) => false,
        }
    }

    /// Moves the blank one step; returns the tile that slid, or `None` at an edge.
    pub fn apply(&mut self, dir: Dir) -> Option<u8> {
        let b = self.blank();
        let to = step(b, dir, self.width, self.height)?;
        let tile = self.tiles[to];
        self.tiles.swap(b, to);
        Some(tile)
    }

    /// Plays a whole move list, returning the tiles that slid; fails on the first move
    /// that would leave the board.
    pub fn apply_all(&mut self, moves: &[Dir]) -> Result<Vec<u8>> {
        let mut slid = Vec::with_capacity(moves.len());
        for (i, &d) in moves.iter().enumerate() {
            match self.apply(d) {
                Some(t) => slid.push(t),
                None => {
                    return Err(PuzzleError::OffBoard {
                        number: i + 1,
                        dir: d,
                    })
                }
            }
        }
        Ok(slid)
    }

    /// The same position seen in the other goal convention: rotate 180° and relabel
    /// `x → N − x`. This maps the blank-last goal onto the blank-first goal (and back), so
    /// a solver for one convention solves both; blank moves flip to their opposites.
    pub fn converted(&self) -> Puzzle {
        let n = self.tiles.len();
        let tiles = self
            .tiles
            .iter()
            .rev()
            .map(|&t| if t == 0 { 0 } else { (n - t as usize) as u8 })
            .collect();
        Puzzle {
            width: self.width,
            height: self.height,
            tiles,
        }
    }
}

impl fmt::Display for Puzzle {
    /// Rows on separate lines, numbers right-aligned, blank shown as `.`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let wide = if self.tiles.len() > 10 { 3 } else { 2 };
        for r in 0..self.height {
            for c in 0..self.width {
                let t = self.tiles[r * self.width + c];
                if t == 0 {
                    write!(f, "{:>wide$}", ".")?;
                } else {
                    write!(f, "{t:>wide$}")?;
                }
            }
            if r + 1 < self.height {
                writeln!(f)?;
            }
        }
        Ok(())
    }
}

/// Reads a `ROWSxCOLS` size such as `3x4` (3 rows of 4 tiles).
pub fn parse_size(s: &str) -> Result<(usize, usize)> {
    let (a, b) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| PuzzleError::SizeForm(s.to_string()))?;
    let number = |what: &'static str, part: &str| {
        part.trim()
            .parse::<usize>()
            .map_err(|source| PuzzleError::SizeNumber {
                size: s.to_string(),
                what,
                part: part.to_string(),
                source,
            })
    };
    Ok((number("rows", a)?, number("columns", b)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_problem() {
        let e = Puzzle::parse("1 2 3 4 5 6 7 8 8", None).unwrap_err();
        assert!(
            e.to_string().contains("tile 8 appears more than once"),
            "{e}"
        );
        let e = Puzzle::parse("1 2 3 4 5 6 7 8", None).unwrap_err();
        assert!(e.to_string().contains("not a square"), "{e}");
        let hundred: Vec<String> = (0..100).map(|t| t.to_string()).collect();
        let e = Puzzle::parse(&hundred.join(" "), None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "100 tiles make a 10x10 board: boards are at most 8x8 (64 tiles)"
        );
        let e = Puzzle::parse("1 2 3 4 5 6 7 8 9", None).unwrap_err();
        assert!(e.to_string().contains("tile 9 is out of range"), "{e}");
        let e = Puzzle::parse("0 1 2 3 4 5", Some((2, 4))).unwrap_err();
        assert!(e.to_string().contains("needs 8 tiles"), "{e}");
        assert!(Puzzle::parse("0 1 2 x", None).is_err());
    }

    #[test]
    fn parity_matches_reachability_on_small_boards() {
        // Every position reachable by moves is solvable, and one swap makes it unsolvable,
        // for odd and even widths and both conventions.
        for (w, h) in [(3, 3), (4, 4), (2, 3), (4, 2), (5, 3)] {
            for goal in [Goal::BlankFirst, Goal::BlankLast] {
                for seed in 0..20 {
                    let p = Puzzle::random(w, h, goal, seed).unwrap();
                    assert!(p.is_solvable(goal));
                    let mut q = p.clone();
                    let a = q.tiles.iter().position(|&t| t != 0).unwrap();
                    let b = q.tiles.iter().rposition(|&t| t != 0).unwrap();
                    q.tiles.swap(a, b);
                    assert!(!q.is_solvable(goal));
                    let mut r = p.clone();
                    let mut rng = ChaCha8Rng::seed_from_u64(seed);
                    for _ in 0..50 {
                        let d = Dir::ALL[rand::Rng::random_range(&mut rng, 0..4)];
                        r.apply(d);
                    }
                    assert!(r.is_solvable(goal));
                }
            }
        }
    }

    #[test]
    fn conversion_maps_goal_to_goal() {
        for (w, h) in [(3, 3), (4, 4), (3, 5)] {
            let g = Puzzle::solved(w, h, Goal::BlankLast).unwrap();
            assert!(g.converted().is_goal(Goal::BlankFirst));
            let p = Puzzle::random(w, h, Goal::BlankLast, 7).unwrap();
            assert_eq!(p.converted().converted(), p);
        }
    }
}
