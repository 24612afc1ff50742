//! The planner: the whole order in which to remove the pairs so the board ends up clear.
//!
//! Removing a pair that links now can wall in another pair later (more so under gravity,
//! where every removal moves tiles), so the order matters. Three strategies:
//!
//! - [`Strategy::Greedy`] takes the first removable pair in reading order — the baseline
//!   other bots use;
//! - [`Strategy::Paper`] takes the pair of least F(A,B) = (S/2 − 1) + G(A) + G(B), the
//!   published one-step heuristic (see [`paper_score`]), never undoing a choice;
//! - [`Strategy::Search`] walks the same ordering depth-first with backtracking and a
//!   transposition table ([`dfs::informed_dfs`]), so it only fails when no clearing order
//!   exists (and then says so) or when its budget runs out.
//!
//! The inner loop runs on the padded byte grid of [`padded`], which mirrors `board::link`
//! and `board::gravity` exactly (tested against them); every move handed back is a
//! [`Link`] relative to the board at that step, which [`replay`] checks with
//! [`check_link`].

pub mod dfs;
pub mod exhaustive;
mod freebits;
pub mod generate;
pub mod padded;
mod pairing;

use crate::board::{check_link, Board, Gravity, IllegalLink, Link, Rules};
use crate::error::UnknownName;
use dfs::{informed_dfs_with_table, DfsBudget, DfsOutcome, DfsResult};
use padded::{Ctx, Idx, State};
use std::collections::HashSet;
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

pub use generate::{generate, GenError, GenSpec};

/// How the planner picks the next pair.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Strategy {
    /// The first removable pair found, each time (no look-ahead).
    Greedy,
    /// The published F(A, B) heuristic: the removable pair with the lowest score.
    Paper,
    #[default]
    /// Informed depth-first search with backtracking and a transposition table.
    Search,
}

impl Strategy {
    /// Every strategy, in the order the benchmark lists them.
    pub const ALL: [Strategy; 3] = [Strategy::Greedy, Strategy::Paper, Strategy::Search];

    /// The name used on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Greedy => "greedy",
            Strategy::Paper => "paper",
            Strategy::Search => "search",
        }
    }
}

impl fmt::Display for Strategy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Strategy {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Strategy::ALL
            .into_iter()
            .find(|x| x.name() == s)
            .ok_or_else(|| UnknownName::new("strategy", s, Strategy::ALL.map(|x| x.name())))
    }
}

/// The strategy and its budget. Every strategy honours the budget, the search's opening
/// greedy pass and the building of the returned paths included: a live bot never hangs on a
/// hard or huge board, it gets [`Outcome::GaveUp`] (with the moves made so far by greedy
/// and paper) and can fall back to a greedy move. A budget is checked once a move, so it is
/// overshot by at most one move's work (measured: --max-ms 100 on a 256×256 board ends
/// within 0.2 s, see `tests/regression.rs`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PlanOptions {
    /// How to pick moves.
    pub strategy: Strategy,
    /// Boards expanded before giving up.
    pub max_states: u64,
    /// Wall-clock time before giving up.
    pub max_time: Option<Duration>,
}

impl Default for PlanOptions {
    fn default() -> Self {
        PlanOptions {
            strategy: Strategy::Search,
            max_states: 2_000_000,
            max_time: Some(Duration::from_secs(2)),
        }
    }
}

/// How planning ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// The moves clear the board.
    Cleared,
    /// Greedy or paper reached a board with tiles left and no removable pair; the moves are
    /// those made before it.
    Stuck,
    /// The search proved that no order clears the board (or a type has an odd count).
    Unsolvable,
    /// The budget ran out: the search knows nothing; greedy and paper return the moves made
    /// before it ran out.
    GaveUp,
}

impl Outcome {
    /// A short lower-case name for text and JSON output.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Cleared => "cleared",
            Outcome::Stuck => "stuck",
            Outcome::Unsolvable => "unsolvable",
            Outcome::GaveUp => "gave-up",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A planned elimination order.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Plan {
    /// Whether the moves clear the board, and if not, why.
    pub outcome: Outcome,
    /// Each move relative to the board left by the moves before it.
    pub moves: Vec<Link>,
    /// Boards examined (search: nodes expanded; greedy/paper: one per step).
    pub states: u64,
    /// Planning time in microseconds.
    pub micros: u64,
}

impl Plan {
    /// Whether the moves clear the board.
    pub fn solved(&self) -> bool {
        self.outcome == Outcome::Cleared
    }
}

/// Plans the removal order of `board` under `rules` with the chosen strategy.
///
/// ```
/// use llk::board::{Board, Cell, Gravity, Rules};
/// use llk::plan::{plan, replay, Outcome, PlanOptions};
/// // B-B must go first: A's two tiles are walled apart until it does.
/// let board = Board::parse("AB#\n#BA").unwrap();
/// let rules = Rules { outside: false, gravity: Gravity::None };
/// let p = plan(&board, &rules, &PlanOptions::default());
/// assert_eq!(p.outcome, Outcome::Cleared);
/// assert_eq!(p.moves.len(), 2);
/// assert_eq!(board.get(p.moves[0].a), Cell::Tile(b'B'));
/// // Every move is legal on the board the ones before it leave, and the board ends clear.
/// assert!(replay(&board, &rules, &p.moves).unwrap().is_clear());
/// ```
pub fn plan(board: &Board, rules: &Rules, opts: &PlanOptions) -> Plan {
    let t0 = Instant::now();
    let finish = |outcome, moves, states| Plan {
        outcome,
        moves,
        states,
        micros: t0.elapsed().as_micros() as u64,
    };
    if board.check_even().is_err() {
        return finish(Outcome::Unsolvable, Vec::new(), 0);
    }
    // A Board holds at most 94 distinct chars, below the padded grid's 254 ids.
    let (ctx, start) = Ctx::new(board, rules).expect("a Board has at most 94 tile types");
    let limits = DfsBudget {
        max_states: opts.max_states,
        deadline: opts.max_time.map(|d| t0 + d),
    };
    let (outcome, _, moves, states) = match opts.strategy {
        Strategy::Greedy => one_pass(&ctx, &start, &limits, true, |ctx, st, groups, _| {
            ctx.first_pair(st, groups)
        }),
        Strategy::Paper => one_pass(&ctx, &start, &limits, true, |ctx, st, groups, pairs| {
            ctx.pairs(st, groups, pairs);
            let scorer = PaperScorer::new(ctx, st);
            let mut best: Option<((Idx, Idx), f64)> = None;
            for &(a, b) in pairs.iter() {
                let f = scorer.score(ctx, st, groups, a, b);
                if best.is_none_or(|(_, g)| f < g) {
                    best = Some(((a, b), f));
                }
            }
            best.map(|(m, _)| m)
        }),
        Strategy::Search => {
            let (outcome, idx_moves, states) = run_search(&ctx, &start, opts, &limits);
            // The paths are built inside the budget too: a clearing order whose paths are
            // not all built in time is no plan (nothing is returned, as on a give-up).
            match links(&ctx, &start, &idx_moves, limits.deadline) {
                Some(moves) => (outcome, Vec::new(), moves, states),
                None => (Outcome::GaveUp, Vec::new(), Vec::new(), states),
            }
        }
    };
    finish(outcome, moves, states)
}

/// Greedy and paper: pick a move, make it, repeat; never undo. Stops with
/// [`Outcome::GaveUp`] before a move once `limits.max_states` moves are made or the deadline
/// has passed. With `paths`, each move's link path is built as it is made (inside the
/// budget) and returned; otherwise the links are empty.
fn one_pass(
    ctx: &Ctx,
    start: &State,
    limits: &DfsBudget,
    paths: bool,
    mut pick: impl FnMut(&Ctx, &State, &mut Vec<Vec<Idx>>, &mut Vec<(Idx, Idx)>) -> Option<(Idx, Idx)>,
) -> (Outcome, Vec<(Idx, Idx)>, Vec<Link>, u64) {
    let mut st = start.clone();
    let (mut groups, mut pairs, mut moves) = (Vec::new(), Vec::new(), Vec::new());
    let mut links = Vec::new();
    let mut states = 0;
    while st.tiles > 0 {
        let late = limits.deadline.is_some_and(|d| Instant::now() >= d);
        if states >= limits.max_states || late {
            return (Outcome::GaveUp, moves, links, states);
        }
        states += 1;
        let Some((a, b)) = pick(ctx, &st, &mut groups, &mut pairs) else {
            return (Outcome::Stuck, moves, links, states);
        };
        if paths {
            links.push(link_of(ctx, &st, a, b));
        }
        ctx.remove(&mut st, a, b);
        moves.push((a, b));
    }
    (Outcome::Cleared, moves, links, states)
}

/// The search strategy on the padded grid.
fn run_search(
    ctx: &Ctx,
    start: &State,
    opts: &PlanOptions,
    limits: &DfsBudget,
) -> (Outcome, Vec<(Idx, Idx)>, u64) {
    // A greedy pass first: it costs one dive (well under a millisecond at 11×19) and now
    // and then clears a board whose heuristic order leads the search into a subtree too
    // big for the budget. Its states count toward the total, and it stops at the budget
    // like the search (then nothing is known: its moves are not a plan).
    let (outcome, moves, _, greedy_states) =
        one_pass(ctx, start, limits, false, |ctx, st, groups, _| {
            ctx.first_pair(st, groups)
        });
    match outcome {
        Outcome::Cleared => return (outcome, moves, greedy_states),
        Outcome::GaveUp => return (outcome, Vec::new(), greedy_states),
        _ => {}
    }
    let limits = *limits;
    let limits = DfsBudget {
        max_states: limits.max_states.saturating_sub(greedy_states),
        ..limits
    };
    let no_gravity = ctx.gravity() == Gravity::None;
    if no_gravity && pairing::applies(ctx, start) {
        let mut dead = HashSet::new();
        let res = restarted(limits.max_states, limits.deadline, |run, lim| {
            pairing::search(ctx, start, run, &mut dead, lim)
        });
        let (o, m, n) = finish_search(res);
        return (o, m, n + greedy_states);
    }
    let (mut groups, mut pairs) = (Vec::new(), Vec::new());
    // Restarts: a depth-first search that takes one bad turn near the root can spend its
    // whole budget below it, while another order clears the board in a few hundred states.
    // So run 0 follows the heuristic exactly, and each later run (with a larger budget)
    // follows it with random noise added. The table of refuted boards is kept across runs,
    // so no refutation is redone, and a run that exhausts the tree is still a proof.
    let mut dead = HashSet::new();
    let res = restarted(opts.max_states, limits.deadline, |run, lim| {
        let res = informed_dfs_with_table(
            start.clone(),
            |st: &State| {
                ctx.pairs(st, &mut groups, &mut pairs);
                if let Some(m) = safe_move(ctx, st, &groups, &pairs) {
                    return vec![(m, 0.0)];
                }
                let scorer = PaperScorer::new(ctx, st);
                pairs
                    .iter()
                    .map(|&(a, b)| ((a, b), scorer.score(ctx, st, &groups, a, b)))
                    .collect::<Vec<_>>()
            },
            |st, &((a, b), _)| {
                let mut next = st.clone();
                ctx.remove(&mut next, a, b);
                next
            },
            |_, &((a, b), f)| f + restart_noise(run, a, b),
            |st| st.hash,
            |st| st.tiles == 0,
            &mut dead,
            lim,
        );
        DfsResult {
            outcome: match res.outcome {
                DfsOutcome::Found(m) => {
                    DfsOutcome::Found(m.into_iter().map(|(ab, _)| ab).collect())
                }
                DfsOutcome::Exhausted => DfsOutcome::Exhausted,
                DfsOutcome::GaveUp => DfsOutcome::GaveUp,
            },
            states: res.states,
        }
    });
    let (o, m, n) = finish_search(res);
    (o, m, n + greedy_states)
}

/// Runs `run_once(run, limits)` on the restart schedule until a run finds a goal or
/// exhausts the tree, the budget of states is spent, or the deadline passes; the states of
/// all runs are added up. `run_once` keeps its table of refuted nodes across runs, so no
/// refutation is redone and a run that exhausts the tree is still a proof.
fn restarted<M>(
    max_states: u64,
    deadline: Option<Instant>,
    mut run_once: impl FnMut(u64, &DfsBudget) -> DfsResult<M>,
) -> DfsResult<M> {
    let mut total = 0u64;
    let mut budget = FIRST_RUN_STATES;
    let mut run = 0u64;
    loop {
        let left = max_states.saturating_sub(total);
        let last = left <= budget * 3;
        let lim = DfsBudget {
            max_states: if last { left } else { budget },
            deadline,
        };
        let res = run_once(run, &lim);
        total += res.states;
        let out_of_time = deadline.is_some_and(|d| Instant::now() >= d);
        if !matches!(res.outcome, DfsOutcome::GaveUp) || last || out_of_time {
            return DfsResult {
                outcome: res.outcome,
                states: total,
            };
        }
        budget += budget * RESTART_GROWTH_PERCENT / 100;
        run += 1;
    }
}

/// What a restart adds to F: nothing in run 0, noise in [0, [`RESTART_NOISE`]) after.
fn restart_noise(run: u64, a: Idx, b: Idx) -> f64 {
    if run == 0 {
        0.0
    } else {
        RESTART_NOISE * unit_noise(run, a, b)
    }
}

/// States of the first run of the restarted search.
///
/// Short runs with strong noise clear more boards in the same budget than few long runs
/// that stay close to F: the time to clear a board is heavy-tailed in the move order, and
/// the table of refuted boards keeps what each run proved. On `llk bench plan --size 11x19
/// --fill 80 --gravity down` (boards 0–199) these settings (128 states growing by 30 %,
/// noise in [0, 3)) give up on 8 boards where 512 states doubling with noise in [0, 1)
/// give up on 24; on boards from `--seed 1000`, 17 against 19 under `down` and 14 against
/// 30 under `center-v`.
const FIRST_RUN_STATES: u64 = 128;

/// How much longer each run is than the one before, in percent.
const RESTART_GROWTH_PERCENT: u64 = 30;

/// Scale of the noise added to F in runs after the first (F itself spans about 0–5).
const RESTART_NOISE: f64 = 3.0;

/// A deterministic pseudo-random number in [0, 1) for a move in a restart (splitmix64).
fn unit_noise(run: u64, a: Idx, b: Idx) -> f64 {
    let mut z = (run << 42 ^ (a as u64) << 21 ^ b as u64).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// The planner's outcome for a search result.
fn finish_search(res: DfsResult<(Idx, Idx)>) -> (Outcome, Vec<(Idx, Idx)>, u64) {
    match res.outcome {
        DfsOutcome::Found(m) => (Outcome::Cleared, m, res.states),
        DfsOutcome::Exhausted => (Outcome::Unsolvable, Vec::new(), res.states),
        DfsOutcome::GaveUp => (Outcome::GaveUp, Vec::new(), res.states),
    }
}

/// A move that loses no solution, taken without branching.
///
/// Without gravity a removal only ever frees cells, so a pair that links now links after any
/// other moves too. Hence when every tile of a type can be paired off by links available
/// now (2 tiles linked, or 4 tiles forming two linked pairs), removing them first loses no
/// solution: any clearing order stays legal with those removals moved to the front (and
/// its own removals of that type dropped).
///
/// With gravity the same holds for a type whose tiles are all *free-standing* (nothing
/// beyond them, against the gravity, in their segment — see [`Ctx::free_standing`]) on a
/// settled board: removing such tiles moves no other tile, no tile's position ever depends
/// on them (tiles never pass each other), so every later move of any clearing order finds
/// its tiles where it expects them, with more free cells around.
fn safe_move(
    ctx: &Ctx,
    st: &State,
    groups: &[Vec<Idx>],
    pairs: &[(Idx, Idx)],
) -> Option<(Idx, Idx)> {
    let gravity = ctx.gravity() != Gravity::None;
    if gravity && !st.settled {
        return None;
    }
    let linked = |x: Idx, y: Idx| pairs.binary_search(&(x.min(y), x.max(y))).is_ok();
    let standing = |g: &[Idx]| !gravity || g.iter().all(|&x| ctx.free_standing(st, x));
    for g in groups.iter() {
        match *g.as_slice() {
            [a, b] if linked(a, b) && standing(g) => return Some((a, b)),
            [a, b, c, d] => {
                for (p, q) in [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))] {
                    if linked(p.0, p.1) && linked(q.0, q.1) && standing(g) {
                        return Some(p);
                    }
                }
            }
            _ => {}
        }
    }
    None
}

/// Per-board part of the paper's heuristic: the longest empty run of every row and column.
pub(crate) struct PaperScorer {
    row_runs: Vec<usize>,
    col_runs: Vec<usize>,
}

impl PaperScorer {
    pub(crate) fn new(ctx: &Ctx, st: &State) -> Self {
        PaperScorer {
            row_runs: (0..ctx.rows() + 2)
                .map(|r| {
                    if r == 0 || r > ctx.rows() {
                        0
                    } else {
                        ctx.longest_row_run(st, r)
                    }
                })
                .collect(),
            col_runs: (0..ctx.cols() + 2)
                .map(|c| {
                    if c == 0 || c > ctx.cols() {
                        0
                    } else {
                        ctx.longest_col_run(st, c)
                    }
                })
                .collect(),
        }
    }

    /// G(X) = (1 − CH) + (1 − CV).
    fn g(&self, ctx: &Ctx, st: &State, x: Idx) -> f64 {
        let (r, c) = ctx.row_col(x);
        let ratio = |before: usize, through: usize| before as f64 / before.max(through) as f64;
        let ch = ratio(self.row_runs[r], ctx.run_through(st, x, true));
        let cv = ratio(self.col_runs[c], ctx.run_through(st, x, false));
        (1.0 - ch) + (1.0 - cv)
    }

    pub(crate) fn score(&self, ctx: &Ctx, st: &State, groups: &[Vec<Idx>], a: Idx, b: Idx) -> f64 {
        let s = groups[st.cells[a as usize] as usize].len();
        paper_score(s, self.g(ctx, st, a), self.g(ctx, st, b))
    }
}

/// The published heuristic F(A,B) = (S/2 − 1) + G(A) + G(B), lower is better: `s` is the
/// number of tiles of the pair's type on the board, `ga`/`gb` are G of each end, where
/// G(X) = (1 − CH) + (1 − CV) and CH (CV) is the longest empty run of board cells in X's
/// row (column) before removing X divided by the longest after removing it (ring cells are
/// not counted; G is taken on the board before the move, before gravity).
///
/// The S term favours finishing a type (its last pair can never be stranded later); the G
/// terms favour removals that do not open long empty lines, keeping open space for the
/// tiles that still need it.
///
/// ```
/// // The last pair of a type whose removal opens nothing new scores 0.
/// assert_eq!(llk::plan::paper_score(2, 0.0, 0.0), 0.0);
/// assert_eq!(llk::plan::paper_score(4, 0.5, 0.25), 1.75);
/// ```
pub fn paper_score(s: usize, ga: f64, gb: f64) -> f64 {
    (s as f64 / 2.0 - 1.0) + ga + gb
}

/// Turns padded-grid moves into [`Link`]s, each relative to the board at its step.
/// The link of removing `a` and `b` from `st`, with its path.
fn link_of(ctx: &Ctx, st: &State, a: Idx, b: Idx) -> Link {
    let path = ctx
        .best_path(st, a, b)
        .expect("the planner only makes moves that link");
    Link {
        a: ctx.pos(a),
        b: ctx.pos(b),
        path,
    }
}

/// The moves as [`Link`]s with their paths; `None` when `deadline` passes first.
fn links(
    ctx: &Ctx,
    start: &State,
    moves: &[(Idx, Idx)],
    deadline: Option<Instant>,
) -> Option<Vec<Link>> {
    let mut st = start.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &(a, b) in moves {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        out.push(link_of(ctx, &st, a, b));
        ctx.remove(&mut st, a, b);
    }
    Some(out)
}

/// Plays `moves` on a copy of `board`, checking each with [`check_link`] before removing it
/// (and letting gravity act); returns the final board. The independent judge of a plan:
/// it uses only `board::link`, never the planner's own link test.
pub fn replay(board: &Board, rules: &Rules, moves: &[Link]) -> Result<Board, IllegalMove> {
    let mut b = board.clone();
    for (i, m) in moves.iter().enumerate() {
        check_link(&b, rules, m).map_err(|link| IllegalMove {
            number: i + 1,
            of: moves.len(),
            link,
        })?;
        b.remove_pair(m.a, m.b, rules.gravity);
    }
    Ok(b)
}

/// The first move of a plan [`replay`] refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {number} of {of}: {link}")]
pub struct IllegalMove {
    /// The move's number, from 1.
    pub number: usize,
    /// How many moves the plan has.
    pub of: usize,
    /// Why the move is illegal on the board the moves before it left.
    pub link: IllegalLink,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(gravity: Gravity) -> Rules {
        Rules {
            outside: true,
            gravity,
        }
    }

    #[test]
    fn strategy_names_round_trip() {
        for s in Strategy::ALL {
            assert_eq!(s.name().parse::<Strategy>().unwrap(), s);
        }
        assert!("best"
            .parse::<Strategy>()
            .unwrap_err()
            .to_string()
            .contains("greedy"));
    }

    #[test]
    fn every_strategy_clears_an_easy_board() {
        let b = Board::parse("ABAB").unwrap();
        for strategy in Strategy::ALL {
            let opts = PlanOptions {
                strategy,
                ..Default::default()
            };
            let p = plan(&b, &rules(Gravity::None), &opts);
            assert!(p.solved(), "{strategy}");
            assert!(replay(&b, &rules(Gravity::None), &p.moves)
                .unwrap()
                .is_clear());
        }
    }

    #[test]
    fn unsolvable_is_proved() {
        // Crossed pairs with nothing free: no pair links inside the board.
        let b = Board::parse("AB\nBA").unwrap();
        let r = Rules {
            outside: false,
            gravity: Gravity::None,
        };
        let p = plan(&b, &r, &PlanOptions::default());
        assert_eq!(p.outcome, Outcome::Unsolvable);
        assert!(p.states >= 1);
        let g = plan(
            &b,
            &r,
            &PlanOptions {
                strategy: Strategy::Greedy,
                ..Default::default()
            },
        );
        assert_eq!(g.outcome, Outcome::Stuck);
        // Odd counts are unsolvable without searching.
        let p = plan(&Board::parse("AAA").unwrap(), &r, &PlanOptions::default());
        assert_eq!((p.outcome, p.states), (Outcome::Unsolvable, 0));
    }

    #[test]
    fn budget_gives_up() {
        let b = generate(&GenSpec::full(8, 12, 4, 3)).unwrap();
        let p = plan(
            &b,
            &rules(Gravity::Down),
            &PlanOptions {
                max_states: 1,
                ..Default::default()
            },
        );
        assert!(matches!(p.outcome, Outcome::GaveUp | Outcome::Cleared));
        // The greedy pass (at most one state per pair) and at most one search state.
        assert!(p.states <= 48 + 1, "{}", p.states);
    }

    #[test]
    fn replay_names_the_bad_move() {
        let b = Board::parse("A.A\nB#B").unwrap();
        let r = Rules {
            outside: false,
            gravity: Gravity::None,
        };
        let p = plan(&b, &r, &PlanOptions::default());
        assert!(p.solved());
        let mut bad = p.moves.clone();
        bad.swap(0, 1);
        let e = replay(&b, &r, &bad).unwrap_err();
        assert_eq!((e.number, e.of), (1, 2));
        let e = e.to_string();
        assert!(e.starts_with("move 1 of 2"), "{e}");
    }
}
