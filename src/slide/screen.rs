//! Reading a sliding puzzle from a frame: the grid (the vision stage's edge-profile method),
//! the blank (the one flat cell), and each tile's identity — digits matched against
//! templates rendered with the embedded font, or picture pieces matched against a reference
//! image of the solved picture.
//!
//! Digits are compared by shape, not colour or size: a cell's ink (pixels far from the
//! tile's face colour) is cropped to its bounding box and fitted into a small square, and
//! the templates go through the same steps. That makes the match independent of the tile
//! colour, the font size the game chose and the tile's bevel (the crop stays inside it).

use super::{Goal, Puzzle, PuzzleError};
use crate::geometry::Grid;
use crate::render::font;
use crate::vision::profile::{edge_profiles, smooth};
use image::{Rgba, RgbaImage};

/// Why a frame does not read as a sliding board.
#[derive(Debug, thiserror::Error)]
pub enum ScreenError {
    /// A frame smaller than two of the smallest cells.
    #[error("the {width}x{height} frame is too small to hold a sliding board")]
    TooSmall {
        /// Frame width, pixels.
        width: u32,
        /// Frame height, pixels.
        height: u32,
    },
    /// No comb of evenly spaced edges along one axis.
    #[error("no sliding board found in the {width}x{height} frame: no evenly spaced {axis} edges{}", size.map_or(String::new(), |(r, c)| format!(" for {r}x{c} cells")))]
    NoBoard {
        /// Frame width, pixels.
        width: u32,
        /// Frame height, pixels.
        height: u32,
        /// "column" or "row".
        axis: &'static str,
        /// The size asked for (rows, cols), if any.
        size: Option<(usize, usize)>,
    },
    /// The grid reaches past the frame.
    #[error("the {rows}x{cols} grid does not fit in the {width}x{height} frame")]
    GridOutside {
        /// Grid rows.
        rows: usize,
        /// Grid columns.
        cols: usize,
        /// Frame width, pixels.
        width: u32,
        /// Frame height, pixels.
        height: u32,
    },
    /// No cell is clearly flatter than the rest.
    #[error("no blank cell stands out (flattest cells {flattest:?} and {second:?}: spread {:.1} and {:.1})", spreads.0, spreads.1)]
    NoBlank {
        /// The flattest cell (row, col).
        flattest: (usize, usize),
        /// The next flattest (row, col).
        second: (usize, usize),
        /// Their colour spreads.
        spreads: (f32, f32),
    },
    /// Fewer digit templates than the board has tiles.
    #[error("digit templates for {have} tiles, but the board has {need}")]
    Templates {
        /// Templates given.
        have: usize,
        /// Tiles on the board.
        need: usize,
    },
    /// A numbered board's cell with no digit in it.
    #[error("cell ({row}, {col}) shows no digit")]
    NoDigit {
        /// The cell's row.
        row: usize,
        /// The cell's column.
        col: usize,
    },
    /// A cell whose best tile is too far from it.
    #[error("cell ({row}, {col}) matches no tile well (best: tile {tile} at cost {cost:.2}, limit {limit})")]
    NoMatch {
        /// The cell's row.
        row: usize,
        /// The cell's column.
        col: usize,
        /// The best tile.
        tile: usize,
        /// Its cost.
        cost: f32,
        /// The most a tile may cost.
        limit: f32,
    },
    /// Tiles read that are not a permutation.
    #[error("the board read is not a permutation")]
    NotPermutation(#[source] PuzzleError),
}

type Result<T> = std::result::Result<T, ScreenError>;

/// Side of the square a glyph is normalised to.
const GLYPH: usize = 24;
/// Fraction of the cell trimmed on each side before looking at its content: the gaps,
/// bevels and borders live there.
const INSET: f32 = 0.14;
/// Colour distance (sum over RGB) from the face colour above which a pixel is ink.
const INK_DIST: i32 = 90;

/// A digit string reduced to its shape: ink coverage in a `GLYPH` square (aspect kept,
/// centred) and the ink box's width / height.
#[derive(Clone, Debug, PartialEq)]
pub struct Glyph {
    /// Ink share of each cell of the `GLYPH` square, row-major, 0–1.
    pub cover: Vec<f32>,
    /// The ink box's width / height.
    pub aspect: f32,
}

impl Glyph {
    /// Shape distance: mean coverage difference plus a penalty for a different aspect
    /// ratio (so "1" and "11" never match, whatever the normalisation hides).
    pub fn dist(&self, other: &Glyph) -> f32 {
        let d: f32 = self
            .cover
            .iter()
            .zip(&other.cover)
            .map(|(a, b)| (a - b).abs())
            .sum::<f32>()
            / self.cover.len() as f32;
        d + (self.aspect.ln() - other.aspect.ln()).abs() * 0.3
    }
}

/// Crops the ink of `mask` (w × h, true = ink) and fits it into the glyph square; `None`
/// when there is no ink at all.
pub fn glyph_from_mask(mask: &[bool], w: usize, h: usize) -> Option<Glyph> {
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for y in 0..h {
        for x in 0..w {
            if mask[y * w + x] {
                x0 = x0.min(x);
                y0 = y0.min(y);
                x1 = x1.max(x);
                y1 = y1.max(y);
            }
        }
    }
    if x0 == usize::MAX {
        return None;
    }
    let (bw, bh) = ((x1 - x0 + 1) as f32, (y1 - y0 + 1) as f32);
    let scale = GLYPH as f32 / bw.max(bh);
    let (ox, oy) = (
        (GLYPH as f32 - bw * scale) / 2.0,
        (GLYPH as f32 - bh * scale) / 2.0,
    );
    let mut cover = vec![0f32; GLYPH * GLYPH];
    // 3 × 3 samples per glyph pixel, mapped back into the ink box.
    for gy in 0..GLYPH {
        for gx in 0..GLYPH {
            let mut hit = 0;
            for sy in 0..3 {
                for sx in 0..3 {
                    let u = (gx as f32 + (sx as f32 + 0.5) / 3.0 - ox) / scale;
                    let v = (gy as f32 + (sy as f32 + 0.5) / 3.0 - oy) / scale;
                    if u >= 0.0 && v >= 0.0 && u < bw && v < bh {
                        let (x, y) = (x0 + u as usize, y0 + v as usize);
                        hit += mask[y * w + x] as u32;
                    }
                }
            }
            cover[gy * GLYPH + gx] = hit as f32 / 9.0;
        }
    }
    Some(Glyph {
        cover,
        aspect: bw / bh,
    })
}

/// The shapes of "1" … "n−1" drawn with the embedded font (index 0 is tile 1).
pub fn digit_templates(cells: usize) -> Vec<Glyph> {
    (1..cells)
        .map(|t| {
            let text = t.to_string();
            let px = 64.0;
            let (tw, th) = font::measure(&text, px);
            let (w, h) = (tw as usize + 16, th as usize + 32);
            let mut img = RgbaImage::from_pixel(w as u32, h as u32, Rgba([0, 0, 0, 255]));
            font::draw(&mut img, &text, 8, 8, px, [255.0; 3]);
            let mask: Vec<bool> = img.pixels().map(|p| p[0] > 110).collect();
            glyph_from_mask(&mask, w, h).expect("a rendered number has ink")
        })
        .collect()
}

/// The inner part of a cell (x, y, w, h) in whole pixels, clipped to the frame.
fn interior(frame: &RgbaImage, grid: &Grid, cell: usize) -> (u32, u32, u32, u32) {
    let (x, y, w, h) = grid.cell_rect((cell / grid.cols) as i32, (cell % grid.cols) as i32);
    let (x0, y0) = (x + w * INSET, y + h * INSET);
    let (x1, y1) = (x + w * (1.0 - INSET), y + h * (1.0 - INSET));
    let cx = |v: f32| (v.max(0.0) as u32).min(frame.width());
    let cy = |v: f32| (v.max(0.0) as u32).min(frame.height());
    let (ax, ay) = (cx(x0), cy(y0));
    (ax, ay, cx(x1).saturating_sub(ax), cy(y1).saturating_sub(ay))
}

/// Mean absolute deviation from the interior's mean colour: near 0 for the blank, large
/// for a digit or a piece of picture.
pub fn spread(frame: &RgbaImage, rect: (u32, u32, u32, u32)) -> f32 {
    let (x, y, w, h) = rect;
    let n = (w * h).max(1) as f32;
    let mut mean = [0f32; 3];
    for yy in y..y + h {
        for xx in x..x + w {
            let p = frame.get_pixel(xx, yy);
            for c in 0..3 {
                mean[c] += p[c] as f32 / n;
            }
        }
    }
    let mut dev = 0f32;
    for yy in y..y + h {
        for xx in x..x + w {
            let p = frame.get_pixel(xx, yy);
            dev += (0..3).map(|c| (p[c] as f32 - mean[c]).abs()).sum::<f32>();
        }
    }
    dev / n / 3.0
}

/// The glyph in a cell interior: ink is whatever is far from the face colour (the
/// per-channel median, since ink covers well under half a tile).
pub fn cell_glyph(frame: &RgbaImage, rect: (u32, u32, u32, u32)) -> Option<Glyph> {
    let (x, y, w, h) = rect;
    let mut chans: [Vec<u8>; 3] = Default::default();
    for yy in y..y + h {
        for xx in x..x + w {
            let p = frame.get_pixel(xx, yy);
            for c in 0..3 {
                chans[c].push(p[c]);
            }
        }
    }
    let face: Vec<i32> = chans
        .iter_mut()
        .map(|v| {
            v.sort_unstable();
            v.get(v.len() / 2).copied().unwrap_or(0) as i32
        })
        .collect();
    let mut mask = Vec::with_capacity((w * h) as usize);
    for yy in y..y + h {
        for xx in x..x + w {
            let p = frame.get_pixel(xx, yy);
            let d: i32 = (0..3).map(|c| (p[c] as i32 - face[c]).abs()).sum();
            mask.push(d > INK_DIST);
        }
    }
    glyph_from_mask(&mask, w as usize, h as usize)
}

/// 8 × 8 block means of a region (x, y, w, h) in fractional pixels, sampled 3 × 3 a block:
/// enough to tell picture pieces apart at any scale.
fn blocks(img: &RgbaImage, x: f32, y: f32, w: f32, h: f32) -> Vec<[f32; 3]> {
    const B: usize = 8;
    let mut out = Vec::with_capacity(B * B);
    for by in 0..B {
        for bx in 0..B {
            let mut acc = [0f32; 3];
            for sy in 0..3 {
                for sx in 0..3 {
                    let u = x + w * (bx as f32 + (sx as f32 + 0.5) / 3.0) / B as f32;
                    let v = y + h * (by as f32 + (sy as f32 + 0.5) / 3.0) / B as f32;
                    let px = (u.max(0.0) as u32).min(img.width() - 1);
                    let py = (v.max(0.0) as u32).min(img.height() - 1);
                    let p = img.get_pixel(px, py);
                    for c in 0..3 {
                        acc[c] += p[c] as f32 / 9.0;
                    }
                }
            }
            out.push(acc);
        }
    }
    out
}

fn block_dist(a: &[[f32; 3]], b: &[[f32; 3]]) -> f32 {
    a.iter()
        .zip(b)
        .map(|(p, q)| (0..3).map(|c| (p[c] - q[c]).abs()).sum::<f32>() / 3.0)
        .sum::<f32>()
        / a.len() as f32
}

/// How tiles are identified.
#[derive(Clone, Debug)]
pub enum Tiles {
    /// Numbered tiles; the templates are rendered once for the board's tile count.
    Numbers(Vec<Glyph>),
    /// Picture tiles; the image is the whole solved picture (as `llk game --slide
    /// --picture --save-reference` writes it), stretched over the board.
    Picture(RgbaImage),
}

impl Tiles {
    /// Number templates for boards of up to `cells` cells (a smaller board uses the first
    /// ones, so one set serves a board of unknown size).
    pub fn numbers(cells: usize) -> Tiles {
        Tiles::Numbers(digit_templates(cells))
    }
}

/// A board read from a frame: where it is, the position, and the worst match cost (how
/// sure the reading is; the player logs it).
#[derive(Clone, Debug)]
pub struct SlideReading {
    /// The board's cells, frame pixels.
    pub grid: Grid,
    /// The position read.
    pub puzzle: Puzzle,
    /// The highest match cost of any tile (lower is surer).
    pub worst: f32,
}

/// Largest accepted match cost for a digit (shape distance) and a picture piece (mean
/// colour difference, 0..255).
const MAX_GLYPH_COST: f32 = 0.22;
const MAX_PIECE_COST: f32 = 40.0;

/// Smallest cell pitch looked for, in pixels.
const MIN_PITCH: f32 = 16.0;

/// Plausible lattices along one edge profile, most cells first: (first boundary, pitch,
/// cells), in profile indices. For each cell count, every pitch (quarter-pixel steps) and
/// start is scored by how strong the comb's teeth are against the cell interiors; counts
/// whose best comb comes near the overall best are kept. A sub-range of a board scores
/// about as well as the whole board, so the caller tries the most cells first.
fn fit_axis(profile: &[f32], counts: &[usize]) -> Vec<(f32, f32, usize)> {
    let p = smooth(profile, 2);
    let max = p.iter().copied().fold(0f32, f32::max);
    if max <= 0.0 {
        return Vec::new();
    }
    let len = p.len() as f32;
    let at = |x: f32| -> f32 {
        let i = x.floor();
        let t = x - i;
        let i = i as usize;
        let a = p.get(i).copied().unwrap_or(0.0);
        let b = p.get(i + 1).copied().unwrap_or(a);
        a + (b - a) * t
    };
    let mut per_count: Vec<(f32, f32, f32, usize)> = Vec::new();
    for &n in counts {
        let mut best = (f32::MIN, 0.0, 0.0, n);
        let mut pitch = MIN_PITCH;
        while pitch * n as f32 <= len - 1.0 {
            let mut start = 0.0;
            while start + pitch * n as f32 <= len - 1.0 {
                // Mean and weakest tooth: every boundary of a real board is an edge, so a
                // comb that only hits some of them (a digit's stroke) scores low.
                let (sum, weakest) = (0..=n)
                    .map(|k| at(start + k as f32 * pitch))
                    .fold((0f32, f32::MAX), |(s, m), v| (s + v, m.min(v)));
                let teeth = 0.5 * (sum / (n + 1) as f32 + weakest);
                let inside: f32 = (0..n)
                    .map(|k| {
                        let c = start + k as f32 * pitch;
                        at(c + 0.3 * pitch) + at(c + 0.5 * pitch) + at(c + 0.7 * pitch)
                    })
                    .sum::<f32>()
                    / (3 * n) as f32;
                let score = (teeth - 0.5 * inside) / max;
                if score > best.0 {
                    best = (score, start, pitch, n);
                }
                start += 0.5;
            }
            pitch += 0.25;
        }
        per_count.push(best);
    }
    let top = per_count.iter().map(|c| c.0).fold(f32::MIN, f32::max);
    // Plausible counts, most cells first.
    let mut out: Vec<(f32, f32, usize)> = per_count
        .into_iter()
        .filter(|c| c.0 >= 0.35 * top && c.0 > 0.1)
        .map(|(_, a, pitch, n)| (a, pitch, n))
        .collect();
    out.sort_by_key(|c| std::cmp::Reverse(c.2));
    out
}

/// Finds the board's grid by the edge-profile method of the vision stage: summed colour
/// changes across each column and row boundary (smoothed so a tile's two edges around a
/// gap merge into one peak on the cell boundary), then the comb of equally spaced peaks
/// that best explains them. With `size` (rows, cols) only that many cells are tried;
/// otherwise any 2..=8, and every plausible grid is returned, most cells first.
pub fn find_slide_grids(frame: &RgbaImage, size: Option<(usize, usize)>) -> Result<Vec<Grid>> {
    let (w, h) = frame.dimensions();
    if w < 2 * MIN_PITCH as u32 || h < 2 * MIN_PITCH as u32 {
        return Err(ScreenError::TooSmall {
            width: w,
            height: h,
        });
    }
    let prof = edge_profiles(frame, (0, 0, w, h));
    let any: Vec<usize> = (2..=8).collect();
    let (rc, cc) = match size {
        Some((r, c)) => (vec![r], vec![c]),
        None => (any.clone(), any),
    };
    let xs = fit_axis(&prof.cols, &cc);
    let ys = fit_axis(&prof.rows, &rc);
    if xs.is_empty() || ys.is_empty() {
        return Err(ScreenError::NoBoard {
            width: w,
            height: h,
            axis: if xs.is_empty() { "column" } else { "row" },
            size,
        });
    }
    let mut grids: Vec<Grid> = ys
        .iter()
        .flat_map(|&(y0, py, rows)| {
            xs.iter().map(move |&(x0, px, cols)| Grid {
                // Profile index i is the boundary between pixels i and i + 1.
                origin: (prof.x0 as f32 + x0 + 1.0, prof.y0 as f32 + y0 + 1.0),
                pitch: (px, py),
                rows,
                cols,
            })
        })
        .collect();
    grids.sort_by_key(|g| std::cmp::Reverse(g.rows * g.cols));
    Ok(grids)
}

/// The most likely grid of [`find_slide_grids`] (most cells).
pub fn find_slide_grid(frame: &RgbaImage, size: Option<(usize, usize)>) -> Result<Grid> {
    Ok(find_slide_grids(frame, size)?[0])
}

/// Reads the position shown in `frame` within `grid`, numbering tiles for `goal` (a
/// picture piece's number is the cell it belongs in). Fails naming the cell when a tile
/// matches nothing well, or when no single blank stands out.
pub fn read_with_grid(
    frame: &RgbaImage,
    grid: &Grid,
    tiles: &Tiles,
    goal: Goal,
) -> Result<SlideReading> {
    let n = grid.rows * grid.cols;
    let (fw, fh) = frame.dimensions();
    let (bx, by, bw, bh) = grid.bounds();
    if bx < -0.5 || by < -0.5 || bx + bw > fw as f32 + 0.5 || by + bh > fh as f32 + 0.5 {
        return Err(ScreenError::GridOutside {
            rows: grid.rows,
            cols: grid.cols,
            width: fw,
            height: fh,
        });
    }
    let rects: Vec<_> = (0..n).map(|k| interior(frame, grid, k)).collect();
    let spreads: Vec<f32> = rects.iter().map(|&r| spread(frame, r)).collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| spreads[a].total_cmp(&spreads[b]));
    let (blank, second) = (order[0], order[1]);
    if spreads[blank] > 0.5 * spreads[second] || spreads[blank] > 12.0 {
        return Err(ScreenError::NoBlank {
            flattest: (blank / grid.cols, blank % grid.cols),
            second: (second / grid.cols, second % grid.cols),
            spreads: (spreads[blank], spreads[second]),
        });
    }
    // cost[cell][label - 1] for every non-blank cell and label 1..n.
    let cells: Vec<usize> = (0..n).filter(|&k| k != blank).collect();
    let mut cost: Vec<Vec<f32>> = Vec::with_capacity(cells.len());
    let limit = match tiles {
        Tiles::Numbers(templates) => {
            if templates.len() < n - 1 {
                return Err(ScreenError::Templates {
                    have: templates.len(),
                    need: n - 1,
                });
            }
            let templates = &templates[..n - 1];
            for &k in &cells {
                let g = cell_glyph(frame, rects[k]).ok_or(ScreenError::NoDigit {
                    row: k / grid.cols,
                    col: k % grid.cols,
                })?;
                cost.push(templates.iter().map(|t| g.dist(t)).collect());
            }
            MAX_GLYPH_COST
        }
        Tiles::Picture(reference) => {
            let (rw, rh) = (reference.width() as f32, reference.height() as f32);
            let homes: Vec<Vec<[f32; 3]>> = (1..n as u8)
                .map(|label| {
                    let home = match goal {
                        Goal::BlankLast => label as usize - 1,
                        Goal::BlankFirst => label as usize,
                    };
                    let (x, y, w, h) =
                        grid.cell_rect((home / grid.cols) as i32, (home % grid.cols) as i32);
                    let sx = rw / bw;
                    let sy = rh / bh;
                    blocks(
                        reference,
                        (x + w * INSET - bx) * sx,
                        (y + h * INSET - by) * sy,
                        w * (1.0 - 2.0 * INSET) * sx,
                        h * (1.0 - 2.0 * INSET) * sy,
                    )
                })
                .collect();
            // The grid may sit a few pixels off the tiles (a bevel's edge can beat the gap's),
            // so each cell is compared at small shifts and the best alignment counts.
            let reach = (grid.pitch.0.min(grid.pitch.1) * 0.06).max(1.0);
            let shifts: Vec<f32> = (-2..=2).map(|i| i as f32 * reach / 2.0).collect();
            for &k in &cells {
                let (x, y, w, h) = grid.cell_rect((k / grid.cols) as i32, (k % grid.cols) as i32);
                let mut row = vec![f32::MAX; homes.len()];
                for &dy in &shifts {
                    for &dx in &shifts {
                        let b = blocks(
                            frame,
                            x + w * INSET + dx,
                            y + h * INSET + dy,
                            w * (1.0 - 2.0 * INSET),
                            h * (1.0 - 2.0 * INSET),
                        );
                        for (c, home) in row.iter_mut().zip(&homes) {
                            *c = c.min(block_dist(&b, home));
                        }
                    }
                }
                cost.push(row);
            }
            MAX_PIECE_COST
        }
    };
    let labels = assign(&cost);
    let mut board = vec![0u8; n];
    let mut worst = 0f32;
    for (i, &k) in cells.iter().enumerate() {
        let l = labels[i];
        let c = cost[i][l];
        if c > limit {
            return Err(ScreenError::NoMatch {
                row: k / grid.cols,
                col: k % grid.cols,
                tile: l + 1,
                cost: c,
                limit,
            });
        }
        worst = worst.max(c);
        board[k] = l as u8 + 1;
    }
    let puzzle = Puzzle::new(grid.cols, grid.rows, board).map_err(ScreenError::NotPermutation)?;
    Ok(SlideReading {
        grid: *grid,
        puzzle,
        worst,
    })
}

/// Finds the grid, then reads the position: the first plausible grid (most cells first)
/// that reads as a whole board wins; otherwise the first grid's error is returned.
pub fn read_slide(
    frame: &RgbaImage,
    size: Option<(usize, usize)>,
    tiles: &Tiles,
    goal: Goal,
) -> Result<SlideReading> {
    let mut first_err = None;
    for grid in find_slide_grids(frame, size)? {
        match read_with_grid(frame, &grid, tiles, goal) {
            Ok(r) => return Ok(r),
            Err(e) => {
                first_err.get_or_insert(e);
            }
        }
    }
    Err(first_err.expect("find_slide_grids returns at least one grid"))
}

/// Gives each row of `cost` a distinct column, cheapest pairs first (greedy matching).
/// With one clearly best label per cell this is the optimal assignment; when two cells
/// want the same label the better fit keeps it and the other takes its next best.
pub fn assign(cost: &[Vec<f32>]) -> Vec<usize> {
    let mut pairs: Vec<(f32, usize, usize)> = cost
        .iter()
        .enumerate()
        .flat_map(|(i, row)| row.iter().enumerate().map(move |(j, &c)| (c, i, j)))
        .collect();
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let cols = cost.first().map_or(0, |r| r.len());
    let mut row_done = vec![usize::MAX; cost.len()];
    let mut col_used = vec![false; cols];
    for (_, i, j) in pairs {
        if row_done[i] == usize::MAX && !col_used[j] {
            row_done[i] = j;
            col_used[j] = true;
        }
    }
    row_done
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_tell_every_number_apart() {
        let t = digit_templates(25);
        for (i, a) in t.iter().enumerate() {
            for (j, b) in t.iter().enumerate() {
                if i != j {
                    assert!(a.dist(b) > 0.05, "{} vs {}: {}", i + 1, j + 1, a.dist(b));
                }
            }
        }
    }

    #[test]
    fn assignment_resolves_a_conflict() {
        let cost = vec![
            vec![0.1, 0.2, 0.9],
            vec![0.05, 0.3, 0.9],
            vec![0.9, 0.9, 0.5],
        ];
        assert_eq!(assign(&cost), vec![1, 0, 2]);
    }

    #[test]
    fn a_blank_frame_has_no_board() {
        let img = RgbaImage::from_pixel(200, 200, Rgba([40, 40, 40, 255]));
        let err = read_slide(&img, None, &Tiles::numbers(9), Goal::BlankLast)
            .unwrap_err()
            .to_string();
        assert!(err.contains("no sliding board"), "{err}");
    }
}
