//! The board reader: lattice → pictures → extent → cells → verdict, each stage its own
//! module, every threshold from one [`ReaderConfig`].
//!
//! [`read_board`] finds everything from the frame; [`read_grid`] reads the cells of a known
//! grid (the live bot's path once the grid is locked, when late in a game too few tiles are
//! left to find it from).

mod board;
mod ground_run;
mod look;
mod phase;
mod seam;
mod sheet;
mod stippled;

use super::animation;
use super::calibrate;
use super::config::ReaderConfig;
use super::extent::{best_window, main_cluster, marked_inside, CellRect};
use super::ground_memory::GroundMemory;
use super::halves;
use super::lattice::{self, Axis, LatticeError};
use super::pictures::{describe, Picture};
use super::pixels::Integral;
use super::profile::{edge_profiles, line_profiles};
use super::verdict::{judge, judge_types, Tally};
use super::{Hints, ReadError, Reading};
use crate::board::{Cell, Pos};
use crate::geometry::{Grid, Side};
use crate::vision::face;
use board::{board_from, SheetCells};
use ground_run::{ground_runs_on, settle_ground};
use image::RgbaImage;
use look::{look, see, Seen, Sight};
use phase::{refine_pitch, rephased};
use sheet::{calm_ring_ground, ring, ring_ground, Ground, Sheet};
use stippled::read_stipples;

/// How far (px across, down) a grid's cells may run past the frame and still be read: a
/// lattice fitted to sub-pixel precision beside a board flush with the window's edge.
const GRID_OVERRUN: (f32, f32) = (0.5, 0.5);

/// Rectangle `(x, y, w, h)` cut to the part of it inside a `fw × fh` frame, `None` when
/// it runs past an edge by more than `slack_x` across or `slack_y` down (or when nothing of
/// it is inside).
fn clipped(
    (x, y, w, h): (f32, f32, f32, f32),
    (fw, fh): (u32, u32),
    (slack_x, slack_y): (f32, f32),
) -> Option<(f32, f32, f32, f32)> {
    let (fw, fh) = (fw as f32, fh as f32);
    if x < -slack_x || y < -slack_y || x + w > fw + slack_x || y + h > fh + slack_y {
        return None;
    }
    let (x0, y0) = (x.max(0.0), y.max(0.0));
    let (w, h) = ((x + w).min(fw) - x0, (y + h).min(fh) - y0);
    (w > 0.0 && h > 0.0).then_some((x0, y0, w, h))
}

/// What each cell of `sheet` shows ([`see`], its outer ring the ring).
fn seen_on(sheet: &Sheet, ground: &Ground, cfg: &ReaderConfig) -> Vec<Seen> {
    see(
        &sheet.pics,
        sheet.cols,
        ground,
        &ring(sheet.rows, sheet.cols),
        cfg,
    )
}

/// Axis `a`'s pitch with the phase of `b`: `b`'s lattice line nearest `mid` kept.
fn on_line(a: Axis, b: Axis, mid: f32) -> Axis {
    let line = b.phase + ((mid - b.phase) / b.pitch).round() * b.pitch;
    Axis {
        phase: line.rem_euclid(a.pitch),
        ..a
    }
}

/// One axis's lattice from its counted edge profile ([`line_profiles`]), or from its summed
/// one ([`edge_profiles`]) where the counted shows no period. Counting edge pixels keeps
/// strong strokes inside the faces from drowning faint tile borders; but a ground drawn
/// with a fine texture (or heavy JPEG noise over it) puts an edge over
/// [`ReaderConfig::edge_min`] nearly everywhere, and the counts stand out nowhere, while
/// the tiles' borders still carry the strongest changes. Measured on 400 rendered boards:
/// 19 had no period in a counted profile, 11 of them then read exact, one wrong (stones
/// read as a type).
fn axis_from<'a>(
    counted: &[f32],
    summed: impl FnOnce() -> &'a [f32],
    start: u32,
    cfg: &ReaderConfig,
) -> Result<Axis, lattice::LatticeError> {
    lattice::axis(counted, start, cfg).or_else(|_| lattice::axis(summed(), start, cfg))
}

/// Why [`lattice_of`] found no lattice: the refusal, and where one axis repeats and the
/// other shows no period (no hint giving the rows or columns), the lattices [`one_axis`]
/// reads on instead.
struct NoLattice {
    refusal: ReadError,
    one_axis: Vec<(Axis, Axis)>,
}

/// The lattice of a window: from hints where they fix it, else from the edge profiles.
fn lattice_of(
    frame: &RgbaImage,
    window: (u32, u32, u32, u32),
    hints: &Hints,
    cfg: &ReaderConfig,
) -> Result<(Axis, Axis), NoLattice> {
    let prof = line_profiles(frame, window, cfg.edge_min);
    let fixed = |len: u32, start: u32, n: Option<usize>| -> Option<Axis> {
        let n = n?;
        hints.region?;
        Some(Axis {
            pitch: len as f32 / n as f32,
            phase: start as f32,
            strength: 1.0,
        })
    };
    let summed = std::cell::OnceCell::new();
    let sums = || summed.get_or_init(|| edge_profiles(frame, window));
    let x = match fixed(window.2, window.0, hints.cols) {
        Some(a) => Ok(a),
        None => axis_from(&prof.cols, || &sums().cols, window.0, cfg),
    };
    let y = match fixed(window.3, window.1, hints.rows) {
        Some(a) => Ok(a),
        None => axis_from(&prof.rows, || &sums().rows, window.1, cfg),
    };
    // Where one axis repeats and the other shows no period, the weak axis's candidates in
    // the tile-shaped range of the other's pitch.
    let free = hints.rows.is_none() && hints.cols.is_none();
    let range = |p: f32| (p / cfg.max_cell_aspect, p * cfg.max_cell_aspect);
    let n = cfg.one_axis_candidates;
    let refused = |refusal: String, one_axis: Vec<(Axis, Axis)>| NoLattice {
        refusal: ReadError::NoBoard(refusal),
        one_axis,
    };
    let (x, y) = match (x, y) {
        (Ok(x), Ok(y)) => (x, y),
        (Err(e), y) => {
            let one_axis = match y {
                Ok(y) if free && e == LatticeError::NotPeriodic => {
                    lattice::candidates(&prof.cols, window.0, range(y.pitch), y.pitch, n, cfg)
                        .into_iter()
                        .map(|x| (x, y))
                        .collect()
                }
                _ => Vec::new(),
            };
            let refusal = format!("no cell lattice across the frame: {e:?}");
            return Err(refused(refusal, one_axis));
        }
        (Ok(x), Err(e)) => {
            let one_axis = if free && e == LatticeError::NotPeriodic {
                lattice::candidates(&prof.rows, window.1, range(x.pitch), x.pitch, n, cfg)
                    .into_iter()
                    .map(|y| (x, y))
                    .collect()
            } else {
                Vec::new()
            };
            let refusal = format!("no cell lattice down the frame: {e:?}");
            return Err(refused(refusal, one_axis));
        }
    };
    // A cell far longer one way than the other: the longer axis found a multiple of the
    // cells' pitch. It is divided by the least divisor that makes the cells cell-shaped and
    // at which its profile still repeats; an axis a hint fixes stays.
    let long = |a: f32, b: f32| a > b * cfg.max_cell_aspect;
    let shaped = |a: f32, b: f32| !long(a, b) && !long(b, a);
    let (mut x, mut y) = (x, y);
    if long(x.pitch, y.pitch) && fixed(window.2, window.0, hints.cols).is_none() {
        if let Some(d) = lattice::divided(&prof.cols, window.0, &x, |p| shaped(p, y.pitch), cfg) {
            x = d;
        }
    }
    if long(y.pitch, x.pitch) && fixed(window.3, window.1, hints.rows).is_none() {
        if let Some(d) = lattice::divided(&prof.rows, window.1, &y, |p| shaped(p, x.pitch), cfg) {
            y = d;
        }
    }
    // Still too long: the shorter axis found a divisor of its cells' pitch (a texture
    // ruled across every face); it is multiplied to the multiple that makes the cells
    // cell-shaped and combs best.
    if long(x.pitch, y.pitch) && fixed(window.3, window.1, hints.rows).is_none() {
        if let Some(m) = lattice::multiplied(&prof.rows, window.1, &y, |p| shaped(x.pitch, p), cfg)
        {
            y = m;
        }
    }
    if long(y.pitch, x.pitch) && fixed(window.2, window.0, hints.cols).is_none() {
        if let Some(m) = lattice::multiplied(&prof.cols, window.0, &x, |p| shaped(p, y.pitch), cfg)
        {
            x = m;
        }
    }
    Ok((x, y))
}

/// Finds the board in `frame` and reads it; a frame with a link line drawn across the board
/// is refused as an animation.
pub fn read_board(
    frame: &RgbaImage,
    hints: &Hints,
    cfg: &ReaderConfig,
) -> Result<Reading, ReadError> {
    let reading = locate_and_read(frame, hints, cfg)?;
    // A removal in progress: the line crosses tiles and empty cells, which then read as
    // pictures without a twin, or as tiles where it crosses the ground.
    animation::check_link_line(frame, &reading.grid)?;
    Ok(reading)
}

/// [`read_board`] without the link-line check.
pub(crate) fn locate_and_read(
    frame: &RgbaImage,
    hints: &Hints,
    cfg: &ReaderConfig,
) -> Result<Reading, ReadError> {
    let reading = search(frame, hints, cfg)?;
    // Checked on the board the search settled on, not on each lattice and window it weighed:
    // a part of a board can show one picture and lose to the whole.
    if hints.rows.is_none() && hints.cols.is_none() {
        judge_types(&reading, cfg)?;
    }
    Ok(reading)
}

/// The board the search over lattices and windows settles on, before the checks on the
/// whole.
fn search(frame: &RgbaImage, hints: &Hints, cfg: &ReaderConfig) -> Result<Reading, ReadError> {
    let (fw, fh) = frame.dimensions();
    let window = match hints.region {
        Some((x, y, w, h)) => {
            if w == 0 || h == 0 || x.saturating_add(w) > fw || y.saturating_add(h) > fh {
                return Err(ReadError::Invalid(format!(
                    "region {x},{y},{w},{h} is not inside the {fw}x{fh} frame"
                )));
            }
            (x, y, w, h)
        }
        None => (0, 0, fw, fh),
    };
    if (window.2 as f32) < 2.0 * cfg.min_pitch || (window.3 as f32) < 2.0 * cfg.min_pitch {
        return Err(ReadError::NoBoard(format!(
            "the frame is {}x{} px, too small to hold a board",
            window.2, window.3
        )));
    }
    let integral = Integral::new(
        frame,
        window.0 as i64,
        window.1 as i64,
        window.2 as i64,
        window.3 as i64,
    );
    let (x, y) = match lattice_of(frame, window, hints, cfg) {
        Ok(axes) => axes,
        Err(no) => {
            return one_axis(frame, &integral, window, no.one_axis, hints, cfg).ok_or(no.refusal)
        }
    };
    match read_on_lattice(frame, &integral, window, (x, y), hints, cfg) {
        Err(e) if !matches!(e, ReadError::Invalid(_)) || too_many_pictures(&e) => {
            coarser(frame, &integral, window, (x, y), hints, cfg).ok_or(e)
        }
        r => r,
    }
}

/// Where one axis of the window shows a period and the other none (and no hint gives the
/// rows or columns): the reading on one of `lattices` ([`lattice_of`]'s: the first axis
/// with each of the second's [`lattice::candidates`]) that make tile-shaped cells
/// ([`super::grid::tile_shaped`]). A few rows of tiles in a tall phone frame full of chrome
/// repeat too weakly to stand out over every lag, though the columns do, and their weak
/// peak locates the pitch only to about a pixel: the twins refine it within
/// [`ReaderConfig::one_axis_pitch_px`]. A lattice one axis alone vouches for must show
/// [`ReaderConfig::one_axis_min_types`] types. The twins choose among the lattices: the
/// least doubt, then the fewest types (a pitch that lines twins up joins their pictures; a
/// pixel off, far twins part into two types of a pair each), then the most tiles.
fn one_axis(
    frame: &RgbaImage,
    integral: &Integral,
    window: (u32, u32, u32, u32),
    lattices: Vec<(Axis, Axis)>,
    hints: &Hints,
    cfg: &ReaderConfig,
) -> Option<Reading> {
    let rank = |r: &Reading| {
        (
            doubt(r),
            r.board.type_counts().len(),
            std::cmp::Reverse(r.board.tile_count()),
        )
    };
    lattices
        .into_iter()
        .filter(|(x, y)| super::grid::tile_shaped(x.pitch, y.pitch))
        .filter_map(|(x, y)| {
            // The twins refine the pitches over a wider span than a clear period needs.
            let span = cfg.one_axis_pitch_px / x.pitch.min(y.pitch);
            let wide = ReaderConfig {
                pitch_search: cfg.pitch_search.max(span),
                ..cfg.clone()
            };
            read_on_lattice(frame, integral, window, (x, y), hints, &wide)
                .ok()
                .filter(|r| r.board.type_counts().len() >= cfg.one_axis_min_types)
        })
        .min_by_key(|r| rank(r))
}

/// Whether a refusal says the cells held more pictures than a board can name.
fn too_many_pictures(e: &ReadError) -> bool {
    matches!(e, ReadError::Invalid(m) if m.ends_with(board::TOO_MANY_PICTURES))
}

/// The reading on a lattice a whole multiple (up to [`ReaderConfig::lattice_multiple_max`])
/// of `found`'s on an axis no hint fixes, of tile-shaped cells, where one reads: the
/// profiles can take the period of strokes inside the tiles (a symbol drawn in three
/// bands, a face split by a bevel) for the cells', and on such a lattice the cells hold
/// parts of tiles, too many pictures, few of them twins. Of the lattices that read, the
/// one with the least doubt, then the most tiles.
fn coarser(
    frame: &RgbaImage,
    integral: &Integral,
    window: (u32, u32, u32, u32),
    (x, y): (Axis, Axis),
    hints: &Hints,
    cfg: &ReaderConfig,
) -> Option<Reading> {
    let n = cfg.lattice_multiple_max;
    let free = |hinted: Option<usize>| if hinted.is_some() { 1 } else { n };
    let mut best: Option<Reading> = None;
    for mx in 1..=free(hints.cols) {
        for my in 1..=free(hints.rows) {
            let (px, py) = (x.pitch * mx as f32, y.pitch * my as f32);
            if (mx, my) == (1, 1) || !super::grid::tile_shaped(px, py) || px.max(py) > cfg.max_pitch
            {
                continue;
            }
            let at = |a: Axis, pitch: f32| Axis { pitch, ..a };
            let Ok(r) =
                read_on_lattice(frame, integral, window, (at(x, px), at(y, py)), hints, cfg)
            else {
                continue;
            };
            let better = best.as_ref().is_none_or(|b| {
                (doubt(&r), std::cmp::Reverse(r.board.tile_count()))
                    < (doubt(b), std::cmp::Reverse(b.board.tile_count()))
            });
            if better {
                best = Some(r);
            }
        }
    }
    best
}

/// [`locate_and_read`] on the lattice `(x, y)`: the phase, the board's extent, its cells.
fn read_on_lattice(
    frame: &RgbaImage,
    integral: &Integral,
    window: (u32, u32, u32, u32),
    (x, y): (Axis, Axis),
    hints: &Hints,
    cfg: &ReaderConfig,
) -> Result<Reading, ReadError> {
    let mut sheet = Sheet::new(integral, x, y, window, cfg);
    if sheet.rows == 0 || sheet.cols == 0 {
        return Err(ReadError::NoBoard("no whole cell fits the frame".into()));
    }
    let mut ground = ring_ground(&sheet, cfg)
        .ok_or_else(|| ReadError::NoBoard("no ground around the frame".into()))?;
    // Without hints, the part of the window around what lies clearly off the ground, where
    // that ground is calm: a busy one can be learnt from a ring that lies on tiles (see
    // below), and holds them.
    let window = if hints.region.is_none()
        && hints.rows.is_none()
        && hints.cols.is_none()
        && ground.spread_max <= cfg.busy_ground_spread
    {
        let part = sheet.around_busy(&ground, window, cfg.extent_margin, cfg);
        if part != window {
            sheet = Sheet::new(integral, x, y, part, cfg);
        }
        part
    } else {
        window
    };
    let mut seen = None;
    if hints.region.is_none() || hints.rows.is_none() || hints.cols.is_none() {
        sheet = rephased(integral, sheet, window, &ground, cfg);
        // The ring of a lattice off the tiles' phase straddles tiles and ground: on a board
        // that runs to within a pitch of the window's sides, its commonest cells are as
        // busy as tile faces. Such a ground is learnt again on the phased ring (when that
        // one is calmer), the phase found again with it, and the pair kept under which
        // more cells find a twin (a busy ground can be a textured one, rightly learnt).
        // Where the phased ring still lies half on light faces the colour of a light
        // ground, the ground learnt from the ring's calm cells alone is tried the same way.
        if ground.spread_max > cfg.busy_ground_spread {
            let pairs = |sh: &Sheet, gr: &Ground| {
                seen_on(sh, gr, cfg)
                    .iter()
                    .filter(|s| matches!(s, Seen::Paired(_)))
                    .count()
            };
            let tries = [ring_ground(&sheet, cfg), calm_ring_ground(&sheet, cfg)];
            let mut best = (pairs(&sheet, &ground), ground, sheet.clone());
            for g in tries
                .into_iter()
                .flatten()
                .filter(|g| g.spread_max < ground.spread_max)
            {
                let again = rephased(integral, sheet.clone(), window, &g, cfg);
                let n = pairs(&again, &g);
                if n > best.0 {
                    best = (n, g, again);
                }
            }
            (_, ground, sheet) = best;
        }
        // The pitch from the profiles can be a few tenths of a pixel off, which shifts far
        // twins apart by a pixel or more; the twins themselves say where it lies.
        let (x2, y2) = refine_pitch(integral, &sheet, &ground, cfg);
        if x2 != sheet.x || y2 != sheet.y {
            sheet = Sheet::new(integral, x2, y2, window, cfg);
            sheet = rephased(integral, sheet, window, &ground, cfg);
        }
        // The twins' phase against the profiles' (the profiles' line nearest the window's
        // middle kept, on the twins' pitch): the profiles' where it leaves
        // [`ReaderConfig::phase_lone_margin`] fewer pictures without a twin. The twins'
        // sweep settles in the middle of a plateau of shifts where twins still match; on
        // boards with gaps or a band of one colour round every face that
        // plateau reaches past the tiles' lines, and its middle can lie a quarter to half
        // a pitch off them while the profiles' strongest lines sit on the gaps (measured
        // on 400 rendered boards: 46 refused as pictures without a twin, the profiles'
        // phase within 8 % of the tiles on 17 of 18 looked at). Where the profiles' phase is
        // off instead (3-D tiles, a photo ground), its cells straddle tiles and more of
        // them find no twin.
        let at_profiles = Sheet::new(
            integral,
            on_line(sheet.x, x, window.0 as f32 + window.2 as f32 / 2.0),
            on_line(sheet.y, y, window.1 as f32 + window.3 as f32 / 2.0),
            window,
            cfg,
        );
        let lone = |seen: &[Seen]| seen.iter().filter(|s| matches!(s, Seen::Lone)).count();
        let on_twins = seen_on(&sheet, &ground, cfg);
        let on_profiles = seen_on(&at_profiles, &ground, cfg);
        seen = Some(
            if lone(&on_profiles) + cfg.phase_lone_margin <= lone(&on_twins) {
                sheet = at_profiles;
                on_profiles
            } else {
                on_twins
            },
        );
    }
    // What the sheet's cells show; seen above already where the phase was chosen.
    let seen = seen.unwrap_or_else(|| seen_on(&sheet, &ground, cfg));
    let paired: Vec<bool> = seen.iter().map(|s| matches!(s, Seen::Paired(_))).collect();
    let rect = match (hints.rows, hints.cols) {
        (Some(r), Some(c)) => {
            best_window(&paired, sheet.rows, sheet.cols, r, c).ok_or_else(|| {
                ReadError::Invalid(format!(
                "a {r}x{c} board does not fit the {}x{} cells of pitch {:.1}x{:.1} in the frame",
                sheet.rows, sheet.cols, sheet.x.pitch, sheet.y.pitch
            ))
            })?
        }
        _ => {
            let mut rect = main_cluster(&paired, sheet.rows, sheet.cols, 1).ok_or_else(|| {
                ReadError::NoBoard(format!(
                    "no pictures that come in pairs on the {}x{} lattice",
                    sheet.rows, sheet.cols
                ))
            })?;
            let (inside, outside) = marked_inside(&paired, sheet.cols, &rect);
            if inside as f32 <= cfg.board_pair_share * (inside + outside) as f32 {
                return Err(ReadError::NoBoard(format!(
                    "the pictures that pair lie mostly outside the {}x{} board found: {inside} \
                     of {} on the lattice of pitch {:.1}x{:.1}",
                    rect.rows(),
                    rect.cols(),
                    inside + outside,
                    sheet.x.pitch,
                    sheet.y.pitch
                )));
            }
            // One hinted axis: the window of that length holding the most paired cells.
            if let Some(r) = hints.rows {
                let w = best_window(&paired, sheet.rows, sheet.cols, r, rect.cols());
                rect = w
                    .map(|w| CellRect {
                        c0: rect.c0,
                        c1: rect.c1,
                        ..w
                    })
                    .unwrap_or(rect);
            }
            if let Some(c) = hints.cols {
                let w = best_window(&paired, sheet.rows, sheet.cols, rect.rows(), c);
                rect = w
                    .map(|w| CellRect {
                        r0: rect.r0,
                        r1: rect.r1,
                        ..w
                    })
                    .unwrap_or(rect);
            }
            rect
        }
    };
    let (ox, oy, _, _) = sheet.rect(rect.r0, rect.c0);
    let grid = Grid {
        origin: (ox, oy),
        pitch: (sheet.x.pitch, sheet.y.pitch),
        rows: rect.rows(),
        cols: rect.cols(),
    };
    let (reading, tally) = read_unjudged(frame, &grid, cfg, Found::InFrame, None)?;
    // The grid of whole tiles where `reading`'s cells are parts of tiles (on an axis no
    // hint fixes), tile-shaped.
    let whole_tiles = |reading: &Reading| {
        halves::merged_parts(&reading.grid, &reading.board, 3, cfg).filter(|g| {
            (hints.cols.is_none() || g.cols == reading.grid.cols)
                && (hints.rows.is_none() || g.rows == reading.grid.rows)
                && super::grid::tile_shaped(g.pitch.0, g.pitch.1)
        })
    };
    let (reading, tally) = match trimmed_extent(&reading, hints) {
        None => match judge(&tally, cfg) {
            Ok(()) => (reading, tally),
            // On a lattice that cuts every tile into parts, a few parts can read without
            // a twin (cut by the frame, or by a selection's tint) and the frame is refused
            // as it stands; where the parts bind into tiles, the tiles are read instead.
            Err(e) => match whole_tiles(&reading) {
                Some(g) => {
                    read_known_tallied(frame, &g, cfg, Found::InFrame, None).map_err(|_| e)?
                }
                None => return Err(e),
            },
        },
        Some((rows, cols)) => {
            // Read on the smaller grid, the ring around it is other cells, and the ground
            // learnt there can show more edge lines bare: trimmed again while they do.
            let mut sub = grid.sub(rows, cols);
            let mut r = read_known_tallied(frame, &sub, cfg, Found::InFrame, None)?;
            for _ in 0..cfg.extent_trims {
                let Some((rows, cols)) = trimmed_extent(&r.0, hints) else {
                    break;
                };
                sub = sub.sub(rows, cols);
                r = read_known_tallied(frame, &sub, cfg, Found::InFrame, None)?;
            }
            r
        }
    };
    // A lattice at half the tiles' pitch reads each tile as two cells whose pictures stay
    // together; at twice the pitch, on an axis no hint fixes, the cells read whole. Kept
    // when the cells are tile-shaped and read with no more doubt.
    let (reading, tally) = match whole_tiles(&reading) {
        Some(g) => match read_known_tallied(frame, &g, cfg, Found::InFrame, None) {
            Ok(whole) if doubt(&whole.0) <= doubt(&reading) => whole,
            _ => (reading, tally),
        },
        None => (reading, tally),
    };
    let reading = grown_over_framed_lines(frame, reading, tally, hints, cfg);
    Ok(calibrated(frame, reading, cfg))
}

/// The reading with the lines beside its board taken in where they hold tiles: the
/// extent is found on the lattice's sheet of whole cells, whose outer ring is the ground
/// it learns, so a board that runs to within a pitch of the window's side has its first
/// line on that ring, and a type whose tiles all lie there (a column's last pair) is taken
/// for ground, a sure reading a line short. A side is tried where a cell of its line
/// (read as the ring around the board) shows the frame the tiles share
/// ([`Tally::ring_framed`]) and the line lies inside the window; the grown grid is kept
/// when it reads with confidence (nothing unsure, every type even), no more doubt, a tile
/// on the new line, and no type on it with more tiles than the board's widest type (tiles
/// are dealt a few of a type; a row of the tiles' 3-D sides reads as one type filling the
/// line), as the live bot grows its locked grid. An axis a hint fixes keeps its lines.
fn grown_over_framed_lines(
    frame: &RgbaImage,
    mut reading: Reading,
    mut tally: Tally,
    hints: &Hints,
    cfg: &ReaderConfig,
) -> Reading {
    let (w, h) = frame.dimensions();
    let widest = reading.board.type_counts().into_values().max().unwrap_or(0);
    for _ in 0..Side::ALL.len() {
        let mut grew = false;
        for (k, side) in Side::ALL.into_iter().enumerate() {
            let fixed = match side {
                Side::Top | Side::Bottom => hints.rows.is_some(),
                Side::Left | Side::Right => hints.cols.is_some(),
            };
            if !tally.ring_framed[k] || fixed {
                continue;
            }
            let Some(g) = reading.grid.grown(side, w, h) else {
                continue;
            };
            let Ok((seen, t)) = read_known_tallied(frame, &g, cfg, Found::InFrame, None) else {
                continue;
            };
            let line = reading.grid.new_line(side);
            let on_grid = (seen.board.rows(), seen.board.cols()) == (g.rows, g.cols);
            if on_grid
                && super::is_sure(&seen)
                && doubt(&seen) <= doubt(&reading)
                && line.iter().any(|&p| seen.board.get(p).is_tile())
                && seen.board.widest_type_on(&line) <= widest
            {
                reading = seen;
                tally = t;
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    reading
}

/// The board's extent without the edge lines that show none of it, when there are any:
/// `None` when every edge line stays. An edge line that holds no tile with a twin shows no
/// board. Read all empty, it is a row of look-alike 3-D sides or shadows that paired into
/// the extent; holding lone pictures besides (unsure obstacles: no twin, no type), it is
/// the tiles' 3-D side over a photo ground whose leaves match no ground cell. A 3-D side
/// is one line deep, so one such line goes per side, and only when every one of the
/// reading's lone pictures goes with them: a lone picture left on the board says it is
/// being redrawn, and the verdict on the rest should see it. An axis a hint fixes keeps
/// its lines.
fn trimmed_extent(
    reading: &Reading,
    hints: &Hints,
) -> Option<(std::ops::Range<usize>, std::ops::Range<usize>)> {
    let board = &reading.board;
    let empty = |p: Pos| board.get(p) == Cell::Empty;
    let lone = |p: Pos| board.get(p) == Cell::Obstacle && reading.unsure.contains(&p);
    // Edge lines all empty, then (when `sides` allows) one more per side that holds
    // nothing but empty cells and lone pictures.
    let trim = |sides: bool| {
        let (mut t, mut b, mut l, mut r) = (0usize, board.rows(), 0usize, board.cols());
        let row = |row: usize, l: usize, r: usize| (l..r).map(|c| Pos::new(row, c)).collect();
        let col = |col: usize, t: usize, b: usize| (t..b).map(|rr| Pos::new(rr, col)).collect();
        let mut side_left = [sides; 4];
        let mut goes = |cells: Vec<Pos>, side: usize| {
            if cells.iter().all(|&p| empty(p)) {
                return true;
            }
            let bare = side_left[side] && cells.iter().all(|&p| empty(p) || lone(p));
            side_left[side] &= !bare;
            bare
        };
        if hints.rows.is_none() {
            while b > t + 1 && goes(row(t, l, r), 0) {
                t += 1;
            }
            while b > t + 1 && goes(row(b - 1, l, r), 1) {
                b -= 1;
            }
        }
        if hints.cols.is_none() {
            while r > l + 1 && goes(col(l, t, b), 2) {
                l += 1;
            }
            while r > l + 1 && goes(col(r - 1, t, b), 3) {
                r -= 1;
            }
        }
        (t..b, l..r)
    };
    let whole = (0..board.rows(), 0..board.cols());
    let bare = trim(true);
    let keeps_no_lone = board
        .positions()
        .filter(|&p| lone(p))
        .all(|p| !bare.0.contains(&p.row) || !bare.1.contains(&p.col));
    let cut = if keeps_no_lone { bare } else { trim(false) };
    (cut != whole).then_some(cut)
}

/// Cells a reading is not sure of: unsure ones, and selected ones (a tile out of line
/// with its twins reads as a selection).
fn doubt(r: &Reading) -> usize {
    r.unsure.len() + r.selected.len()
}

/// The reading on the grid whose pitch its own pairs measure ([`calibrate::refine_pitch`]:
/// twins overlaid pixel by pixel, a least-squares fit over them), when the cells read there
/// with no more doubt (unsure or selected cells; a tile a hundredth of a pixel per column
/// out of line can part from its twin far across the board and read as a selection) and
/// in no more types: a pitch that lines twins up joins their pictures, and one that parts a
/// type in two (its tiles at the board's two ends now a fifth of a pixel out of line, sharp
/// strokes a picture distance of 7 apart) is further from the tiles' own. Measured on a
/// tile set drawn edge to edge whose sprites' rounded corners show the ground behind them:
/// the fit moved a pitch 0.009 px long to 0.016 px short and split a type of four.
fn calibrated(frame: &RgbaImage, reading: Reading, cfg: &ReaderConfig) -> Reading {
    let types = |r: &Reading| r.board.type_counts().len();
    match calibrate::refine_pitch(frame, &reading, calibrate::Least::Drift)
        .and_then(|g| read_known(frame, &g, cfg, Found::InFrame, None).ok())
    {
        Some(better) if doubt(&better) <= doubt(&reading) && types(&better) <= types(&reading) => {
            better
        }
        _ => reading,
    }
}

/// Reads the cells of a known grid: its tiles, empties, obstacles and selected tiles, with
/// the ground learnt from the ring of cells around it. No link-line check here while some
/// pictures pair: on a locked grid whose top rows a game has emptied, the empty row's
/// centre line runs thin and even between the tiles below and the window's chrome above,
/// which the check takes for a link line (on a recorded KShisen game it refuses 60 frames
/// that way). Where nothing pairs (the last pair, perhaps under its line) it runs.
pub fn read_grid(frame: &RgbaImage, grid: &Grid, cfg: &ReaderConfig) -> Result<Reading, ReadError> {
    // A locked grid needs no tiles to be believed: the last pair, or a cleared board.
    read_known(frame, grid, cfg, Found::Given, None)
}

/// [`read_grid`], where the cells that show the ground `memory` remembers for them (on the
/// same grid) are ground whatever else they look like ([`GroundMemory`]): the cells a game
/// emptied, whose photo or gradient pieces the frame alone can take for pictures.
pub fn read_grid_remembering(
    frame: &RgbaImage,
    grid: &Grid,
    memory: &GroundMemory,
    cfg: &ReaderConfig,
) -> Result<Reading, ReadError> {
    let memory = (memory.grid() == grid).then_some(memory);
    read_known(frame, grid, cfg, Found::Given, memory)
}

/// Where the grid [`read_known`] reads came from.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Found {
    /// Found from this frame: a board needs [`ReaderConfig::min_tiles`], and lone pictures
    /// the ground runs into are ground ([`ground_runs_on`]).
    InFrame,
    /// Given (the live bot's locked grid): any number of tiles is a board, and lone
    /// pictures stand. No link-line check runs on a given grid, and a removal's line drawn
    /// over emptied cells leaves them lone pictures the ground runs into: taken for ground,
    /// a frame with a line would read as a board (measured on a recorded KShisen game).
    /// They stay unsure cells of the reading, and pictures without a twin do not refuse
    /// the frame: the caller knows which cells it saw empty.
    Given,
}

/// [`read_grid`], for a grid found from the frame or given.
fn read_known(
    frame: &RgbaImage,
    grid: &Grid,
    cfg: &ReaderConfig,
    found: Found,
    memory: Option<&GroundMemory>,
) -> Result<Reading, ReadError> {
    read_known_tallied(frame, grid, cfg, found, memory).map(|(reading, _)| reading)
}

/// [`read_known`], with the tally the verdict was given.
fn read_known_tallied(
    frame: &RgbaImage,
    grid: &Grid,
    cfg: &ReaderConfig,
    found: Found,
    memory: Option<&GroundMemory>,
) -> Result<(Reading, Tally), ReadError> {
    let (reading, tally) = read_unjudged(frame, grid, cfg, found, memory)?;
    let min_tiles = match found {
        Found::InFrame => cfg.min_tiles,
        Found::Given => 0,
    };
    match judge(
        &tally,
        &ReaderConfig {
            min_tiles,
            ..cfg.clone()
        },
    ) {
        // On a given grid the caller knows the board it played: the cells without a twin
        // are in the reading's unsure list, for it to weigh against what it knows (a cell
        // it saw empty stays empty; a link line and a falling tile cross only such cells
        // and the pair's own), rather than the whole frame refused. Not when most pictures
        // have no twin: the last pair, one of it tinted by a selection, reads as two
        // pictures without a twin, taken for stones on the pair's own cells that the
        // caller can empty as predicted, counting a pair the game never took.
        Err(ReadError::Animation(_)) if found == Found::Given => {}
        verdict => verdict?,
    }
    Ok((reading, tally))
}

/// The cells of a known grid and what they came to, before the verdict on them.
fn read_unjudged(
    frame: &RgbaImage,
    grid: &Grid,
    cfg: &ReaderConfig,
    found: Found,
    memory: Option<&GroundMemory>,
) -> Result<(Reading, Tally), ReadError> {
    let (fw, fh) = frame.dimensions();
    let (bx, by, bw, bh) = grid.bounds();
    if grid.rows == 0
        || grid.cols == 0
        || !(grid.pitch.0 > 1.0 && grid.pitch.1 > 1.0)
        || clipped((bx, by, bw, bh), (fw, fh), GRID_OVERRUN).is_none()
    {
        return Err(ReadError::Invalid(format!(
            "the {}x{} grid at ({:.1}, {:.1}) pitch {:.1}x{:.1} is not inside the {fw}x{fh} frame",
            grid.rows, grid.cols, grid.origin.0, grid.origin.1, grid.pitch.0, grid.pitch.1
        )));
    }
    // The board and a ring of one cell around it, where the frame has one.
    let integral = Integral::new(
        frame,
        (bx - grid.pitch.0).floor() as i64,
        (by - grid.pitch.1).floor() as i64,
        (bw + 2.0 * grid.pitch.0).ceil() as i64 + 1,
        (bh + 2.0 * grid.pitch.1).ceil() as i64 + 1,
    );
    let (rows, cols) = (grid.rows + 2, grid.cols + 2);
    let rect = |r: usize, c: usize| grid.cell_rect(r as i32 - 1, c as i32 - 1);
    let ring_idx = ring(rows, cols);
    // A board cell is described whole; one past the frame by the overrun the grid may
    // have is cut to the frame. On a grid found in the frame, a ring cell is described by
    // its part inside the frame when that is at least [`ReaderConfig::ring_min_inside`] of
    // it: a board whose margin is narrower than a pitch puts the ring's side cells partly
    // past the window's edge, and without them the ring keeps only the window's toolbar
    // or status bar, whose colour is then taken for the ground's. Not on a given grid (a
    // live game's): there the frames include a removal's link line, which this reader
    // looks for only where no two pictures pair, and the cleaner ground learnt from the
    // wider ring leaves emptied cells under one leg of a line unlike it, so they pair as a
    // type.
    let ring_slack = match found {
        Found::InFrame => (
            grid.pitch.0 * (1.0 - cfg.ring_min_inside),
            grid.pitch.1 * (1.0 - cfg.ring_min_inside),
        ),
        Found::Given => GRID_OVERRUN,
    };
    let pics: Vec<Option<Picture>> = (0..rows * cols)
        .map(|i| {
            let on_ring = ring_idx.binary_search(&i).is_ok();
            let slack = if on_ring { ring_slack } else { GRID_OVERRUN };
            describe(
                &integral,
                clipped(rect(i / cols, i % cols), (fw, fh), slack)?,
                cfg,
            )
        })
        .collect();
    let ring_pics: Vec<&Picture> = ring_idx.iter().filter_map(|&i| pics[i].as_ref()).collect();
    let inside = |i: usize| {
        let (r, c) = (i / cols, i % cols);
        r >= 1 && c >= 1 && r <= grid.rows && c <= grid.cols
    };
    // With no ring (a board at the frame's edge) the ground is what most flat board cells
    // look like; a full board then has none, which is right.
    let ground = Ground::from_cells(&ring_pics, cfg).or_else(|| {
        let flat: Vec<&Picture> = (0..rows * cols)
            .filter(|&i| inside(i))
            .filter_map(|i| pics[i].as_ref())
            .filter(|p| p.spread <= cfg.flat_spread)
            .collect();
        Ground::from_cells(&flat, cfg)
    });
    let ground = ground.unwrap_or(Ground {
        colour: [-1000.0; 3],
        colour_tol: 0.0,
        spread_max: -1000.0,
    });
    let Sight {
        mut seen,
        mut framed,
        ground_faced,
        tile_framed,
        ring_framed,
        strangers,
    } = look(&pics, cols, &ground, &ring_idx, found == Found::Given, cfg);
    // Lone pictures with neither the tiles' frame nor a type's shape are ground unless
    // they show the tiles' face, pixel by pixel: a symbol that runs to its tile's edges
    // hides the frame and leaves the face between its strokes
    // ([`ReaderConfig::contested_face_share`]), and its twin can lie past the extent. Not
    // where they are as many as the verdict takes for pictures that do not come in pairs
    // ([`ReaderConfig::max_unpaired_share`] of the board's pictures): a few tiles amid
    // more patches of a photo are thin evidence of the lattice they were found on.
    let pictures = (0..rows * cols)
        .filter(|&i| inside(i) && seen[i] != Seen::Ground)
        .count();
    if !strangers.is_empty() && strangers.len() as f32 <= cfg.max_unpaired_share * pictures as f32 {
        let tiles: Vec<_> = (0..rows * cols)
            .filter(|&i| inside(i) && matches!(seen[i], Seen::Paired(_)))
            .map(|i| rect(i / cols, i % cols))
            .collect();
        let face = (tiles.len() >= 4)
            .then(|| face::face_colour(frame, &tiles, cfg.inset))
            .flatten();
        for i in strangers {
            let shows_face = face.is_none_or(|face| {
                let rect = rect(i / cols, i % cols);
                face::face_share(frame, rect, cfg.inset, face, cfg.face_pixel_tol)
                    .is_none_or(|s| s >= cfg.contested_face_share)
            });
            if !shows_face && seen[i] == Seen::Lone {
                seen[i] = Seen::Ground;
            }
        }
    }
    // Cells showing the ground remembered for them are ground, whatever they matched.
    if let Some(m) = memory {
        for i in (0..rows * cols).filter(|&i| inside(i)) {
            let p = Pos::new(i / cols - 1, i % cols - 1);
            if pics[i].as_ref().is_some_and(|pic| m.shows(p, pic, cfg)) {
                seen[i] = Seen::Ground;
                framed[i] = false;
            }
        }
    }
    settle_ground(
        &integral,
        &pics,
        (rows, cols),
        &rect,
        &mut seen,
        &framed,
        cfg,
    );
    ground_runs_on(
        &pics,
        (rows, cols),
        &mut seen,
        &tile_framed,
        found == Found::InFrame,
        cfg,
    );
    let stippled = read_stipples(frame, &pics, cols, &rect, &mut seen, inside, cfg);
    // On a given grid where no two pictures pair, the pictures left are the last tiles,
    // or the last pair under its removal's link line with the emptied cells the line runs
    // over: two and two alike, with no type to tell tiles from line. The line is looked
    // for here only: with tiles left to pair, an emptied row's centre between the tiles
    // and the window's chrome can pass for one.
    let on_board = |i: usize| inside(i) && seen[i] != Seen::Ground;
    if found == Found::Given
        && (0..rows * cols).any(on_board)
        && (0..rows * cols).all(|i| !on_board(i) || seen[i] == Seen::Lone)
    {
        animation::check_link_line(frame, grid)?;
    }
    let sheet_like = SheetCells { rows, cols, pics };
    // Walls only where the grid was found: on a given grid the frame is one of a game in
    // progress, whose pair being removed is tinted and shows no face, as a stone shows none
    // (KShisen's last two of a type, highlighted under the link line); one frame cannot
    // tell them apart, and the live bot knows the obstacles from the board it locked on.
    let walls_on = found == Found::InFrame;
    let framed_ground: Vec<bool> = framed
        .iter()
        .zip(&ground_faced)
        .map(|(&f, &g)| f && g)
        .collect();
    let (reading, tally) = board_from(
        grid,
        &integral,
        frame,
        walls_on,
        &sheet_like,
        (&seen, &stippled),
        &framed_ground,
        inside,
        cfg,
    )?;
    Ok((
        reading,
        Tally {
            ring_framed,
            ..tally
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cell_past_the_frame_is_cut_to_it_within_the_slack() {
        let frame = (640, 464);
        let inside = (32.0, 66.0, 32.0, 40.0);
        assert_eq!(clipped(inside, frame, (0.5, 0.5)), Some(inside));
        // A hair past the left edge, within half a pixel: cut to the frame.
        assert_eq!(
            clipped((-0.02, 66.0, 32.0, 40.0), frame, (0.5, 0.5)),
            Some((0.0, 66.0, 31.98, 40.0))
        );
        let right = clipped((608.0, 66.0, 32.3, 40.0), frame, (0.5, 0.5)).unwrap();
        assert!((right.2 - 32.0).abs() < 1e-4);
        assert_eq!(clipped((-0.6, 66.0, 32.0, 40.0), frame, (0.5, 0.5)), None);
        // A ring cell with three quarters inside, under a slack of half a cell: its part
        // inside; one with a quarter inside: none.
        assert_eq!(
            clipped((-8.0, 66.0, 32.0, 40.0), frame, (16.0, 20.0)),
            Some((0.0, 66.0, 24.0, 40.0))
        );
        assert_eq!(
            clipped((32.0, 444.0, 32.0, 40.0), frame, (16.0, 20.0)),
            Some((32.0, 444.0, 32.0, 20.0))
        );
        assert_eq!(
            clipped((-24.0, 66.0, 32.0, 40.0), frame, (16.0, 20.0)),
            None
        );
    }

    /// A board whose margin is narrower than a pitch on three sides, under a grey bar, on
    /// a grid found in the frame: the ring's side and bottom cells, mostly inside the
    /// frame, are described by that part, so the ground learnt is the margin's and not the
    /// bar's.
    #[test]
    fn the_ring_takes_in_side_cells_partly_past_the_frame() {
        let cfg = ReaderConfig::default();
        // 4x6 tiles of pitch 40x50 at (20, 70) on a dark ground; a light bar above.
        let (w, h) = (20 + 6 * 40 + 20, 70 + 4 * 50 + 30);
        let mut img = RgbaImage::from_pixel(w, h, image::Rgba([60, 40, 10, 255]));
        for y in 0..50 {
            for x in 0..w {
                img.put_pixel(x, y, image::Rgba([235, 235, 235, 255]));
            }
        }
        let grid = Grid {
            origin: (20.0, 70.0),
            pitch: (40.0, 50.0),
            rows: 4,
            cols: 6,
        };
        // Pairs of two-tone faces, a symbol's colour per type; the top row's middle pair
        // emptied.
        for r in 0..4 {
            for c in 0..6 {
                if r == 0 && (c == 2 || c == 3) {
                    continue;
                }
                let t = (r * 6 + c) / 2;
                let sym = image::Rgba([(t * 37 % 200) as u8, (t * 91 % 200) as u8, 180, 255]);
                let (x0, y0) = (20 + c as u32 * 40, 70 + r as u32 * 50);
                for y in y0 + 2..y0 + 48 {
                    for x in x0 + 2..x0 + 38 {
                        let on = (x - x0) > 10 && (x - x0) < 28 && (y - y0) > 12 && (y - y0) < 36;
                        let px = if on {
                            sym
                        } else {
                            image::Rgba([230, 220, 200, 255])
                        };
                        img.put_pixel(x, y, px);
                    }
                }
            }
        }
        let (reading, _) = read_unjudged(&img, &grid, &cfg, Found::InFrame, None).unwrap();
        assert_eq!(reading.board.get(Pos::new(0, 2)), Cell::Empty);
        assert_eq!(reading.board.get(Pos::new(0, 3)), Cell::Empty);
        assert!(
            reading.unsure.is_empty(),
            "{:?}\n{}",
            reading.unsure,
            reading.board
        );
    }

    /// A 4x6 board of 40x48 cells at (40, 48) on a green ground: twelve types of pixel-art
    /// sprites (one-pixel detail), two tiles each, in a dark-bordered face; the cells of
    /// `stippled` covered through a black checkerboard, as X11 games draw a selection.
    fn stippled_board(stippled: &[(usize, usize)]) -> (RgbaImage, Grid) {
        let grid = Grid {
            origin: (40.0, 48.0),
            pitch: (40.0, 48.0),
            rows: 4,
            cols: 6,
        };
        let kind_at = |r: usize, c: usize| (r * 6 + c) % 12;
        let sprite = |x: u32, y: u32, kind: u32| {
            let coarse = ((x / 5 + (y / 6) * (kind % 5 + 2) + kind * 3) % 6) as u8 * 36;
            let v = coarse + ((x * 7 + y * 13 + kind) % 11) as u8 * 3;
            image::Rgba([v, 255 - v / 2, (v / 3) + (kind as u8 * 19), 255])
        };
        let img = RgbaImage::from_fn(320, 288, |x, y| {
            let (u, v) = (x as i64 - 40, y as i64 - 48);
            let (c, r) = (u.div_euclid(40), v.div_euclid(48));
            if !(0..6).contains(&c) || !(0..4).contains(&r) {
                return image::Rgba([30, 100, 40, 255]);
            }
            let (fx, fy) = (u.rem_euclid(40) as u32, v.rem_euclid(48) as u32);
            if !(2..38).contains(&fx) || !(2..46).contains(&fy) {
                return image::Rgba([30, 100, 40, 255]);
            }
            if fx == 2 || fx == 37 || fy == 2 || fy == 45 {
                return image::Rgba([20, 20, 20, 255]);
            }
            if stippled.contains(&(r as usize, c as usize)) && (x + y) % 2 == 0 {
                return image::Rgba([0, 0, 0, 255]);
            }
            sprite(fx, fy, kind_at(r as usize, c as usize) as u32)
        });
        (img, grid)
    }

    #[test]
    fn the_last_two_of_a_type_both_stippled_read_as_a_type_and_selected() {
        let cfg = ReaderConfig::default();
        let (plain, grid) = stippled_board(&[]);
        let base = read_grid(&plain, &grid, &cfg).unwrap();
        assert_eq!(base.board.tile_count(), 24);
        // Type 7 stands at (1, 1) and (3, 1).
        let pair = [(1, 1), (3, 1)];
        let (img, _) = stippled_board(&pair);
        let r = read_grid(&img, &grid, &cfg).unwrap();
        assert!(
            r.board.same_up_to_renaming(&base.board),
            "{:?}",
            r.board.row_strings()
        );
        let mut selected = r.selected.clone();
        selected.sort();
        assert_eq!(selected, vec![Pos::new(1, 1), Pos::new(3, 1)]);
    }

    #[test]
    fn a_stippled_tile_under_a_link_line_is_no_ground() {
        let cfg = ReaderConfig::default();
        // Type 7's tiles at (1, 1) and (3, 1) both stippled, and a removal's line (4 px,
        // blue) from (1, 1)'s centre out through its right edge, as X11 games draw it.
        let (mut img, grid) = stippled_board(&[(1, 1), (3, 1)]);
        let (cx, cy) = (40 + 40 + 20, 48 + 48 + 24);
        for y in cy - 2..cy + 2 {
            for x in cx..40 + 80 + 1 {
                img.put_pixel(x, y, image::Rgba([0, 0, 255, 255]));
            }
        }
        let r = read_grid(&img, &grid, &cfg).unwrap();
        let p = Pos::new(1, 1);
        assert!(
            r.board.get(p).is_tile() || r.unsure.contains(&p),
            "{:?} unsure {:?}",
            r.board.row_strings(),
            r.unsure
        );
    }
}

#[cfg(test)]
mod cell_tests {
    use super::ground_run::{ground_runs_into, lines_of_sides};
    use super::phase::refine_phase;
    use super::*;
    use crate::board::{type_char, Board};
    use crate::vision::pixels::colour_dist;
    use image::Rgba;

    /// Draws a 40 px tile at (x, y): a white border shared by every tile, and 8×8 blocks of
    /// colours drawn from `seed` inside; `tint` blends the whole tile towards yellow.
    fn tile(img: &mut RgbaImage, x: u32, y: u32, seed: u32, tint: bool) {
        tile_with(img, x, y, seed, tint, [240, 240, 230], None)
    }

    /// [`tile`] with the border's colour given, and a flat face of `blank` when given.
    fn tile_with(
        img: &mut RgbaImage,
        x: u32,
        y: u32,
        seed: u32,
        tint: bool,
        border: [u8; 3],
        blank: Option<[u8; 3]>,
    ) {
        let mut s = seed.wrapping_mul(2654435761).wrapping_add(12345);
        let mut rnd = || {
            s = s.wrapping_mul(1664525).wrapping_add(1013904223);
            (s >> 24) as u8
        };
        let blocks: Vec<[u8; 3]> = (0..64).map(|_| [rnd(), rnd(), rnd()]).collect();
        for dy in 0..40 {
            for dx in 0..40 {
                let c = if dx < 4 || dy < 4 || dx >= 36 || dy >= 36 {
                    border
                } else {
                    blank.unwrap_or(blocks[((dy - 4) / 4 % 8 * 8 + (dx - 4) / 4 % 8) as usize])
                };
                let c = if tint { tinted(c) } else { c };
                img.put_pixel(x + dx, y + dy, Rgba([c[0], c[1], c[2], 255]));
            }
        }
    }

    /// The green ground the tests draw on.
    const GREEN: [u8; 3] = [30, 100, 40];

    /// A board of `kinds.len() / cols` rows of 40 px cells at (40, 40) on a `ground`
    /// frame with room for a ring of ground cells; `draw` paints the cell of index `i`
    /// (row-major) with kind `k` at its top-left corner. Reads it on its own grid.
    fn read_drawn(
        kinds: &[u32],
        cols: u32,
        ground: [u8; 3],
        draw: impl FnMut(&mut RgbaImage, u32, u32, usize, u32),
    ) -> Reading {
        try_read_drawn(kinds, cols, ground, draw).unwrap()
    }

    /// [`read_drawn`], returning the reader's refusal too.
    fn try_read_drawn(
        kinds: &[u32],
        cols: u32,
        ground: [u8; 3],
        draw: impl FnMut(&mut RgbaImage, u32, u32, usize, u32),
    ) -> Result<Reading, ReadError> {
        let rows = kinds.len() as u32 / cols;
        let [r0, g0, b0] = ground;
        let img = RgbaImage::from_pixel(40 * (cols + 3), 40 * (rows + 3), Rgba([r0, g0, b0, 255]));
        read_drawn_over(img, kinds, cols, draw)
    }

    /// [`try_read_drawn`] over a frame already painted with its ground (`img`, room for the
    /// board at (40, 40) and a ring of cells around it).
    fn read_drawn_over(
        img: RgbaImage,
        kinds: &[u32],
        cols: u32,
        draw: impl FnMut(&mut RgbaImage, u32, u32, usize, u32),
    ) -> Result<Reading, ReadError> {
        read_drawn_as(Found::Given, img, kinds, cols, draw)
    }

    /// [`read_drawn_over`], its grid taken as found from the frame or given.
    fn read_drawn_as(
        found: Found,
        img: RgbaImage,
        kinds: &[u32],
        cols: u32,
        draw: impl FnMut(&mut RgbaImage, u32, u32, usize, u32),
    ) -> Result<Reading, ReadError> {
        let (img, grid) = draw_board(img, kinds, cols, draw);
        read_known(&img, &grid, &ReaderConfig::default(), found, None)
    }

    /// `img` with `draw(img, x, y, index, kind)` called for each cell of a board of `kinds`
    /// (row-major, `cols` wide) laid at (40, 40) with a pitch of 40, and that board's grid.
    fn draw_board(
        mut img: RgbaImage,
        kinds: &[u32],
        cols: u32,
        mut draw: impl FnMut(&mut RgbaImage, u32, u32, usize, u32),
    ) -> (RgbaImage, Grid) {
        let rows = kinds.len() as u32 / cols;
        for (i, &k) in kinds.iter().enumerate() {
            let (r, c) = (i as u32 / cols, i as u32 % cols);
            draw(&mut img, 40 + c * 40, 40 + r * 40, i, k);
        }
        let grid = Grid {
            origin: (40.0, 40.0),
            pitch: (40.0, 40.0),
            rows: rows as usize,
            cols: cols as usize,
        };
        (img, grid)
    }

    /// A profile of `len` entries with an edge of `height` every `pitch` from `x0`, over
    /// a hashed floor of 0–`floor`.
    fn spiked(len: usize, x0: usize, pitch: usize, height: f32, floor: f32) -> Vec<f32> {
        let mut s = 7u32;
        (0..len)
            .map(|i| {
                s = s.wrapping_mul(1664525).wrapping_add(1013904223);
                let edge = if i >= x0 && (i - x0).is_multiple_of(pitch) {
                    height
                } else {
                    0.0
                };
                edge + floor * (s >> 8) as f32 / (1u32 << 24) as f32
            })
            .collect()
    }

    #[test]
    fn an_axis_without_a_period_in_its_counted_edges_takes_the_summed_ones() {
        let cfg = ReaderConfig::default();
        let counted = spiked(1900, 0, 1, 0.0, 50.0);
        assert!(lattice::axis(&counted, 0, &cfg).is_err());
        let summed = spiked(1900, 13, 40, 500.0, 50.0);
        let a = axis_from(&counted, || &summed, 0, &cfg).unwrap();
        assert!((a.pitch - 40.0).abs() < 0.5, "{a:?}");
        // A counted profile with a period of its own keeps it.
        let own = spiked(1900, 5, 30, 200.0, 20.0);
        let b = axis_from(&own, || &summed, 0, &cfg).unwrap();
        assert!((b.pitch - 30.0).abs() < 0.5, "{b:?}");
    }

    /// A flat stretch of the tiles' border colour running from above a given grid down
    /// its first column's top two cells (the light ground beside a board, lit like a
    /// tile's edge): on a given grid the ring is off the board, so the stretch is ground,
    /// not a pair of blank faces.
    #[test]
    fn a_plain_pair_that_runs_on_into_the_ring_of_a_given_grid_is_ground() {
        const LIGHT: [u8; 3] = [240, 240, 230];
        // 0: the light stretch; 9: ground; the rest tiles in pairs.
        let kinds = [0, 1, 2, 3, 4, 0, 5, 6, 7, 8, 9, 1, 2, 3, 4, 9, 5, 6, 7, 8];
        let mut img =
            RgbaImage::from_pixel(40 * 8, 40 * 7, Rgba([GREEN[0], GREEN[1], GREEN[2], 255]));
        for y in 0..40 {
            for x in 40..80 {
                img.put_pixel(x, y, Rgba([LIGHT[0], LIGHT[1], LIGHT[2], 255]));
            }
        }
        let drawn = |found, img: RgbaImage| {
            read_drawn_as(found, img, &kinds[..], 5, |img, x, y, _, k| match k {
                0 => {
                    for dy in 0..40 {
                        for dx in 0..40 {
                            img.put_pixel(
                                x + dx,
                                y + dy,
                                Rgba([LIGHT[0], LIGHT[1], LIGHT[2], 255]),
                            );
                        }
                    }
                }
                9 => {}
                _ => tile(img, x, y, k, false),
            })
            .unwrap()
        };
        let given = drawn(Found::Given, img.clone());
        for r in 0..4 {
            assert_eq!(
                given.board.get(Pos::new(r, 0)),
                Cell::Empty,
                "{}",
                given.board
            );
        }
        assert_eq!(given.board.tile_count(), 16, "{}", given.board);
        // Found in the frame, the ring may hold a line of the board still outside the
        // extent: the stretch is judged by its frame there.
        let found = drawn(Found::InFrame, img);
        assert!(found.board.get(Pos::new(0, 0)).is_tile(), "{}", found.board);
    }

    /// Four pictures without a twin among eight pairs: found in the frame, a board being
    /// redrawn; on a given grid, a reading with those cells unsure (the caller knows which
    /// cells it saw empty).
    #[test]
    fn pictures_without_a_twin_on_a_given_grid_are_unsure_cells() {
        let kinds = [
            1, 2, 3, 4, 5, 11, 1, 2, 3, 4, 5, 12, 6, 7, 8, 13, 6, 7, 8, 14,
        ];
        let drawn = |found| {
            let img =
                RgbaImage::from_pixel(40 * 8, 40 * 7, Rgba([GREEN[0], GREEN[1], GREEN[2], 255]));
            read_drawn_as(found, img, &kinds[..], 5, |img, x, y, _, k| {
                tile(img, x, y, k, false)
            })
        };
        let given = drawn(Found::Given).unwrap();
        let lone: Vec<Pos> = [(1, 0), (2, 1), (3, 0), (3, 4)]
            .into_iter()
            .map(|(r, c)| Pos::new(r, c))
            .collect();
        assert_eq!(given.unsure, lone, "{}", given.board);
        assert!(matches!(
            drawn(Found::InFrame),
            Err(ReadError::Animation(_))
        ));
    }

    /// Late in a game over a photo ground: three pairs left and more emptied cells than
    /// tiles, each showing its own piece of the photo (no border, no twin). Found in the
    /// frame or given, pictures that do not come in pairs: on a given grid too, since the
    /// play loop empties doubted stones on cells it expects empty, and the last pair with
    /// one tile tinted reads as two such pictures.
    #[test]
    fn more_pictures_without_a_twin_than_tiles_are_refused_on_a_given_grid_too() {
        let drawn = |found| {
            let img =
                RgbaImage::from_pixel(40 * 7, 40 * 6, Rgba([GREEN[0], GREEN[1], GREEN[2], 255]));
            read_drawn_as(found, img, &PHOTO_KINDS[..], 5, photo_cell)
        };
        assert!(
            matches!(drawn(Found::InFrame), Err(ReadError::NotLianliankan(_))),
            "{:?}",
            drawn(Found::InFrame)
        );
        assert!(
            matches!(drawn(Found::Given), Err(ReadError::NotLianliankan(_))),
            "{:?}",
            drawn(Found::Given)
        );
    }

    /// A board of 5 columns on a given grid: 0 ground, 1-3 tiles in pairs, 10 and up
    /// pieces of a photo ground ([`photo_cell`]).
    const PHOTO_KINDS: [u32; 20] = [
        10, 11, 1, 12, 0, 13, 2, 14, 3, 0, 15, 1, 16, 2, 17, 0, 3, 18, 19, 0,
    ];

    /// Draws cell kind `k` of [`PHOTO_KINDS`] at (x, y): nothing for 0, a tile for 1-3, and
    /// a piece of photo (blocks of colour to the cell's edge) for the rest.
    fn photo_cell(img: &mut RgbaImage, x: u32, y: u32, _: usize, k: u32) {
        match k {
            0 => {}
            1..=3 => tile(img, x, y, k, false),
            _ => {
                let mut s = k.wrapping_mul(2246822519);
                for by in 0..5 {
                    for bx in 0..5 {
                        s = s.wrapping_mul(1664525).wrapping_add(1013904223);
                        let c = [(s >> 24) as u8, (s >> 16) as u8, (s >> 8) as u8];
                        for dy in 0..8 {
                            for dx in 0..8 {
                                img.put_pixel(
                                    x + bx * 8 + dx,
                                    y + by * 8 + dy,
                                    Rgba([c[0], c[1], c[2], 255]),
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    /// The frame the test above refuses, read with the ground remembered from the game: the
    /// photo's pieces lie on cells the game emptied, and showing the ground remembered
    /// there they are empty, leaving the three pairs. A memory of another grid is not used.
    #[test]
    fn cells_showing_their_remembered_ground_are_empty_however_many_pictures_they_hold() {
        let cfg = ReaderConfig::default();
        let ground =
            RgbaImage::from_pixel(40 * 7, 40 * 6, Rgba([GREEN[0], GREEN[1], GREEN[2], 255]));
        let (img, grid) = draw_board(ground, &PHOTO_KINDS, 5, photo_cell);
        let rows: Vec<String> = PHOTO_KINDS
            .chunks(5)
            .map(|r| {
                r.iter()
                    .map(|&k| match k {
                        1..=3 => (b'A' + k as u8 - 1) as char,
                        _ => '.',
                    })
                    .collect()
            })
            .collect();
        let played = Board::parse(&rows.join("\n")).unwrap();
        let mut memory = GroundMemory::new(grid);
        memory.learn(&img, &played, &cfg);
        let r = read_grid_remembering(&img, &grid, &memory, &cfg).unwrap();
        assert_eq!(r.board.row_strings(), played.row_strings());
        assert!(r.unsure.is_empty(), "{:?}", r.unsure);
        let elsewhere = Grid {
            origin: (41.0, 40.0),
            ..grid
        };
        let mut other = GroundMemory::new(elsewhere);
        other.learn(&img, &played, &cfg);
        assert!(matches!(
            read_grid_remembering(&img, &grid, &other, &cfg),
            Err(ReadError::NotLianliankan(_))
        ));
    }

    #[test]
    fn the_last_two_of_a_type_with_one_tinted_read_as_a_pair_and_a_selection() {
        // Types by cell, row-major on a 2×4 board; the last tile is tinted.
        let r = read_drawn(&[1, 2, 3, 1, 2, 3, 4, 4], 4, GREEN, |img, x, y, i, k| {
            tile(img, x, y, k, i == 7)
        });
        assert!(r.unsure.is_empty(), "{:?}\n{}", r.unsure, r.board);
        assert_eq!(r.selected, vec![Pos::new(1, 3)], "{}", r.board);
        let b = &r.board;
        assert_eq!(b.get(Pos::new(1, 2)), b.get(Pos::new(1, 3)), "{b}");
        assert_ne!(b.get(Pos::new(1, 2)), b.get(Pos::new(0, 0)), "{b}");
    }

    #[test]
    fn a_games_last_pair_with_one_tinted_is_unsure_tiles_and_not_ground() {
        // Only the last pair is left on a given grid, its second tile tinted: with no
        // other tile to compare, both pictures are nearer the ground than any tile, yet
        // neither shows the ground.
        let img = RgbaImage::from_pixel(40 * 7, 40 * 5, Rgba([GREEN[0], GREEN[1], GREEN[2], 255]));
        let kinds = [0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 4];
        let r = read_drawn_as(Found::Given, img, &kinds, 4, |img, x, y, i, k| {
            if k > 0 {
                tile(img, x, y, k, i == 11)
            }
        })
        .unwrap();
        let b = &r.board;
        assert_eq!(b.tile_count(), 2, "{b}");
        assert_eq!(b.get(Pos::new(2, 1)), b.get(Pos::new(2, 3)), "{b}");
        // Nothing else pairs to measure the two against: the pair stands, unsure.
        assert_eq!(r.unsure, vec![Pos::new(2, 1), Pos::new(2, 3)], "{b}");
        assert!(r.selected.is_empty(), "{:?}\n{b}", r.selected);
    }

    /// A colour under the yellow tint the test tiles are selected with.
    fn tinted(c: [u8; 3]) -> [u8; 3] {
        [
            (c[0] as u32 * 6 / 10 + 255 * 4 / 10) as u8,
            (c[1] as u32 * 6 / 10 + 230 * 4 / 10) as u8,
            (c[2] as u32 * 6 / 10 + 60 * 4 / 10) as u8,
        ]
    }

    /// A cream tile with a square of `ink` holding a white dot, tinted like [`tile`]'s.
    fn dotted_square(img: &mut RgbaImage, x: u32, y: u32, ink: [u8; 3], tint: bool) {
        for dy in 0..40 {
            for dx in 0..40 {
                let c = if dx < 4 || dy < 4 || dx >= 36 || dy >= 36 {
                    [240, 240, 230]
                } else if (17..23).contains(&dx) && (17..23).contains(&dy) {
                    [255, 255, 255]
                } else if (10..30).contains(&dx) && (10..30).contains(&dy) {
                    ink
                } else {
                    [235, 225, 200]
                };
                let c = if tint { tinted(c) } else { c };
                img.put_pixel(x + dx, y + dy, Rgba([c[0], c[1], c[2], 255]));
            }
        }
    }

    #[test]
    fn a_selected_tile_and_its_twin_stay_apart_from_a_type_drawn_alike_in_another_colour() {
        // 10: a purple dotted square (four tiles); 11: the same square in blue, the last
        // two of its type, the second selected (tinted). Both blue tiles are lone pictures
        // whose shape, tint taken out, is the purple type's.
        let kinds = [10, 1, 10, 2, 11, 1, 10, 2, 3, 10, 11, 3];
        let r = read_drawn(&kinds, 4, GREEN, |img, x, y, i, k| match k {
            10 => dotted_square(img, x, y, [120, 40, 170], false),
            11 => dotted_square(img, x, y, [40, 60, 200], i == 10),
            _ => tile(img, x, y, k, false),
        });
        let b = &r.board;
        assert!(r.unsure.is_empty(), "{:?}\n{b}", r.unsure);
        assert_eq!(r.selected, vec![Pos::new(2, 2)], "{b}");
        assert_eq!(b.get(Pos::new(1, 0)), b.get(Pos::new(2, 2)), "{b}");
        assert_ne!(b.get(Pos::new(1, 0)), b.get(Pos::new(0, 0)), "{b}");
    }

    #[test]
    fn blank_faces_in_the_grounds_colour_read_as_tiles() {
        let ground = [200, 200, 200];
        // A 2×4 board: three pictured pairs and two blank faces whose face is the ground's
        // colour; every tile has the same dark border.
        let r = read_drawn(&[1, 2, 3, 1, 2, 3, 0, 0], 4, ground, |img, x, y, _, k| {
            let blank = (k == 0).then_some(ground);
            tile_with(img, x, y, k, false, [90, 90, 110], blank)
        });
        let b = &r.board;
        assert!(b.get(Pos::new(1, 2)).is_tile(), "{b}");
        assert_eq!(b.get(Pos::new(1, 2)), b.get(Pos::new(1, 3)), "{b}");
        assert_eq!(b.tile_count(), 8, "{b}");
    }

    /// Faces in the ground's own colour carrying a thin symbol (two green strokes), one of
    /// them selected by a light ring drawn over its border: the unselected one's frame is
    /// the tiles' frame exactly, the selected one's lies nearer the ground's. One vote each
    /// ties; the exact frame decides, and the pair reads as a tile type, one selected.
    #[test]
    fn a_pair_of_faces_in_the_grounds_colour_one_selected_reads_as_tiles() {
        let ground = [235, 235, 235];
        let kinds = [1, 2, 9, 3, 4, 2, 1, 5, 3, 9, 4, 5];
        let r = read_drawn(&kinds, 6, ground, |img, x, y, i, k| {
            let border = if i == 9 {
                [250, 250, 255]
            } else {
                [90, 90, 110]
            };
            if k != 9 {
                return tile_with(img, x, y, k, false, border, None);
            }
            tile_with(img, x, y, k, false, border, Some(ground));
            for dy in 10..30 {
                for dx in (14..17).chain(23..26) {
                    img.put_pixel(x + dx, y + dy, Rgba([40, 150, 60, 255]));
                }
            }
        });
        let b = &r.board;
        assert_eq!(b.tile_count(), 12, "{b}");
        assert_eq!(b.get(Pos::new(0, 2)), b.get(Pos::new(1, 3)), "{b}");
        assert_eq!(r.selected, vec![Pos::new(1, 3)], "{b}");
    }

    /// Faint faces on a textured ground of their own colour: beige faces with a faint
    /// pattern, every cell of the ground another grain of the same beige, and a tile border
    /// only a few levels off it. By colour and texture the faces are ground, and their
    /// borders hardly stand out from them; but every tile's frame is one sprite's, and no
    /// ground cell's frame matches it. They are tiles.
    #[test]
    fn faint_faces_on_a_textured_ground_with_the_tiles_frame_are_tiles() {
        let beige = [200u8, 180, 140];
        let grain = |x: u32, y: u32, seed: u32| {
            let h = (x / 8).wrapping_mul(73_856_093)
                ^ (y / 8).wrapping_mul(19_349_663)
                ^ seed.wrapping_mul(83_492_791);
            let d = (h.wrapping_mul(2_654_435_761) >> 26) as i32 - 32;
            beige.map(|v| (v as i32 + d).clamp(0, 255) as u8)
        };
        let (rows, cols) = (2u32, 4u32);
        let img = RgbaImage::from_fn(40 * (cols + 3), 40 * (rows + 3), |x, y| {
            let c = grain(x, y, 7);
            Rgba([c[0], c[1], c[2], 255])
        });
        let border = [208, 188, 150];
        let kinds = [1, 2, 3, 9, 1, 2, 3, 9];
        let r = read_drawn_over(img, &kinds, cols, |img, x, y, _, k| {
            if k == 9 {
                for dy in 0..40 {
                    for dx in 0..40 {
                        let edge = dx < 4 || dy < 4 || dx >= 36 || dy >= 36;
                        let c = if edge { border } else { grain(dx, dy, 99) };
                        img.put_pixel(x + dx, y + dy, Rgba([c[0], c[1], c[2], 255]));
                    }
                }
            } else {
                tile_with(img, x, y, k, false, border, None)
            }
        })
        .expect("a board");
        let b = &r.board;
        assert!(b.get(Pos::new(0, 3)).is_tile(), "{b}");
        assert_eq!(b.get(Pos::new(0, 3)), b.get(Pos::new(1, 3)), "{b}");
        assert_eq!(b.tile_count(), 8, "{b}");
    }

    /// A constructed picture: `blocks` block values (grey), its frame all `frame` grey.
    fn grey_picture(blocks: &[f32], frame: f32) -> Picture {
        let n = blocks.len() as f32;
        let mean = blocks.iter().sum::<f32>() / n;
        Picture {
            blocks: blocks.iter().flat_map(|&v| [v, v, v]).collect(),
            mean: [mean; 3],
            spread: blocks.iter().map(|v| (v - mean).abs()).sum::<f32>() / n,
            frame: vec![frame; 36 * 3],
        }
    }

    /// A pictured face (a pattern set by `seed`) in a dark frame.
    fn pictured(seed: u32) -> Picture {
        let v: Vec<f32> = (0..100u32)
            .map(|i| ((i * 37 + seed * 101) % 256) as f32)
            .collect();
        grey_picture(&v, 90.0)
    }

    /// A flat grey (200) ground model.
    fn grey_ground() -> Ground {
        Ground {
            colour: [200.0; 3],
            colour_tol: 0.0,
            spread_max: 5.0,
        }
    }

    #[test]
    fn a_board_flush_with_the_window_keeps_its_edge_tiles() {
        // A 6x4 sheet: ground above and below, and a board of four rows whose first and
        // last columns are the sheet's own (a board scaled to the window's width). Each
        // type holds a row: two tiles on the ring's sides, two inside.
        let ground_pic = grey_picture(&[200.0; 100], 200.0);
        let (rows, cols) = (6, 4);
        let cells: Vec<Option<Picture>> = (0..rows * cols)
            .map(|i| {
                let r = i / cols;
                Some(if r == 0 || r + 1 == rows {
                    ground_pic.clone()
                } else {
                    pictured(r as u32)
                })
            })
            .collect();
        let ground = grey_ground();
        let seen = see(
            &cells,
            cols,
            &ground,
            &ring(rows, cols),
            &ReaderConfig::default(),
        );
        for r in 1..rows - 1 {
            for c in 0..cols {
                assert!(
                    matches!(seen[r * cols + c], Seen::Paired(_)),
                    "{r},{c}: {seen:?}"
                );
            }
        }
        assert_eq!(seen[0], Seen::Ground);
    }

    /// A dark picture with a fine repeating pattern (a patterned ground, or a stone).
    fn patterned() -> Picture {
        let v: Vec<f32> = (0..100u32).map(|i| (60 + (i * 13) % 40) as f32).collect();
        grey_picture(&v, 80.0)
    }

    /// Sees a `rows × cols` sheet against the flat grey ground and asserts that the cells
    /// `board` holds are paired and every other cell is ground.
    fn assert_board_paired_rest_ground(
        cells: &[Option<Picture>],
        rows: usize,
        cols: usize,
        board: impl Fn(usize, usize) -> bool,
    ) {
        let seen = see(
            cells,
            cols,
            &grey_ground(),
            &ring(rows, cols),
            &ReaderConfig::default(),
        );
        for r in 0..rows {
            for c in 0..cols {
                let s = seen[r * cols + c];
                if board(r, c) {
                    assert!(matches!(s, Seen::Paired(_)), "{r},{c}: {s:?}");
                } else {
                    assert_eq!(s, Seen::Ground, "{r},{c}");
                }
            }
        }
    }

    #[test]
    fn a_patterned_ground_seen_only_on_the_windows_sides_is_ground() {
        // A 14×14 sheet: two rows of plain chrome on top and one at the bottom (so the
        // ring's commonest colour is the chrome's), a patterned ground everywhere else
        // (one picture, repeating), and a 4×4 board of eight pairs in its middle. The
        // ground reaches the window's edge only on the left and right, 20 cells of 124.
        let chrome = grey_picture(&[200.0; 100], 200.0);
        let patterned = patterned();
        let (rows, cols) = (14, 14);
        let board = |r: usize, c: usize| (5..9).contains(&r) && (5..9).contains(&c);
        let cells: Vec<Option<Picture>> = (0..rows * cols)
            .map(|i| {
                let (r, c) = (i / cols, i % cols);
                Some(if r < 2 || r + 1 == rows {
                    chrome.clone()
                } else if board(r, c) {
                    pictured(((r - 5) * 4 + c - 5) as u32 / 2)
                } else {
                    patterned.clone()
                })
            })
            .collect();
        assert_board_paired_rest_ground(&cells, rows, cols, board);
    }

    #[test]
    fn a_crowd_inside_the_ground_stays_on_the_board() {
        // A 12×12 sheet of plain grey ground with a 6×6 board in its middle: eight pairs
        // and twenty cells of one picture (stones, by the dozen). The crowd does not reach
        // the window's edge, so it is no ground: it stays paired, for the types stage to
        // wall off.
        let ground_pic = grey_picture(&[200.0; 100], 200.0);
        let stone = patterned();
        let (rows, cols) = (12, 12);
        let board = |r: usize, c: usize| (3..9).contains(&r) && (3..9).contains(&c);
        let cells: Vec<Option<Picture>> = (0..rows * cols)
            .map(|i| {
                let (r, c) = (i / cols, i % cols);
                let k = if board(r, c) { (r - 3) * 6 + c - 3 } else { 99 };
                Some(if k == 99 {
                    ground_pic.clone()
                } else if k < 16 {
                    pictured(k as u32 / 2)
                } else {
                    stone.clone()
                })
            })
            .collect();
        assert_board_paired_rest_ground(&cells, rows, cols, board);
    }

    #[test]
    fn two_faces_that_read_as_ground_stay_two_types() {
        // A 4×6 sheet: a ring of flat grey ground (200) around a 2×4 board of two pictured
        // pairs, two blank faces in the ground's colour, and two faces whose faint pattern
        // averages to the ground's colour (a symbol drawn in the ground's colour, within the
        // ground's texture); every tile has the same dark frame.
        let ground_pic = grey_picture(&[200.0; 100], 200.0);
        let blank = grey_picture(&[200.0; 100], 90.0);
        let faint: Vec<f32> = (0..100)
            .map(|i| if i % 2 == 0 { 192.0 } else { 208.0 })
            .collect();
        let faint = grey_picture(&faint, 90.0);
        let (rows, cols) = (4, 6);
        let ring_idx = ring(rows, cols);
        let inner = [&pictured(1), &pictured(2), &blank, &faint];
        let cells: Vec<Option<Picture>> = (0..rows * cols)
            .map(|i| {
                if ring_idx.contains(&i) {
                    Some(ground_pic.clone())
                } else {
                    Some(inner[i % cols - 1].clone())
                }
            })
            .collect();
        let ground = grey_ground();
        let seen = see(&cells, cols, &ground, &ring_idx, &ReaderConfig::default());
        let at = |r: usize, c: usize| seen[r * cols + c];
        // Column 3 holds the blank faces, column 4 the faint ones.
        assert!(matches!(at(1, 3), Seen::Paired(_)), "{seen:?}");
        assert!(matches!(at(1, 4), Seen::Paired(_)), "{seen:?}");
        assert_eq!(at(1, 3), at(2, 3), "{seen:?}");
        assert_eq!(at(1, 4), at(2, 4), "{seen:?}");
        assert_ne!(at(1, 3), at(1, 4), "{seen:?}");
    }

    /// The last pair of a game can be two blank faces, with no pictured tile left to show
    /// the tiles' frame: their border still stands out from their flat faces, so they read
    /// as a pair, not as ground (the board is not cleared).
    #[test]
    fn a_last_pair_of_blank_faces_reads_as_tiles() {
        let kinds = [0, 0, 0, 0, 0, 0, 1, 1];
        let r = read_drawn(&kinds, 4, GREEN, |img, x, y, _, k| {
            if k > 0 {
                tile_with(img, x, y, k, false, [150, 150, 150], Some([245, 245, 240]))
            }
        });
        let b = &r.board;
        assert_eq!(b.tile_count(), 2, "{b}");
        assert_eq!(b.get(Pos::new(1, 2)), b.get(Pos::new(1, 3)), "{b}");
    }

    /// A reading of `text` ('#' lone pictures, unsure) on a 40 px grid.
    fn lone_reading(text: &str) -> Reading {
        let board = Board::parse(text).expect("board");
        let unsure = board
            .positions()
            .filter(|&p| board.get(p) == Cell::Obstacle)
            .collect();
        Reading {
            grid: Grid {
                origin: (40.0, 40.0),
                pitch: (40.0, 40.0),
                rows: board.rows(),
                cols: board.cols(),
            },
            board,
            unsure,
            selected: Vec::new(),
        }
    }

    /// An edge line with no tile that pairs, only lone pictures and empty cells (the
    /// tiles' 3-D side over a photo ground), is no part of the board; empty edge lines go
    /// too. A lone picture inside the board keeps every line that holds one, and so does a
    /// second such line on one side (a 3-D side is one line deep) or a hint on that axis.
    #[test]
    fn an_edge_line_of_lone_pictures_is_no_part_of_the_board() {
        let none = Hints::default();
        let side = lone_reading("ABCD#\nCDAB.\nBADC#\n.....");
        assert_eq!(trimmed_extent(&side, &none), Some((0..3, 0..4)));
        let inside = lone_reading("AB#D#\nCDAB.\nBADC#\n.....");
        assert_eq!(trimmed_extent(&inside, &none), Some((0..3, 0..5)));
        let two_deep = lone_reading("ABC##\nCDA.#\nBAC#.");
        assert_eq!(trimmed_extent(&two_deep, &none), None);
        let hinted = Hints {
            cols: Some(5),
            ..Hints::default()
        };
        assert_eq!(trimmed_extent(&side, &hinted), Some((0..3, 0..5)));
        let full = lone_reading("ABCD\nCDAB");
        assert_eq!(trimmed_extent(&full, &none), None);
    }

    #[test]
    fn a_lone_picture_is_an_unsure_obstacle_not_ground() {
        // Four pairs and one picture like no other (a crate, or a tile whose twin is
        // hidden) on a 2×5 board; the last cell is ground.
        let kinds = [1, 2, 3, 4, 9, 1, 2, 3, 4, 0];
        let r = read_drawn(&kinds, 5, GREEN, |img, x, y, _, k| {
            if k > 0 {
                tile(img, x, y, k, false)
            }
        });
        let b = &r.board;
        assert_eq!(b.get(Pos::new(0, 4)), Cell::Obstacle, "{b}");
        assert_eq!(r.unsure, vec![Pos::new(0, 4)], "{b}");
        assert_eq!(b.get(Pos::new(1, 4)), Cell::Empty, "{b}");
        assert_eq!(b.tile_count(), 8, "{b}");
    }

    /// Three cells past the board's right column show the ground with the board's golden
    /// 3-D side along their left edge; over two of them the ground is lit brighter inside
    /// (a photo ground's light patch). Those two match each other's shape once the light is
    /// taken out, as the last two of a type with one tinted would, but their frames are the
    /// ground's, not the tiles': they are no pair of tiles.
    #[test]
    fn two_lone_pictures_framed_as_ground_are_no_tinted_pair() {
        let kinds = [1, 2, 3, 4, 8, 1, 2, 3, 4, 9, 5, 6, 5, 6, 7];
        let r = read_drawn(&kinds, 5, GREEN, |img, x, y, _, k| match k {
            7..=9 => {
                // Cell 9 is cell 8 in a dimmer light: every colour scaled down.
                let (lift, light) = [(0u8, 10u32), (140, 10), (140, 8)][k as usize - 7];
                for dy in 0..40 {
                    for dx in 0..40 {
                        let inner = (10..30).contains(&dx) && (10..30).contains(&dy);
                        let c = if dx < 6 {
                            [170, 130, 40]
                        } else if inner {
                            [GREEN[0] + lift, GREEN[1] + lift, GREEN[2] + lift / 2]
                        } else {
                            GREEN
                        };
                        let c = c.map(|v| (v as u32 * light / 10) as u8);
                        img.put_pixel(x + dx, y + dy, Rgba([c[0], c[1], c[2], 255]));
                    }
                }
            }
            _ => tile(img, x, y, k, false),
        });
        let b = &r.board;
        for p in [Pos::new(0, 4), Pos::new(1, 4)] {
            assert!(!matches!(b.get(p), Cell::Tile(_)), "{b}");
        }
        assert!(r.selected.is_empty(), "{:?}\n{b}", r.selected);
    }

    /// Draws a 40 px tile of a set with a face: a dark border every tile shares, a cream
    /// face, and a symbol of kind `k`'s colour: a square in the middle, or for `k >= 100`
    /// four squares in the corners and a bar between them (a symbol that runs to the
    /// face's edges, the face showing between its strokes). Kind 0 is a stone: the border,
    /// and grey speckles where the face would be.
    fn faced_tile(img: &mut RgbaImage, x: u32, y: u32, k: u32) {
        let colour = [
            (k * 70 % 200) as u8,
            (k * 130 % 200) as u8,
            (k * 50 % 200 + 40) as u8,
        ];
        for dy in 0..40 {
            for dx in 0..40 {
                let inner = |a: u32, b: u32| (a..b).contains(&dx) && (a..b).contains(&dy);
                let c = if dx < 3 || dy < 3 || dx >= 37 || dy >= 37 {
                    [60, 50, 40]
                } else if k == 0 {
                    let v = 110 + ((dx * 7 + dy * 13) % 5) as u8 * 6;
                    [v, v, v + 4]
                } else if k >= 100 {
                    let corner = !(14..26).contains(&dx) && !(14..26).contains(&dy);
                    if corner || (17..23).contains(&dy) {
                        colour
                    } else {
                        [235, 228, 200]
                    }
                } else if inner(13, 27) {
                    colour
                } else {
                    [235, 228, 200]
                };
                img.put_pixel(x + dx, y + dy, Rgba([c[0], c[1], c[2], 255]));
            }
        }
    }

    /// Reads `kinds` (`cols` a row, 9 the ground) drawn by [`faced_tile`] on the green
    /// ground.
    fn read_faced(found: Found, kinds: &[u32], cols: u32) -> Reading {
        read_tiles_drawn_by(found, kinds, cols, faced_tile)
    }

    /// Reads `kinds` (`cols` a row, 9 the ground) drawn by `tile` on the green ground.
    fn read_tiles_drawn_by(
        found: Found,
        kinds: &[u32],
        cols: u32,
        tile: fn(&mut RgbaImage, u32, u32, u32),
    ) -> Reading {
        let rows = kinds.len() as u32 / cols;
        let [r0, g0, b0] = GREEN;
        let img = RgbaImage::from_pixel(40 * (cols + 3), 40 * (rows + 3), Rgba([r0, g0, b0, 255]));
        read_drawn_as(found, img, kinds, cols, |img, x, y, _, k| {
            if k != 9 {
                tile(img, x, y, k)
            }
        })
        .expect("reads")
    }

    /// Asserts that `r` reads each cell of `kinds` (`cols` a row) as its kind says: 0 an
    /// obstacle, 9 empty, any other a tile; and nothing unsure.
    fn assert_reads_kinds(r: &Reading, kinds: &[u32], cols: usize) {
        let b = &r.board;
        for (i, &k) in kinds.iter().enumerate() {
            let p = Pos::new(i / cols, i % cols);
            match k {
                0 => assert_eq!(b.get(p), Cell::Obstacle, "{p}\n{b}"),
                9 => assert_eq!(b.get(p), Cell::Empty, "{p}\n{b}"),
                _ => assert!(b.get(p).is_tile(), "{p}\n{b}"),
            }
        }
        assert!(r.unsure.is_empty(), "{:?}\n{b}", r.unsure);
    }

    #[test]
    fn stones_drawn_without_the_tiles_face_are_sure_obstacles() {
        // Five pairs and a pair of stones on a 3×5 board whose last cells are ground.
        let kinds = [1, 2, 3, 4, 5, 0, 1, 2, 6, 3, 4, 5, 0, 6, 9];
        let r = read_faced(Found::InFrame, &kinds, 5);
        assert_reads_kinds(&r, &kinds, 5);
    }

    /// A dark-faced 40 px tile (grey-blue face, a square symbol of kind `k`'s colour), or
    /// for kind 0 a stone lit from its centre: 8 over the face there, rising by 1.5 a
    /// pixel outwards (within the clean bound of the face near the centre, far from it at
    /// the corners and along the sides); both with a dark border.
    fn dark_faced_tile(img: &mut RgbaImage, x: u32, y: u32, k: u32) {
        const FACE: [f32; 3] = [76.0, 82.0, 95.0];
        for dy in 0..40u32 {
            for dx in 0..40u32 {
                let c = if dx < 3 || dy < 3 || dx >= 37 || dy >= 37 {
                    [40.0, 40.0, 50.0]
                } else if k == 0 {
                    let d = (dx as f32 - 19.5).hypot(dy as f32 - 19.5);
                    FACE.map(|v| v + 8.0 + 1.5 * d)
                } else if (13..27).contains(&dx) && (13..27).contains(&dy) {
                    [
                        (k * 70 % 200 + 40) as f32,
                        (k * 130 % 200) as f32,
                        (k * 50 % 200 + 40) as f32,
                    ]
                } else {
                    FACE
                };
                img.put_pixel(
                    x + dx,
                    y + dy,
                    Rgba([c[0] as u8, c[1] as u8, c[2] as u8, 255]),
                );
            }
        }
    }

    #[test]
    fn stones_whose_grey_lies_near_the_face_are_sure_obstacles() {
        // Five pairs and a pair of stones on a 3×5 board whose last cell is ground. The
        // stones' grey comes within the clean bound of the face inside, so only the face
        // shown as itself tells them from a tile whose symbol covers its corners.
        let kinds = [1, 2, 3, 4, 5, 0, 1, 2, 6, 3, 4, 5, 0, 6, 9];
        let r = read_tiles_drawn_by(Found::InFrame, &kinds, 5, dark_faced_tile);
        assert_reads_kinds(&r, &kinds, 5);
    }

    #[test]
    fn cells_emptied_on_a_ground_of_many_shades_below_a_toolbar_are_empty() {
        // A 3×6 board on a textured ground whose shade changes from cell to cell (no two
        // cells of the ring alike, as on a vignetted papyrus)
        // with a light toolbar across the top of the ring: the ring's commonest colour is
        // the toolbar's. The cells a game emptied show the ground, flat and without a
        // frame.
        let kinds = [1, 2, 3, 9, 1, 2, 3, 4, 9, 5, 4, 5, 6, 9, 6, 7, 9, 7];
        let mut img = RgbaImage::new(40 * 8, 40 * 5);
        for (x, y, px) in img.enumerate_pixels_mut() {
            let (cx, cy) = (x / 40, y / 40);
            *px = if cy == 0 {
                Rgba([225, 225, 228, 255])
            } else {
                // A texture of 5-px flecks, ±6, different in every cell.
                let fleck = ((x / 5 * 7919 + y / 5 * 104_729) % 13) as i32 - 6;
                let v = |base: u32| (base as i32 + fleck) as u8;
                Rgba([
                    v(30 + 25 * cx),
                    v(30 + 25 * cy),
                    v(10 + 15 * (cx + cy)),
                    255,
                ])
            };
        }
        let r = read_drawn_as(Found::Given, img, &kinds, 6, |img, x, y, _, k| {
            if k != 9 {
                faced_tile(img, x, y, k)
            }
        })
        .expect("reads");
        assert_reads_kinds(&r, &kinds, 6);
    }

    #[test]
    fn on_a_given_grid_a_faceless_pair_stays_a_pair() {
        // The same board on the live bot's grid: the pair could be the last two of a type,
        // tinted while the game removes them; the bot knows its obstacles from the board
        // it locked on.
        let kinds = [1, 2, 3, 4, 5, 0, 1, 2, 6, 3, 4, 5, 0, 6, 9];
        let r = read_faced(Found::Given, &kinds, 5);
        let b = &r.board;
        assert!(b.get(Pos::new(1, 0)).is_tile(), "{b}");
        assert_eq!(b.get(Pos::new(1, 0)), b.get(Pos::new(2, 2)), "{b}");
    }

    #[test]
    fn a_symbol_that_runs_to_the_faces_edges_is_no_obstacle() {
        // Five pairs, one of them a symbol filling the face's corners, on a 2×5 board.
        let kinds = [1, 2, 3, 101, 4, 1, 2, 3, 101, 4];
        let r = read_faced(Found::InFrame, &kinds, 5);
        let b = &r.board;
        assert_eq!(b.tile_count(), 10, "{b}");
        assert_eq!(b.get(Pos::new(0, 3)), b.get(Pos::new(1, 3)), "{b}");
        assert!(r.unsure.is_empty(), "{:?}\n{b}", r.unsure);
    }

    #[test]
    fn a_tile_tinted_towards_the_grounds_colour_keeps_its_type() {
        // Three pairs and four of a fourth type on a 2×5 board; the last tile is tinted
        // three quarters of the way to the ground's colour, so by colour and texture it lies
        // nearer the ground than any tile, while its shape is its type's.
        let ground = [200, 180, 110];
        let kinds = [1, 2, 3, 4, 4, 1, 2, 3, 4, 4];
        let r = read_drawn(&kinds, 5, ground, |img, x, y, i, k| {
            tile(img, x, y, k, false);
            if i == 9 {
                for dy in 0..40 {
                    for dx in 0..40 {
                        let p = img.get_pixel_mut(x + dx, y + dy);
                        for (v, g) in p.0.iter_mut().zip(ground) {
                            *v = ((*v as u32 + 3 * g as u32) / 4) as u8;
                        }
                    }
                }
            }
        });
        let b = &r.board;
        assert!(r.unsure.is_empty(), "{:?}\n{b}", r.unsure);
        assert_eq!(r.selected, vec![Pos::new(1, 4)], "{b}");
        assert_eq!(b.get(Pos::new(0, 3)), b.get(Pos::new(1, 4)), "{b}");
    }

    #[test]
    fn a_line_of_the_tiles_sides_on_another_ground_is_no_tile_type() {
        // Two rows of pairs on a ground that turns another colour from the board's last
        // line down (a photo ground): the last line's four cells show that ground under
        // the 3-D sides of the tiles above (a yellow strip along their top), alike, so they
        // pair as one picture on the board's edge line, off the ground's colour. Without
        // the strip they are the ground below.
        let (above, below) = ([40u8, 90, 50], [120u8, 160, 70]);
        let kinds = [1, 2, 3, 4, 2, 1, 4, 3, 0, 0, 0, 0];
        let (rows, cols) = (3u32, 4u32);
        let mut img = RgbaImage::new(40 * (cols + 3), 40 * (rows + 3));
        for (x, y, p) in img.enumerate_pixels_mut() {
            let c = if y < 40 * rows { above } else { below };
            let strip = y >= 40 * rows && y < 40 * rows + 12 && (40..40 * (cols + 1)).contains(&x);
            let c = if strip { [200, 170, 60] } else { c };
            *p = Rgba([c[0], c[1], c[2], 255]);
        }
        let r = read_drawn_over(img, &kinds, cols, |img, x, y, _, k| {
            if k > 0 {
                tile(img, x, y, k, false)
            }
        })
        .expect("reads");
        let b = &r.board;
        assert_eq!(b.tile_count(), 8, "{b}");
        for c in 0..4 {
            assert_eq!(b.get(Pos::new(2, c)), Cell::Empty, "{b}");
        }
    }

    #[test]
    fn a_group_on_two_outer_lines_is_not_a_line_of_sides() {
        // A 3×4 board in a 5×6 sheet: cells 7..=10 are its top line, 19..=22 its bottom.
        let (rows, cols) = (5, 6);
        // Each candidate below has a tile of another group (99) inward of every member.
        let sides = |candidate: &[usize], inward: &[usize]| {
            let map = [(0, candidate.to_vec()), (99, inward.to_vec())].into();
            lines_of_sides(&map, rows, cols)
        };
        assert_eq!(
            sides(&[19, 20, 22], &[13, 14, 16]),
            vec![0],
            "the bottom line"
        );
        assert_eq!(
            sides(&[10, 16, 22], &[9, 15, 21]),
            vec![0],
            "the right line"
        );
        assert!(
            sides(&[7, 22], &[13, 16]).is_empty(),
            "top left, bottom right"
        );
        assert!(sides(&[8, 20], &[14]).is_empty(), "top and bottom");
        assert!(sides(&[13, 20], &[14]).is_empty(), "left and bottom");
    }

    /// A pair on the board's bottom line beside tiles whose twins lie above it is tiles, not
    /// a line of 3-D sides; two groups that both lie wholly on the bottom line (sides that
    /// pair in two kinds) stay candidates.
    #[test]
    fn a_pair_on_a_line_that_holds_other_tiles_is_not_a_line_of_sides() {
        let (rows, cols) = (5, 6);
        let map = |groups: &[&[usize]]| groups.iter().map(|m| m.to_vec()).enumerate().collect();
        // Group 0 on the bottom line (19, 21); group 1 from the bottom line (20) up to 14.
        let board = map(&[&[19, 21], &[20, 14]]);
        assert!(lines_of_sides(&board, rows, cols).is_empty());
        // Sides under the middle line's tiles (13..=16, two types), in two kinds.
        let sides_only = map(&[&[19, 21], &[20, 22], &[13, 15], &[14, 16]]);
        assert_eq!(lines_of_sides(&sides_only, rows, cols), vec![0, 1]);
    }

    /// The last tiles of a game, all on the bottom line with nothing above them, are tiles:
    /// a line of 3-D sides lies beside the tiles it belongs to.
    #[test]
    fn tiles_with_nothing_inward_of_them_are_not_a_line_of_sides() {
        let (rows, cols) = (5, 6);
        let map = [(0, vec![19, 21]), (1, vec![20, 22])].into();
        assert!(lines_of_sides(&map, rows, cols).is_empty());
    }

    #[test]
    fn emptied_cells_that_pair_by_a_neighbours_side_are_the_ground_running_on() {
        // A 3×4 board on a ground that is yellow-green above the board's second row and
        // blue-green below (a photo ground), so the ring's commonest colour is the lower
        // one. The first row's two empty cells each show a grey 3-D side along their left
        // edge and a shadow fading out before their right one: alike, they pair like a
        // type, though the ground beside them runs on into them.
        let (upper, lower) = ([150u8, 170, 40], [30u8, 90, 80]);
        let kinds = [1, 0, 2, 0, 3, 4, 3, 4, 1, 2, 5, 5];
        let (rows, cols) = (3u32, 4u32);
        let mut img = RgbaImage::new(40 * (cols + 3), 40 * (rows + 3));
        for (_, y, p) in img.enumerate_pixels_mut() {
            let c = if y < 80 { upper } else { lower };
            *p = Rgba([c[0], c[1], c[2], 255]);
        }
        let draw = |img: &mut RgbaImage, x: u32, y: u32, _: usize, k: u32| {
            if k > 0 {
                tile(img, x, y, k, false);
                return;
            }
            for dy in 0..40 {
                for dx in 0..40 {
                    let c = if dx < 5 {
                        [90, 90, 90]
                    } else {
                        let shade = (0.6 + 0.4 * dx as f32 / 25.0).min(1.0);
                        upper.map(|v| (v as f32 * shade) as u8)
                    };
                    img.put_pixel(x + dx, y + dy, Rgba([c[0], c[1], c[2], 255]));
                }
            }
        };
        let r = read_drawn_as(Found::InFrame, img.clone(), &kinds, cols, draw).expect("reads");
        let b = &r.board;
        assert_eq!(b.tile_count(), 10, "{b}");
        assert_eq!(b.get(Pos::new(0, 1)), Cell::Empty, "{b}");
        assert_eq!(b.get(Pos::new(0, 3)), Cell::Empty, "{b}");
        // The same on a given grid (the live bot's locked grid).
        let r = read_drawn_as(Found::Given, img, &kinds, cols, draw).expect("reads");
        assert_eq!(r.board.tile_count(), 10, "{}", r.board);
    }

    #[test]
    fn a_tiles_side_across_the_edge_the_ground_meets_lets_the_ground_in() {
        // An emptied cell whose top edge meets the ground above: its frame is the ground's
        // colour but for the top edge's four left blocks, where the 3-D side of the tile
        // on its left lies. That end's blocks are left out only when a tile stands there.
        let cfg = ReaderConfig::default();
        let (ground, side) = ([200.0f32, 190.0, 150.0], [120.0f32, 90.0, 20.0]);
        let b = cfg.blocks;
        let ring: Vec<(usize, usize)> = (0..b)
            .flat_map(|r| (0..b).map(move |c| (r, c)))
            .filter(|&(r, c)| r == 0 || c == 0 || r + 1 == b || c + 1 == b)
            .collect();
        let frame = |strip: bool| -> Vec<f32> {
            ring.iter()
                .flat_map(|&(r, c)| {
                    if strip && r == 0 && c < 4 {
                        side
                    } else {
                        ground
                    }
                })
                .collect()
        };
        let pic = |strip: bool| Picture {
            blocks: ground.repeat(b * b),
            mean: ground,
            spread: 0.0,
            frame: frame(strip),
        };
        let (emptied, above) = (pic(true), pic(false));
        let left = [false, false, true, false];
        assert!(ground_runs_into(&emptied, &above, (0, 1), left, &cfg));
        assert!(!ground_runs_into(
            &emptied,
            &above,
            (0, 1),
            [false; 4],
            &cfg
        ));
        // A tile on the right leaves out the other end, where the seam stays.
        let right = [false, false, false, true];
        assert!(!ground_runs_into(&emptied, &above, (0, 1), right, &cfg));
    }

    #[test]
    fn the_ground_runs_into_a_cell_whose_side_bands_a_tile_covers_but_not_into_a_face() {
        // Cells in a column emptied between two tiles, over a plain ground: each shows the
        // left tile's 3-D side and shadow over its left three block columns and the ground
        // elsewhere, so the cell above (the ground coming in) has a mean pulled toward the
        // side. Counted away from the side bands and against the median colour, the ground
        // runs in; a tile's face in a shade of the ground's colour with a picture in its
        // middle keeps it out.
        let cfg = ReaderConfig::default();
        let (ground, side, ink) = (
            [239.0f32, 239.0, 239.0],
            [110.0f32, 95.0, 40.0],
            [40.0f32, 60.0, 140.0],
        );
        let b = cfg.blocks;
        let picture = |colour: &dyn Fn(usize, usize) -> [f32; 3]| {
            let blocks: Vec<f32> = (0..b * b).flat_map(|k| colour(k / b, k % b)).collect();
            let mut mean = [0.0f32; 3];
            for v in blocks.chunks_exact(3) {
                for ch in 0..3 {
                    mean[ch] += v[ch] / (b * b) as f32;
                }
            }
            // The frame: the ring of blocks, as the blocks show it.
            let frame: Vec<f32> = (0..b * b)
                .filter(|&k| {
                    let (r, c) = (k / b, k % b);
                    r == 0 || c == 0 || r + 1 == b || c + 1 == b
                })
                .flat_map(|k| colour(k / b, k % b))
                .collect();
            Picture {
                blocks,
                mean,
                spread: 10.0,
                frame,
            }
        };
        let emptied = picture(&|_, c| if c < 3 { side } else { ground });
        let between = [false, false, true, true];
        assert!(ground_runs_into(&emptied, &emptied, (0, 1), between, &cfg));
        // A face: a lighter shade of the ground with a picture over its middle.
        let face = picture(&|r, c| {
            if c < 3 {
                side
            } else if (3..8).contains(&r) && (3..8).contains(&c) {
                ink
            } else {
                ground
            }
        });
        assert!(!ground_runs_into(&face, &emptied, (0, 1), between, &cfg));
    }

    #[test]
    fn a_lone_emptied_cell_the_ground_runs_into_is_ground() {
        // A 1×2 board in a sheet with its ring of ground: a tile, and beside it a cell
        // emptied at the board's corner, alike to no other (its 3-D side on the left only),
        // whose top edge meets the ground above past that side. A tile face there (a
        // picture over most of it) stays as it is.
        let cfg = ReaderConfig::default();
        let b = cfg.blocks;
        let (ground, side, face) = (
            [200.0f32, 190.0, 150.0],
            [120.0f32, 90.0, 20.0],
            [40.0f32, 60.0, 200.0],
        );
        let ring: Vec<(usize, usize)> = (0..b)
            .flat_map(|r| (0..b).map(move |c| (r, c)))
            .filter(|&(r, c)| r == 0 || c == 0 || r + 1 == b || c + 1 == b)
            .collect();
        let pic = |inner: [f32; 3]| {
            let frame: Vec<f32> = ring
                .iter()
                .flat_map(|&(r, c)| {
                    if c < 4 && r == 0 || c == 0 {
                        side
                    } else {
                        ground
                    }
                })
                .collect();
            let blocks: Vec<f32> = (0..b * b)
                .flat_map(|i| if i % b < 3 { side } else { inner })
                .collect();
            Picture {
                blocks,
                mean: inner,
                spread: 0.0,
                frame,
            }
        };
        let plain = Picture {
            blocks: ground.repeat(b * b),
            mean: ground,
            spread: 0.0,
            frame: ground.repeat(ring.len()),
        };
        let (rows, cols) = (3usize, 4usize);
        for (inner, want) in [(ground, Seen::Ground), (face, Seen::Lone)] {
            let mut pics: Vec<Option<Picture>> = vec![Some(plain.clone()); rows * cols];
            pics[5] = Some(Picture {
                blocks: face.repeat(b * b),
                mean: face,
                spread: 0.0,
                frame: side.repeat(ring.len()),
            });
            pics[6] = Some(pic(inner));
            let mut seen = vec![Seen::Ground; rows * cols];
            seen[5] = Seen::Paired(1);
            seen[6] = Seen::Lone;
            ground_runs_on(
                &pics,
                (rows, cols),
                &mut seen,
                &vec![false; rows * cols],
                true,
                &cfg,
            );
            assert_eq!(seen[6], want, "inner {inner:?}");
            assert_eq!(seen[5], Seen::Paired(1));
            // A cell whose group shows the tiles' own frame is never run into: a face in the
            // ground's colour.
            let mut seen = vec![Seen::Ground; rows * cols];
            seen[5] = Seen::Paired(1);
            seen[6] = Seen::Lone;
            let mut tile_framed = vec![false; rows * cols];
            tile_framed[6] = true;
            ground_runs_on(&pics, (rows, cols), &mut seen, &tile_framed, true, &cfg);
            assert_eq!(seen[6], Seen::Lone, "inner {inner:?}");
        }
    }

    /// A board whose first column lies within a pitch of the window's left edge and holds
    /// one pair, the rest of the column emptied: the lattice's sheet of whole cells starts
    /// at that column, whose cells are then the ring the ground is learnt on, and the pair
    /// read as ground, a sure reading a column short. The pair shows the tiles' frame, so
    /// the grown grid is tried, and it reads with confidence.
    #[test]
    fn a_pair_on_the_line_beside_the_board_is_taken_in() {
        use crate::render::{render_board, Background, RenderSpec, Theme};
        let board = Board::from_rows(&[
            ".ABCDEFG", //
            ".HIJKLNO", ".PQRSTUV", ".VUTSRQP", "MONLKJIH", "MGFEDCBA",
        ])
        .unwrap();
        // Mahjong tiles (a thick 3-D back, no gap) on a plain ground, the board 14 px from
        // the window's left edge.
        let spec = RenderSpec {
            theme: Theme::Mahjong,
            cell: (40, 48),
            gap: 0,
            origin: Some((14, 70)),
            canvas: Some((14 + 8 * 40 + 70, 70 + 6 * 48 + 70)),
            background: Background::Plain,
            chrome: false,
            seed: 3,
            selected: Vec::new(),
            links: Vec::new(),
            jpeg_quality: None,
            scale: 1.0,
        };
        let drawn = render_board(&board, &spec);
        let r =
            read_board(&drawn.image, &Hints::default(), &ReaderConfig::default()).expect("reads");
        assert!(
            board.same_up_to_renaming(&r.board),
            "read {:?}\n{}",
            r.grid,
            r.board
        );
        assert!(r.unsure.is_empty(), "{:?}", r.unsure);
    }

    /// Tiles whose light face is nearly the light plain ground's colour (235 on 239), with
    /// their symbols along the left and right and the face's middle bare, and whose border
    /// is the ground's colour on top and left and a 3-D side on right and bottom. Below an
    /// emptied cell a tile's top edge meets the ground with no seam and its bare middle
    /// shows the ground in shadow, so the ground ran on into it and emptied its type; every
    /// tile shows the tiles' shared frame, which no ground cell does, so it stays a tile.
    #[test]
    fn the_ground_never_runs_into_a_pictured_tile_that_shows_the_tiles_frame() {
        let ground = [239u8, 239, 239];
        // Type 9 stands below the emptied cell (0, 1) and again at (2, 2).
        let kinds = [1, 0, 2, 3, 2, 9, 3, 1, 4, 4, 9, 0];
        let draw = |img: &mut RgbaImage, x: u32, y: u32, _: usize, k: u32| {
            if k == 0 {
                return;
            }
            let ink = [
                (k * 70 % 200) as u8,
                (60 + k * 40 % 150) as u8,
                (k * 110 % 180) as u8,
            ];
            for dy in 0..40 {
                for dx in 0..40 {
                    let c = if dx >= 36 || dy >= 36 {
                        [120, 120, 120]
                    } else if dx < 4 || dy < 4 {
                        ground
                    } else if (8..32).contains(&dy) && !(14..26).contains(&dx) {
                        ink
                    } else {
                        [235, 235, 235]
                    };
                    img.put_pixel(x + dx, y + dy, Rgba([c[0], c[1], c[2], 255]));
                }
            }
        };
        for found in [Found::InFrame, Found::Given] {
            let img = RgbaImage::from_pixel(40 * 7, 40 * 6, Rgba([239, 239, 239, 255]));
            let r = read_drawn_as(found, img, &kinds, 4, draw).expect("reads");
            let b = &r.board;
            assert_eq!(b.tile_count(), 10, "{found:?}\n{b}");
            assert!(b.get(Pos::new(1, 1)).is_tile(), "{found:?}\n{b}");
            assert_eq!(
                b.get(Pos::new(1, 1)),
                b.get(Pos::new(2, 2)),
                "{found:?}\n{b}"
            );
        }
    }

    /// A textured ground (each cell its own stretch of it: blocks scattered about one mean
    /// colour), eight pairs of tiles, and one tile a selection tinted to the ground's mean
    /// colour and texture: its blocks are not the ground's, and it keeps its twin's shape,
    /// so it is a tile without a twin (the selection), not ground. The ground's own cells,
    /// holding no type's shape, stay ground.
    #[test]
    fn a_tile_tinted_to_a_textured_grounds_mean_colour_keeps_its_shape() {
        let cfg = ReaderConfig::default();
        let n = cfg.blocks * cfg.blocks;
        let ring_len = 4 * cfg.blocks - 4;
        let mut s = 7u32;
        let mut rnd = move || {
            s = s.wrapping_mul(1664525).wrapping_add(1013904223);
            (s >> 8) as f32 / (1u32 << 24) as f32
        };
        let ground = [150.0f32, 170.0, 110.0];
        let mut stretch = |len: usize| -> Vec<f32> {
            (0..len * 3)
                .map(|i| ground[i % 3] + 40.0 * (2.0 * rnd() - 1.0))
                .collect()
        };
        let (rows, cols) = (6usize, 7usize);
        let mut pics: Vec<Option<Picture>> = (0..rows * cols)
            .map(|_| Some(Picture::from_blocks(stretch(n), stretch(ring_len))))
            .collect();
        let mut types: Vec<Vec<f32>> = Vec::new();
        for _ in 0..8 {
            types.push((0..n * 3).map(|_| 255.0 * rnd()).collect());
        }
        let cream = [240.0f32, 240.0, 230.0].repeat(ring_len);
        // The board's 4×5 cells inside the ring: eight pairs, three cells of ground and
        // the tinted tile (type 0's twin).
        let board: Vec<usize> = (1..rows - 1)
            .flat_map(|r| (1..cols - 1).map(move |c| r * cols + c))
            .collect();
        for (k, &i) in board.iter().enumerate().take(16) {
            pics[i] = Some(Picture::from_blocks(types[k / 2].clone(), cream.clone()));
        }
        // Type 0's blocks, each channel moved onto the ground's mean with nine tenths of
        // the ground's texture.
        let twin = pics[board[0]].clone().unwrap();
        let ground_spread = pics[0].as_ref().unwrap().spread;
        let mut tinted = twin.blocks.clone();
        for (ch, (&to, &m)) in ground.iter().zip(&twin.mean).enumerate() {
            let dev = twin
                .blocks
                .iter()
                .skip(ch)
                .step_by(3)
                .map(|v| (v - m).abs())
                .sum::<f32>()
                / n as f32;
            for v in tinted.iter_mut().skip(ch).step_by(3) {
                *v = to + (*v - m) * 0.9 * ground_spread / dev;
            }
        }
        let tinted_at = board[19];
        pics[tinted_at] = Some(Picture::from_blocks(tinted, cream.clone()));
        let ring_idx = ring(rows, cols);
        let ring_pics: Vec<&Picture> = ring_idx.iter().filter_map(|&i| pics[i].as_ref()).collect();
        let g = Ground::from_cells(&ring_pics, &cfg).unwrap();
        let p = pics[tinted_at].as_ref().unwrap();
        assert!(g.holds(p, &cfg) && !g.covers_most(p, &cfg), "{g:?} {p:?}");
        let seen = see(&pics, cols, &g, &ring_idx, &cfg);
        assert_eq!(seen[tinted_at], Seen::Lone);
        for &i in &board[16..19] {
            assert_eq!(seen[i], Seen::Ground, "cell {i}");
        }
        for &i in &board[..16] {
            assert!(
                matches!(seen[i], Seen::Paired(_)),
                "cell {i}: {:?}",
                seen[i]
            );
        }
    }

    /// A ring mostly on light tile faces (a lattice off the tiles' phase around a board
    /// that fills the window) whose mean colour lies within the tolerance of a light
    /// textured ground's: the ring's ground holds the faces, the one learnt from its calm
    /// cells does not.
    #[test]
    fn a_calm_ground_is_learnt_from_the_rings_calm_cells() {
        let cfg = ReaderConfig::default();
        let cell = |f: &dyn Fn(usize) -> [f32; 3]| {
            let blocks: Vec<f32> = (0..100).flat_map(f).collect();
            Picture::from_blocks(blocks, Vec::new())
        };
        // Light wood: (217, 217, 182) with a grain of ±3.
        let wood = |k: usize| {
            cell(&move |i| {
                let g = ((i * 7 + k) % 5) as f32 * 1.5 - 3.0;
                [217.0 + g, 217.0 + g, 182.0 + g]
            })
        };
        // A white face, a sixth of it in red-brown strokes: mean (230, 212, 199).
        let face = |k: usize| {
            cell(&move |i| {
                if (i + k).is_multiple_of(6) {
                    [205.0, 100.0, 20.0]
                } else {
                    [235.0, 235.0, 235.0]
                }
            })
        };
        // A 3x6 sheet: its top row and first column wood, the rest of its ring faces.
        let (rows, cols) = (3usize, 6usize);
        let pics: Vec<Option<Picture>> = (0..rows * cols)
            .map(|i| {
                Some(if i < cols || i % cols == 0 {
                    wood(i)
                } else {
                    face(i)
                })
            })
            .collect();
        let axis = Axis {
            pitch: 10.0,
            phase: 0.0,
            strength: 1.0,
        };
        let mut sheet = Sheet {
            x: axis,
            y: axis,
            kx: 0,
            ky: 0,
            rows,
            cols,
            pics,
        };
        let f = face(0);
        assert!(colour_dist(f.mean, wood(0).mean) <= cfg.ground_margin * 2.0);
        assert!(f.spread >= cfg.busy_ground_spread, "{}", f.spread);
        let whole = ring_ground(&sheet, &cfg).unwrap();
        assert!(whole.spread_max > cfg.busy_ground_spread && whole.holds(&f, &cfg));
        let g = calm_ring_ground(&sheet, &cfg).unwrap();
        assert!(g.spread_max < cfg.busy_ground_spread, "{g:?}");
        assert!(g.holds(&wood(3), &cfg) && !g.holds(&f, &cfg), "{g:?}");
        // A ring of three calm cells holds no calm ground.
        for i in 1..cols {
            sheet.pics[i] = Some(face(i));
        }
        assert!(calm_ring_ground(&sheet, &cfg).is_none());
    }

    #[test]
    fn a_group_mostly_outside_the_board_is_ground() {
        // A 2×2 board in a sheet with its ring: three cells of one group, and one cell that
        // pairs with two ring cells (a tile's side beside the board and in an emptied cell
        // alike). No ground cell reaches any of them; the group whose members lie mostly
        // off the board is no tile type.
        let (rows, cols) = (4usize, 4usize);
        let mut seen = vec![Seen::Ground; rows * cols];
        for i in [5, 6, 9] {
            seen[i] = Seen::Paired(1);
        }
        for i in [10, 7, 11] {
            seen[i] = Seen::Paired(2);
        }
        let pics: Vec<Option<Picture>> = vec![None; rows * cols];
        let none = vec![false; rows * cols];
        ground_runs_on(
            &pics,
            (rows, cols),
            &mut seen,
            &none,
            true,
            &ReaderConfig::default(),
        );
        assert_eq!(seen[10], Seen::Ground);
        assert_eq!(seen[5], Seen::Paired(1));
    }

    /// Draws the pixel mean of tiles `a` and `b` at (x, y): a picture as near one as the
    /// other.
    fn blend(img: &mut RgbaImage, x: u32, y: u32, a: u32, b: u32) {
        let mut one = RgbaImage::new(40, 40);
        let mut two = RgbaImage::new(40, 40);
        tile(&mut one, 0, 0, a, false);
        tile(&mut two, 0, 0, b, false);
        for (dx, dy, p) in one.enumerate_pixels() {
            let q = two.get_pixel(dx, dy);
            let m = |i: usize| ((p[i] as u16 + q[i] as u16) / 2) as u8;
            img.put_pixel(x + dx, y + dy, Rgba([m(0), m(1), m(2), 255]));
        }
    }

    /// `rows` × `cols` tiles of 40 px from (40, 40) on a green ground, pairs dealt in an
    /// order shuffled by `seed`, and each cell's pair index (row-major).
    fn shuffled_pairs(rows: u32, cols: u32, seed: u32) -> (RgbaImage, Vec<u32>) {
        let mut order: Vec<u32> = (0..rows * cols).collect();
        let mut s = seed;
        for i in (1..order.len()).rev() {
            s = s.wrapping_mul(1664525).wrapping_add(1013904223);
            order.swap(i, (s >> 8) as usize % (i + 1));
        }
        let mut img =
            RgbaImage::from_pixel(40 * (cols + 2), 40 * (rows + 2), Rgba([30, 100, 40, 255]));
        let mut kinds = vec![0u32; (rows * cols) as usize];
        for (i, &slot) in order.iter().enumerate() {
            let (r, c) = (slot / cols, slot % cols);
            tile(&mut img, 40 + c * 40, 40 + r * 40, i as u32 / 2 + 1, false);
            kinds[slot as usize] = i as u32 / 2;
        }
        (img, kinds)
    }

    #[test]
    fn a_lattice_half_a_cell_off_on_both_axes_finds_the_tiles_phase() {
        // Six rows and ten columns of 40 px tiles from (40, 40), thirty pairs dealt in a
        // shuffled order; the lattice is given with both axes half a cell off. (On these
        // flat-ground tiles the sweeps alone find the phase too; a full KShisen board over
        // a photo ground, where they did not, needed the seeds.)
        let (rows, cols) = (6u32, 10u32);
        let (img, _) = shuffled_pairs(rows, cols, 7);
        let cfg = ReaderConfig::default();
        let (w, h) = img.dimensions();
        let integral = Integral::new(&img, 0, 0, w as i64, h as i64);
        let half_off = Axis {
            pitch: 40.0,
            phase: 20.0,
            strength: 1.0,
        };
        let sheet = Sheet::new(&integral, half_off, half_off, (0, 0, w, h), &cfg);
        let ground = ring_ground(&sheet, &cfg).unwrap();
        let (dx, dy) = refine_phase(&integral, &sheet, &ground, &cfg);
        // Tiles start at multiples of 40: the shift must bring the phase 20 back there.
        let off = |d: f32| {
            (20.0 + d)
                .rem_euclid(40.0)
                .min(40.0 - (20.0 + d).rem_euclid(40.0))
        };
        assert!(off(dx) <= 4.0 && off(dy) <= 4.0, "({dx}, {dy})");
    }

    #[test]
    fn a_board_refused_on_a_third_of_its_pitch_reads_on_the_multiple() {
        // Four rows and six columns of 40 px tiles from (40, 40), twelve pairs shuffled;
        // the lattice is given at a third of the pitch across and a half down, where the
        // cells hold parts of tiles.
        let (rows, cols) = (4u32, 6u32);
        let (img, kinds) = shuffled_pairs(rows, cols, 11);
        let cfg = ReaderConfig::default();
        let (w, h) = img.dimensions();
        let integral = Integral::new(&img, 0, 0, w as i64, h as i64);
        let axis = |pitch: f32| Axis {
            pitch,
            phase: 0.0,
            strength: 1.0,
        };
        let lattice = (axis(40.0 / 3.0), axis(20.0));
        let r = coarser(
            &img,
            &integral,
            (0, 0, w, h),
            lattice,
            &Hints::default(),
            &cfg,
        )
        .expect("a multiple of the lattice reads");
        assert!((r.grid.pitch.0 - 40.0).abs() < 0.5, "{:?}", r.grid);
        assert!((r.grid.pitch.1 - 40.0).abs() < 0.5, "{:?}", r.grid);
        let text: Vec<String> = (0..rows as usize)
            .map(|row| {
                (0..cols as usize)
                    .map(|c| type_char(kinds[row * cols as usize + c] as usize).unwrap() as char)
                    .collect()
            })
            .collect();
        let truth = Board::from_rows(&text).unwrap();
        assert!(
            truth.same_up_to_renaming(&r.board),
            "{}\n--\n{truth}",
            r.board
        );
        // A hint that fixes the columns leaves that axis's pitch as given: no multiple of
        // a third of the tiles across reads.
        let hints = Hints {
            cols: Some(18),
            ..Hints::default()
        };
        let fixed = coarser(&img, &integral, (0, 0, w, h), lattice, &hints, &cfg);
        assert!(fixed.is_none_or(|r| (r.grid.pitch.0 - 40.0 / 3.0).abs() < 0.5));
    }

    #[test]
    fn twins_put_a_pitch_a_quarter_pixel_off_back_in_line() {
        // Twelve columns and four rows of 40 px tiles, each type's two copies two rows and
        // five or seven columns apart; the lattice is given 0.25 px short on both axes.
        let (rows, cols) = (4u32, 12u32);
        let mut img =
            RgbaImage::from_pixel(40 * (cols + 2), 40 * (rows + 2), Rgba([30, 100, 40, 255]));
        for r in 0..rows {
            for c in 0..cols {
                let kind = (r % 2) * cols + (c + (r / 2) * 5) % cols + 1;
                tile(&mut img, 40 + c * 40, 40 + r * 40, kind, false);
            }
        }
        let cfg = ReaderConfig::default();
        let (w, h) = img.dimensions();
        let integral = Integral::new(&img, 0, 0, w as i64, h as i64);
        let axis = |n: u32| Axis {
            pitch: 39.75,
            // The middle line (n / 2 + 1 cells in) in place, as the phase search leaves it.
            phase: (n / 2 + 1) as f32 * 0.25,
            strength: 1.0,
        };
        let sheet = Sheet::new(&integral, axis(cols), axis(rows), (0, 0, w, h), &cfg);
        let ground = ring_ground(&sheet, &cfg).unwrap();
        let (x, y) = refine_pitch(&integral, &sheet, &ground, &cfg);
        assert!((x.pitch - 40.0).abs() < 0.05, "{x:?}");
        assert!((y.pitch - 40.0).abs() < 0.05, "{y:?}");
    }

    #[test]
    fn a_lone_picture_joins_the_one_odd_type_it_is_near() {
        // Type 1 shows three times, type 2 twice, and one picture halfway between them:
        // tiles come in pairs, so it is type 1's fourth, shown selected.
        let kinds = [1, 2, 3, 1, 2, 3, 1, 9];
        let draw = |img: &mut RgbaImage, x, y, _, k| {
            if k == 9 {
                blend(img, x, y, 1, 2)
            } else {
                tile(img, x, y, k, false)
            }
        };
        let r = read_drawn(&kinds, 4, GREEN, draw);
        let b = &r.board;
        assert!(r.unsure.is_empty(), "{:?}\n{b}", r.unsure);
        assert_eq!(b.get(Pos::new(1, 3)), b.get(Pos::new(0, 0)), "{b}");
        assert_eq!(r.selected, vec![Pos::new(1, 3)], "{b}");
        // With both types odd, pairing cannot say which: the picture is not joined (the
        // frame is refused, or read with it unsure).
        let kinds = [1, 2, 3, 1, 2, 3, 1, 2, 4, 4, 9, 0];
        let r = try_read_drawn(&kinds, 4, GREEN, |img, x, y, i, k| {
            if k > 0 {
                draw(img, x, y, i, k)
            }
        });
        if let Ok(r) = r {
            assert!(
                r.unsure.contains(&Pos::new(2, 2)),
                "{:?}\n{}",
                r.unsure,
                r.board
            );
            assert!(r.selected.is_empty(), "{:?}\n{}", r.selected, r.board);
        }
    }

    /// Four tiles of one type each marked in another corner (a mark no twin shares) join
    /// it by shape as four selections, more than a game shows at once: they stay in their
    /// type, unsure. One such tile alone is a selection.
    #[test]
    fn more_joins_into_one_type_than_a_selection_are_unsure() {
        let corners = [(6, 6), (22, 6), (6, 22), (22, 22)];
        let marked = |n: usize| {
            move |img: &mut RgbaImage, x: u32, y: u32, i: usize, k: u32| {
                tile(img, x, y, k, false);
                if i >= 8 && i < 8 + n {
                    let (mx, my) = corners[i - 8];
                    for dy in 0..8 {
                        for dx in 0..8 {
                            img.put_pixel(x + mx + dx, y + my + dy, Rgba([0, 0, 0, 255]));
                        }
                    }
                }
            }
        };
        let kinds = [1, 2, 3, 4, 2, 3, 4, 1, 1, 1, 1, 1];
        let r = read_drawn(&kinds, 4, GREEN, marked(4));
        let b = &r.board;
        let joined: Vec<Pos> = (0..4).map(|c| Pos::new(2, c)).collect();
        for &p in &joined {
            assert_eq!(b.get(p), b.get(Pos::new(0, 0)), "{b}");
        }
        assert_eq!(r.unsure, joined, "{b}");
        assert!(r.selected.is_empty(), "{:?}\n{b}", r.selected);
        let r = read_drawn(&kinds, 4, GREEN, marked(1));
        assert!(r.unsure.is_empty(), "{:?}\n{}", r.unsure, r.board);
        assert_eq!(r.selected, vec![Pos::new(2, 0)], "{}", r.board);
    }

    /// Twelve cells of one picture among six pairs: a crowd, no tile type. No board
    /// measured holds so many obstacles, while emptied cells and 3-D sides have read so,
    /// so the crowd reads as obstacles the bot must not trust.
    #[test]
    fn a_crowd_of_one_picture_reads_as_unsure_obstacles() {
        let kinds = [
            1, 2, 3, 4, 5, 6, //
            7, 7, 7, 7, 7, 7, //
            1, 2, 3, 4, 5, 6, //
            7, 7, 7, 7, 7, 7,
        ];
        let r = read_drawn(&kinds, 6, GREEN, |img, x, y, _, k| {
            tile(img, x, y, k, false)
        });
        let crowd: Vec<Pos> = (0..kinds.len())
            .filter(|&i| kinds[i] == 7)
            .map(|i| Pos::new(i / 6, i % 6))
            .collect();
        for &p in &crowd {
            assert_eq!(r.board.get(p), Cell::Obstacle, "{p}\n{}", r.board);
        }
        assert_eq!(r.unsure, crowd, "{}", r.board);
    }

    #[test]
    fn a_tile_framed_by_its_selection_keeps_its_type_and_reads_selected() {
        // Four pairs on a 2×4 board; the selection draws tile (1, 1)'s border red and
        // leaves its face as its twin's.
        let kinds = [1, 2, 3, 4, 4, 2, 1, 3];
        let r = read_drawn(&kinds, 4, GREEN, |img, x, y, i, k| {
            let border = if i == 5 {
                [230, 30, 30]
            } else {
                [240, 240, 230]
            };
            tile_with(img, x, y, k, false, border, None)
        });
        let b = &r.board;
        assert!(r.unsure.is_empty(), "{:?}\n{b}", r.unsure);
        assert_eq!(b.get(Pos::new(1, 1)), b.get(Pos::new(0, 1)), "{b}");
        assert_eq!(r.selected, vec![Pos::new(1, 1)], "{b}");
        // Unframed, the same board shows no selection.
        let r = read_drawn(&kinds, 4, GREEN, |img, x, y, _, k| {
            tile(img, x, y, k, false)
        });
        assert!(r.selected.is_empty(), "{:?}", r.selected);
    }
}
