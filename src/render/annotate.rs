//! Drawing what the bot believes over a frame, for a person to check at a glance.
//!
//! When the bot misclicks, the question is always "what did it see?": this draws the grid,
//! every tile's type as a coloured letter badge, empty and obstacle cells, the cells it was
//! not sure about and the links it plans, numbered in the order it will play them. Small
//! frames are enlarged first so the labels stay readable; the ring around the board is
//! made visible because links may run through it.

use super::font;
use super::paint::{blend, dashed_rect, disc, fill_rect, luma, segment, stroke_rect, Rgb};
use super::tiles::type_index;
use crate::board::{Board, Cell, Link, Pos};
use crate::geometry::Grid;
use image::{imageops, Rgba, RgbaImage};

/// What to draw: the grid and board the bot read, the cells it doubts and the links to
/// show (`numbered` adds the play order 1..N at both ends of each link).
#[derive(Clone, Debug)]
pub struct Annotation {
    /// Where the cells are, frame pixels.
    pub grid: Grid,
    /// The board read.
    pub board: Board,
    /// Cells the reader doubts (marked).
    pub unsure: Vec<Pos>,
    /// Links drawn over the board.
    pub links: Vec<Link>,
    /// Whether each link's ends get its play order.
    pub numbered: bool,
}

/// Labels need about this many pixels per cell to be legible.
const MIN_PITCH: f32 = 40.0;
/// The output never grows past this many pixels a side, whatever the input grid says.
const MAX_SIDE: f32 = 4096.0;

/// A distinct, saturated colour per tile type (golden-ratio hue steps), so equal types are
/// spotted by colour before the letter is read.
pub fn type_colour(t: u8) -> Rgb {
    let h = (type_index(t) as f32 * 0.618_034).fract() * 6.0;
    let (s, v) = (0.8, 0.95);
    let c = v * s;
    let x = c * (1.0 - ((h % 2.0) - 1.0).abs());
    let (r, g, b) = match h as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = v - c;
    [(r + m) * 255.0, (g + m) * 255.0, (b + m) * 255.0]
}

/// Colours cycled through for links, bright on any background once outlined in black.
const LINK_COLOURS: [Rgb; 6] = [
    [255.0, 40.0, 40.0],
    [40.0, 220.0, 255.0],
    [255.0, 220.0, 0.0],
    [60.0, 230.0, 60.0],
    [255.0, 80.0, 220.0],
    [255.0, 150.0, 30.0],
];

const BLACK: Rgb = [0.0, 0.0, 0.0];
const WHITE: Rgb = [255.0, 255.0, 255.0];
const UNSURE: Rgb = [255.0, 30.0, 30.0];

/// Text colour readable on `bg`.
fn ink_on(bg: Rgb) -> Rgb {
    if luma(bg) > 140.0 {
        BLACK
    } else {
        WHITE
    }
}

/// Returns `frame` enlarged (when cells are small) and padded (when the board's outer ring
/// is off the frame), with the annotation drawn over it.
pub fn annotate(frame: &RgbaImage, ann: &Annotation) -> RgbaImage {
    let g = ann.grid;
    let pitch_ok =
        g.pitch.0.is_finite() && g.pitch.1.is_finite() && g.pitch.0 > 0.0 && g.pitch.1 > 0.0;
    // Enlarge by an integer factor (nearest neighbour keeps the pixels honest) until a cell
    // is big enough for a label, within the size limit.
    let min_pitch = if pitch_ok {
        g.pitch.0.min(g.pitch.1)
    } else {
        MIN_PITCH
    };
    let longest = frame.width().max(frame.height()).max(1) as f32;
    let mut k = (MIN_PITCH / min_pitch).ceil().clamp(1.0, 8.0);
    while k > 1.0 && longest * k > MAX_SIDE {
        k -= 1.0;
    }
    let ku = k as u32;
    let big = if ku > 1 {
        imageops::resize(
            frame,
            frame.width() * ku,
            frame.height() * ku,
            imageops::FilterType::Nearest,
        )
    } else {
        frame.clone()
    };
    let mut grid = Grid {
        origin: (g.origin.0 * k, g.origin.1 * k),
        pitch: (g.pitch.0 * k, g.pitch.1 * k),
        rows: g.rows,
        cols: g.cols,
    };
    if !pitch_ok || !g.origin.0.is_finite() || !g.origin.1.is_finite() {
        return big;
    }
    // Pad so the ring (one cell around the board) is on the canvas, within limits.
    let (bx, by, bw, bh) = grid.bounds();
    let limit = 2.0 * grid.pitch.0.max(grid.pitch.1) + 4.0;
    let pad_l = (grid.pitch.0 - bx + 2.0).clamp(0.0, limit).ceil();
    let pad_t = (grid.pitch.1 - by + 2.0).clamp(0.0, limit).ceil();
    let pad_r = (bx + bw + grid.pitch.0 + 2.0 - big.width() as f32)
        .clamp(0.0, limit)
        .ceil();
    let pad_b = (by + bh + grid.pitch.1 + 2.0 - big.height() as f32)
        .clamp(0.0, limit)
        .ceil();
    let (w, h) = (
        (big.width() as f32 + pad_l + pad_r).min(MAX_SIDE + 2.0 * limit) as u32,
        (big.height() as f32 + pad_t + pad_b).min(MAX_SIDE + 2.0 * limit) as u32,
    );
    let mut img = RgbaImage::from_pixel(w.max(1), h.max(1), Rgba([40, 40, 40, 255]));
    imageops::overlay(&mut img, &big, pad_l as i64, pad_t as i64);
    grid.origin.0 += pad_l;
    grid.origin.1 += pad_t;
    if (grid.cols as f32 * grid.pitch.0).max(grid.rows as f32 * grid.pitch.1) > 4.0 * MAX_SIDE {
        // A grid far larger than any screen is a misreading; drawing it would take forever.
        return img;
    }

    draw_grid_lines(&mut img, &grid);
    let board = &ann.board;
    let rows = board.rows().min(grid.rows);
    let cols = board.cols().min(grid.cols);
    let (pw, ph) = grid.pitch;
    let m = pw.min(ph);
    for r in 0..rows {
        for c in 0..cols {
            let p = Pos::new(r, c);
            let (x, y, _, _) = grid.cell_rect(r as i32, c as i32);
            let (cx, cy) = grid.center(p);
            match board.get(p) {
                Cell::Empty => {
                    disc(&mut img, (cx, cy), (m * 0.07).max(1.5), BLACK, 0.6);
                    disc(&mut img, (cx, cy), (m * 0.05).max(1.0), WHITE, 0.8);
                }
                Cell::Obstacle => {
                    let i = m * 0.22;
                    let w = (m / 14.0).max(2.0);
                    segment(
                        &mut img,
                        (x + i, y + i),
                        (x + pw - i, y + ph - i),
                        w + 2.0,
                        BLACK,
                        0.8,
                    );
                    segment(
                        &mut img,
                        (x + pw - i, y + i),
                        (x + i, y + ph - i),
                        w + 2.0,
                        BLACK,
                        0.8,
                    );
                    segment(
                        &mut img,
                        (x + i, y + i),
                        (x + pw - i, y + ph - i),
                        w,
                        WHITE,
                        1.0,
                    );
                    segment(
                        &mut img,
                        (x + pw - i, y + i),
                        (x + i, y + ph - i),
                        w,
                        WHITE,
                        1.0,
                    );
                }
                Cell::Tile(t) => {
                    let col = type_colour(t);
                    let t2 = (m / 20.0).max(1.5);
                    stroke_rect(
                        &mut img,
                        x + 2.0,
                        y + 2.0,
                        x + pw - 2.0,
                        y + ph - 2.0,
                        t2,
                        col,
                    );
                    badge(
                        &mut img,
                        &(t as char).to_string(),
                        (x + 3.0, y + 3.0),
                        m * 0.36,
                        col,
                    );
                }
            }
        }
    }
    for &p in ann.unsure.iter().filter(|p| p.row < rows && p.col < cols) {
        let (x, y, _, _) = grid.cell_rect(p.row as i32, p.col as i32);
        let w = (m / 12.0).max(2.0);
        dashed_rect(
            &mut img,
            (x + 1.0, y + 1.0, pw - 2.0, ph - 2.0),
            w,
            (m / 6.0).max(4.0),
            UNSURE,
        );
        let s = m * 0.34;
        let (qx, qy) = (x + pw - s - 3.0, y + 3.0);
        badge(&mut img, "?", (qx, qy), s, UNSURE);
    }
    draw_links(&mut img, &grid, &ann.links, ann.numbered);
    img
}

/// Thin lines on every cell edge, drawn twice (dark then light) so they show on any frame.
fn draw_grid_lines(img: &mut RgbaImage, g: &Grid) {
    let (bx, by, bw, bh) = g.bounds();
    for c in 0..=g.cols {
        let x = bx + c as f32 * g.pitch.0;
        fill_rect(img, x - 1.0, by, x + 1.0, by + bh, BLACK, 0.35);
        fill_rect(img, x - 0.5, by, x + 0.5, by + bh, WHITE, 0.5);
    }
    for r in 0..=g.rows {
        let y = by + r as f32 * g.pitch.1;
        fill_rect(img, bx, y - 1.0, bx + bw, y + 1.0, BLACK, 0.35);
        fill_rect(img, bx, y - 0.5, bx + bw, y + 0.5, WHITE, 0.5);
    }
}

/// A filled label box of height `size` with `text` in a contrasting ink, top-left at `at`.
fn badge(img: &mut RgbaImage, text: &str, at: (f32, f32), size: f32, bg: Rgb) {
    let px = (size * 0.9).max(8.0);
    let (tw, _) = font::measure(text, px);
    let w = (tw as f32 + size * 0.3).max(size);
    let h = size.max(px);
    fill_rect(
        img,
        at.0 - 1.0,
        at.1 - 1.0,
        at.0 + w + 1.0,
        at.1 + h + 1.0,
        BLACK,
        0.7,
    );
    fill_rect(img, at.0, at.1, at.0 + w, at.1 + h, bg, 1.0);
    font::draw_centred(img, text, at.0 + w / 2.0, at.1 + h / 2.0, px, ink_on(bg));
}

/// Each link as a black-outlined coloured polyline through its corners (ring cells
/// included), its ends ringed, and with `numbered` its order in a disc at both ends.
fn draw_links(img: &mut RgbaImage, g: &Grid, links: &[Link], numbered: bool) {
    let m = g.pitch.0.min(g.pitch.1);
    let w = (m / 10.0).max(2.5);
    for (i, link) in links.iter().enumerate() {
        let col = LINK_COLOURS[i % LINK_COLOURS.len()];
        let pts: Vec<(f32, f32)> = link.path.iter().map(|&p| g.point_center(p)).collect();
        for pass in [(w + 3.0, BLACK), (w, col)] {
            for s in pts.windows(2) {
                segment(img, s[0], s[1], pass.0, pass.1, 1.0);
            }
            for &p in &pts {
                disc(img, p, pass.0 * 0.75, pass.1, 1.0);
            }
        }
        for end in [link.a, link.b] {
            let c = g.center(end);
            ring(img, c, m * 0.42, w * 0.8, col);
        }
        if numbered {
            let label = (i + 1).to_string();
            for end in [link.a, link.b] {
                let c = g.center(end);
                let r = m * 0.24;
                disc(img, c, r + 1.5, BLACK, 1.0);
                disc(img, c, r, col, 1.0);
                let px = if label.len() > 2 { r * 1.0 } else { r * 1.35 };
                font::draw_centred(img, &label, c.0, c.1, px, ink_on(col));
            }
        }
    }
}

/// An outlined circle of radius `r` and stroke `w`.
fn ring(img: &mut RgbaImage, c: (f32, f32), r: f32, w: f32, col: Rgb) {
    let (x0, x1) = (
        (c.0 - r - w - 1.0).floor() as i32,
        (c.0 + r + w + 1.0).ceil() as i32,
    );
    let (y0, y1) = (
        (c.1 - r - w - 1.0).floor() as i32,
        (c.1 + r + w + 1.0).ceil() as i32,
    );
    for y in y0..y1 {
        for x in x0..x1 {
            let d = ((x as f32 + 0.5 - c.0).powi(2) + (y as f32 + 0.5 - c.1).powi(2)).sqrt();
            let e = (d - r).abs();
            blend(img, x, y, BLACK, (w / 2.0 + 1.5 - e).clamp(0.0, 1.0) * 0.8);
            blend(img, x, y, col, (w / 2.0 + 0.5 - e).clamp(0.0, 1.0));
        }
    }
}
