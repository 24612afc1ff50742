//! The legacy pass chain: the first reader, kept beside the stage reader ([`super::reader`])
//! until that one reads every set as well. It finds a grid from the frame's edge profiles
//! ([`super::grid`]), reads its cells ([`read_cells_detail`]), then repairs the reading in
//! passes: grows the board to close pairs, trims lines, fits a backdrop panel, rephases,
//! merges half-tiles, moves onto the board's outline, extends past gaps and walls off
//! crowded types. [`super::read_auto`] chooses between the two readers.

use super::cells::{features, features_with, integral_for, CellFeatures};
use super::pixels::colour_dist;
use super::{
    animation, calibrate, cells, grid, obstacles, outline, panel, pixels, reader, types, Hints,
    ReadError, ReaderConfig, Reading, NEAR_EXACT_TWINS, TYPE_THRESHOLD,
};
use crate::board::{type_char, Board, Cell, Pos, TYPE_ALPHABET};
use crate::geometry::Grid;
use image::RgbaImage;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// The legacy pass chain: finds the board in `frame` and reads it.
pub(crate) fn read_legacy(frame: &RgbaImage, hints: &Hints) -> Result<Reading, ReadError> {
    let (w, h) = frame.dimensions();
    if w < 2 * grid::MIN_PITCH as u32 || h < 2 * grid::MIN_PITCH as u32 {
        return Err(ReadError::NoBoard(format!(
            "the frame is {w}x{h} px, too small to hold a board"
        )));
    }
    let (g, integral) = grid::locate(frame, hints)?;
    let detail = read_cells_detail(&integral, frame, &g)?;
    // A hinted size (either axis) stands: the reader does not grow or trim the board.
    let sized = hints.rows.is_some() || hints.cols.is_some();
    let (integral, detail) = if sized {
        (integral, detail)
    } else {
        let (i, d) = grow_to_close_pairs(
            frame,
            integral,
            detail,
            Growth::FewerOpen,
            usize::MAX,
            usize::MAX,
        );
        // Closing pairs side by side fails where the far tiles' partners lie past two
        // sides (a sparse rendered board whose busy area holds the right 6 of 10 columns and
        // 7 of 8 rows: growing left opens pairs only the bottom row closes). Then a few steps
        // that take the most paired tiles are tried on a sparse reading (a quarter of its cells
        // empty: only empty stretches split a board's busy area), on lattices of up to
        // [`MAX_FALLBACK_CELLS`].
        let b = &d.0.board;
        let empty = b.cells().iter().filter(|c| c.is_empty()).count();
        if d.0.unsure.is_empty() || empty * 4 < b.rows() * b.cols() {
            (i, d)
        } else {
            grow_to_close_pairs(
                frame,
                i,
                d,
                Growth::MorePaired,
                FALLBACK_STEPS,
                MAX_FALLBACK_CELLS,
            )
        }
    };
    let box_found = detail.0.grid;
    // A hinted size is kept: trimming would only take lines the user said are board.
    let first = if hints.rows.is_some() && hints.cols.is_some() {
        detail.0
    } else {
        trim(&integral, frame, detail)
    };
    // A backdrop panel closed around the board bounds it where tiles cannot (cleared edge
    // lines, chrome above it that pairs with itself).
    let first = if sized {
        first
    } else {
        let empty: Vec<Pos> = first
            .board
            .positions()
            .filter(|&p| first.board.get(p).is_empty())
            .collect();
        match panel::fit(frame, &first.grid, &empty) {
            Some(g2) => reread_no_worse(&integral_for(frame, &g2), frame, &g2, first),
            None => {
                let first = drop_held_edges(&integral, frame, &box_found, first);
                drop_bare_edges(&integral, frame, first)
            }
        }
    };
    // The pitch from the pairs just read; kept when the cells read at least as consistently.
    let first = match calibrate::refine_pitch(frame, &first, calibrate::Least::PerCell) {
        Some(g2) => reread_no_worse(&integral, frame, &g2, first),
        None => first,
    };
    let refined = refine_origin(frame, &first);
    let moved = (refined.origin.0 - first.grid.origin.0)
        .abs()
        .max((refined.origin.1 - first.grid.origin.1).abs());
    let reading = if moved >= 1.0 {
        read_cells_detail(&integral, frame, &refined)
            .map(|(r, _)| r)
            .unwrap_or(first)
    } else {
        first
    };
    // Halves merged first: a doubled pitch may still need its phase.
    let pitch_before = reading.grid.pitch;
    let merged = merge_halves(&integral, frame, reading);
    // The busy area was measured at the fraction's pitch; at the tiles' own a sparse
    // board's far tiles may lie past it as at first, so the growth that
    // closes open pairs is tried again.
    let grow_merged = merged.grid.pitch != pitch_before && !merged.unsure.is_empty() && !sized;
    let (integral, reading) = if grow_merged {
        let wider = integral_for(frame, &merged.grid);
        match read_cells_detail(&wider, frame, &merged.grid) {
            Ok(d) => {
                let (i, (r, _)) = grow_to_close_pairs(
                    frame,
                    wider,
                    d,
                    Growth::MorePaired,
                    usize::MAX,
                    usize::MAX,
                );
                (i, r)
            }
            Err(_) => (integral, merged),
        }
    } else {
        (integral, merged)
    };
    let reading = rephase(&integral, frame, reading);
    let reading = onto_outline(&integral, frame, reading);
    let reading = extend_past_gaps(frame, reading);
    let g = reading.grid;
    animation::check_link_line(frame, &g)?;
    // Only when the grid is found: the live bot's known grid (`read_cells`) stays on the
    // tiles' own lattice, where the link-line test is what catches a removal.
    if let Some(share) = animation::ground_through_tiles(frame, &g, &reading.board) {
        if share > animation::GROUND_THROUGH_MAX {
            return Err(ReadError::Animation(format!(
                "the pictures on the {}x{} lattice found show the board's ground through \
                 {:.0} % of a typical one: not tiles at rest (sprites of a removal drawn \
                 over the board, or a lattice that misses the tiles)",
                g.rows,
                g.cols,
                share * 100.0
            )));
        }
    }
    let reading = wall_off_crowded(check_types(reading)?, true);
    let reading = rephase_walled(&integral, frame, reading);
    let tiles = reading.board.tile_count();
    if tiles == 0 {
        return Err(ReadError::NoBoard(format!(
            "the {}x{} lattice found holds no tiles",
            g.rows, g.cols
        )));
    }
    if reading.unsure.len() * 2 > tiles {
        return Err(ReadError::NoBoard(format!(
            "the {}x{} lattice found has {} of {tiles} cells without a matching pair: \
             not a tile board",
            g.rows,
            g.cols,
            reading.unsure.len()
        )));
    }
    // A second opinion on the grid found: the stage reader's cells on the same lattice.
    // Where most pictures there have no twin (the numbered tiles of a sliding puzzle, a grid
    // of digits) the frame is not a Lianliankan board, whatever types the passes merged.
    if let Err(e @ ReadError::NotLianliankan(_)) =
        reader::read_grid(frame, &reading.grid, &ReaderConfig::default())
    {
        return Err(e);
    }
    Ok(reading)
}

/// The type threshold for this frame: tiles of one type differ by little on a clean frame
/// and by more on a real screenshot (JPEG, glints, scaling), so the threshold follows the
/// typical distance from a tile to its nearest look-alike (its pair): 2.5 × the median of
/// those distances, never below [`TYPE_THRESHOLD`] nor above 20.
pub(crate) fn type_threshold(cells: &[&CellFeatures]) -> f32 {
    const CAP: f32 = 20.0;
    if cells.len() < 4 {
        return TYPE_THRESHOLD;
    }
    let step = cells.len().div_ceil(120).max(1);
    let mut nn: Vec<f32> = (0..cells.len())
        .step_by(step)
        .map(|i| {
            let mut best = CAP;
            for (j, c) in cells.iter().enumerate() {
                if j != i {
                    best = best.min(cells::centre_dist_limit(cells[i], c, best));
                }
            }
            best
        })
        .collect();
    nn.sort_by(f32::total_cmp);
    (nn[nn.len() / 2] * 2.5).clamp(TYPE_THRESHOLD, CAP)
}

/// How sharply the picture changes at the lattice line between neighbouring cells `a` and
/// `b`, against how it changes elsewhere in the two cells: the largest step of the line's
/// profile (mean of the middle 60 % across) within 3 px of the boundary over the largest
/// step away from it (+1). Separate objects (tiles, stones) have their outlines there; a
/// frame or bar drawn across both cells has nothing particular at the line. The largest
/// step, not a typical one, is the yardstick: a fine stripe has a step within 3 px of any
/// line, and its typical step is 0.
pub(crate) fn boundary_edge(frame: &RgbaImage, g: &Grid, a: Pos, b: Pos) -> f32 {
    let lum = |x: i64, y: i64| pixels::rgb_at(frame, x, y).map(|p| (p[0] + p[1] + p[2]) / 3.0);
    let horizontal = a.row == b.row;
    let (r0, c0) = (a.row.min(b.row) as i32, a.col.min(b.col) as i32);
    let (x0, y0, pw, ph) = g.cell_rect(r0, c0);
    // Along: across the boundary, half a cell each side; across: the middle 60 %.
    let (bound, along, across0, across_len) = if horizontal {
        (x0 + pw, pw, y0, ph)
    } else {
        (y0 + ph, ph, x0, pw)
    };
    let t0 = (bound - along * 0.5) as i64;
    let t1 = (bound + along * 0.5) as i64;
    let s0 = (across0 + across_len * 0.2) as i64;
    let s1 = (across0 + across_len * 0.8) as i64;
    let profile: Vec<f32> = (t0..=t1)
        .map(|t| {
            let (mut sum, mut n) = (0f32, 0f32);
            for s in (s0..s1).step_by(2) {
                let v = if horizontal { lum(t, s) } else { lum(s, t) };
                if let Some(v) = v {
                    sum += v;
                    n += 1.0;
                }
            }
            if n > 0.0 {
                sum / n
            } else {
                0.0
            }
        })
        .collect();
    let (mut near, mut away) = (0f32, Vec::new());
    for (i, w) in profile.windows(2).enumerate() {
        let step = (w[1] - w[0]).abs();
        let at = (t0 + i as i64) as f32 + 0.5;
        if (at - bound).abs() <= 3.5 {
            near = near.max(step);
        } else {
            away.push(step);
        }
    }
    if away.is_empty() {
        return 0.0;
    }
    near / (away.iter().fold(0f32, |a, &b| a.max(b)) + 1.0)
}

/// The [`boundary_edge`] above which two neighbouring cells show separate objects: the step
/// at the line is twice any inside them. Measured on every line trimmed as a frame or panel
/// in the real screenshots (Brown Dust II's gold frame and margin, QQ's panels above the
/// board in PNG and JPEG, Ele.me's): 0.0–1.4; between Brown Dust II's stone rabbits, where
/// they ring a board: 2.5 along the rows, 4.2 down the columns.
pub(crate) const SEPARATE: f32 = 2.0;

/// Drops edge rows and columns that are not board: a line along the edge whose pictures
/// largely (over 40 %) have no partner anywhere, or mostly (over 60 %) repeat along the
/// line (other game panels, a frame around the board), or both together (over 55 %),
/// goes, one line at a time, while at least two rows and columns remain. Neighbours with an
/// outline between them at the lattice line ([`SEPARATE`]) are separate objects, not one
/// picture drawn across: a ring of stones walling a board in repeats all along its lines too
/// (Brown Dust II's rings of stone rabbits: without the outline test they go as a frame).
pub(crate) fn trim(
    integral: &pixels::Integral,
    frame: &RgbaImage,
    detail: (Reading, Vec<bool>),
) -> Reading {
    let (mut r, _) = detail;
    while r.grid.rows > 2 && r.grid.cols > 2 {
        let g = r.grid;
        if g.rows <= 2 || g.cols <= 2 {
            break;
        }
        let bad = |cells: Vec<Pos>| -> f32 {
            let full: Vec<Pos> = cells
                .into_iter()
                .filter(|&p| !r.board.get(p).is_empty())
                .collect();
            if full.len() < 3 {
                return 0.0;
            }
            let odd = full.iter().filter(|p| r.unsure.contains(p)).count();
            // Runs of one picture along the line: a panel drawn wider than a cell, unless the
            // picture is also inside the board (a row of the locks that wall it in).
            let inner = |t: Cell| {
                (1..g.rows - 1)
                    .any(|row| (1..g.cols - 1).any(|c| r.board.get(Pos::new(row, c)) == t))
            };
            let runs = full
                .windows(2)
                .filter(|w| {
                    let near = w[0].row.abs_diff(w[1].row) + w[0].col.abs_diff(w[1].col) == 1;
                    let t = r.board.get(w[0]);
                    near && t.is_tile() && t == r.board.get(w[1]) && !inner(t)
                })
                .filter(|w| boundary_edge(frame, &g, w[0], w[1]) < SEPARATE)
                .count();
            // Unpaired pictures condemn a line sooner than runs: a row of locks or crates
            // on a real board repeats too, a frame repeats all along.
            let n = full.len() as f32;
            (odd as f32 / n / 0.4)
                .max(runs as f32 / n / 0.6)
                .max((odd + runs) as f32 / n / 0.55)
        };
        let alien = alien_edges(frame, &r);
        let edges = [
            bad((0..g.cols).map(|c| Pos::new(0, c)).collect()),
            bad((0..g.cols).map(|c| Pos::new(g.rows - 1, c)).collect()),
            bad((0..g.rows).map(|row| Pos::new(row, 0)).collect()),
            bad((0..g.rows).map(|row| Pos::new(row, g.cols - 1)).collect()),
        ];
        let edges: Vec<f32> = edges
            .iter()
            .zip(alien)
            .map(|(&b, a)| if a { b.max(2.0) } else { b })
            .collect();
        let (k, worst) = edges
            .iter()
            .enumerate()
            .fold((0, 0f32), |b, (k, &v)| if v > b.1 { (k, v) } else { b });
        if worst <= 1.0 {
            break;
        }
        let mut ng = g;
        match k {
            0 => {
                ng.origin.1 += g.pitch.1;
                ng.rows -= 1;
            }
            1 => ng.rows -= 1,
            2 => {
                ng.origin.0 += g.pitch.0;
                ng.cols -= 1;
            }
            _ => ng.cols -= 1,
        }
        match read_cells_detail(integral, frame, &ng) {
            Ok((n, _)) => r = n,
            Err(_) => break,
        }
    }
    r
}

/// How far (mean absolute difference per channel) every crossing along an edge line must be
/// from the board's ground for the line to lie outside the board: an Ele.me board's black
/// side panel and wooden frame 80–181 off its tan ground; on gradient backgrounds the edge
/// lines' crossings drift from the middle's by 18–30 (16 rendered fixtures).
pub(crate) const ALIEN_GROUND: f32 = 50.0;

/// Which edge lines (top, bottom, left, right) of a reading lie outside the board by its
/// ground: where four pictures meet, the ground a board stands on shows between their
/// corners, one colour over most of the board (Ele.me: 76–87 % of its crossings;
/// QQ, whose tiles touch, shows their rims there: 38 %). A panel beside the board that pairs
/// with itself (a red box drawn in lines, a caption) shows its own ground at every crossing.
pub(crate) fn alien_edges(frame: &RgbaImage, r: &Reading) -> [bool; 4] {
    let g = r.grid;
    let full = |row: usize, c: usize| !r.board.get(Pos::new(row, c)).is_empty();
    let meet = |row: usize, c: usize| {
        full(row - 1, c - 1) && full(row - 1, c) && full(row, c - 1) && full(row, c)
    };
    let cross = |row: usize, c: usize| -> Option<[f32; 3]> {
        if !meet(row, c) {
            return None;
        }
        Some(pixels::mode_colour(
            &crossing_pixels(frame, &g, row, c),
            12.0,
        ))
    };
    // The ground from at most 64 crossings spread over the board (the mode is quadratic).
    let spots: Vec<(usize, usize)> = (1..g.rows)
        .flat_map(|row| (1..g.cols).map(move |c| (row, c)))
        .filter(|&(row, c)| meet(row, c))
        .collect();
    let stride = spots.len().div_ceil(64).max(1);
    let all: Vec<[f32; 3]> = spots
        .iter()
        .step_by(stride)
        .filter_map(|&(row, c)| cross(row, c))
        .collect();
    if all.len() < 8 {
        return [false; 4];
    }
    let ground = pixels::mode_colour(&all, 12.0);
    let held = all
        .iter()
        .filter(|&&p| colour_dist(p, ground) <= 18.0)
        .count();
    if held * 2 <= all.len() {
        return [false; 4];
    }
    let alien = |xs: Vec<(usize, usize)>| {
        let v: Vec<[f32; 3]> = xs
            .into_iter()
            .filter_map(|(row, c)| cross(row, c))
            .collect();
        v.len() >= 2 && v.iter().all(|&p| colour_dist(p, ground) > ALIEN_GROUND)
    };
    [
        alien((1..g.cols).map(|c| (1, c)).collect()),
        alien((1..g.cols).map(|c| (g.rows - 1, c)).collect()),
        alien((1..g.rows).map(|row| (row, 1)).collect()),
        alien((1..g.rows).map(|row| (row, g.cols - 1)).collect()),
    ]
}

/// Edge lines all ground that only the chrome [`trim`] dropped held in the box (`start`, the
/// box before the trim): the box found ends at its paired cells, and a title bar wider than
/// the board, or above a line of ground, kept those lines in it. Only where no backdrop
/// panel bounds the board (a panel marks its extent past its outermost tiles).
pub(crate) fn drop_held_edges(
    integral: &pixels::Integral,
    frame: &RgbaImage,
    start: &Grid,
    r: Reading,
) -> Reading {
    let g = r.grid;
    // Lines dropped before (top, left) and after (bottom, right) the board, per axis.
    let before = |o: f32, s: f32, p: f32| ((o - s) / p).round() as usize;
    let top = before(g.origin.1, start.origin.1, g.pitch.1);
    let left = before(g.origin.0, start.origin.0, g.pitch.0);
    let bottom = (start.rows - g.rows).saturating_sub(top);
    let right = (start.cols - g.cols).saturating_sub(left);
    // Nothing dropped, or chrome on both sides of an axis: a frame around the board,
    // which bounds it as a panel does (a Brown Dust II board's gold frame).
    if top + left + bottom + right == 0 || (top > 0 && bottom > 0) || (left > 0 && right > 0) {
        return r;
    }
    let empty_line = |rows, cols| line_empty(&r.board, rows, cols);
    let (mut r0, mut r1, mut c0, mut c1) = (0, g.rows, 0, g.cols);
    while r1 - r0 > 2 && empty_line(r0..r0 + 1, c0..c1) {
        r0 += 1;
    }
    while r1 - r0 > 2 && empty_line(r1 - 1..r1, c0..c1) {
        r1 -= 1;
    }
    while c1 - c0 > 2 && empty_line(r0..r1, c0..c0 + 1) {
        c0 += 1;
    }
    while c1 - c0 > 2 && empty_line(r0..r1, c1 - 1..c1) {
        c1 -= 1;
    }
    if (r1 - r0, c1 - c0) == (g.rows, g.cols) {
        return r;
    }
    let ng = g.sub(r0..r1, c0..c1);
    match read_cells_detail(integral, frame, &ng) {
        Ok((n, _)) => n,
        Err(_) => r,
    }
}

/// Without a closed backdrop panel nothing marks a board's extent past its outermost
/// tiles (a cleared edge line looks like the ground around a board), so edge lines of
/// ground only go, as the box found ends at its paired cells. Such lines remain where the
/// ground drifts across the board (a gradient): at the box stage its far part did not
/// match the ring and read as pictures repeated along the line.
pub(crate) fn drop_bare_edges(
    integral: &pixels::Integral,
    frame: &RgbaImage,
    r: Reading,
) -> Reading {
    let g = r.grid;
    let empty_line = |rows, cols| line_empty(&r.board, rows, cols);
    if !(empty_line(0..1, 0..g.cols)
        || empty_line(g.rows - 1..g.rows, 0..g.cols)
        || empty_line(0..g.rows, 0..1)
        || empty_line(0..g.rows, g.cols - 1..g.cols))
    {
        return r;
    }
    let size = frame.dimensions();
    let feats: Option<Vec<CellFeatures>> = (0..g.rows * g.cols)
        .map(|i| {
            features_with(
                integral,
                &g,
                (i / g.cols) as i32,
                (i % g.cols) as i32,
                size,
                false,
            )
        })
        .collect();
    let Some(feats) = feats else {
        return r;
    };
    let gap = |cut: f32| gap_colour(frame, &g, &feats, cut);
    let (_, drifted) =
        classify_empty_detail(&feats, &ring_features(integral, &g, size), g.cols, &gap);
    let bare = |rows: std::ops::Range<usize>, cols: std::ops::Range<usize>| {
        line_empty(&r.board, rows.clone(), cols.clone())
            && rows
                .flat_map(|row| cols.clone().map(move |c| row * g.cols + c))
                .any(|i| drifted[i])
    };
    let (mut r0, mut r1, mut c0, mut c1) = (0, g.rows, 0, g.cols);
    while r1 - r0 > 1 && c1 - c0 > 1 {
        if bare(r0..r0 + 1, c0..c1) {
            r0 += 1;
        } else if bare(r1 - 1..r1, c0..c1) {
            r1 -= 1;
        } else if bare(r0..r1, c0..c0 + 1) {
            c0 += 1;
        } else if bare(r0..r1, c1 - 1..c1) {
            c1 -= 1;
        } else {
            break;
        }
    }
    if (r1 - r0, c1 - c0) == (g.rows, g.cols) {
        return r;
    }
    let ng = g.sub(r0..r1, c0..c1);
    reread_no_worse(integral, frame, &ng, r)
}

/// Whether every cell of `board` in `rows` × `cols` is empty (an edge line of ground).
pub(crate) fn line_empty(
    board: &Board,
    rows: std::ops::Range<usize>,
    cols: std::ops::Range<usize>,
) -> bool {
    rows.flat_map(|row| cols.clone().map(move |c| Pos::new(row, c)))
        .all(|p| board.get(p).is_empty())
}

/// Centres the lattice lines in the gaps between tiles. Edge profiles put a boundary on a
/// tile's outer border, which with a gap between tiles is half a gap right of (below) the
/// cell boundary; here the background-coloured run between each pair of neighbouring tiles
/// is measured and the boundary moved to its middle.
pub(crate) fn refine_origin(frame: &RgbaImage, r: &Reading) -> Grid {
    let g = r.grid;
    let ring = ring_colours(frame, &g);
    if ring.is_empty() {
        return g;
    }
    // Flat ring cells by position, (rows + 2) × (cols + 2) with the ring at the borders: a
    // sample looks up a few of them, thousands of samples per frame.
    let span = g.cols + 2;
    let slot = |(r, c): (i32, i32)| (r + 1) as usize * span + (c + 1) as usize;
    let mut ring_at: Vec<Option<usize>> = vec![None; (g.rows + 2) * span];
    for (i, e) in ring.iter().enumerate() {
        ring_at[slot(e.0)] = Some(i);
    }
    let mut refs: Vec<[f32; 3]> = ring.iter().map(|e| e.1).collect();
    // A fine pattern's mean colour matches none of its pixels; its few colours do.
    refs.extend(common_ring_colours(frame, &g));
    // Every pixel below is tested against every reference: near-duplicates (a plain ground
    // gives one colour per ring cell, 60 alike on a 19x11 board) only multiply that work.
    let mut kept: Vec<[f32; 3]> = Vec::with_capacity(refs.len());
    for r in refs {
        if !kept.iter().any(|k| colour_dist(*k, r) < REF_MERGE) {
            kept.push(r);
        }
    }
    let refs = kept;
    // The background near a sample: the flat ring cell at the nearer end of the sample's row
    // and the one at the nearer end of its column. A gradient's far end can be as dark as a
    // tile's border (pastel: a bottom ring row can match the tiles' border and 3-D edge, so
    // that the "gap" near the top runs into the tiles); a sample uses these near references
    // and the frame-wide ones close to them (a pattern's tones, a noise's range), or all
    // frame-wide ones when its line has no flat ring cell at either end.
    let (ox, oy, pw, ph) = (g.origin.0, g.origin.1, g.pitch.0, g.pitch.1);
    let (rows, cols) = (g.rows as i32, g.cols as i32);
    // Per flat ring cell, once: which frame-wide references lie near its colour.
    let near_refs: Vec<Vec<bool>> = ring
        .iter()
        .map(|(_, m)| {
            refs.iter()
                .map(|r| colour_dist(*m, *r) < LOCAL_SPAN)
                .collect()
        })
        .collect();
    let nearer = |a: (i32, i32), b: (i32, i32), a_first: bool| -> Option<usize> {
        let (first, second) = if a_first { (a, b) } else { (b, a) };
        ring_at[slot(first)].or(ring_at[slot(second)])
    };
    // The references for a set of nearby ring cells, kept per set: building one is a filter
    // and a merge over every reference and three allocations, and samples share sets (a
    // bench read: 1 200 samples, 420 sets).
    let by_local: RefCell<HashMap<[usize; 4], Refs>> = Default::default();
    let refs_at = |x: f32, y: f32| -> Refs {
        let mut local = [usize::MAX; 4];
        let mut n = 0;
        // Rows and columns the sample touches (it may sit on the line between two).
        for yy in [y - 1.0, y + 1.0] {
            let r = ((yy - oy) / ph).floor() as i32;
            if (0..rows).contains(&r) {
                let left = x - ox < ox + pw * cols as f32 - x;
                if let Some(l) = nearer((r, -1), (r, cols), left) {
                    local[n] = l;
                    n += 1;
                }
            }
        }
        for xx in [x - 1.0, x + 1.0] {
            let c = ((xx - ox) / pw).floor() as i32;
            if (0..cols).contains(&c) {
                let top = y - oy < oy + ph * rows as f32 - y;
                if let Some(l) = nearer((-1, c), (rows, c), top) {
                    local[n] = l;
                    n += 1;
                }
            }
        }
        if let Some(hit) = by_local.borrow().get(&local) {
            return hit.clone();
        }
        let local = &local[..n];
        let out: Refs = if local.is_empty() {
            refs.as_slice().into()
        } else {
            let masks: Vec<&[bool]> = local.iter().map(|&l| near_refs[l].as_slice()).collect();
            let mut out: Vec<[f32; 3]> = refs
                .iter()
                .enumerate()
                .filter(|(i, _)| masks.iter().any(|m| m[*i]))
                .map(|(_, r)| *r)
                .collect();
            for l in local {
                let m = ring[*l].1;
                if !out.iter().any(|k| colour_dist(*k, m) < REF_MERGE) {
                    out.push(m);
                }
            }
            out.into()
        };
        let mut key = [usize::MAX; 4];
        key[..n].copy_from_slice(local);
        by_local.borrow_mut().insert(key, out.clone());
        out
    };
    let px = |x: i64, y: i64| pixels::rgb_at(frame, x, y);
    let is_bg = |refs: &[[f32; 3]], p: Option<[f32; 3]>| {
        p.is_some_and(|p| refs.iter().any(|r| colour_dist(*r, p) < 7.0))
    };
    // Signed offset (from the current line) of the middle of the background run that
    // straddles it, measured along `step` at the sample points, median over tile pairs.
    let run_middle = |pairs: &[(f32, f32, bool)]| -> f32 {
        let mut mids: Vec<f32> = Vec::new();
        for &(x, y, horizontal) in pairs {
            let (xi, yi) = (x.round() as i64, y.round() as i64);
            let here = refs_at(x, y);
            let limit = 8;
            // The runs grown from the seeds below overlap, so each pixel's answer is kept
            // (offsets -12..=14 are tested) instead of comparing it with every reference
            // again.
            let known: [std::cell::Cell<u8>; 2 * SEED_REACH as usize + 1] =
                std::array::from_fn(|_| std::cell::Cell::new(0));
            // The pixel `d` past the sample along the axis.
            let along = |d: i64| {
                if horizontal {
                    px(xi + d, yi)
                } else {
                    px(xi, yi + d)
                }
            };
            let bg_at = |d: i64| {
                let slot = &known[(d + SEED_REACH) as usize];
                if slot.get() == 0 {
                    slot.set(if is_bg(&here, along(d)) { 2 } else { 1 });
                }
                slot.get() == 2
            };
            // The extent of the background run through `seed`. A lone pixel that is not
            // background (a drop shadow's dark line, a pattern's dot) does not end it:
            // soft-shadowed tiles split their gap that way.
            let grow = |seed: i64| {
                let (mut lo, mut hi) = (seed, seed);
                loop {
                    if lo > seed - limit && bg_at(lo - 1) {
                        lo -= 1;
                    } else if lo - 1 > seed - limit && bg_at(lo - 2) {
                        lo -= 2;
                    } else {
                        break;
                    }
                }
                loop {
                    if hi < seed + limit && bg_at(hi + 1) {
                        hi += 1;
                    } else if hi + 1 < seed + limit && bg_at(hi + 2) {
                        hi += 2;
                    } else {
                        break;
                    }
                }
                (seed, lo, hi)
            };
            // Of the background runs near the line, the widest is the gap (a shadow's
            // penumbra next to a tile makes a narrower one); on a tie the nearest, and of
            // two as near the one before the line.
            let mut best: Option<(i64, i64, i64)> = None;
            for d in [0, -1, 1, -2, 2, -3, 3, -4, 4, 5, 6] {
                if best.is_some_and(|(_, lo, hi)| (lo..=hi).contains(&d)) || !bg_at(d) {
                    continue;
                }
                let run = grow(d);
                if best.is_none_or(|b| run.2 - run.1 > b.2 - b.1) {
                    best = Some(run);
                }
            }
            let Some((seed, mut lo, hi)) = best else {
                mids.push(0.0);
                continue;
            };
            // A tile's 3-D side is drawn on its bottom/right, so it lies at the run's start
            // (before the line). On noise, pattern and gradient grounds its colour can pass
            // the background test (dark: side 41-54 against a pattern's tones up to 46),
            // and, taken into the run, it puts the lines 1-2 px up-left. It still differs
            // from the run's own median (the gap), so leading pixels farther than `GAP_TRIM`
            // from that median are dropped. The far end meets the next tile's outline and is
            // left alone: trimming it too misreads two pastel boards of fixtures 0..200.
            if hi - lo >= 2 {
                let col = |d: i64| along(d).unwrap_or([f32::MAX; 3]);
                let mut med = [0.0f32; 3];
                for (k, m) in med.iter_mut().enumerate() {
                    let mut v: Vec<f32> = (lo..=hi).map(|d| col(d)[k]).collect();
                    v.sort_by(f32::total_cmp);
                    *m = v[v.len() / 2];
                }
                while hi - lo >= 2 && colour_dist(col(lo), med) > GAP_TRIM {
                    lo += 1;
                }
            }
            // Only a run ending at the line counts: the edge fit lands on the tile's border
            // just right of (below) the gap.
            if hi <= 1 {
                mids.push(((lo + hi + 1) as f32 / 2.0).min(0.0));
            } else if lo >= 1 && hi < limit + seed {
                // A whole gap just past the line: the fit landed on a shadow before it.
                mids.push((lo + hi + 1) as f32 / 2.0);
            } else if lo > seed - limit && hi < seed + limit {
                // A gap bounded on both sides that the line cuts (the fit landed inside a
                // soft shadow's gap): its middle.
                mids.push((lo + hi + 1) as f32 / 2.0);
            } else {
                mids.push(0.0);
            }
        }
        if mids.is_empty() {
            return 0.0;
        }
        mids.sort_by(f32::total_cmp);
        mids[mids.len() / 2]
    };
    let tile = |row: usize, col: usize| r.board.get(Pos::new(row, col)).is_tile();
    let mut xs = Vec::new();
    let mut ys = Vec::new();
    for row in 0..g.rows {
        for col in 1..g.cols {
            if tile(row, col) && tile(row, col - 1) {
                let (x, y, _, h) = g.cell_rect(row as i32, col as i32);
                for f in [0.35, 0.5, 0.65] {
                    xs.push((x, y + h * f, true));
                }
            }
        }
    }
    for row in 1..g.rows {
        for col in 0..g.cols {
            if tile(row, col) && tile(row - 1, col) {
                let (x, y, w, _) = g.cell_rect(row as i32, col as i32);
                for f in [0.35, 0.5, 0.65] {
                    ys.push((x + w * f, y, false));
                }
            }
        }
    }
    let dx = if xs.len() >= 6 { run_middle(&xs) } else { 0.0 };
    let dy = if ys.len() >= 6 { run_middle(&ys) } else { 0.0 };
    // Tiles that fill their cells leave no gap to centre on: a "background" run between two
    // of them lies inside a 3-D edge drawn in the ground's colour (pastel at 125-150 %: the
    // run sits 3-4 px left of the boundary). Where a tile meets open ground (an empty cell or
    // the ring) the ground runs up to the tile's outermost pixel, so the margins between the
    // lines and that footprint (median over such sides) tell whether tiles fill their cells
    // (margins summing to within 2.5 px: the blend of one scaled edge pixel on each side;
    // boards whose tiles fill their cells measure -2.0 to 2.0, two classic JPEG boards
    // -2.9 and -6.0, gapped boards from 2.0 up, pastel noise 8-10) and where the cell's
    // middle is. It is used only then, and only when it moves the lines less than the gap
    // run: with no gap the edge fit already sits on the boundary, and a ground-coloured 3-D
    // edge makes the footprint short on that side (dark theme: margins of 6-13 px), as it
    // widens the gap run.
    let open = |row: i32, col: i32| {
        !(0..rows).contains(&row)
            || !(0..cols).contains(&col)
            || r.board.get(Pos::new(row as usize, col as usize)).is_empty()
    };
    // Distance from `start` (on open ground) along `dir` to the first of two pixels in a row
    // that are not ground, within `reach`.
    let edge = |x: f32, y: f32, horizontal: bool, dir: i64, reach: i64| -> Option<i64> {
        let (xi, yi) = (x as i64, y as i64);
        let here = refs_at(x, y);
        let at = |d: i64| {
            if horizontal {
                px(xi + dir * d, yi)
            } else {
                px(xi, yi + dir * d)
            }
        };
        if !is_bg(&here, at(0)) {
            return None;
        }
        (1..reach).find(|&d| !is_bg(&here, at(d)) && !is_bg(&here, at(d + 1)))
    };
    let footprint = |horizontal: bool| -> Option<(f32, f32)> {
        let (p_along, p_across) = if horizontal { (pw, ph) } else { (ph, pw) };
        let reach = (p_along * 0.5) as i64;
        let (mut before, mut after) = (Vec::new(), Vec::new());
        let (mut tries_b, mut tries_a) = (0usize, 0usize);
        for row in 0..rows {
            for col in 0..cols {
                if !tile(row as usize, col as usize) {
                    continue;
                }
                let (x, y, _, _) = g.cell_rect(row, col);
                let (lo, across) = if horizontal { (x, y) } else { (y, x) };
                let (b_open, a_open) = if horizontal {
                    (open(row, col - 1), open(row, col + 1))
                } else {
                    (open(row - 1, col), open(row + 1, col))
                };
                for f in [0.35, 0.5, 0.65] {
                    let c = across + p_across * f;
                    let pt = |along: f32| if horizontal { (along, c) } else { (c, along) };
                    if b_open {
                        tries_b += 1;
                        let s = lo - p_along * 0.25;
                        let (sx, sy) = pt(s);
                        if let Some(d) = edge(sx, sy, horizontal, 1, reach) {
                            before.push(s.trunc() + d as f32 - lo);
                        }
                    }
                    if a_open {
                        tries_a += 1;
                        let e = lo + p_along;
                        let s = e + p_along * 0.25;
                        let (sx, sy) = pt(s);
                        if let Some(d) = edge(sx, sy, horizontal, -1, reach) {
                            after.push(e - (s.trunc() - d as f32 + 1.0));
                        }
                    }
                }
            }
        }
        // A median over the few walks that find an edge, when most do not, measures what
        // stops those few: on a dark noise ground with the lattice 3.5 px off, the tile's
        // far edge lies beyond the walks' reach and 13 of 75 walks stop on noise specks in
        // the open cell (after-margin -1.5 px, inside the bound below). Over the rendered
        // fixtures and real files the walks find an edge on 59-100 % of a side elsewhere,
        // except on five fixtures (18-40 %): this bound leaves four of their readings alone
        // and moves one from 2.5 to 2.0 px off the truth (20 %).
        if before.len() < 6
            || after.len() < 6
            || before.len() * 2 < tries_b
            || after.len() * 2 < tries_a
        {
            return None;
        }
        let med = |v: &mut Vec<f32>| {
            v.sort_by(f32::total_cmp);
            v[v.len() / 2]
        };
        let (mb, ma) = (med(&mut before), med(&mut after));
        Some((mb, ma))
    };
    // Whether the footprint's gap (from `ma` before the line, where the tile before it ends,
    // to `mb` past it, where the next begins) shows ground between tiles too: every pixel
    // inside it on over half the between-tile samples.
    let ground_between = |pairs: &[(f32, f32, bool)], mb: f32, ma: f32| -> bool {
        let ok = pairs
            .iter()
            .filter(|&&(x, y, horizontal)| {
                let here = refs_at(x, y);
                let line = if horizontal { x } else { y };
                let (lo, hi) = ((line - ma).round() as i64, (line + mb).round() as i64);
                hi > lo
                    && (lo..hi).all(|i| {
                        let p = if horizontal {
                            px(i, y.round() as i64)
                        } else {
                            px(x.round() as i64, i)
                        };
                        is_bg(&here, p)
                    })
            })
            .count();
        ok * 2 > pairs.len()
    };
    // A gap run whose middle lies inside the tiles' footprint is not the gap but part of a
    // tile drawn in a ground colour: pastel's 3-D edge at the bottom/right, 3-4 px of pink
    // that matches noise, pattern and gradient tones and is wider than a 2-3 px gap at
    // 125-150 % (on a pastel board: the run under the edge, 4 px, beats the 3-px gap beside
    // it, -2.5 px where the gap lies +3). Then the footprint is taken when its gap shows
    // ground between the tiles too, and otherwise the line stays when it already lies between
    // the footprints (tiles that touch: no ground between them to confirm).
    let smaller = |gap_run: f32, horizontal: bool| {
        if gap_run == 0.0 {
            return gap_run;
        }
        let Some((mb, ma)) = footprint(horizontal) else {
            return gap_run;
        };
        let f = (mb - ma) / 2.0;
        let in_tile = gap_run < -ma || gap_run > mb;
        let fills = (mb + ma).abs() <= 2.5 && f.abs() < gap_run.abs();
        if fills || in_tile && ground_between(if horizontal { &xs } else { &ys }, mb, ma) {
            f
        } else if in_tile && ma >= 0.0 && mb >= 0.0 {
            0.0
        } else if in_tile && mb > 0.0 && ma < 0.0 {
            // The whole footprint lies past the line (the tile begins after it and ends
            // past the next one), and the run lies inside it: the lattice trails the tiles
            // by about `f`. Pastel at 100-150 % with 1-2 px gaps that blend into the 3-D
            // edge: on all 17 such sides of fixtures 0..800 the footprint's centre lies
            // nearer the truth (within 1.0 px) than the run (1.0-5.3 px off the other way).
            // Where the footprint ends before the line instead (classic, mahjong: mb < 0,
            // ma > 0) the run stays: it is the nearer on 10 of those 11 sides.
            f
        } else {
            gap_run
        }
    };
    let dx = smaller(dx, true);
    let dy = smaller(dy, false);
    Grid {
        origin: (g.origin.0 + dx, g.origin.1 + dy),
        ..g
    }
}

/// Moves the lattice by a fraction of a cell when its cells pair clearly better there.
///
/// With no gap between tiles, the edge profiles may lock onto symbol edges a third of a
/// cell inside the tiles (soft tile borders are weaker than symbols' edges), and there is
/// no background gap for [`refine_origin`] to centre on. A lattice a third of a cell off
/// cuts every tile in two, and two halves of different neighbours make each cell's picture
/// unique; on the tiles' own lattice every picture has a twin. So the typical distance from
/// a cell's picture to its nearest twin is measured at shifts of ±1/3 and 1/2 cell along
/// each axis (smaller shifts leave the cell interiors inside the tiles and tell nothing),
/// and the lattice moves to one under 30 % of it (measured: the right phase gives 0.001
/// where a third of a cell off gives 4.9; shifts off a right lattice give 1–3× its
/// distance), if the cells read there have no more unsure ones and nine tenths of the
/// tiles at least (the wrong lattice reads a junk tile or two from the halves at its
/// edges: 69 tiles and 4 unsure where the board has 68 and none).
pub(crate) fn rephase(integral: &pixels::Integral, frame: &RgbaImage, r: Reading) -> Reading {
    let size = frame.dimensions();
    if r.board.tiles().count() < 8 {
        return r;
    }
    let sample = twin_sample(&r.board);
    let twin_dist = |g: &Grid| twin_distance(integral, size, g, &sample);
    let Some(mut base) = twin_dist(&r.grid) else {
        return r;
    };
    // Pictures with near-exact twins already: no shift can do three times better by more
    // than noise.
    if base <= NEAR_EXACT_TWINS {
        return r;
    }
    let mut g = r.grid;
    for axis in 0..2 {
        let pitch = if axis == 0 { g.pitch.0 } else { g.pitch.1 };
        let mut best: Option<(f32, Grid)> = None;
        for f in [-1.0 / 3.0, 1.0 / 3.0, 0.5] {
            let mut t = g;
            if axis == 0 {
                t.origin.0 += f * pitch;
            } else {
                t.origin.1 += f * pitch;
            }
            if check_grid(frame, &t).is_err() {
                continue;
            }
            if let Some(d) = twin_dist(&t) {
                if best.as_ref().is_none_or(|b| d < b.0) {
                    best = Some((d, t));
                }
            }
        }
        if let Some((d, t)) = best {
            if d < base * 0.3 {
                base = d;
                g = t;
            }
        }
    }
    if g.origin == r.grid.origin {
        return r;
    }
    let shifted = match read_cells_detail(integral, frame, &g) {
        Ok((n, _)) if shift_kept(&n, &r) => n,
        _ => return r,
    };
    // A reading a quarter cell off, shifted by a third, lies 4.5 px left of the gap's
    // middle; recentring takes it there.
    recentred(integral, frame, shifted, Some)
}

/// A lattice shifted by a fraction of a cell with its lines then centred as on the first
/// reading ([`refine_origin`]); the centred cells, passed through `finish`, are kept when
/// they leave no more unsure cells and no fewer tiles than `shifted`.
pub(crate) fn recentred(
    integral: &pixels::Integral,
    frame: &RgbaImage,
    shifted: Reading,
    finish: impl Fn(Reading) -> Option<Reading>,
) -> Reading {
    let refined = refine_origin(frame, &shifted);
    match read_cells_detail(integral, frame, &refined)
        .ok()
        .and_then(|(n, _)| finish(n))
    {
        Some(n)
            if n.unsure.len() <= shifted.unsure.len()
                && n.board.tile_count() >= shifted.board.tile_count() =>
        {
            n
        }
        _ => shifted,
    }
}

/// Whether a reading on a shifted lattice replaces the one it was shifted from: no more
/// unsure cells and nine tenths of the tiles at least (the wrong lattice reads a junk tile
/// or two from the halves at its edges: 69 tiles and 4 unsure where the board has 68 and
/// none).
pub(crate) fn shift_kept(shifted: &Reading, current: &Reading) -> bool {
    shifted.unsure.len() <= current.unsure.len()
        && shifted.board.tile_count() * 10 >= current.board.tile_count() * 9
}

/// Moves the lattice onto the tiles' outline where it lies clearly off it (see
/// [`outline`]): a board read a third of a cell off, whose pictures all still have twins
/// (a full pastel board read with every cell the lower two thirds of one tile and the
/// plain bottom strip of the one above). The shifted lattice is centred like the first
/// reading and kept when its cells leave no more unsure and nine tenths of the tiles at
/// least, as in [`rephase`].
pub(crate) fn onto_outline(integral: &pixels::Integral, frame: &RgbaImage, r: Reading) -> Reading {
    let mut g = r.grid;
    if let Some(d) = outline::misplaced_by(frame, &r.grid, &r.board, 0) {
        g.origin.0 += d;
    }
    if let Some(d) = outline::misplaced_by(frame, &r.grid, &r.board, 1) {
        g.origin.1 += d;
    }
    if g.origin == r.grid.origin || check_grid(frame, &g).is_err() {
        return r;
    }
    let Ok((shifted, _)) = read_cells_detail(integral, frame, &g) else {
        return r;
    };
    let centred = refine_origin(frame, &shifted);
    let n = reread_no_worse(integral, frame, &centred, shifted);
    if shift_kept(&n, &r) {
        drop_emptied_edges(integral, frame, &r, n)
    } else {
        r
    }
}

/// `after`, a reading on a lattice shifted by a fraction of a cell from `before`'s, without
/// the edge lines the shift left with no tile where `before` had tiles: the far line then
/// covered parts of the outermost tiles and now lies on the ground past them (a board
/// moved a third of a cell down onto the outline shows a seventh row of ground under six).
/// Edge lines empty on both lattices stay, as on any reading.
pub(crate) fn drop_emptied_edges(
    integral: &pixels::Integral,
    frame: &RgbaImage,
    before: &Reading,
    after: Reading,
) -> Reading {
    let g = after.grid;
    if (g.rows, g.cols) != (before.grid.rows, before.grid.cols) || g.rows < 3 || g.cols < 3 {
        return after;
    }
    let emptied = |rows: std::ops::Range<usize>, cols: std::ops::Range<usize>| {
        line_empty(&after.board, rows.clone(), cols.clone())
            && !line_empty(&before.board, rows, cols)
    };
    let r0 = usize::from(emptied(0..1, 0..g.cols));
    let r1 = g.rows - usize::from(emptied(g.rows - 1..g.rows, 0..g.cols));
    let c0 = usize::from(emptied(0..g.rows, 0..1));
    let c1 = g.cols - usize::from(emptied(0..g.rows, g.cols - 1..g.cols));
    if (r0, r1, c0, c1) == (0, g.rows, 0, g.cols) {
        return after;
    }
    reread_no_worse(integral, frame, &g.sub(r0..r1, c0..c1), after)
}

/// Up to 48 tiles of `board`: enough for a stable [`twin_distance`] at a fraction of the
/// cost of every tile. On a bigger board they are 24 tiles spread evenly in reading order,
/// each with another tile of its type as read: the distance is to the nearest picture in
/// the sample, and where every type comes twice (a full board) a sample spread evenly alone
/// holds few twins, so even at the right phase its nearest picture is often another type
/// (measured on a full board a quarter cell off: 2.9 there against 1.1 a third of a cell
/// back, not clearly better; with the twins sampled, 1.6 against 0.16).
pub(crate) fn twin_sample(board: &Board) -> Vec<Pos> {
    let tiles: Vec<(Pos, u8)> = board.tiles().collect();
    if tiles.len() <= 48 {
        return tiles.into_iter().map(|(p, _)| p).collect();
    }
    let step = tiles.len().div_ceil(24).max(1);
    let mut out: Vec<Pos> = Vec::with_capacity(48);
    for &(p, t) in tiles.iter().step_by(step) {
        if out.contains(&p) {
            continue;
        }
        out.push(p);
        if let Some(&(q, _)) = tiles
            .iter()
            .find(|&&(q, u)| u == t && q != p && !out.contains(&q))
        {
            out.push(q);
        }
    }
    out
}

/// How many lines past an edge [`extend_past_gaps`] looks: a cleared line or two and the
/// tiles beyond them.
pub(crate) const EXTEND_LINES: usize = 3;

/// What makes one growth better than another in [`grow_to_close_pairs`].
#[derive(Clone, Copy)]
pub(crate) enum Growth {
    /// Fewer cells without a partner.
    FewerOpen,
    /// More tiles with a partner, then fewer without.
    MorePaired,
}

/// Lines a side may grow by in one step of [`grow_to_close_pairs`].
pub(crate) const GROW_LINES: usize = 6;

/// Steps of the fallback growth by [`Growth::MorePaired`] on the first reading: two reach
/// the far tiles on the sparse rendered boards measured; on a frame whose pairs never close (an
/// animation) every step costs up to 24 readings.
pub(crate) const FALLBACK_STEPS: usize = 3;

/// The largest lattice the fallback growth reads, in cells: the largest board seen (QQ's
/// and the fixtures' 11 × 19). Animation frames read on lattices of small cells (QQ
/// cheat-tool frames: 3 × 58, 6 × 30); without this bound the growth takes them to 500
/// cells and more, each reading dearer by the square of its pictures (frames read in 0.6 s
/// take 4 s).
pub(crate) const MAX_FALLBACK_CELLS: usize = 209;

/// A reading grown, side by side, over the tiles the busy area left out, when that closes
/// every pair it left open.
///
/// A sparse board falls apart into groups of busy blocks, and a group under a quarter of
/// the largest is dropped with the chrome (on a sparse rendered board, five columns of tiles
/// beyond two cleared ones: 76 blocks against 439), so the first reading is a part of the
/// board with its tiles' partners outside (there, 11 unsure cells). Each step takes the growth
/// of one side by 1 to [`GROW_LINES`] lines (its outermost line holding a tile) that is the
/// best by `by`, and better than before; the grown board is kept only when no unsure cell is
/// left: every type of a game comes in pairs, while chrome closes an open pair only by
/// chance (a HUD row under a Brown Dust II board closes one of two, see
/// [`extend_past_gaps`]).
///
/// A step is the better by `by`: fewer unsure cells, or (after a change of pitch, when
/// the missing part may lie on several sides) more tiles with a partner, then fewer unsure.
/// Growing up by four rows can open one pair more than it closes, and only the columns
/// beyond close them all (measured: 13 unsure, 14 with the rows, 0 with the columns).
/// That search runs longer where the pairs never close: run on the first reading of every
/// frame, it takes the reading dump (8 400 readings) from 63 s to 116 s for one fixture more
/// in 1 000 read exactly, so the first reading keeps to fewer unsure cells.
pub(crate) fn grow_to_close_pairs(
    frame: &RgbaImage,
    integral: pixels::Integral,
    detail: (Reading, Vec<bool>),
    by: Growth,
    max_steps: usize,
    max_cells: usize,
) -> (pixels::Integral, (Reading, Vec<bool>)) {
    if detail.0.unsure.is_empty() {
        return (integral, detail);
    }
    let mut cur: Option<(pixels::Integral, (Reading, Vec<bool>))> = None;
    for _ in 0..max_steps {
        let now = cur.as_ref().map_or(&detail.0, |c| &c.1 .0);
        let mut best: Option<(Reading, Vec<bool>)> = None;
        let table = for_each_growth(frame, &now.grid, GROW_LINES, max_cells, |n| {
            let key = |r: &Reading| {
                let open = r.unsure.len() as i64;
                match by {
                    Growth::FewerOpen => (0, -open),
                    Growth::MorePaired => (r.board.tile_count() as i64 - open, -open),
                }
            };
            if key(&n.0) > best.as_ref().map_or(key(now), |b| key(&b.0)) {
                best = Some(n);
            }
            false
        });
        match best {
            Some(b) => cur = Some((table, b)),
            None => break,
        }
    }
    match cur {
        Some(c) if c.1 .0.unsure.is_empty() => c,
        _ => (integral, detail),
    }
}

/// `g` grown by `k` lines on `side` (left, right, top, bottom).
pub(crate) fn grown(g: &Grid, side: usize, k: usize) -> Grid {
    let mut g = *g;
    match side {
        0 => {
            g.origin.0 -= k as f32 * g.pitch.0;
            g.cols += k;
        }
        1 => g.cols += k,
        2 => {
            g.origin.1 -= k as f32 * g.pitch.1;
            g.rows += k;
        }
        _ => g.rows += k,
    }
    g
}

/// Grows the board over lines past an edge where tiles lie beyond cleared lines.
///
/// The busy area, and so the lattice, can stop short of a few columns of tiles beyond an
/// empty stretch (their busy blocks form a small group of their own, like chrome's), and
/// those tiles' partners are then left with an odd count inside the board. So a side grows
/// by up to [`EXTEND_LINES`] lines, its outermost line holding a tile, when the cells read
/// on the grown lattice have no unsure cell left: on a game's board every type comes in
/// pairs, so the board's missing part closes every pair it left open. Fewer unsure cells is
/// not enough: a row of HUD icons under a Brown Dust II board closes one of its two open
/// pairs by chance, while the rendered boards' missing columns close all of theirs (4 and 5
/// open cells).
pub(crate) fn extend_past_gaps(frame: &RgbaImage, r: Reading) -> Reading {
    if r.unsure.is_empty() {
        return r;
    }
    let mut found = None;
    for_each_growth(frame, &r.grid, EXTEND_LINES, usize::MAX, |n| {
        let done = n.0.unsure.is_empty();
        if done {
            found = Some(n.0);
        }
        done
    });
    found.unwrap_or(r)
}

/// Calls `visit` with the cells read on `g` grown by 1 to `max` lines on each side in turn
/// (left, right, top, bottom), when the outermost new line holds a tile, until it returns
/// true; a side stops where its growth leaves the frame or passes `max_cells`. Returns the
/// summed-area table the cells were read from: one table over `g` grown by `max` on every
/// side serves every growth, built once instead of once per growth.
pub(crate) fn for_each_growth(
    frame: &RgbaImage,
    g: &Grid,
    max: usize,
    max_cells: usize,
    mut visit: impl FnMut((Reading, Vec<bool>)) -> bool,
) -> pixels::Integral {
    let widest = (0..4).fold(*g, |w, side| grown(&w, side, max));
    let integral = integral_for(frame, &widest);
    for side in 0..4 {
        for k in 1..=max {
            let g = grown(g, side, k);
            if check_grid(frame, &g).is_err() || g.rows * g.cols > max_cells {
                break;
            }
            let Ok(n) = read_cells_detail(&integral, frame, &g) else {
                break;
            };
            let outer = |p: Pos| match side {
                0 => p.col == 0,
                1 => p.col == g.cols - 1,
                2 => p.row == 0,
                _ => p.row == g.rows - 1,
            };
            if n.0.board.tiles().any(|(p, _)| outer(p)) && visit(n) {
                return integral;
            }
        }
    }
    integral
}

/// A lattice that cuts every tile at the same place can find one picture everywhere (pastel
/// tiles a quarter cell off: their plain bottoms, 93 of 95 pictures walled off as one crowded
/// type, 2 tiles left). Where under half the pictures read as tiles (only a gate on the
/// cost: a Brown Dust II board has 40 tiles among 42 stones), shifts of a quarter, a third
/// and a half cell per axis are read; one that reads at least twice the tiles with no more
/// unsure cells (tiles pair on the tiles' own lattice, halves of tiles do not) is taken, the
/// most tiles first, and its lines centred like the first reading's.
pub(crate) fn rephase_walled(
    integral: &pixels::Integral,
    frame: &RgbaImage,
    r: Reading,
) -> Reading {
    let full = r
        .board
        .positions()
        .filter(|&p| !r.board.get(p).is_empty())
        .count();
    let tiles = r.board.tile_count();
    if tiles * 2 >= full {
        return r;
    }
    let mut best: Option<Reading> = None;
    for axis in 0..2 {
        for f in [-1.0 / 3.0, -0.25, 0.25, 1.0 / 3.0, 0.5] {
            let mut t = r.grid;
            if axis == 0 {
                t.origin.0 += f * t.pitch.0;
            } else {
                t.origin.1 += f * t.pitch.1;
            }
            if check_grid(frame, &t).is_err() {
                continue;
            }
            let Ok((n, _)) = read_cells_detail(integral, frame, &t) else {
                continue;
            };
            let Ok(n) = check_types(n) else {
                continue;
            };
            let n = wall_off_crowded(n, true);
            let better = n.unsure.len() <= r.unsure.len()
                && n.board.tile_count() >= 2 * tiles.max(1)
                && best
                    .as_ref()
                    .is_none_or(|b| n.board.tile_count() > b.board.tile_count());
            if better {
                best = Some(n);
            }
        }
    }
    let Some(b) = best else {
        return r;
    };
    recentred(integral, frame, b, |n| {
        check_types(n).ok().map(|n| wall_off_crowded(n, true))
    })
}

/// Median over the cells `sample` of `g` of the distance from each cell's picture to the
/// nearest other one's: near zero where the lattice sits on tiles (every tile has a twin),
/// large where each cell holds parts of different tiles. `None` when a cell is off the
/// frame or fewer than two are given.
pub(crate) fn twin_distance(
    integral: &pixels::Integral,
    size: (u32, u32),
    g: &Grid,
    sample: &[Pos],
) -> Option<f32> {
    if sample.len() < 2 {
        return None;
    }
    let feats: Vec<CellFeatures> = sample
        .iter()
        .map(|p| features_with(integral, g, p.row as i32, p.col as i32, size, false))
        .collect::<Option<_>>()?;
    let mut nn: Vec<f32> = (0..feats.len())
        .map(|i| {
            // Distances past 40 all mean "no twin": the comparison may stop there.
            let mut best = 40f32;
            for (j, f) in feats.iter().enumerate() {
                if j != i {
                    best = best.min(cells::centre_dist_limit(&feats[i], f, best));
                }
            }
            best
        })
        .collect();
    nn.sort_by(f32::total_cmp);
    Some(nn[nn.len() / 2])
}

/// Share of a parity's pairs whose right (lower) cell is its left (upper) cell's usual
/// partner, at or above which that parity reads as halves of tiles. Not all: a symbol's
/// stroke that reaches into a tile's lower half makes that half a type of its own in a few
/// tiles (pastel boards at half pitch: 74 of 82 down, 106 of 112 across; 22 of 25). The
/// other parity, random neighbours, kept 17–64 % there. A real board can reach it too (QQ
/// boards with every other row cleared: 84 of 89, the other parity untested), which is why a
/// merge is kept only when it reads no worse.
pub(crate) const HALVES_KEPT: f32 = 0.85;

/// Doubles the pitch along an axis where the lattice cuts every tile in two.
///
/// A symbol's strong edges can make the profiles pick half the pitch; each tile then reads
/// as two cells, and the pairs of neighbours (0,1), (2,3), … along that axis behave as one
/// picture: wherever the left cell shows a type, its right neighbour shows the same other
/// type. On a real board the neighbours of a type's tiles are random. So for each parity
/// (pairs starting at even or odd cells) the map from a cell's type to its partner's is
/// checked: one parity keeping [`HALVES_KEPT`] of its pairs over at least four repeated
/// types, and the other not, means halves. The cells are then read at twice the pitch, kept
/// when that reading has no more unsure cells.
pub(crate) fn merge_halves(integral: &pixels::Integral, frame: &RgbaImage, r: Reading) -> Reading {
    let mut g = r.grid;
    for axis in 0..2 {
        let (n_along, n_across) = if axis == 0 {
            (g.cols, g.rows)
        } else {
            (g.rows, g.cols)
        };
        let cell = |along: usize, across: usize| {
            if axis == 0 {
                r.board.get(Pos::new(across, along))
            } else {
                r.board.get(Pos::new(along, across))
            }
        };
        // Whether the repeated types at the pair starts of parity `k` keep their usual
        // partner type, with at least four types tested.
        let consistent = |k: usize| -> bool {
            let mut partner: Vec<(u8, Vec<(Cell, usize)>)> = Vec::new();
            for across in 0..n_across {
                for a in (k..n_along.saturating_sub(1)).step_by(2) {
                    let Cell::Tile(t) = cell(a, across) else {
                        continue;
                    };
                    let b = cell(a + 1, across);
                    let i = match partner.iter().position(|e| e.0 == t) {
                        Some(i) => i,
                        None => {
                            partner.push((t, Vec::new()));
                            partner.len() - 1
                        }
                    };
                    let seen = &mut partner[i].1;
                    match seen.iter_mut().find(|e| e.0 == b) {
                        Some(e) => e.1 += 1,
                        None => seen.push((b, 1)),
                    }
                }
            }
            let (mut kept, mut tested, mut types) = (0, 0, 0);
            for (_, seen) in &partner {
                let n: usize = seen.iter().map(|e| e.1).sum();
                if n >= 2 {
                    types += 1;
                    tested += n;
                    kept += seen.iter().map(|e| e.1).max().unwrap_or(0);
                }
            }
            types >= 4 && kept as f32 >= HALVES_KEPT * tested as f32
        };
        let k = match (consistent(0), consistent(1)) {
            (true, false) => 0,
            (false, true) => 1,
            _ => continue,
        };
        let pairs = (n_along - k) / 2;
        if pairs < 2 {
            continue;
        }
        if axis == 0 {
            g.origin.0 += k as f32 * g.pitch.0;
            g.pitch.0 *= 2.0;
            g.cols = pairs;
        } else {
            g.origin.1 += k as f32 * g.pitch.1;
            g.pitch.1 *= 2.0;
            g.rows = pairs;
        }
    }
    // Halves merged along one axis only leave cells twice as long as wide when the other
    // axis is right: a real board's lines read as pairs (the link lines of a QQ animation
    // frame read as 19 x 42 px cells), not tiles cut in two.
    if g.pitch == r.grid.pitch || !grid::tile_shaped(g.pitch.0, g.pitch.1) {
        return r;
    }
    reread_no_worse(integral, frame, &g, r)
}

/// The cells read on `grid` when they leave no more cells unsure than `current`, else
/// `current`: the test every change of lattice after the first reading must pass (a panel's
/// bounds, a calibrated pitch, bare edge lines dropped, halves merged).
pub(crate) fn reread_no_worse(
    integral: &pixels::Integral,
    frame: &RgbaImage,
    grid: &Grid,
    current: Reading,
) -> Reading {
    match read_cells_detail(integral, frame, grid) {
        Ok((n, _)) if n.unsure.len() <= current.unsure.len() => n,
        _ => current,
    }
}

/// Background references closer than this (mean absolute difference, 0..255) count as
/// one: a pixel's distance to the nearest reference grows by less than this when its own
/// reference was merged away, small against the 7 levels a background pixel may differ by.
pub(crate) const REF_MERGE: f32 = 1.0;

/// How far (mean absolute difference) a gap run's leading pixel may be from the run's median
/// colour before it is taken for a tile's 3-D side rather than the gap (see
/// `refine_origin`). Over fixtures 0..1400 the trim moves 238 origins: 167 nearer the truth
/// and 18 farther, readings over 2 px off 150 -> 99 (mahjong 25 -> 5, dark 72 -> 46); no
/// real file's reading changes. A pastel pattern's tones lie over 6 from a gap's median in
/// places (a margin of 6 trims into the gap), and the dark theme's 3-D side lies under 14
/// from it on some sides (a margin of 14 leaves it): over fixtures 0..200, 8 and 10 read
/// alike.
pub(crate) const GAP_TRIM: f32 = 10.0;

/// Background reference colours shared by the samples near the same ring cells.
type Refs = Rc<[[f32; 3]]>;

/// Bound on the offsets from a gap sample's line that [`refine_origin`] tests: seeds at
/// -4..=6 px, runs grown up to 8 px past their seed.
pub(crate) const SEED_REACH: i64 = 16;

/// How far a frame-wide background reference may be from the background near a sample
/// (see `refine_origin`) and still be used there: a pattern's tones and a noise's range lie
/// within it, a gradient's other end does not.
pub(crate) const LOCAL_SPAN: f32 = 12.0;

/// Mean colours of the flat ring cells around a grid, from a sparse 8 × 8 sample each: the
/// background's colours, cheaply; each with its ring cell (row, column).
pub(crate) fn ring_colours(frame: &RgbaImage, g: &Grid) -> Vec<((i32, i32), [f32; 3])> {
    let (w, h) = frame.dimensions();
    let ring = ring_cells(g);
    let mut out = Vec::new();
    for (r, c) in ring {
        let (x, y, cw, ch) = g.cell_rect(r, c);
        if x < 0.0 || y < 0.0 || x + cw > w as f32 || y + ch > h as f32 {
            continue;
        }
        let mut s = Vec::with_capacity(64);
        for j in 0..8 {
            for i in 0..8 {
                let px = (x + cw * (0.15 + 0.67 * i as f32 / 7.0)) as u32;
                let py = (y + ch * (0.15 + 0.67 * j as f32 / 7.0)) as u32;
                let p = frame.get_pixel(px.min(w - 1), py.min(h - 1)).0;
                s.push([p[0] as f32, p[1] as f32, p[2] as f32]);
            }
        }
        let mut mean = [0f32; 3];
        for p in &s {
            for k in 0..3 {
                mean[k] += p[k] / s.len() as f32;
            }
        }
        let spread = s.iter().map(|p| colour_dist(*p, mean)).sum::<f32>() / s.len() as f32;
        if spread < 10.0 {
            out.push(((r, c), mean));
        }
    }
    out
}

/// The cells (row, col) of the ring just outside a grid: where links may run, and where the
/// background around a board shows.
pub(crate) fn ring_cells(g: &Grid) -> impl Iterator<Item = (i32, i32)> {
    let (rows, cols) = (g.rows as i32, g.cols as i32);
    (-1..=cols)
        .flat_map(move |c| [(-1, c), (rows, c)])
        .chain((0..rows).flat_map(move |r| [(r, -1), (r, cols)]))
}

/// The colours that make up most of the ring around a grid when it is not flat (a
/// pattern, a texture): pixels sampled 8 × 8 per ring cell, binned by 16 levels a channel;
/// the mean colour of every bin holding at least 15 % of them.
pub(crate) fn common_ring_colours(frame: &RgbaImage, g: &Grid) -> Vec<[f32; 3]> {
    let (w, h) = frame.dimensions();
    let ring = ring_cells(g);
    let mut bins: std::collections::HashMap<[u8; 3], ([f32; 3], usize)> = Default::default();
    let mut total = 0usize;
    for (r, c) in ring {
        let (x, y, cw, ch) = g.cell_rect(r, c);
        if x < 0.0 || y < 0.0 || x + cw > w as f32 || y + ch > h as f32 {
            continue;
        }
        for j in 0..8 {
            for i in 0..8 {
                let px = (x + cw * (0.1 + 0.8 * i as f32 / 7.0)) as u32;
                let py = (y + ch * (0.1 + 0.8 * j as f32 / 7.0)) as u32;
                let p = frame.get_pixel(px.min(w - 1), py.min(h - 1)).0;
                let e = bins.entry([p[0] / 16, p[1] / 16, p[2] / 16]).or_default();
                for (acc, &v) in e.0.iter_mut().zip(&p[..3]) {
                    *acc += v as f32;
                }
                e.1 += 1;
                total += 1;
            }
        }
    }
    bins.values()
        .filter(|(_, n)| *n * 100 >= total * 15)
        .map(|(sum, n)| [sum[0] / *n as f32, sum[1] / *n as f32, sum[2] / *n as f32])
        .collect()
}

/// Checks a grid is usable on a frame: finite, positive pitch, inside the frame.
pub(crate) fn check_grid(frame: &RgbaImage, g: &Grid) -> Result<(), ReadError> {
    let (w, h) = frame.dimensions();
    let finite = [g.origin.0, g.origin.1, g.pitch.0, g.pitch.1]
        .iter()
        .all(|v| v.is_finite());
    if !finite || g.pitch.0 < 4.0 || g.pitch.1 < 4.0 {
        return Err(ReadError::Invalid(format!(
            "grid pitch {:?} at origin {:?}: must be finite and at least 4 px",
            g.pitch, g.origin
        )));
    }
    if g.rows == 0 || g.cols == 0 || g.rows > 256 || g.cols > 256 {
        return Err(ReadError::Invalid(format!(
            "grid of {}x{} cells: each side must be 1..=256",
            g.rows, g.cols
        )));
    }
    let (x, y, bw, bh) = g.bounds();
    if x < -0.5 || y < -0.5 || x + bw > w as f32 + 0.5 || y + bh > h as f32 + 0.5 {
        return Err(ReadError::Invalid(format!(
            "the {}x{} grid at ({x:.1},{y:.1}) spans {bw:.0}x{bh:.0} px, outside the {w}x{h} frame",
            g.rows, g.cols
        )));
    }
    Ok(())
}

/// The legacy reader's cells of `grid`.
pub(crate) fn read_cells_legacy(frame: &RgbaImage, grid: &Grid) -> Result<Reading, ReadError> {
    check_grid(frame, grid)?;
    animation::check_link_line(frame, grid)?;
    let integral = integral_for(frame, grid);
    let (r, _) = read_cells_detail(&integral, frame, grid)?;
    check_types(r).map(|r| wall_off_crowded(r, false))
}

/// Refuses a reading with more distinct pictures than type letters (overflow cells are
/// recorded as unsure obstacles while a board is being located).
pub(crate) fn check_types(r: Reading) -> Result<Reading, ReadError> {
    if r.unsure.iter().any(|&p| r.board.get(p) == Cell::Obstacle) {
        return Err(ReadError::NoBoard(format!(
            "more than {} different pictures in the {}x{} grid: not a tile board",
            TYPE_ALPHABET.len(),
            r.grid.rows,
            r.grid.cols
        )));
    }
    Ok(r)
}

/// The cells of `grid` read from `integral` (a summed-area table of `frame` covering the
/// grid and its ring), without the animation and type-count checks, for trial grids while
/// the board is located; plus, per board cell (row-major), whether it is non-empty but shows
/// no tile face: what panels next to a board look like.
pub(crate) fn read_cells_detail(
    integral: &pixels::Integral,
    frame: &RgbaImage,
    grid: &Grid,
) -> Result<(Reading, Vec<bool>), ReadError> {
    check_grid(frame, grid)?;
    let size = frame.dimensions();
    let mut feats: Vec<CellFeatures> = Vec::with_capacity(grid.rows * grid.cols);
    for r in 0..grid.rows {
        for c in 0..grid.cols {
            let f = features_with(integral, grid, r as i32, c as i32, size, false).ok_or_else(
                || ReadError::Invalid(format!("cell ({r},{c}) lies outside the frame")),
            )?;
            feats.push(f);
        }
    }
    let ring = ring_features(integral, grid, size);
    let gap = |cut: f32| gap_colour(frame, grid, &feats, cut);
    let empty = classify_empty(&feats, &ring, grid.cols, &gap);
    let full: Vec<usize> = (0..feats.len()).filter(|&i| !empty[i]).collect();
    let refs: Vec<&CellFeatures> = full.iter().map(|&i| &feats[i]).collect();
    let expand = |k: usize| {
        let i = full[k];
        features(
            integral,
            grid,
            (i / grid.cols) as i32,
            (i % grid.cols) as i32,
            size,
        )
    };
    let grouping = types::group(&refs, type_threshold(&refs), &expand);
    let frame_of = |k: usize| {
        let i = full[k];
        cells::frame_profile(
            integral,
            grid,
            (i / grid.cols) as i32,
            (i % grid.cols) as i32,
        )
    };
    let obstacles::ObstacleVerdict {
        groups: obstacle_groups,
        far,
        ..
    } = obstacles::obstacle_groups(&refs, &grouping.group, &frame_of, &ReaderConfig::default());
    let mut faceless = vec![false; grid.rows * grid.cols];
    for (k, &i) in full.iter().enumerate() {
        faceless[i] = far[k];
    }
    let mut board = Board::new(grid.rows, grid.cols);
    // Types named in order of first appearance, obstacles skipped.
    let mut names: Vec<Option<u8>> = Vec::new();
    let mut overflow: Vec<Pos> = Vec::new();
    let mut next = 0usize;
    for (k, &i) in full.iter().enumerate() {
        let g = grouping.group[k];
        let p = Pos::new(i / grid.cols, i % grid.cols);
        if obstacle_groups.contains(&g) {
            board.set(p, Cell::Obstacle);
            continue;
        }
        if names.len() <= g {
            names.resize(g + 1, None);
        }
        let t = match names[g] {
            Some(t) => Some(t),
            None => {
                let t = type_char(next);
                next += 1;
                names[g] = t;
                t
            }
        };
        match t {
            Some(t) => board.set(p, Cell::Tile(t)),
            // Past the alphabet: not a tile board, unless trimming drops these cells.
            None => {
                board.set(p, Cell::Obstacle);
                overflow.push(p);
            }
        }
    }
    let mut unsure: Vec<Pos> = grouping
        .unsure
        .iter()
        .map(|&k| Pos::new(full[k] / grid.cols, full[k] % grid.cols))
        .filter(|&p| board.get(p).is_tile())
        .collect();
    unsure.extend(overflow);
    unsure.sort();
    Ok((
        Reading {
            grid: *grid,
            board,
            unsure,
            selected: Vec::new(),
        },
        faceless,
    ))
}

/// Features of the ring cells around the board that lie inside the frame.
pub(crate) fn ring_features(
    integral: &pixels::Integral,
    g: &Grid,
    size: (u32, u32),
) -> Vec<CellFeatures> {
    // Only their mean colour and texture are used, which come from the unshifted blocks:
    // the alignment shifts would be nine times the lookups for nothing.
    ring_cells(g)
        .filter_map(|(r, c)| features_with(integral, g, r, c, size, false))
        .collect()
}

/// Which cells show background. The background's colours and texture are learnt from the
/// quiet ring cells around the board (or, when the ring is off the frame or shows something
/// else, from the flattest board cells); a cell is empty when it is about as flat as that
/// background and close to one of its colours. Comparing with several ring colours copes with
/// gradients and noise. `feats` is row-major with `cols` cells a row.
pub(crate) fn classify_empty(
    feats: &[CellFeatures],
    ring: &[CellFeatures],
    cols: usize,
    gap: &dyn Fn(f32) -> Option<[f32; 3]>,
) -> Vec<bool> {
    classify_empty_detail(feats, ring, cols, gap).0
}

/// [`classify_empty`], and which cells are ground only by drift (beside ground and close to
/// it, not close to any reference colour).
pub(crate) fn classify_empty_detail(
    feats: &[CellFeatures],
    ring: &[CellFeatures],
    cols: usize,
    gap: &dyn Fn(f32) -> Option<[f32; 3]>,
) -> (Vec<bool>, Vec<bool>) {
    let mut drifted = vec![false; feats.len()];
    let quiet: Vec<&CellFeatures> = ring.iter().filter(|f| f.spread < 10.0).collect();
    // Also the flattest board cells, when they are clearly flatter than the typical cell
    // (a full board has no such cells): the ring may be off the frame or show other panels.
    let mut spreads: Vec<f32> = feats.iter().map(|f| f.spread).collect();
    spreads.sort_by(f32::total_cmp);
    let mut refs = quiet;
    if let (Some(&low), Some(&mid)) = (spreads.first(), spreads.get(spreads.len() / 2)) {
        let cut = low * 1.5 + 3.0;
        let flat: Vec<&CellFeatures> = feats.iter().filter(|f| f.spread <= cut).collect();
        // On a late board most cells are cleared and the median cell is itself flat: the
        // typical tile is then the median of the others. Only then: on a fuller board a run
        // of flat obstacles (Brown Dust II's stone walls: 18 of 112 cells on a board) must not
        // pass the test by leaving the median to the busier tiles.
        let mid = if mid <= cut {
            let rest: Vec<f32> = spreads.iter().copied().filter(|&s| s > cut).collect();
            rest.get(rest.len() / 2).copied().unwrap_or(0.0)
        } else {
            mid
        };
        // Only when the ring says nothing about them (else flat obstacles would pass as
        // background).
        let ring_has = |c: [f32; 3]| {
            refs.iter()
                .any(|r| colour_dist(r.mean, c) < 18.0 + r.spread)
        };
        let explained = flat.iter().any(|f| ring_has(f.mean));
        if cut < mid * 0.5 && !explained {
            // Two cells side by side cannot tell a cleared pair from two crates by their
            // arrangement; the ground showing between the tiles can. Where that ground is
            // the ring's own, the board has no ground of its own for these cells to be:
            // they are objects on it (stones and crates that clump: 52-87 off the ground
            // between the tiles on the rendered boards measured). QQ's board ground differs
            // from its ring, and its touching tiles show their light rims at the crossings,
            // no colour of its ring, so its empties still pass by their arrangement.
            let between = gap(cut);
            let ground = if between.is_some_and(ring_has) {
                false
            } else {
                flat_cells_adjoin(feats, cut, cols)
                    || between
                        .is_some_and(|g| flat.iter().all(|f| colour_dist(g, f.mean) < GAP_MATCH))
            };
            if ground {
                refs.extend(flat);
            }
        }
    }
    if refs.is_empty() {
        return (vec![false; feats.len()], drifted);
    }
    let texture = refs.iter().map(|f| f.spread).fold(0f32, f32::max);
    let max_spread = (texture * 1.6 + 4.0).max(9.0);
    let max_dist = 18.0 + texture;
    let mut empty: Vec<bool> = feats
        .iter()
        .map(|f| {
            f.spread < max_spread && refs.iter().any(|r| colour_dist(r.mean, f.mean) < max_dist)
        })
        .collect();
    // Ground that drifts (a gradient) leaves the ring's colours across a board, a little
    // per cell: a flat cell beside an empty one and close to it in colour is ground too.
    if let Some(rows) = feats.len().checked_div(cols) {
        loop {
            let mut grew = false;
            for i in 0..feats.len() {
                if empty[i] || feats[i].spread >= max_spread {
                    continue;
                }
                let step = four_neighbours(i, rows, cols)
                    .into_iter()
                    .flatten()
                    .filter(|&j| empty[j])
                    .map(|j| colour_dist(feats[j].mean, feats[i].mean))
                    .fold(f32::INFINITY, f32::min);
                if step < GROUND_STEP {
                    empty[i] = true;
                    drifted[i] = true;
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
    }
    (empty, drifted)
}

/// How near (mean absolute difference per channel) the flattest cells must be to the ground
/// seen where four tiles meet to be cleared ground: Ele.me's cleared cells 0.6 off;
/// the crates and stones of the seven rendered fixtures where this is asked, 52–119.
pub(crate) const GAP_MATCH: f32 = 12.0;

/// The colour where four textured cells (spread over `cut`) meet, the most common one over
/// 3 × 3 pixels at each such lattice crossing: the board's own ground, which shows there
/// between rounded tile corners even when the tiles touch along their sides (where a tile's
/// 3-D side, the colour of a wooden crate, fills the line). `None` under four crossings.
pub(crate) fn gap_colour(
    frame: &RgbaImage,
    g: &Grid,
    feats: &[CellFeatures],
    cut: f32,
) -> Option<[f32; 3]> {
    let textured = |r: usize, c: usize| feats[r * g.cols + c].spread > cut;
    let mut samples = Vec::new();
    let mut crossings = 0usize;
    for r in 1..g.rows {
        for c in 1..g.cols {
            if !(textured(r - 1, c - 1)
                && textured(r - 1, c)
                && textured(r, c - 1)
                && textured(r, c))
            {
                continue;
            }
            crossings += 1;
            samples.extend(crossing_pixels(frame, g, r, c));
        }
    }
    if crossings < 4 {
        return None;
    }
    let stride = samples.len().div_ceil(300).max(1);
    let sample: Vec<[f32; 3]> = samples.iter().step_by(stride).copied().collect();
    Some(pixels::mode_colour(&sample, 12.0))
}

/// The 3 × 3 pixels (those in the frame) around the lattice crossing where rows `row - 1`,
/// `row` and columns `c - 1`, `c` meet: where the ground shows between four tiles' rounded
/// corners.
pub(crate) fn crossing_pixels(frame: &RgbaImage, g: &Grid, row: usize, c: usize) -> Vec<[f32; 3]> {
    let x = g.origin.0 + c as f32 * g.pitch.0;
    let y = g.origin.1 + row as f32 * g.pitch.1;
    let mut v = Vec::with_capacity(9);
    for dy in [-1.0, 0.0, 1.0] {
        for dx in [-1.0, 0.0, 1.0] {
            v.extend(pixels::rgb_at(
                frame,
                (x + dx).floor() as i64,
                (y + dy).floor() as i64,
            ));
        }
    }
    v
}

/// The cells beside cell `i` (above, below, left, right) of a row-major `rows` × `cols`
/// grid, `None` past its edges.
pub(crate) fn four_neighbours(i: usize, rows: usize, cols: usize) -> [Option<usize>; 4] {
    let (r, c) = (i / cols, i % cols);
    [
        (r > 0).then(|| i - cols),
        (r + 1 < rows).then(|| i + cols),
        (c > 0).then(|| i - 1),
        (c + 1 < cols).then(|| i + 1),
    ]
}

/// See [`classify_empty`]: the most a flat cell's colour may differ from the empty cell
/// beside it to be ground.
pub(crate) const GROUND_STEP: f32 = 13.0;

/// Whether the cells no flatter than `cut` lie mostly (over half of them) beside another such
/// cell: then they are a board's own ground, cleared areas that run along rows and columns
/// (on the real boards measured: QQ's 93 empties all have an empty neighbour, Brown Dust
/// II's 5 of 7 to 30 of 30). The flattest cells of a nearly full board are its obstacles
/// (crates, stones), which a game scatters as singles: taken for ground they read as empty
/// (rendered boards: 0 to 3 of 2 to 6 beside another).
pub(crate) fn flat_cells_adjoin(feats: &[CellFeatures], cut: f32, cols: usize) -> bool {
    if cols == 0 {
        return false;
    }
    let rows = feats.len() / cols;
    let flat = |i: usize| feats[i].spread <= cut;
    let (mut n, mut beside) = (0usize, 0usize);
    for i in (0..rows * cols).filter(|&i| flat(i)) {
        n += 1;
        let near = four_neighbours(i, rows, cols)
            .into_iter()
            .flatten()
            .any(flat);
        beside += near as usize;
    }
    n >= 3 && beside * 2 > n
}

/// Turns the types far more numerous than a tile type can be into obstacles: the locks,
/// stones or crates a game scatters by the dozen (Brown Dust II walls its boards with 30
/// gold locks or 40 stone rabbits) while its tile types come 2 or 4 at a time. The types
/// above the first drop, from the largest count down, to under 1/2.5 of a count of 8 or
/// more are taken for obstacles (a late game's 8 left of a type beside 4 of another is not).
/// Done on the final board only: while the board is being located, chrome that repeats
/// must stay visible to the trimming as pictures. `odd_too`: types left odd go too (below).
pub(crate) fn wall_off_crowded(mut r: Reading, odd_too: bool) -> Reading {
    let mut counts: Vec<(u8, usize)> = Vec::new();
    for (_, t) in r.board.tiles() {
        match counts.iter_mut().find(|e| e.0 == t) {
            Some(e) => e.1 += 1,
            None => counts.push((t, 1)),
        }
    }
    // Largest first; the crowded types are those above the first big drop in count.
    let mut sorted: Vec<usize> = counts.iter().map(|e| e.1).collect();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    let cut = (0..sorted.len().saturating_sub(1))
        .find(|&k| sorted[k] >= 8 && sorted[k] as f32 >= sorted[k + 1] as f32 * 2.5)
        .map_or(usize::MAX, |k| sorted[k]);
    // With `odd_too`, a type of 3, 5, … pictures that the parity repair left odd cannot be
    // tiles either (a game deals its tiles in pairs): Brown Dust II's locked columns, five
    // dimmed locks of each colour. Not on a known grid (the live bot's path): there an odd
    // count is a frame caught mid-removal, which the bot must see as unsettled and read
    // again, not as settled with obstacles.
    let crowded: Vec<u8> = counts
        .iter()
        .filter(|e| e.1 >= cut || (odd_too && e.1 >= 3 && e.1 % 2 == 1))
        .map(|e| e.0)
        .collect();
    if crowded.is_empty() {
        return r;
    }
    let walls: Vec<Pos> = r
        .board
        .tiles()
        .filter(|(_, t)| crowded.contains(t))
        .map(|(p, _)| p)
        .collect();
    for p in walls {
        r.board.set(p, Cell::Obstacle);
    }
    r.unsure.retain(|&p| r.board.get(p).is_tile());
    r
}
