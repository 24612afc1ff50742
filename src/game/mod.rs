//! The bundled practice games: real windows the bot can play without installing anything.
//!
//! Each game keeps its rules in a pure module (unit-tested without a display) and its
//! window loop in another; the window only forwards clicks and time, and logs the events
//! the rules produce. Lianliankan lives in [`logic`] and [`window`]; the sliding puzzle in
//! [`slide`] and [`slide_window`].

pub mod logic;
mod shell;
pub mod slide;
pub mod slide_window;
pub mod window;

pub use logic::{Event, Game, GameConfig, ShuffleReason, Stats};
pub use window::{read_log, run, verdict, Outcome, WindowConfig};
