//! The face a tile set prints its pictures on, pixel by pixel.
//!
//! Every tile of a game is one blank face with a symbol drawn on it, so the commonest
//! colour inside the tiles is the face's, and each tile shows it between the strokes of
//! its symbol, however far the symbol reaches (to the tile's edges, into its corners).
//! Stones and crates are drawn without that face. Measured per pixel rather than per
//! block: a block across a stroke's edge shows neither colour, and on a dark theme a
//! stone's block means come near a grey-blue face where its pixels do not.

use image::RgbaImage;

/// Pixels a side of this many or more are sampled every other row and column: the face's
/// share stays within 0.01 and the cost falls fourfold.
const DENSE_BELOW: f32 = 24.0;

/// The pixels of the part of `rect` (x, y, w, h) inside `inset` (a share of each side)
/// that lie within the frame, sampled every `step` pixels.
fn inner_pixels(
    frame: &RgbaImage,
    (x, y, w, h): (f32, f32, f32, f32),
    inset: f32,
) -> impl Iterator<Item = [u8; 3]> + '_ {
    let (fw, fh) = (frame.width() as f32, frame.height() as f32);
    let x0 = (x + w * inset).max(0.0);
    let y0 = (y + h * inset).max(0.0);
    let x1 = (x + w * (1.0 - inset)).min(fw);
    let y1 = (y + h * (1.0 - inset)).min(fh);
    let step = if w.min(h) >= DENSE_BELOW { 2 } else { 1 };
    let (x0, y0) = (x0.ceil() as u32, y0.ceil() as u32);
    let (x1, y1) = (x1.max(0.0) as u32, y1.max(0.0) as u32);
    (y0..y1.max(y0)).step_by(step).flat_map(move |py| {
        (x0..x1.max(x0)).step_by(step).map(move |px| {
            let p = frame.get_pixel(px, py).0;
            [p[0], p[1], p[2]]
        })
    })
}

/// The face colour of the tiles in `rects`: the mean of the pixels in the commonest
/// 16-level colour bin over their inner parts (`inset` of each side left out). `None`
/// when no pixel of them lies in the frame.
pub(crate) fn face_colour(
    frame: &RgbaImage,
    rects: &[(f32, f32, f32, f32)],
    inset: f32,
) -> Option<[f32; 3]> {
    let bin =
        |p: [u8; 3]| (p[0] as usize >> 4) << 8 | (p[1] as usize >> 4) << 4 | p[2] as usize >> 4;
    let mut counts = vec![(0u32, [0u64; 3]); 4096];
    for &r in rects {
        for p in inner_pixels(frame, r, inset) {
            let e = &mut counts[bin(p)];
            e.0 += 1;
            for (sum, v) in e.1.iter_mut().zip(p) {
                *sum += v as u64;
            }
        }
    }
    let (n, sum) = counts.into_iter().max_by_key(|e| e.0)?;
    (n > 0).then(|| sum.map(|s| s as f32 / n as f32))
}

/// The share of the inner part of `rect` whose pixels lie within `tol` of `face` in every
/// channel; `None` when none of it lies in the frame.
pub(crate) fn face_share(
    frame: &RgbaImage,
    rect: (f32, f32, f32, f32),
    inset: f32,
    face: [f32; 3],
    tol: f32,
) -> Option<f32> {
    let (mut near, mut all) = (0usize, 0usize);
    for p in inner_pixels(frame, rect, inset) {
        all += 1;
        if (0..3).all(|ch| (p[ch] as f32 - face[ch]).abs() <= tol) {
            near += 1;
        }
    }
    (all > 0).then(|| near as f32 / all as f32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    /// A 40x40 tile at (x, y): a face of `face` with a `stroke` square covering the
    /// middle `cover` share of each side.
    fn paint(img: &mut RgbaImage, (x, y): (u32, u32), face: [u8; 3], stroke: [u8; 3], cover: f32) {
        let lo = (20.0 - 20.0 * cover) as u32;
        let hi = (20.0 + 20.0 * cover) as u32;
        for dy in 0..40 {
            for dx in 0..40 {
                let c = if (lo..hi).contains(&dx) && (lo..hi).contains(&dy) {
                    stroke
                } else {
                    face
                };
                img.put_pixel(x + dx, y + dy, Rgba([c[0], c[1], c[2], 255]));
            }
        }
    }

    #[test]
    fn the_face_is_the_commonest_colour_and_a_stone_shows_none_of_it() {
        let mut img = RgbaImage::from_pixel(200, 40, Rgba([30, 60, 90, 255]));
        let ivory = [240, 235, 220];
        paint(&mut img, (0, 0), ivory, [200, 20, 20], 0.4);
        paint(&mut img, (40, 0), ivory, [20, 120, 20], 0.5);
        // A symbol that reaches every edge of its face still leaves some of it showing.
        paint(&mut img, (80, 0), ivory, [20, 20, 160], 0.7);
        paint(&mut img, (120, 0), [120, 120, 120], [90, 90, 90], 0.6);
        let rect = |i: u32| (i as f32 * 40.0, 0.0, 40.0, 40.0);
        let face = face_colour(&img, &[rect(0), rect(1), rect(2)], 0.1).unwrap();
        for ch in 0..3 {
            assert!((face[ch] - ivory[ch] as f32).abs() < 1.0, "{face:?}");
        }
        let share = |i| face_share(&img, rect(i), 0.1, face, 24.0).unwrap();
        assert!(
            share(0) > 0.5 && share(1) > 0.5,
            "{} {}",
            share(0),
            share(1)
        );
        assert!(share(2) > 0.1, "{}", share(2));
        assert_eq!(share(3), 0.0);
        // The ground beside the tiles shows none of the face either.
        assert_eq!(share(4), 0.0);
    }

    #[test]
    fn cells_off_the_frame_have_no_share() {
        let img = RgbaImage::from_pixel(50, 50, Rgba([200, 200, 200, 255]));
        assert_eq!(
            face_share(&img, (60.0, 0.0, 40.0, 40.0), 0.1, [0.0; 3], 24.0),
            None
        );
        assert_eq!(face_colour(&img, &[(60.0, 0.0, 40.0, 40.0)], 0.1), None);
        // Half on the frame: the part inside counts.
        let s = face_share(&img, (30.0, 0.0, 40.0, 40.0), 0.1, [200.0; 3], 24.0).unwrap();
        assert_eq!(s, 1.0);
    }
}
