//! The two stages the play loop consults, as small traits: [`Eyes`] (a frame to a board)
//! and [`Brain`] (a board to moves).
//!
//! The loop is written against these rather than against `vision` and `plan` directly so
//! that its own logic (verify, retry, re-plan) can be tested against a simulated game with
//! exact eyes, and so a replay can swap in the same stages it recorded with.

use crate::board::{removable_pairs, Board, Link, Pos, Rules};
use crate::geometry::Grid;
use crate::plan::Outcome;
use image::RgbaImage;
use std::fmt;

/// What was read from a frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Seen {
    /// Where the cells are, in frame pixels.
    pub grid: Grid,
    /// The cells read.
    pub board: Board,
    /// Cells the reader doubts.
    pub unsure: Vec<Pos>,
    /// Tiles the game shows as selected (or hovered).
    pub selected: Vec<Pos>,
}

/// Why a frame gave no board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Blind {
    /// Something is moving (a link, a fading pair): capture again shortly.
    Animation(String),
    /// No board here, or one that makes no sense.
    NoBoard(String),
    /// A picture of something else than Lianliankan (tiles that do not come in pairs, a
    /// sliding puzzle): never to be clicked.
    NotLianliankan(String),
}

impl Blind {
    /// "animation", "no-board" or "not-lianliankan", as vision's error kinds.
    pub fn kind(&self) -> &'static str {
        match self {
            Blind::Animation(_) => "animation",
            Blind::NoBoard(_) => "no-board",
            Blind::NotLianliankan(_) => "not-lianliankan",
        }
    }
}

impl fmt::Display for Blind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Blind::Animation(m) => write!(f, "animation: {m}"),
            Blind::NoBoard(m) => write!(f, "no board: {m}"),
            Blind::NotLianliankan(m) => write!(f, "not a Lianliankan board: {m}"),
        }
    }
}

/// Reads boards from frames. `grid` is the grid locked from an earlier good read of this
/// game (a nearly empty board has too few tiles to find one); `None` means find it.
pub trait Eyes {
    /// Reads `frame`; on a locked `grid` only the cells are classified.
    fn read(&mut self, frame: &RgbaImage, grid: Option<&Grid>) -> Result<Seen, Blind>;
}

/// What a planner proposes for a board.
#[derive(Clone, Debug, PartialEq)]
pub struct Proposal {
    /// Moves in play order, each legal on the board left by the ones before it.
    pub moves: Vec<Link>,
    /// The planner's verdict: the moves clear the board, reach a dead end, or stop short
    /// (a budget, or a brain that proposes one move at a time).
    pub outcome: Outcome,
    /// States examined, for logs.
    pub states: u64,
}

/// Chooses moves for a board.
pub trait Brain {
    /// Moves for `board` in play order (empty when none is possible).
    fn plan(&mut self, board: &Board, rules: &Rules) -> Proposal;
    /// A short name written into recordings, so a replay can rebuild the same brain.
    fn name(&self) -> String;
}

/// The simplest brain: the first removable pair in row-major order, one move at a time.
/// The loop re-plans after every surprise anyway; tests use it as a planner that cannot be
/// wrong about legality.
#[derive(Clone, Copy, Debug, Default)]
pub struct FirstPair;

impl Brain for FirstPair {
    fn plan(&mut self, board: &Board, rules: &Rules) -> Proposal {
        let pairs = removable_pairs(board, rules);
        Proposal {
            // One move at a time: the rest is left to the next plan, as a search that ran
            // out of budget leaves it.
            outcome: if board.is_clear() {
                Outcome::Cleared
            } else if pairs.is_empty() {
                Outcome::Stuck
            } else {
                Outcome::GaveUp
            },
            states: pairs.len() as u64,
            moves: pairs.into_iter().take(1).collect(),
        }
    }

    fn name(&self) -> String {
        "first-pair".into()
    }
}
