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
    let (x, y, w, h) = rect;
    let b = cfg.blocks.max(1);
    let frame = ring_blocks(integral, rect, b)?;
    let (ix, iy) = (w * cfg.inset, h * cfg.inset);
    let (x0, y0, iw, ih) = (x + ix, y + iy, w - 2.0 * ix, h - 2.0 * iy);
    let xs: Vec<f32> = (0..=b).map(|i| x0 + iw * i as f32 / b as f32).collect();
    let ys: Vec<f32> = (0..=b).map(|i| y0 + ih * i as f32 / b as f32).collect();
    let blocks = block_means(integral, &xs, &ys, |_, _| true)?;
    let mut mean = [0f32; 3];
    for (i, v) in blocks.iter().enumerate() {
        mean[i % 3] += v;
    }
    let n = (b * b) as f32;
    for m in mean.iter_mut() {
        *m /= n;
    }
    let spread = blocks
        .iter()
        .enumerate()
        .map(|(i, v)| (v - mean[i % 3]).abs())
        .sum::<f32>()
        / blocks.len() as f32;
    Some(Picture {
        blocks,
        mean,
        spread,
        frame,
    })
}

/// The RGB means of the outer ring of a `b × b` block split of the whole rectangle.
fn ring_blocks(integral: &Integral, rect: (f32, f32, f32, f32), b: usize) -> Option<Vec<f32>> {
    let (x, y, w, h) = rect;
    let xs: Vec<f32> = (0..=b).map(|i| x + w * i as f32 / b as f32).collect();
    let ys: Vec<f32> = (0..=b).map(|i| y + h * i as f32 / b as f32).collect();
    block_means(integral, &xs, &ys, |r, c| {
        r == 0 || c == 0 || r + 1 == b || c + 1 == b
    })
}

/// RGB means of the blocks between consecutive `xs` and `ys` (row-major, RGB interleaved),
/// of the blocks `keep(row, col)` accepts; `None` outside the table's window.
fn block_means(
    integral: &Integral,
    xs: &[f32],
    ys: &[f32],
    keep: impl Fn(usize, usize) -> bool,
) -> Option<Vec<f32>> {
    let sums = integral.corner_sums(xs, ys)?;
    let (bx, by) = (xs.len() - 1, ys.len() - 1);
    let mut out = Vec::with_capacity(bx * by * 3);
    for r in 0..by {
        for c in 0..bx {
            if !keep(r, c) {
                continue;
            }
            let area = ((xs[c + 1] - xs[c]) * (ys[r + 1] - ys[r])) as f64;
            let (a, b, cc, d) = (
                sums[r * (bx + 1) + c],
                sums[r * (bx + 1) + c + 1],
                sums[(r + 1) * (bx + 1) + c],
                sums[(r + 1) * (bx + 1) + c + 1],
            );
            for ch in 0..3 {
                out.push(((d[ch] - b[ch] - cc[ch] + a[ch]) / area) as f32);
            }
        }
    }
    Some(out)
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
    let mut d: Vec<f32> = a
        .blocks
        .chunks_exact(3)
        .zip(b.blocks.chunks_exact(3))
        .map(|(x, y)| ((x[0] - y[0]).abs() + (x[1] - y[1]).abs() + (x[2] - y[2]).abs()) / 3.0)
        .collect();
    if d.is_empty() {
        return 0.0;
    }
    let k = (d.len() / 10).max(1);
    let n = d.len();
    d.select_nth_unstable_by(n - k, |p, q| p.total_cmp(q));
    d[n - k..].iter().sum::<f32>() / k as f32
}

/// The same difference after each picture's own mean and contrast per channel are taken
/// out: a tile the game tints, darkens or brightens (selected, hovered) is still near its
/// type under this distance.
pub fn shape_distance(a: &Picture, b: &Picture) -> f32 {
    let norm = |p: &Picture| -> Vec<f32> {
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
    };
    let (x, y) = (norm(a), norm(b));
    x.iter().zip(&y).map(|(p, q)| (p - q).abs()).sum::<f32>() / x.len().max(1) as f32
}

/// Cells grouped into pictures, and the cut that separated them.
#[derive(Clone, Debug, PartialEq)]
pub struct Grouping {
    /// Group index of each input picture.
    pub group: Vec<usize>,
    /// Number of groups.
    pub groups: usize,
    /// Distances under this joined two cells.
    pub cut: f32,
    /// Each picture's distance to its nearest other picture (`f32::INFINITY` when alone).
    pub nearest: Vec<f32>,
}

/// The minimum spanning tree of the pictures' distances (Prim's, O(n²)), as (a, b, d).
pub(crate) fn spanning_tree(pics: &[&Picture]) -> (Vec<(usize, usize, f32)>, Vec<f32>) {
    let n = pics.len();
    let mut nearest = vec![f32::INFINITY; n];
    let mut best = vec![(f32::INFINITY, usize::MAX); n];
    let mut done = vec![false; n];
    let mut edges = Vec::with_capacity(n.saturating_sub(1));
    if n == 0 {
        return (edges, nearest);
    }
    let mut cur = 0;
    done[0] = true;
    for _ in 1..n {
        for j in 0..n {
            if done[j] {
                continue;
            }
            let d = distance(pics[cur], pics[j]);
            nearest[cur] = nearest[cur].min(d);
            nearest[j] = nearest[j].min(d);
            if d < best[j].0 {
                best[j] = (d, cur);
            }
        }
        let next = (0..n)
            .filter(|&j| !done[j])
            .min_by(|&a, &b| best[a].0.total_cmp(&best[b].0))
            .expect("a cell is left");
        done[next] = true;
        edges.push((best[next].1, next, best[next].0));
        cur = next;
    }
    // Distances from the last cell added were never measured as `cur`.
    for j in 0..n {
        if j != cur {
            let d = distance(pics[cur], pics[j]);
            nearest[cur] = nearest[cur].min(d);
            nearest[j] = nearest[j].min(d);
        }
    }
    (edges, nearest)
}

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
        let (a, b) = (a.max(lo * 0.5), b.min(hi * 2.0));
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

/// Groups pictures by single linkage under the frame's own cut.
pub fn group(pics: &[&Picture], cfg: &ReaderConfig) -> Grouping {
    let (edges, nearest) = spanning_tree(pics);
    let cut = cut_between(edges.iter().map(|e| e.2).collect(), cfg);
    let (group, groups) = single_linkage(pics.len(), &edges, cut);
    Grouping {
        group,
        groups,
        cut,
        nearest,
    }
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
}
