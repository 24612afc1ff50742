//! llk — a desktop agent that plays tile puzzles by looking at the screen.
//!
//! The modules follow the pipeline, one stage each, with plain data types between them:
//!
//! ```text
//! frame (RgbaImage) ──vision──▶ Grid + Board ──plan──▶ Vec<Link> ──agent──▶ clicks
//!       ▲                                                            │
//!       └──────────── capture (live window or recorded folder) ◀─────┘ verify
//! ```
//!
//! - [`vision`] is where a pixel becomes a tile: it finds the [`geometry::Grid`] and reads a
//!   [`board::Board`] from a frame.
//! - [`board`] holds the rules (links of ≤ 2 turns, the outside ring, gravity) and
//!   [`plan`] orders the removals.
//! - [`agent`] is where a tile becomes a click: it turns planned moves into clicks through
//!   [`input`], and checks them with frames from [`capture`].
//! - [`render`] draws boards as a game would (fixtures, the bundled game) and annotates
//!   frames for debugging.
//! - [`slide`] and [`puzzles`] are the other puzzles; [`search`] holds the generic searches
//!   they share.
//!
//! Only `capture`, `input` and the game windows touch the OS; every other stage is pure and usable
//! offline from a PNG.

#![warn(missing_docs)]

pub mod agent;
pub mod board;
pub mod capture;
pub mod error;
pub mod game;
pub mod geometry;
pub mod input;
pub mod plan;
pub mod puzzles;
pub mod render;
pub mod search;
pub mod slide;
pub mod vision;
