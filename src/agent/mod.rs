//! The agent: where a tile becomes a click.
//!
//! [`play`] is the live loop (capture → read → plan → click → verify → re-plan), written
//! against two small traits from [`stages`] so it can be tested on a simulated game;
//! [`verify`] holds the pixel checks that tell a lost click from a slow game; [`record`] and
//! [`replay`] save a session and re-check every decision in it offline; [`gravity_watch`]
//! finds a game's gravity from its first removals, and [`longest`] the longest sequence on a
//! deal that cannot be cleared.

pub mod gravity_watch;
pub mod longest;
pub mod pipeline;
pub mod play;
pub mod profile;
pub mod record;
pub mod replay;
pub mod stages;
pub mod verify;

pub use gravity_watch::GravityWatch;
pub use play::{PlayError, PlayFault, PlayOptions, Player, Stop, Summary};
pub use record::{read_session, Entry, RecordError, SessionWriter, Timings};
pub use replay::{replay_session, Check, ReplayError};
pub use stages::{Brain, Eyes, FirstPair, Proposal};

#[cfg(test)]
mod sim_tests;
