//! Procedural tile art: one distinct picture per tile type.
//!
//! A type's picture combines a palette colour, a silhouette and a fill style, chosen so that
//! two types sharing a colour always differ in silhouette *and* (almost always) fill: vision
//! compares tiles by mean pixel difference, and JPEG blurs fine detail, so no two types may
//! differ only by a small mark. Some palette colours are paired to have equal greyscale
//! brightness (red/green, blue/purple, orange/cyan) because real games have such pairs and a
//! reader that works in greyscale must fail the tests.

use super::paint::{luma, mix, shade, Rgb};
use super::theme::{ObstacleLook, Style, Theme};
use crate::board::TYPE_ALPHABET;
use image::{Rgba, RgbaImage};
use std::sync::OnceLock;

/// Symbol colours. Entries (0, 1), (2, 3) and (4, 5) have equal Rec. 601 luma.
pub const PALETTE: [Rgb; 12] = [
    [214.0, 40.0, 40.0],   // red
    [34.0, 130.0, 54.0],   // green, luma of red
    [40.0, 90.0, 220.0],   // blue
    [138.0, 48.0, 196.0],  // purple, luma of blue
    [232.0, 124.0, 22.0],  // orange
    [30.0, 188.0, 214.0],  // cyan, luma of orange
    [238.0, 200.0, 24.0],  // yellow
    [226.0, 60.0, 170.0],  // magenta
    [128.0, 80.0, 36.0],   // brown
    [36.0, 40.0, 70.0],    // navy
    [136.0, 208.0, 40.0],  // lime
    [252.0, 150.0, 176.0], // pink
];

/// Silhouettes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Shape {
    /// A disc.
    Circle,
    /// A square.
    Square,
    /// A triangle pointing up.
    TriangleUp,
    /// A square on its corner.
    Diamond,
    /// A plus sign.
    Cross,
    /// A five-pointed star.
    Star,
    /// A triangle pointing down.
    TriangleDown,
    /// A crescent moon.
    Crescent,
}

const SHAPES: [Shape; 8] = [
    Shape::Circle,
    Shape::Square,
    Shape::TriangleUp,
    Shape::Diamond,
    Shape::Cross,
    Shape::Star,
    Shape::TriangleDown,
    Shape::Crescent,
];

/// How the silhouette is filled.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Fill {
    /// Solid with a contrasting centre dot.
    Dotted,
    /// Diagonal stripes of a contrasting colour.
    Striped,
    /// A thick outline with the face showing through, and a centre dot.
    Hollow,
    /// Split diagonally into the colour and a contrasting white or black.
    TwoTone,
}

const FILLS: [Fill; 4] = [Fill::Dotted, Fill::Striped, Fill::Hollow, Fill::TwoTone];

/// What a tile type looks like.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Design {
    /// Index into the palette.
    pub colour: usize,
    /// The silhouette.
    pub shape: Shape,
    /// How it is filled.
    pub fill: Fill,
}

/// Number of distinct designs: every printable ASCII char but `.` and `#` gets one.
pub const DESIGNS: usize = 96;

/// The design number of a tile char: its place in [`TYPE_ALPHABET`] (so the first types of
/// a board get the most different looks), then the other printable chars in ASCII order.
pub fn type_index(t: u8) -> usize {
    if let Some(i) = TYPE_ALPHABET.iter().position(|&c| c == t) {
        return i;
    }
    let others = (b'!'..=b'~').filter(|c| !TYPE_ALPHABET.contains(c) && *c != b'.' && *c != b'#');
    match others.enumerate().find(|&(_, c)| c == t) {
        Some((i, _)) => TYPE_ALPHABET.len() + i,
        None => t as usize % DESIGNS,
    }
}

/// The design for design number `i`.
///
/// Designs are picked once, greedily, from every (colour, shape, fill) combination: each
/// next design is the candidate whose *rendered* colour layout is farthest from all designs
/// picked so far, so the first types of a board (the most used) are the most different
/// and no two designs end up close. The first six are fixed on purpose: three pairs with
/// the same shape and fill in equal-luma colours, the trap a greyscale reader falls into.
pub fn design(i: usize) -> Design {
    designs()[i % DESIGNS]
}

fn designs() -> &'static [Design] {
    static DESIGNS_TABLE: OnceLock<Vec<Design>> = OnceLock::new();
    DESIGNS_TABLE.get_or_init(pick_designs)
}

/// Side in pixels of the face the layouts of candidate designs are compared on.
const SIG_PX: u32 = 32;
/// Blocks per side of a layout.
const SIG_BLOCKS: u32 = 4;

/// The colour layout of a design: mean colour of 4 × 4 blocks of its face on the classic
/// theme. JPEG and scaling barely move block means, so this is what readers can rely on.
fn signature(d: &Design) -> Vec<f32> {
    let style = Theme::Classic.style();
    let mut img = RgbaImage::from_pixel(SIG_PX, SIG_PX, super::paint::px(style.face));
    let face = (0.0, 0.0, SIG_PX as f32, SIG_PX as f32);
    paint_symbol(&mut img, &style, d, face);
    let b = SIG_PX / SIG_BLOCKS;
    let mut sig = Vec::with_capacity((SIG_BLOCKS * SIG_BLOCKS * 3) as usize);
    for by in 0..SIG_BLOCKS {
        for bx in 0..SIG_BLOCKS {
            let mut sum = [0.0f32; 3];
            for y in by * b..(by + 1) * b {
                for x in bx * b..(bx + 1) * b {
                    let p = img.get_pixel(x, y).0;
                    for i in 0..3 {
                        sum[i] += p[i] as f32;
                    }
                }
            }
            sig.extend(sum.iter().map(|v| v / (b * b) as f32));
        }
    }
    sig
}

fn sig_distance(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| (x - y).abs()).sum::<f32>() / a.len() as f32
}

fn pick_designs() -> Vec<Design> {
    let mut candidates = Vec::new();
    for (c, _) in PALETTE.iter().enumerate() {
        for &shape in &SHAPES {
            for &fill in &FILLS {
                candidates.push(Design {
                    colour: c,
                    shape,
                    fill,
                });
            }
        }
    }
    let fixed = [
        Design {
            colour: 0,
            shape: Shape::Circle,
            fill: Fill::Dotted,
        },
        Design {
            colour: 1,
            shape: Shape::Circle,
            fill: Fill::Dotted,
        },
        Design {
            colour: 2,
            shape: Shape::Square,
            fill: Fill::Dotted,
        },
        Design {
            colour: 3,
            shape: Shape::Square,
            fill: Fill::Dotted,
        },
        Design {
            colour: 4,
            shape: Shape::Diamond,
            fill: Fill::Dotted,
        },
        Design {
            colour: 5,
            shape: Shape::Diamond,
            fill: Fill::Dotted,
        },
    ];
    let sigs: Vec<Vec<f32>> = candidates.iter().map(signature).collect();
    let mut nearest = vec![f32::MAX; candidates.len()];
    let mut taken = vec![false; candidates.len()];
    let mut picked = Vec::with_capacity(DESIGNS);
    let take = |k: usize, nearest: &mut Vec<f32>, taken: &mut Vec<bool>| {
        taken[k] = true;
        for (j, s) in sigs.iter().enumerate() {
            nearest[j] = nearest[j].min(sig_distance(&sigs[k], s));
        }
        candidates[k]
    };
    for d in fixed {
        let k = candidates
            .iter()
            .position(|c| *c == d)
            .expect("fixed designs are candidates");
        picked.push(take(k, &mut nearest, &mut taken));
    }
    while picked.len() < DESIGNS {
        let k = (0..candidates.len())
            .filter(|&j| !taken[j])
            .fold(None::<usize>, |best, j| match best {
                Some(b) if nearest[b] >= nearest[j] => Some(b),
                _ => Some(j),
            })
            .expect("more candidates than designs");
        picked.push(take(k, &mut nearest, &mut taken));
    }
    picked
}

fn len(x: f32, y: f32) -> f32 {
    (x * x + y * y).sqrt()
}

fn sd_box(x: f32, y: f32, bx: f32, by: f32) -> f32 {
    let (qx, qy) = (x.abs() - bx, y.abs() - by);
    len(qx.max(0.0), qy.max(0.0)) + qx.max(qy).min(0.0)
}

/// Equilateral triangle with its apex up (y grows downward in images, so flip).
fn sd_triangle(x: f32, y: f32, r: f32) -> f32 {
    let k = 3f32.sqrt();
    let (mut px, mut py) = (x.abs() - r, -y + r / k);
    if px + k * py > 0.0 {
        let (nx, ny) = ((px - k * py) / 2.0, (-k * px - py) / 2.0);
        px = nx;
        py = ny;
    }
    px -= px.clamp(-2.0 * r, 0.0);
    -len(px, py) * py.signum()
}

/// Signed distance (in units of the symbol half-size) from (x, y) to a shape's edge.
pub fn shape_sdf(shape: Shape, x: f32, y: f32) -> f32 {
    match shape {
        Shape::Circle => len(x, y) - 0.66,
        Shape::Square => sd_box(x, y, 0.56, 0.56),
        Shape::TriangleUp => sd_triangle(x, y - 0.12, 0.82),
        Shape::TriangleDown => sd_triangle(x, -y - 0.12, 0.82),
        Shape::Diamond => (x.abs() + y.abs() - 0.8) * std::f32::consts::FRAC_1_SQRT_2,
        Shape::Cross => sd_box(x, y, 0.7, 0.22).min(sd_box(x, y, 0.22, 0.7)),
        Shape::Star => {
            let a = y.atan2(x) + std::f32::consts::FRAC_PI_2;
            let seg = std::f32::consts::TAU / 5.0;
            // u = 1 on a point's axis, 0 halfway between two points.
            let u = ((a.rem_euclid(seg)) / seg - 0.5).abs() * 2.0;
            (len(x, y) - (0.36 + 0.46 * u)) * 0.75
        }
        Shape::Crescent => (len(x, y) - 0.68).max(-(len(x - 0.34, y + 0.18) - 0.5)),
    }
}

/// Fill colour of a design at symbol coordinates (x, y) that lie inside the shape, or `None`
/// where the face shows through (hollow fills).
fn fill_colour(d: &Design, base: Rgb, accent: Rgb, x: f32, y: f32, sd: f32) -> Option<Rgb> {
    let gloss = shade(base, (-y * 0.16).clamp(-0.16, 0.16));
    let dot = len(x, y) < 0.2;
    match d.fill {
        Fill::Dotted => Some(if dot { accent } else { gloss }),
        Fill::Striped => {
            let band = ((x + y) * 2.2).floor() as i32;
            Some(if band.rem_euclid(2) == 0 {
                accent
            } else {
                gloss
            })
        }
        Fill::Hollow => {
            if sd > -0.24 || dot {
                Some(base)
            } else {
                None
            }
        }
        Fill::TwoTone => Some(if x > y { accent } else { gloss }),
    }
}

/// A symbol's colour. Themes keep the palette's full saturation: washing colours out made
/// some designs too close to tell apart after JPEG.
pub fn symbol_colour(_style: &Style, colour: usize) -> Rgb {
    PALETTE[colour % PALETTE.len()]
}

/// Signed distance in pixels to a rounded rectangle [x0, x1) × [y0, y1) of corner radius r.
fn sd_round_rect(x: f32, y: f32, rect: (f32, f32, f32, f32), r: f32) -> f32 {
    let (cx, cy) = ((rect.0 + rect.2) / 2.0, (rect.1 + rect.3) / 2.0);
    let (hx, hy) = ((rect.2 - rect.0) / 2.0, (rect.3 - rect.1) / 2.0);
    sd_box(x - cx, y - cy, hx - r, hy - r) - r
}

fn put(img: &mut RgbaImage, x: u32, y: u32, c: Rgb, cov: f32) {
    if cov <= 0.0 {
        return;
    }
    let p = img.get_pixel_mut(x, y);
    let a0 = p.0[3] as f32 / 255.0;
    let a = cov.min(1.0);
    let out_a = a + a0 * (1.0 - a);
    for (ch, &v) in p.0.iter_mut().zip(&c) {
        let mixed = (v * a + *ch as f32 * a0 * (1.0 - a)) / out_a.max(1e-6);
        *ch = mixed.round().clamp(0.0, 255.0) as u8;
    }
    p.0[3] = (out_a * 255.0).round() as u8;
}

/// Geometry of a tile of `w × h` pixels: the face rectangle and its corner radius. The 3-D
/// edge fills the rest toward the bottom-right.
fn tile_geometry(style: &Style, w: u32, h: u32) -> ((f32, f32, f32, f32), f32, f32) {
    let m = w.min(h) as f32;
    let depth = (style.depth * m).round().max(1.0).min(m / 4.0);
    let face = (0.0, 0.0, w as f32 - depth, h as f32 - depth);
    (face, (style.corner * m).max(1.0), depth)
}

/// Paints a blank tile (edge, face, border) and returns the face rectangle.
fn blank_tile(
    style: &Style,
    w: u32,
    h: u32,
    face_colour: Rgb,
) -> (RgbaImage, (f32, f32, f32, f32)) {
    let mut img = RgbaImage::from_pixel(w, h, Rgba([0, 0, 0, 0]));
    let (face, r, depth) = tile_geometry(style, w, h);
    let side = (
        face.0 + depth,
        face.1 + depth,
        face.2 + depth,
        face.3 + depth,
    );
    for y in 0..h {
        for x in 0..w {
            let (fx, fy) = (x as f32 + 0.5, y as f32 + 0.5);
            let ds = sd_round_rect(fx, fy, side, r);
            put(&mut img, x, y, shade(style.side, -0.25), 0.5 - ds);
            put(&mut img, x, y, style.side, 0.5 - (ds + 1.0));
            let df = sd_round_rect(fx, fy, face, r);
            put(&mut img, x, y, style.border, 0.5 - df);
            let t = (fy - face.1) / (face.3 - face.1).max(1.0);
            let body = shade(face_colour, 0.08 - 0.16 * t);
            put(&mut img, x, y, body, 0.5 - (df + 1.0));
            // A thin highlight along the top-left inside edge reads as a bevel.
            let hl = (fx - face.0 - 1.5).min(fy - face.1 - 1.5);
            if df < -1.0 && (0.0..1.2).contains(&hl) {
                put(&mut img, x, y, [255.0; 3], 0.45);
            }
        }
    }
    (img, face)
}

/// Draws the tile of type `t` at `w × h` pixels (3-D edge included) with transparent
/// rounded corners, so the background shows around it as in a game.
pub fn draw_tile(style: &Style, t: u8, w: u32, h: u32) -> RgbaImage {
    let (mut img, face) = blank_tile(style, w, h, style.face);
    paint_symbol(&mut img, style, &design(type_index(t)), face);
    img
}

/// Paints a design's symbol centred on the `face` rectangle (x0, y0, x1, y1).
fn paint_symbol(img: &mut RgbaImage, style: &Style, d: &Design, face: (f32, f32, f32, f32)) {
    let base = symbol_colour(style, d.colour);
    let accent = if luma(base) > 150.0 {
        [40.0, 36.0, 44.0]
    } else {
        [250.0, 250.0, 250.0]
    };
    let (cx, cy) = ((face.0 + face.2) / 2.0, (face.1 + face.3) / 2.0);
    let s = ((face.2 - face.0).min(face.3 - face.1) / 2.0 * 1.0).max(1.0);
    let outline_px = (s / 14.0).clamp(0.8, 2.0);
    for y in 0..img.height() {
        for x in 0..img.width() {
            let (nx, ny) = ((x as f32 + 0.5 - cx) / s, (y as f32 + 0.5 - cy) / s);
            if nx.abs() > 1.3 || ny.abs() > 1.3 {
                continue;
            }
            let sd = shape_sdf(d.shape, nx, ny);
            let dpx = sd * s;
            put(img, x, y, style.outline, 0.5 - dpx);
            if let Some(c) = fill_colour(d, base, accent, nx, ny, sd) {
                put(img, x, y, c, 0.5 - (dpx + outline_px));
            }
        }
    }
}

/// A cheap deterministic hash noise in 0..1, so textures need no random generator state.
pub fn hash01(x: i64, y: i64, seed: u64) -> f32 {
    let mut h = seed
        ^ (x as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (y as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    h ^= h >> 33;
    h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    h ^= h >> 33;
    h = h.wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    h ^= h >> 33;
    (h >> 40) as f32 / (1u64 << 24) as f32
}

/// Draws an obstacle: a wooden crate or a stone block, filling the whole cell so it never
/// looks like a tile with a symbol.
pub fn draw_obstacle(style: &Style, w: u32, h: u32) -> RgbaImage {
    match style.obstacle {
        ObstacleLook::Crate => draw_crate(w, h),
        ObstacleLook::Stone => draw_stone(style, w, h),
    }
}

fn draw_crate(w: u32, h: u32) -> RgbaImage {
    let wood: Rgb = [176.0, 118.0, 58.0];
    let dark: Rgb = [104.0, 64.0, 28.0];
    let mut img = RgbaImage::new(w, h);
    let (fw, fh) = (w as f32, h as f32);
    let frame = (fw.min(fh) * 0.16).max(2.0);
    for y in 0..h {
        for x in 0..w {
            let (px_, py_) = (x as f32 + 0.5, y as f32 + 0.5);
            let grain = (hash01(x as i64 / 3, y as i64, 7) - 0.5) * 18.0;
            let mut c = shade(wood, grain / 255.0);
            let edge = px_.min(py_).min(fw - px_).min(fh - py_);
            if edge < frame {
                c = shade(wood, 0.1);
            }
            if edge < 1.0 {
                c = dark;
            }
            // The diagonal brace from bottom-left to top-right.
            let inside = edge >= frame;
            let dist = ((fh - py_) * fw - px_ * fh).abs() / (fw * fw + fh * fh).sqrt();
            if inside && dist < frame * 0.55 {
                c = shade(wood, 0.06);
            }
            if inside && (dist - frame * 0.55).abs() < 0.7 {
                c = dark;
            }
            if (edge - frame).abs() < 0.7 {
                c = dark;
            }
            img.put_pixel(x, y, super::paint::px(c));
        }
    }
    img
}

fn draw_stone(style: &Style, w: u32, h: u32) -> RgbaImage {
    let base = mix([128.0, 128.0, 134.0], style.background, 0.15);
    let mut img = RgbaImage::from_pixel(w, h, Rgba([0, 0, 0, 0]));
    let rect = (0.5, 0.5, w as f32 - 0.5, h as f32 - 0.5);
    let r = w.min(h) as f32 * 0.18;
    for y in 0..h {
        for x in 0..w {
            let (fx, fy) = (x as f32 + 0.5, y as f32 + 0.5);
            let d = sd_round_rect(fx, fy, rect, r);
            let n = hash01(x as i64 / 2, y as i64 / 2, 11) - 0.5;
            let light = 0.18 * (1.0 - (fx / w as f32 + fy / h as f32));
            let mut c = shade(base, (n * 0.25 + light).clamp(-0.9, 0.9));
            // Two cracks.
            let crack1 = (fy - h as f32 * 0.3 - (fx * 0.7).sin() * 2.0).abs() < 0.6
                && fx > w as f32 * 0.2
                && fx < w as f32 * 0.65;
            let crack2 = (fx - w as f32 * 0.62 - (fy * 0.5).sin() * 2.0).abs() < 0.6
                && fy > h as f32 * 0.3
                && fy < h as f32 * 0.8;
            if crack1 || crack2 {
                c = shade(base, -0.55);
            }
            put(&mut img, x, y, [60.0, 60.0, 66.0], 0.5 - d);
            put(&mut img, x, y, c, 0.5 - (d + 1.5));
        }
    }
    img
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn designs_are_unique() {
        for i in 0..DESIGNS {
            for j in 0..i {
                let (a, b) = (design(i), design(j));
                assert!(a != b, "designs {i} and {j} are the same");
            }
        }
    }

    #[test]
    fn every_printable_char_has_its_own_design() {
        let chars: Vec<u8> = (b'!'..=b'~').filter(|&c| c != b'.' && c != b'#').collect();
        let mut seen = std::collections::HashSet::new();
        for c in chars {
            assert!(seen.insert(type_index(c)), "{} shares a design", c as char);
        }
        assert!(seen.iter().all(|&i| i < DESIGNS));
    }

    #[test]
    fn luma_pairs_match() {
        for (a, b) in [(0, 1), (2, 3), (4, 5)] {
            let (la, lb) = (luma(PALETTE[a]), luma(PALETTE[b]));
            assert!((la - lb).abs() < 3.0, "{a}/{b}: {la} vs {lb}");
        }
    }
}
