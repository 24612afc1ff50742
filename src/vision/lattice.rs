//! Stage 1, the lattice: the cell pitch of each axis, to a fraction of a pixel, and where the
//! cell boundaries fall.
//!
//! A tile board is a lattice, so the frame's edge profile (colour change summed across each
//! column, or along each row) repeats with the cell pitch wherever the board is, whatever
//! the tiles show: gaps between tiles, tile borders, 3-D sides and drop shadows all recur
//! once per cell. The pitch is the lag at which the profile's autocorrelation peaks at the
//! lag and its multiples (a comb), refined from the peaks at the multiples; the phase is
//! where the profile, folded by the pitch, has its edges.

use super::config::ReaderConfig;
use super::profile::smooth;

/// One axis of a lattice: cell boundaries at `phase + k · pitch` (frame pixels).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axis {
    /// Distance between boundaries, pixels.
    pub pitch: f32,
    /// Position of the boundary at k = 0, pixels.
    pub phase: f32,
    /// How periodic the profile is at this pitch: the comb's mean autocorrelation (0–1).
    pub strength: f32,
}

/// Why no lattice was found on an axis.
#[derive(Clone, Debug, PartialEq)]
pub enum LatticeError {
    /// The profile is too short to hold three cells of the smallest pitch.
    TooShort(usize),
    /// Nothing repeats: no autocorrelation peak reaches the periodicity floor.
    NotPeriodic,
}

/// Normalised autocorrelation of `q` (already mean-free) for lags `0..=max`.
fn autocorrelation(q: &[f32], max: usize) -> Vec<f32> {
    let n = q.len();
    let var: f32 = q.iter().map(|v| v * v).sum::<f32>() / n as f32;
    (0..=max.min(n - 1))
        .map(|lag| {
            if var <= 1e-9 {
                return 0.0;
            }
            let m = n - lag;
            let s: f32 = q[..m].iter().zip(&q[lag..]).map(|(a, b)| a * b).sum();
            s / m as f32 / var
        })
        .collect()
}

/// Linear interpolation at a fractional index (0 outside).
fn at(p: &[f32], x: f32) -> f32 {
    if x < 0.0 || x > (p.len() - 1) as f32 {
        return 0.0;
    }
    let i = x.floor() as usize;
    if i + 1 >= p.len() {
        return p[i];
    }
    let f = x - i as f32;
    p[i] * (1.0 - f) + p[i + 1] * f
}

/// The highest value of `r` within `radius` of `x`, and where it is, refined by a parabola
/// through the best sample and its neighbours.
fn peak_near(r: &[f32], x: f32, radius: f32) -> Option<(f32, f32)> {
    let lo = (x - radius).floor().max(1.0) as usize;
    let hi = ((x + radius).ceil() as usize).min(r.len().saturating_sub(2));
    if lo > hi {
        return None;
    }
    let i = (lo..=hi).max_by(|&a, &b| r[a].total_cmp(&r[b]))?;
    let (a, b, c) = (r[i - 1], r[i], r[i + 1]);
    let den = a - 2.0 * b + c;
    let off = if den < 0.0 {
        (0.5 * (a - c) / den).clamp(-0.5, 0.5)
    } else {
        0.0
    };
    Some((i as f32 + off, b))
}

/// Profile with its slow trend removed: square roots (so a few very strong edges, a toolbar
/// or a window border, do not drown the many tile edges) less a moving mean over `radius`.
fn detrended(p: &[f32], radius: usize) -> Vec<f32> {
    let s: Vec<f32> = p.iter().map(|v| v.max(0.0).sqrt()).collect();
    let mean = smooth(&s, radius);
    s.iter().zip(&mean).map(|(v, m)| v - m).collect()
}

/// How far each lag's autocorrelation stands above its neighbourhood (a quarter of the lag
/// either way, the lag's own peak left out): a period's peak is sharp and stands high, while
/// the broad hump at short lags that textures and strokes give does not.
fn prominence(r: &[f32]) -> Vec<f32> {
    let n = r.len();
    let mut pre = vec![0f32; n + 1];
    for i in 0..n {
        pre[i + 1] = pre[i] + r[i];
    }
    (0..n)
        .map(|l| {
            let w = (l / 4).max(3);
            let (a, b) = (l.saturating_sub(w), (l + w + 1).min(n));
            let (pa, pb) = (l.saturating_sub(1).max(a), (l + 2).min(b));
            let count = (pa - a) + (b - pb);
            if count == 0 {
                return 0.0;
            }
            let around = (pre[pa] - pre[a] + pre[b] - pre[pb]) / count as f32;
            r[l] - around
        })
        .collect()
}

/// The teeth of lag `l`'s comb: the peak of `r` within a few percent of each of its first
/// `teeth` multiples that fit in the lags compared, as (multiple, where, height).
fn comb_teeth(r: &[f32], l: f32, teeth: usize) -> Vec<(usize, f32, f32)> {
    let k_max = ((r.len() - 2) as f32 / l).floor() as usize;
    let k = teeth.min(k_max).max(1);
    (1..=k)
        .map(|i| {
            let (x, v) =
                peak_near(r, i as f32 * l, 1.0 + i as f32 * 0.02 * l).unwrap_or((0.0, 0.0));
            (i, x, v)
        })
        .collect()
}

/// The comb score of lag `l`: the mean prominence at its first multiples.
fn comb(r: &[f32], l: f32, teeth: usize) -> f32 {
    teeth_score(&comb_teeth(r, l, teeth))
}

/// The mean height of a comb's teeth ([`comb_teeth`]).
fn teeth_score(t: &[(usize, f32, f32)]) -> f32 {
    t.iter().map(|p| p.2).sum::<f32>() / t.len() as f32
}

/// The lag the `teeth` of lag `l`'s comb ([`comb_teeth`]) stand at: the least-squares pitch
/// through the origin over them, each weighed by its height and multiple (`l` when none
/// stands). The comb lets each tooth sit a few percent off, so a side peak beside the first
/// tooth (a tile's border and its 3-D side a few pixels apart) scores the same teeth as the
/// period itself: both are the lag the teeth give.
fn comb_centre(teeth: &[(usize, f32, f32)], l: f32) -> f32 {
    let (mut num, mut den) = (0f32, 0f32);
    for &(k, x, v) in teeth {
        if v > 0.0 {
            num += v * k as f32 * x;
            den += v * (k * k) as f32;
        }
    }
    if den > 0.0 {
        num / den
    } else {
        l
    }
}

/// The mean prominence right at the multiples of `l` that fit in the lags compared (at
/// most a pixel off each): where [`comb`] lets each tooth find its peak within a few
/// percent, this asks whether the teeth stand exactly where `l` puts them.
fn sharp_comb(r: &[f32], l: f32) -> f32 {
    let ks: Vec<usize> = (1..)
        .take_while(|&k| (k as f32 * l) < (r.len() - 2) as f32)
        .collect();
    if ks.is_empty() {
        return 0.0;
    }
    ks.iter()
        .map(|&k| peak_near(r, k as f32 * l, 1.0).map_or(0.0, |p| p.1))
        .sum::<f32>()
        / ks.len() as f32
}

/// How far the detrended profile's autocorrelation stands out at each lag ([`prominence`]).
/// Lags past half the profile compare too few samples to stand out from noise.
fn periodicity(profile: &[f32], cfg: &ReaderConfig) -> Vec<f32> {
    let max_lag = (profile.len() as f32 / 2.0).min(cfg.max_pitch * 4.0) as usize;
    let q = detrended(profile, cfg.max_pitch as usize);
    prominence(&autocorrelation(&q, max_lag))
}

/// The pitch of an edge profile: the lag whose comb is strongest, replaced by a divisor of
/// it where the divisor's comb is nearly as strong, then refined to a fraction of a pixel
/// from the autocorrelation's peaks at every multiple it reaches.
pub fn pitch(profile: &[f32], cfg: &ReaderConfig) -> Result<(f32, f32), LatticeError> {
    let n = profile.len();
    let min = cfg.min_pitch.max(2.0);
    if (n as f32) < 3.0 * min {
        return Err(LatticeError::TooShort(n));
    }
    let r = periodicity(profile, cfg);
    // Two teeth must fit in the lags compared: at least four cells across.
    let max_pitch = cfg.max_pitch.min(n as f32 / 4.0);
    let peaks: Vec<usize> = (min.ceil() as usize..=(max_pitch as usize).min(r.len() - 2))
        .filter(|&i| r[i] >= r[i - 1] && r[i] >= r[i + 1] && r[i] >= cfg.min_periodicity)
        .collect();
    let scored: Vec<(f32, f32)> = peaks
        .iter()
        .map(|&i| {
            let l = peak_near(&r, i as f32, 1.0).map_or(i as f32, |p| p.0);
            let teeth = comb_teeth(&r, l, 4);
            (comb_centre(&teeth, l), teeth_score(&teeth))
        })
        .collect();
    let &(mut best, mut score) = scored
        .iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .ok_or(LatticeError::NotPeriodic)?;
    // A lag whose four teeth do not all fit in the lags compared is scored on fewer, a
    // noisier mean: it wins only by `short_comb_margin` over the best comb with all four.
    let full = |l: f32| 4.0 * l < (r.len() - 2) as f32;
    if !full(best) {
        if let Some(&(l, v)) = scored
            .iter()
            .filter(|c| full(c.0))
            .max_by(|a, b| a.1.total_cmp(&b.1))
        {
            if score < v * (1.0 + cfg.short_comb_margin) {
                (best, score) = (l, v);
            }
        }
    }
    // A lattice repeats: at least two of the comb's teeth must stand out on their own (a
    // lone chance peak of a noisy profile does not).
    let standing = (1..=4)
        .filter(|&k| (k as f32 * best) < (r.len() - 2) as f32)
        .filter(|&k| {
            peak_near(&r, k as f32 * best, 1.0 + 0.02 * k as f32 * best)
                .is_some_and(|p| p.1 >= cfg.min_periodicity)
        })
        .count();
    if score < cfg.min_periodicity || standing < 2 {
        return Err(LatticeError::NotPeriodic);
    }
    // Divisors: a divisor of the best lag is the period only if the profile repeats at the
    // divisor's own multiples between the best lag's teeth (k · best / m for k not a
    // multiple of m), not just at the teeth every lag's multiples share.
    // The finest divisor that passes wins (a comb at 4p also passes at 2p).
    for m in (2usize..=6).rev() {
        let d = best / m as f32;
        if d < min {
            continue;
        }
        // Each in-between tooth must stand where the divisor puts it, to a pixel: a peak a
        // few pixels off half the pitch is a feature of every tile (a band across each
        // face), not a lattice.
        let between = (1..m)
            .map(|k| {
                let want = k as f32 * d;
                peak_near(&r, want, 1.0 + 0.02 * want)
                    .filter(|p| (p.0 - want).abs() <= 1.0)
                    .map_or(0.0, |p| p.1)
            })
            .fold(f32::INFINITY, f32::min);
        if between >= cfg.divisor_keep * score && between >= cfg.min_periodicity {
            let l = peak_near(&r, d, 1.5).map_or(d, |p| p.0);
            best = l;
            score = comb(&r, l, 4);
            break;
        }
    }
    // Least squares through the origin over the peaks at k · pitch.
    let (mut num, mut den) = (0f32, 0f32);
    let mut k = 1;
    while (k as f32 * best) < (r.len() - 2) as f32 {
        let want = k as f32 * best;
        if let Some((x, v)) = peak_near(&r, want, 1.0 + 0.05 * best.min(want)) {
            if v >= cfg.min_periodicity * 0.5 {
                let w = v * k as f32;
                num += w * x;
                den += w * k as f32;
            }
        }
        k += 1;
    }
    let refined = if den > 0.0 { num / den } else { best };
    // A refinement that slid off to another peak is trusted only where the teeth stand
    // right at its multiples better than at the best comb's: with few cells along the axis
    // (six rows of large tiles), a tile's 3-D side puts a side peak a few pixels off the
    // first tooth that the comb scores alike, while the teeth at two and three cells
    // stand at the true pitch only.
    let pitch = if (refined - best).abs() <= 1.0 || sharp_comb(&r, refined) > sharp_comb(&r, best) {
        refined
    } else {
        best
    };
    Ok((pitch, score))
}

/// Where the cell boundaries fall, as a phase in `[0, pitch)` of the profile: the comb of
/// teeth one pitch apart that sits on the most edge and leaves the least half-way between.
/// The profile is smoothed by a tenth of the pitch first, so the two sides of a gap, or a
/// tile border and its neighbour's 3-D side, merge into one boundary.
pub fn phase(profile: &[f32], pitch: f32) -> f32 {
    let p = smooth(profile, ((pitch / 10.0).round() as usize).max(1));
    let teeth = (p.len() as f32 / pitch).floor() as usize + 1;
    let mut best = (0.0, f32::MIN);
    let mut ph = 0.0;
    while ph < pitch {
        let (mut on, mut off) = (0.0, 0.0);
        for k in 0..teeth {
            let x = ph + k as f32 * pitch;
            on += at(&p, x);
            off += at(&p, x + pitch * 0.5);
        }
        if on - off > best.1 {
            best = (ph, on - off);
        }
        ph += 0.25;
    }
    best.0
}

/// Both steps on one profile whose index 0 is frame pixel `start`; the phase is returned in
/// frame pixels. A profile entry `i` is the change between pixels `i` and `i + 1`, so a
/// boundary found at entry `i` lies at pixel `i + 1`.
pub fn axis(profile: &[f32], start: u32, cfg: &ReaderConfig) -> Result<Axis, LatticeError> {
    let (pitch, strength) = pitch(profile, cfg)?;
    Ok(axis_at(profile, start, pitch, strength))
}

/// The axis of `pitch` on a profile whose index 0 is frame pixel `start`, its phase found
/// on the profile ([`phase`]; a boundary at entry `i` lies at pixel `i + 1`).
fn axis_at(profile: &[f32], start: u32, pitch: f32, strength: f32) -> Axis {
    let ph = phase(profile, pitch) + 1.0 + start as f32;
    Axis {
        pitch,
        phase: ph.rem_euclid(pitch),
        strength,
    }
}

/// Axes for an axis that shows no period of its own ([`LatticeError::NotPeriodic`]) where
/// the other axis, of pitch `other`, fixes the range `lo..=hi` a tile-shaped cell's pitch
/// can take: a few rows of tiles in a tall frame of chrome repeat too weakly to stand out
/// over every lag. The pitches at which `profile` repeats at all in that range (local
/// maxima of its autocorrelation's prominence above zero), strongest first, at most `n`,
/// and `other` itself (square cells, where the profile's weak peak lies a pixel off);
/// each with its phase from the profile.
pub fn candidates(
    profile: &[f32],
    start: u32,
    (lo, hi): (f32, f32),
    other: f32,
    n: usize,
    cfg: &ReaderConfig,
) -> Vec<Axis> {
    let r = periodicity(profile, cfg);
    let (lo, hi) = (
        lo.max(cfg.min_pitch).ceil() as usize,
        (hi.min(cfg.max_pitch) as usize).min(r.len().saturating_sub(2)),
    );
    let mut peaks: Vec<(f32, f32)> = (lo.max(1)..=hi)
        .filter(|&i| r[i] > 0.0 && r[i] >= r[i - 1] && r[i] >= r[i + 1])
        .map(|i| {
            let l = peak_near(&r, i as f32, 1.0).map_or(i as f32, |p| p.0);
            (l, comb(&r, l, 4))
        })
        .collect();
    peaks.sort_by(|a, b| b.1.total_cmp(&a.1));
    peaks.truncate(n);
    if other < r.len().saturating_sub(2) as f32 {
        peaks.push((other, comb(&r, other, 4)));
    }
    peaks
        .into_iter()
        .map(|(l, v)| axis_at(profile, start, l, v))
        .collect()
}

/// `axis` with its pitch divided by the least `m` of 2–4 whose pitch `accept`s and at which
/// the profile repeats too: its autocorrelation peaks near `axis.pitch / m` at least
/// [`ReaderConfig::min_periodicity`] above its neighbourhood; `None` when no divisor does.
/// For an axis whose pitch makes cells too long against the other's
/// ([`ReaderConfig::max_cell_aspect`]): rows that alternate between full and emptied put
/// the strongest comb at twice the row pitch.
pub fn divided(
    profile: &[f32],
    start: u32,
    axis: &Axis,
    accept: impl Fn(f32) -> bool,
    cfg: &ReaderConfig,
) -> Option<Axis> {
    let r = periodicity(profile, cfg);
    (2..=4).find_map(|m| {
        let d = axis.pitch / m as f32;
        if d < cfg.min_pitch || (profile.len() as f32) < 3.0 * d || !accept(d) {
            return None;
        }
        // The multiple was refined over all its teeth; its divisor keeps that precision.
        let (_, v) = peak_near(&r, d, 1.0 + 0.02 * d)?;
        if v < cfg.min_periodicity {
            return None;
        }
        Some(axis_at(profile, start, d, comb(&r, d, 4)))
    })
}

/// `axis` with its pitch multiplied by the `m` of 2–4 whose pitch `accept`s and whose comb
/// scores best over the profile (its teeth's mean height, at least
/// [`ReaderConfig::min_periodicity`]); `None` when no multiple does. For an axis whose
/// pitch makes cells too long against the other's ([`ReaderConfig::max_cell_aspect`]) and
/// that no divisor of the other mends: a texture drawn across every face (ruled lines a
/// third of a face apart) repeats at a divisor of the tiles' pitch as strongly as they
/// do, and the divisor rule of [`pitch`] takes it. The tiles' own pitch combs best among the multiples: its teeth stand at every
/// tile, a lesser multiple's fall between tiles on every other tooth.
pub fn multiplied(
    profile: &[f32],
    start: u32,
    axis: &Axis,
    accept: impl Fn(f32) -> bool,
    cfg: &ReaderConfig,
) -> Option<Axis> {
    let r = periodicity(profile, cfg);
    let (l, score) = (2..=4)
        .filter_map(|m| {
            let want = axis.pitch * m as f32;
            if want > cfg.max_pitch || (profile.len() as f32) < 3.0 * want || !accept(want) {
                return None;
            }
            let (l, _) = peak_near(&r, want, 1.0 + 0.02 * want)?;
            let teeth = comb_teeth(&r, l, 4);
            Some((comb_centre(&teeth, l), teeth_score(&teeth)))
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    (score >= cfg.min_periodicity).then(|| axis_at(profile, start, l, score))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An edge profile of `cells` cells of `pitch` px starting at `x0`, each cell with a
    /// boundary edge and an inner edge at a cell-dependent place (the pictures differ), over
    /// a noisy ground.
    fn board_profile(len: usize, x0: f32, pitch: f32, cells: usize, gap: f32) -> Vec<f32> {
        let mut p = vec![0f32; len];
        let mut seed = 12345u32;
        let mut rnd = || {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        for v in p.iter_mut() {
            *v = 5.0 * rnd();
        }
        for c in 0..=cells {
            let b = x0 + c as f32 * pitch;
            for e in [b - gap / 2.0, b + gap / 2.0] {
                let i = e.round() as usize;
                if i < len {
                    p[i] += 60.0;
                }
            }
            if c < cells {
                let inner = b + pitch * (0.3 + 0.4 * rnd());
                p[inner.round() as usize] += 40.0 * rnd();
            }
        }
        p
    }

    #[test]
    fn finds_a_fractional_pitch_and_its_boundaries() {
        let p = board_profile(900, 103.0, 38.75, 19, 4.0);
        let cfg = ReaderConfig::default();
        let a = axis(&p, 0, &cfg).expect("lattice");
        assert!((a.pitch - 38.75).abs() < 0.1, "{a:?}");
        // Boundaries at 103 + k·38.75 (the profile's edge entries sit a pixel before).
        let off = (a.phase - 103.0).rem_euclid(a.pitch);
        assert!(off.min(a.pitch - off) <= 1.5, "{a:?}");
    }

    #[test]
    fn tiles_without_gaps_and_with_large_pitch() {
        let p = board_profile(1000, 40.0, 61.0, 14, 0.0);
        let a = axis(&p, 0, &ReaderConfig::default()).expect("lattice");
        assert!((a.pitch - 61.0).abs() < 0.15, "{a:?}");
    }

    /// Rows of tiles with an emptied row under each: a tile row's top edge and the strokes
    /// of its faces recur every two rows; its bottom edge, over the emptied row, is faint.
    fn alternate_rows_profile(len: usize, y0: f32, pitch: f32, rows: usize) -> Vec<f32> {
        let mut seed = 99u32;
        let mut rnd = || {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        let mut p: Vec<f32> = (0..len).map(|_| 3.0 * rnd()).collect();
        for r in (0..rows).step_by(2) {
            let b = y0 + r as f32 * pitch;
            p[b.round() as usize] += 80.0;
            p[(b + pitch).round() as usize] += 8.0;
            p[(b + pitch * 0.3).round() as usize] += 50.0;
            p[(b + pitch * 0.7).round() as usize] += 50.0;
        }
        p
    }

    #[test]
    fn rows_alternating_full_and_emptied_divide_to_the_row_pitch() {
        let p = alternate_rows_profile(500, 40.0, 35.0, 11);
        let cfg = ReaderConfig::default();
        let a = axis(&p, 0, &cfg).expect("lattice");
        assert!(
            (a.pitch - 70.0).abs() < 0.5,
            "the comb takes two rows: {a:?}"
        );
        let d = divided(&p, 0, &a, |_| true, &cfg).expect("repeats at the row pitch");
        assert!((d.pitch - 35.0).abs() < 0.3, "{d:?}");
        let off = (d.phase - 40.0).rem_euclid(d.pitch);
        assert!(off.min(d.pitch - off) <= 1.5, "{d:?}");
        // Cells of twice the pitch, one edge each: nothing repeats at half of it.
        let whole = board_profile(500, 40.0, 70.0, 6, 0.0);
        let w = axis(&whole, 0, &cfg).expect("lattice");
        assert!((w.pitch - 70.0).abs() < 0.5, "{w:?}");
        let half = |d: f32| (d - 35.0).abs() < 1.0;
        assert_eq!(divided(&whole, 0, &w, half, &cfg), None);
    }

    /// Six rows of 120-pixel tiles with 3-D sides down a 959-pixel window, as an edge
    /// profile: a window's menu and toolbar above (entries 0..130), six repeats of one
    /// row's profile (a boundary, the tile's 3-D side a few pixels on, its face's strokes),
    /// and the status bar below. The comb scores the true pitch and a side peak 2.7 px off
    /// it alike; the teeth at two and three rows stand at the true pitch only.
    fn few_large_rows_profile() -> Vec<f32> {
        const HEAD: [u16; 130] = [
            0, 0, 0, 0, 2, 16, 10, 51, 52, 44, 43, 38, 32, 44, 50, 21, 22, 4, 0, 0, 768, 768, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0, 1, 7, 5, 28, 27, 26, 21, 22, 22, 27, 32, 0, 0, 0, 0, 0, 0, 0,
            0, 768, 768, 768, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 7, 13, 8, 6, 4, 4, 3, 3, 3, 3, 3, 2, 2, 3, 2, 3, 14, 10, 8, 10, 8, 18, 16, 14,
            13, 13, 10, 11, 10, 9, 11, 11, 11, 9, 9, 8, 8, 7, 10, 7, 7, 4, 5, 4, 4, 4, 5, 6, 6, 6,
        ];
        const ROW: [u16; 120] = [
            632, 86, 15, 283, 16, 463, 604, 468, 494, 483, 412, 242, 178, 149, 244, 76, 198, 243,
            195, 198, 250, 239, 195, 143, 217, 184, 191, 131, 107, 113, 127, 124, 98, 111, 124, 94,
            109, 168, 156, 173, 156, 141, 150, 116, 134, 157, 120, 171, 119, 117, 137, 86, 114,
            158, 98, 107, 124, 139, 166, 163, 201, 150, 137, 160, 135, 126, 141, 115, 100, 100,
            100, 161, 202, 148, 188, 151, 171, 224, 187, 215, 190, 195, 195, 160, 187, 148, 171,
            150, 179, 188, 167, 247, 360, 274, 123, 156, 183, 130, 108, 107, 120, 90, 76, 91, 87,
            56, 51, 44, 48, 79, 73, 97, 66, 48, 75, 61, 19, 10, 42, 56,
        ];
        const TAIL: [u16; 109] = [
            630, 85, 14, 281, 14, 14, 14, 2, 15, 2, 14, 477, 1, 561, 701, 638, 1, 2, 1, 2, 2, 1, 2,
            1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 4, 4, 3, 4, 4, 4, 6, 7, 10, 3, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0, 0, 0, 0, 0, 0, 768, 0, 0, 0, 0, 0, 5, 35, 38, 95, 90, 79, 64, 60, 78, 81, 92, 1, 1,
            2, 2, 0,
        ];
        HEAD.iter()
            .chain(ROW.iter().cycle().take(6 * ROW.len()))
            .chain(TAIL.iter())
            .map(|&v| v as f32)
            .collect()
    }

    #[test]
    fn a_few_rows_take_the_pitch_their_far_teeth_show() {
        let a = axis(&few_large_rows_profile(), 0, &ReaderConfig::default()).expect("lattice");
        assert!((a.pitch - 120.0).abs() < 0.5, "{a:?}");
    }

    /// Tiles of `pitch` px from `x0` whose every boundary shows the border and 3 px on the
    /// tile's 3-D side; each face also shows a light band across it at `band`'s share of
    /// the pitch (and strength), and strokes that differ from tile to tile.
    fn banded_profile(len: usize, x0: f32, pitch: f32, cells: usize, band: (f32, f32)) -> Vec<f32> {
        let mut seed = 1u32;
        let mut rnd = || {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        let mut p: Vec<f32> = (0..len).map(|_| 4.0 * rnd()).collect();
        for c in 0..cells {
            let b = x0 + c as f32 * pitch;
            p[b.round() as usize] += 90.0;
            p[(b + 3.0).round() as usize] += 45.0;
            p[(b + pitch * band.0).round() as usize] += band.1;
            for _ in 0..3 {
                let at = b + pitch * (0.2 + 0.6 * rnd());
                p[at.round() as usize] += 30.0 * rnd();
            }
        }
        p[(x0 + cells as f32 * pitch).round() as usize] += 90.0;
        p
    }

    #[test]
    fn a_band_across_every_face_off_half_the_pitch_does_not_divide_it() {
        // Nine rows of 60 px, each face crossed by a light band 31 px down: the
        // autocorrelation's peak near 30 stands a pixel and more off half the pitch.
        for band in [(0.52, 50.0), (0.51, 70.0)] {
            let p = banded_profile(700, 96.0, 60.0, 9, band);
            let a = axis(&p, 0, &ReaderConfig::default()).expect("lattice");
            assert!((a.pitch - 60.0).abs() < 0.5, "{band:?}: {a:?}");
        }
    }

    /// Six rows of 90 px faces ruled across by lines a third of a face apart, as strong as
    /// the rows' borders: the profile repeats every 30 px and the pitch rule takes that
    /// divisor; multiplied back to cells as wide as 70 px columns allow, the rows' own
    /// pitch combs best (60 px would put every other tooth between rows).
    #[test]
    fn a_texture_ruled_across_every_face_is_multiplied_back_to_the_rows() {
        let mut seed = 7u32;
        let mut rnd = || {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            (seed >> 8) as f32 / (1u32 << 24) as f32
        };
        let mut p: Vec<f32> = (0..700).map(|_| 4.0 * rnd()).collect();
        for r in 0..6 {
            let b = 100.0 + r as f32 * 90.0;
            p[b as usize] += 90.0;
            p[b as usize + 3] += 40.0;
            for k in [30.0, 60.0] {
                p[(b + k) as usize] += 75.0;
            }
            for _ in 0..3 {
                let at = b + 90.0 * (0.1 + 0.8 * rnd());
                p[at.round() as usize] += 25.0 * rnd();
            }
        }
        p[640] += 90.0;
        let cfg = ReaderConfig::default();
        let a = axis(&p, 0, &cfg).expect("lattice");
        assert!((a.pitch - 30.0).abs() < 0.5, "the divisor is taken: {a:?}");
        let shaped = |h: f32| (0.5..=2.0).contains(&(70.0 / h));
        let m = multiplied(&p, 0, &a, shaped, &cfg).expect("a multiple");
        assert!((m.pitch - 90.0).abs() < 0.5, "{m:?}");
        let off = (m.phase - 100.0).rem_euclid(m.pitch);
        assert!(off.min(m.pitch - off) <= 4.0, "{m:?}");
    }

    #[test]
    fn a_lag_beside_the_first_tooth_centres_on_the_teeth_it_finds() {
        // Teeth at every 64 px and, 2 px past each, a tile's 3-D side: the side peak by the
        // first tooth is a peak of its own, 65.6 px, whose comb finds the period's teeth.
        let mut r = vec![0f32; 500];
        for k in 1..7 {
            r[64 * k] = 0.75;
            r[64 * k + 2] = 0.22;
        }
        assert!((comb_centre(&comb_teeth(&r, 65.6, 4), 65.6) - 64.0).abs() < 0.05);
        assert_eq!(comb(&r, 65.6, 4), comb(&r, 64.0, 4));
    }

    #[test]
    fn a_few_rows_in_a_tall_frame_leave_candidates_near_their_pitch() {
        // Three rows of 115 px tiles in a 2340 px frame whose chrome draws strong edges at
        // no period.
        let mut p = board_profile(2340, 840.0, 115.0, 3, 4.0);
        let mut seed = 99u32;
        for _ in 0..60 {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            let at = (seed >> 8) as usize % 2340;
            if !(800..1250).contains(&at) {
                p[at] += 50.0 + (seed % 200) as f32;
            }
        }
        let cfg = ReaderConfig::default();
        assert_eq!(axis(&p, 0, &cfg), Err(LatticeError::NotPeriodic));
        // The columns' pitch, 115.2, bounds the search and is tried itself, last.
        let c = candidates(&p, 0, (57.6, 230.4), 115.2, 3, &cfg);
        assert!(c.len() >= 2 && c.len() <= 4, "{c:?}");
        assert!(c.iter().any(|a| (a.pitch - 115.0).abs() <= 1.5), "{c:?}");
        assert_eq!(c.last().map(|a| a.pitch), Some(115.2));
        assert!(
            c.iter().all(|a| a.pitch >= 57.6 && a.pitch <= 230.4),
            "{c:?}"
        );
    }

    #[test]
    fn noise_has_no_lattice() {
        let mut seed = 7u32;
        let p: Vec<f32> = (0..1900)
            .map(|_| {
                seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
                (seed >> 8) as f32
            })
            .collect();
        let a = axis(&p, 0, &ReaderConfig::default());
        assert!(a.is_err(), "{a:?}");
    }

    #[test]
    fn a_short_profile_is_refused() {
        let p = vec![1.0; 20];
        assert_eq!(
            axis(&p, 0, &ReaderConfig::default()),
            Err(LatticeError::TooShort(20))
        );
    }
}
