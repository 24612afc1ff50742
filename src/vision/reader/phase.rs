//! The lattice's phase and pitch refined by the tiles themselves: at the tiles' own phase
//! and pitch each cell holds one sprite whole and its twin anywhere on the board matches
//! it; shifted or stretched, cells hold parts of two tiles and twins part.

use super::sheet::{Ground, Sheet};
use crate::vision::config::ReaderConfig;
use crate::vision::lattice::Axis;
use crate::vision::pictures::{describe_face, nearest_distances, Picture};
use crate::vision::pixels::Integral;

/// The median nearest-twin distance of a sample of cells for the lattice shifted by
/// (dx, dy): at the tiles' own phase each cell holds one sprite whole and its twin matches
/// it; shifted, each cell holds parts of two tiles and twins part.
pub(super) fn twin_cost(
    integral: &Integral,
    sheet: &Sheet,
    sample: &[usize],
    shift: (f32, f32),
    cfg: &ReaderConfig,
) -> f32 {
    let pics: Vec<Picture> = sample
        .iter()
        .filter_map(|&i| {
            let (x, y, w, h) = sheet.rect(i / sheet.cols, i % sheet.cols);
            describe_face(integral, (x + shift.0, y + shift.1, w, h), cfg)
        })
        .collect();
    if pics.len() < 4 {
        return f32::INFINITY;
    }
    let refs: Vec<&Picture> = pics.iter().collect();
    let all: Vec<usize> = (0..refs.len()).collect();
    let mut nearest = nearest_distances(&refs, &all);
    nearest.sort_by(|a, b| a.total_cmp(b));
    nearest[nearest.len() / 2]
}

/// The sheet's cells that show something other than the ground (sheet indices).
pub(super) fn busy_cells(sheet: &Sheet, ground: &Ground, cfg: &ReaderConfig) -> Vec<usize> {
    (0..sheet.pics.len())
        .filter(|&i| {
            sheet.pics[i]
                .as_ref()
                .is_some_and(|p| !ground.holds(p, cfg))
        })
        .collect()
}

/// Moves each axis's phase to where twins match best: a sweep over one whole pitch in
/// sixteenths, then the middle of the run of shifts that are as good as the best (a cell's
/// inset leaves a plateau as wide as the inset, centred on the tiles); from a grid of
/// seeds over both axes when the profiles' phase leaves twins apart
/// ([`ReaderConfig::phase_seed_gain`]).
pub(super) fn refine_phase(
    integral: &Integral,
    sheet: &Sheet,
    ground: &Ground,
    cfg: &ReaderConfig,
) -> (f32, f32) {
    let busy = busy_cells(sheet, ground, cfg);
    // An even sample of at most 160 cells keeps the search quadratic in a constant, on
    // coarse pictures (the phase needs only to see twins part).
    let step = busy.len().div_ceil(160).max(1);
    let sample: Vec<usize> = busy.iter().step_by(step).copied().collect();
    let coarse = ReaderConfig {
        blocks: 5,
        ..cfg.clone()
    };
    let from_profiles = sweep_phase(integral, sheet, &sample, (0.0, 0.0), &coarse, cfg);
    // Both axes off by about half a cell: no sweep of one axis makes twins meet while the
    // other is off. Where the sweeps from the profiles' phase leave twins apart (their cost
    // above the distance under which pictures are the same), seeds a quarter of a pitch
    // apart on both axes leave one within an eighth of the tiles' phase (inside the
    // cell's inset), where twins do meet. Where twins met, the phase stands: on boards
    // with gaps a lower cost off the tiles' phase is a trap (cells that straddle a gap
    // pair as well as whole tiles).
    if from_profiles.1 <= cfg.same_floor {
        return from_profiles.0;
    }
    let q = 4;
    let mut seed = ((0.0, 0.0), f32::INFINITY);
    for i in 0..q {
        for j in 0..q {
            let shift = (
                i as f32 * sheet.x.pitch / q as f32,
                j as f32 * sheet.y.pitch / q as f32,
            );
            let c = twin_cost(integral, sheet, &sample, shift, &coarse);
            if c < seed.1 {
                seed = (shift, c);
            }
        }
    }
    if seed.1 * cfg.phase_seed_gain < from_profiles.1 {
        let again = sweep_phase(integral, sheet, &sample, seed.0, &coarse, cfg);
        if again.1 < from_profiles.1 {
            return again.0;
        }
    }
    from_profiles.0
}

/// [`refine_phase`]'s sweeps from the shift `start`: the shift they settle on and its twin
/// cost.
pub(super) fn sweep_phase(
    integral: &Integral,
    sheet: &Sheet,
    sample: &[usize],
    start: (f32, f32),
    coarse: &ReaderConfig,
    cfg: &ReaderConfig,
) -> ((f32, f32), f32) {
    let mut best = start;
    // The axes in turn, until a sweep leaves its axis where it was: while one axis is off
    // by half a cell no shift of the other makes twins meet, so each axis is swept again
    // once the other has moved. A sweep run with the other axis still off can settle
    // anywhere along a flat run of costs, and the next sweep of the other axis only then
    // finds its phase.
    let mut stayed_last = false;
    for (sweep, axis) in [0, 1]
        .into_iter()
        .cycle()
        .take(cfg.phase_sweeps)
        .enumerate()
    {
        if sweep >= 2 && stayed_last {
            break;
        }
        let pitch = if axis == 0 {
            sheet.x.pitch
        } else {
            sheet.y.pitch
        };
        let steps = 16;
        let costs: Vec<f32> = (0..steps)
            .map(|k| {
                let s = k as f32 * pitch / steps as f32;
                let shift = if axis == 0 { (s, best.1) } else { (best.0, s) };
                twin_cost(integral, sheet, sample, shift, coarse)
            })
            .collect();
        let min = costs.iter().copied().fold(f32::INFINITY, f32::min);
        if !min.is_finite() {
            continue;
        }
        // The longest circular run of shifts within 20 % (and 0.3) of the best.
        let good: Vec<bool> = costs.iter().map(|&c| c <= min * 1.2 + 0.3).collect();
        let (mut run_start, mut run_len) = (0usize, 0usize);
        for start in 0..steps {
            if !good[start] || good[(start + steps - 1) % steps] && good.iter().any(|g| !g) {
                continue;
            }
            let len = (0..steps)
                .take_while(|&j| good[(start + j) % steps])
                .count();
            if len > run_len {
                (run_start, run_len) = (start, len);
            }
        }
        let centre = run_start as f32 + (run_len as f32 - 1.0) / 2.0;
        let s = (centre * pitch / steps as f32).rem_euclid(pitch);
        let was = if axis == 0 { &mut best.0 } else { &mut best.1 };
        // The same step (within half of one, on the circle of one pitch) counts as staying.
        let moved = (s - *was).rem_euclid(pitch);
        stayed_last = moved.min(pitch - moved) < pitch / (2 * steps) as f32;
        *was = s;
    }
    let cost = twin_cost(integral, sheet, sample, best, coarse);
    (best, cost)
}

/// The pitches where twins match best. For each axis, pitches within
/// [`ReaderConfig::pitch_search`] of the profiles' are tried, the lattice line nearest the
/// busy cells' middle held in place: a coarse sweep, then a fine one around its best. The
/// cost is the median, over a sample of busy cells, of each one's distance to its nearest
/// picture among all busy cells: near zero where every sampled tile lines up with its twins
/// wherever they lie. Where several pitches tie, the middle of their run is taken.
pub(super) fn refine_pitch(
    integral: &Integral,
    sheet: &Sheet,
    ground: &Ground,
    cfg: &ReaderConfig,
) -> (Axis, Axis) {
    let busy = busy_cells(sheet, ground, cfg);
    if busy.len() < 8 {
        return (sheet.x, sheet.y);
    }
    let step = busy.len().div_ceil(48).max(1);
    let sample: Vec<usize> = (0..busy.len()).step_by(step).collect();
    let coarse = ReaderConfig {
        blocks: 5,
        ..cfg.clone()
    };
    // Lattice index of the busy cells' middle, per axis.
    let mid = |axis: usize| {
        let mut v: Vec<usize> = busy
            .iter()
            .map(|&i| {
                if axis == 0 {
                    i % sheet.cols
                } else {
                    i / sheet.cols
                }
            })
            .collect();
        v.sort_unstable();
        v[v.len() / 2] as f32 + if axis == 0 { sheet.kx } else { sheet.ky } as f32
    };
    let cost = |x: &Axis, y: &Axis| -> f32 {
        let pics: Vec<Option<Picture>> = busy
            .iter()
            .map(|&i| {
                let rect = sheet.rect_on(x, y, i / sheet.cols, i % sheet.cols);
                describe_face(integral, rect, &coarse)
            })
            .collect();
        // The described cells, and the sampled ones among them.
        let mut at = vec![usize::MAX; pics.len()];
        let mut refs: Vec<&Picture> = Vec::with_capacity(pics.len());
        for (i, p) in pics.iter().enumerate() {
            if let Some(p) = p {
                at[i] = refs.len();
                refs.push(p);
            }
        }
        let queries: Vec<usize> = sample
            .iter()
            .map(|&a| at[a])
            .filter(|&k| k != usize::MAX)
            .collect();
        let mut nearest = nearest_distances(&refs, &queries);
        if nearest.len() < 4 {
            return f32::INFINITY;
        }
        nearest.sort_by(|a, b| a.total_cmp(b));
        nearest[nearest.len() / 2]
    };
    let (mut x, mut y) = (sheet.x, sheet.y);
    for axis in [0, 1] {
        let base = if axis == 0 { x } else { y };
        let centre = mid(axis);
        // The axis with its pitch changed by `dp`, the line at `centre` kept in place.
        let moved = |dp: f32| Axis {
            pitch: base.pitch + dp,
            phase: base.phase - centre * dp,
            ..base
        };
        let eval = |dp: f32| {
            let a = moved(dp);
            if axis == 0 {
                cost(&a, &y)
            } else {
                cost(&x, &a)
            }
        };
        let span = base.pitch * cfg.pitch_search;
        let mut best = 0.0f32;
        for (range, steps) in [(span, 10), (span / 10.0, 4)] {
            let at: Vec<f32> = (-steps..=steps)
                .map(|k| best + range * k as f32 / steps as f32)
                .collect();
            let costs: Vec<f32> = at.iter().map(|&dp| eval(dp)).collect();
            let min = costs.iter().copied().fold(f32::INFINITY, f32::min);
            if !min.is_finite() {
                break;
            }
            // The pitch stays where it is when that is as good as the best (twins in line
            // cost near zero, so "as good" is tight); else the middle of the longest run of
            // pitches as good as the best.
            let good: Vec<bool> = costs.iter().map(|&c| c <= min * 1.2 + 0.02).collect();
            if good[steps as usize] {
                continue;
            }
            let (mut start, mut len, mut run) = (0, 0, 0);
            for (k, &g) in good.iter().enumerate() {
                run = if g { run + 1 } else { 0 };
                if run > len {
                    (start, len) = (k + 1 - run, run);
                }
            }
            best = at[start + (len - 1) / 2];
        }
        if axis == 0 {
            x = moved(best);
        } else {
            y = moved(best);
        }
    }
    (x, y)
}

/// The sheet on its lattice with each axis's phase moved to where twins match best
/// ([`refine_phase`]).
pub(super) fn rephased(
    integral: &Integral,
    sheet: Sheet,
    window: (u32, u32, u32, u32),
    ground: &Ground,
    cfg: &ReaderConfig,
) -> Sheet {
    let (dx, dy) = refine_phase(integral, &sheet, ground, cfg);
    if dx == 0.0 && dy == 0.0 {
        return sheet;
    }
    let x = Axis {
        phase: sheet.x.phase + dx,
        ..sheet.x
    };
    let y = Axis {
        phase: sheet.y.phase + dy,
        ..sheet.y
    };
    Sheet::new(integral, x, y, window, cfg)
}
