//! Sliding-tile puzzles (8-, 15-, 24-puzzle and any n × m board from 2×2 to 8×8): the model,
//! every classic search behind one call, pattern databases, and benchmark files.
//!
//! Everything searches towards the blank-first goal (`0 1 2 …`, Korf's convention); a
//! blank-last board (`1 2 … 0`, as in games) is rotated 180° and relabelled first, which maps
//! one goal onto the other, and the moves are flipped back. So one set of pattern tables
//! serves both conventions.
//!
//! ```
//! use llk::slide::{solve, Algo, Goal, Heuristic, Limits, Puzzle};
//! let p = Puzzle::parse("1 2 3 4 5 6 0 7 8", None).unwrap();
//! let s = solve(&p, &Goal::BlankLast, Algo::Idastar, Heuristic::Manhattan, &Limits::default())
//!     .unwrap();
//! assert_eq!(llk::slide::moves_to_string(&s.moves), "RR");
//! assert_eq!(s.tiles_moved, vec![7, 8]);
//! ```

pub mod bench;
pub mod fast;
pub mod heuristic;
pub mod ida;
pub mod pdb;
pub mod pdb_build;
pub mod pdb_bytes;
pub mod player;
pub mod puzzle;
pub mod reduce;
pub mod screen;
pub mod solve;
pub mod wastar;

pub use bench::BenchError;
pub use heuristic::Heuristic;
pub use pdb::PdbError;
pub use player::SlidePlayError;
pub use puzzle::{moves_from_str, moves_to_string, parse_size, Dir, Goal, Puzzle, PuzzleError};
pub use screen::ScreenError;
pub use solve::{
    solve, solve_with, stored_node_bytes, Algo, Bound, GaveUp, Limits, Solution, SolveError,
    DEFAULT_MAX_MEMORY, DEFAULT_WEIGHTS,
};
