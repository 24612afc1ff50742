//! The real stages behind [`Eyes`] and [`Brain`]: the project's reader ([`crate::vision`])
//! and planner ([`crate::plan`]).

use super::longest::{longest_sequence, Budget};
use super::stages::{Brain, Eyes, Proposal};
use crate::board::{Board, Rules};
use crate::error::UnknownName;
use crate::geometry::Grid;
use crate::plan::{plan, Outcome, PlanOptions, Strategy};
use crate::vision::{
    is_sure, read_auto, GroundMemory, Hints, ReadError, ReaderChoice, ReaderConfig, Reading, Target,
};
use image::RgbaImage;

/// The vision stage: finds the grid on the first read (with optional size hints), reads
/// cells on a locked grid afterwards.
#[derive(Clone, Debug, Default)]
pub struct Vision {
    /// Board size and search region hints passed to the reader.
    pub hints: Hints,
    /// The board reader (legacy pass chain, the stage reader, or `auto`). `Auto` becomes
    /// the reader that gave the first sure reading ([`read_auto`]), and stays for the game:
    /// one reader's view of the board from start to end.
    pub reader: ReaderChoice,
    /// `reader` came from what an earlier session saved (a profile), not from the user:
    /// until it gives a sure reading, `auto` reads each frame it is not sure of too and a
    /// sure reading from that is taken. A reader that suited one deal can refuse or doubt
    /// the next, and a saved choice must not leave the bot blind.
    pub fallback: bool,
    /// The ground of the cells the loop saw empty on its locked grid
    /// ([`Eyes::ground_seen`]); reads on that grid empty the cells showing it.
    pub memory: Option<GroundMemory>,
}

impl Eyes for Vision {
    fn read(&mut self, frame: &RgbaImage, grid: Option<&Grid>) -> Result<Reading, ReadError> {
        let at = match (grid, &self.memory) {
            (Some(g), Some(m)) if m.grid() == g => Target::Remembering(g, m),
            (Some(g), _) => Target::Grid(g),
            (None, _) => Target::Find(&self.hints),
        };
        let (mut r, mut by) = read_auto(self.reader, frame, at);
        if self.fallback && self.reader != ReaderChoice::Auto && !r.as_ref().is_ok_and(is_sure) {
            let (other, other_by) = read_auto(ReaderChoice::Auto, frame, at);
            if other.as_ref().is_ok_and(is_sure) {
                (r, by) = (other, other_by);
            }
        }
        if r.as_ref().is_ok_and(is_sure) {
            self.reader = by;
            self.fallback = false;
        }
        r
    }

    fn ground_seen(&mut self, frame: &RgbaImage, grid: &Grid, board: &Board) {
        let memory = match &mut self.memory {
            Some(m) if m.grid() == grid => m,
            other => other.insert(GroundMemory::new(*grid)),
        };
        memory.learn(frame, board, &ReaderConfig::default());
    }

    fn forget_ground(&mut self) -> bool {
        self.memory.take().is_some()
    }
}

/// The planner. Plans are kept reproducible (a state budget, no wall-clock limit) so a
/// recorded session replays to the same moves; when the search gives up or proves the
/// board unclearable, the longest sequence [`longest_sequence`] finds (never shorter than
/// the greedy order) is played instead, and the outcome says why the board is not cleared.
#[derive(Clone, Copy, Debug)]
pub struct Planner {
    /// How the next pair is chosen.
    pub strategy: Strategy,
    /// Most states the search may visit for one plan (no wall-clock limit, so plans replay identically).
    pub max_states: u64,
}

impl Default for Planner {
    fn default() -> Self {
        Planner {
            strategy: Strategy::Search,
            max_states: 200_000,
        }
    }
}

impl Planner {
    /// Rebuilds the planner from its recorded [`Brain::name`] ("search/200000").
    pub fn from_name(name: &str) -> Result<Planner, PlannerNameError> {
        let bad = |why| PlannerNameError {
            name: name.to_string(),
            why,
        };
        let (s, n) = name
            .split_once('/')
            .ok_or_else(|| bad(PlannerNameFault::Shape))?;
        Ok(Planner {
            strategy: s.parse().map_err(|e| bad(PlannerNameFault::Strategy(e)))?,
            max_states: n
                .parse()
                .map_err(|_| bad(PlannerNameFault::StateCount(n.to_string())))?,
        })
    }
}

/// A recorded planner name [`Planner::from_name`] cannot read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("planner {name:?}: {why}")]
pub struct PlannerNameError {
    /// The name as recorded.
    pub name: String,
    /// What is wrong with it.
    pub why: PlannerNameFault,
}

/// What is wrong with a recorded planner name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlannerNameFault {
    /// Not of the form STRATEGY/MAX_STATES.
    #[error("expected STRATEGY/MAX_STATES")]
    Shape,
    /// The strategy is not one llk knows.
    #[error(transparent)]
    Strategy(UnknownName),
    /// The part after the slash is not a number.
    #[error("{0:?} is not a state count")]
    StateCount(String),
}

impl Brain for Planner {
    fn plan(&mut self, board: &Board, rules: &Rules) -> Proposal {
        let opts = PlanOptions {
            strategy: self.strategy,
            max_states: self.max_states,
            max_time: None,
        };
        let mut p = plan(board, rules, &opts);
        let mut states = p.states;
        if p.moves.is_empty() && matches!(p.outcome, Outcome::GaveUp | Outcome::Unsolvable) {
            let greedy = PlanOptions {
                strategy: Strategy::Greedy,
                ..opts
            };
            let g = plan(board, rules, &greedy);
            states += g.states;
            p.moves = longest_sequence(board, rules, Budget::default(), g.moves);
        }
        Proposal {
            moves: p.moves,
            outcome: p.outcome,
            states,
        }
    }

    fn name(&self) -> String {
        format!("{}/{}", self.strategy, self.max_states)
    }
}
