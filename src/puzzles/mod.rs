//! Puzzles beyond Lianliankan on one small search API, so the bot can take on whatever a
//! user points it at.
//!
//! - Single-agent puzzles: [`maze`] and [`river`] are [`crate::search::Problem`]s, solved
//!   by the generic BFS, Dijkstra and A* of [`crate::search`].
//! - [`adversarial`]: two-player games — a [`adversarial::TwoPlayerGame`] states its moves,
//!   their results, when it is over and a heuristic; minimax, alpha-beta and negamax play any
//!   of them. [`ttt`] (tic-tac-toe) and [`c4`] (connect four) are built on it.
//! - [`terminal`]: a terminal game loop over any game, generic over the input and output
//!   streams.

pub mod adversarial;
pub mod c4;
pub mod maze;
pub mod river;
pub mod terminal;
pub mod ttt;
