//! A fast copy of the rules for the planner's inner loop: the board as a padded byte grid.
//!
//! The search expands thousands of boards per plan and asks "which pairs link?" on each.
//! [`crate::board::link::find_link`] answers one pair at a time on a [`Board`] and builds a
//! `Vec` path per answer, and [`crate::board::Gravity::apply`] rebuilds every line of the
//! board; together they cost more than the whole 5 ms budget on an 11×19 board. Here the
//! board is one `Box<[u8]>` with a one-cell ring around it (empty when links may run
//! outside, a wall otherwise), so a link test is a few byte scans with no bounds cases and
//! no allocation, gravity settles only the lines a move touched, and a Zobrist hash is kept
//! up to date move by move for the transposition table.
//!
//! The answers must be exactly those of `board::link` and `board::gravity` (which stay the
//! judges: the tests compare both on random boards and replay every plan with
//! [`crate::board::check_link`]). The path chosen by [`Ctx::best_path`] follows `find_link`'s
//! preference (fewest turns, then shortest, first found on ties), so the same move draws the
//! same line whichever finder produced it.

use super::freebits::{Corners, FreeBits};
use crate::board::{Board, Cell, Gravity, Point, Pos, Rules};
use std::convert::Infallible;
use std::ops::ControlFlow;

/// A free cell (board or ring).
pub const EMPTY: u8 = 0;
/// An obstacle, or the ring when links may not leave the board.
pub const WALL: u8 = 255;

/// One board position as an index into the padded grid.
pub type Idx = u32;

/// One step of [`Ctx::relaxed_clearable`]: a tile that vanished, the partner it linked to
/// (its *witness*, present or already gone), and the corners of the path between them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Peel {
    /// The tile's cell.
    pub tile: Idx,
    /// The partner's cell (the tile's own cell when none is known yet).
    pub witness: Idx,
    /// Path corners, padded indices, from the tile to the witness; `len` are used.
    corners: [Idx; 4],
    len: u8,
}

impl Peel {
    /// A tile with no known witness or path yet.
    fn unknown(tile: Idx) -> Self {
        Peel {
            tile,
            witness: tile,
            corners: [tile; 4],
            len: 1,
        }
    }
}

/// What stays the same while a plan is searched: sizes, rules, type names, hash keys.
#[derive(Clone, Debug)]
pub struct Ctx {
    rows: usize,
    cols: usize,
    /// Padded width (`cols + 2`).
    w: usize,
    gravity: Gravity,
    /// Tile char of each dense type id (`names[id - 1]`).
    names: Vec<u8>,
    types: usize,
}

/// One board during the search: the padded cells, its hash, and how many tiles are left.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct State {
    /// Row-major padded cells: [`EMPTY`], [`WALL`] or a type id.
    pub cells: Box<[u8]>,
    /// Zobrist hash of the tiles, the transposition-table key.
    pub hash: u64,
    /// Tiles left; the board is clear at 0.
    pub tiles: u32,
    /// Whether gravity has nothing left to do. A start board need not be settled, and the
    /// rules settle the whole board after a removal, so the first removal on an unsettled
    /// board settles every line; after that only the lines through a removed pair move.
    pub settled: bool,
}

/// A board with more tile types than the padded form numbers (254; ids are bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("more than 254 tile types")]
pub struct TooManyTypes;

impl Ctx {
    /// Converts `board` into the padded form. Fails when it holds more than 254 tile types
    /// (ids are bytes; the text form itself allows only 93).
    pub fn new(board: &Board, rules: &Rules) -> Result<(Ctx, State), TooManyTypes> {
        let (rows, cols) = (board.rows(), board.cols());
        let (w, h) = (cols + 2, rows + 2);
        let mut ids = [0u8; 256];
        let mut names = Vec::new();
        let ring = if rules.outside { EMPTY } else { WALL };
        let mut cells = vec![ring; w * h].into_boxed_slice();
        let mut tiles = 0;
        for p in board.positions() {
            let i = (p.row + 1) * w + p.col + 1;
            cells[i] = match board.get(p) {
                Cell::Empty => EMPTY,
                Cell::Obstacle => WALL,
                Cell::Tile(t) => {
                    if ids[t as usize] == 0 {
                        if names.len() >= 254 {
                            return Err(TooManyTypes);
                        }
                        names.push(t);
                        ids[t as usize] = names.len() as u8;
                    }
                    tiles += 1;
                    ids[t as usize]
                }
            };
        }
        let types = names.len();
        let ctx = Ctx {
            rows,
            cols,
            w,
            gravity: rules.gravity,
            names,
            types,
        };
        let mut settled_board = board.clone();
        rules.gravity.apply(&mut settled_board);
        let mut st = State {
            cells,
            hash: 0,
            tiles,
            settled: settled_board == *board,
        };
        st.hash = ctx.full_hash(&st);
        Ok((ctx, st))
    }

    /// Board height (without the ring).
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Board width (without the ring).
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The gravity mode every removal applies.
    pub fn gravity(&self) -> Gravity {
        self.gravity
    }

    /// Number of distinct tile types (ids run `1..=types`).
    pub fn types(&self) -> usize {
        self.types
    }

    /// The Zobrist key of type `id` at cell `i`: a fixed mix of the two (splitmix64) rather
    /// than a table, so huge boards cost no memory and "states explored" is the same on
    /// every run.
    #[inline]
    fn key(&self, i: usize, id: u8) -> u64 {
        let mut z = ((i as u64) << 8 | id as u64).wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// The hash computed from scratch; the incremental one must always equal it.
    pub fn full_hash(&self, st: &State) -> u64 {
        st.cells
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c != EMPTY && c != WALL)
            .fold(0, |h, (i, &c)| h ^ self.key(i, c))
    }

    /// The padded index of board position `p`.
    #[inline]
    pub fn idx(&self, p: Pos) -> Idx {
        ((p.row + 1) * self.w + p.col + 1) as Idx
    }

    /// The board position of a padded index (which must be a board cell).
    #[inline]
    pub fn pos(&self, i: Idx) -> Pos {
        let i = i as usize;
        Pos::new(i / self.w - 1, i % self.w - 1)
    }

    /// Padded (row, col) of an index.
    #[inline]
    fn rc(&self, i: Idx) -> (usize, usize) {
        (i as usize / self.w, i as usize % self.w)
    }

    /// Converts back to a [`Board`], with the original type chars.
    pub fn to_board(&self, st: &State) -> Board {
        let mut b = Board::new(self.rows, self.cols);
        for r in 0..self.rows {
            for c in 0..self.cols {
                let v = st.cells[(r + 1) * self.w + c + 1];
                let cell = match v {
                    EMPTY => Cell::Empty,
                    WALL => Cell::Obstacle,
                    id => Cell::Tile(self.names[id as usize - 1]),
                };
                b.set(Pos::new(r, c), cell);
            }
        }
        b
    }

    /// Whether the cells strictly between `(r, c0)` and `(r, c1)` are all free.
    #[inline]
    fn clear_row(&self, st: &State, r: usize, c0: usize, c1: usize) -> bool {
        let (lo, hi) = (c0.min(c1), c0.max(c1));
        let base = r * self.w;
        st.cells[base + lo + 1..base + hi]
            .iter()
            .all(|&v| v == EMPTY)
    }

    /// Whether the cells strictly between `(r0, c)` and `(r1, c)` are all free.
    #[inline]
    fn clear_col(&self, st: &State, c: usize, r0: usize, r1: usize) -> bool {
        let (lo, hi) = (r0.min(r1), r0.max(r1));
        (lo + 1..hi).all(|r| st.cells[r * self.w + c] == EMPTY)
    }

    /// The free run through `(r, c)` along a row (`horizontal`) or column, inclusive bounds
    /// in padded coordinates; the cell itself is counted whatever it holds.
    #[inline]
    fn reach(&self, st: &State, r: usize, c: usize, horizontal: bool) -> (usize, usize) {
        let w = self.w;
        let h = st.cells.len() / w;
        if horizontal {
            let (mut lo, mut hi) = (c, c);
            while lo > 0 && st.cells[r * w + lo - 1] == EMPTY {
                lo -= 1;
            }
            while hi + 1 < w && st.cells[r * w + hi + 1] == EMPTY {
                hi += 1;
            }
            (lo, hi)
        } else {
            let (mut lo, mut hi) = (r, r);
            while lo > 0 && st.cells[(lo - 1) * w + c] == EMPTY {
                lo -= 1;
            }
            while hi + 1 < h && st.cells[(hi + 1) * w + c] == EMPTY {
                hi += 1;
            }
            (lo, hi)
        }
    }

    /// The path `find_link` would choose, in board coordinates (2 to 4 corners), when the
    /// tiles at `a` and `b` (distinct, same type) can be removed now.
    pub fn best_path(&self, st: &State, a: Idx, b: Idx) -> Option<Vec<Point>> {
        if a == b || st.cells[a as usize] != st.cells[b as usize] {
            return None;
        }
        let (corners, n) = self.corners_between(st, a, b, true)?;
        Some(
            corners[..n]
                .iter()
                .map(|&(r, c)| Point::new(r as i32 - 1, c as i32 - 1))
                .collect(),
        )
    }

    /// Free-cell masks of `st` for the fast path test, when the grid fits them.
    fn free_bits(&self, st: &State) -> Option<FreeBits> {
        FreeBits::new(&st.cells, self.w, |v| v == EMPTY)
    }

    /// The first path found between the cells `a` and `b` (distinct): by masks when `fb`
    /// (the masks of `st`) is given, else by scanning the bytes; the same path either way.
    #[inline]
    fn any_path(&self, st: &State, fb: Option<&FreeBits>, a: Idx, b: Idx) -> Option<Corners> {
        match fb {
            Some(fb) => fb.first_path(self.rc(a), self.rc(b)),
            None => self.corners_between(st, a, b, false),
        }
    }

    /// The path search proper; only cells strictly between the ends are looked at.
    fn corners_between(&self, st: &State, a: Idx, b: Idx, best: bool) -> Option<Corners> {
        let (ra, ca) = self.rc(a);
        let (rb, cb) = self.rc(b);
        let w = self.w;
        let free = |r: usize, c: usize| st.cells[r * w + c] == EMPTY;
        let mut out = [(ra, ca); 4];
        // No turn.
        if (ra == rb && self.clear_row(st, ra, ca, cb))
            || (ca == cb && self.clear_col(st, ca, ra, rb))
        {
            out[1] = (rb, cb);
            return Some((out, 2));
        }
        // One turn, through (ra, cb) then (rb, ca).
        if ra != rb && ca != cb {
            if free(ra, cb) && self.clear_row(st, ra, ca, cb) && self.clear_col(st, cb, ra, rb) {
                out[1] = (ra, cb);
                out[2] = (rb, cb);
                return Some((out, 3));
            }
            if free(rb, ca) && self.clear_col(st, ca, ra, rb) && self.clear_row(st, rb, ca, cb) {
                out[1] = (rb, ca);
                out[2] = (rb, cb);
                return Some((out, 3));
            }
        }
        // Two turns: along rows to a column k, then along it (and the mirror image).
        let mut found: Option<(usize, [(usize, usize); 4])> = None;
        for horizontal in [true, false] {
            let (la, ha) = self.reach(st, ra, ca, horizontal);
            let (lb, hb) = self.reach(st, rb, cb, horizontal);
            for k in la.max(lb)..=ha.min(hb) {
                let (pa, pb) = if horizontal {
                    ((ra, k), (rb, k))
                } else {
                    ((k, ca), (k, cb))
                };
                if pa == (ra, ca) || pb == (rb, cb) || pa == pb {
                    continue;
                }
                let ok = if horizontal {
                    self.clear_col(st, k, ra, rb)
                } else {
                    self.clear_row(st, k, ca, cb)
                };
                if ok {
                    let path = [(ra, ca), pa, pb, (rb, cb)];
                    if !best {
                        return Some((path, 4));
                    }
                    let len = ra.abs_diff(pa.0)
                        + ca.abs_diff(pa.1)
                        + pa.0.abs_diff(pb.0)
                        + pa.1.abs_diff(pb.1)
                        + pb.0.abs_diff(rb)
                        + pb.1.abs_diff(cb);
                    if found.is_none_or(|(l, _)| len < l) {
                        found = Some((len, path));
                    }
                }
            }
        }
        found.map(|(_, p)| (p, 4))
    }

    /// Whether a tile can start a path at all: a free neighbour to step into. (Two
    /// touching tiles of one type link without one.)
    #[inline]
    fn exposed(&self, st: &State, i: usize) -> bool {
        let c = &st.cells;
        c[i - 1] == EMPTY || c[i + 1] == EMPTY || c[i - self.w] == EMPTY || c[i + self.w] == EMPTY
    }

    #[inline]
    fn touching(&self, a: Idx, b: Idx) -> bool {
        let d = a.abs_diff(b) as usize;
        d == 1 || d == self.w
    }

    /// Every tile grouped by type: `groups[id]` lists its cells in row-major order.
    pub fn groups(&self, st: &State, groups: &mut Vec<Vec<Idx>>) {
        groups.resize_with(self.types + 1, Vec::new);
        for g in groups.iter_mut() {
            g.clear();
        }
        for (i, &v) in st.cells.iter().enumerate() {
            if v != EMPTY && v != WALL {
                groups[v as usize].push(i as Idx);
            }
        }
    }

    /// Every removable pair, `a` before `b` row-major, listed row-major by `a` then `b` —
    /// the order of [`crate::board::removable_pairs`]. `groups` is scratch space.
    pub fn pairs(&self, st: &State, groups: &mut Vec<Vec<Idx>>, out: &mut Vec<(Idx, Idx)>) {
        out.clear();
        let ControlFlow::Continue(()) = self.scan_pairs(st, groups, |a, b| {
            out.push((a, b));
            ControlFlow::<Infallible>::Continue(())
        });
    }

    /// The first removable pair in that order, without listing the rest (greedy's move).
    pub fn first_pair(&self, st: &State, groups: &mut Vec<Vec<Idx>>) -> Option<(Idx, Idx)> {
        match self.scan_pairs(st, groups, |a, b| ControlFlow::Break((a, b))) {
            ControlFlow::Break(ab) => Some(ab),
            ControlFlow::Continue(()) => None,
        }
    }

    /// Hands every removable pair to `visit` in [`Ctx::pairs`]' order until it breaks.
    fn scan_pairs<B>(
        &self,
        st: &State,
        groups: &mut Vec<Vec<Idx>>,
        mut visit: impl FnMut(Idx, Idx) -> ControlFlow<B>,
    ) -> ControlFlow<B> {
        self.groups(st, groups);
        let fb = self.free_bits(st);
        for (i, &v) in st.cells.iter().enumerate() {
            if v == EMPTY || v == WALL {
                continue;
            }
            let a = i as Idx;
            let ea = self.exposed(st, i);
            for &b in groups[v as usize].iter().filter(|&&b| b > a) {
                let eb = ea && self.exposed(st, b as usize);
                if (eb || self.touching(a, b)) && self.any_path(st, fb.as_ref(), a, b).is_some() {
                    visit(a, b)?;
                }
            }
        }
        ControlFlow::Continue(())
    }

    /// Removes the pair and lets the tiles slide, keeping the hash and count up to date.
    /// Only the lines through `a` and `b` can change, so only they are settled.
    pub fn remove(&self, st: &mut State, a: Idx, b: Idx) {
        for i in [a as usize, b as usize] {
            st.hash ^= self.key(i, st.cells[i]);
            st.cells[i] = EMPTY;
        }
        st.tiles -= 2;
        if !st.settled {
            self.settle_all(st);
            st.settled = true;
            return;
        }
        let (ra, ca) = self.rc(a);
        let (rb, cb) = self.rc(b);
        let (rows, cols) = (self.rows, self.cols);
        match self.gravity {
            Gravity::None => {}
            Gravity::Down | Gravity::Up => {
                let down = self.gravity == Gravity::Down;
                self.settle_col(st, ca, 1, rows + 1, down);
                if cb != ca {
                    self.settle_col(st, cb, 1, rows + 1, down);
                }
            }
            Gravity::Left | Gravity::Right => {
                let right = self.gravity == Gravity::Right;
                self.settle_row(st, ra, 1, cols + 1, right);
                if rb != ra {
                    self.settle_row(st, rb, 1, cols + 1, right);
                }
            }
            Gravity::CenterV => {
                for (i, c) in [ca, cb].into_iter().enumerate() {
                    if i == 1 && c == ca {
                        break;
                    }
                    self.settle_col(st, c, 1, rows / 2 + 1, true);
                    self.settle_col(st, c, rows / 2 + 1, rows + 1, false);
                }
            }
            Gravity::CenterH => {
                for (i, r) in [ra, rb].into_iter().enumerate() {
                    if i == 1 && r == ra {
                        break;
                    }
                    self.settle_row(st, r, 1, cols / 2 + 1, true);
                    self.settle_row(st, r, cols / 2 + 1, cols + 1, false);
                }
            }
        }
    }

    /// Settles every line of the board, as `Gravity::apply` does.
    fn settle_all(&self, st: &mut State) {
        let (rows, cols) = (self.rows, self.cols);
        match self.gravity {
            Gravity::None => {}
            Gravity::Down | Gravity::Up => {
                for c in 1..=cols {
                    self.settle_col(st, c, 1, rows + 1, self.gravity == Gravity::Down);
                }
            }
            Gravity::Left | Gravity::Right => {
                for r in 1..=rows {
                    self.settle_row(st, r, 1, cols + 1, self.gravity == Gravity::Right);
                }
            }
            Gravity::CenterV => {
                for c in 1..=cols {
                    self.settle_col(st, c, 1, rows / 2 + 1, true);
                    self.settle_col(st, c, rows / 2 + 1, rows + 1, false);
                }
            }
            Gravity::CenterH => {
                for r in 1..=rows {
                    self.settle_row(st, r, 1, cols / 2 + 1, true);
                    self.settle_row(st, r, cols / 2 + 1, cols + 1, false);
                }
            }
        }
    }

    /// Settles padded rows `r0..r1` of column `c` toward `r1` (`toward_end`) or `r0`.
    fn settle_col(&self, st: &mut State, c: usize, r0: usize, r1: usize, toward_end: bool) {
        let w = self.w;
        self.settle_line(st, (r0..r1).map(|r| r * w + c), toward_end);
    }

    /// Settles padded columns `c0..c1` of row `r`.
    fn settle_row(&self, st: &mut State, r: usize, c0: usize, c1: usize, toward_end: bool) {
        let w = self.w;
        self.settle_line(st, (c0..c1).map(|c| r * w + c), toward_end);
    }

    /// Closes up the tiles of a line (cells in order) toward its end or start, segment by
    /// segment between walls, moving each tile's hash key with it.
    fn settle_line(
        &self,
        st: &mut State,
        line: impl DoubleEndedIterator<Item = usize>,
        toward_end: bool,
    ) {
        // Walk from the side tiles close toward; `slot` is where the next tile lands.
        let mut step = |slot: &mut Option<usize>, i: usize| {
            let v = st.cells[i];
            if v == WALL {
                *slot = None;
            } else if v == EMPTY {
                if slot.is_none() {
                    *slot = Some(i);
                }
            } else if let Some(s) = *slot {
                st.cells[s] = v;
                st.cells[i] = EMPTY;
                st.hash ^= self.key(i, v) ^ self.key(s, v);
                // The next free cell is the one after `s` in walking order, which is free:
                // everything between s and i was empty, and i is now empty too.
                *slot = Some(if toward_end {
                    s - self.stride(s, i)
                } else {
                    s + self.stride(s, i)
                });
            }
        };
        let mut slot = None;
        if toward_end {
            for i in line.rev() {
                step(&mut slot, i);
            }
        } else {
            for i in line {
                step(&mut slot, i);
            }
        }
    }

    /// Distance between consecutive cells of the line through `s` and `i`.
    #[inline]
    fn stride(&self, s: usize, i: usize) -> usize {
        if s / self.w == i / self.w {
            1
        } else {
            self.w
        }
    }

    /// Longest run of empty *board* cells (ring excluded) in padded row `r`.
    pub fn longest_row_run(&self, st: &State, r: usize) -> usize {
        longest_run((1..=self.cols).map(|c| st.cells[r * self.w + c] == EMPTY))
    }

    /// Longest run of empty board cells in padded column `c`.
    pub fn longest_col_run(&self, st: &State, c: usize) -> usize {
        longest_run((1..=self.rows).map(|r| st.cells[r * self.w + c] == EMPTY))
    }

    /// The run of empty board cells that removing the tile at `i` would create along a row
    /// (`horizontal`) or column: the empty cells touching it on both sides, plus itself.
    pub fn run_through(&self, st: &State, i: Idx, horizontal: bool) -> usize {
        let (r, c) = self.rc(i);
        let w = self.w;
        let mut n = 1;
        if horizontal {
            let mut k = c;
            while k > 1 && st.cells[r * w + k - 1] == EMPTY {
                k -= 1;
                n += 1;
            }
            let mut k = c;
            while k < self.cols && st.cells[r * w + k + 1] == EMPTY {
                k += 1;
                n += 1;
            }
        } else {
            let mut k = r;
            while k > 1 && st.cells[(k - 1) * w + c] == EMPTY {
                k -= 1;
                n += 1;
            }
            let mut k = r;
            while k < self.rows && st.cells[(k + 1) * w + c] == EMPTY {
                k += 1;
                n += 1;
            }
        }
        n
    }

    /// A necessary condition for clearing a gravity-free board: let every tile that could
    /// link to a partner (present or already relaxed away) through the free cells vanish,
    /// and repeat. Real play never frees a cell this does not, because links only need free
    /// cells and removals only add free cells; so a tile that survives the fixpoint can
    /// never be removed. `allowed(a, b)` says whether `a` may still pair with `b` (the
    /// pairing search rules some pairs out). `groups` must be [`Ctx::groups`] of `st`.
    ///
    /// Returns the order in which the tiles vanished, each with the partner it linked to and
    /// the path ([`Peel`]), or `None` when some tile never vanishes. The fixpoint does not
    /// depend on the order, so any order gives the same answer; `hint` only makes it cheap.
    ///
    /// Passing the parent board's answer as `hint` makes the check on a child nearly one
    /// pass: the child has more free cells, so almost every step of the parent's order still
    /// holds. And a step whose partner is still a tile of its type, still allowed, and whose
    /// recorded path is still free is taken after a scan of that path's cells alone instead
    /// of a search over every path shape to every partner.
    pub fn relaxed_clearable(
        &self,
        st: &State,
        groups: &[Vec<Idx>],
        allowed: impl Fn(Idx, Idx) -> bool,
        hint: &[Peel],
    ) -> Option<Vec<Peel>> {
        let mut relaxed = st.clone();
        let is_tile = |v: u8| v != EMPTY && v != WALL;
        let mut left: Vec<Peel> = hint
            .iter()
            .copied()
            .filter(|p| is_tile(st.cells[p.tile as usize]))
            .collect();
        if left.len() != st.tiles as usize {
            left = groups.iter().flatten().map(|&x| Peel::unknown(x)).collect();
        }
        let mut order = Vec::with_capacity(left.len());
        let mut fb = self.free_bits(&relaxed);
        loop {
            let before = left.len();
            left.retain(|p| {
                let x = p.tile;
                let v = st.cells[x as usize];
                let kept = p.witness != x
                    && st.cells[p.witness as usize] == v
                    && allowed(x, p.witness)
                    && self.path_free(&relaxed, fb.as_ref(), p);
                let found = if kept {
                    Some(*p)
                } else {
                    // A path leaves x through a free neighbour, or x touches its partner.
                    let open = self.exposed(&relaxed, x as usize);
                    groups[v as usize].iter().find_map(|&y| {
                        if y == x || !(open || self.touching(x, y)) || !allowed(x, y) {
                            return None;
                        }
                        let (corners, len) = self.any_path(&relaxed, fb.as_ref(), x, y)?;
                        let mut p = Peel::unknown(x);
                        p.witness = y;
                        p.len = len as u8;
                        for (k, &(r, c)) in corners[..len].iter().enumerate() {
                            p.corners[k] = (r * self.w + c) as Idx;
                        }
                        Some(p)
                    })
                };
                match found {
                    Some(p) => {
                        relaxed.cells[x as usize] = EMPTY;
                        if let Some(fb) = fb.as_mut() {
                            let (r, c) = self.rc(x);
                            fb.set_free(r, c);
                        }
                        order.push(p);
                        false
                    }
                    None => true,
                }
            });
            if left.is_empty() {
                return Some(order);
            }
            if left.len() == before {
                return None;
            }
        }
    }

    /// Whether every cell of a recorded path between its two ends (corners included) is
    /// free on `st`.
    fn path_free(&self, st: &State, fb: Option<&FreeBits>, p: &Peel) -> bool {
        let n = p.len as usize;
        let end = p.corners[n - 1];
        if let Some(fb) = fb {
            return (1..n).all(|k| {
                let ((r0, c0), (r1, c1)) = (self.rc(p.corners[k - 1]), self.rc(p.corners[k]));
                let between = if r0 == r1 {
                    fb.clear_row(r0, c0, c1)
                } else {
                    fb.clear_col(c0, r0, r1)
                };
                between && (p.corners[k] == end || st.cells[p.corners[k] as usize] == EMPTY)
            });
        }
        (1..n).all(|k| {
            let (from, to) = (p.corners[k - 1], p.corners[k]);
            let step = if from / self.w as Idx == to / self.w as Idx {
                1
            } else {
                self.w as Idx
            };
            let mut i = from;
            while i != to {
                i = if to > from { i + step } else { i - step };
                if i != end && st.cells[i as usize] != EMPTY {
                    return false;
                }
            }
            true
        })
    }

    /// Whether removing the tile at `i` would move no other tile now or later: every cell
    /// beyond it against the gravity, up to the end of its segment (a wall, the board edge,
    /// or the middle line of the centre modes), is empty. Always true without gravity.
    pub fn free_standing(&self, st: &State, i: Idx) -> bool {
        let (r, c) = self.rc(i);
        let (rows, cols, w) = (self.rows, self.cols, self.w);
        // Empty up to the first wall (or the end) of a walk away from the tile.
        let clear = |cells: &mut dyn Iterator<Item = usize>| {
            for k in cells {
                match st.cells[k] {
                    WALL => return true,
                    EMPTY => {}
                    _ => return false,
                }
            }
            true
        };
        let up = |to: usize| clear(&mut (to..r).rev().map(|k| k * w + c));
        let down = |to: usize| clear(&mut (r + 1..=to).map(|k| k * w + c));
        let left = |to: usize| clear(&mut (to..c).rev().map(|k| r * w + k));
        let right = |to: usize| clear(&mut (c + 1..=to).map(|k| r * w + k));
        match self.gravity {
            Gravity::None => true,
            // Tiles fall down, so the ones above (smaller rows) rest on this one.
            Gravity::Down => up(1),
            Gravity::Up => down(rows),
            Gravity::Right => left(1),
            Gravity::Left => right(cols),
            Gravity::CenterV if r <= rows / 2 => up(1),
            Gravity::CenterV => down(rows),
            Gravity::CenterH if c <= cols / 2 => left(1),
            Gravity::CenterH => right(cols),
        }
    }

    /// Padded row and column of an index, for the heuristics.
    pub fn row_col(&self, i: Idx) -> (usize, usize) {
        self.rc(i)
    }
}

fn longest_run(free: impl Iterator<Item = bool>) -> usize {
    let (mut best, mut cur) = (0, 0);
    for f in free {
        cur = if f { cur + 1 } else { 0 };
        best = best.max(cur);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{find_link, removable_pairs};
    use crate::plan::generate::{generate, GenSpec};

    fn rules(outside: bool, gravity: Gravity) -> Rules {
        Rules { outside, gravity }
    }

    #[test]
    fn round_trip() {
        let b = Board::parse("AB.#\n#BA.").unwrap();
        let (ctx, st) = Ctx::new(&b, &Rules::default()).unwrap();
        assert_eq!(ctx.to_board(&st), b);
        assert_eq!(st.tiles, 4);
        assert_eq!(ctx.pos(ctx.idx(Pos::new(1, 2))), Pos::new(1, 2));
    }

    /// The mask path test finds the same first path as the byte scans, for every pair of
    /// cells of boards with walls, with and without the ring, at every stage of a game.
    #[test]
    fn free_bits_find_the_same_paths() {
        let mut compared = 0;
        for seed in 0..40u64 {
            let spec = GenSpec {
                rows: 2 + (seed % 9) as usize,
                cols: 2 + (seed % 11) as usize,
                types: 2 + (seed % 4) as usize,
                copies: 2,
                obstacles: (seed % 5) as usize,
                seed,
            };
            let Ok(board) = generate(&spec) else { continue };
            let (ctx, mut st) = Ctx::new(&board, &rules(seed % 2 == 0, Gravity::None)).unwrap();
            let mut groups = Vec::new();
            loop {
                let fb = ctx.free_bits(&st).expect("small grid");
                for a in 0..st.cells.len() as Idx {
                    for b in 0..st.cells.len() as Idx {
                        if a != b {
                            let bits = fb.first_path(ctx.rc(a), ctx.rc(b));
                            assert_eq!(bits, ctx.corners_between(&st, a, b, false), "{a} {b}");
                            compared += bits.is_some() as usize;
                        }
                    }
                }
                let Some((a, b)) = ctx.first_pair(&st, &mut groups) else {
                    break;
                };
                ctx.remove(&mut st, a, b);
            }
        }
        assert!(compared > 10_000, "only {compared} paths compared");
    }

    /// Pairs, paths, gravity and hash agree with the reference code on random boards.
    #[test]
    fn agrees_with_board_rules() {
        for seed in 0..60u64 {
            let spec = GenSpec {
                rows: 3 + (seed % 6) as usize,
                cols: 3 + (seed % 7) as usize,
                types: 2 + (seed % 3) as usize,
                copies: 2,
                obstacles: (seed % 4) as usize,
                seed,
            };
            let board = match generate(&spec) {
                Ok(b) => b,
                Err(_) => continue,
            };
            for &gravity in &Gravity::ALL {
                for outside in [true, false] {
                    let r = rules(outside, gravity);
                    let (ctx, mut st) = Ctx::new(&board, &r).unwrap();
                    let mut groups = Vec::new();
                    let mut pairs = Vec::new();
                    let mut b = board.clone();
                    loop {
                        ctx.pairs(&st, &mut groups, &mut pairs);
                        let want = removable_pairs(&b, &r);
                        let got: Vec<(Pos, Pos)> = pairs
                            .iter()
                            .map(|&(a, c)| (ctx.pos(a), ctx.pos(c)))
                            .collect();
                        let want_ab: Vec<(Pos, Pos)> = want.iter().map(|l| (l.a, l.b)).collect();
                        assert_eq!(got, want_ab, "seed {seed} {gravity} outside {outside}\n{b}");
                        for (l, &(a, c)) in want.iter().zip(&pairs) {
                            assert_eq!(ctx.best_path(&st, a, c).unwrap(), l.path, "\n{b}");
                        }
                        let Some(&(a, c)) = pairs.get(pairs.len() / 2) else {
                            break;
                        };
                        ctx.remove(&mut st, a, c);
                        b.remove_pair(ctx.pos(a), ctx.pos(c), gravity);
                        assert_eq!(ctx.to_board(&st), b, "gravity {gravity}");
                        assert_eq!(st.hash, ctx.full_hash(&st));
                    }
                }
            }
        }
    }

    /// The relaxation's answer does not depend on the hint (a stale one from an earlier
    /// board, with other pairs allowed), and every recorded step is a real path on the
    /// board as the relaxation left it at that step.
    #[test]
    fn relaxation_hint_changes_nothing() {
        let mut answers = [0; 2];
        for seed in 0..80u64 {
            let spec = GenSpec {
                rows: 3 + (seed % 5) as usize,
                cols: 4 + (seed % 6) as usize,
                types: 2 + (seed % 4) as usize,
                copies: if seed % 2 == 0 { 2 } else { 4 },
                obstacles: (seed % 3) as usize,
                seed,
            };
            let Ok(board) = generate(&spec) else { continue };
            let (ctx, mut st) = Ctx::new(&board, &rules(seed % 3 != 0, Gravity::None)).unwrap();
            let (mut groups, mut pairs) = (Vec::new(), Vec::new());
            let mut hint: Vec<Peel> = Vec::new();
            for step in 0u32.. {
                ctx.pairs(&st, &mut groups, &mut pairs);
                // Rule out a changing, arbitrary set of pairs.
                let allowed = |x: Idx, y: Idx| !(x + y + step).is_multiple_of(5);
                let fresh = ctx.relaxed_clearable(&st, &groups, allowed, &[]);
                let hinted = ctx.relaxed_clearable(&st, &groups, allowed, &hint);
                assert_eq!(fresh.is_some(), hinted.is_some(), "seed {seed} step {step}");
                answers[fresh.is_some() as usize] += 1;
                let mut relaxed = st.clone();
                for p in hinted.iter().flatten() {
                    let (x, y) = (p.tile as usize, p.witness as usize);
                    assert!(x != y && st.cells[x] == st.cells[y] && allowed(p.tile, p.witness));
                    assert!(ctx.path_free(&relaxed, None, p), "seed {seed} step {step}");
                    relaxed.cells[x] = EMPTY;
                }
                if let Some(p) = ctx.relaxed_clearable(&st, &groups, |_, _| true, &hint) {
                    hint = p;
                }
                let Some(&(a, b)) = pairs.get(pairs.len() / 2) else {
                    break;
                };
                ctx.remove(&mut st, a, b);
            }
        }
        // Both answers occur, so the comparison means something.
        assert!(answers[0] > 10 && answers[1] > 10, "{answers:?}");
    }

    #[test]
    fn find_link_unchanged_for_walls() {
        let b = Board::parse("A#A\n.#.\n...").unwrap();
        let r = rules(false, Gravity::None);
        let (ctx, st) = Ctx::new(&b, &r).unwrap();
        let (a, c) = (Pos::new(0, 0), Pos::new(0, 2));
        assert_eq!(
            ctx.best_path(&st, ctx.idx(a), ctx.idx(c)),
            find_link(&b, &r, a, c).map(|l| l.path)
        );
    }

    #[test]
    fn runs() {
        let b = Board::parse("A..B.\n.....").unwrap();
        let (ctx, st) = Ctx::new(&b, &Rules::default()).unwrap();
        assert_eq!(ctx.longest_row_run(&st, 1), 2);
        assert_eq!(ctx.longest_col_run(&st, 1), 1);
        assert_eq!(ctx.run_through(&st, ctx.idx(Pos::new(0, 3)), true), 4);
        assert_eq!(ctx.run_through(&st, ctx.idx(Pos::new(0, 0)), false), 2);
    }
}
