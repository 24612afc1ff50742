//! The hand-written hot path: IDA* on a flat tile array with the estimate kept up to date
//! incrementally as each tile slides, instead of cloning states and recomputing the estimate
//! as a generic search must. Blank-first goal; any board up to 8×8.

use super::heuristic::{col_conflict, row_conflict, tile_manhattan};
use super::pdb::{PatternDb, MAX_PATTERNS};
use super::puzzle::{step, Dir};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

/// An estimate that can follow single moves cheaply. `Acc` is whatever summary makes the
/// update O(1)-ish (a sum, per-line conflicts, table indices); `h` reads the estimate off it.
pub trait Incremental {
    /// Summary carried down the search path.
    type Acc: Copy;
    /// Summary of a whole position.
    fn init(&self, tiles: &[u8]) -> Self::Acc;
    /// The estimate.
    fn h(&self, acc: &Self::Acc) -> u32;
    /// Summary after `tile` slid from `from` to `to`; `tiles` already shows the move.
    /// `limit` is the largest estimate the search can use: once the estimate is known to
    /// exceed it, the rest of the summary may be left stale (the child is pruned anyway),
    /// which saves the reflected table read on most pruned children.
    fn update(
        &self,
        acc: &Self::Acc,
        tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        limit: u32,
    ) -> Self::Acc;
}

/// Estimate 0 (plain iterative deepening).
pub struct ZeroH;
impl Incremental for ZeroH {
    type Acc = ();
    fn init(&self, _: &[u8]) {}
    fn h(&self, _: &()) -> u32 {
        0
    }
    fn update(&self, _: &(), _: &[u8], _: u8, _: usize, _: usize, _: u32) {}
}

/// Misplaced tiles.
pub struct MisplacedH;
impl Incremental for MisplacedH {
    type Acc = u32;
    fn init(&self, tiles: &[u8]) -> u32 {
        super::heuristic::misplaced(tiles)
    }
    fn h(&self, acc: &u32) -> u32 {
        *acc
    }
    fn update(&self, acc: &u32, _: &[u8], tile: u8, from: usize, to: usize, _: u32) -> u32 {
        let t = tile as usize;
        acc + u32::from(from == t) - u32::from(to == t)
    }
}

/// Manhattan distance from a precomputed tile × cell table.
pub struct ManhattanH {
    cells: usize,
    md: Vec<u8>,
}
impl ManhattanH {
    /// Precomputes every tile's distance from every cell.
    pub fn new(width: usize, height: usize) -> ManhattanH {
        let cells = width * height;
        let mut md = vec![0u8; cells * cells];
        for t in 1..cells {
            for c in 0..cells {
                md[t * cells + c] = tile_manhattan(t as u8, c, width) as u8;
            }
        }
        ManhattanH { cells, md }
    }
    #[inline]
    fn d(&self, tile: u8, cell: usize) -> u32 {
        self.md[tile as usize * self.cells + cell] as u32
    }
}
impl Incremental for ManhattanH {
    type Acc = u32;
    fn init(&self, tiles: &[u8]) -> u32 {
        tiles
            .iter()
            .enumerate()
            .filter(|&(_, &t)| t != 0)
            .map(|(c, &t)| self.d(t, c))
            .sum()
    }
    fn h(&self, acc: &u32) -> u32 {
        *acc
    }
    #[inline]
    fn update(&self, acc: &u32, _: &[u8], tile: u8, from: usize, to: usize, _: u32) -> u32 {
        acc + self.d(tile, to) - self.d(tile, from)
    }
}

/// Manhattan + linear conflict; a move changes the conflicts of only the two rows (vertical
/// move) or two columns (horizontal move) it touches, so only those are recomputed.
pub struct ConflictH {
    md: ManhattanH,
    width: usize,
    height: usize,
}
impl ConflictH {
    /// Tables for a board size.
    pub fn new(width: usize, height: usize) -> ConflictH {
        ConflictH {
            md: ManhattanH::new(width, height),
            width,
            height,
        }
    }
}
/// Manhattan sum, per-line conflicts (rows then columns) and their total.
#[derive(Clone, Copy)]
pub struct ConflictAcc {
    md: u32,
    lines: [u8; 16],
    conflicts: u32,
}
impl Incremental for ConflictH {
    type Acc = ConflictAcc;
    fn init(&self, tiles: &[u8]) -> ConflictAcc {
        let mut lines = [0u8; 16];
        for (r, line) in lines.iter_mut().enumerate().take(self.height) {
            *line = row_conflict(tiles, self.width, r) as u8;
        }
        for c in 0..self.width {
            lines[8 + c] = col_conflict(tiles, self.width, self.height, c) as u8;
        }
        ConflictAcc {
            md: self.md.init(tiles),
            lines,
            conflicts: lines.iter().map(|&v| v as u32).sum(),
        }
    }
    fn h(&self, acc: &ConflictAcc) -> u32 {
        acc.md + acc.conflicts
    }
    #[inline]
    fn update(
        &self,
        acc: &ConflictAcc,
        tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        limit: u32,
    ) -> ConflictAcc {
        let mut a = *acc;
        a.md = self.md.update(&acc.md, tiles, tile, from, to, limit);
        let w = self.width;
        let lines: [usize; 2] = if from / w == to / w {
            [8 + from % w, 8 + to % w]
        } else {
            [from / w, to / w]
        };
        for l in lines {
            let v = if l >= 8 {
                col_conflict(tiles, w, self.height, l - 8)
            } else {
                row_conflict(tiles, w, l)
            };
            a.conflicts = a.conflicts + v - a.lines[l] as u32;
            a.lines[l] = v as u8;
        }
        a
    }
}

/// Pattern-database estimate with O(1) index updates for the direct and reflected lookups.
/// It reads the nibble "excess" tables and adds the Manhattan distance, which is the same for
/// a board and its reflection: `h = md + 2·max(Σ excess, Σ reflected excess)`.
pub struct PdbH<'a> {
    db: &'a PatternDb,
    md: ManhattanH,
    refl: Vec<usize>,
}
impl<'a> PdbH<'a> {
    /// Wraps a database (its board size must match the searched board).
    pub fn new(db: &'a PatternDb) -> PdbH<'a> {
        let cells = db.width() * db.height();
        PdbH {
            db,
            md: ManhattanH::new(db.width(), db.height()),
            refl: (0..cells).map(|c| db.reflect_cell(c)).collect(),
        }
    }
}
/// Table positions (packed cells, or dense ranks for big patterns) and excesses for the
/// board and its reflection, and the Manhattan sum. A move changes one pattern's position in
/// each, so only two table reads per generated node.
#[derive(Clone, Copy)]
pub struct PdbAcc {
    reg: [u32; MAX_PATTERNS],
    refl: [u32; MAX_PATTERNS],
    reg_ex: [u8; MAX_PATTERNS],
    refl_ex: [u8; MAX_PATTERNS],
    reg_sum: u32,
    refl_sum: u32,
    md: u32,
}
impl Incremental for PdbH<'_> {
    type Acc = PdbAcc;
    fn init(&self, tiles: &[u8]) -> PdbAcc {
        let (reg, refl) = self.db.indices(tiles);
        let n = self.db.patterns().len();
        let mut reg = reg.map(|i| i as u32);
        let mut refl = refl.map(|i| i as u32);
        for p in 0..n {
            reg[p] = self.db.position(p, reg[p] as usize) as u32;
            refl[p] = self.db.position(p, refl[p] as usize) as u32;
        }
        let mut a = PdbAcc {
            reg,
            refl,
            reg_ex: [0; MAX_PATTERNS],
            refl_ex: [0; MAX_PATTERNS],
            reg_sum: 0,
            refl_sum: 0,
            md: self.md.init(tiles),
        };
        for p in 0..n {
            a.reg_ex[p] = self.db.excess(p, reg[p] as usize) as u8;
            a.refl_ex[p] = self.db.excess(p, refl[p] as usize) as u8;
        }
        a.reg_sum = a.reg_ex.iter().map(|&v| v as u32).sum();
        a.refl_sum = if self.db.reflects() {
            a.refl_ex.iter().map(|&v| v as u32).sum()
        } else {
            0
        };
        a
    }
    #[inline]
    fn h(&self, acc: &PdbAcc) -> u32 {
        acc.md + 2 * acc.reg_sum.max(acc.refl_sum)
    }
    #[inline]
    fn update(
        &self,
        acc: &PdbAcc,
        tiles: &[u8],
        tile: u8,
        from: usize,
        to: usize,
        limit: u32,
    ) -> PdbAcc {
        let mut a = *acc;
        a.md = self.md.update(&acc.md, tiles, tile, from, to, limit);
        let db = self.db;
        let slot = db.slot(tile);
        let p = slot.0;
        a.reg[p] = db.moved_position(slot, a.reg[p], from, to, |x| tiles[x]);
        let v = db.excess(p, a.reg[p] as usize) as u8;
        a.reg_sum = a.reg_sum + v as u32 - a.reg_ex[p] as u32;
        a.reg_ex[p] = v;
        if db.reflects() && a.md + 2 * a.reg_sum <= limit {
            let refl = &self.refl;
            let slot = db.slot(refl[tile as usize] as u8);
            let p = slot.0;
            // In the reflected board cell x holds the reflection of the tile on refl(x).
            let at = |x: usize| refl[tiles[refl[x]] as usize] as u8;
            a.refl[p] = db.moved_position(slot, a.refl[p], refl[from], refl[to], at);
            let v = db.excess(p, a.refl[p] as usize) as u8;
            a.refl_sum = a.refl_sum + v as u32 - a.refl_ex[p] as u32;
            a.refl_ex[p] = v;
        }
        a
    }
}

/// What an IDA* run found and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdaOutcome {
    /// Blank moves of an optimal solution.
    pub moves: Vec<Dir>,
    /// Nodes whose children were generated.
    pub expanded: u64,
    /// Children generated (Korf's count).
    pub generated: u64,
}

struct Ctx<'h, H: Incremental> {
    heur: &'h H,
    tiles: [u8; 64],
    cells: usize,
    nbrs: &'h [Vec<(Dir, usize)>],
    path: Vec<Dir>,
    bound: u32,
    next_bound: u32,
    expanded: u64,
    generated: u64,
    max_nodes: u64,
    deadline: Option<Instant>,
    stop: &'h AtomicBool,
}

impl<H: Incremental> Ctx<'_, H> {
    fn is_goal(&self) -> bool {
        self.tiles[..self.cells]
            .iter()
            .enumerate()
            .all(|(i, &t)| t as usize == i)
    }

    /// Depth-first probe below the current bound. `None` = node limit hit; `Some(false)`
    /// also when another worker found the solution.
    fn dfs(&mut self, g: u32, acc: H::Acc, blank: usize, prev: Option<Dir>) -> Option<bool> {
        let h = self.heur.h(&acc);
        let f = g + h;
        if f > self.bound {
            self.next_bound = self.next_bound.min(f);
            return Some(false);
        }
        if h == 0 && self.is_goal() {
            return Some(true);
        }
        self.expanded += 1;
        if self.expanded > self.max_nodes {
            return None;
        }
        // The clock is read every 65536 expansions (a few milliseconds of search).
        if self.expanded & 0xffff == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        if self.expanded & 0x3ff == 0 && self.stop.load(Ordering::Relaxed) {
            return Some(false);
        }
        let back = prev.map(Dir::opposite);
        let nbrs = self.nbrs;
        for &(dir, q) in &nbrs[blank] {
            if Some(dir) == back {
                continue;
            }
            let tile = self.tiles[q];
            self.tiles[blank] = tile;
            self.tiles[q] = 0;
            self.generated += 1;
            let limit = self.bound - (g + 1).min(self.bound);
            let child = self
                .heur
                .update(&acc, &self.tiles[..self.cells], tile, q, blank, limit);
            self.path.push(dir);
            let r = self.dfs(g + 1, child, q, Some(dir));
            if r != Some(false) {
                return r;
            }
            self.path.pop();
            self.tiles[q] = tile;
            self.tiles[blank] = 0;
        }
        Some(false)
    }
}

/// A subtree root for the parallel iterations.
struct Item<A> {
    tiles: [u8; 64],
    blank: usize,
    acc: A,
    prev: Option<Dir>,
    path: Vec<Dir>,
}

/// What a worker reports: its solution if any, whether it hit the node limit, its next
/// bound, nodes expanded and generated.
type WorkerResult = (Option<Vec<Dir>>, bool, u32, u64, u64);

/// Iterations expanding more nodes than this are split over the cores; smaller ones are
/// not worth starting threads for.
const PARALLEL_FROM: u64 = 20_000;

/// Optimal solution of a blank-first position (`tiles` row-major, `width` per row) by IDA*
/// with an admissible incremental estimate; `None` if `max_nodes` expansions were not enough.
/// Large iterations are split over the available cores (subtrees a few moves below the
/// start are shared out); the length is optimal either way, though which optimal solution is
/// returned, and the node counts of the last iteration, may vary between runs then.
/// The caller checks solvability first (an unsolvable board would deepen forever).
///
/// ```
/// use llk::slide::ida::{ida_star, ManhattanH};
/// let tiles = [1, 0, 2, 3, 4, 5, 6, 7, 8];
/// let out = ida_star(3, 3, &tiles, &ManhattanH::new(3, 3), u64::MAX).unwrap();
/// assert_eq!(out.moves.len(), 1);
/// ```
pub fn ida_star<H>(
    width: usize,
    height: usize,
    tiles: &[u8],
    heur: &H,
    max_nodes: u64,
) -> Option<IdaOutcome>
where
    H: Incremental + Sync,
    H::Acc: Send + Sync,
{
    ida_star_until(width, height, tiles, heur, max_nodes, None).ok()
}

/// [`ida_star`] that also gives up once `deadline` has passed; a give-up (or a board
/// without a blank) is `Err` with the nodes expanded until then.
pub fn ida_star_until<H>(
    width: usize,
    height: usize,
    tiles: &[u8],
    heur: &H,
    max_nodes: u64,
    deadline: Option<Instant>,
) -> Result<IdaOutcome, u64>
where
    H: Incremental + Sync,
    H::Acc: Send + Sync,
{
    let cells = width * height;
    let mut t = [0u8; 64];
    t[..cells].copy_from_slice(tiles);
    let nbrs: Vec<Vec<(Dir, usize)>> = (0..cells)
        .map(|c| {
            Dir::ALL
                .iter()
                .filter_map(|&d| step(c, d, width, height).map(|q| (d, q)))
                .collect()
        })
        .collect();
    let threads = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let stop = AtomicBool::new(false);
    let acc = heur.init(tiles);
    let blank = tiles.iter().position(|&x| x == 0).ok_or(0u64)?;
    let mut ctx = Ctx {
        heur,
        tiles: t,
        cells,
        nbrs: &nbrs,
        path: Vec::new(),
        bound: heur.h(&acc),
        next_bound: u32::MAX,
        expanded: 0,
        generated: 1,
        max_nodes,
        deadline,
        stop: &stop,
    };
    let mut last_iteration = 0;
    loop {
        ctx.next_bound = u32::MAX;
        let before = ctx.expanded;
        let found = if threads > 1 && last_iteration > PARALLEL_FROM {
            parallel_iteration(&mut ctx, acc, blank, threads)
        } else {
            ctx.dfs(0, acc, blank, None)
        };
        last_iteration = ctx.expanded - before;
        match found {
            None => return Err(ctx.expanded),
            Some(true) => {
                return Ok(IdaOutcome {
                    moves: ctx.path,
                    expanded: ctx.expanded,
                    generated: ctx.generated,
                })
            }
            Some(false) => {
                if ctx.next_bound == u32::MAX {
                    return Err(ctx.expanded);
                }
                ctx.bound = ctx.next_bound;
            }
        }
    }
}

/// One IDA* iteration at `ctx.bound` over several threads: expand breadth-first from the
/// start until there are enough subtrees, then let the workers take them in turn. On
/// success `ctx.path` holds the solution; counts and the next bound are merged into `ctx`.
fn parallel_iteration<H>(
    ctx: &mut Ctx<'_, H>,
    acc: H::Acc,
    blank: usize,
    threads: usize,
) -> Option<bool>
where
    H: Incremental + Sync,
    H::Acc: Send + Sync,
{
    let mut items = vec![Item {
        tiles: ctx.tiles,
        blank,
        acc,
        prev: None,
        path: Vec::new(),
    }];
    // Grow the frontier a level at a time; nodes over the bound are pruned as in dfs.
    for _ in 0..8 {
        if items.len() >= 24 * threads {
            break;
        }
        let mut next = Vec::new();
        for it in items {
            let g = it.path.len() as u32;
            let h = ctx.heur.h(&it.acc);
            if g + h > ctx.bound {
                ctx.next_bound = ctx.next_bound.min(g + h);
                continue;
            }
            if h == 0
                && it.tiles[..ctx.cells]
                    .iter()
                    .enumerate()
                    .all(|(i, &t)| t as usize == i)
            {
                ctx.path = it.path;
                return Some(true);
            }
            ctx.expanded += 1;
            let back = it.prev.map(Dir::opposite);
            for &(dir, q) in &ctx.nbrs[it.blank] {
                if Some(dir) == back {
                    continue;
                }
                let mut tiles = it.tiles;
                let tile = tiles[q];
                tiles[it.blank] = tile;
                tiles[q] = 0;
                ctx.generated += 1;
                let child =
                    ctx.heur
                        .update(&it.acc, &tiles[..ctx.cells], tile, q, it.blank, u32::MAX);
                let mut path = it.path.clone();
                path.push(dir);
                next.push(Item {
                    tiles,
                    blank: q,
                    acc: child,
                    prev: Some(dir),
                    path,
                });
            }
        }
        items = next;
    }
    let stop = ctx.stop;
    stop.store(false, Ordering::Relaxed);
    let taken = AtomicUsize::new(0);
    let (heur, cells, nbrs, bound, max_nodes, deadline) = (
        ctx.heur,
        ctx.cells,
        ctx.nbrs,
        ctx.bound,
        ctx.max_nodes.saturating_sub(ctx.expanded),
        ctx.deadline,
    );
    let items = &items;
    let results: Vec<WorkerResult> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut w = Ctx {
                        heur,
                        tiles: [0; 64],
                        cells,
                        nbrs,
                        path: Vec::new(),
                        bound,
                        next_bound: u32::MAX,
                        expanded: 0,
                        generated: 0,
                        max_nodes,
                        deadline,
                        stop,
                    };
                    let mut found = None;
                    let mut over = false;
                    loop {
                        let i = taken.fetch_add(1, Ordering::Relaxed);
                        if i >= items.len() || stop.load(Ordering::Relaxed) {
                            break;
                        }
                        let it = &items[i];
                        w.tiles = it.tiles;
                        w.path = it.path.clone();
                        match w.dfs(it.path.len() as u32, it.acc, it.blank, it.prev) {
                            Some(true) => {
                                stop.store(true, Ordering::Relaxed);
                                found = Some(std::mem::take(&mut w.path));
                                break;
                            }
                            None => {
                                over = true;
                                stop.store(true, Ordering::Relaxed);
                                break;
                            }
                            Some(false) => {}
                        }
                    }
                    (found, over, w.next_bound, w.expanded, w.generated)
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    let mut solution = None;
    let mut over = false;
    for (found, o, nb, e, g) in results {
        ctx.next_bound = ctx.next_bound.min(nb);
        ctx.expanded += e;
        ctx.generated += g;
        over |= o;
        if solution.is_none() {
            solution = found;
        }
    }
    stop.store(false, Ordering::Relaxed);
    match solution {
        Some(p) => {
            ctx.path = p;
            Some(true)
        }
        None if over => None,
        None => Some(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slide::heuristic;
    use crate::slide::puzzle::{Goal, Puzzle};

    /// The nibble-excess PDB estimate, kept up to date move by move, equals the byte tables'
    /// from-scratch estimate (direct and reflected) on square and non-square boards.
    #[test]
    fn incremental_pdb_matches_scratch() {
        // Default partitions (indexed by packed cells), 7-tile patterns (by dense rank) and a
        // board of more than 16 cells.
        let cases = [
            (3, 3, crate::slide::pdb::default_patterns(3, 3)),
            (4, 2, crate::slide::pdb::default_patterns(4, 2)),
            (3, 3, vec![vec![1, 2, 3, 4, 5, 6, 7], vec![8]]),
            (4, 2, vec![vec![7, 6, 5, 4, 3, 2, 1]]),
            // More than 16 cells: 5 bits a cell, dense ranks, nibble tables only.
            (
                3,
                6,
                vec![
                    vec![1, 2, 3, 4, 5],
                    vec![17, 6, 7, 8, 9, 10],
                    vec![11, 12, 13, 14, 15, 16],
                ],
            ),
        ];
        for (w, h, pats) in cases {
            let db = PatternDb::load_or_build(w, h, pats, None).unwrap();
            let ph = PdbH::new(&db);
            let mut p = Puzzle::random(w, h, Goal::BlankFirst, 5).unwrap();
            let mut a = ph.init(p.tiles());
            assert_eq!(ph.h(&a), db.estimate(p.tiles()));
            for i in 0..400 {
                let d = Dir::ALL[(i * 5 + i / 7) % 4];
                let from_blank = p.blank();
                if let Some(tile) = p.apply(d) {
                    let from = step(from_blank, d, w, h).unwrap();
                    a = ph.update(&a, p.tiles(), tile, from, from_blank, u32::MAX);
                    assert_eq!(ph.h(&a), db.estimate(p.tiles()), "{h}x{w} move {i}");
                }
            }
        }
    }

    /// The incremental summaries must equal the from-scratch values after every move.
    #[test]
    fn incremental_matches_scratch() {
        for (w, h) in [(3, 3), (4, 4), (5, 3), (2, 6)] {
            let mut p = Puzzle::random(w, h, Goal::BlankFirst, 3).unwrap();
            let md = ManhattanH::new(w, h);
            let lc = ConflictH::new(w, h);
            let mut a = md.init(p.tiles());
            let mut b = lc.init(p.tiles());
            let mut c = MisplacedH.init(p.tiles());
            for i in 0..300 {
                let d = Dir::ALL[(i * 7 + i / 3) % 4];
                let from_blank = p.blank();
                if let Some(tile) = p.apply(d) {
                    let from = step(from_blank, d, w, h).unwrap();
                    a = md.update(&a, p.tiles(), tile, from, from_blank, u32::MAX);
                    b = lc.update(&b, p.tiles(), tile, from, from_blank, u32::MAX);
                    c = MisplacedH.update(&c, p.tiles(), tile, from, from_blank, u32::MAX);
                    assert_eq!(a, heuristic::manhattan(p.tiles(), w));
                    assert_eq!(lc.h(&b), heuristic::linear_conflict(p.tiles(), w, h));
                    assert_eq!(c, heuristic::misplaced(p.tiles()));
                }
            }
        }
    }
}
