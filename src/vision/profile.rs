//! Row and column edge profiles, and the period hidden in them.
//!
//! A tile board is a lattice: every tile boundary is a long straight edge at the same place
//! modulo the pitch. Summing horizontal colour changes down each column (and vertical ones
//! along each row) turns the board into a 1-D signal whose period is the cell pitch and whose
//! phase is the grid origin — the published profile method, made robust here by finding the
//! period with autocorrelation and refining it to a fraction of a pixel with a comb fit over
//! the whole board (a 125 % DPI screen has a 38.75 px pitch).

use super::pixels::sad_rgb;
use image::RgbaImage;

/// Edge profiles of a frame window: `cols[i]` is the summed colour change between columns
/// `x0 + i` and `x0 + i + 1`; `rows[j]` the same between rows.
pub struct Profiles {
    /// Frame x of the window's left edge, pixels.
    pub x0: u32,
    /// Frame y of the window's top edge, pixels.
    pub y0: u32,
    /// Colour change across each column boundary.
    pub cols: Vec<f32>,
    /// Colour change across each row boundary.
    pub rows: Vec<f32>,
}

/// Sums |Δcolour| across each column and row boundary of the window (x, y, w, h). Every
/// second line is sampled: the lattice's edges are long, so this halves the cost for free.
///
/// Hand-written rather than `imageproc::gradients` (a [-1, 1] kernel one way and a zero
/// kernel the other gives the same sums), which filters every pixel with both kernels into
/// whole gradient images first: on a 1920×1080 window 99–135 ms against 1.9–2.0 ms here,
/// on a 1000×600 window 27–34 ms against 0.55–0.9 ms (2 shared cores, load 2–3), where a
/// whole read's target is 5 ms. [`line_profiles`] would need the same two images.
pub fn edge_profiles(frame: &RgbaImage, window: (u32, u32, u32, u32)) -> Profiles {
    let (x0, y0, w, h) = window;
    let fw = frame.width() as usize;
    let raw = frame.as_raw();
    let mut cols = vec![0f32; w.saturating_sub(1) as usize];
    let mut rows = vec![0f32; h.saturating_sub(1) as usize];
    let mut colacc = vec![0u32; cols.len()];
    // Per byte (alpha too, dropped below) the change to the next pixel, summed down the
    // sampled rows: byte lanes in step, which the compiler vectorises.
    let mut byteacc = vec![0u32; colacc.len() * 4];
    for y in (y0..y0 + h).step_by(2) {
        let row =
            &raw[(y as usize * fw + x0 as usize) * 4..(y as usize * fw + (x0 + w) as usize) * 4];
        for ((acc, p), q) in byteacc.iter_mut().zip(row).zip(&row[4..]) {
            *acc += p.abs_diff(*q) as u32;
        }
    }
    for (acc, b) in colacc.iter_mut().zip(byteacc.chunks_exact(4)) {
        *acc = b[0] + b[1] + b[2];
    }
    for (c, a) in cols.iter_mut().zip(&colacc) {
        *c = *a as f32;
    }
    for (j, r) in rows.iter_mut().enumerate() {
        let y = y0 as usize + j;
        let a = &raw[(y * fw + x0 as usize) * 4..(y * fw + (x0 + w) as usize) * 4];
        let b = &raw[((y + 1) * fw + x0 as usize) * 4..((y + 1) * fw + (x0 + w) as usize) * 4];
        *r = sad_rgb(a, b, 2) as f32;
    }
    Profiles { x0, y0, cols, rows }
}

/// Edge-length profiles of a frame window: `cols[i]` counts the sampled pixels whose summed
/// RGB change across the boundary between columns `x0 + i` and `x0 + i + 1` exceeds
/// `edge_min`; `rows[j]` the same between rows. Cell boundaries are lines that run the whole
/// board, while a picture's edges are short, so counting edge pixels (rather than summing
/// their strength) keeps strong glyph strokes inside the tiles from drowning faint tile
/// borders. Every second line is sampled, as in [`edge_profiles`].
pub fn line_profiles(frame: &RgbaImage, window: (u32, u32, u32, u32), edge_min: u32) -> Profiles {
    let (x0, y0, w, h) = window;
    let fw = frame.width() as usize;
    let raw = frame.as_raw();
    let px = |x: usize, y: usize| {
        let i = (y * fw + x) * 4;
        [raw[i], raw[i + 1], raw[i + 2]]
    };
    let change = |a: [u8; 3], b: [u8; 3]| {
        a.iter()
            .zip(&b)
            .map(|(p, q)| p.abs_diff(*q) as u32)
            .sum::<u32>()
            > edge_min
    };
    let (x0u, y0u, wu, hu) = (x0 as usize, y0 as usize, w as usize, h as usize);
    let mut cols = vec![0f32; wu.saturating_sub(1)];
    let mut rows = vec![0f32; hu.saturating_sub(1)];
    for y in (y0u..y0u + hu).step_by(2) {
        for (i, c) in cols.iter_mut().enumerate() {
            *c += change(px(x0u + i, y), px(x0u + i + 1, y)) as u32 as f32;
        }
    }
    for (j, r) in rows.iter_mut().enumerate() {
        let y = y0u + j;
        *r = (x0u..x0u + wu)
            .step_by(2)
            .filter(|&x| change(px(x, y), px(x, y + 1)))
            .count() as f32;
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
    // x ≥ 0 here: truncation is the floor, without a library call.
    let i = x as usize;
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
    // Coarse pass (0.1 px pitch, 1 px phase: the smoothed profile's peaks are 3 px wide or
    // more), then a fine pass around the winner, ±0.75 px of phase, covers between.
    let coarse = comb_search(p, lag - span, lag + span, 0.1, 1.0, None);
    let fine = comb_search(
        p,
        coarse.0 - 0.1,
        coarse.0 + 0.1,
        0.025,
        0.125,
        Some((coarse.1 - 0.75, coarse.1 + 0.75)),
    );
    if fine.2 >= coarse.2 {
        fine
    } else {
        coarse
    }
}

fn comb_search(
    p: &[f32],
    from: f32,
    to: f32,
    pstep: f32,
    fstep: f32,
    phases: Option<(f32, f32)>,
) -> (f32, f32, f32) {
    let mut best = (from.max(4.0), 0.0, f32::MIN);
    let mut pitch = from.max(4.0);
    while pitch <= to + 1e-4 {
        let n = (p.len() as f32 / pitch).floor() as usize + 1;
        let (mut phase, end) = phases.unwrap_or((0.0, pitch));
        while phase < end {
            let ph = phase.rem_euclid(pitch);
            let mut on = 0.0;
            let mut off = 0.0;
            for k in 0..n {
                let x = ph + k as f32 * pitch;
                on += at(p, x);
                off += at(p, x + pitch * 0.5);
            }
            let score = (on - off) / n as f32;
            if score > best.2 {
                best = (pitch, ph, score);
            }
            phase += fstep;
        }
        pitch += pstep;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A board of faint full-width borders every 25 rows with one short, strong stroke
    /// inside each cell: summed strength favours the strokes, counted length the borders.
    #[test]
    fn counting_edge_pixels_favours_long_faint_lines_over_short_strong_strokes() {
        let mut img = RgbaImage::from_pixel(200, 200, image::Rgba([100, 100, 100, 255]));
        for y in (0..200).step_by(25) {
            for x in 0..200 {
                img.put_pixel(x, y, image::Rgba([112, 112, 112, 255]));
            }
            for x in 85..115 {
                img.put_pixel(x, y + 12, image::Rgba([0, 0, 0, 255]));
            }
        }
        let sum = edge_profiles(&img, (0, 0, 200, 200));
        let count = line_profiles(&img, (0, 0, 200, 200), 24);
        // rows[j] is the change between rows j and j + 1: a border at 25 enters at 24, a
        // stroke at 37 at 36.
        assert!(
            sum.rows[36] > sum.rows[24],
            "{} {}",
            sum.rows[36],
            sum.rows[24]
        );
        assert!(
            count.rows[24] > 4.0 * count.rows[36],
            "{} {}",
            count.rows[24],
            count.rows[36]
        );
        // Changes under the threshold count for nothing.
        assert_eq!(line_profiles(&img, (0, 0, 200, 200), 100).rows[24], 0.0);
    }

    #[test]
    fn finds_a_fractional_period() {
        // Spikes every 38.75 px starting at 7.
        let mut p = vec![0f32; 800];
        for k in 0..20 {
            let x = 7.0 + k as f32 * 38.75;
            p[x.round() as usize] = 10.0;
        }
        let p = smooth(&p, 1);
        // The pitch and its multiples all peak; the pitch is among them.
        let c = period_candidates(&p, 10, 200);
        let lag = c
            .iter()
            .map(|&(l, _)| l)
            .find(|&l| (l as f32 - 38.75).abs() <= 1.0)
            .unwrap_or_else(|| panic!("no candidate near 38.75 in {c:?}"));
        let (pitch, phase, _) = comb_fit(&p, lag as f32, 1.5);
        assert!((pitch - 38.75).abs() < 0.1, "{pitch}");
        // Spikes sit on whole pixels, up to half a pixel off the exact lattice.
        assert!((phase - 7.0).abs() <= 1.0, "{phase}");
    }
}
