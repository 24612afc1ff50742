//! The bundled practice games: real windows the bot can play without installing anything.
//!
//! Each game keeps its rules in a pure module (unit-tested without a display, built without
//! the `live` feature so the play loops' simulator tests run in the pure build too) and its
//! window loop in another (minifb, `live` only); the window only forwards clicks and time,
//! and logs the events the rules produce. Lianliankan lives in `logic` and `window`, with
//! `headless` the window's picture and clicks without a display; the sliding puzzle in
//! `slide` and `slide_window`.

pub mod headless;
pub mod logic;
#[cfg(feature = "live")]
mod shell;
pub mod slide;
#[cfg(feature = "live")]
pub mod slide_window;
#[cfg(feature = "live")]
pub mod window;

pub use headless::Headless;
pub use logic::{ConfigError, Event, Game, GameConfig, ShuffleReason, Stats};
#[cfg(feature = "live")]
pub use shell::{GameLogError, WindowError};
pub use slide::SlideConfigError;
#[cfg(feature = "live")]
pub use window::{read_log, run, verdict, GameOutcome, WindowConfig};
