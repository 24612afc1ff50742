//! The two stages the play loop consults, as small traits: [`Eyes`] (a frame to a board)
//! and [`Brain`] (a board to moves).
//!
//! The loop is written against these rather than against `vision` and `plan` directly so
//! that its own logic (verify, retry, re-plan) can be tested against a simulated game with
//! exact eyes, and so a replay can swap in the same stages it recorded with.

use crate::board::{removable_pairs, Board, Link, Rules};
use crate::geometry::Grid;
use crate::plan::Outcome;
use crate::vision::{ReadError, Reading};
use image::RgbaImage;

/// Reads boards from frames, as [`crate::vision`] does: a [`Reading`], or a [`ReadError`]
/// saying why there is none. `grid` is the grid locked from an earlier good read of this
/// game (a nearly empty board has too few tiles to find one); `None` means find it.
pub trait Eyes {
    /// Reads `frame`; on a locked `grid` only the cells are classified.
    fn read(&mut self, frame: &RgbaImage, grid: Option<&Grid>) -> Result<Reading, ReadError>;

    /// Told that `board`, as `frame` shows it on `grid`, is the board the loop plays (read
    /// with confidence, and weighed against the board before): its empty cells show the
    /// ground there. Eyes that read pixels remember it, since a game's emptied cells look
    /// the same for the rest of the game ([`crate::vision::GroundMemory`]); eyes that read
    /// no pixels (a simulated game's) have nothing to learn.
    fn ground_seen(&mut self, _frame: &RgbaImage, _grid: &Grid, _board: &Board) {}

    /// Forgets the ground [`Eyes::ground_seen`] taught; whether there was any. A tile a
    /// wrong reading once left out is remembered as the ground of its cell, and read as
    /// ground for the rest of the game.
    fn forget_ground(&mut self) -> bool {
        false
    }
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
