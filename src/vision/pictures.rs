//! Stage 3, the cells' pictures: a descriptor per lattice cell, the distance between two,
//! and the grouping of cells into pictures.
//!
//! Real games draw every tile of a type from one sprite, so two tiles of a type differ only
//! by resampling and compression noise (0–4 on the 0–255 scale of the descriptors) while
//! different types differ by far more (9 and up). The grouping measures both populations in
//! each frame: the minimum spanning tree of all cells' distances holds one edge per
//! same-picture neighbour and one per pair of pictures, and the cut goes in the widest jump
//! between the two.

use super::config::ReaderConfig;
use super::pixels::Integral;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// What a cell shows: block means of its inner part, its mean colour and how much the
/// blocks vary.
#[derive(Clone, Debug, PartialEq)]
pub struct Picture {
    /// `blocks × blocks` block means, RGB interleaved, of the cell inset by the config's
    /// inset on each side.
    pub blocks: Vec<f32>,
    /// Mean colour of the inner part.
    pub mean: [f32; 3],
    /// Mean absolute deviation of the block means from `mean` (0 for a flat cell).
    pub spread: f32,
    /// Block means (RGB) of the whole cell's outer ring of blocks, no inset: where a tile
    /// shows the frame every tile of its set shares (border, bevel, 3-D side), and a ground
    /// cell shows ground. Tells a blank face from a flat ground.
    pub frame: Vec<f32>,
}

/// Describes the cell rectangle (x, y, w, h) in frame pixels (fractional), or `None` when it
/// is not inside the table's window.
pub fn describe(
    integral: &Integral,
    rect: (f32, f32, f32, f32),
    cfg: &ReaderConfig,
) -> Option<Picture> {
    let frame = ring_blocks(integral, rect, cfg.blocks.max(1))?;
    let mut p = describe_face(integral, rect, cfg)?;
    p.frame = frame;
    Some(p)
}

/// [`describe`] without the frame (left empty), for searches that compare faces only by
/// [`distance`]; `None` in the same cases.
pub fn describe_face(
    integral: &Integral,
    rect: (f32, f32, f32, f32),
    cfg: &ReaderConfig,
) -> Option<Picture> {
    let (x, y, w, h) = rect;
    if !integral.holds(x, y, x + w, y + h) {
        return None;
    }
    let b = cfg.blocks.max(1);
    let (ix, iy) = (w * cfg.inset, h * cfg.inset);
    let (x0, y0, iw, ih) = (x + ix, y + iy, w - 2.0 * ix, h - 2.0 * iy);
    let blocks = with_edges(
        b,
        |i| x0 + iw * i as f32 / b as f32,
        |xs| {
            with_edges(
                b,
                |i| y0 + ih * i as f32 / b as f32,
                |ys| block_means(integral, xs, ys, |_, _| true),
            )
        },
    )?;
    Some(Picture::from_blocks(blocks, Vec::new()))
}

impl Picture {
    /// The picture of `blocks` (block means, RGB interleaved) with its mean colour and
    /// spread taken from them, and `frame` as given.
    pub fn from_blocks(blocks: Vec<f32>, frame: Vec<f32>) -> Picture {
        let mut mean = [0f32; 3];
        for (i, v) in blocks.iter().enumerate() {
            mean[i % 3] += v;
        }
        let n = (blocks.len() / 3).max(1) as f32;
        for m in mean.iter_mut() {
            *m /= n;
        }
        let spread = blocks
            .iter()
            .enumerate()
            .map(|(i, v)| (v - mean[i % 3]).abs())
            .sum::<f32>()
            / blocks.len().max(1) as f32;
        Picture {
            blocks,
            mean,
            spread,
            frame,
        }
    }
}

/// The `b + 1` block edges `edge(0..=b)` handed to `f`, from the stack for up to 16
/// blocks: a descriptor is taken hundreds of thousands of times a read.
#[inline]
fn with_edges<R>(b: usize, edge: impl Fn(usize) -> f32, f: impl FnOnce(&[f32]) -> R) -> R {
    if b < 17 {
        let mut e = [0f32; 17];
        for (i, v) in e.iter_mut().enumerate().take(b + 1) {
            *v = edge(i);
        }
        f(&e[..=b])
    } else {
        let e: Vec<f32> = (0..=b).map(edge).collect();
        f(&e)
    }
}

/// Whether block (r, c) of a `b × b` split lies on its outer ring (a [`Picture::frame`]).
pub(crate) fn on_ring(r: usize, c: usize, b: usize) -> bool {
    r == 0 || c == 0 || r + 1 == b || c + 1 == b
}

/// The blocks of a picture's frame (of a `b × b` split) along one side of its cell, `side`
/// an index into [`super::ground::SIDES`] (top, bottom, left, right), each side's blocks
/// top to bottom or left to right.
pub(crate) fn frame_side(p: &Picture, b: usize, side: usize) -> Vec<[f32; 3]> {
    (0..b)
        .flat_map(|r| (0..b).map(move |c| (r, c)))
        .filter(|&(r, c)| on_ring(r, c, b))
        .zip(p.frame.chunks_exact(3))
        .filter(|&((r, c), _)| match side {
            0 => r == 0,
            1 => r + 1 == b,
            2 => c == 0,
            _ => c + 1 == b,
        })
        .map(|(_, v)| [v[0], v[1], v[2]])
        .collect()
}

/// The RGB means of the outer ring of a `b × b` block split of the whole rectangle.
fn ring_blocks(integral: &Integral, rect: (f32, f32, f32, f32), b: usize) -> Option<Vec<f32>> {
    let (x, y, w, h) = rect;
    with_edges(
        b,
        |i| x + w * i as f32 / b as f32,
        |xs| {
            with_edges(
                b,
                |i| y + h * i as f32 / b as f32,
                |ys| block_means(integral, xs, ys, |r, c| on_ring(r, c, b)),
            )
        },
    )
}

/// RGB means of the blocks between consecutive `xs` and `ys` (row-major, RGB interleaved),
/// of the blocks `keep(row, col)` accepts; `None` outside the table's window.
fn block_means(
    integral: &Integral,
    xs: &[f32],
    ys: &[f32],
    keep: impl Fn(usize, usize) -> bool,
) -> Option<Vec<f32>> {
    let (bx, by) = (xs.len() - 1, ys.len() - 1);
    let mut out = Vec::with_capacity(bx * by * 3);
    // The corner row above the blocks in hand, from the stack for up to 16 blocks.
    let mut above_stack = [[0f64; 3]; 17];
    let mut above_heap = Vec::new();
    let above: &mut [[f64; 3]] = if xs.len() <= 17 {
        &mut above_stack[..xs.len()]
    } else {
        above_heap.resize(xs.len(), [0f64; 3]);
        &mut above_heap
    };
    let inside = integral.corner_rows(xs, ys, |r, below| {
        if r > 0 {
            let r = r - 1;
            for c in 0..bx {
                if !keep(r, c) {
                    continue;
                }
                let area = ((xs[c + 1] - xs[c]) * (ys[r + 1] - ys[r])) as f64;
                let (a, b, cc, d) = (above[c], above[c + 1], below[c], below[c + 1]);
                for ch in 0..3 {
                    out.push(((d[ch] - b[ch] - cc[ch] + a[ch]) / area) as f32);
                }
            }
        }
        above.copy_from_slice(below);
    });
    inside.then_some(out)
}

/// How far apart two cells' frames are: the median over the ring's blocks of the
/// per-block difference (a symbol reaching the border spoils a few blocks, not the median).
pub fn frame_distance(a: &Picture, b: &Picture) -> f32 {
    median_gap(
        a.frame
            .chunks_exact(3)
            .zip(b.frame.chunks_exact(3))
            .map(|(x, y)| block_gap(x, y)),
    )
}

/// The frame every tile shares: per ring block, the median over the tiles' frames. `None`
/// with no tiles.
pub(crate) fn common_frame<'a>(tiles: impl Iterator<Item = &'a Picture>) -> Option<Picture> {
    let tiles: Vec<&Picture> = tiles.collect();
    let n = tiles.first()?.frame.len();
    let frame = (0..n)
        .map(|b| {
            let mut v: Vec<f32> = tiles
                .iter()
                .filter_map(|t| t.frame.get(b).copied())
                .collect();
            v.sort_by(|x, y| x.total_cmp(y));
            v[v.len() / 2]
        })
        .collect();
    Some(Picture {
        blocks: Vec::new(),
        mean: [0.0; 3],
        spread: 0.0,
        frame,
    })
}

/// How far a cell's frame stands from its own inner mean colour, by the same median: a
/// border or bevel shows on every side, a neighbour's shadow on one or two.
pub fn frame_contrast(p: &Picture) -> f32 {
    median_gap(p.frame.chunks_exact(3).map(|x| block_gap(x, &p.mean)))
}

/// Mean per-channel difference of two RGB block means.
fn block_gap(x: &[f32], y: &[f32]) -> f32 {
    ((x[0] - y[0]).abs() + (x[1] - y[1]).abs() + (x[2] - y[2]).abs()) / 3.0
}

/// The median of `gaps` (0 when there are none).
fn median_gap(gaps: impl Iterator<Item = f32>) -> f32 {
    let mut d: Vec<f32> = gaps.collect();
    if d.is_empty() {
        return 0.0;
    }
    let n = d.len();
    d.select_nth_unstable_by(n / 2, |x, y| x.total_cmp(y));
    d[n / 2]
}

/// How far apart two pictures are: the mean of the largest tenth of their blocks'
/// differences (summed over the channels, averaged per channel). Two tiles of different
/// types often differ in one stroke only (a numeral, a dot) and agree everywhere else, so a
/// mean over the whole picture would drown the difference; the worst blocks keep it, while
/// two copies of one sprite stay near zero in every block.
pub fn distance(a: &Picture, b: &Picture) -> f32 {
    let n = a.blocks.len().min(b.blocks.len()) / 3;
    if n == 0 {
        return 0.0;
    }
    // The gaps live on the stack for the descriptors the reader uses (up to 16 × 16
    // blocks): this runs for every pair of cells, hundreds of thousands of times a frame.
    let mut stack = [0f32; 256];
    let mut heap = Vec::new();
    let d: &mut [f32] = if n <= stack.len() {
        &mut stack[..n]
    } else {
        heap.resize(n, 0.0);
        &mut heap
    };
    for (g, (x, y)) in d
        .iter_mut()
        .zip(a.blocks.chunks_exact(3).zip(b.blocks.chunks_exact(3)))
    {
        *g = ((x[0] - y[0]).abs() + (x[1] - y[1]).abs() + (x[2] - y[2]).abs()) / 3.0;
    }
    let k = top_share(n);
    d.select_nth_unstable_by(n - k, |p, q| p.total_cmp(q));
    d[n - k..].iter().sum::<f32>() / k as f32
}

/// How many of `n` block differences [`distance`] averages: the largest tenth, at least one.
fn top_share(n: usize) -> usize {
    (n / 10).max(1)
}

/// [`distance`] where a caller only uses a distance below `bound`: `Some` of exactly
/// [`distance`]'s value (bit for bit), or `None` when the distance is certainly `bound` or
/// more (see [`top_mean_below`]).
pub(crate) fn distance_below(a: &Picture, b: &Picture, bound: f32) -> Option<f32> {
    let n = a.blocks.len().min(b.blocks.len()) / 3;
    if n == 0 || n > 256 {
        return Some(distance(a, b));
    }
    let mut stack = [0f32; 256];
    let d = &mut stack[..n];
    for (g, (x, y)) in d
        .iter_mut()
        .zip(a.blocks.chunks_exact(3).zip(b.blocks.chunks_exact(3)))
    {
        *g = ((x[0] - y[0]).abs() + (x[1] - y[1]).abs() + (x[2] - y[2]).abs()) / 3.0;
    }
    top_mean_below(d, bound)
}

/// The mean of the largest [`top_share`] of the block gaps `d` as [`distance`] takes it
/// (bit for bit), when it is below `bound`; `None` when it is certainly `bound` or more.
/// `d` is reordered.
///
/// The searches compare most pairs against a bound they fail: after the pivot and floor
/// tests, 92 % of the distances the spanning tree measured on the bench frames, and 81 %
/// of those the nearest-picture search measured, ended up over the bound. Those are told from a count: when `k` gaps (the number averaged) are each a
/// hair over `bound`, so is their mean, in any order of summation; the hair (2e-5 of the
/// bound) is far above the rounding of a sum of at most 25 floats. Fewer gaps past the
/// bound whose sum alone reaches `k` times it tell the same. No gap is ranked then.
/// Where the mean is needed, the largest one or two gaps (the share for pictures of fewer
/// than 30 blocks, as the coarse searches use) are found by a scan, and a sum of two
/// floats is the same in either order; more are ranked as [`distance`] ranks them, so
/// their sum runs in the same order.
fn top_mean_below(d: &mut [f32], bound: f32) -> Option<f32> {
    // Distances are never negative.
    if bound <= 0.0 {
        return None;
    }
    let n = d.len();
    let k = top_share(n);
    let over = bound * (1.0 + 2e-5);
    // Eight running counts and sums, so the loop runs eight gaps at a time (the sum is
    // only held against a margin: its order does not matter).
    let (mut counts, mut sums) = ([0u32; 8], [0f32; 8]);
    let mut chunks = d.chunks_exact(8);
    for c in &mut chunks {
        for i in 0..8 {
            let past = c[i] >= over;
            counts[i] += past as u32;
            sums[i] += if past { c[i] } else { 0.0 };
        }
    }
    for (i, &g) in chunks.remainder().iter().enumerate() {
        let past = g >= over;
        counts[i] += past as u32;
        sums[i] += if past { g } else { 0.0 };
    }
    let count = counts.iter().sum::<u32>() as usize;
    let sum = sums.iter().sum::<f32>();
    // The gaps past the bound are among the largest, so their sum is at most the sum
    // `distance` takes (its rounding, under 256 floats, is far below 1e-4 of it).
    if count >= k || sum >= k as f32 * bound * (1.0 + 1e-4) {
        return None;
    }
    match k {
        1 => Some(d.iter().copied().fold(f32::NEG_INFINITY, f32::max)),
        2 => {
            let (mut first, mut second) = (f32::NEG_INFINITY, f32::NEG_INFINITY);
            for &g in d.iter() {
                if g > first {
                    (first, second) = (g, first);
                } else if g > second {
                    second = g;
                }
            }
            Some((first + second) / 2.0)
        }
        _ => {
            d.select_nth_unstable_by(n - k, |p, q| p.total_cmp(q));
            Some(d[n - k..].iter().sum::<f32>() / k as f32)
        }
    }
}

/// The blocks of a list of pictures of one shape as three colour planes each, so that
/// the gaps [`distance`] ranks are taken four or eight blocks at a time (interleaved RGB
/// keeps the compiler to one block at a time): the same arithmetic per block, so the same
/// gaps.
struct Planes {
    /// Blocks per picture.
    n: usize,
    /// Picture i's red plane at `3 * n * i`, then its green and blue planes.
    data: Vec<f32>,
}

impl Planes {
    /// The planes of `pics`, or `None` when they differ in shape or hold more than 256
    /// blocks.
    fn new(pics: &[&Picture]) -> Option<Planes> {
        let len = pics.first()?.blocks.len();
        let n = len / 3;
        if n == 0 || n > 256 || pics.iter().any(|p| p.blocks.len() != len) {
            return None;
        }
        let mut data = vec![0f32; 3 * n * pics.len()];
        for (p, out) in pics.iter().zip(data.chunks_exact_mut(3 * n)) {
            for (b, rgb) in p.blocks.chunks_exact(3).enumerate() {
                out[b] = rgb[0];
                out[n + b] = rgb[1];
                out[2 * n + b] = rgb[2];
            }
        }
        Some(Planes { n, data })
    }

    /// [`distance_below`] between pictures `a` and `b`, the gaps written to `scratch`
    /// (a buffer of the caller's, so nothing is cleared per pair).
    fn distance_below(
        &self,
        a: usize,
        b: usize,
        bound: f32,
        scratch: &mut Vec<f32>,
    ) -> Option<f32> {
        let n = self.n;
        let (pa, pb) = (
            &self.data[3 * n * a..3 * n * (a + 1)],
            &self.data[3 * n * b..3 * n * (b + 1)],
        );
        let (ra, ga, ba) = (&pa[..n], &pa[n..2 * n], &pa[2 * n..]);
        let (rb, gb, bb) = (&pb[..n], &pb[n..2 * n], &pb[2 * n..]);
        scratch.resize(n, 0.0);
        let d = &mut scratch[..n];
        for i in 0..n {
            d[i] = ((ra[i] - rb[i]).abs() + (ga[i] - gb[i]).abs() + (ba[i] - bb[i]).abs()) / 3.0;
        }
        top_mean_below(d, bound)
    }
}

/// Mean colours of sets of a picture's blocks, each set at least as large as the share
/// [`distance`] averages, for [`distance_floor`]: all blocks, and for a square split each
/// row and each column of blocks when a row holds that many.
pub(crate) fn set_means(p: &Picture) -> Vec<f32> {
    let n = p.blocks.len() / 3;
    let mut out = Vec::new();
    let mut push = |idx: &mut dyn Iterator<Item = usize>| {
        let mut sum = [0f32; 3];
        let mut count = 0usize;
        for i in idx {
            for (ch, s) in sum.iter_mut().enumerate() {
                *s += p.blocks[i * 3 + ch];
            }
            count += 1;
        }
        if count > 0 {
            out.extend(sum.iter().map(|s| s / count as f32));
        }
    };
    push(&mut (0..n));
    let side = (n as f64).sqrt().round() as usize;
    if side * side == n && side >= top_share(n) {
        for r in 0..side {
            push(&mut (r * side..(r + 1) * side));
        }
        for c in 0..side {
            push(&mut (c..n).step_by(side));
        }
    }
    out
}

/// A floor under [`distance`] from two pictures' [`set_means`] (of pictures with as many
/// blocks): the top tenth's mean is at least the mean over any set of that many blocks or
/// more, and a set's mean difference is at least the difference of its mean colours. Costs
/// a fifth of [`distance`]; where it already exceeds what a search would accept, the
/// distance need not be measured.
pub(crate) fn distance_floor(a: &[f32], b: &[f32]) -> f32 {
    let mut floor = 0f32;
    for (x, y) in a.chunks_exact(3).zip(b.chunks_exact(3)) {
        floor = floor.max(((x[0] - y[0]).abs() + (x[1] - y[1]).abs() + (x[2] - y[2]).abs()) / 3.0);
    }
    // Summation order differs from `distance`'s: stay below it by more than rounding.
    floor * (1.0 - 1e-4) - 1e-4
}

/// The same difference after each picture's own mean and contrast per channel are taken
/// out: a tile the game tints, darkens or brightens (selected, hovered) is still near its
/// type under this distance.
pub fn shape_distance(a: &Picture, b: &Picture) -> f32 {
    shapes_apart(&shape_of(a), &shape_of(b))
}

/// A picture's blocks with each channel's own mean and contrast taken out, as
/// [`shape_distance`] compares them (worth keeping where one picture meets many).
pub fn shape_of(p: &Picture) -> Vec<f32> {
    let mut out = p.blocks.clone();
    for ch in 0..3 {
        let vals: Vec<f32> = p.blocks.iter().skip(ch).step_by(3).copied().collect();
        let m = vals.iter().sum::<f32>() / vals.len() as f32;
        let s = (vals.iter().map(|v| (v - m).abs()).sum::<f32>() / vals.len() as f32).max(1.0);
        for (i, v) in out.iter_mut().enumerate().skip(ch).step_by(3) {
            *v = (p.blocks[i] - m) / s * 32.0;
        }
    }
    out
}

/// [`shape_distance`] between two shapes from [`shape_of`].
pub fn shapes_apart(x: &[f32], y: &[f32]) -> f32 {
    x.iter().zip(y).map(|(p, q)| (p - q).abs()).sum::<f32>() / x.len().max(1) as f32
}

/// Cells grouped into pictures, and the cut that separated them.
#[derive(Clone, Debug, PartialEq)]
pub struct PictureGroups {
    /// Group index of each input picture.
    pub group: Vec<usize>,
    /// Number of groups.
    pub groups: usize,
    /// Distances under this joined two cells.
    pub cut: f32,
}

/// The minimum spanning tree of the pictures' distances (Prim's, O(n²)), as (a, b, d),
/// exact for its links under `ceiling`: a link of `ceiling` or more is given as
/// `f32::INFINITY` (its length not measured). Links under a ceiling are the minimum
/// spanning forest of the pairs closer than it, so the tree's short links do not depend on
/// the long ones.
///
/// Most pairs are never measured. `distance` is a metric (the mean of the largest tenth
/// of per-block L1 gaps is a norm of the gaps, and each gap obeys the triangle
/// inequality), so the distances of every cell to a few pivots bound each pair's from
/// below, `|d(p, a) − d(p, b)|`; with [`distance_floor`] that skips pairs that cannot
/// shorten a cell's link to the tree, nor come under the ceiling. Pivots are picked
/// farthest first, so that the ground, the board's frame and the tile types each get one
/// near them. Links are exact up to [`SLACK`] each.
pub(crate) fn spanning_tree(pics: &[&Picture], ceiling: f32) -> Vec<(usize, usize, f32)> {
    let n = pics.len();
    let mut best = vec![(f32::INFINITY, usize::MAX); n];
    let mut edges = Vec::with_capacity(n.saturating_sub(1));
    if n == 0 {
        return edges;
    }
    let floors = Floors::new(pics);
    let pivots = pivot_rows(pics, PIVOTS.min(n / 8));
    let planes = Planes::new(pics);
    let mut scratch = Vec::new();
    // Distances to the pivots, cell-major in one table, for the bound's inner loop.
    let np = pivots.len();
    let mut to_pivots = vec![0f32; n * np];
    for (p, row) in pivots.iter().enumerate() {
        for (i, &d) in row.iter().enumerate() {
            to_pivots[i * np + p] = d;
        }
    }
    // The cells not yet in the tree, in any order: each step visits only these, and picks
    // the nearest by (distance, index) as a scan in index order would.
    let mut left: Vec<usize> = (1..n).collect();
    let mut cur = 0;
    while !left.is_empty() {
        let here = &to_pivots[cur * np..(cur + 1) * np];
        let mut next_at = 0;
        for (at, &j) in left.iter().enumerate() {
            let limit = best[j].0.min(ceiling) - SLACK;
            // The pivot bound is a maximum of absolute values, never below 0: a cell
            // already linked within SLACK of 0 (a copy of a picture in the tree) is passed
            // without it, as the bound would pass it.
            let skip = limit.is_finite()
                && (limit <= 0.0 || {
                    let there = &to_pivots[j * np..(j + 1) * np];
                    let bound = here
                        .iter()
                        .zip(there)
                        .fold(0f32, |m, (a, b)| m.max((a - b).abs()));
                    bound >= limit || floors.reaches(cur, j, limit)
                });
            if !skip {
                let bound = best[j].0.min(ceiling);
                let measured = match &planes {
                    Some(p) => p.distance_below(cur, j, bound, &mut scratch),
                    None => distance_below(pics[cur], pics[j], bound),
                };
                if let Some(d) = measured {
                    if d < best[j].0 && d < ceiling {
                        best[j] = (d, cur);
                    }
                }
            }
            let other = left[next_at];
            if at > 0
                && best[j]
                    .0
                    .total_cmp(&best[other].0)
                    .then(j.cmp(&other))
                    .is_lt()
            {
                next_at = at;
            }
        }
        let next = left.swap_remove(next_at);
        // No link under the ceiling reaches the tree: `next` starts the next part.
        let from = if best[next].1 == usize::MAX {
            cur
        } else {
            best[next].1
        };
        edges.push((from, next, best[next].0));
        cur = next;
    }
    edges
}

/// The [`set_means`] of a list of pictures, for [`distance_floor`]s between them.
struct Floors<'a> {
    pics: &'a [&'a Picture],
    /// Every picture's set means, one after another (picture i's from `starts[i]` to
    /// `starts[i + 1]`): one block of memory for the searches' inner loops.
    means: Vec<f32>,
    starts: Vec<usize>,
}

impl<'a> Floors<'a> {
    fn new(pics: &'a [&'a Picture]) -> Self {
        let mut means = Vec::new();
        let mut starts = vec![0];
        for p in pics {
            means.extend(set_means(p));
            starts.push(means.len());
        }
        Floors {
            pics,
            means,
            starts,
        }
    }

    /// Picture `i`'s set means.
    fn of(&self, i: usize) -> &[f32] {
        &self.means[self.starts[i]..self.starts[i + 1]]
    }

    /// A floor under `distance(pics[a], pics[b])` from the first `sets` block sets (the
    /// first is the whole face; `usize::MAX` takes all); 0 between pictures of different
    /// shapes, where the floor does not hold.
    fn between(&self, a: usize, b: usize, sets: usize) -> f32 {
        let (ma, mb) = (self.of(a), self.of(b));
        if self.pics[a].blocks.len() != self.pics[b].blocks.len() || ma.len() != mb.len() {
            return 0.0;
        }
        let n = sets.saturating_mul(3).min(ma.len());
        distance_floor(&ma[..n], &mb[..n])
    }

    /// Whether `between(a, b, usize::MAX) >= limit`, stopping at the first set whose
    /// floor reaches it (the floor is a maximum over the sets, passed through one
    /// increasing step).
    fn reaches(&self, a: usize, b: usize, limit: f32) -> bool {
        let (ma, mb) = (self.of(a), self.of(b));
        if self.pics[a].blocks.len() != self.pics[b].blocks.len() || ma.len() != mb.len() {
            return 0.0 >= limit;
        }
        let lift = |gap: f32| gap * (1.0 - 1e-4) - 1e-4;
        lift(0.0) >= limit
            || ma.chunks_exact(3).zip(mb.chunks_exact(3)).any(|(x, y)| {
                lift(((x[0] - y[0]).abs() + (x[1] - y[1]).abs() + (x[2] - y[2]).abs()) / 3.0)
                    >= limit
            })
    }
}

/// Each picture's distance to its nearest other picture among `pics` (`f32::INFINITY`
/// when it is alone), for the pictures at `queries`. Exact: the minimum over every other
/// picture, with pictures skipped only where a floor under their distance
/// ([`distance_floor`]) already reaches the nearest distance found.
///
/// Candidates come in order of the gap between their mean colours' channel sums, a floor
/// under the whole face's floor (`|Σa − Σb| ≤ Σ|a − b|`): the pictures are sorted by that
/// sum once, and each query walks outwards from its own place, nearer side first, until
/// the gap reaches the nearest distance (for a tile whose twin is in `pics`, after a few).
/// On the bench frames a query had 150 other pictures on average and the search took
/// 30 of them off a queue by colour floor, which cost a floor and a heap entry for all
/// 150; the walk visits about as many as the queue gave, and builds nothing per query.
pub(crate) fn nearest_distances(pics: &[&Picture], queries: &[usize]) -> Vec<f32> {
    let floors = Floors::new(pics);
    let n = pics.len();
    let shape = |i: usize| floors.of(i).len();
    let planes = match Planes::new(pics) {
        Some(p) if shape(0) >= 3 && (1..n).all(|i| shape(i) == shape(0)) => p,
        _ => return nearest_by_colour_queue(pics, queries, &floors),
    };
    let key: Vec<f64> = (0..n)
        .map(|i| {
            let m = floors.of(i);
            m[0] as f64 + m[1] as f64 + m[2] as f64
        })
        .collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| key[a].total_cmp(&key[b]).then(a.cmp(&b)));
    let mut rank = vec![0usize; n];
    for (r, &i) in order.iter().enumerate() {
        rank[i] = r;
    }
    let mut scratch = Vec::new();
    queries
        .iter()
        .map(|&a| {
            let ka = key[a];
            // The floor the walk stops at: the same margins as `distance_floor`'s, and as
            // much again for the other summation.
            let gap_floor = |b: usize| (ka - key[b]).abs() / 3.0 * (1.0 - 1e-4) - 2e-4;
            // The next candidates on each side are order[lo - 1] and order[hi].
            let (mut lo, mut hi) = (rank[a], rank[a] + 1);
            let mut nearest = f32::INFINITY;
            loop {
                let b = match (lo > 0, hi < n) {
                    (false, false) => break,
                    (true, false) => order[lo - 1],
                    (false, true) => order[hi],
                    (true, true) => {
                        let (l, h) = (order[lo - 1], order[hi]);
                        if ka - key[l] <= key[h] - ka {
                            l
                        } else {
                            h
                        }
                    }
                };
                if lo > 0 && b == order[lo - 1] {
                    lo -= 1;
                } else {
                    hi += 1;
                }
                if gap_floor(b) >= nearest as f64 {
                    break;
                }
                if !floors.reaches(a, b, nearest) {
                    if let Some(d) = planes.distance_below(a, b, nearest, &mut scratch) {
                        nearest = nearest.min(d);
                    }
                }
            }
            nearest
        })
        .collect()
}

/// [`nearest_distances`] for pictures of different shapes, where a colour floor holds only
/// between pictures of one shape: candidates come off a heap by the whole picture's colour
/// floor (0 across shapes).
fn nearest_by_colour_queue(pics: &[&Picture], queries: &[usize], floors: &Floors) -> Vec<f32> {
    queries
        .iter()
        .map(|&a| {
            // Non-negative floats order as their bits.
            let mut order: BinaryHeap<Reverse<(u32, usize)>> = (0..pics.len())
                .filter(|&b| b != a)
                .map(|b| Reverse((floors.between(a, b, 1).max(0.0).to_bits(), b)))
                .collect();
            let mut nearest = f32::INFINITY;
            while let Some(Reverse((whole, b))) = order.pop() {
                if f32::from_bits(whole) >= nearest {
                    break;
                }
                if floors.between(a, b, usize::MAX) < nearest {
                    if let Some(d) = distance_below(pics[a], pics[b], nearest) {
                        nearest = nearest.min(d);
                    }
                }
            }
            nearest
        })
        .collect()
}

/// The distances of every picture to `k` pivots picked farthest first (the first is
/// picture 0; each next one the picture farthest from all pivots so far).
fn pivot_rows(pics: &[&Picture], k: usize) -> Vec<Vec<f32>> {
    let n = pics.len();
    let mut rows: Vec<Vec<f32>> = Vec::with_capacity(k);
    let mut gap = vec![f32::INFINITY; n];
    let mut p = 0;
    for _ in 0..k {
        let row: Vec<f32> = (0..n).map(|j| distance(pics[p], pics[j])).collect();
        for (g, d) in gap.iter_mut().zip(&row) {
            *g = g.min(*d);
        }
        rows.push(row);
        p = (0..n)
            .max_by(|&a, &b| gap[a].total_cmp(&gap[b]))
            .unwrap_or(0);
        if gap[p] <= SLACK {
            break;
        }
    }
    rows
}

/// Pivots [`spanning_tree`] measures every cell against: each costs one row of distances
/// and tightens the bound on every pair. Once the stage reader works on the part of the
/// window round the board, few enough: on the full-HD bench frames 16 pivots cost 7.1 ms
/// of a read on a known grid and 8 cost 6.1, 4 cost 5.4 and 2 5.3 (KShisen's 30x16 board:
/// 22.3, 18.9, 18.3 ms for 16, 4, 2); the distances, and so the tree, are the same.
const PIVOTS: usize = 4;

/// A link to the tree is not shortened by less than this: distances this small are
/// rounding between copies of one picture (1e-6 measured on flat ground), far below
/// anything [`cut_between`] tells apart (it takes every distance under 0.25 as 0.25).
const SLACK: f32 = 0.01;

/// Where same and different pictures part in this frame: the widest jump (as a ratio)
/// between consecutive sorted spanning-tree distances that straddles the config's floor
/// and ceiling, cut at its geometric middle.
pub fn cut_between(mut dists: Vec<f32>, cfg: &ReaderConfig) -> f32 {
    dists.sort_by(|a, b| a.total_cmp(b));
    let lo = cfg.same_floor;
    let hi = cfg.different_ceiling;
    let mut best: Option<(f32, f32)> = None;
    // Every candidate cut: between two consecutive distances, or below the first / above
    // the last one (all pictures different / all alike).
    for w in dists.windows(2) {
        let (a, b) = (w[0].max(0.25), w[1].max(0.25));
        if b <= lo || a >= hi {
            continue;
        }
        let (a, b) = (a.max(lo * 0.5), b.min(cut_ceiling(cfg)));
        let ratio = b / a;
        if ratio >= cfg.min_gap_ratio && best.is_none_or(|(r, _)| ratio > r) {
            best = Some((ratio, (a * b).sqrt().clamp(lo, hi)));
        }
    }
    match best {
        Some((_, c)) => c,
        // No jump: every distance on one side. Pictures this close are alike; farther apart
        // they differ.
        None => (lo * hi).sqrt(),
    }
}

/// The distance [`cut_between`] takes every longer one as: two pictures this far apart
/// differ whatever else the frame shows, and how much farther does not move the cut.
fn cut_ceiling(cfg: &ReaderConfig) -> f32 {
    cfg.different_ceiling * 2.0
}

/// Groups pictures by single linkage under the frame's own cut.
pub fn group(pics: &[&Picture], cfg: &ReaderConfig) -> PictureGroups {
    let edges = spanning_tree(pics, cut_ceiling(cfg));
    let cut = cut_between(edges.iter().map(|e| e.2).collect(), cfg);
    let (group, groups) = single_linkage(pics.len(), &edges, cut);
    PictureGroups { group, groups, cut }
}

/// The components of `n` items joined by the `edges` (a, b, d) shorter than `cut`: each
/// item's component index (numbered in order of first item) and the component count.
pub(crate) fn single_linkage(
    n: usize,
    edges: &[(usize, usize, f32)],
    cut: f32,
) -> (Vec<usize>, usize) {
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(p: &mut [usize], mut i: usize) -> usize {
        while p[i] != i {
            p[i] = p[p[i]];
            i = p[i];
        }
        i
    }
    for &(a, b, d) in edges {
        if d < cut {
            let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
            parent[ra] = rb;
        }
    }
    let mut index = vec![usize::MAX; n];
    let mut group = vec![0; n];
    let mut groups = 0;
    for (i, g) in group.iter_mut().enumerate() {
        let r = find(&mut parent, i);
        if index[r] == usize::MAX {
            index[r] = groups;
            groups += 1;
        }
        *g = index[r];
    }
    (group, groups)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pic(v: &[f32]) -> Picture {
        let blocks: Vec<f32> = v.iter().flat_map(|&x| [x, x, x]).collect();
        let m = v.iter().sum::<f32>() / v.len() as f32;
        Picture {
            frame: Vec::new(),
            mean: [m; 3],
            spread: v.iter().map(|x| (x - m).abs()).sum::<f32>() / v.len() as f32,
            blocks,
        }
    }

    #[test]
    fn twins_group_and_strangers_do_not() {
        let a = pic(&[10.0, 200.0, 30.0, 90.0]);
        let a2 = pic(&[11.0, 199.0, 31.0, 91.0]);
        let b = pic(&[200.0, 10.0, 90.0, 30.0]);
        let b2 = pic(&[201.0, 12.0, 89.0, 29.0]);
        let c = pic(&[120.0, 120.0, 20.0, 220.0]);
        let pics = [&a, &b, &a2, &c, &b2];
        let g = group(&pics, &ReaderConfig::default());
        assert_eq!(g.group[0], g.group[2]);
        assert_eq!(g.group[1], g.group[4]);
        assert_ne!(g.group[0], g.group[1]);
        assert_ne!(g.group[3], g.group[0]);
        assert_eq!(g.groups, 3);
        assert!(g.cut > 1.5 && g.cut < 60.0, "{}", g.cut);
    }

    #[test]
    fn the_cut_sits_in_the_frames_own_gap() {
        // Same pictures at 0.5–1.2 (a clean capture), different at 20 and up.
        let cut = cut_between(
            vec![0.5, 0.8, 1.2, 0.6, 20.0, 25.0, 40.0],
            &ReaderConfig::default(),
        );
        assert!(cut > 2.4 && cut < 16.1, "{cut}");
        // Noisy frame: same at 3–5, different from 14: still cut between.
        let cut = cut_between(vec![3.0, 4.0, 5.0, 14.0, 18.0], &ReaderConfig::default());
        assert!(cut > 5.0 && cut < 14.0, "{cut}");
    }

    #[test]
    fn a_tinted_picture_keeps_its_shape() {
        let a = pic(&[10.0, 200.0, 30.0, 90.0]);
        // Brighter and lower contrast, as a selection highlight does.
        let t = pic(&[60.0, 220.0, 75.0, 125.0]);
        let other = pic(&[200.0, 10.0, 90.0, 30.0]);
        assert!(distance(&a, &t) > 20.0);
        assert!(shape_distance(&a, &t) < shape_distance(&a, &other) / 3.0);
    }

    /// A reproducible stream of numbers in [0, 1).
    fn stream(seed: u64) -> impl FnMut() -> f32 {
        let mut x = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        move || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 40) as f32 / (1u64 << 24) as f32
        }
    }

    /// Pictures of `b × b` RGB blocks as a frame gives them: `types` sprites copied with
    /// rounding noise, textured ground cells that all differ, and a few strays.
    fn frame_like(seed: u64, b: usize, types: usize) -> Vec<Picture> {
        let mut r = stream(seed);
        let n = b * b * 3;
        let sprite = |r: &mut dyn FnMut() -> f32| -> Vec<f32> {
            let base = r() * 200.0;
            (0..n).map(|_| base + r() * 55.0).collect()
        };
        let mut out = Vec::new();
        let ground = sprite(&mut r);
        for _ in 0..types {
            let s = sprite(&mut r);
            for _ in 0..(2 + (r() * 6.0) as usize) {
                out.push(s.iter().map(|v| v + r() * 1.5).collect::<Vec<f32>>());
            }
        }
        for _ in 0..40 {
            out.push(ground.iter().map(|v| v + r() * 12.0).collect());
        }
        for _ in 0..5 {
            out.push(sprite(&mut r));
        }
        out.into_iter()
            .map(|blocks| Picture {
                mean: [0.0; 3],
                spread: 0.0,
                frame: Vec::new(),
                blocks,
            })
            .collect()
    }

    #[test]
    fn the_floor_never_exceeds_the_distance() {
        for (seed, b) in [(1, 10), (2, 5), (3, 3), (4, 16)] {
            let pics = frame_like(seed, b, 6);
            let means: Vec<Vec<f32>> = pics.iter().map(set_means).collect();
            for i in 0..pics.len() {
                for j in 0..pics.len() {
                    let (f, d) = (
                        distance_floor(&means[i], &means[j]),
                        distance(&pics[i], &pics[j]),
                    );
                    assert!(f <= d, "blocks {b}: floor {f} over distance {d}");
                }
            }
        }
    }

    #[test]
    fn the_pruned_spanning_tree_has_the_links_of_the_measured_one() {
        for seed in 0..4 {
            let pics = frame_like(seed, 10, 14);
            let refs: Vec<&Picture> = pics.iter().collect();
            let n = refs.len();
            // Prim's on every distance.
            let mut best = vec![f32::INFINITY; n];
            let mut done = vec![false; n];
            let mut want = Vec::new();
            let mut cur = 0;
            done[0] = true;
            for _ in 1..n {
                for j in 0..n {
                    if !done[j] {
                        best[j] = best[j].min(distance(refs[cur], refs[j]));
                    }
                }
                let next = (0..n)
                    .filter(|&j| !done[j])
                    .min_by(|&a, &b| best[a].total_cmp(&best[b]))
                    .unwrap();
                done[next] = true;
                want.push(best[next]);
                cur = next;
            }
            for ceiling in [f32::INFINITY, 32.0, 8.0] {
                let mut got: Vec<f32> = spanning_tree(&refs, ceiling).iter().map(|e| e.2).collect();
                let mut want: Vec<f32> = want
                    .iter()
                    .map(|&d| if d < ceiling { d } else { f32::INFINITY })
                    .collect();
                got.sort_by(f32::total_cmp);
                want.sort_by(f32::total_cmp);
                assert_eq!(got.len(), want.len());
                for (g, w) in got.iter().zip(&want) {
                    assert!(
                        g == w || (g - w).abs() <= SLACK * 2.0,
                        "seed {seed} ceiling {ceiling}: link {g} where {w}"
                    );
                }
            }
        }
    }

    #[test]
    fn nearest_distances_are_the_measured_minimum() {
        for seed in 0..3 {
            let pics = frame_like(seed, 5, 10);
            let refs: Vec<&Picture> = pics.iter().collect();
            let queries: Vec<usize> = (0..refs.len()).step_by(3).collect();
            let got = nearest_distances(&refs, &queries);
            for (&a, g) in queries.iter().zip(&got) {
                let want = (0..refs.len())
                    .filter(|&b| b != a)
                    .map(|b| distance(refs[a], refs[b]))
                    .fold(f32::INFINITY, f32::min);
                assert_eq!(*g, want, "seed {seed}, picture {a}");
            }
        }
    }

    #[test]
    fn a_face_is_the_picture_without_its_frame() {
        let img = image::RgbaImage::from_fn(60, 40, |x, y| {
            image::Rgba([(x * 4) as u8, (y * 6) as u8, ((x * y) % 251) as u8, 255])
        });
        let integral = Integral::new(&img, 0, 0, 60, 40);
        let cfg = ReaderConfig::default();
        for rect in [
            (3.3, 2.7, 20.5, 24.0),
            (0.0, 0.0, 60.0, 40.0),
            (45.0, 10.0, 16.0, 10.0),
            (-0.5, 5.0, 10.0, 10.0),
        ] {
            let whole = describe(&integral, rect, &cfg);
            let face = describe_face(&integral, rect, &cfg);
            assert_eq!(whole.is_some(), face.is_some(), "{rect:?}");
            if let (Some(w), Some(f)) = (whole, face) {
                assert_eq!((w.blocks, w.mean, w.spread), (f.blocks, f.mean, f.spread));
                assert!(f.frame.is_empty() && !w.frame.is_empty());
            }
        }
    }
}
