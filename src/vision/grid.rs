//! Finding the board: pitch, origin and size from the frame alone.
//!
//! 1. Edge profiles of the frame (or the hinted region) give the pitch on each axis by
//!    autocorrelation, refined to a fraction of a pixel and phased by a comb fit
//!    ([`super::profile`]).
//! 2. That lattice is laid over the whole frame; a lattice cell is *active* when its interior
//!    is textured (a tile's symbol) rather than flat or softly noisy (background).
//! 3. The board is the largest 8-connected group of active cells, grown by any other group
//!    within one cell of it (a half-cleared board falls apart into islands). Chrome such as a
//!    title bar stays out: a ring of background separates it from the board.

use super::pixels::colour_dist;
use super::profile::{
    autocorrelation, comb_fit, consistency_phase, edge_profiles, period_candidates, smooth,
};
use super::{Hints, ReadError};
use crate::geometry::Grid;
use image::RgbaImage;

/// Smallest and largest pitch looked for, in pixels.
pub const MIN_PITCH: usize = 12;
pub const MAX_PITCH: usize = 320;

/// A cell is active (shows a picture) when its sampled interior deviates from its own mean
/// by more than this on average (0..255 per channel).
const ACTIVE_SPREAD: f32 = 13.0;

/// The pitch and phase along one axis of `profile` (phase relative to the profile start).
///
/// Autocorrelation peaks at the pitch and at all its multiples, and symbols can add peaks at
/// fractions of it; each candidate lag is therefore scored by the autocorrelation at its
/// first few multiples (a fraction of the pitch fails at its odd multiples, the true pitch
/// at none), and a multiple of a candidate only wins when clearly better.
fn axis(profile: &[f32]) -> Option<(f32, f32)> {
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
    // A fraction of the pitch must also hold at its odd multiples, which fall between tiles.
    let odd_ok = |l: usize, best: f32| {
        [1, 3].iter().filter(|&&m| m * l < max).all(|&m| {
            ac[m * l - 1..=m * l + 1]
                .iter()
                .cloned()
                .fold(f32::MIN, f32::max)
                >= best * 0.6
        })
    };
    let mut scored: Vec<(usize, f32)> =
        cands.iter().take(10).map(|&(l, _)| (l, score(l))).collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1));
    if std::env::var_os("LLK_DEBUG_GRID").is_some() {
        eprintln!("pitch candidates {scored:?}");
    }
    let &(mut pick, best) = scored.first()?;
    for &(l, s) in &scored {
        let ratio = pick as f32 / l as f32;
        if l < pick
            && s >= best * 0.85
            && odd_ok(l, best)
            && ratio.round() >= 2.0
            && (ratio - ratio.round()).abs() < 0.05 * ratio
        {
            pick = l;
        }
    }
    // The best lag may itself be a fraction of the pitch: step up to a multiple that scores
    // nearly as well when the lag fails its odd-multiple test.
    for m in [2usize, 3] {
        let up = pick * m;
        if let Some(&(l, s)) = scored.iter().find(|&&(l, _)| l.abs_diff(up) <= 1) {
            if s >= best * 0.8 && !odd_ok(pick, s) {
                pick = l;
                break;
            }
        }
    }
    if best <= 0.05 {
        return None;
    }
    let (pitch, phase, s) = comb_fit(&p, pick as f32, 1.2);
    (s > 0.0).then_some((pitch, phase))
}

/// Interior texture of a lattice cell from a sparse 8 × 8 sample.
fn sampled_spread(frame: &RgbaImage, x: f32, y: f32, w: f32, h: f32) -> f32 {
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
    s.iter()
        .map(|v| ((v[0] - mean[0]).abs() + (v[1] - mean[1]).abs() + (v[2] - mean[2]).abs()) / 3.0)
        .sum::<f32>()
        / 64.0
}

/// The midpoint of two phase estimates taken modulo `pitch` (they may differ by a lattice
/// step).
fn settle(edge: f32, quiet: f32, pitch: f32) -> f32 {
    let d = (quiet - edge).rem_euclid(pitch);
    let d = if d > pitch / 2.0 { d - pitch } else { d };
    edge + d / 2.0
}

/// A coarse 6 × 6 colour sketch of a lattice cell's interior (2 × 2 samples a block), enough
/// to tell whether two cells show the same picture.
fn sketch(frame: &RgbaImage, x: f32, y: f32, w: f32, h: f32) -> Vec<[f32; 3]> {
    let mut out = Vec::with_capacity(36);
    for by in 0..6 {
        for bx in 0..6 {
            let mut m = [0f32; 3];
            for (sx, sy) in [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)] {
                let fx = 0.15 + 0.67 * (bx as f32 + sx) / 6.0;
                let fy = 0.15 + 0.67 * (by as f32 + sy) / 6.0;
                let p = frame.get_pixel((x + w * fx) as u32, (y + h * fy) as u32).0;
                for c in 0..3 {
                    m[c] += p[c] as f32 / 4.0;
                }
            }
            out.push(m);
        }
    }
    out
}

/// Finds the board's grid in `frame`.
pub fn find_grid(frame: &RgbaImage, hints: &Hints) -> Result<Grid, ReadError> {
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
    let prof = edge_profiles(frame, window);
    let no_lattice = |axis: &str| {
        ReadError::NoBoard(format!(
            "no board found: no regular {axis} spacing of tiles in the {}x{} px area",
            window.2, window.3
        ))
    };
    let (pw, phx) = axis(&prof.cols).ok_or_else(|| no_lattice("column"))?;
    let (ph, phy) = axis(&prof.rows).ok_or_else(|| no_lattice("row"))?;
    // Two estimates of the boundary: the strongest lattice of edges (a tile's outer border,
    // just right of a gap) and the centre of the stretch where neighbouring cells agree (the
    // margins between symbols, pulled left by a tile's 3-D edge). The boundary lies between.
    let ox = window.0 as f32 + phx + 0.5;
    let oy = window.1 as f32 + phy + 0.5;
    let kx0 = ((window.0 as f32 - ox) / pw).ceil() as i32;
    let ky0 = ((window.1 as f32 - oy) / ph).ceil() as i32;
    let kx1 = (((window.0 + window.2) as f32 - ox) / pw).floor() as i32; // exclusive
    let ky1 = (((window.1 + window.3) as f32 - oy) / ph).floor() as i32;
    if kx1 - kx0 < 2 || ky1 - ky0 < 2 {
        return Err(no_lattice("tile"));
    }
    let (nx, ny) = ((kx1 - kx0) as usize, (ky1 - ky0) as usize);
    let mut active = vec![false; nx * ny];
    for j in 0..ny {
        for i in 0..nx {
            let x = ox + (kx0 + i as i32) as f32 * pw;
            let y = oy + (ky0 + j as i32) as f32 * ph;
            active[j * nx + i] = sampled_spread(frame, x, y, pw, ph) > ACTIVE_SPREAD;
        }
    }
    let sketches: Vec<Option<Vec<[f32; 3]>>> = (0..nx * ny)
        .map(|k| {
            active[k].then(|| {
                let x = ox + (kx0 + (k % nx) as i32) as f32 * pw;
                let y = oy + (ky0 + (k / nx) as i32) as f32 * ph;
                sketch(frame, x, y, pw, ph)
            })
        })
        .collect();
    let same_picture = |a: usize, b: usize| match (&sketches[a], &sketches[b]) {
        (Some(p), Some(q)) => {
            let d: f32 = p.iter().zip(q).map(|(u, v)| colour_dist(*u, *v)).sum();
            d / (p.len() as f32) < 16.0
        }
        _ => false,
    };
    if std::env::var_os("LLK_DEBUG_GRID").is_some() {
        eprintln!("lattice {pw}x{ph} at ({ox},{oy}) k0 ({kx0},{ky0})");
        for j in 0..ny {
            let row: String = (0..nx)
                .map(|i| if active[j * nx + i] { '#' } else { '.' })
                .collect();
            eprintln!("{row}");
        }
    }
    let (c0, r0, c1, r1) = board_box(&active, same_picture, nx, ny).ok_or_else(|| {
        ReadError::NoBoard(format!(
            "no board found: nothing tile-like on the {:.1}x{:.1} px lattice",
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
            "no board found: the best tile group is {rows}x{cols} with {count} tiles"
        )));
    }
    Ok(Grid {
        origin: (
            ox + (kx0 + c0 as i32) as f32 * pw,
            oy + (ky0 + r0 as i32) as f32 * ph,
        ),
        pitch: (pw, ph),
        rows,
        cols,
    })
}

/// Bounding box (c0, r0, c1, r1), inclusive, of the largest 8-connected group of active
/// cells grown by every group that comes within one cell of it.
fn board_box(
    active: &[bool],
    same_picture: impl Fn(usize, usize) -> bool,
    nx: usize,
    ny: usize,
) -> Option<(usize, usize, usize, usize)> {
    let mut label = vec![usize::MAX; active.len()];
    let mut comps: Vec<(usize, (usize, usize, usize, usize))> = Vec::new();
    for start in 0..active.len() {
        if !active[start] || label[start] != usize::MAX {
            continue;
        }
        let id = comps.len();
        let mut stack = vec![start];
        label[start] = id;
        let (mut n, mut bb) = (0, (usize::MAX, usize::MAX, 0, 0));
        while let Some(i) = stack.pop() {
            let (c, r) = (i % nx, i / nx);
            n += 1;
            bb = (bb.0.min(c), bb.1.min(r), bb.2.max(c), bb.3.max(r));
            for dr in -1i32..=1 {
                for dc in -1i32..=1 {
                    let (rr, cc) = (r as i32 + dr, c as i32 + dc);
                    if rr < 0 || cc < 0 || rr >= ny as i32 || cc >= nx as i32 {
                        continue;
                    }
                    let k = rr as usize * nx + cc as usize;
                    if active[k] && label[k] == usize::MAX {
                        label[k] = id;
                        stack.push(k);
                    }
                }
            }
        }
        comps.push((n, bb));
    }
    let main = (0..comps.len()).max_by_key(|&i| comps[i].0)?;
    let mut bb = comps[main].1;
    // An island joins only when its cells are tiles: most of them show a picture that also
    // appears outside the island (tiles come in pairs spread over the board; a title bar's
    // cells only resemble each other).
    let pool: Vec<usize> = (0..label.len())
        .filter(|&i| label[i] != usize::MAX)
        .collect();
    let tile_like = |id: usize| {
        let cells: Vec<usize> = (0..label.len()).filter(|&i| label[i] == id).collect();
        let ok = cells
            .iter()
            .filter(|&&i| pool.iter().any(|&j| label[j] != id && same_picture(i, j)))
            .count();
        ok * 2 > cells.len()
    };
    let mut used = vec![false; comps.len()];
    used[main] = true;
    loop {
        let mut grew = false;
        for (i, &(_, b)) in comps.iter().enumerate() {
            if used[i] {
                continue;
            }
            let near = b.0 <= bb.2 + 2 && b.2 + 2 >= bb.0 && b.1 <= bb.3 + 2 && b.3 + 2 >= bb.1;
            // Within one cell: the gap between boxes is at most one empty cell.
            let gap_c = if b.2 < bb.0 {
                bb.0 - b.2 - 1
            } else if b.0 > bb.2 {
                b.0 - bb.2 - 1
            } else {
                0
            };
            let gap_r = if b.3 < bb.1 {
                bb.1 - b.3 - 1
            } else if b.1 > bb.3 {
                b.1 - bb.3 - 1
            } else {
                0
            };
            if near && gap_c <= 1 && gap_r <= 1 && (gap_c + gap_r == 0 || tile_like(i)) {
                used[i] = true;
                bb = (bb.0.min(b.0), bb.1.min(b.1), bb.2.max(b.2), bb.3.max(b.3));
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    Some(bb)
}
