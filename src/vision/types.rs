//! Grouping tiles into types: equal pictures get equal letters.
//!
//! Tiles are compared by the colour block descriptors of [`super::cells`] with a small
//! alignment search. Leader clustering in row-major order names types in order of first
//! appearance, so two readings of one screen give the same letters. Every type must occur an
//! even number of times; odd groups are repaired where the evidence allows (a type split in
//! two by JPEG noise, a highlighted tile) and otherwise reported as unsure cells.

use super::cells::{affine_dist, cell_dist, centre_dist_limit, CellFeatures};
use std::cell::RefCell;

/// Result of grouping: a group index per input cell (groups numbered in order of first
/// appearance) and the inputs the grouping is not sure of.
#[derive(Clone, Debug, Default)]
pub struct Grouping {
    pub group: Vec<usize>,
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
    loop {
        let c = counts(group, n);
        let odd: Vec<usize> = (0..n).filter(|&g| c[g] % 2 == 1).collect();
        if odd.len() < 2 {
            break;
        }
        // The cheapest single move of a cell from one odd group to another.
        let mut best: Option<(f32, usize, usize, bool)> = None;
        for &ga in &odd {
            for (i, _) in group.iter().enumerate().filter(|(_, &g)| g == ga) {
                for &gb in odd.iter().filter(|&&g| g != ga) {
                    let l = m.cells[leaders[gb]];
                    let plain = m.dist(leaders[gb], i, threshold * 2.0);
                    let (aff, gain) = affine_dist(l.centre(), m.cells[i].centre());
                    let (d, tinted) = if (0.3..=1.6).contains(&gain) && aff * 1.5 < plain {
                        (aff * 1.5, true)
                    } else {
                        (plain, false)
                    };
                    if d < threshold * 2.0 && best.is_none_or(|b| d < b.0) {
                        best = Some((d, i, gb, tinted));
                    }
                }
            }
        }
        match best {
            Some((d, i, gb, _)) => {
                group[i] = gb;
                fit[i] = d;
                unsure.push(i);
            }
            None => break,
        }
    }
    let c = counts(group, n);
    for g in (0..n).filter(|&g| c[g] % 2 == 1) {
        // The member that fits its group worst is the likely misread.
        if let Some(i) = (0..group.len())
            .filter(|&i| group[i] == g)
            .max_by(|&a, &b| fit[a].total_cmp(&fit[b]))
        {
            unsure.push(i);
        }
    }
}
