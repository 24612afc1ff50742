//! Puzzles beyond Lianliankan on one small search API, so the bot can take on whatever a
//! user points it at.
//!
//! - [`problem`]: single-agent puzzles — a [`problem::Problem`] states its actions, their
//!   results, the goal test, step costs and an optional heuristic; BFS, Dijkstra and A*
//!   (from the `pathfinding` crate) solve any of them. [`maze`] and [`river`] are built on it.
//! - [`adversarial`]: two-player games — a [`adversarial::Game`] states its moves, their
//!   results, when it is over and a heuristic; minimax, alpha-beta and negamax play any of
//!   them. [`ttt`] (tic-tac-toe) and [`c4`] (connect four) are built on it.
//! - [`play`]: a terminal game loop over any game, generic over the input and output streams.

pub mod adversarial;
pub mod c4;
pub mod maze;
pub mod problem;
pub mod river;
pub mod terminal;
pub mod ttt;
