//! Building a pattern table: breadth-first search backwards from the goal over states
//! (placement of the pattern's tiles, region of the blank).
//!
//! In an additive table only the pattern's own tiles cost a move; every other tile is free
//! to shuffle, so the blank roams its whole connected region of non-pattern cells at no cost.
//! A state is therefore a placement plus one such region, not a placement plus a blank cell:
//! the free moves are folded into a flood fill and the search is a plain BFS. A placement's
//! visited regions are one 16-bit mask of cells, indexed by the placement's dense rank (one
//! entry per placement, no holes), so the 8-tile table of the 15-puzzle needs 1 GB of marks
//! instead of the 8 GB a blank-cell state space in a sparse index would.
//!
//! The frontier is a list of states that carry their tiles' cells packed 4 bits each (5 on
//! boards of 17 to 32 cells, such as 5×5), so no rank is ever decoded; a move's new rank is the old one plus a few digit weights. Each
//! layer is bucket-sorted by rank, successors are listed a batch at a time with their marks
//! prefetched, and the mark arrays ask for huge pages: the marks are the memory-bound part.
//!
//! Measured on the 15-puzzle (2 shared cores): a 6-tile table (5.8M placements, 11.8M
//! states) in ~1.1 s, a 7-tile one (57.7M placements, 140M states) in 12–25 s, the 8-tile
//! one (519M placements) in ~3 minutes and 5.6 GB; a state costs ~100 instructions per
//! successor listed, most of them in the rank update and its branches.

use indicatif::ProgressBar;
use std::sync::atomic::{AtomicU16, AtomicU32, AtomicU8, AtomicUsize, Ordering};

/// Most tiles in one pattern: 16!/8! = 519M placements still fit a `u32` rank, and the
/// cells of 8 tiles a `u32`.
pub const MAX_TILES: usize = 8;

/// Most tiles in one pattern on a board of more than 16 cells: 6 cells of 5 bits fill 30 of
/// a `u32`'s bits, and 25!/19! = 127.5M placements are what one table on 2 cores can build
/// in minutes (7 tiles would be 2.4G).
pub const MAX_WIDE_TILES: usize = 6;

/// Most cells of a board the builder handles (cell sets are `u32` masks).
pub const MAX_CELLS: usize = 32;

/// Bits per cell in a packed placement: 4 up to 16 cells, 5 up to 32.
pub const fn cell_bits(cells: usize) -> u32 {
    if cells <= 16 {
        4
    } else {
        5
    }
}

/// Most tiles of one pattern on a board of `cells` cells.
pub const fn max_tiles(cells: usize) -> usize {
    if cells <= 16 {
        MAX_TILES
    } else {
        MAX_WIDE_TILES
    }
}

/// Number of placements of `k` distinct tiles on `cells` cells: `cells!/(cells−k)!`.
pub fn placements(cells: usize, k: usize) -> usize {
    (cells - k + 1..=cells).product()
}

/// Dense rank of a placement (cells distinct, each < `cells`) in `0..placements(cells, k)`:
/// tile `j`'s digit is its cell among the cells the earlier tiles left free, in mixed radix
/// `cells, cells−1, …`. The order of the tables on disk and of the dense tables in memory.
pub fn rank(pos: &[u8], cells: usize) -> usize {
    rank_packed(pack(pos, cell_bits(cells)), pos.len(), cells)
}

/// Cells packed `bits` bits each (`cell_bits`), the first tile's lowest: the form the
/// search and the builder carry placements in.
pub fn pack(pos: &[u8], bits: u32) -> u32 {
    pos.iter()
        .enumerate()
        .fold(0u32, |p, (j, &c)| p | (c as u32) << (bits * j as u32))
}

/// All ones in every 4-bit counter of a `u64`.
const NIBBLE_ONES: u64 = 0x1111_1111_1111_1111;

/// `rank` of the placement of `k` tiles whose cells are packed `cell_bits(cells)` bits each
/// (tile 0 lowest).
#[inline]
pub fn rank_packed(packed: u32, k: usize, cells: usize) -> usize {
    if cells <= 16 {
        rank_packed4(packed, k, cells)
    } else {
        rank_packed5(packed, k, cells)
    }
}

/// `rank_packed` of cells packed 4 bits each. Sixteen 4-bit counters in one `u64` hold, for
/// each cell, how many earlier tiles sit below it, so each tile costs a shift, a mask and an
/// add (no popcount: the baseline x86-64 target has none).
#[inline]
fn rank_packed4(packed: u32, k: usize, cells: usize) -> usize {
    let mut below = 0u64;
    let mut r = 0usize;
    for j in 0..k {
        let c = ((packed >> (4 * j)) & 15) as usize;
        let digit = c - ((below >> (4 * c)) & 15) as usize;
        r = r * (cells - j) + digit;
        // Count this tile for every cell above it (cell 15 has none above).
        below += (NIBBLE_ONES << (4 * c)) << 4;
    }
    r
}

/// `rank_packed` of cells packed 5 bits each (up to 32 cells): the same counters, 32 of
/// them in a `u128`.
#[inline]
fn rank_packed5(packed: u32, k: usize, cells: usize) -> usize {
    const ONES: u128 = (NIBBLE_ONES as u128) << 64 | NIBBLE_ONES as u128;
    let mut below = 0u128;
    let mut r = 0usize;
    for j in 0..k {
        let c = ((packed >> (5 * j)) & 31) as usize;
        let digit = c - ((below >> (4 * c)) & 15) as usize;
        r = r * (cells - j) + digit;
        below += (ONES << (4 * c)) << 4;
    }
    r
}

/// Index standing for "no tile of the pattern here" in `moved_rank`'s lookups: above every
/// tile index, and its weight in `digit_weights` is 0.
pub const EMPTY: u8 = 15;

/// Rank weight of each tile's digit, `(cells−j−1)(cells−j−2)…(cells−k+1)`, and 0 from `k`
/// on (so `EMPTY` weighs nothing).
pub fn digit_weights(cells: usize, k: usize) -> [u32; 16] {
    let mut w = [0u32; 16];
    for (j, wj) in w.iter_mut().enumerate().take(k) {
        *wj = placements(cells - j - 1, k - j - 1) as u32;
    }
    w
}

/// Rank after tile `j` of a pattern slides from cell `from` to the adjacent cell `to`, from
/// the rank `r` before; `index_at(x)` is the index of the pattern's tile on cell `x`, or
/// `EMPTY`. Only tile `j`'s digit and the digits of the pattern's later tiles on cells
/// strictly between (a vertical move jumps `width − 1` cells) change, so neither the table
/// builder nor the search ranks seven or eight cells per move.
#[inline]
pub fn moved_rank(
    r: usize,
    weights: &[u32; 16],
    j: usize,
    from: usize,
    to: usize,
    index_at: impl Fn(usize) -> u8,
) -> usize {
    let wj = weights[j] as isize;
    let (lo, hi, sign) = if to > from {
        (from, to, 1)
    } else {
        (to, from, -1)
    };
    let mut delta = (hi - lo) as isize * wj;
    for x in lo + 1..hi {
        let i = index_at(x) as usize;
        // An earlier tile between no longer (or now) sits below tile j; tile j no longer
        // (or now) sits below a later one.
        delta += if i < j { -wj } else { weights[i] as isize };
    }
    (r as isize + sign * delta) as usize
}

/// Board geometry as bit masks, for flood fills over cell sets.
#[derive(Clone, Copy)]
struct Geometry {
    cells: usize,
    width: usize,
    all: u32,
    /// Cells in the first column (a left shift must not carry into them).
    col0: u32,
    /// Cells in the last column.
    col_last: u32,
    nbrs: [u32; MAX_CELLS],
}

impl Geometry {
    fn new(width: usize, height: usize) -> Geometry {
        let cells = width * height;
        let all = ((1u64 << cells) - 1) as u32;
        let (mut col0, mut col_last) = (0, 0);
        for r in 0..height {
            col0 |= 1 << (r * width);
            col_last |= 1 << (r * width + width - 1);
        }
        let mut g = Geometry {
            cells,
            width,
            all,
            col0,
            col_last,
            nbrs: [0; MAX_CELLS],
        };
        for c in 0..cells {
            g.nbrs[c] = g.grow(1 << c) & !(1 << c);
        }
        g
    }

    /// The set and its 4-neighbours.
    #[inline]
    fn grow(&self, r: u32) -> u32 {
        (r | ((r << 1) & !self.col0)
            | ((r >> 1) & !self.col_last)
            | (r << self.width)
            | (r >> self.width))
            & self.all
    }

    /// The cells of `free` connected to `start` (which is in `free`).
    #[inline]
    fn flood(&self, free: u32, start: usize) -> u32 {
        let mut r = 1u32 << start;
        loop {
            let g = self.grow(r) & free;
            if g == r {
                return r;
            }
            r = g;
        }
    }
}

/// The visited marks of one placement: a set of cells (the regions reached), 16 bits wide
/// on boards of up to 16 cells (1 GB for the 8-tile table of the 15-puzzle), 32 bits wide
/// beyond.
trait Mark: Default + Send + Sync {
    fn get(&self) -> u32;
    fn or(&self, v: u32) -> u32;
}

impl Mark for AtomicU16 {
    #[inline]
    fn get(&self) -> u32 {
        self.load(Ordering::Relaxed) as u32
    }
    #[inline]
    fn or(&self, v: u32) -> u32 {
        self.fetch_or(v as u16, Ordering::Relaxed) as u32
    }
}

impl Mark for AtomicU32 {
    #[inline]
    fn get(&self) -> u32 {
        self.load(Ordering::Relaxed)
    }
    #[inline]
    fn or(&self, v: u32) -> u32 {
        self.fetch_or(v, Ordering::Relaxed)
    }
}

/// A frontier state: the placement's rank, its tiles' cells (`B` bits each, tile 0 lowest)
/// and the blank's region (12 bytes, as with a 16-bit region).
#[derive(Clone, Copy)]
struct State {
    rank: u32,
    packed: u32,
    region: u32,
}

/// A successor waiting for its visited mark: rank and cells after the move, the cell the
/// moved tile left (the blank's), and the non-pattern cells after the move.
#[derive(Clone, Copy)]
struct Succ {
    rank: u32,
    packed: u32,
    cell: u8,
    free: u32,
}

/// Successors listed before their marks are read: enough to keep many misses in flight,
/// few enough to stay in the L1 cache.
const BATCH: usize = 512;

/// Frontier states a worker takes at a time.
const CHUNK: usize = 1 << 14;

/// Asks the cache for the line holding `x` (a hint only; no effect on results).
#[inline(always)]
fn prefetch<T>(x: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch never faults and reads nothing architecturally; the pointer comes
    // from a live reference.
    unsafe {
        std::arch::x86_64::_mm_prefetch(x as *const T as *const i8, std::arch::x86_64::_MM_HINT_T0);
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = x;
}

/// `n` default values in memory that, on Linux, is marked for transparent huge pages before
/// its first write (the advice does not change pages already mapped).
fn zeroed<T: Default>(n: usize) -> Vec<T> {
    let mut v: Vec<T> = Vec::with_capacity(n);
    advise_huge(v.as_ptr() as *const u8, n * std::mem::size_of::<T>());
    v.resize_with(n, T::default);
    v
}

#[cfg(target_os = "linux")]
fn advise_huge(ptr: *const u8, len: usize) {
    const HUGE: usize = 2 << 20;
    let start = (ptr as usize).div_ceil(HUGE) * HUGE;
    let end = (ptr as usize + len) / HUGE * HUGE;
    if end > start {
        // SAFETY: the range lies inside an allocation this process owns; MADV_HUGEPAGE
        // only changes how the kernel backs it, never its contents.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge(_: *const u8, _: usize) {}

/// Every region: entry `free << 4 | cell` is the cells of `free` connected to `cell` (2 MB
/// for 16 cells). The flood fill's data-dependent loop exit was the hottest branch of the
/// builder's inner loop (a third of the samples in `settle` under `perf`). Boards of more
/// than 16 cells flood instead (2^25 cell sets would be 1G entries).
fn region_table(geo: &Geometry) -> Vec<u16> {
    let mut table = vec![0u16; (1usize << geo.cells) << 4];
    for free in 0..=geo.all {
        let mut rest = free;
        while rest != 0 {
            let region = geo.flood(free, rest.trailing_zeros() as usize);
            rest &= !region;
            let mut cells = region;
            while cells != 0 {
                let c = cells.trailing_zeros() as usize;
                cells &= cells - 1;
                table[(free as usize) << 4 | c] = region as u16;
            }
        }
    }
    table
}

/// Buckets of the frontier's counting sort: each covers `n / 4096` ranks, whose marks
/// (a few hundred KB for the 8-tile table) stay cached while the bucket is expanded.
const SORT_BUCKETS: usize = 4096;

/// The states of the next layer in rank order, up to the bucket: a move of any tile but
/// the first two then lands within a cached stretch of the marks, and those two tiles'
/// moves walk the marks in a few forward streams, which the prefetchers follow (measured:
/// ~10 % less time on a 7-tile table than the unsorted layers).
fn sort_frontier(parts: Vec<Vec<State>>, n: usize) -> Vec<State> {
    let shift = (usize::BITS - (n.max(SORT_BUCKETS) - 1).leading_zeros()) as usize
        - SORT_BUCKETS.trailing_zeros() as usize;
    let mut start = vec![0usize; SORT_BUCKETS + 1];
    for st in parts.iter().flatten() {
        start[(st.rank as usize >> shift) + 1] += 1;
    }
    for b in 0..SORT_BUCKETS {
        start[b + 1] += start[b];
    }
    let empty = State {
        rank: 0,
        packed: 0,
        region: 0,
    };
    let mut out = vec![empty; start[SORT_BUCKETS]];
    for part in parts {
        for st in part {
            let b = st.rank as usize >> shift;
            out[start[b]] = st;
            start[b] += 1;
        }
    }
    out
}

/// The search's shared tables; `B` is the bits per packed cell, `M` the mark type.
struct Space<'a, const B: u32, M> {
    geo: Geometry,
    /// `region_table` (boards of up to 16 cells), else empty: flood fill.
    regions: &'a [u16],
    k: usize,
    /// Rank weight of each tile's digit (`digit_weights`).
    weight: [u32; 16],
    /// Regions visited, per placement rank (a mask of their cells).
    vis: &'a [M],
    /// Depth + 1 at which the placement was first reached (0: not yet).
    dist: &'a [AtomicU8],
}

impl<const B: u32, M: Mark> Space<'_, B, M> {
    const CELL: u32 = (1 << B) - 1;

    /// Lists the successors of one state (every pattern tile next to the blank's region
    /// slides into it) and prefetches their marks.
    #[inline]
    fn expand(&self, s: State, batch: &mut Vec<Succ>) {
        // Per cell: the index of the pattern tile on it, or EMPTY.
        let mut ix = [EMPTY; MAX_CELLS];
        let mut occupied = 0u32;
        for j in 0..self.k {
            let c = ((s.packed >> (B * j as u32)) & Self::CELL) as usize;
            ix[c] = j as u8;
            occupied |= 1 << c;
        }
        let free = self.geo.all & !occupied;
        let region = s.region;
        for j in 0..self.k {
            let c = ((s.packed >> (B * j as u32)) & Self::CELL) as usize;
            let mut targets = self.geo.nbrs[c] & region;
            while targets != 0 {
                let t = targets.trailing_zeros() as usize;
                targets &= targets - 1;
                let nr = moved_rank(s.rank as usize, &self.weight, j, c, t, |x| ix[x]);
                prefetch(&self.vis[nr]);
                batch.push(Succ {
                    rank: nr as u32,
                    packed: s.packed ^ (((c ^ t) as u32) << (B * j as u32)),
                    cell: c as u8,
                    free: free ^ (1 << t) ^ (1 << c),
                });
            }
        }
    }

    /// Marks the batch's unvisited successors as reached at depth `d + 1` and queues them.
    /// Returns how many placements were reached for the first time.
    fn settle(&self, batch: &mut Vec<Succ>, d: u8, next: &mut Vec<State>) -> u64 {
        let mut reached = 0;
        for s in batch.drain(..) {
            let nr = s.rank as usize;
            let cbit = 1u32 << s.cell;
            if self.vis[nr].get() & cbit != 0 {
                continue;
            }
            let region = if self.regions.is_empty() {
                self.geo.flood(s.free, s.cell as usize)
            } else {
                self.regions[(s.free as usize) << 4 | s.cell as usize] as u32
            };
            let old = self.vis[nr].or(region);
            if old & cbit != 0 {
                continue; // another worker got there first
            }
            if old == 0 {
                self.dist[nr].store(d + 2, Ordering::Relaxed);
                reached += 1;
            }
            next.push(State {
                rank: s.rank,
                packed: s.packed,
                region,
            });
        }
        reached
    }
}

/// The table of one pattern, one byte per placement in rank order: the fewest moves of the
/// pattern's tiles that bring them home from that placement, over every blank position
/// (blank-first goal: tile `t` belongs on cell `t`). Runs on `threads` workers; `bar` counts
/// placements reached (all of them, in the end). Boards of up to 16 cells take patterns of
/// up to 8 tiles; boards of up to 32 cells (5×5), up to 6.
///
/// ```
/// use llk::slide::pdb_build::{build_dense, rank};
/// // Tiles 1 and 2 of the 8-puzzle: swapped, they need 4 moves of their own.
/// let t = build_dense(3, 3, &[1, 2], 1, &indicatif::ProgressBar::hidden());
/// assert_eq!(t[rank(&[1, 2], 9)], 0);
/// assert_eq!(t[rank(&[2, 1], 9)], 4);
/// ```
pub fn build_dense(
    width: usize,
    height: usize,
    tiles: &[u8],
    threads: usize,
    bar: &ProgressBar,
) -> Vec<u8> {
    let cells = width * height;
    let k = tiles.len();
    assert!(
        (1..=max_tiles(cells)).contains(&k) && k < cells && cells <= MAX_CELLS,
        "pattern of {k} tiles on {cells} cells"
    );
    let geo = Geometry::new(width, height);
    if cells <= 16 {
        let regions = region_table(&geo);
        build_with::<4, AtomicU16>(geo, &regions, tiles, threads, bar)
    } else {
        build_with::<5, AtomicU32>(geo, &[], tiles, threads, bar)
    }
}

/// `build_dense` for `B` bits per packed cell and marks of type `M`.
fn build_with<const B: u32, M: Mark>(
    geo: Geometry,
    regions: &[u16],
    tiles: &[u8],
    threads: usize,
    bar: &ProgressBar,
) -> Vec<u8> {
    let cells = geo.cells;
    let k = tiles.len();
    let n = placements(cells, k);
    let weight = digit_weights(cells, k);
    let vis: Vec<M> = zeroed(n);
    let dist: Vec<AtomicU8> = zeroed(n);
    let space: Space<B, M> = Space {
        geo,
        regions,
        k,
        weight,
        vis: &vis,
        dist: &dist,
    };

    let packed0 = pack(tiles, B);
    let r0 = rank_packed(packed0, k, cells);
    let occupied: u32 = tiles.iter().map(|&c| 1u32 << c).sum();
    let region0 = geo.flood(geo.all & !occupied, 0);
    vis[r0].or(region0);
    dist[r0].store(1, Ordering::Relaxed);
    bar.inc(1);
    let mut frontier: Vec<State> = vec![State {
        rank: r0 as u32,
        packed: packed0,
        region: region0,
    }];

    let threads = threads.max(1);
    let mut depth = 0u8;
    loop {
        let chunks: Vec<&[State]> = frontier.chunks(CHUNK).collect();
        if chunks.is_empty() {
            break;
        }
        let taken = AtomicUsize::new(0);
        let workers = threads.min(chunks.len());
        let next: Vec<Vec<State>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..workers)
                .map(|_| {
                    s.spawn(|| {
                        let mut next = Vec::new();
                        let mut batch = Vec::with_capacity(BATCH + 4 * MAX_TILES);
                        loop {
                            let i = taken.fetch_add(1, Ordering::Relaxed);
                            let Some(chunk) = chunks.get(i) else { break };
                            let mut reached = 0;
                            for &st in chunk.iter() {
                                space.expand(st, &mut batch);
                                if batch.len() >= BATCH {
                                    reached += space.settle(&mut batch, depth, &mut next);
                                }
                            }
                            reached += space.settle(&mut batch, depth, &mut next);
                            bar.inc(reached);
                        }
                        next
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_default())
                .collect()
        });
        drop(chunks);
        frontier = sort_frontier(next, n);
        depth += 1;
    }
    dist.into_iter()
        .map(|d| d.into_inner().wrapping_sub(1))
        .collect()
}
