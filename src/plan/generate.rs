//! Random boards for tests, benchmarks, the rendered fixtures and the practice game: the
//! one generator ([`generate`] from a spec and a seed, [`random_board`] from a fill share
//! and a caller's random stream).
//!
//! Reproducible from the seed (ChaCha8, whose stream is fixed by its spec and does not
//! change between `rand` versions), so a failing board in a test or a benchmark can be
//! regenerated from the numbers printed with it.

use crate::board::{type_char, Board, Cell, Pos, TYPE_ALPHABET};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What to generate: `types × copies` tiles and `obstacles` obstacles scattered at random
/// over a `rows × cols` board; the remaining cells are empty.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GenSpec {
    /// Board height in cells.
    pub rows: usize,
    /// Board width in cells.
    pub cols: usize,
    /// Number of tile types (named `A`, `B`, … as in [`TYPE_ALPHABET`]).
    pub types: usize,
    /// Tiles of each type; must be even, or the board could never be cleared.
    pub copies: usize,
    /// Obstacles scattered with the tiles (never removed, never passed).
    pub obstacles: usize,
    /// Everything random follows from it: equal specs give equal boards.
    pub seed: u64,
}

impl GenSpec {
    /// The spec of a board of this size filled with as many types as fit (the last
    /// `rows × cols mod copies` cells stay empty) — the benchmark's QQ boards.
    pub fn full(rows: usize, cols: usize, copies: usize, seed: u64) -> GenSpec {
        GenSpec {
            rows,
            cols,
            types: rows.saturating_mul(cols).checked_div(copies).unwrap_or(0),
            copies,
            obstacles: 0,
            seed,
        }
    }
}

/// The largest board generated (a game board has a few hundred cells; this only stops a
/// typo from asking for gigabytes).
pub const MAX_CELLS: usize = 1_000_000;

/// Why [`generate`] cannot deal a board for a spec; the message names the numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GenError {
    /// A side of zero.
    #[error("board size {rows}×{cols}: rows and cols must be at least 1")]
    Empty {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// A side longer than [`crate::board::MAX_SIDE`].
    #[error(
        "board size {rows}×{cols}: at most {max} rows and {max} columns are supported",
        max = crate::board::MAX_SIDE
    )]
    TooLong {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// Copies per type odd or zero (tiles go in pairs).
    #[error("copies per type must be even and at least 2 (tiles go in pairs), got {0}")]
    Copies(usize),
    /// More types than [`TYPE_ALPHABET`] has chars to name them.
    #[error(
        "{0} tile types asked, but only {n} chars are available to name them",
        n = TYPE_ALPHABET.len()
    )]
    TooManyTypes(usize),
    /// More than [`MAX_CELLS`] cells.
    #[error("board size {rows}×{cols}: more than {MAX_CELLS} cells")]
    TooManyCells {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// The tiles and obstacles take more cells than the board has.
    #[error(
        "{types} types × {copies} copies + {obstacles} obstacles do not fit on a \
         {rows}×{cols} board ({cells} cells)",
        cells = rows * cols
    )]
    DoesNotFit {
        /// Tile types asked for.
        types: usize,
        /// Copies of each type.
        copies: usize,
        /// Obstacles asked for.
        obstacles: usize,
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
}

/// A random board following `spec`. Errors (one line, naming the numbers) when the copies
/// are odd or zero, when there are more types than chars to name them, or when the tiles
/// and obstacles do not fit on the board.
pub fn generate(spec: &GenSpec) -> Result<Board, GenError> {
    let &GenSpec {
        rows,
        cols,
        types,
        copies,
        obstacles,
        seed,
    } = spec;
    if rows == 0 || cols == 0 {
        return Err(GenError::Empty { rows, cols });
    }
    if rows > crate::board::MAX_SIDE || cols > crate::board::MAX_SIDE {
        return Err(GenError::TooLong { rows, cols });
    }
    if copies == 0 || copies % 2 == 1 {
        return Err(GenError::Copies(copies));
    }
    if types > TYPE_ALPHABET.len() {
        return Err(GenError::TooManyTypes(types));
    }
    let cells = rows
        .checked_mul(cols)
        .filter(|&n| n <= MAX_CELLS)
        .ok_or(GenError::TooManyCells { rows, cols })?;
    let needed = types
        .checked_mul(copies)
        .and_then(|t| t.checked_add(obstacles))
        .filter(|&n| n <= cells)
        .ok_or(GenError::DoesNotFit {
            types,
            copies,
            obstacles,
            rows,
            cols,
        })?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut content: Vec<Cell> = Vec::with_capacity(cells);
    for t in 0..types {
        let ch = type_char(t).expect("checked against the alphabet above");
        content.extend(std::iter::repeat_n(Cell::Tile(ch), copies));
    }
    content.extend(std::iter::repeat_n(Cell::Obstacle, obstacles));
    content.extend(std::iter::repeat_n(Cell::Empty, cells - needed));
    content.shuffle(&mut rng);
    let mut board = Board::new(rows, cols);
    for (i, cell) in content.into_iter().enumerate() {
        board.set(Pos::new(i / cols, i % cols), cell);
    }
    Ok(board)
}

/// A board filled at random: `obstacles` obstacles, then about `fill` of the remaining
/// cells with tiles in pairs of `types` types (each type used an even number of times,
/// as in a real game), the rest empty as if already cleared.
pub fn random_board(
    rows: usize,
    cols: usize,
    types: usize,
    fill: f32,
    obstacles: usize,
    rng: &mut impl Rng,
) -> Board {
    let mut board = Board::new(rows, cols);
    let mut cells: Vec<Pos> = board.positions().collect();
    cells.shuffle(rng);
    let obstacles = obstacles.min(cells.len());
    for &p in &cells[..obstacles] {
        board.set(p, Cell::Obstacle);
    }
    let free = &cells[obstacles..];
    let pairs = ((free.len() as f32 * fill.clamp(0.0, 1.0)) as usize) / 2;
    let types = types.clamp(1, TYPE_ALPHABET.len());
    let mut kinds: Vec<u8> = (0..pairs)
        .flat_map(|k| {
            let t = type_char(k % types).unwrap_or(b'A');
            [t, t]
        })
        .collect();
    kinds.shuffle(rng);
    for (&p, &t) in free.iter().zip(&kinds) {
        board.set(p, Cell::Tile(t));
    }
    board
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_reproducible() {
        let spec = GenSpec {
            rows: 8,
            cols: 12,
            types: 20,
            copies: 4,
            obstacles: 5,
            seed: 7,
        };
        let b = generate(&spec).unwrap();
        assert_eq!((b.rows(), b.cols()), (8, 12));
        let counts = b.type_counts();
        assert_eq!(counts.len(), 20);
        assert!(counts.values().all(|&n| n == 4));
        let obstacles = b.cells().iter().filter(|&&c| c == Cell::Obstacle).count();
        assert_eq!(obstacles, 5);
        assert_eq!(generate(&spec).unwrap(), b);
        assert_ne!(generate(&GenSpec { seed: 8, ..spec }).unwrap(), b);
    }

    #[test]
    fn full_board_of_odd_size() {
        let b = generate(&GenSpec::full(11, 19, 4, 1)).unwrap();
        assert_eq!(b.tile_count(), 208);
        assert!(b.check_even().is_ok());
    }

    #[test]
    fn bad_specs_are_explained() {
        let ok = GenSpec::full(4, 4, 2, 0);
        let e = generate(&GenSpec { copies: 3, ..ok })
            .unwrap_err()
            .to_string();
        assert!(e.contains("even"), "{e}");
        let e = generate(&GenSpec { types: 9, ..ok })
            .unwrap_err()
            .to_string();
        assert!(e.contains("do not fit") && e.contains("4×4"), "{e}");
        let e = generate(&GenSpec {
            rows: usize::MAX,
            cols: 3,
            ..ok
        })
        .unwrap_err()
        .to_string();
        assert!(e.contains("at most 256 rows"), "{e}");
        let e = generate(&GenSpec { rows: 0, ..ok })
            .unwrap_err()
            .to_string();
        assert!(e.contains("at least 1"), "{e}");
        let e = generate(&GenSpec {
            rows: 100,
            cols: 100,
            types: 500,
            ..ok
        })
        .unwrap_err()
        .to_string();
        assert!(e.contains("chars"), "{e}");
        let e = generate(&GenSpec {
            types: usize::MAX,
            ..ok
        })
        .unwrap_err()
        .to_string();
        assert!(e.contains("chars"), "{e}");
    }
}
