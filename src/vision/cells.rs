//! What is in each cell: a colour descriptor for type matching, and whether the cell shows
//! background (empty), a tile, or something else.
//!
//! Every cell is summarised by the mean colours of a 6 × 6 grid of blocks over its interior
//! (borders, 3-D edges and gaps left out). Block means survive JPEG, scaling and a pixel of
//! misalignment, keep colour (greyscale confuses red and green of equal brightness) and make
//! comparisons cheap. The same blocks give the cell's texture ("spread"), which separates a
//! tile's symbol from a flat, gradient or noisy background.

use super::pixels::{colour_dist, Integral};
use crate::geometry::Grid;

/// Blocks per side of a cell descriptor.
pub const B: usize = 6;
/// Interior of a cell as fractions of the pitch: skips the border on the top/left and the
/// 3-D edge, gap and highlight stroke on the bottom/right.
pub(crate) const INSET_LO: f32 = 0.15;
pub(crate) const INSET_HI: f32 = 0.82;

/// The rim band, as fractions of the pitch in from each side of the cell: clear of the
/// lattice line itself (which may be a pixel off) and of the descriptor's interior.
const RIM: (f32, f32) = (0.04, 0.12);

/// The block means of one cell at one alignment.
pub type Desc = [[f32; 3]; B * B];

/// What vision knows about one cell's pixels.
#[derive(Clone, Debug)]
pub struct CellFeatures {
    /// Descriptors at each alignment shift (index [`CENTRE`] unshifted), or only the
    /// unshifted one; see [`CellFeatures::centre`].
    pub descs: Vec<Desc>,
    /// Mean colour of the interior.
    pub mean: [f32; 3],
    /// Mean distance of the blocks from the interior's mean: texture, 0 for a flat colour.
    pub spread: f32,
    /// Mean colours of small patches near the four face corners, where symbols rarely
    /// reach: what every tile of a game shares.
    pub body: [[f32; 3]; 4],
    /// Mean colours of the tile's rim, a thin band just inside the cell on each side, in
    /// halves (top, bottom, left, right; two each): the frame every tile of a game shares and
    /// its art stays inside. Only with the alignment shifts (it is needed for the few cells
    /// examined closely, not for every trial lattice).
    pub rim: Option<[[f32; 3]; 8]>,
}

#[cfg(test)]
impl CellFeatures {
    /// A cell for tests: one black descriptor, flat, no rim, with the face corners `body`.
    pub(crate) fn with_body(body: [[f32; 3]; 4]) -> CellFeatures {
        CellFeatures {
            descs: vec![[[0.0; 3]; B * B]],
            mean: [0.0; 3],
            spread: 0.0,
            body,
            rim: None,
        }
    }
}

/// Index of the unshifted descriptor in [`CellFeatures::descs`] when all shifts are there.
pub const CENTRE: usize = 4;

impl CellFeatures {
    /// The unshifted descriptor.
    pub fn centre(&self) -> &Desc {
        &self.descs[self.descs.len() / 2]
    }
}

/// A summed-area table big enough for every cell of `grid` and its ring, shifted by up to
/// `shift` px.
pub fn integral_for(frame: &image::RgbaImage, grid: &Grid) -> Integral {
    let (x, y, w, h) = grid.bounds();
    let m = (grid.pitch.0.max(grid.pitch.1) * 1.2).ceil() as i64 + 4;
    Integral::new(
        frame,
        x.floor() as i64 - m,
        y.floor() as i64 - m,
        w.ceil() as i64 + 2 * m,
        h.ceil() as i64 + 2 * m,
    )
}

/// Alignment step in pixels for a pitch: one pixel for normal tiles, more for big ones.
pub fn shift_step(grid: &Grid) -> i64 {
    ((grid.pitch.0.min(grid.pitch.1) / 32.0).round() as i64).max(1)
}

/// Features of cell (row, col) (ring cells allowed); `None` when the cell is not wholly
/// inside the frame.
pub fn features(
    integral: &Integral,
    grid: &Grid,
    row: i32,
    col: i32,
    frame_size: (u32, u32),
) -> Option<CellFeatures> {
    features_with(integral, grid, row, col, frame_size, true)
}

/// [`features`] with the alignment-shifted descriptors (`shifts`) or only the unshifted one
/// (a ninth of the lookups; shifts are computed later for the few cells that need them).
pub fn features_with(
    integral: &Integral,
    grid: &Grid,
    row: i32,
    col: i32,
    frame_size: (u32, u32),
    shifts: bool,
) -> Option<CellFeatures> {
    let (x, y, w, h) = grid.cell_rect(row, col);
    if x < 0.0 || y < 0.0 || x + w > frame_size.0 as f32 + 0.5 || y + h > frame_size.1 as f32 + 0.5
    {
        return None;
    }
    let step = shift_step(grid) as f32;
    let (ix0, iy0) = (x + w * INSET_LO, y + h * INSET_LO);
    let (iw, ih) = (w * (INSET_HI - INSET_LO), h * (INSET_HI - INSET_LO));
    let (bw, bh) = (iw / B as f32, ih / B as f32);
    // The summed-area table at every block corner of every shift: shifts of one step reuse
    // corners, so 21 × 21 lookups serve all nine descriptors.
    let n = B + 1;
    let range = if shifts { -1..=1 } else { 0..=0 };
    let nshift = if shifts { 3 } else { 1 };
    let xs: Vec<f32> = range
        .clone()
        .flat_map(|d| (0..n).map(move |i| ix0 + d as f32 * step + i as f32 * bw))
        .collect();
    let ys: Vec<f32> = range
        .flat_map(|d| (0..n).map(move |j| iy0 + d as f32 * step + j as f32 * bh))
        .collect();
    let table = integral.corner_sums(&xs, &ys)?;
    let area = bw * bh;
    let mut descs = Vec::with_capacity(nshift * nshift);
    for dy in 0..nshift {
        for dx in 0..nshift {
            let mut d = [[0f32; 3]; B * B];
            for by in 0..B {
                let r0 = (dy * n + by) * xs.len();
                let r1 = r0 + xs.len();
                for bx in 0..B {
                    let c0 = dx * n + bx;
                    let (a, b, c, e) = (
                        table[r0 + c0],
                        table[r0 + c0 + 1],
                        table[r1 + c0],
                        table[r1 + c0 + 1],
                    );
                    for ch in 0..3 {
                        d[by * B + bx][ch] = ((e[ch] - b[ch] - c[ch] + a[ch]) as f32) / area;
                    }
                }
            }
            descs.push(d);
        }
    }
    let c = &descs[descs.len() / 2];
    let mut mean = [0f32; 3];
    for b in c.iter() {
        for i in 0..3 {
            mean[i] += b[i] / (B * B) as f32;
        }
    }
    let spread = c.iter().map(|b| colour_dist(*b, mean)).sum::<f32>() / (B * B) as f32;
    let patch = |fx0: f32, fy0: f32| -> Option<[f32; 3]> {
        let s = 0.06;
        integral.mean(
            (x + w * fx0).round() as i64,
            (y + h * fy0).round() as i64,
            ((x + w * (fx0 + s)).round() as i64).max((x + w * fx0).round() as i64 + 1),
            ((y + h * (fy0 + s)).round() as i64).max((y + h * fy0).round() as i64 + 1),
        )
    };
    let body = [
        patch(0.13, 0.13)?,
        patch(0.7, 0.13)?,
        patch(0.13, 0.7)?,
        patch(0.7, 0.7)?,
    ];
    // A rim that cannot be measured only costs the marked-pair test its evidence; the
    // cell's other features stand.
    let rim = if shifts {
        // At fractional coordinates: the band is a few pixels wide at small pitches, and
        // whole-pixel bands a pixel off land on the tile's border (there rendered look-alike
        // types differ by up to 26 at the rim instead of 9).
        let band = |fx0: f32, fy0: f32, fx1: f32, fy1: f32| {
            integral.mean_f(x + w * fx0, y + h * fy0, x + w * fx1, y + h * fy1)
        };
        let (a, b) = (RIM.0, RIM.1);
        (|| {
            Some([
                band(0.1, a, 0.5, b)?,
                band(0.5, a, 0.9, b)?,
                band(0.1, 1.0 - b, 0.5, 1.0 - a)?,
                band(0.5, 1.0 - b, 0.9, 1.0 - a)?,
                band(a, 0.1, b, 0.5)?,
                band(a, 0.5, b, 0.9)?,
                band(1.0 - b, 0.1, 1.0 - a, 0.5)?,
                band(1.0 - b, 0.5, 1.0 - a, 0.9)?,
            ])
        })()
    } else {
        None
    };
    Some(CellFeatures {
        descs,
        mean,
        spread,
        body,
        rim,
    })
}

/// Strips of the tile's frame per side of a cell (see [`frame_profile`]).
pub(crate) const FRAME_STRIPS: usize = 8;

/// The colours of thin strips parallel to each side of cell (row, col), from the lattice
/// line inwards (each 2.5 % of the pitch deep, over the side's middle half, to a fifth of the
/// cell in): top, bottom, left, right. Where a game draws its tiles with a border, a bevel
/// or a 3-D side, every tile shows the same profile here (symbols stay further in); a stone
/// or a crate drawn over the whole cell does not.
pub(crate) fn frame_profile(
    integral: &Integral,
    grid: &Grid,
    row: i32,
    col: i32,
) -> Option<[[f32; 3]; 4 * FRAME_STRIPS]> {
    let (x, y, w, h) = grid.cell_rect(row, col);
    let depth = 0.025;
    let n = FRAME_STRIPS + 1;
    let mut out = [[0f32; 3]; 4 * FRAME_STRIPS];
    for vertical in [false, true] {
        // Along the strips: the side's middle half; across them: the strips' edges from
        // both lines.
        let (a0, len_a, b0, len_b) = if vertical { (y, h, x, w) } else { (x, w, y, h) };
        let along = [a0 + 0.25 * len_a, a0 + 0.75 * len_a];
        let mut across = [0f32; 2 * (FRAME_STRIPS + 1)];
        for k in 0..n {
            across[k] = b0 + k as f32 * depth * len_b;
            across[n + k] = b0 + len_b - k as f32 * depth * len_b;
        }
        let table = if vertical {
            integral.corner_sums(&across, &along)?
        } else {
            integral.corner_sums(&along, &across)?
        };
        // The table at (along index i, across index j).
        let at = |i: usize, j: usize| {
            if vertical {
                table[i * across.len() + j]
            } else {
                table[j * 2 + i]
            }
        };
        let area = (0.5 * len_a * depth * len_b) as f64;
        for side in 0..2 {
            for k in 0..FRAME_STRIPS {
                let (j0, j1) = (side * n + k, side * n + k + 1);
                let (a, b, c, d) = (at(0, j0), at(1, j0), at(0, j1), at(1, j1));
                let slot = (vertical as usize * 2 + side) * FRAME_STRIPS + k;
                for ch in 0..3 {
                    // The bottom and right strips run from the far line inwards: their
                    // second edge comes first, so the sign is taken off.
                    out[slot][ch] = ((d[ch] - b[ch] - c[ch] + a[ch]) / area).abs() as f32;
                }
            }
        }
    }
    Some(out)
}

/// Mean absolute difference of two descriptors (0..255 per channel).
#[inline]
pub fn desc_dist(a: &Desc, b: &Desc) -> f32 {
    let mut s = 0f32;
    for (p, q) in a.iter().zip(b) {
        s += (p[0] - q[0]).abs() + (p[1] - q[1]).abs() + (p[2] - q[2]).abs();
    }
    s / (3 * B * B) as f32
}

/// Like [`desc_dist`] but gives up (returning something ≥ `limit`) once the partial sum
/// already exceeds it: most comparisons are between different types and stop early.
#[inline]
pub fn desc_dist_limit(a: &Desc, b: &Desc, limit: f32) -> f32 {
    let cap = limit * (3 * B * B) as f32;
    let mut s = 0f32;
    for (i, (p, q)) in a.iter().zip(b).enumerate() {
        s += (p[0] - q[0]).abs() + (p[1] - q[1]).abs() + (p[2] - q[2]).abs();
        if i % 6 == 5 && s > cap {
            return limit.max(s / (3 * B * B) as f32);
        }
    }
    s / (3 * B * B) as f32
}

/// [`desc_dist_limit`] between two cells' unshifted descriptors, answered from their mean
/// colours alone when those already differ by `limit`: the distance of the means is a lower
/// bound of the descriptor distance (a mean of differences is at least the difference of
/// the means), and most pairs compared are different pictures.
#[inline]
pub fn centre_dist_limit(a: &CellFeatures, b: &CellFeatures, limit: f32) -> f32 {
    let m = colour_dist(a.mean, b.mean);
    if m >= limit {
        return m;
    }
    desc_dist_limit(a.centre(), b.centre(), limit)
}

/// Distance between two cells allowing a small misalignment: `a` unshifted against every
/// shift of `b`.
pub fn cell_dist(a: &CellFeatures, b: &CellFeatures, limit: f32) -> f32 {
    let d0 = centre_dist_limit(a, b, limit * 2.5);
    if d0 >= limit * 2.5 {
        return d0;
    }
    let mut best = d0;
    for d in &b.descs {
        best = best.min(desc_dist_limit(a.centre(), d, best));
    }
    best
}

/// Distance after the best per-channel gain and offset (least squares) from `a` to `b`: a
/// tile under a translucent "selected" highlight is its type's picture times a gain plus a
/// tint, so it matches its type here though not under [`cell_dist`]. Returns (distance,
/// mean gain).
pub fn affine_dist(a: &Desc, b: &Desc) -> (f32, f32) {
    let n = (B * B) as f32;
    let mut resid = 0f32;
    let mut gains = 0f32;
    for ch in 0..3 {
        let (mut sx, mut sy, mut sxx, mut sxy) = (0f32, 0f32, 0f32, 0f32);
        for (p, q) in a.iter().zip(b) {
            sx += p[ch];
            sy += q[ch];
            sxx += p[ch] * p[ch];
            sxy += p[ch] * q[ch];
        }
        let var = sxx - sx * sx / n;
        let g = if var > 1e-3 {
            (sxy - sx * sy / n) / var
        } else {
            1.0
        };
        let o = (sy - g * sx) / n;
        gains += g / 3.0;
        for (p, q) in a.iter().zip(b) {
            resid += (g * p[ch] + o - q[ch]).abs();
        }
    }
    (resid / (3.0 * n), gains)
}
