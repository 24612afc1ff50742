//! Finding the board: pitch, origin and size from the frame alone.
//!
//! 1. Edge profiles of the busy part of the frame (or the hinted region) give candidate
//!    pitches on each axis by autocorrelation, refined to a fraction of a pixel and phased by
//!    a comb fit ([`super::profile`]).
//! 2. That lattice is laid over the busy area and a cell past it; each cell is flat, or shows
//!    a picture that is *paired* (seen elsewhere on the lattice) or *lone*.
//! 3. The board is the rectangle richest in paired pictures, lone ones costing three each:
//!    tiles come in pairs, the panels, buttons and avatars around a board do not. When the
//!    picked pitches are not tile-shaped, other candidates are laid too and the lattice with
//!    the most paired picture area wins.

use super::cells::{
    cell_dist, centre_dist_limit, desc_dist_limit, features_with, integral_for, CellFeatures,
};
use super::extent::clusters;
use super::pixels::{colour_dist, Integral};
use super::profile::{autocorrelation, comb_fit, edge_profiles, period_candidates, smooth};
use super::{Hints, ReadError};
use crate::geometry::Grid;
use image::RgbaImage;

/// Smallest and largest pitch looked for, in pixels.
pub const MIN_PITCH: usize = 20;
/// Largest pitch looked for, pixels.
pub const MAX_PITCH: usize = 320;

/// A cell is active (shows a picture) when its sampled interior deviates from its own mean
/// by more than this on average (0..255 per channel).
const ACTIVE_SPREAD: f32 = 13.0;

/// The likely pitch along one axis of `profile`, among the other candidates.
///
/// Autocorrelation peaks at the pitch and at all its multiples, and symbols can add peaks at
/// fractions of it; each candidate lag is therefore scored by the autocorrelation at its
/// first few multiples (a fraction of the pitch fails at its odd multiples, the true pitch
/// at none), and a multiple of a candidate only wins when clearly better.
fn axis(profile: &[f32]) -> Option<AxisLags> {
    let p = smooth(profile, 1);
    let max = (p.len() / 2).min(MAX_PITCH * 3);
    if max < MIN_PITCH * 2 {
        return None;
    }
    let ac = autocorrelation(&p, 0, max);
    let cands = period_candidates(&p, MIN_PITCH, (max / 2).min(MAX_PITCH));
    let score = |l: usize| -> f32 {
        let k = (max / l).clamp(1, 4);
        (1..=k)
            .map(|m| {
                ac[m * l - 1..=(m * l + 1).min(max)]
                    .iter()
                    .cloned()
                    .fold(f32::MIN, f32::max)
            })
            .sum::<f32>()
            / k as f32
    };
    // A fraction 1/k of the pitch must also hold at its multiples that are not multiples of
    // the pitch (they fall inside tiles).
    let odd_ok = |l: usize, k: usize, best: f32| {
        (1..k).filter(|&m| m * l < max).all(|m| {
            ac[m * l - 1..=m * l + 1]
                .iter()
                .cloned()
                .fold(f32::MIN, f32::max)
                >= best * 0.35
        })
    };
    let mut scored: Vec<(usize, f32)> =
        cands.iter().take(10).map(|&(l, _)| (l, score(l))).collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1));
    let &(mut pick, best) = scored.first()?;
    let mut coarser = None;
    for &(l, s) in &scored {
        let ratio = pick as f32 / l as f32;
        if l < pick
            && s >= best * 0.5
            && odd_ok(l, ratio.round() as usize, best)
            && ratio.round() >= 2.0
            && (ratio - ratio.round()).abs() < 0.05 * ratio
        {
            coarser = Some(pick);
            pick = l;
        }
    }
    // The best lag may itself be a fraction of the pitch: step up to a multiple that scores
    // nearly as well when the lag fails its odd-multiple test.
    for m in [2usize, 3] {
        let up = pick * m;
        if let Some(&(l, s)) = scored.iter().find(|&&(l, _)| l.abs_diff(up) <= 1) {
            if s >= best * 0.8 && !odd_ok(pick, m, s) {
                pick = l;
                coarser = None;
                break;
            }
        }
    }
    if best <= 0.05 {
        return None;
    }
    Some(AxisLags {
        p,
        scored,
        pick,
        coarser,
    })
}

/// The candidate spacings of one axis: the smoothed profile, the lags scored (best first)
/// and the one [`axis`] picked.
struct AxisLags {
    p: Vec<f32>,
    scored: Vec<(usize, f32)>,
    pick: usize,
    /// The lag the pick stepped down from, when a fraction of a better-scored lag won: a
    /// symbol's edges can pass the fraction's tests too, so that lattice is laid as well.
    coarser: Option<usize>,
}

impl AxisLags {
    /// The fractional pitch and phase near `lag`.
    fn fit(&self, lag: usize) -> Option<(f32, f32)> {
        let (pitch, phase, s) = comb_fit(&self.p, lag as f32, 1.2);
        (s > 0.0).then_some((pitch, phase))
    }

    /// The best-scored lag within `lo..=hi`.
    fn best_within(&self, lo: f32, hi: f32) -> Option<usize> {
        self.scored
            .iter()
            .find(|(l, _)| (lo..=hi).contains(&(*l as f32)))
            .map(|&(l, _)| l)
    }
}

/// Interior texture and mean colour of a lattice cell from a sparse 8 × 8 sample.
fn sampled_spread(frame: &RgbaImage, x: f32, y: f32, w: f32, h: f32) -> (f32, [f32; 3]) {
    let mut s = [[0f32; 3]; 64];
    let mut mean = [0f32; 3];
    for j in 0..8 {
        for i in 0..8 {
            let px = (x + w * (0.17 + 0.62 * i as f32 / 7.0)) as u32;
            let py = (y + h * (0.17 + 0.62 * j as f32 / 7.0)) as u32;
            let p = frame.get_pixel(px, py).0;
            let v = [p[0] as f32, p[1] as f32, p[2] as f32];
            for c in 0..3 {
                mean[c] += v[c] / 64.0;
            }
            s[j * 8 + i] = v;
        }
    }
    let spread = s
        .iter()
        .map(|v| ((v[0] - mean[0]).abs() + (v[1] - mean[1]).abs() + (v[2] - mean[2]).abs()) / 3.0)
        .sum::<f32>()
        / 64.0;
    (spread, mean)
}

/// Two lattice cells show one picture when their block descriptors differ by less than this
/// (mean absolute difference, 0..255): loose, since the lattice may sit a few pixels off the
/// tiles and the frame may be a JPEG.
const PAIR_DIST: f32 = 16.0;

/// Side of the blocks of the activity map.
const BLOCK: u32 = 16;

/// The bounding box, one block larger on each side, of the sizeable connected groups (a
/// quarter of the largest or more) of busy 16 × 16 blocks (blocks whose sampled pixels
/// vary): where the board is on a large screen.
fn busy_window(frame: &RgbaImage) -> Option<(u32, u32, u32, u32)> {
    let (w, h) = frame.dimensions();
    let (nx, ny) = ((w / BLOCK) as usize, (h / BLOCK) as usize);
    if nx < 4 || ny < 4 {
        return None;
    }
    let mut busy = vec![false; nx * ny];
    // Straight from the pixel buffer: the samples lie inside the frame by construction, and
    // `get_pixel`'s own checks cost more than the sums here.
    let raw = frame.as_raw();
    for by in 0..ny {
        for bx in 0..nx {
            let mut px = [[0u8; 3]; 16];
            for (k, item) in px.iter_mut().enumerate() {
                let x = bx as u32 * BLOCK + 2 + (k as u32 % 4) * 4;
                let y = by as u32 * BLOCK + 2 + (k as u32 / 4) * 4;
                let i = (y as usize * w as usize + x as usize) * 4;
                item.copy_from_slice(&raw[i..i + 3]);
            }
            // One colour throughout (most of a plain screen): no spread, not busy.
            if px.iter().all(|p| *p == px[0]) {
                continue;
            }
            let mut v = [[0f32; 3]; 16];
            let mut mean = [0f32; 3];
            for (item, p) in v.iter_mut().zip(&px) {
                for c in 0..3 {
                    item[c] = p[c] as f32;
                    mean[c] += p[c] as f32 / 16.0;
                }
            }
            let spread = v.iter().map(|p| colour_dist(*p, mean)).sum::<f32>() / 16.0;
            busy[by * nx + bx] = spread > 12.0;
        }
    }
    // Groups of busy blocks, bridging one quiet block.
    let comps = clusters(&busy, ny, nx, 1);
    // A half-cleared board falls apart into several groups: keep every sizeable one.
    let biggest = comps.iter().map(|c| c.size).max()?;
    let (c0, r0, c1, r1) = comps.iter().filter(|c| c.size * 4 >= biggest).fold(
        (usize::MAX, usize::MAX, 0, 0),
        |b, c| {
            (
                b.0.min(c.rect.c0),
                b.1.min(c.rect.r0),
                b.2.max(c.rect.c1 - 1),
                b.3.max(c.rect.r1 - 1),
            )
        },
    );
    let x0 = (c0.saturating_sub(1) as u32) * BLOCK;
    let y0 = (r0.saturating_sub(1) as u32) * BLOCK;
    let x1 = (((c1 + 2) as u32) * BLOCK).min(w);
    let y1 = (((r1 + 2) as u32) * BLOCK).min(h);
    let (bw, bh) = (x1 - x0, y1 - y0);
    (bw >= 4 * MIN_PITCH as u32 && bh >= 4 * MIN_PITCH as u32).then_some((x0, y0, bw, bh))
}

/// Finds the board's grid in `frame`.
pub fn find_grid(frame: &RgbaImage, hints: &Hints) -> Result<Grid, ReadError> {
    locate(frame, hints).map(|(g, _)| g)
}

/// [`find_grid`], and the summed-area table it built over the lattice around the board
/// (a pitch and more past it on every side), which serves the readings that follow.
pub(crate) fn locate(frame: &RgbaImage, hints: &Hints) -> Result<(Grid, Integral), ReadError> {
    let (fw, fh) = frame.dimensions();
    let window = match hints.region {
        Some((x, y, w, h)) => {
            if w == 0 || h == 0 || x.saturating_add(w) > fw || y.saturating_add(h) > fh {
                return Err(ReadError::Invalid(format!(
                    "region {x},{y},{w},{h} does not fit in the {fw}x{fh} frame"
                )));
            }
            (x, y, w, h)
        }
        None => (0, 0, fw, fh),
    };
    if window.2 < 2 * MIN_PITCH as u32 || window.3 < 2 * MIN_PITCH as u32 {
        return Err(ReadError::NoBoard(format!(
            "the {}x{} px area is too small to hold a board of {MIN_PITCH} px cells",
            window.2, window.3
        )));
    }
    // Profiles over the busiest area only: on a full-HD frame a small board is otherwise
    // drowned by the rest of the screen.
    let window = if hints.region.is_some() {
        window
    } else {
        busy_window(frame).unwrap_or(window)
    };
    let whole = locate_in(frame, hints, window, window);
    if whole.is_ok() || hints.region.is_some() {
        return whole;
    }
    // Both axes periodic, yet no tile-shaped lattice: chrome beside the board (a panel, a
    // caption) has bent one axis's period. A board that fills over half the area fills one
    // half of it alone. (An axis with no period at all, a lobby, is no board to recover.)
    let prof = edge_profiles(frame, window);
    if axis(&prof.cols).is_none() || axis(&prof.rows).is_none() {
        return whole;
    }
    let (x, y, w, h) = window;
    let halves = [
        (x, y, w / 2, h),
        (x + w / 2, y, w - w / 2, h),
        (x, y, w, h / 2),
        (x, y + h / 2, w, h - h / 2),
    ];
    for half in halves {
        let r = locate_in(frame, hints, window, half);
        if r.is_ok() {
            return r;
        }
    }
    whole
}

/// [`locate`] with the pitches and phases taken from the edge profiles of `pwin`, a part of
/// `window`, and the lattice laid over `window`.
fn locate_in(
    frame: &RgbaImage,
    hints: &Hints,
    window: (u32, u32, u32, u32),
    pwin: (u32, u32, u32, u32),
) -> Result<(Grid, Integral), ReadError> {
    let prof = edge_profiles(frame, pwin);
    let cols = axis(&prof.cols).ok_or_else(|| no_lattice("column", pwin))?;
    let rows = axis(&prof.rows).ok_or_else(|| no_lattice("row", pwin))?;
    let shift = ((pwin.0 - window.0) as f32, (pwin.1 - window.1) as f32);
    // Tiles are about square (the games seen run from 0.73 to 1.0 wide per tall). When the
    // picked spacings are not, one axis has locked on a texture inside tiles or on a
    // multiple of the pitch: the other candidates near a common size are laid too, and the
    // lattice whose board box holds the most paired picture area wins.
    let mut tries: Vec<(usize, usize)> = vec![(cols.pick, rows.pick)];
    let mut borrowed: Vec<usize> = Vec::new();
    let mut borrowed_coarse: Vec<usize> = Vec::new();
    let (cw, rh) = (cols.pick as f32, rows.pick as f32);
    if !(0.6..=1.67).contains(&(cw / rh)) {
        // A size made from an axis's own pick is tried on that axis even where its
        // autocorrelation shows no peak: full-width lines (a title bar) can bury the pitch
        // under its double. So is the other axis's pick (tiles about square), which is then
        // "borrowed": a sparse board's few rows under a title and a status bar can show no
        // peak near the columns' 34 px (rows 60, 68, 78).
        let own = |t: f32, pick: f32, other: &[f32], lags: &AxisLags| {
            lags.best_within(t / 1.25, t * 1.25)
                .map(|l| (l, false))
                .or_else(|| {
                    let own = t == pick / 2.0 || t == pick * 2.0;
                    let fits = t >= MIN_PITCH as f32 && t * 2.0 <= lags.p.len() as f32;
                    ((own || other.contains(&t)) && fits).then_some((t.round() as usize, !own))
                })
        };
        // An axis's pick may be borrowed, and so may the lag it stepped down from: a sparse
        // pastel board under JPEG whose rows' edges are its symbols' (dark triangles) more
        // than its tiles' shows no row peak near 43 at all, while the columns step from 43
        // down to 21. A lattice borrowing such a lag is scored below the rest, like the
        // coarser lattice below, and wins on its twins only: as the top on area it can lead
        // the twins to a lattice at a third of the pitch (220 borrowed).
        let lent = |a: &AxisLags| -> Vec<f32> {
            std::iter::once(a.pick)
                .chain(a.coarser)
                .map(|l| l as f32)
                .collect()
        };
        let (col_lags, row_lags) = (lent(&cols), lent(&rows));
        let extra = [cols.coarser, rows.coarser]
            .into_iter()
            .flatten()
            .map(|c| c as f32);
        let sizes: Vec<f32> = [cw, rh, cw * 2.0, rh / 2.0, cw / 2.0, rh * 2.0]
            .into_iter()
            .chain(extra)
            .collect();
        for t in sizes {
            if let (Some(c), Some(r)) = (own(t, cw, &row_lags, &cols), own(t, rh, &col_lags, &rows))
            {
                if !tries.contains(&(c.0, r.0)) {
                    if c.1 || r.1 {
                        borrowed.push(tries.len());
                        if [cols.coarser, rows.coarser].contains(&Some(t as usize)) {
                            borrowed_coarse.push(tries.len());
                        }
                    }
                    tries.push((c.0, r.0));
                }
            }
        }
    }
    // The lattice before a step down to a fraction of the pitch is laid too. Paired area
    // favours coarse lattices (cells of 2×2 tiles pair loosely), so it wins on area only
    // over a lattice at a fraction of its pitch on both axes (below), else on its twins
    // (see `sharper_multiple`).
    let coarser = (
        cols.coarser.unwrap_or(cols.pick),
        rows.coarser.unwrap_or(rows.pick),
    );
    let coarser_try = (!tries.contains(&coarser)).then_some(tries.len());
    if coarser_try.is_some() {
        tries.push(coarser);
    }
    let mut found: Vec<(f32, Grid, Integral)> = Vec::new();
    let mut coarser_found = None;
    let mut borrowed_found = Vec::new();
    let mut refusal = None;
    for (k, (c, r)) in tries.into_iter().enumerate() {
        let (Some(x), Some(y)) = (cols.fit(c), rows.fit(r)) else {
            continue;
        };
        let (x, y) = ((x.0, x.1 + shift.0), (y.0, y.1 + shift.1));
        if !tile_shaped(x.0, y.0) {
            refusal.get_or_insert(ReadError::NoBoard(format!(
                "the regular spacings, {:.1} px across and {:.1} px down, \
                 are not tile-shaped",
                x.0, y.0
            )));
            continue;
        }
        match lattice_board(frame, hints, window, x, y) {
            Ok((g, integral, score)) => {
                // Below every lattice scored on paired area.
                let score = if Some(k) == coarser_try {
                    coarser_found = Some((found.len(), score));
                    -1.0
                } else if borrowed_coarse.contains(&k) {
                    -1.0
                } else {
                    score
                };
                if borrowed.contains(&k) {
                    borrowed_found.push(found.len());
                }
                found.push((score, g, integral));
            }
            Err(e) => {
                refusal.get_or_insert(e);
            }
        }
    }
    let Some(top) = (0..found.len()).max_by(|&a, &b| found[a].0.total_cmp(&found[b].0)) else {
        return Err(refusal.unwrap_or_else(|| no_lattice("tile", window)));
    };
    // A lattice that cuts every tile across and down (pastel and dark boards whose
    // symbols' edges outdo the tiles' borders: halves or thirds on both axes) pairs less
    // picture area than the tiles' own, which explains each tile as one picture: 177 000
    // against 158 000 (thirds), 207 000 against 188 000 (halves).
    // Where the step was on one axis only, area still misleads (cells two
    // tiles wide, 196 000 against the tiles' 158 000).
    let coarser_on_both = |i: usize| {
        let (p, q) = (found[i].1.pitch, found[top].1.pitch);
        p.0 >= q.0 * 1.5 && p.1 >= q.1 * 1.5
    };
    // Cells of 2 × 2 tiles on a sparse board pair loosely too, and more area than the
    // tiles' own lattice when the busy area left some partners out (178 000
    // against 54 000); such cells are mostly ground, which the reader refuses anyway
    // (see [`super::animation::ground_through_tiles`]), so that lattice does not win here.
    let mostly_ground = |i: usize| {
        let (_, g, integral) = &found[i];
        super::read_cells_detail(integral, frame, g)
            .ok()
            .and_then(|(r, _)| super::animation::ground_through_tiles(frame, g, &r.board))
            .is_some_and(|s| s > super::animation::GROUND_THROUGH_MAX)
    };
    let top = match coarser_found {
        Some((i, area)) if area > found[top].0 && coarser_on_both(i) && !mostly_ground(i) => i,
        _ => top,
    };
    let top = sharper_multiple(frame, &found, &borrowed_found, top);
    let (_, g, integral) = found.swap_remove(top);
    Ok((g, integral))
}

/// Whether a cell of `w` × `h` px can hold a tile: the games seen run from 0.73 to 1.0
/// wide per tall, and a lattice twice as wide as tall (or tall as wide) has locked on a
/// texture inside tiles or on a multiple of the pitch along one axis.
pub(crate) fn tile_shaped(w: f32, h: f32) -> bool {
    (0.5..=2.0).contains(&(w / h))
}

/// Among `found` lattices (paired-picture score, grid, summed-area table), the one to use
/// instead of `top` (the best scored): a lattice whose pitch is a whole multiple or fraction
/// of `top`'s on each axis and whose tiles' pictures have clearly nearer twins.
///
/// Paired-picture area cannot choose between such lattices: cells of 2×2 tiles pair
/// loosely on a board of few types, and quarters of tiles pair as well as tiles do. The
/// twin distance can: on the tiles' own lattice every picture has a near-exact twin, while a
/// cell spanning several tiles seldom has one (measured on the fixtures: 0.02–2.1 on the
/// tiles' lattice, 7–15 at twice or three times its pitch), and a lattice at half the pitch
/// over noise and JPEG twins its quarters less well than the tiles (4.0 against 1.0 on
/// one rendered board). "Clearly" is the margin [`super::rephase`] uses for phases: under 30 %.
/// A lattice whose pitch on one axis is `borrowed` from the other (that axis shows no
/// period near it) is weighed the same way: cells spanning several tiles pair loosely on
/// area, but only the tiles' own lattice gives near twins (2.6 against 11.5).
fn sharper_multiple(
    frame: &RgbaImage,
    found: &[(f32, Grid, Integral)],
    borrowed: &[usize],
    top: usize,
) -> usize {
    let multiple = |a: f32, b: f32| {
        let r = a.max(b) / a.min(b);
        (r - r.round()).abs() < 0.04 * r && r.round() <= 4.0
    };
    let related: Vec<usize> = (0..found.len())
        .filter(|&i| {
            let (p, q) = (found[i].1.pitch, found[top].1.pitch);
            i != top && (multiple(p.0, q.0) && multiple(p.1, q.1) || borrowed.contains(&i))
        })
        .collect();
    if related.is_empty() {
        return top;
    }
    // A coarser lattice whose board pairs the same picture area (equal but for rounding in
    // the sums): the finer one's pairs are its halves, each tile read as two cells that pair
    // as the tile does, and the coarser explains the same pictures with whole tiles.
    let coarser = |i: usize| {
        let (p, q) = (found[i].1.pitch, found[top].1.pitch);
        p.0 >= q.0 * 0.96 && p.1 >= q.1 * 0.96 && (p.0 > q.0 * 1.5 || p.1 > q.1 * 1.5)
    };
    let tie = related
        .iter()
        .copied()
        .filter(|&i| coarser(i) && (found[i].0 - found[top].0).abs() <= 1e-5 * found[top].0)
        .max_by(|&a, &b| {
            let pa = found[a].1.pitch.0 * found[a].1.pitch.1;
            pa.total_cmp(&(found[b].1.pitch.0 * found[b].1.pitch.1))
        });
    if let Some(i) = tie {
        return i;
    }
    let twin = |i: usize| -> Option<f32> {
        let (_, g, integral) = &found[i];
        let (r, _) = super::read_cells_detail(integral, frame, g).ok()?;
        let sample = super::twin_sample(&r.board);
        super::twin_distance(integral, frame.dimensions(), g, &sample)
    };
    let Some(base) = twin(top) else {
        return top;
    };
    // Pictures with near-exact twins already: a lattice with nearer ones is nearer only by
    // noise (a clean PNG: the tiles' lattice 0.012, half the pitch down 0.004).
    if base <= super::NEAR_EXACT_TWINS {
        return top;
    }

    related
        .into_iter()
        .filter_map(|i| twin(i).map(|d| (d, i)))
        .filter(|&(d, _)| d < base * 0.5)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map_or(top, |(_, i)| i)
}

/// The refusal for a frame area (x, y, w, h) where no regular spacing shows along `axis`.
fn no_lattice(axis: &str, window: (u32, u32, u32, u32)) -> ReadError {
    ReadError::NoBoard(format!(
        "no regular {axis} spacing of tiles in the {}x{} px area",
        window.2, window.3
    ))
}

/// The board on the lattice of pitch and phase `(pw, phx)` across and `(ph, phy)` down
/// (phases relative to `window`): its grid, the summed-area table over the lattice, and a
/// score: the board box's value in paired-picture area.
fn lattice_board(
    frame: &RgbaImage,
    hints: &Hints,
    window: (u32, u32, u32, u32),
    (pw, phx): (f32, f32),
    (ph, phy): (f32, f32),
) -> Result<(Grid, Integral, f32), ReadError> {
    let (fw, fh) = frame.dimensions();
    // Two estimates of the boundary: the strongest lattice of edges (a tile's outer border,
    // just right of a gap) and the centre of the stretch where neighbouring cells agree (the
    // margins between symbols, pulled left by a tile's 3-D edge). The boundary lies between.
    let ox = window.0 as f32 + phx + 0.5;
    let oy = window.1 as f32 + phy + 0.5;
    // The lattice covers the window and a cell more on each side (within the frame, or the
    // hinted region): the busy area's edge may cut through a board's edge cells.
    let area = match hints.region {
        Some(r) => r,
        None => {
            let x0 = (window.0 as f32 - pw).max(0.0) as u32;
            let y0 = (window.1 as f32 - ph).max(0.0) as u32;
            let x1 = ((window.0 + window.2) as f32 + pw).min(fw as f32) as u32;
            let y1 = ((window.1 + window.3) as f32 + ph).min(fh as f32) as u32;
            (x0, y0, x1 - x0, y1 - y0)
        }
    };
    let kx0 = ((area.0 as f32 - ox) / pw).ceil() as i32;
    let ky0 = ((area.1 as f32 - oy) / ph).ceil() as i32;
    let kx1 = (((area.0 + area.2) as f32 - ox) / pw).floor() as i32; // exclusive
    let ky1 = (((area.1 + area.3) as f32 - oy) / ph).floor() as i32;
    if kx1 - kx0 < 2 || ky1 - ky0 < 2 {
        return Err(no_lattice("tile", window));
    }
    let (nx, ny) = ((kx1 - kx0) as usize, (ky1 - ky0) as usize);
    let cell_xy = |k: usize| {
        (
            ox + (kx0 + (k % nx) as i32) as f32 * pw,
            oy + (ky0 + (k / nx) as i32) as f32 * ph,
        )
    };
    let samples: Vec<(f32, [f32; 3])> = (0..nx * ny)
        .map(|k| {
            let (x, y) = cell_xy(k);
            sampled_spread(frame, x, y, pw, ph)
        })
        .collect();
    let active: Vec<bool> = samples.iter().map(|s| s.0 > ACTIVE_SPREAD).collect();
    // Pictures compared as the reader compares tiles (block means with a small alignment
    // search), so a lattice a few pixels off the tiles still pairs equal pictures.
    let lattice = Grid {
        origin: (ox + kx0 as f32 * pw, oy + ky0 as f32 * ph),
        pitch: (pw, ph),
        rows: ny,
        cols: nx,
    };
    let integral = integral_for(frame, &lattice);
    let cell_features = |k: usize, shifts: bool| {
        let (r, c) = ((k / nx) as i32, (k % nx) as i32);
        features_with(&integral, &lattice, r, c, frame.dimensions(), shifts)
    };
    let feats: Vec<Option<CellFeatures>> = (0..nx * ny)
        .map(|k| active[k].then(|| cell_features(k, false)).flatten())
        .collect();
    // Pairs first by the unshifted descriptors (most tiles find their partner there), then,
    // for the cells still alone, with the alignment search against near misses (shifted
    // descriptors computed once, on demand).
    let plain = |a: usize, b: usize| match (&feats[a], &feats[b]) {
        (Some(p), Some(q)) => centre_dist_limit(p, q, PAIR_DIST * 2.5),
        _ => f32::MAX,
    };
    let shifted: Vec<std::cell::OnceCell<Option<CellFeatures>>> =
        (0..nx * ny).map(|_| std::cell::OnceCell::new()).collect();
    let aligned = |a: usize, b: usize| {
        let (Some(p), Some(_)) = (&feats[a], &feats[b]) else {
            return false;
        };
        let d0 = plain(a, b);
        if d0 >= PAIR_DIST * 2.5 {
            return false;
        }
        shifted[b]
            .get_or_init(|| cell_features(b, true))
            .as_ref()
            .is_some_and(|q| cell_dist(p, q, PAIR_DIST) < PAIR_DIST)
    };
    // Which cells have a partner by the unshifted descriptors. The distance is symmetric
    // (bit for bit), so a partner found for one cell pairs the other too and its own search
    // is skipped; and only "under PAIR_DIST" matters here, so the block sums stop at that
    // bound instead of `plain`'s looser one (the mean test keeps `plain`'s bound, so the
    // answers are `plain`'s exactly). Any partner will do, so each cell looks outward from
    // its place in the cells ordered by mean brightness: a twin has nearly the same mean and
    // is found within a few comparisons instead of a fifth of the lattice (searched in
    // lattice order, the bench's reads make 7 000 comparisons each, 9 % of their
    // instructions).
    let mut by_mean: Vec<usize> = (0..nx * ny).filter(|&k| feats[k].is_some()).collect();
    let brightness = |k: usize| {
        feats[k]
            .as_ref()
            .map_or(0.0, |f| f.mean.iter().sum::<f32>())
    };
    by_mean.sort_by(|&a, &b| brightness(a).total_cmp(&brightness(b)));
    let twins = |a: usize, b: usize| match (&feats[a], &feats[b]) {
        (Some(p), Some(q)) => {
            colour_dist(p.mean, q.mean) < PAIR_DIST * 2.5
                && desc_dist_limit(p.centre(), q.centre(), PAIR_DIST) < PAIR_DIST
        }
        _ => false,
    };
    let mut plain_paired = vec![false; nx * ny];
    for (i, &k) in by_mean.iter().enumerate() {
        if plain_paired[k] {
            continue;
        }
        let (below, above) = (by_mean[..i].iter().rev(), &by_mean[i + 1..]);
        let mut below = below.copied();
        let mut above = above.iter().copied();
        let partner = loop {
            let (b, a) = (below.next(), above.next());
            if b.is_none() && a.is_none() {
                break None;
            }
            if let Some(j) = b.filter(|&j| twins(k, j)) {
                break Some(j);
            }
            if let Some(j) = a.filter(|&j| twins(k, j)) {
                break Some(j);
            }
        };
        if let Some(j) = partner {
            plain_paired[k] = true;
            plain_paired[j] = true;
        }
    }
    let looks: Vec<Look> = (0..nx * ny)
        .map(|k| {
            if !active[k] {
                Look::Flat(samples[k].1)
            } else if plain_paired[k] || (0..nx * ny).any(|j| j != k && aligned(k, j)) {
                Look::Paired
            } else {
                Look::Lone
            }
        })
        .collect();
    let ((c0, r0, c1, r1), value) = board_box(&looks, nx, ny, (hints.rows, hints.cols))
        .ok_or_else(|| {
            ReadError::NoBoard(format!(
                "nothing tile-like on the {:.1}x{:.1} px lattice",
                pw, ph
            ))
        })?;
    let (cols, rows) = (c1 - c0 + 1, r1 - r0 + 1);
    let count = (r0..=r1)
        .flat_map(|r| (c0..=c1).map(move |c| (r, c)))
        .filter(|&(r, c)| active[r * nx + c])
        .count();
    if rows < 2 || cols < 2 || count < 4 {
        return Err(ReadError::NoBoard(format!(
            "the best tile group is {rows}x{cols} with {count} tiles"
        )));
    }
    let grid = Grid {
        origin: (
            ox + (kx0 + c0 as i32) as f32 * pw,
            oy + (ky0 + r0 as i32) as f32 * ph,
        ),
        pitch: (pw, ph),
        rows,
        cols,
    };
    Ok((grid, integral, value as f32 * pw * ph))
}

/// What a lattice cell shows, for locating the board.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Look {
    /// Flat (background or plain chrome), with its mean colour.
    Flat([f32; 3]),
    /// A picture that appears elsewhere on the lattice too: tiles come in pairs.
    Paired,
    /// A picture seen nowhere else: chrome such as a score panel, an avatar or a button.
    Lone,
}

/// How much a lone picture inside the box costs against a paired one: a board holds
/// only pairs, so the box may take in a few lone cells (a highlighted tile, a misread) but
/// not a panel of them.
const LONE_COST: i32 = 3;

/// The board's cells (c0, r0, c1, r1), inclusive: the rectangle with the most paired
/// pictures less [`LONE_COST`] per lone one (panels around a board are pictures without
/// partners), shrunk to its paired cells, then grown to a hinted size (rows, cols) over edge
/// lines of the board's own background. With both sides hinted, the best placement of a
/// window of exactly that size.
fn board_box(
    looks: &[Look],
    nx: usize,
    ny: usize,
    hint: (Option<usize>, Option<usize>),
) -> Option<((usize, usize, usize, usize), i32)> {
    let value = |k: usize| match looks[k] {
        Look::Paired => 1,
        Look::Lone => -LONE_COST,
        Look::Flat(_) => 0,
    };
    // Both sides hinted: the best placement of a window of exactly that size.
    if let (Some(hr), Some(hc)) = hint {
        if hr == 0 || hc == 0 || hr > ny || hc > nx {
            return None;
        }
        let mut best: Option<(i32, (usize, usize, usize, usize))> = None;
        for r0 in 0..=ny - hr {
            for c0 in 0..=nx - hc {
                let v: i32 = (r0..r0 + hr)
                    .flat_map(|r| (c0..c0 + hc).map(move |c| r * nx + c))
                    .map(value)
                    .sum();
                if best.is_none_or(|b| v > b.0) {
                    best = Some((v, (c0, r0, c0 + hc - 1, r0 + hr - 1)));
                }
            }
        }
        return best.map(|(v, b)| (b, v));
    }
    // Best sum rectangle: every pair of rows, then the best run of column sums (Kadane).
    let mut best: Option<(i32, (usize, usize, usize, usize))> = None;
    let mut colsum = vec![0i32; nx];
    for r0 in 0..ny {
        colsum.iter_mut().for_each(|v| *v = 0);
        for r1 in r0..ny {
            for (c, v) in colsum.iter_mut().enumerate() {
                *v += value(r1 * nx + c);
            }
            let (mut run, mut start) = (0i32, 0usize);
            for (c, &v) in colsum.iter().enumerate() {
                if run <= 0 {
                    run = 0;
                    start = c;
                }
                run += v;
                if run > 0 && best.is_none_or(|b| run > b.0) {
                    best = Some((run, (start, r0, c, r1)));
                }
            }
        }
    }
    let (score, (c0, r0, c1, r1)) = best?;
    // Shrink to the paired cells.
    let paired = |r: usize, c: usize| looks[r * nx + c] == Look::Paired;
    let rows: Vec<usize> = (r0..=r1)
        .filter(|&r| (c0..=c1).any(|c| paired(r, c)))
        .collect();
    let cols: Vec<usize> = (c0..=c1)
        .filter(|&c| (r0..=r1).any(|r| paired(r, c)))
        .collect();
    let (r0, r1) = (*rows.first()?, *rows.last()?);
    let (c0, c1) = (*cols.first()?, *cols.last()?);
    // The board's background: flat cells next to a tile inside the box.
    let mut bg = Vec::new();
    for r in r0..=r1 {
        for c in c0..=c1 {
            if let Look::Flat(m) = looks[r * nx + c] {
                let near = [(0, 1), (2, 1), (1, 0), (1, 2)].iter().any(|&(dr, dc)| {
                    let (rr, cc) = ((r + dr) as i64 - 1, (c + dc) as i64 - 1);
                    rr >= r0 as i64
                        && rr <= r1 as i64
                        && cc >= c0 as i64
                        && cc <= c1 as i64
                        && paired(rr as usize, cc as usize)
                });
                if near {
                    bg.push(m);
                }
            }
        }
    }
    if bg.is_empty() {
        return Some(((c0, r0, c1, r1), score));
    }
    let is_bg = |r: i64, c: i64| -> bool {
        if r < 0 || c < 0 || r >= ny as i64 || c >= nx as i64 {
            return false;
        }
        match looks[r as usize * nx + c as usize] {
            Look::Flat(m) => bg.iter().any(|b| colour_dist(*b, m) < 14.0),
            _ => false,
        }
    };
    // Hinted size: grow over whole lines of the board's background on either side (a board
    // whose edge lines are cleared looks exactly like one inside a ring of background, so
    // only a hint can say which it is), choosing the split whose added lines all qualify.
    let fit = |lo: usize, hi: usize, want: Option<usize>, line: &dyn Fn(i64) -> bool| {
        let Some(want) = want else { return (lo, hi) };
        let have = hi - lo + 1;
        if want <= have {
            return (lo, hi);
        }
        let extra = want - have;
        (0..=extra)
            .map(|k| (lo as i64 - k as i64, hi as i64 + (extra - k) as i64))
            .filter(|&(a, b)| (a..lo as i64).chain(hi as i64 + 1..=b).all(line))
            .min_by_key(|&(a, b)| ((lo as i64 - a) - (b - hi as i64)).abs())
            .map_or((lo, hi), |(a, b)| (a as usize, b as usize))
    };
    let (c0, c1) = fit(c0, c1, hint.1, &|c| (r0..=r1).all(|r| is_bg(r as i64, c)));
    let (r0, r1) = fit(r0, r1, hint.0, &|r| (c0..=c1).all(|c| is_bg(r, c as i64)));
    Some(((c0, r0, c1, r1), score))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::fixtures::fixture_case;

    /// The lattice found on fixture `n` has the true size and pitch (within 0.5 px).
    fn assert_lattice_found(n: u64) {
        let (g, truth) = assert_pitch_found(n);
        assert_eq!((g.rows, g.cols), (truth.rows, truth.cols), "case{n}");
    }

    /// The lattice found in fixture `n` has the truth's pitch (its extent may still grow
    /// past the busy area in the reading); returns it and the truth.
    fn assert_pitch_found(n: u64) -> (Grid, Grid) {
        let (frame, truth, _) = fixture_case(n);
        let g = find_grid(&frame, &Hints::default()).expect("a board");
        assert!(
            (g.pitch.0 - truth.pitch.0).abs() < 0.5,
            "case{n}: {:?}",
            g.pitch
        );
        assert!(
            (g.pitch.1 - truth.pitch.1).abs() < 0.5,
            "case{n}: {:?}",
            g.pitch
        );
        (g, truth)
    }

    /// Pastel tiles on noise under JPEG: both axes' profiles step down to half the pitch
    /// (27 for 53.8), and on paired area the half lattice's quarters score close to the
    /// tiles. The tiles' own lattice twins its pictures four times better.
    #[test]
    fn a_half_pitch_lattice_gives_way_to_the_tiles_own() {
        assert_lattice_found(154);
    }

    /// A sparse pastel board under JPEG whose rows show no period near the tiles' 43 px
    /// (read 2×6 at 85×108): the columns' step down from 43 to 21 lends 43 to the rows.
    #[test]
    fn a_lag_the_other_axis_stepped_down_from_is_borrowed() {
        assert_lattice_found(1110);
    }

    /// A sparse board under a title and a status bar: the rows' autocorrelation shows two
    /// rows (108) and no peak at 54, and cells of 2×2 tiles of a 40 %-full board pair on
    /// area more than the tiles do. Half of the rows' own pick is laid, and its twins win.
    #[test]
    fn a_sparse_board_is_not_read_at_twice_its_pitch() {
        assert_lattice_found(194);
    }

    /// A sparse pastel board on a gradient whose busy area leaves 5 of its 15 columns out:
    /// cells of 2×2 tiles pair more area there than the tiles' own lattice (178 000 against
    /// 54 000), but they show the ground through most of each picture.
    #[test]
    fn a_coarse_lattice_of_mostly_ground_does_not_win_on_area() {
        assert_pitch_found(1574);
    }
}
