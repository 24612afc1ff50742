//! One entry point for every algorithm: check the input, bring it to the blank-first goal,
//! run the chosen search, translate the moves back and verify them by replaying.

use super::fast::{self, ReduceError};
use super::heuristic::{self, Heuristic};
use super::ida::{self, ConflictH, ManhattanH, MisplacedH, PdbH, ZeroH};
use super::pdb::{PatternDb, PdbError};
use super::puzzle::{step, Dir, Goal, Puzzle, PuzzleError};
use super::reduce;
use super::wastar;
use crate::search;
use std::cell::Cell;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Search algorithm, chosen by name on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize)]
pub enum Algo {
    /// Breadth-first search (`pathfinding::bfs`): optimal, memory grows with the depth.
    Bfs,
    /// Depth-first graph search down to a depth bound: fast, not optimal.
    Dfs,
    /// Depth-limited tree search to the bound: not optimal.
    Dls,
    /// Iterative deepening (depth-first to 1, 2, 3, … moves): optimal, memory of one path.
    Ids,
    /// Bidirectional BFS from start and goal (`pathfinding::bfs_bidirectional`): optimal.
    Bibfs,
    /// A* (`pathfinding::astar`) with the chosen estimate: optimal.
    Astar,
    /// Hand-written IDA* with incremental estimates: optimal, the fastest exact solver.
    Idastar,
    /// `pathfinding::idastar` with the chosen estimate, for comparison with `idastar`.
    PfIdastar,
    /// Row-and-column reduction: not optimal, any board up to 8×8 in milliseconds.
    Fast,
    /// Weighted A* (`f = g + W·h`, `--bound W`): at most W × optimal on boards of up to 25
    /// cells; 6×6 to 8×8 are reduced to 5×5 first (no bound on the whole). The default
    /// beyond 4×4.
    Wastar,
}

impl Algo {
    /// Whether the returned length is the optimum.
    pub fn is_optimal(self) -> bool {
        !matches!(self, Algo::Dfs | Algo::Dls | Algo::Fast | Algo::Wastar)
    }

    /// The node limit when [`Limits::max_nodes`] is `None`: none for `idastar`, whose
    /// memory is one path and whose time with pattern tables is seconds on 4×4 (the hardest
    /// 15-puzzles, 80 moves, take 2.5–4.6 s), and 50M for the others, which either keep
    /// their nodes (memory is bounded separately) or search blind (`ids`, `dls`,
    /// `pf-idastar`), where 50M nodes take about a minute.
    pub fn default_max_nodes(self) -> u64 {
        match self {
            Algo::Idastar => u64::MAX,
            Algo::Wastar => WASTAR_MAX_NODES,
            _ => 50_000_000,
        }
    }
}

/// Bounds a search must respect, so a hopeless choice (BFS on 8×8) fails cleanly instead of
/// exhausting memory or running for hours.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// The weight W of `wastar` (solution ≤ W × optimal); `None`: the steps of
    /// [`DEFAULT_WEIGHTS`], which promise no bound.
    pub weight: Option<f64>,
    /// Depth bound of `dfs` and `dls`; default: the length of the `fast` solution, which
    /// guarantees a solution exists within it.
    pub depth: Option<usize>,
    /// Most nodes expanded before giving up; `None`: the algorithm's own default
    /// ([`Algo::default_max_nodes`]: none for `idastar`, 50M for the others).
    pub max_nodes: Option<u64>,
    /// Most wall-clock time before giving up; `None`: no time bound.
    pub max_time: Option<Duration>,
    /// Most bytes the searches that keep every node they reach (`bfs`, `bibfs`, `astar`,
    /// `dfs`) may hold, estimated per stored node (see [`stored_node_bytes`]).
    pub max_memory: u64,
}

/// What `wastar` does when no weight is given: each weight in turn, each with at most that
/// many expansions, until one finds a solution (the last one has the rest of the node
/// limit). On Korf & Felner's 50 24-puzzles W = 1.4 found solutions 1.091 × optimal on
/// average (at most 1.167) in 199 ms (at most 1.37 s, ~1M expansions a second), W = 1.35
/// 1.068 × (at most 1.125 ×) but up to 3 s; the budget keeps the rare hard board under a
/// second at the cost of a longer solution.
pub const DEFAULT_WEIGHTS: [(f64, u64); 4] = [
    (1.4, 600_000),
    (1.7, 300_000),
    (2.5, 300_000),
    (4.0, u64::MAX),
];

/// Expansions `wastar` may make by default (it stores each, ~120 bytes with its hash entry).
pub const WASTAR_MAX_NODES: u64 = 10_000_000;

/// The default of [`Limits::max_memory`]: 2 GiB.
pub const DEFAULT_MAX_MEMORY: u64 = 2 << 30;

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            weight: None,
            depth: None,
            max_nodes: None,
            max_time: None,
            max_memory: DEFAULT_MAX_MEMORY,
        }
    }
}

/// Which bound a search reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// `max_nodes` expansions.
    Nodes(u64),
    /// `max_memory` bytes of stored nodes.
    Memory(u64),
    /// `max_time`.
    Time(Duration),
}

/// A search stopped at one of its [`Limits`] before finding a solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GaveUp {
    /// The search.
    pub algo: Algo,
    /// The bound it reached.
    pub bound: Bound,
    /// Nodes expanded when it stopped.
    pub nodes: u64,
    /// Nodes stored when it stopped (generated, for the searches that keep them).
    pub stored: u64,
}

impl std::fmt::Display for GaveUp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let algo = self.algo;
        match self.bound {
            Bound::Nodes(max) => write!(
                f,
                "{algo:?} gave up after {} nodes expanded (limit {max}, --max-nodes)",
                self.nodes
            )?,
            Bound::Memory(max) => write!(
                f,
                "{algo:?} gave up at its memory limit ({} MiB, --max-memory) with {} nodes \
                 stored and {} expanded",
                max >> 20,
                self.stored,
                self.nodes
            )?,
            Bound::Time(t) => write!(
                f,
                "{algo:?} gave up after {:.1} s (limit, --max-secs) and {} nodes expanded",
                t.as_secs_f64(),
                self.nodes
            )?,
        }
        match algo {
            Algo::Idastar => write!(f, "; try --algo fast for a quick non-optimal solution"),
            Algo::Wastar => write!(f, "; try a larger --bound, or --algo fast"),
            _ => write!(
                f,
                "; try --algo idastar (optimal, memory of one path) or fast (not optimal)"
            ),
        }
    }
}

impl std::error::Error for GaveUp {}

/// Why a board was not solved.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The board cannot reach the goal: its inversion parity is the other one.
    #[error("this {height}x{width} board cannot reach the {} goal (wrong inversion parity)", goal_name(*goal))]
    Parity {
        /// Columns.
        width: usize,
        /// Rows.
        height: usize,
        /// The goal asked for.
        goal: Goal,
    },
    /// Pattern tables given for another board size.
    #[error("pattern tables for {}x{} given for a {}x{} board", tables.1, tables.0, board.1, board.0)]
    TablesSize {
        /// The tables' (width, height).
        tables: (usize, usize),
        /// The board's (width, height).
        board: (usize, usize),
    },
    /// The pattern tables could not be loaded or built.
    #[error(transparent)]
    Pdb(#[from] PdbError),
    /// A board built on the way is not a board.
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
    /// The search reached one of its limits.
    #[error(transparent)]
    GaveUp(#[from] GaveUp),
    /// A weight (`--bound`) below 1, or not a number.
    #[error("the weight (--bound) must be at least 1, got {0}")]
    Weight(f64),
    /// A depth-bounded search exhausted its bound.
    #[error("{0:?} found no solution within its depth bound")]
    NoSolution(Algo),
    /// The row-and-column or line reduction failed.
    #[error(transparent)]
    Reduce(#[from] ReduceError),
    /// A solver's moves leave the board or miss the goal: a bug, caught before the moves
    /// are returned.
    #[error("internal error: {0}")]
    Internal(String),
}

type Result<T> = std::result::Result<T, SolveError>;

/// Bytes of memory per node generated (children made, duplicates included) by the
/// searches that keep nodes, for boards of `cells` cells: what `max_memory` is divided by.
/// Peak RSS depends on where the hash tables are in their doubling when the search stops;
/// with these figures, on the 15-puzzle `14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3` at limits
/// of 100, 200, 300 and 500 MiB the peak stayed at 69–95 % of the limit for `bfs`, `bibfs`
/// and `astar` (the highest, 92 %, bfs at 200 MiB), and `dfs`, whose table doubles more
/// steeply, gets a larger figure (it peaked at 103 % with the `bfs` one). A board's heap
/// block grows with the cells (32 bytes up to 24 cells).
pub fn stored_node_bytes(algo: Algo, cells: usize) -> u64 {
    // malloc's block for a board: 8 bytes of header, rounded up to 16, at least 32.
    let block = (cells as u64 + 8).div_ceil(16).max(2) * 16;
    match algo {
        Algo::Astar => 44 + block,
        Algo::Dfs => 48 + block,
        _ => 32 + block,
    }
}

/// A solution with what it cost.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Solution {
    /// Blank moves, in the caller's convention.
    pub moves: Vec<Dir>,
    /// The tile that slid at each move.
    pub tiles_moved: Vec<u8>,
    /// Nodes expanded (successors generated from them).
    pub nodes: u64,
    /// Nodes generated (children created, plus the start), the count Korf's tables use.
    pub generated: u64,
    /// Search time in microseconds (pattern tables are loaded before the clock starts).
    pub micros: u64,
}

/// Direction the blank moved between two blank-first boards one move apart.
fn dir_between(a: &[u8], b: &[u8], width: usize, height: usize) -> Option<Dir> {
    let ba = a.iter().position(|&t| t == 0)?;
    let bb = b.iter().position(|&t| t == 0)?;
    Dir::ALL
        .into_iter()
        .find(|&d| step(ba, d, width, height) == Some(bb))
}

/// Solves `start` for `goal` with `algo` guided by `heuristic` (ignored by the uninformed
/// algorithms). Unsolvable boards are refused at once by parity; a search that hits
/// `limits` fails with a message saying so. The returned moves are replayed to check that
/// they reach the goal before they are returned.
///
/// ```
/// use llk::slide::{moves_to_string, solve, Algo, Goal, Heuristic, Limits, Puzzle};
/// // The 8-puzzle two moves from the blank-last goal: slide 5 up, then 8 left.
/// let p = Puzzle::parse("1 2 3 4 0 6 7 5 8", None).unwrap();
/// let s = solve(&p, &Goal::BlankLast, Algo::Astar, Heuristic::Manhattan, &Limits::default())
///     .unwrap();
/// assert_eq!(moves_to_string(&s.moves), "DR");
/// assert_eq!(s.tiles_moved, vec![5, 8]);
/// // Half of all boards cannot reach the goal: parity refuses them without searching.
/// let odd = Puzzle::parse("2 1 3 4 5 6 7 8 0", None).unwrap();
/// assert!(solve(&odd, &Goal::BlankLast, Algo::Astar, Heuristic::Manhattan, &Limits::default())
///     .is_err());
/// ```
pub fn solve(
    start: &Puzzle,
    goal: &Goal,
    algo: Algo,
    heuristic: Heuristic,
    limits: &Limits,
) -> Result<Solution> {
    solve_with(start, goal, algo, heuristic, limits, None)
}

/// `solve` with the pattern tables given, e.g. another partition than the board's default
/// (`pdb::partition`); `None` loads the default ones.
pub fn solve_with(
    start: &Puzzle,
    goal: &Goal,
    algo: Algo,
    heuristic: Heuristic,
    limits: &Limits,
    tables: Option<Arc<PatternDb>>,
) -> Result<Solution> {
    let (w, h) = (start.width(), start.height());
    if !start.is_solvable(*goal) {
        return Err(SolveError::Parity {
            width: w,
            height: h,
            goal: *goal,
        });
    }
    let flip = *goal == Goal::BlankLast;
    let canon = if flip {
        start.converted()
    } else {
        start.clone()
    };
    // Wastar solves a board over 5×5 down to a 5×5 block and searches only that.
    let (tw, th) = if algo == Algo::Wastar && w * h > wastar::MAX_CELLS {
        (reduce::BLOCK, reduce::BLOCK)
    } else {
        (w, h)
    };
    let db = if heuristic == Heuristic::Pdb && needs_heuristic(algo) {
        match tables {
            Some(t) if (t.width(), t.height()) != (tw, th) => {
                return Err(SolveError::TablesSize {
                    tables: (t.width(), t.height()),
                    board: (tw, th),
                })
            }
            Some(t) => Some(t),
            None => Some(PatternDb::for_board(tw, th)?),
        }
    } else {
        None
    };
    let clock = Instant::now();
    let (moves, nodes, generated) = run(&canon, algo, heuristic, db, limits, clock)?;
    let micros = clock.elapsed().as_micros() as u64;
    let moves: Vec<Dir> = if flip {
        moves.into_iter().map(Dir::opposite).collect()
    } else {
        moves
    };
    let mut check = start.clone();
    let tiles_moved = check
        .apply_all(&moves)
        .map_err(|e| SolveError::Internal(format!("solver produced an impossible move: {e}")))?;
    if !check.is_goal(*goal) {
        return Err(SolveError::Internal(format!(
            "{algo:?} returned moves that do not reach the goal"
        )));
    }
    Ok(Solution {
        moves,
        tiles_moved,
        nodes,
        generated,
        micros,
    })
}

fn goal_name(g: Goal) -> &'static str {
    match g {
        Goal::BlankFirst => "blank-first",
        Goal::BlankLast => "blank-last",
    }
}

fn needs_heuristic(algo: Algo) -> bool {
    matches!(
        algo,
        Algo::Astar | Algo::Idastar | Algo::PfIdastar | Algo::Wastar
    )
}

/// Estimate of a blank-first board, from scratch (for the generic searches).
fn estimate(tiles: &[u8], w: usize, h: usize, heur: Heuristic, db: Option<&PatternDb>) -> u32 {
    match (heur, db) {
        (Heuristic::Zero, _) => 0,
        (Heuristic::Misplaced, _) => heuristic::misplaced(tiles),
        (Heuristic::Manhattan, _) => heuristic::manhattan(tiles, w),
        (Heuristic::LinearConflict, _) => heuristic::linear_conflict(tiles, w, h),
        (Heuristic::Pdb, Some(db)) => db.estimate(tiles),
        (Heuristic::Pdb, None) => heuristic::manhattan(tiles, w),
    }
}

/// `wastar` on a blank-first board over 5×5: lines down to the bottom-right 5×5 block of the
/// blank-last form (`reduce`), then weighted A* on the block; the row-and-column reduction
/// when a line search gives up. Returns blank-first moves, nodes expanded and generated.
fn solve_by_block(
    canon: &Puzzle,
    heur: Heuristic,
    db: Option<Arc<PatternDb>>,
    limits: &Limits,
    clock: Instant,
) -> Result<(Vec<Dir>, u64, u64)> {
    let mut board = canon.converted();
    let Some((mut moves, top, left)) = reduce::reduce_to_block(&mut board)? else {
        let moves = fast::solve_blank_last(&canon.converted())?;
        return Ok((moves.into_iter().map(Dir::opposite).collect(), 0, 0));
    };
    let block = reduce::block_of(&board, top, left)?;
    let (moves_block, nodes, generated) =
        run(&block.converted(), Algo::Wastar, heur, db, limits, clock)?;
    // The block's blank-first moves, flipped, are its blank-last moves on the big board.
    moves.extend(moves_block.into_iter().map(Dir::opposite));
    Ok((
        moves.into_iter().map(Dir::opposite).collect(),
        nodes,
        generated,
    ))
}

/// Runs one algorithm on a blank-first board; returns blank-first moves, nodes expanded
/// and nodes generated.
fn run(
    canon: &Puzzle,
    algo: Algo,
    heur: Heuristic,
    db: Option<Arc<PatternDb>>,
    limits: &Limits,
    clock: Instant,
) -> Result<(Vec<Dir>, u64, u64)> {
    let (w, h) = (canon.width(), canon.height());
    let goal = Puzzle::solved(w, h, Goal::BlankFirst)?;
    let goal_tiles = goal.tiles().to_vec();
    let max = limits.max_nodes.unwrap_or_else(|| algo.default_max_nodes());
    let deadline = limits.max_time.map(|t| clock + t);
    let timed_out = || deadline.is_some_and(|d| Instant::now() >= d);
    let gave_up = |bound: Bound, nodes: u64, stored: u64| -> SolveError {
        GaveUp {
            algo,
            bound,
            nodes,
            stored,
        }
        .into()
    };
    let no_tables = || SolveError::Internal("pattern database not loaded".to_string());
    // IDA* returns None at either bound; the clock tells which.
    let ida_bound = || match limits.max_time {
        Some(t) if timed_out() => Bound::Time(t),
        _ => Bound::Nodes(max),
    };
    if algo == Algo::Ids {
        // Iterative deepening is IDA* with a zero estimate; the hand-written loop avoids
        // cloning boards and the O(depth) path check of `pathfinding::iddfs`, which took
        // minutes on the 8-puzzle's 31-move positions.
        let out = ida::ida_star_until(w, h, canon.tiles(), &ZeroH, max, deadline)
            .map_err(|n| gave_up(ida_bound(), n.min(max), 0))?;
        return Ok((out.moves, out.expanded, out.generated));
    }
    if algo == Algo::Idastar {
        let t = canon.tiles();
        let d = deadline;
        let out = match (heur, &db) {
            (Heuristic::Zero, _) => ida::ida_star_until(w, h, t, &ZeroH, max, d),
            (Heuristic::Misplaced, _) => ida::ida_star_until(w, h, t, &MisplacedH, max, d),
            (Heuristic::Manhattan, _) => {
                ida::ida_star_until(w, h, t, &ManhattanH::new(w, h), max, d)
            }
            (Heuristic::LinearConflict, _) => {
                ida::ida_star_until(w, h, t, &ConflictH::new(w, h), max, d)
            }
            (Heuristic::Pdb, Some(db)) => ida::ida_star_until(w, h, t, &PdbH::new(db), max, d),
            (Heuristic::Pdb, None) => return Err(no_tables()),
        };
        let out = out.map_err(|n| gave_up(ida_bound(), n.min(max), 0))?;
        return Ok((out.moves, out.expanded, out.generated));
    }
    if algo == Algo::Fast {
        let moves = fast::solve_blank_last(&canon.converted())?;
        return Ok((moves.into_iter().map(Dir::opposite).collect(), 0, 0));
    }
    if algo == Algo::Wastar {
        if let Some(weight) = limits.weight {
            if weight.is_nan() || weight < 1.0 {
                return Err(SolveError::Weight(weight));
            }
        }
        if w * h > wastar::MAX_CELLS {
            return solve_by_block(canon, heur, db, limits, clock);
        }
        let steps = match limits.weight {
            Some(weight) => vec![(weight, u64::MAX)],
            None => DEFAULT_WEIGHTS.to_vec(),
        };
        let t = canon.tiles();
        let d = deadline;
        let (mut spent, mut made) = (0u64, 0u64);
        for (weight, budget) in steps {
            let m = budget.min(max - spent);
            let out = match (heur, &db) {
                (Heuristic::Zero, _) => wastar::wastar(w, h, t, &ZeroH, weight, m, d),
                (Heuristic::Misplaced, _) => wastar::wastar(w, h, t, &MisplacedH, weight, m, d),
                (Heuristic::Manhattan, _) => {
                    wastar::wastar(w, h, t, &ManhattanH::new(w, h), weight, m, d)
                }
                (Heuristic::LinearConflict, _) => {
                    wastar::wastar(w, h, t, &ConflictH::new(w, h), weight, m, d)
                }
                (Heuristic::Pdb, Some(db)) => wastar::wastar(w, h, t, &PdbH::new(db), weight, m, d),
                (Heuristic::Pdb, None) => return Err(no_tables()),
            };
            match out {
                Ok(out) => return Ok((out.moves, spent + out.expanded, made + out.generated)),
                Err(n) => {
                    spent += n.min(m);
                    made += n.min(m);
                    if spent >= max || timed_out() {
                        break;
                    }
                }
            }
        }
        return Err(gave_up(ida_bound(), spent, made));
    }
    // Generic searches on whole boards as nodes. The successor closure enforces every
    // bound: once one is reached it yields no more successors (which ends any of these
    // searches as it drains what it holds) and stops counting.
    let per_node = stored_node_bytes(algo, w * h);
    let max_stored = match algo {
        // Half the limit: the node tables double as they grow, and a doubling table holds
        // its old and new arrays at once and reserves the new one whole before it is
        // touched, so the heap's size (not only what is resident) stays under the limit.
        // bfs on the 15-puzzle below at 200 MiB: 97 MiB peak RSS.
        Algo::Bfs | Algo::Bibfs | Algo::Astar | Algo::Dfs => limits.max_memory / per_node / 2,
        // Tree searches keep one path.
        _ => u64::MAX,
    };
    let count = Cell::new(0u64);
    let made = Cell::new(1u64);
    let stopped: Cell<Option<Bound>> = Cell::new(None);
    let succ = |s: &Vec<u8>| -> Vec<Vec<u8>> {
        if stopped.get().is_some() {
            return Vec::new();
        }
        let n = count.get() + 1;
        let bound = if n > max {
            Some(Bound::Nodes(max))
        } else if made.get() + 4 > max_stored {
            Some(Bound::Memory(limits.max_memory))
        } else if n & 0x3ff == 0 && timed_out() {
            limits.max_time.map(Bound::Time)
        } else {
            None
        };
        if bound.is_some() {
            stopped.set(bound);
            return Vec::new();
        }
        count.set(n);
        let b = s.iter().position(|&t| t == 0).unwrap_or(0);
        let kids: Vec<Vec<u8>> = Dir::ALL
            .iter()
            .filter_map(|&d| step(b, d, w, h))
            .map(|q| {
                let mut c = s.clone();
                c.swap(b, q);
                c
            })
            .collect();
        made.set(made.get() + kids.len() as u64);
        kids
    };
    let is_goal = |s: &Vec<u8>| *s == goal_tiles;
    let start = canon.tiles().to_vec();
    let dbr = db.as_deref();
    let path: Option<Vec<Vec<u8>>> = match algo {
        Algo::Bfs => pathfinding::directed::bfs::bfs(&start, succ, is_goal),
        Algo::Bibfs => {
            pathfinding::directed::bfs::bfs_bidirectional(&start, &goal_tiles, succ, succ)
        }
        Algo::Astar => pathfinding::directed::astar::astar(
            &start,
            |s| succ(s).into_iter().map(|c| (c, 1u32)),
            |s| estimate(s, w, h, heur, dbr),
            is_goal,
        )
        .map(|(p, _)| p),
        Algo::PfIdastar => pathfinding::directed::idastar::idastar(
            &start,
            |s| succ(s).into_iter().map(|c| (c, 1u32)),
            |s| estimate(s, w, h, heur, dbr),
            is_goal,
        )
        .map(|(p, _)| p),
        Algo::Dfs | Algo::Dls => {
            let bound = match limits.depth {
                Some(d) => d,
                None => fast::solve_blank_last(&canon.converted())?.len(),
            };
            if algo == Algo::Dfs {
                search::dfs_bounded(start.clone(), succ, is_goal, bound)
            } else {
                search::dls(start.clone(), succ, is_goal, bound)
            }
        }
        Algo::Ids | Algo::Idastar | Algo::Fast | Algo::Wastar => {
            return Err(SolveError::Internal(format!(
                "{algo:?} is handled before the generic searches"
            )))
        }
    };
    let nodes = count.get();
    let Some(path) = path else {
        if let Some(bound) = stopped.get() {
            return Err(gave_up(bound, nodes, made.get()));
        }
        return Err(SolveError::NoSolution(algo));
    };
    let moves = path
        .windows(2)
        .map(|p| {
            dir_between(&p[0], &p[1], w, h)
                .ok_or_else(|| SolveError::Internal("path is not a move".to_string()))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok((moves, nodes, made.get()))
}
