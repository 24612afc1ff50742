//! Summed-area tables: the mean colour of any rectangle in O(1), so cell descriptors at
//! several alignment shifts cost a handful of lookups instead of re-reading pixels.

use image::RgbaImage;

/// Per-channel running sums of an RGB window of a frame. Coordinates passed to
/// [`Integral::mean`] are frame pixels; rectangles are clipped to the window.
///
/// Hand-written rather than `imageproc::integral_image`, which gives the same sums but
/// takes an image (a window is a copied crop) and sums alpha too. Measured (2 shared cores,
/// load 2–3): building the table over a 1920×1080 frame takes 3.7–4.2 ms here and 5.3–5.9 ms
/// with the library (8.6–9.6 ms through an RGB copy), over a 900×500 window 0.48 ms and
/// 1.3–1.6 ms; in `llk bench read --reader legacy` (19×11 board, full-HD frames, four
/// alternating runs of 150 frames, both themes) the library put the median `read_cells`
/// from 1.9 ms (1.9–3.2 over the runs) to 3.2 ms (3.0–4.9) and the median `read` from
/// 11.5 ms (9.3–14.0) to 13.5 ms (11.4–16.4), against targets of 1 ms and 5 ms.
pub struct Integral {
    x0: i64,
    y0: i64,
    w: i64,
    h: i64,
    /// (w + 1) × (h + 1) entries of [r, g, b] sums.
    sums: Vec<[u32; 3]>,
}

impl Integral {
    /// Builds the table for the window (x0, y0, w, h) of `frame`, clipped to the frame.
    pub fn new(frame: &RgbaImage, x0: i64, y0: i64, w: i64, h: i64) -> Integral {
        let (fw, fh) = (frame.width() as i64, frame.height() as i64);
        let xa = x0.clamp(0, fw);
        let ya = y0.clamp(0, fh);
        let xb = (x0 + w).clamp(xa, fw);
        let yb = (y0 + h).clamp(ya, fh);
        let (w, h) = (xb - xa, yb - ya);
        let stride = (w + 1) as usize;
        let mut sums = vec![[0u32; 3]; stride * (h + 1) as usize];
        let raw = frame.as_raw();
        let fstride = fw as usize * 4;
        for y in 0..h as usize {
            let start = (ya as usize + y) * fstride + xa as usize * 4;
            let row = &raw[start..start + w as usize * 4];
            // The row above and this one as separate slices, walked in step: this is the
            // largest loop of a read (every pixel around the board), so no index checks.
            let (above, here) = sums[y * stride..(y + 2) * stride].split_at_mut(stride);
            let mut acc = [0u32; 3];
            for ((out, up), p) in here[1..]
                .iter_mut()
                .zip(&above[1..])
                .zip(row.chunks_exact(4))
            {
                acc[0] += p[0] as u32;
                acc[1] += p[1] as u32;
                acc[2] += p[2] as u32;
                *out = [up[0] + acc[0], up[1] + acc[1], up[2] + acc[2]];
            }
        }
        Integral {
            x0: xa,
            y0: ya,
            w,
            h,
            sums,
        }
    }

    /// Mean colour of the pixels [x0, x1) × [y0, y1), clipped to the window; `None` when
    /// nothing of it is inside.
    #[inline]
    pub fn mean(&self, x0: i64, y0: i64, x1: i64, y1: i64) -> Option<[f32; 3]> {
        let xa = (x0 - self.x0).clamp(0, self.w) as usize;
        let xb = (x1 - self.x0).clamp(0, self.w) as usize;
        let ya = (y0 - self.y0).clamp(0, self.h) as usize;
        let yb = (y1 - self.y0).clamp(0, self.h) as usize;
        if xb <= xa || yb <= ya {
            return None;
        }
        let s = (self.w + 1) as usize;
        let (a, b, c, d) = (
            self.sums[ya * s + xa],
            self.sums[ya * s + xb],
            self.sums[yb * s + xa],
            self.sums[yb * s + xb],
        );
        let n = ((xb - xa) * (yb - ya)) as f32;
        let mut m = [0f32; 3];
        for i in 0..3 {
            m[i] = (d[i] as f64 - b[i] as f64 - c[i] as f64 + a[i] as f64) as f32 / n;
        }
        Some(m)
    }
}

impl Integral {
    /// The summed-area table at a fractional corner (x, y), bilinear between the integer
    /// corners: treating pixels as little squares, this is the exact sum over [x0, x) × [y0, y).
    #[inline(always)]
    fn sum_at(&self, x: f32, y: f32) -> [f64; 3] {
        let (iy, iy1, ty) = split(y, self.y0, self.h);
        let s = (self.w + 1) as usize;
        blend(
            &self.sums[iy * s..],
            &self.sums[iy1 * s..],
            split(x, self.x0, self.w),
            ty,
        )
    }

    /// Whether the fractional rectangle [x0, x1] × [y0, y1] lies inside the window, edges
    /// included: where [`Integral::corner_sums`] answers.
    pub fn holds(&self, x0: f32, y0: f32, x1: f32, y1: f32) -> bool {
        let inside = |v: f32, lo: i64, len: i64| v >= lo as f32 && v <= (lo + len) as f32;
        inside(x0, self.x0, self.w)
            && inside(x1, self.x0, self.w)
            && inside(y0, self.y0, self.h)
            && inside(y1, self.y0, self.h)
    }

    /// The table at every (x, y) of two lists of fractional coordinates, row-major by y;
    /// `None` when any lies outside the window.
    pub fn corner_sums(&self, xs: &[f32], ys: &[f32]) -> Option<Vec<[f64; 3]>> {
        let inside = |v: f32, lo: i64, len: i64| v >= lo as f32 && v <= (lo + len) as f32;
        if !xs.iter().all(|&x| inside(x, self.x0, self.w))
            || !ys.iter().all(|&y| inside(y, self.y0, self.h))
        {
            return None;
        }
        // [`Integral::sum_at`] per corner, with each x and y split once per coordinate
        // instead of once per corner (the same arithmetic, so the same sums).
        let s = (self.w + 1) as usize;
        let cols: Vec<(usize, usize, f64)> =
            xs.iter().map(|&x| split(x, self.x0, self.w)).collect();
        let mut out = Vec::with_capacity(xs.len() * ys.len());
        for &y in ys {
            let (iy, iy1, ty) = split(y, self.y0, self.h);
            let (top_row, bottom_row) = (&self.sums[iy * s..], &self.sums[iy1 * s..]);
            for &col in &cols {
                out.push(blend(top_row, bottom_row, col, ty));
            }
        }
        Some(out)
    }

    /// [`Integral::corner_sums`] row by row: `f(r, corners)` for each y in `ys` in order,
    /// the same sums, from a buffer on the stack for up to 17 xs (blocks of up to 16, as
    /// the descriptors use), so a descriptor allocates nothing for them. `false` (and no
    /// call) when any coordinate lies outside the window.
    #[inline]
    pub fn corner_rows(
        &self,
        xs: &[f32],
        ys: &[f32],
        mut f: impl FnMut(usize, &[[f64; 3]]),
    ) -> bool {
        if xs.len() > 17 {
            let Some(all) = self.corner_sums(xs, ys) else {
                return false;
            };
            for (r, row) in all.chunks_exact(xs.len()).enumerate() {
                f(r, row);
            }
            return true;
        }
        let inside = |v: f32, lo: i64, len: i64| v >= lo as f32 && v <= (lo + len) as f32;
        if !xs.iter().all(|&x| inside(x, self.x0, self.w))
            || !ys.iter().all(|&y| inside(y, self.y0, self.h))
        {
            return false;
        }
        let s = (self.w + 1) as usize;
        let mut cols = [(0usize, 0usize, 0f64); 17];
        for (c, &x) in cols.iter_mut().zip(xs) {
            *c = split(x, self.x0, self.w);
        }
        let cols = &cols[..xs.len()];
        let mut row = [[0f64; 3]; 17];
        for (r, &y) in ys.iter().enumerate() {
            let (iy, iy1, ty) = split(y, self.y0, self.h);
            let (top_row, bottom_row) = (&self.sums[iy * s..], &self.sums[iy1 * s..]);
            for (out, &col) in row.iter_mut().zip(cols) {
                *out = blend(top_row, bottom_row, col, ty);
            }
            f(r, &row[..cols.len()]);
        }
        true
    }

    /// Mean colour of the fractional rectangle [x0, x1) × [y0, y1), which must lie inside the
    /// window: block means that follow a fractional grid exactly, so two tiles drawn at
    /// different sub-pixel phases (125 % DPI) still give the same blocks.
    #[inline]
    pub fn mean_f(&self, x0: f32, y0: f32, x1: f32, y1: f32) -> Option<[f32; 3]> {
        let area = ((x1 - x0) * (y1 - y0)) as f64;
        if area <= 1e-3
            || x0 < self.x0 as f32
            || y0 < self.y0 as f32
            || x1 > (self.x0 + self.w) as f32
            || y1 > (self.y0 + self.h) as f32
        {
            return None;
        }
        let (a, b, c, d) = (
            self.sum_at(x0, y0),
            self.sum_at(x1, y0),
            self.sum_at(x0, y1),
            self.sum_at(x1, y1),
        );
        let mut m = [0f32; 3];
        for i in 0..3 {
            m[i] = ((d[i] - b[i] - c[i] + a[i]) / area) as f32;
        }
        Some(m)
    }
}

/// Sum of |a − b| over the R, G, B bytes of every `every`-th pixel (1 or 2) of two RGBA
/// rows of equal length (alpha never counts). Byte lanes of 16-byte chunks are summed
/// separately and the unwanted lanes dropped at the end, a loop the compiler turns into
/// SIMD byte arithmetic: this is the inner loop of the edge profiles and of the pitch
/// calibration's overlays.
#[inline(always)]
pub(crate) fn sad_rgb(a: &[u8], b: &[u8], every: usize) -> u32 {
    debug_assert!(every == 1 || every == 2);
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut lanes = [0u32; 16];
    let mut ca = a.chunks_exact(16);
    let mut cb = b.chunks_exact(16);
    for (p, q) in (&mut ca).zip(&mut cb) {
        for k in 0..16 {
            lanes[k] += (p[k].max(q[k]) - p[k].min(q[k])) as u32;
        }
    }
    // Lane k is byte k % 4 of pixel k / 4 of each chunk.
    let wanted = |k: usize| k % 4 < 3 && (k / 4).is_multiple_of(every);
    let mut total: u32 = (0..16).filter(|&k| wanted(k)).map(|k| lanes[k]).sum();
    // The last pixels (fewer than four), still every `every`-th counted from the row's start.
    for (k, (x, y)) in ca.remainder().iter().zip(cb.remainder()).enumerate() {
        if wanted(k) {
            total += x.abs_diff(*y) as u32;
        }
    }
    total
}

/// The most common colour among `colours` (a mode, not a median: symbols and rounded
/// corners pull a median off): the one with the most others within `tol`, averaged with
/// them. Black for no colours.
pub(crate) fn mode_colour(colours: &[[f32; 3]], tol: f32) -> [f32; 3] {
    let near = |a: [f32; 3]| colours.iter().filter(move |b| colour_dist(a, **b) < tol);
    let Some(seed) = colours.iter().max_by_key(|a| near(**a).count()).copied() else {
        return [0.0; 3];
    };
    let n = near(seed).count() as f32;
    let mut out = [0f32; 3];
    for b in near(seed) {
        for ch in 0..3 {
            out[ch] += b[ch] / n;
        }
    }
    out
}

/// A fractional table coordinate `v` of a window starting at `lo`, `len` pixels long:
/// the integer corners either side (clamped to the window) and the weight of the second.
#[inline(always)]
fn split(v: f32, lo: i64, len: i64) -> (usize, usize, f64) {
    let f = (v - lo as f32).clamp(0.0, len as f32);
    // Clamped to ≥ 0, where truncation is the floor (and, unlike `floor`, no library call
    // on the baseline x86-64 target).
    let i = f as usize;
    (i, (i + 1).min(len as usize), (f - i as f32) as f64)
}

/// The table bilinear between two of its rows (from the column a [`split`] gives) at
/// weight `ty` of the second: the inner step of every summed-area lookup.
#[inline(always)]
fn blend(
    top_row: &[[u32; 3]],
    bottom_row: &[[u32; 3]],
    (ix, ix1, tx): (usize, usize, f64),
    ty: f64,
) -> [f64; 3] {
    let (a, b, c, d) = (top_row[ix], top_row[ix1], bottom_row[ix], bottom_row[ix1]);
    let mut v = [0f64; 3];
    for i in 0..3 {
        let top = a[i] as f64 * (1.0 - tx) + b[i] as f64 * tx;
        let bottom = c[i] as f64 * (1.0 - tx) + d[i] as f64 * tx;
        v[i] = top * (1.0 - ty) + bottom * ty;
    }
    v
}

/// The colour of pixel (x, y), or `None` off the frame: the samples that walk across lattice
/// lines and past the board's edge may leave it.
#[inline]
pub(crate) fn rgb_at(frame: &RgbaImage, x: i64, y: i64) -> Option<[f32; 3]> {
    if x < 0 || y < 0 || x >= frame.width() as i64 || y >= frame.height() as i64 {
        return None;
    }
    let p = frame.get_pixel(x as u32, y as u32).0;
    Some([p[0] as f32, p[1] as f32, p[2] as f32])
}

/// Mean absolute difference of two colours, per channel (0..255).
#[inline]
pub fn colour_dist(a: [f32; 3], b: [f32; 3]) -> f32 {
    ((a[0] - b[0]).abs() + (a[1] - b[1]).abs() + (a[2] - b[2]).abs()) / 3.0
}

/// The median of `v` (the upper one of an even count; 0 when empty).
pub(crate) fn median(mut v: Vec<f32>) -> f32 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    #[test]
    fn sad_matches_a_plain_loop() {
        // Odd lengths exercise the remainder; alpha differs everywhere and must not count.
        for px in [1usize, 3, 4, 5, 9, 17] {
            let a: Vec<u8> = (0..px * 4).map(|i| (i * 37 % 251) as u8).collect();
            let b: Vec<u8> = (0..px * 4).map(|i| (i * 91 % 253) as u8).collect();
            for every in [1, 2] {
                let want: u32 = (0..px)
                    .step_by(every)
                    .map(|p| {
                        (0..3)
                            .map(|c| a[p * 4 + c].abs_diff(b[p * 4 + c]) as u32)
                            .sum::<u32>()
                    })
                    .sum();
                assert_eq!(sad_rgb(&a, &b, every), want, "{px} px, every {every}");
            }
        }
    }

    #[test]
    fn means_match_direct_sums() {
        let img = RgbaImage::from_fn(20, 10, |x, y| Rgba([x as u8 * 10, y as u8 * 20, 7, 255]));
        let t = Integral::new(&img, 2, 1, 15, 8);
        let m = t.mean(3, 2, 7, 5).unwrap();
        // x 3..7 mean 4.5 → 45; y 2..5 mean 3 → 60.
        assert_eq!(m, [45.0, 60.0, 7.0]);
        // Clipped to the window (x ≥ 2).
        assert_eq!(t.mean(0, 1, 3, 2).unwrap()[0], 20.0);
        assert!(t.mean(30, 30, 40, 40).is_none());
    }
}
