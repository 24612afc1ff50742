//! Row and column edge profiles, and the period hidden in them.
//!
//! A tile board is a lattice: every tile boundary is a long straight edge at the same place
//! modulo the pitch. Summing horizontal colour changes down each column (and vertical ones
//! along each row) turns the board into a 1-D signal whose period is the cell pitch and whose
//! phase is the grid origin — the published profile method, made robust here by finding the
//! period with autocorrelation and refining it to a fraction of a pixel with a comb fit over
//! the whole board (a 125 % DPI screen has a 38.75 px pitch).

use image::RgbaImage;

/// Edge profiles of a frame window: `cols[i]` is the summed colour change between columns
/// `x0 + i` and `x0 + i + 1`; `rows[j]` the same between rows.
pub struct Profiles {
    pub x0: u32,
    pub y0: u32,
    pub cols: Vec<f32>,
    pub rows: Vec<f32>,
}

/// Sums |Δcolour| across each column and row boundary of the window (x, y, w, h). Every
/// second line is sampled: the lattice's edges are long, so this halves the cost for free.
pub fn edge_profiles(frame: &RgbaImage, window: (u32, u32, u32, u32)) -> Profiles {
    let (x0, y0, w, h) = window;
    let fw = frame.width() as usize;
    let raw = frame.as_raw();
    let mut cols = vec![0f32; w.saturating_sub(1) as usize];
    let mut rows = vec![0f32; h.saturating_sub(1) as usize];
    let mut colacc = vec![0u32; cols.len()];
    for y in (y0..y0 + h).step_by(2) {
        let row =
            &raw[(y as usize * fw + x0 as usize) * 4..(y as usize * fw + (x0 + w) as usize) * 4];
        for (i, acc) in colacc.iter_mut().enumerate() {
            let a = &row[i * 4..i * 4 + 3];
            let b = &row[i * 4 + 4..i * 4 + 7];
            *acc += a[0].abs_diff(b[0]) as u32
                + a[1].abs_diff(b[1]) as u32
                + a[2].abs_diff(b[2]) as u32;
        }
    }
    for (c, a) in cols.iter_mut().zip(&colacc) {
        *c = *a as f32;
    }
    for (j, r) in rows.iter_mut().enumerate() {
        let y = y0 as usize + j;
        let a = &raw[(y * fw + x0 as usize) * 4..(y * fw + (x0 + w) as usize) * 4];
        let b = &raw[((y + 1) * fw + x0 as usize) * 4..((y + 1) * fw + (x0 + w) as usize) * 4];
        let mut acc = 0u32;
        for i in (0..w as usize).step_by(2) {
            let (p, q) = (&a[i * 4..i * 4 + 3], &b[i * 4..i * 4 + 3]);
            acc += p[0].abs_diff(q[0]) as u32
                + p[1].abs_diff(q[1]) as u32
                + p[2].abs_diff(q[2]) as u32;
        }
        *r = acc as f32;
    }
    Profiles { x0, y0, cols, rows }
}

/// Box-smooths a profile with radius `r`, so the two edges of a narrow gap (or a tile's
/// border and its neighbour's 3-D side) merge into one peak centred on the cell boundary.
pub fn smooth(p: &[f32], r: usize) -> Vec<f32> {
    let n = p.len();
    let mut pre = vec![0f32; n + 1];
    for i in 0..n {
        pre[i + 1] = pre[i] + p[i];
    }
    (0..n)
        .map(|i| {
            let a = i.saturating_sub(r);
            let b = (i + r + 1).min(n);
            (pre[b] - pre[a]) / (b - a) as f32
        })
        .collect()
}

/// Normalised autocorrelation of the mean-removed profile for lags `min..=max`
/// (index 0 = lag `min`). Values near 1 mean strongly periodic at that lag.
pub fn autocorrelation(p: &[f32], min: usize, max: usize) -> Vec<f32> {
    let n = p.len();
    if n < 2 || min > max {
        return Vec::new();
    }
    let mean = p.iter().sum::<f32>() / n as f32;
    let d: Vec<f32> = p.iter().map(|v| v - mean).collect();
    let var = d.iter().map(|v| v * v).sum::<f32>() / n as f32;
    if var <= 1e-9 {
        return vec![0.0; max - min + 1];
    }
    (min..=max)
        .map(|lag| {
            if lag >= n {
                return 0.0;
            }
            let m = n - lag;
            let s: f32 = d[..m].iter().zip(&d[lag..]).map(|(a, b)| a * b).sum();
            s / m as f32 / var
        })
        .collect()
}

/// Candidate pitches: local maxima of the autocorrelation, best first, as (lag, score).
pub fn period_candidates(p: &[f32], min: usize, max: usize) -> Vec<(usize, f32)> {
    let ac = autocorrelation(p, min, max);
    let mut peaks: Vec<(usize, f32)> = (0..ac.len())
        .filter(|&i| {
            let l = if i > 0 { ac[i - 1] } else { f32::MIN };
            let r = if i + 1 < ac.len() {
                ac[i + 1]
            } else {
                f32::MIN
            };
            ac[i] > 0.05 && ac[i] >= l && ac[i] >= r
        })
        .map(|i| (i + min, ac[i]))
        .collect();
    peaks.sort_by(|a, b| b.1.total_cmp(&a.1));
    peaks
}

/// Linear interpolation of a profile at a fractional index (0 outside).
#[inline]
fn at(p: &[f32], x: f32) -> f32 {
    if x < 0.0 {
        return 0.0;
    }
    let i = x.floor() as usize;
    if i + 1 >= p.len() {
        return if i < p.len() { p[i] } else { 0.0 };
    }
    let f = x - i as f32;
    p[i] * (1.0 - f) + p[i + 1] * f
}

/// The best fractional pitch near `lag` and its phase: maximises the mean of the profile
/// sampled at `phase + k·pitch` minus the mean half-way between teeth, so a comb that sits on
/// edges (cell boundaries) and not on flat ground wins. Returns (pitch, phase, score).
pub fn comb_fit(p: &[f32], lag: f32, span: f32) -> (f32, f32, f32) {
    let mut best = (lag, 0.0, f32::MIN);
    let steps = (span / 0.05).round() as i32;
    for s in -steps..=steps {
        let pitch = lag + s as f32 * 0.05;
        if pitch < 4.0 {
            continue;
        }
        let n = (p.len() as f32 / pitch).floor() as usize + 1;
        let mut phase = 0.0;
        while phase < pitch {
            let mut on = 0.0;
            let mut off = 0.0;
            for k in 0..n {
                let x = phase + k as f32 * pitch;
                on += at(p, x);
                off += at(p, x + pitch * 0.5);
            }
            let score = (on - off) / n as f32;
            if score > best.2 {
                best = (pitch, phase, score);
            }
            phase += 0.25;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_fractional_period() {
        // Spikes every 38.75 px starting at 7.
        let mut p = vec![0f32; 800];
        for k in 0..20 {
            let x = 7.0 + k as f32 * 38.75;
            p[x.round() as usize] = 10.0;
        }
        let p = smooth(&p, 1);
        let c = period_candidates(&p, 10, 200);
        assert!((c[0].0 as f32 - 38.75).abs() <= 1.0, "{c:?}");
        let (pitch, phase, _) = comb_fit(&p, c[0].0 as f32, 1.5);
        assert!((pitch - 38.75).abs() < 0.1, "{pitch}");
        assert!((phase - 7.0).abs() <= 0.75, "{phase}");
    }
}

/// The lattice phase on one axis from *consistency*: the same offset inside neighbouring
/// cells shows the same colour at a tile's margins and gap (every tile shares its face and
/// border) and different colours through the symbols. The boundary is the centre of the most
/// consistent stretch. Edge peaks alone can lock onto symbol edges when the tile border is
/// soft; this cannot. `horizontal` = columns (x axis). Returns the phase in frame pixels
/// (modulo the pitch).
pub fn consistency_phase(
    frame: &RgbaImage,
    window: (u32, u32, u32, u32),
    pitch: f32,
    horizontal: bool,
) -> f32 {
    let (x0, y0, w, h) = window;
    let (len, across) = if horizontal { (w, h) } else { (h, w) };
    let steps = (pitch * 2.0).ceil() as usize; // half-pixel offsets
    let mut diff = vec![0f32; steps];
    let cells = (len as f32 / pitch).floor() as usize;
    if cells < 2 {
        return 0.0;
    }
    let lines: Vec<u32> = (0..across).step_by(6).collect();
    let raw = frame.as_raw();
    let fw = frame.width() as usize;
    let get = |a: u32, b: u32| -> &[u8] {
        let (x, y) = if horizontal {
            (x0 + a, y0 + b)
        } else {
            (x0 + b, y0 + a)
        };
        let i = (y as usize * fw + x as usize) * 4;
        &raw[i..i + 3]
    };
    for (s, d) in diff.iter_mut().enumerate() {
        let t = s as f32 * 0.5;
        let mut acc = 0u32;
        for k in 0..cells - 1 {
            let a = (t + k as f32 * pitch).round() as u32;
            let b = (t + (k + 1) as f32 * pitch).round() as u32;
            if b >= len {
                break;
            }
            for &l in &lines {
                let (p, q) = (get(a, l), get(b, l));
                acc += p[0].abs_diff(q[0]) as u32
                    + p[1].abs_diff(q[1]) as u32
                    + p[2].abs_diff(q[2]) as u32;
            }
        }
        *d = acc as f32;
    }
    // Circular smoothing over a quarter pitch, then the quietest offset.
    let r = (steps / 8).max(1);
    let n = steps;
    let mut best = (0usize, f32::MAX);
    for s in 0..n {
        let mut v = 0.0;
        for k in 0..=2 * r {
            v += diff[(s + n + k - r) % n];
        }
        if v < best.1 {
            best = (s, v);
        }
    }
    let along0 = if horizontal { x0 } else { y0 };
    along0 as f32 + best.0 as f32 * 0.5
}
