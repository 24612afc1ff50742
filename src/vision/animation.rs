//! Spotting a removal in progress: a link line drawn across the board.
//!
//! Games flash the path of a removed pair as a thin line of one colour through cell
//! centres. Reading such a frame would invent tiles where the line crosses empty cells, so
//! the reader refuses it. The test needs no background model: along each row's (column's)
//! centre line it looks for a run of nearly constant colour that crosses a cell boundary and
//! is thin — the pixels a third of a cell to either side are different — and starts and ends
//! near cell centres, where a link's corners are. Tiles never give such a run (their borders
//! break it at every boundary), background never does (it is not thin), and other chrome
//! along the board (a progress bar, a toolbar) rarely ends where cell centres are.
//!
//! A second sign is the pictures themselves: a tile at rest hides the board's ground under
//! it, while the sprites of an explosion or a glow are drawn over the ground and show it
//! through (see [`ground_through_tiles`]).

use super::pixels::{colour_dist, mode_colour, rgb_at};
use super::ReadError;
use crate::board::Board;
use crate::geometry::Grid;
use image::RgbaImage;

/// How close (mean absolute difference per channel) a pixel must be to the ground colour to
/// count as ground. Tight, so that a tile face of a colour near the ground's (the pastel
/// theme's pink on pink) does not count; JPEG noise only makes the test more lenient.
const GROUND_TOL: f32 = 10.0;

/// The widest a link line may be, as a share of the pitch across it: the band of the run's
/// colour straight across the line, measured at [`LINK_SAMPLES`] points along it. Link
/// lines drawn by games measured 0.03–0.18 of a pitch (KShisen's at every size from 5 px at
/// a 28 px pitch to 10 px at 74 px, the bundled game's). A tile face of
/// one flat colour (a dark jade face) can give a run that crosses a faint seam and has other
/// colours a third of a pitch to its sides, yet its band is the face's height: 0.32–0.50.
const LINK_BAND_MAX: f32 = 0.25;

/// Points along a run where its band is measured ([`LINK_BAND_MAX`]) and its sides
/// sampled: evenly spaced, the ends left out. A run counts as a line where its sides differ
/// from it at most of them, and its band is thin at all but [`LINK_THICK_SAMPLES`]: over a
/// photo ground the line passes dark patches of the picture that touch it at a point or
/// two, which a flat bar or face of the line's colour is not thin anywhere.
const LINK_SAMPLES: i64 = 7;

/// See [`LINK_SAMPLES`].
const LINK_THICK_SAMPLES: usize = 1;

/// Where across each centre line the scan runs, as shares of the pitch: the centre itself,
/// and either side of it. Games draw a link through the faces' centres, and a lattice found
/// on a board of 3-D tiles can sit the depth of their sides off the faces (KShisen: 7 px at
/// an 80 px pitch, which put a 10-px line beside the centre line); the shifts step by less
/// than the thinnest lines measured at those pitches (0.12 of a pitch), so a line within a
/// seventh of a pitch of the centre is crossed.
const LINK_SHIFTS: [f32; 3] = [0.0, -0.1, 0.1];

/// Further shifts for the ring's lines, towards the board, as shares of the pitch: a game
/// routes a link's leg outside the board anywhere between the tiles' edge and the ring
/// cells' centres (KShisen draws it just past the tiles' 3-D side, 0.17 of a pitch out, a
/// third of a pitch off the ring's centre line). With [`LINK_SHIFTS`] they step by a tenth
/// of a pitch from the centre to within a tenth of the tiles' edge.
const RING_SHIFTS: [f32; 3] = [0.2, 0.3, 0.4];

/// The shifts at which line `k` of `n` lines (−1 and `n` being the ring) is scanned: the
/// ring's lines also towards the board ([`RING_SHIFTS`]).
fn shifts(k: i32, n: usize) -> impl Iterator<Item = (i32, f32)> {
    let inward = match k {
        -1 => 1.0,
        k if k == n as i32 => -1.0,
        _ => 0.0,
    };
    LINK_SHIFTS
        .into_iter()
        .chain(
            RING_SHIFTS
                .into_iter()
                .filter(move |_| inward != 0.0)
                .map(move |s| s * inward),
        )
        .map(move |s| (k, s))
}

/// The [`ground_through_tiles`] share above which a lattice's "tiles" are mostly ground:
/// not tiles at rest.
pub const GROUND_THROUGH_MAX: f32 = 0.5;

/// The share of a typical tile's interior (the median over the tiles of `board` on `grid`)
/// that shows the board's ground: the most common colour along the lattice lines, where
/// gaps between tiles and cleared cells are. `None` when the board has no tiles.
///
/// On tiles at rest it is near 0 (every correct reading of the 200 rendered fixtures: 0.11
/// at most, on a dark theme; real boards 0.000–0.016), because a tile is opaque over its
/// cell's interior. On a lattice laid over explosion sprites (a real end-of-game frame:
/// 0.66) most of each "tile" is the ground between the sprites. Lattices laid off the tiles
/// show it too (misread fixtures 0.14–0.50, a real board read at the wrong row pitch 0.62):
/// the reader's cut-off is half, a majority of ground.
pub fn ground_through_tiles(frame: &RgbaImage, grid: &Grid, board: &Board) -> Option<f32> {
    let px = |x: f32, y: f32| rgb_at(frame, x.floor() as i64, y.floor() as i64);
    // Samples along every lattice line of the board, 8 per cell side, at most ~120 kept (the
    // mode compares every pair), and 8×8 samples in each of at most 48 tiles spread over the
    // board: the whole test costs about 1 % of a read.
    let (rows, cols) = (grid.rows as i32, grid.cols as i32);
    let (pw, ph) = grid.pitch;
    let (ox, oy) = grid.origin;
    let n = (2 * rows * cols + rows + cols) as usize * 8;
    let stride = n.div_ceil(120).max(1);
    let mut line = Vec::with_capacity(n / stride + 1);
    let mut k = 0usize;
    let mut keep = |p: Option<[f32; 3]>, out: &mut Vec<[f32; 3]>| {
        if k.is_multiple_of(stride) {
            out.extend(p);
        }
        k += 1;
    };
    for r in 0..=rows {
        for t in 0..cols * 8 {
            let x = ox + (t as f32 + 0.5) * pw / 8.0;
            keep(px(x, oy + r as f32 * ph), &mut line);
        }
    }
    for c in 0..=cols {
        for t in 0..rows * 8 {
            let y = oy + (t as f32 + 0.5) * ph / 8.0;
            keep(px(ox + c as f32 * pw, y), &mut line);
        }
    }
    let ground = mode_colour(&line, 20.0);
    let tiles: Vec<_> = board.tiles().collect();
    let every = tiles.len().div_ceil(48).max(1);
    let mut shares: Vec<f32> = tiles
        .iter()
        .step_by(every)
        .map(|&(p, _)| {
            let (x, y, w, h) = grid.cell_rect(p.row as i32, p.col as i32);
            let (mut hit, mut all) = (0u32, 0u32);
            for i in 0..8 {
                for j in 0..8 {
                    let sx = x + w * (0.15 + 0.7 * (i as f32 + 0.5) / 8.0);
                    let sy = y + h * (0.15 + 0.7 * (j as f32 + 0.5) / 8.0);
                    if let Some(q) = px(sx, sy) {
                        all += 1;
                        hit += (colour_dist(q, ground) < GROUND_TOL) as u32;
                    }
                }
            }
            hit as f32 / all.max(1) as f32
        })
        .collect();
    if shares.is_empty() {
        return None;
    }
    shares.sort_by(f32::total_cmp);
    Some(shares[shares.len() / 2])
}

/// How a link-line refusal's message begins ([`check_link_line`]).
pub const LINK_LINE: &str = "a link line is drawn across the board";

/// Refuses a frame with a link line drawn over `grid`, as an animation: both readers run it
/// on the board they found.
pub fn check_link_line(frame: &RgbaImage, grid: &Grid) -> Result<(), ReadError> {
    match find_link_line(frame, grid) {
        Some(place) => Err(ReadError::Animation(format!("{LINK_LINE} ({place})"))),
        None => Ok(()),
    }
}

/// Where a link line was seen: "row R" or "column C" and the pixel span.
pub fn find_link_line(frame: &RgbaImage, grid: &Grid) -> Option<String> {
    let px = |x: i64, y: i64| rgb_at(frame, x, y);
    let (bx, by, bw, bh) = grid.bounds();
    let (pw, ph) = grid.pitch;
    // Horizontal runs along row centres, ring rows included.
    for (r, shift) in (-1..=grid.rows as i32).flat_map(|r| shifts(r, grid.rows)) {
        let y = (grid.point_center(crate::board::Point::new(r, 0)).1 + shift * ph).round() as i64;
        let off = (ph * 0.34).round() as i64;
        let xa = (bx - pw * 0.5).floor() as i64;
        let xb = (bx + bw + pw * 0.5).ceil() as i64;
        let bounds: Vec<f32> = (0..=grid.cols).map(|c| bx + c as f32 * pw).collect();
        if let Some(span) = scan(
            &px,
            (xa, xb),
            pw,
            &bounds,
            |t| (t, y),
            |t, d| (t, y + d),
            off,
            r < 0 || r == grid.rows as i32,
        ) {
            return Some(format!("row {r}, x {}..{}", span.0, span.1));
        }
    }
    for (c, shift) in (-1..=grid.cols as i32).flat_map(|c| shifts(c, grid.cols)) {
        let x = (grid.point_center(crate::board::Point::new(0, c)).0 + shift * pw).round() as i64;
        let off = (pw * 0.34).round() as i64;
        let ya = (by - ph * 0.5).floor() as i64;
        let yb = (by + bh + ph * 0.5).ceil() as i64;
        let bounds: Vec<f32> = (0..=grid.rows).map(|r| by + r as f32 * ph).collect();
        if let Some(span) = scan(
            &px,
            (ya, yb),
            ph,
            &bounds,
            |t| (x, t),
            |t, d| (x + d, t),
            off,
            c < 0 || c == grid.cols as i32,
        ) {
            return Some(format!("column {c}, y {}..{}", span.0, span.1));
        }
    }
    None
}

/// Scans one centre line from `range.0` to `range.1` for a thin constant-colour run of at
/// least 0.8 pitch that crosses one of `bounds`; `ring` when the line is the ring around
/// the board. `side(t, d)` is the point `d` pixels across the line from its point `t`, and
/// `off` how far across the run's sides are sampled.
#[allow(clippy::too_many_arguments)]
fn scan(
    px: &impl Fn(i64, i64) -> Option<[f32; 3]>,
    range: (i64, i64),
    pitch: f32,
    bounds: &[f32],
    on: impl Fn(i64) -> (i64, i64),
    side: impl Fn(i64, i64) -> (i64, i64),
    off: i64,
    ring: bool,
) -> Option<(i64, i64)> {
    let min_len = (pitch * 0.8) as i64;
    // A link is drawn from cell centre to cell centre, so each end of its run lies near a
    // centre, or in the ring where the link turns: a game routes the part of a link that
    // leaves the board wherever it likes there (along the board's edge, not always along
    // the ring cells' centres). A bar or a border of other chrome (a progress bar under the
    // board, a toolbar) ends anywhere and does not start at a centre.
    let first = bounds.first().copied().unwrap_or(0.0);
    let near_centre = |t: i64| {
        let u = (t as f32 - first) / pitch - 0.5;
        (u - u.round()).abs() * pitch <= (pitch * 0.2).max(3.0)
    };
    // Beyond the board's outer bounds by more than a sixth of a pitch: only there do games
    // route a link off the cells' centre lines.
    let last = bounds.last().copied().unwrap_or(0.0);
    let in_ring = |t: i64| {
        let t = t as f32;
        t < first - pitch * 0.15 || t > last + pitch * 0.15
    };
    // The link turns at the run's end: to one side, from a fifth to a third of a pitch out,
    // the run's colour crosses that offset as a thin band that ends where the run ends (the
    // other leg of the corner). A plain face or ground around the end is not thin there.
    // `inward` is the direction back along the run.
    let turns = |end: i64, inward: i64, c: [f32; 3]| {
        let near = (pitch * 0.2).round() as i64;
        let far = (pitch * 0.34).round() as i64;
        let thick = ((pitch * 0.2).round() as i64).max(4);
        let is_c = |t: i64, d: i64| {
            let (x, y) = side(t, d);
            px(x, y).is_some_and(|p| colour_dist(p, c) <= 20.0)
        };
        [-1i64, 1].iter().any(|&s| {
            (near..=far).all(|d| {
                let d = s * d;
                // Outside the corner, beyond the run's end: not the line.
                if is_c(end - inward * 2, d) {
                    return false;
                }
                let Some(k0) = (0..=3).find(|&k| is_c(end + inward * k, d)) else {
                    return false;
                };
                let band = (k0..k0 + thick + 1)
                    .take_while(|&k| is_c(end + inward * k, d))
                    .count() as i64;
                band <= thick
            })
        })
    };
    let mut start = range.0;
    let mut colour: Option<[f32; 3]> = None;
    let mut t = range.0;
    let check = |a: i64, b: i64, c: [f32; 3]| -> bool {
        if b - a < min_len {
            return false;
        }
        let crosses = bounds
            .iter()
            .any(|&q| q > (a + 2) as f32 && q < (b - 2) as f32);
        // In the ring no tile is linked: a run there is a link's middle leg, turning at
        // both ends towards the tiles it joins. A stroke of the ground's own picture (a
        // branch of a photo ground beside the board) turns at neither.
        let ends = ((near_centre(a) && (near_centre(b) || (in_ring(b) && turns(b - 1, -1, c))))
            || (near_centre(b) && in_ring(a) && turns(a, 1, c)))
            && (!ring || (turns(a, 1, c) && turns(b - 1, -1, c)));
        if !crosses || !ends {
            return false;
        }
        // Thin: straight across the run its colour spans a narrow band at three points
        // along it, and both sides differ from it at two of those points at least (a tile
        // under the line can carry a symbol of the line's own colour right where one side
        // is sampled, such as a red numeral in a face's corner).
        let band_max = (pitch * LINK_BAND_MAX).max(4.0) as i64;
        // How far the run's colour reaches from its point `m` to side `s`.
        let band = |m: i64, s: i64| {
            (1..=off)
                .take_while(|&d| {
                    let (x, y) = side(m, s * d);
                    px(x, y).is_some_and(|p| colour_dist(p, c) <= 20.0)
                })
                .count() as i64
        };
        let mut sides_differ = 0;
        let mut thick = 0;
        for k in 1..=LINK_SAMPLES {
            let m = a + (b - a) * k / (LINK_SAMPLES + 1);
            let ok = |s: i64| {
                let (x, y) = side(m, s * off);
                px(x, y).is_none_or(|p| colour_dist(p, c) > 40.0)
            };
            sides_differ += (ok(-1) && ok(1)) as usize;
            thick += (band(m, -1) + band(m, 1) >= band_max) as usize;
        }
        thick <= LINK_THICK_SAMPLES
            && sides_differ * 2 > LINK_SAMPLES as usize
            && (!ring || {
                // In the ring, one ground on both sides at the middle, just past the line's
                // band (a link there runs over background, and can run as near the tiles'
                // edge as a few pixels): a frame or panel edge along the board has
                // different sides.
                let m = (a + b) / 2;
                let (x0, y0) = side(m, -(band(m, -1) + 2));
                let (x1, y1) = side(m, band(m, 1) + 2);
                match (px(x0, y0), px(x1, y1)) {
                    (Some(p), Some(q)) => colour_dist(p, q) <= 40.0,
                    _ => false,
                }
            })
    };
    while t <= range.1 {
        let (x, y) = on(t);
        let p = px(x, y);
        match (p, colour) {
            (Some(p), Some(c)) if colour_dist(p, c) <= 20.0 => {}
            _ => {
                if let Some(c) = colour {
                    if check(start, t, c) {
                        return Some((start, t));
                    }
                }
                start = t;
                colour = p;
            }
        }
        t += 1;
    }
    if let Some(c) = colour {
        if check(start, t, c) {
            return Some((start, t));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    /// A 3x4 board of 40 px tiles at (40, 40) on blue ground: cream faces with a dark mark
    /// above and below each centre line (so a run along it has dark sides) and 6 px face
    /// margins; `paint` draws over it.
    fn board_frame(paint: impl Fn(u32, u32) -> Option<Rgba<u8>>) -> (RgbaImage, Grid) {
        let grid = Grid {
            origin: (40.0, 40.0),
            pitch: (40.0, 40.0),
            rows: 3,
            cols: 4,
        };
        let img = RgbaImage::from_fn(280, 240, |x, y| {
            if let Some(p) = paint(x, y) {
                return p;
            }
            let (u, v) = ((x as f32 - 40.0) / 40.0, (y as f32 - 40.0) / 40.0);
            if u < 0.0 || v < 0.0 || u >= 4.0 || v >= 3.0 {
                return Rgba([48, 76, 112, 255]);
            }
            let (fx, fy) = (u.fract() * 40.0, v.fract() * 40.0);
            if (fx - 20.0).abs() < 14.0 && (6.0..16.0).contains(&(fy - 20.0).abs()) {
                Rgba([30, 30, 30, 255])
            } else {
                Rgba([235, 225, 200, 255])
            }
        });
        (img, grid)
    }

    /// Asserts that a link line is found on `grid` at a place that starts with `place`
    /// ("row 3", "column").
    fn assert_found_at(img: &RgbaImage, grid: &Grid, place: &str) {
        let found = find_link_line(img, grid);
        assert!(
            found.as_deref().is_some_and(|p| p.starts_with(place)),
            "{found:?}"
        );
    }

    fn red() -> Option<Rgba<u8>> {
        Some(Rgba([220, 20, 20, 255]))
    }

    /// A link from the bottom row's first tile to its last that leaves the board and runs
    /// along its edge (off the ring cells' centre line) is found by its legs, which start
    /// at a tile's centre and turn where the link turns.
    #[test]
    fn a_link_routed_along_the_board_edge_is_found() {
        // Centres of (2, 0) and (2, 3): x 60 and 180, y 140; the board ends at y 160 and the
        // link runs 26 px below it, 8 px off the ring cells' centre line (y 180).
        let (img, grid) = board_frame(|x, y| {
            let leg = (140..190).contains(&y) && ((57..63).contains(&x) || (177..183).contains(&x));
            let run = (186..190).contains(&y) && (57..183).contains(&x);
            (leg || run).then(red).flatten()
        });
        assert_found_at(&img, &grid, "column");
        assert!(check_link_line(&img, &grid).is_err());
    }

    /// A link whose leg outside the board runs a few pixels past the tiles' edge, with legs
    /// too short to find on their own (under 0.8 of a pitch), is found on the ring's line
    /// shifted towards the board; the tiles lie within a third of a pitch of it on one
    /// side, the ground on the other, and just past its band both sides show the ground.
    #[test]
    fn a_link_routed_just_past_the_tiles_edge_is_found() {
        // Centres of (2, 1) and (2, 3): x 100 and 180, y 140; the board ends at y 160, the
        // link runs at y 163..168, its legs 28 px long.
        let (img, grid) = board_frame(|x, y| {
            let leg =
                (140..168).contains(&y) && ((97..103).contains(&x) || (177..183).contains(&x));
            let run = (163..168).contains(&y) && (97..183).contains(&x);
            (leg || run).then(red).flatten()
        });
        assert_found_at(&img, &grid, "row 3");
    }

    /// A link drawn a tenth of a pitch below the row centres of the lattice (found on 3-D
    /// tiles, its cells include their sides; the game draws through the faces' centres) is
    /// found on the scan beside the centre line.
    #[test]
    fn a_link_beside_the_lattice_centre_line_is_found() {
        // From (1, 0) to (1, 2): x 60 to 140; row 1's centre line is y 100, the line 104..108.
        let (img, grid) = board_frame(|x, y| {
            ((104..108).contains(&y) && (60..141).contains(&x))
                .then(red)
                .flatten()
        });
        assert_found_at(&img, &grid, "row 1");
    }

    /// A straight link down a column whose tile carries a mark of the line's own colour
    /// right where one side of the line is sampled (a red numeral in a face's corner) is
    /// still found: its other sample points have other colours on both sides.
    #[test]
    fn a_link_beside_a_mark_of_its_own_colour_is_found() {
        // From the centre of (0, 1) (x 100, y 60) to the centre of (2, 1) (y 140); the mark
        // sits at (1, 1)'s centre height, 14 px (a third of a pitch) to the line's right.
        let (img, grid) = board_frame(|x, y| {
            let line = (60..141).contains(&y) && (97..103).contains(&x);
            let mark = (97..104).contains(&y) && (111..118).contains(&x);
            (line || mark).then(red).flatten()
        });
        assert_found_at(&img, &grid, "column 1");
    }

    /// A link down a column over ground whose picture has a dark patch of the line's own
    /// colour touching it at one point (a photo's shadow beside an emptied cell) is still
    /// found: everywhere else along it the line is thin and its sides differ from it; a
    /// patch as long as the run leaves it thick all along, and no link.
    #[test]
    fn a_link_touched_by_a_patch_of_its_colour_at_one_point_is_found() {
        // From the centre of (0, 1) (x 100, y 60) to the centre of (2, 1) (y 140); the patch
        // spans x 103..125 for 8 px around y 118, where the run is sampled.
        let line = |x: u32, y: u32| (60..141).contains(&y) && (97..103).contains(&x);
        let (img, grid) = board_frame(|x, y| {
            let patch = (114..123).contains(&y) && (103..125).contains(&x);
            (line(x, y) || patch).then(red).flatten()
        });
        assert_found_at(&img, &grid, "column 1");
        let (wide, grid) = board_frame(|x, y| {
            let patch = (60..141).contains(&y) && (103..125).contains(&x);
            (line(x, y) || patch).then(red).flatten()
        });
        assert_eq!(find_link_line(&wide, &grid), None);
    }

    /// In the ring beside the board a run is a link only where it turns at both ends
    /// towards the tiles it joins: a stroke of the ground's own picture there (a branch on
    /// a photo ground), running from one row's centre height to another's, is no link.
    #[test]
    fn a_run_in_the_ring_is_a_link_only_where_it_turns_at_both_ends() {
        // Column -1's centre line is x 20; rows 0 and 2 have their centres at y 60 and 140.
        let stroke = |x: u32, y: u32| (60..141).contains(&y) && (17..23).contains(&x);
        let (branch, grid) = board_frame(|x, y| stroke(x, y).then(red).flatten());
        assert_eq!(find_link_line(&branch, &grid), None);
        // The same run with legs to the centres of (0, 0) and (2, 0): a link.
        let (linked, grid) = board_frame(|x, y| {
            let leg = (17..61).contains(&x) && ((57..63).contains(&y) || (137..143).contains(&y));
            (stroke(x, y) || leg).then(red).flatten()
        });
        assert!(find_link_line(&linked, &grid).is_some());
    }

    /// A bar from a tile's centre across the seam into the next tile that ends there without
    /// turning is no link, and neither is the plain board.
    #[test]
    fn a_bar_that_does_not_turn_and_a_plain_board_are_no_link() {
        // From the centre of (0, 1) (x 100, y 60) down to y 115, 15 px off (1, 1)'s centre.
        let (img, grid) = board_frame(|x, y| {
            ((60..115).contains(&y) && (97..103).contains(&x))
                .then(red)
                .flatten()
        });
        assert_eq!(find_link_line(&img, &grid), None);
        let (plain, grid) = board_frame(|_, _| None);
        assert_eq!(find_link_line(&plain, &grid), None);
    }

    /// A run of face colour along a row's centre from the board's edge to a mark at a tile's
    /// centre is no link, though the face's margin beside its start is a thin band of its
    /// colour: a link turns off the centre lines only outside the board.
    #[test]
    fn a_face_coloured_run_from_the_board_edge_is_no_link() {
        // A dark dot at the centre of (1, 2) (x 140, y 100); from x 40 to it the faces and
        // seams of row 1 read as one cream run, its sides marked.
        let (img, grid) = board_frame(|x, y| {
            ((97..103).contains(&y) && (138..142).contains(&x)).then_some(Rgba([30, 30, 30, 255]))
        });
        assert_eq!(find_link_line(&img, &grid), None);
    }

    /// Flat dark faces with lighter bands a third of a pitch above and below their centre
    /// line and a seam of nearly the face's colour: between two marks at tile centres the
    /// row's centre line is one run that crosses the seam with other colours to its sides,
    /// but straight across it the face's colour spans most of the tile, not a thin line.
    #[test]
    fn a_run_across_flat_faces_is_no_link() {
        let grid = Grid {
            origin: (40.0, 40.0),
            pitch: (40.0, 40.0),
            rows: 3,
            cols: 4,
        };
        let img = RgbaImage::from_fn(240, 200, |x, y| {
            let (u, v) = ((x as f32 - 40.0) / 40.0, (y as f32 - 40.0) / 40.0);
            if u < 0.0 || v < 0.0 || u >= 4.0 || v >= 3.0 {
                return Rgba([48, 76, 112, 255]);
            }
            let (fx, fy) = (u.fract() * 40.0, v.fract() * 40.0);
            let mark = (fx - 20.0).abs() < 2.0 && (fy - 20.0).abs() < 2.0;
            if mark || (12.0..16.0).contains(&(fy - 20.0).abs()) {
                Rgba([235, 225, 200, 255])
            } else if fx < 2.0 {
                Rgba([140, 22, 22, 255])
            } else {
                Rgba([150, 20, 20, 255])
            }
        });
        assert_eq!(find_link_line(&img, &grid), None);
        // The same faces with a thin line of their colour's contrast drawn from (1, 1)'s
        // centre to (1, 2)'s: a link.
        let mut linked = img.clone();
        for x in 100..=140 {
            for y in 98..=102 {
                linked.put_pixel(x, y, Rgba([40, 200, 40, 255]));
            }
        }
        assert!(find_link_line(&linked, &grid).is_some());
    }

    /// Opaque tiles hide the ground; small sprites at the same places show it through.
    #[test]
    fn sprites_show_the_ground_and_tiles_do_not() {
        let grid = Grid {
            origin: (20.0, 20.0),
            pitch: (40.0, 40.0),
            rows: 3,
            cols: 4,
        };
        let board = Board::parse("ABAB\nCDCD\nEEFF").expect("board");
        let ground = Rgba([48, 76, 112, 255]);
        let draw = |sprite: bool| {
            RgbaImage::from_fn(200, 160, |x, y| {
                let (u, v) = ((x as f32 - 20.0) / 40.0, (y as f32 - 20.0) / 40.0);
                if u < 0.0 || v < 0.0 || u >= 4.0 || v >= 3.0 {
                    return ground;
                }
                let (fx, fy) = (u.fract() * 40.0, v.fract() * 40.0);
                let inside = if sprite {
                    (fx - 20.0).powi(2) + (fy - 20.0).powi(2) < 64.0
                } else {
                    (2.0..38.0).contains(&fx) && (2.0..38.0).contains(&fy)
                };
                match (inside, (fx - 20.0).abs() < 6.0 && (fy - 20.0).abs() < 6.0) {
                    (false, _) => ground,
                    (true, true) => Rgba([200, 40, 40, 255]),
                    (true, false) => Rgba([235, 225, 200, 255]),
                }
            })
        };
        let tiles = ground_through_tiles(&draw(false), &grid, &board).expect("tiles");
        let sprites = ground_through_tiles(&draw(true), &grid, &board).expect("tiles");
        assert!(tiles < 0.05, "opaque tiles show {tiles}");
        assert!(sprites > 0.5, "sprites show {sprites}");
    }
}
