//! The free cells of a padded grid as bit masks: one word per row, one per column.
//!
//! The relaxation of the pairing search asks "is there a path of at most two turns between
//! these two cells?" for every tile, pass after pass, and profiling a slow 11×19 plan put
//! half of its instructions in the byte scans of that test. With masks, a straight segment
//! is one AND and compare, a free run around a cell is two bit counts, and the two-turn
//! shapes need no scan per candidate line: the AND of the rows between the two ends marks
//! every column a vertical middle segment could use, in a handful of word operations. The
//! answers are those of `Ctx::corners_between` in first-found mode, path for path (tested).
//!
//! Masks hold 64 cells, so grids up to 64×64 padded (62×62 boards) use them; bigger grids
//! keep the byte scans.

/// Largest padded width or height the masks cover.
pub(crate) const MAX_SIDE: usize = 64;

/// Free-cell masks of one padded grid: bit `c` of `rows[r]` and bit `r` of `cols[c]` are
/// set when cell `(r, c)` is free.
#[derive(Clone)]
pub(crate) struct FreeBits {
    rows: [u64; MAX_SIDE],
    cols: [u64; MAX_SIDE],
}

/// Corners of a path in padded `(row, col)` coordinates and how many are used (2 to 4).
pub(crate) type Corners = ([(usize, usize); 4], usize);

/// Bits `lo..=hi` set (none when `lo > hi`); both below 64.
#[inline]
fn span(lo: usize, hi: usize) -> u64 {
    if lo > hi {
        0
    } else {
        (u64::MAX >> (63 - hi)) & (u64::MAX << lo)
    }
}

/// Bits strictly between `a` and `b`.
#[inline]
fn between(a: usize, b: usize) -> u64 {
    let (lo, hi) = (a.min(b), a.max(b));
    if hi - lo < 2 {
        0
    } else {
        span(lo + 1, hi - 1)
    }
}

/// The run of set bits through bit `at` of `word` (bit `at` counted as set), inclusive.
#[inline]
fn run(word: u64, at: usize) -> (usize, usize) {
    let m = word | 1 << at;
    let up = (m >> at).trailing_ones() as usize;
    let down = (m << (63 - at)).leading_ones() as usize;
    (at + 1 - down, at + up - 1)
}

/// The lowest cross line `k` for a two-turn path between the cells at position `pa` of line
/// `la` and position `pb` of line `lb` (rows and columns for `lines` = row masks, the other
/// way round for column masks): both ends' free runs along their own lines reach `k`,
/// neither end sits on `k`, and every line strictly between `la` and `lb` is free at `k`.
// Always inlined: as a plain `#[inline]` call the planner's gravity-free bench ran 8 % slower.
#[inline(always)]
fn middle_line(
    lines: &[u64; MAX_SIDE],
    (la, pa): (usize, usize),
    (lb, pb): (usize, usize),
) -> Option<usize> {
    if la == lb {
        return None;
    }
    let (lo_a, hi_a) = run(lines[la], pa);
    let (lo_b, hi_b) = run(lines[lb], pb);
    let ks = span(lo_a.max(lo_b), hi_a.min(hi_b)) & !(1 << pa) & !(1 << pb);
    if ks == 0 {
        return None;
    }
    // Only now the AND of the lines between: most calls end above, between walled-in tiles.
    let (lo, hi) = (la.min(lb), la.max(lb));
    let ks = ks & lines[lo + 1..hi].iter().fold(u64::MAX, |m, &x| m & x);
    (ks != 0).then(|| ks.trailing_zeros() as usize)
}

impl FreeBits {
    /// Masks of `cells` (row-major, `w` wide) where `is_free` holds; `None` when the grid
    /// is too big for them.
    pub(crate) fn new(cells: &[u8], w: usize, is_free: impl Fn(u8) -> bool) -> Option<Self> {
        let h = cells.len() / w;
        if w > MAX_SIDE || h > MAX_SIDE {
            return None;
        }
        let mut fb = FreeBits {
            rows: [0; MAX_SIDE],
            cols: [0; MAX_SIDE],
        };
        for (r, line) in cells.chunks_exact(w).enumerate() {
            let mut m = 0u64;
            for (c, &v) in line.iter().enumerate() {
                if is_free(v) {
                    m |= 1 << c;
                    fb.cols[c] |= 1 << r;
                }
            }
            fb.rows[r] = m;
        }
        Some(fb)
    }

    /// Marks `(r, c)` free.
    #[inline]
    pub(crate) fn set_free(&mut self, r: usize, c: usize) {
        self.rows[r] |= 1 << c;
        self.cols[c] |= 1 << r;
    }

    #[inline]
    fn free(&self, r: usize, c: usize) -> bool {
        self.rows[r] >> c & 1 == 1
    }

    /// Whether every cell strictly between `(r, c0)` and `(r, c1)` is free.
    #[inline]
    pub(crate) fn clear_row(&self, r: usize, c0: usize, c1: usize) -> bool {
        let m = between(c0, c1);
        self.rows[r] & m == m
    }

    /// Whether every cell strictly between `(r0, c)` and `(r1, c)` is free.
    #[inline]
    pub(crate) fn clear_col(&self, c: usize, r0: usize, r1: usize) -> bool {
        let m = between(r0, r1);
        self.cols[c] & m == m
    }

    /// The first path of at most two turns from `a` to `b` (distinct cells) through free
    /// cells strictly between them, tried in the order of `Ctx::corners_between`: straight,
    /// the corner at `(ra, cb)`, the corner at `(rb, ca)`, then two turns via the lowest
    /// column, then via the lowest row.
    pub(crate) fn first_path(&self, a: (usize, usize), b: (usize, usize)) -> Option<Corners> {
        let ((ra, ca), (rb, cb)) = (a, b);
        let mut out = [a; 4];
        if (ra == rb && self.clear_row(ra, ca, cb)) || (ca == cb && self.clear_col(ca, ra, rb)) {
            out[1] = b;
            return Some((out, 2));
        }
        if ra != rb && ca != cb {
            if self.free(ra, cb) && self.clear_row(ra, ca, cb) && self.clear_col(cb, ra, rb) {
                out[1] = (ra, cb);
                out[2] = b;
                return Some((out, 3));
            }
            if self.free(rb, ca) && self.clear_col(ca, ra, rb) && self.clear_row(rb, ca, cb) {
                out[1] = (rb, ca);
                out[2] = b;
                return Some((out, 3));
            }
        }
        // Along the rows to a column k, down it, along the other row; then the same with
        // rows and columns swapped.
        if let Some(k) = middle_line(&self.rows, (ra, ca), (rb, cb)) {
            return Some(([a, (ra, k), (rb, k), b], 4));
        }
        if let Some(k) = middle_line(&self.cols, (ca, ra), (cb, rb)) {
            return Some(([a, (k, ca), (k, cb), b], 4));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_and_runs() {
        assert_eq!(span(2, 4), 0b11100);
        assert_eq!(span(3, 2), 0);
        assert_eq!(span(0, 63), u64::MAX);
        assert_eq!(between(5, 2), 0b11000);
        assert_eq!(between(2, 3), 0);
        // Free cells 1, 2, 3 and 6: the run through 2 is 1..=3; through 5 (itself
        // counted) 5..=6; through 0 it stops at the bottom.
        let w = 0b100_1110;
        assert_eq!(run(w, 2), (1, 3));
        assert_eq!(run(w, 5), (5, 6));
        assert_eq!(run(w, 0), (0, 3));
        assert_eq!(run(u64::MAX, 63), (0, 63));
    }
}
