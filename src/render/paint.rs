//! Small anti-aliased drawing primitives shared by the renderer and the annotator.
//!
//! Shapes here have fractional edges, widths and centres (a 1.25× window puts a cell edge
//! at x = 48.75) and blend by the share of each pixel they cover, rounding every channel.
//! `imageproc::drawing` takes whole-pixel coordinates (its circles and polygons, and its
//! anti-aliased lines, which are one pixel wide) and `image`'s alpha blending truncates
//! where this rounds, so it draws other pictures; it is used where it draws the same ones:
//! a whole-pixel opaque rectangle ([`fill_rect`]). The rest are "distance → coverage" loops
//! over a bounding box. The rendered fixtures the vision tests read are drawn with these,
//! so a primitive that draws other pixels changes what those tests measure.

use image::{Rgba, RgbaImage};
use imageproc::drawing::draw_filled_rect_mut;
use imageproc::rect::Rect;

/// An RGB colour in 0..=255 floats, so shading and blending need no clamping until the end.
pub type Rgb = [f32; 3];

/// Packs an [`Rgb`] into an opaque pixel.
pub fn px(c: Rgb) -> Rgba<u8> {
    Rgba([q(c[0]), q(c[1]), q(c[2]), 255])
}

/// Rounds and clamps one channel.
pub fn q(v: f32) -> u8 {
    v.round().clamp(0.0, 255.0) as u8
}

/// `c` moved toward white (`t > 0`) or black (`t < 0`) by `|t|` (0..1).
pub fn shade(c: Rgb, t: f32) -> Rgb {
    if t >= 0.0 {
        [
            c[0] + (255.0 - c[0]) * t,
            c[1] + (255.0 - c[1]) * t,
            c[2] + (255.0 - c[2]) * t,
        ]
    } else {
        [c[0] * (1.0 + t), c[1] * (1.0 + t), c[2] * (1.0 + t)]
    }
}

/// Linear mix of two colours, `t` = weight of `b`.
pub fn mix(a: Rgb, b: Rgb, t: f32) -> Rgb {
    [
        a[0] + (b[0] - a[0]) * t,
        a[1] + (b[1] - a[1]) * t,
        a[2] + (b[2] - a[2]) * t,
    ]
}

/// Rec. 601 luma, the brightness a greyscale reader sees.
pub fn luma(c: Rgb) -> f32 {
    0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]
}

/// Blends `c` over the pixel at (x, y) with opacity `a` (0..1); off-image pixels are ignored
/// so callers can draw shapes that hang over the border (ring cells, small frames).
#[inline]
pub fn blend(img: &mut RgbaImage, x: i32, y: i32, c: Rgb, a: f32) {
    if a <= 0.0 || x < 0 || y < 0 || x as u32 >= img.width() || y as u32 >= img.height() {
        return;
    }
    let p = img.get_pixel_mut(x as u32, y as u32);
    let a = a.min(1.0);
    for (ch, &v) in p.0.iter_mut().zip(&c) {
        *ch = q(*ch as f32 * (1.0 - a) + v * a);
    }
    let alpha = p.0[3] as f32 / 255.0;
    p.0[3] = q((alpha + a * (1.0 - alpha)) * 255.0);
}

/// Fills the rectangle [x0, x1) × [y0, y1) (fractional edges get partial coverage).
pub fn fill_rect(img: &mut RgbaImage, x0: f32, y0: f32, x1: f32, y1: f32, c: Rgb, a: f32) {
    let whole = |v: f32| v.fract() == 0.0 && v.abs() < 1e6;
    if a >= 1.0 && x1 > x0 && y1 > y0 && [x0, y0, x1, y1].into_iter().all(whole) {
        // Every pixel covered whole and opaque: the colour itself, as imageproc draws it.
        let rect = Rect::at(x0 as i32, y0 as i32).of_size((x1 - x0) as u32, (y1 - y0) as u32);
        draw_filled_rect_mut(img, rect, px(c));
        return;
    }
    // Fractional edges or translucency: each pixel blended by the share it is covered.
    let (w, h) = (img.width() as i32, img.height() as i32);
    let xs = (x0.floor() as i32).max(0);
    let xe = (x1.ceil() as i32).min(w);
    let ys = (y0.floor() as i32).max(0);
    let ye = (y1.ceil() as i32).min(h);
    for y in ys..ye {
        let cy = ((y as f32 + 1.0).min(y1) - (y as f32).max(y0)).clamp(0.0, 1.0);
        for x in xs..xe {
            let cx = ((x as f32 + 1.0).min(x1) - (x as f32).max(x0)).clamp(0.0, 1.0);
            blend(img, x, y, c, a * cx * cy);
        }
    }
}

/// Outlines a rectangle with a band of width `t` just inside its edges.
pub fn stroke_rect(img: &mut RgbaImage, x0: f32, y0: f32, x1: f32, y1: f32, t: f32, c: Rgb) {
    fill_rect(img, x0, y0, x1, y0 + t, c, 1.0);
    fill_rect(img, x0, y1 - t, x1, y1, c, 1.0);
    fill_rect(img, x0, y0 + t, x0 + t, y1 - t, c, 1.0);
    fill_rect(img, x1 - t, y0 + t, x1, y1 - t, c, 1.0);
}

/// Draws a segment of width `w` with round caps, anti-aliased. Pixel (x, y) covers
/// [x, x+1) × [y, y+1), so its centre is at (x + 0.5, y + 0.5).
///
/// Hand-written: imageproc's anti-aliased line is one pixel wide between whole-pixel ends,
/// and a link line needs a width, round caps and fractional ends (cell centres).
pub fn segment(img: &mut RgbaImage, a: (f32, f32), b: (f32, f32), w: f32, c: Rgb, alpha: f32) {
    let r = w / 2.0;
    let (iw, ih) = (img.width() as i32, img.height() as i32);
    let xs = ((a.0.min(b.0) - r - 1.0).floor() as i32).max(0);
    let xe = ((a.0.max(b.0) + r + 1.0).ceil() as i32).min(iw);
    let ys = ((a.1.min(b.1) - r - 1.0).floor() as i32).max(0);
    let ye = ((a.1.max(b.1) + r + 1.0).ceil() as i32).min(ih);
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    for y in ys..ye {
        for x in xs..xe {
            let (px_, py_) = (x as f32 + 0.5, y as f32 + 0.5);
            let t = if len2 > 0.0 {
                (((px_ - a.0) * dx + (py_ - a.1) * dy) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            let (ex, ey) = (px_ - (a.0 + t * dx), py_ - (a.1 + t * dy));
            let d = (ex * ex + ey * ey).sqrt();
            let cov = (r + 0.5 - d).clamp(0.0, 1.0);
            if cov > 0.0 {
                blend(img, x, y, c, cov * alpha);
            }
        }
    }
}

/// A filled anti-aliased disc. imageproc's filled circle has a whole-pixel centre and
/// radius and no anti-aliasing; a link's corner sits at a fractional cell centre.
pub fn disc(img: &mut RgbaImage, centre: (f32, f32), r: f32, c: Rgb, alpha: f32) {
    segment(img, centre, centre, 2.0 * r, c, alpha);
}

/// A dashed rectangle outline: the annotator's "not sure" mark, which must stand out from
/// the solid grid lines around it.
pub fn dashed_rect(img: &mut RgbaImage, r: (f32, f32, f32, f32), w: f32, dash: f32, c: Rgb) {
    let (x0, y0, x1, y1) = (r.0, r.1, r.0 + r.2, r.1 + r.3);
    let sides = [
        ((x0, y0), (x1, y0)),
        ((x1, y0), (x1, y1)),
        ((x1, y1), (x0, y1)),
        ((x0, y1), (x0, y0)),
    ];
    for (a, b) in sides {
        let len = ((b.0 - a.0).powi(2) + (b.1 - a.1).powi(2)).sqrt();
        let n = (len / dash).ceil().max(1.0) as usize;
        for i in (0..n).step_by(2) {
            let t0 = i as f32 / n as f32;
            let t1 = ((i + 1) as f32 / n as f32).min(1.0);
            let p0 = (a.0 + (b.0 - a.0) * t0, a.1 + (b.1 - a.1) * t0);
            let p1 = (a.0 + (b.0 - a.0) * t1, a.1 + (b.1 - a.1) * t1);
            segment(img, p0, p1, w, c, 1.0);
        }
    }
}

/// Alpha-composites `src` onto `dst` with its top-left at (x, y); only the overlap is drawn.
///
/// Hand-written: `image::imageops::overlay` does the same compositing but truncates each
/// blended channel (this rounds) and recomputes the alpha, so a tile's anti-aliased corners
/// come out up to one level darker. Drawn with it, the rendered fixtures 0..400 read worse
/// (`vision::read`, the default reader: 198 and 197 of 200 exactly with the grid found,
/// against 199 and 198) and the stage reader's confident misreadings of 0..200 change.
pub fn blit(dst: &mut RgbaImage, src: &RgbaImage, x: i32, y: i32) {
    let (dw, dh) = (dst.width() as i32, dst.height() as i32);
    for sy in 0..src.height() as i32 {
        let ty = y + sy;
        if ty < 0 || ty >= dh {
            continue;
        }
        for sx in 0..src.width() as i32 {
            let tx = x + sx;
            if tx < 0 || tx >= dw {
                continue;
            }
            let s = src.get_pixel(sx as u32, sy as u32).0;
            match s[3] {
                0 => {}
                255 => dst.put_pixel(tx as u32, ty as u32, Rgba(s)),
                a => blend(
                    dst,
                    tx,
                    ty,
                    [s[0] as f32, s[1] as f32, s[2] as f32],
                    a as f32 / 255.0,
                ),
            }
        }
    }
}
