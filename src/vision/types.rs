//! Grouping tiles into types: equal pictures get equal letters.
//!
//! Tiles are compared by the colour block descriptors of [`super::cells`] with a small
//! alignment search. Leader clustering in row-major order names types in order of first
//! appearance, so two readings of one screen give the same letters. Every type must occur an
//! even number of times; odd groups are repaired where the evidence allows (a type split in
//! two by JPEG noise, a highlighted tile) and otherwise reported as unsure cells.

use super::cells::{affine_dist, cell_dist, centre_dist_limit, CellFeatures, Desc, B};
use super::pixels::{colour_dist, mode_colour};
use image::{GrayImage, Luma};
use imageproc::region_labelling::{connected_components, Connectivity};
use std::cell::RefCell;

/// Result of grouping: a group index per input cell (groups numbered in order of first
/// appearance) and the inputs the grouping is not sure of.
#[derive(Clone, Debug, Default)]
pub struct Grouping {
    /// Group index of each input.
    pub group: Vec<usize>,
    /// Indices of the inputs the grouping is not sure of.
    pub unsure: Vec<usize>,
}

/// Distances between a group leader and a cell: the unshifted descriptors first, and the
/// cell's alignment shifts (computed on demand through `expand`, then kept) only when that
/// is close but not close enough — most pairs are either equal or far apart.
struct Matcher<'a> {
    cells: &'a [&'a CellFeatures],
    expand: &'a dyn Fn(usize) -> Option<CellFeatures>,
    full: RefCell<Vec<Option<Option<CellFeatures>>>>,
}

impl Matcher<'_> {
    fn dist(&self, leader: usize, i: usize, limit: f32) -> f32 {
        let d0 = centre_dist_limit(self.cells[leader], self.cells[i], limit * 2.5);
        if d0 < limit * 0.5 || d0 >= limit * 2.5 || self.cells[i].descs.len() > 1 {
            return if self.cells[i].descs.len() > 1 {
                cell_dist(self.cells[leader], self.cells[i], limit)
            } else {
                d0
            };
        }
        let mut full = self.full.borrow_mut();
        let e = full[i].get_or_insert_with(|| (self.expand)(i));
        match e {
            Some(f) => cell_dist(self.cells[leader], f, limit).min(d0),
            None => d0,
        }
    }
}

/// Groups cells whose pictures match within `threshold` (mean absolute difference of block
/// means, 0..255). `expand(i)` gives cell `i` with its alignment-shifted descriptors when
/// `cells` hold only unshifted ones (see [`super::cells::features_with`]).
pub fn group(
    cells: &[&CellFeatures],
    threshold: f32,
    expand: &dyn Fn(usize) -> Option<CellFeatures>,
) -> Grouping {
    let m = Matcher {
        cells,
        expand,
        full: RefCell::new(vec![None; cells.len()]),
    };
    let mut leaders: Vec<usize> = Vec::new();
    let mut group = vec![usize::MAX; cells.len()];
    let mut fit = vec![0f32; cells.len()];
    for i in 0..cells.len() {
        let mut best = (usize::MAX, threshold);
        for (g, &l) in leaders.iter().enumerate() {
            let d = m.dist(l, i, best.1);
            if d < best.1 {
                best = (g, d);
            }
        }
        if best.0 == usize::MAX {
            group[i] = leaders.len();
            leaders.push(i);
        } else {
            group[i] = best.0;
            fit[i] = best.1;
        }
    }
    let mut unsure = Vec::new();
    repair_parity(&m, &leaders, &mut group, &mut fit, threshold, &mut unsure);
    merge_marked(&m, &leaders, &mut group, threshold, &mut unsure);
    // Renumber groups in order of first appearance after merges.
    let mut order = vec![usize::MAX; leaders.len()];
    let mut next = 0;
    for g in group.iter_mut() {
        if order[*g] == usize::MAX {
            order[*g] = next;
            next += 1;
        }
        *g = order[*g];
    }
    unsure.sort_unstable();
    unsure.dedup();
    Grouping { group, unsure }
}

fn counts(group: &[usize], n: usize) -> Vec<usize> {
    let mut c = vec![0; n];
    for &g in group {
        c[g] += 1;
    }
    c
}

/// Makes odd groups even where a close match explains them: first moves a member of one
/// odd group into another odd group it nearly matches (plain or under a highlight's gain
/// and tint), then marks what is still odd as unsure.
fn repair_parity(
    m: &Matcher,
    leaders: &[usize],
    group: &mut [usize],
    fit: &mut [f32],
    threshold: f32,
    unsure: &mut Vec<usize>,
) {
    let n = leaders.len();
    // A move takes a cell from one odd group into another, and leaves both even; an even
    // group is never odd again. So the candidate moves of every later step are the first
    // step's, less those touching a group made even, and a cell's distance to a leader
    // does not change: the moves are measured once and taken cheapest first. (Measuring
    // them again on every move costs seconds on junk lattices of hundreds of odd groups,
    // mid-animation frames.) The stable sort keeps the scan order (group, cell, target) among
    // equal distances, so the moves are those a step-by-step search makes.
    let mut odd: Vec<bool> = counts(group, n).iter().map(|k| k % 2 == 1).collect();
    let odd_groups: Vec<usize> = (0..n).filter(|&g| odd[g]).collect();
    let mut moves: Vec<(f32, usize, usize)> = Vec::new();
    for &ga in &odd_groups {
        for (i, _) in group.iter().enumerate().filter(|(_, &g)| g == ga) {
            for &gb in odd_groups.iter().filter(|&&g| g != ga) {
                let l = m.cells[leaders[gb]];
                let plain = m.dist(leaders[gb], i, threshold * 2.0);
                let (aff, gain) = affine_dist(l.centre(), m.cells[i].centre());
                let d = if (0.3..=1.6).contains(&gain) && aff * 1.5 < plain {
                    aff * 1.5
                } else {
                    plain
                };
                if d < threshold * 2.0 {
                    moves.push((d, i, gb));
                }
            }
        }
    }
    moves.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (d, i, gb) in moves {
        let ga = group[i];
        if odd[ga] && odd[gb] {
            group[i] = gb;
            fit[i] = d;
            unsure.push(i);
            odd[ga] = false;
            odd[gb] = false;
        }
    }
    // Still odd: the groups no move made even.
    for g in (0..n).filter(|&g| odd[g]) {
        // The member that fits its group worst is the likely misread.
        if let Some(i) = (0..group.len())
            .filter(|&i| group[i] == g)
            .max_by(|&a, &b| fit[a].total_cmp(&fit[b]))
        {
            unsure.push(i);
        }
    }
}

/// Puts a marked pair back into its type. A helper tool (a cheat overlay) paints an opaque
/// white disc over part of the two tiles it found, so both read as one new type of two. A
/// gain and offset cannot explain an opaque mark (it hides what is under it), but the rest of
/// each picture is still its type's. What tells a mark from a type whose picture differs by
/// a patch (the renderer has many: a gloss, a second tone) is that the mark ignores the tile:
/// it covers the tile's rim, which every tile of a game shares and its art stays inside
/// (rendered look-alike types' rims differ by at most 9, the marked QQ tiles' by 27 and more).
/// So a group of exactly two moves into another group when, for both cells, the blocks that
/// differ from that group's leader form one connected patch of at most half the picture,
/// mostly of one flat colour, hiding both face and symbol and showing no face itself; the
/// agreeing blocks keep a third of the symbol (agreeing on the plain face alone is what any
/// two tiles of a game do); and the rim differs. The moved cells are reported unsure.
fn merge_marked(
    m: &Matcher,
    leaders: &[usize],
    group: &mut [usize],
    threshold: f32,
    unsure: &mut Vec<usize>,
) {
    let n = leaders.len();
    let c = counts(group, n);
    let full = |i: usize| -> Option<CellFeatures> {
        if m.cells[i].descs.len() > 1 {
            return Some(m.cells[i].clone());
        }
        m.full.borrow_mut()[i]
            .get_or_insert_with(|| (m.expand)(i))
            .clone()
    };
    let mut faces: Vec<Option<[f32; 3]>> = vec![None; n];
    for gx in (0..n).filter(|&g| c[g] == 2) {
        let members: Vec<usize> = (0..group.len()).filter(|&i| group[i] == gx).collect();
        let mut best: Option<(usize, usize)> = None;
        for gy in (0..n).filter(|&g| g != gx && c[g] >= 2) {
            let y = m.cells[leaders[gy]].centre();
            // Most pairs of types differ nearly everywhere: a third of the blocks must agree
            // before the alignment shifts are worth computing.
            let agreeing = |d: &Desc| {
                y.iter()
                    .zip(d)
                    .filter(|(a, b)| colour_dist(**a, **b) < threshold)
                    .count()
            };
            if members
                .iter()
                .any(|&i| agreeing(m.cells[i].centre()) * 3 < B * B)
            {
                continue;
            }
            let face = *faces[gy].get_or_insert_with(|| mode_colour(y, MARK_FACE));
            let mut worst = usize::MAX;
            for &i in &members {
                let agree = full(i).and_then(|f| {
                    f.descs
                        .iter()
                        .filter_map(|d| marked_match(y, d, face, threshold))
                        .max()
                        .map(|a| (a, f))
                });
                // The mark also covers the tile's rim, which a tile's own art leaves alone.
                let agree = agree.and_then(|(a, f)| {
                    let (xr, yr) = (f.rim?, full(leaders[gy])?.rim?);
                    let off = xr
                        .iter()
                        .zip(&yr)
                        .map(|(p, q)| colour_dist(*p, *q))
                        .fold(0f32, f32::max);
                    (off >= MARK_RIM).then_some(a)
                });
                worst = worst.min(agree.unwrap_or(0));
            }
            if worst > 0 && best.is_none_or(|b| worst > b.1) {
                best = Some((gy, worst));
            }
        }
        if let Some((gy, _)) = best {
            for &i in &members {
                group[i] = gy;
                unsure.push(i);
            }
        }
    }
}

/// Block colours within this of a picture's dominant colour are its face; farther than
/// [`MARK_SYMBOL`], its symbol (a face's own gradient and bevel lie between).
const MARK_FACE: f32 = 25.0;
const MARK_SYMBOL: f32 = 40.0;
/// Blocks of one painted mark differ by less than this (JPEG noise on a flat fill).
const MARK_FLAT: f32 = 4.0;
/// How far a marked tile's rim must differ from its type's somewhere.
const MARK_RIM: f32 = 20.0;

/// Whether `x` is the picture `y` with one opaque mark over part of it (see
/// [`merge_marked`]); the number of agreeing blocks if so.
fn marked_match(y: &Desc, x: &Desc, face: [f32; 3], threshold: f32) -> Option<usize> {
    let is_face = |b: [f32; 3]| colour_dist(b, face) < MARK_FACE;
    let is_symbol = |b: [f32; 3]| colour_dist(b, face) > MARK_SYMBOL;
    let differs: Vec<bool> = y
        .iter()
        .zip(x)
        .map(|(a, b)| colour_dist(*a, *b) >= threshold)
        .collect();
    let nd = differs.iter().filter(|&&d| d).count();
    if nd < 3 || nd * 2 > B * B {
        return None;
    }
    let count = |f: &dyn Fn(usize) -> bool| (0..B * B).filter(|&k| f(k)).count();
    let symbol = count(&|k| is_symbol(y[k]));
    let symbol_kept = count(&|k| !differs[k] && is_symbol(y[k]));
    let hidden_face = count(&|k| differs[k] && is_face(y[k]));
    let hidden_symbol = count(&|k| differs[k] && is_symbol(y[k]));
    let mark_on_face = count(&|k| differs[k] && is_face(x[k]));
    if symbol_kept < 3
        || symbol_kept * 3 < symbol
        || hidden_face == 0
        || hidden_symbol == 0
        || mark_on_face * 4 > nd
    {
        return None;
    }
    // A mark is painted in one flat colour: a third of its blocks (three at least) share it,
    // where a symbol's fill has shading.
    let flat = (0..B * B)
        .filter(|&k| differs[k])
        .map(|k| count(&|j| differs[j] && colour_dist(x[j], x[k]) < MARK_FLAT))
        .max()
        .unwrap_or(0);
    if flat < 3 || flat * 3 < nd {
        return None;
    }
    // One mark: the differing blocks are one 4-connected patch.
    let mask = GrayImage::from_fn(B as u32, B as u32, |x, y| {
        Luma([differs[y as usize * B + x as usize] as u8])
    });
    let labels = connected_components(&mask, Connectivity::Four, Luma([0]));
    (labels.iter().all(|&l| l <= 1)).then_some(B * B - nd)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FACE: [f32; 3] = [240.0, 225.0, 170.0];
    const INK: [f32; 3] = [10.0, 10.0, 10.0];
    const WHITE: [f32; 3] = [255.0, 255.0, 255.0];

    /// A tile: face with a symbol in the middle (rows/cols 1..5), `ink` at block (r, c)
    /// where `symbol(r, c)`.
    fn picture(symbol: impl Fn(usize, usize) -> bool, ink: [f32; 3]) -> Desc {
        let mut d = [FACE; B * B];
        for r in 0..B {
            for c in 0..B {
                if symbol(r, c) {
                    d[r * B + c] = ink;
                }
            }
        }
        d
    }

    fn tile(desc: Desc, rim: [[f32; 3]; 8]) -> CellFeatures {
        let mut mean = [0f32; 3];
        for b in &desc {
            for ch in 0..3 {
                mean[ch] += b[ch] / (B * B) as f32;
            }
        }
        CellFeatures {
            descs: vec![desc; 9],
            mean,
            spread: 30.0,
            body: [FACE; 4],
            rim: Some(rim),
        }
    }

    /// An opaque white disc over the top-left of a tile, as the QQ cheat tool paints it.
    fn disc(mut d: Desc) -> Desc {
        for r in 0..3 {
            for c in 0..3 {
                d[r * B + c] = WHITE;
            }
        }
        d
    }

    fn groups(cells: &[CellFeatures]) -> Grouping {
        let refs: Vec<&CellFeatures> = cells.iter().collect();
        group(&refs, 7.0, &|i| Some(cells[i].clone()))
    }

    fn spade(r: usize, c: usize) -> bool {
        (1..5).contains(&r) && (1..5).contains(&c)
    }

    fn bar(r: usize, c: usize) -> bool {
        (1..5).contains(&r) && c == 2
    }

    /// The marked pair (a white disc over the symbol's corner and the tile's rim) reads as
    /// its type, reported unsure, not as a type of its own.
    #[test]
    fn a_marked_pair_joins_its_type() {
        let plain = picture(spade, INK);
        let other = picture(bar, [200.0, 30.0, 30.0]);
        let mut marked_rim = [FACE; 8];
        marked_rim[0] = WHITE;
        marked_rim[4] = WHITE;
        let cells = [
            tile(disc(plain), marked_rim),
            tile(other, [FACE; 8]),
            tile(disc(plain), marked_rim),
            tile(other, [FACE; 8]),
            tile(plain, [FACE; 8]),
            tile(plain, [FACE; 8]),
        ];
        let g = groups(&cells);
        assert_eq!(g.group, vec![0, 1, 0, 1, 0, 0]);
        assert_eq!(g.unsure, vec![0, 2]);
    }

    /// The same patch inside an intact rim is the type's own art (a gloss, a second tone):
    /// two types.
    #[test]
    fn a_patch_inside_the_rim_is_a_type() {
        let plain = picture(spade, INK);
        let cells = [
            tile(disc(plain), [FACE; 8]),
            tile(disc(plain), [FACE; 8]),
            tile(plain, [FACE; 8]),
            tile(plain, [FACE; 8]),
        ];
        let g = groups(&cells);
        assert_eq!(g.group, vec![0, 0, 1, 1]);
        assert!(g.unsure.is_empty());
    }
}
