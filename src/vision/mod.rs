//! Vision: from a screenshot to a [`Board`] and the [`Grid`] it sits on.
//!
//! Nothing here knows any particular game: no offsets, sizes or colours are hard-coded. The
//! pitch and origin come from the frame's own edge profiles ([`profile`], [`grid`]), the
//! background from the ring of cells around the board, tile types from colour block
//! descriptors compared with an alignment search ([`cells`], [`types`]). Frames that show no
//! board, or a removal in progress ([`animation`]), are refused with an error that says so,
//! never answered with an invented board.
//!
//! Two entry points: [`read`] finds the grid and reads the cells; [`read_cells`] reads the
//! cells of a known grid, which the live bot uses after its first read, because late in a
//! game too few tiles are left to find a grid from.

pub mod animation;
pub mod cells;
pub mod grid;
pub mod load;
pub mod pixels;
pub mod profile;
pub mod types;

pub use load::load_image;

use crate::board::{type_char, Board, Cell, Pos, TYPE_ALPHABET};
use crate::geometry::Grid;
use cells::{features, integral_for, CellFeatures};
use image::RgbaImage;
use pixels::colour_dist;
use std::fmt;

/// Optional knowledge that narrows the search; never required.
#[derive(Clone, Debug, Default)]
pub struct Hints {
    pub rows: Option<usize>,
    pub cols: Option<usize>,
    /// Only look inside this rectangle (x, y, w, h) of the frame.
    pub region: Option<(u32, u32, u32, u32)>,
}

/// A board read from a frame, where it is, and the cells the reader doubts (a type with an
/// odd count, a highlighted tile): the bot may want to look again before clicking those.
#[derive(Clone, Debug)]
pub struct Reading {
    pub grid: Grid,
    pub board: Board,
    pub unsure: Vec<Pos>,
}

/// Why a frame gave no board. The kinds match the `kind` field of the truth files so tests
/// and the live bot can tell "nothing there" from "wait and look again".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The frame shows no board (a menu, a lobby, a blank screen).
    NoBoard(String),
    /// A removal is being animated (link line, explosions): look again in a moment.
    Animation(String),
    /// The input itself is unusable (bad size, grid off the frame, bad hints).
    Invalid(String),
}

impl ReadError {
    /// "no-board", "animation" or "invalid", as in the truth files' `kind`.
    pub fn kind(&self) -> &'static str {
        match self {
            ReadError::NoBoard(_) => "no-board",
            ReadError::Animation(_) => "animation",
            ReadError::Invalid(_) => "invalid",
        }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::NoBoard(m) => write!(f, "no board: {m}"),
            ReadError::Animation(m) => write!(f, "animation in progress: {m}"),
            ReadError::Invalid(m) => write!(f, "invalid input: {m}"),
        }
    }
}

impl std::error::Error for ReadError {}

/// Tiles whose descriptors differ by less than this (mean absolute difference of block
/// means, 0..255 per channel) are one type. Rendered and real tiles of one type differ by
/// 0–3 after JPEG and scaling; different rendered types by 10 or more.
pub const TYPE_THRESHOLD: f32 = 7.0;

/// Finds the board in `frame` and reads it.
pub fn read(frame: &RgbaImage, hints: &Hints) -> Result<Reading, ReadError> {
    let (w, h) = frame.dimensions();
    if w < 2 * grid::MIN_PITCH as u32 || h < 2 * grid::MIN_PITCH as u32 {
        return Err(ReadError::NoBoard(format!(
            "the frame is {w}x{h} px, too small to hold a board"
        )));
    }
    let g = grid::find_grid(frame, hints)?;
    let reading = read_cells(frame, &g)?;
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
    Ok(reading)
}

/// Checks a grid is usable on a frame: finite, positive pitch, inside the frame.
fn check_grid(frame: &RgbaImage, g: &Grid) -> Result<(), ReadError> {
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

/// Reads the cells of a known grid.
///
/// Known geometry: the live bot locks the grid from its first read of a game, because late in
/// a game only a few tiles are left to find a grid from. Reads correctly at every stage of a
/// game, down to 2 tiles left and 0 (a clear board reads as all empty).
pub fn read_cells(frame: &RgbaImage, grid: &Grid) -> Result<Reading, ReadError> {
    check_grid(frame, grid)?;
    if let Some(place) = animation::find_link_line(frame, grid) {
        return Err(ReadError::Animation(format!(
            "a link line is drawn across the board ({place})"
        )));
    }
    let size = frame.dimensions();
    let integral = integral_for(frame, grid);
    let mut feats: Vec<CellFeatures> = Vec::with_capacity(grid.rows * grid.cols);
    for r in 0..grid.rows {
        for c in 0..grid.cols {
            let f = features(&integral, grid, r as i32, c as i32, size).ok_or_else(|| {
                ReadError::Invalid(format!("cell ({r},{c}) lies outside the frame"))
            })?;
            feats.push(f);
        }
    }
    let ring = ring_features(&integral, grid, size);
    let empty = classify_empty(&feats, &ring);
    let full: Vec<usize> = (0..feats.len()).filter(|&i| !empty[i]).collect();
    let refs: Vec<&CellFeatures> = full.iter().map(|&i| &feats[i]).collect();
    let grouping = types::group(&refs, TYPE_THRESHOLD);
    let obstacle_groups = obstacle_groups(&refs, &grouping.group);
    let mut board = Board::new(grid.rows, grid.cols);
    // Types named in order of first appearance, obstacles skipped.
    let mut names: Vec<Option<u8>> = Vec::new();
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
            Some(t) => t,
            None => {
                let t = type_char(next).ok_or_else(|| {
                    ReadError::NoBoard(format!(
                        "more than {} different tile pictures: not a tile board",
                        TYPE_ALPHABET.len()
                    ))
                })?;
                next += 1;
                names[g] = Some(t);
                t
            }
        };
        board.set(p, Cell::Tile(t));
    }
    let unsure = grouping
        .unsure
        .iter()
        .map(|&k| Pos::new(full[k] / grid.cols, full[k] % grid.cols))
        .filter(|&p| board.get(p).is_tile())
        .collect();
    Ok(Reading {
        grid: *grid,
        board,
        unsure,
    })
}

/// Features of the ring cells around the board that lie inside the frame.
fn ring_features(integral: &pixels::Integral, g: &Grid, size: (u32, u32)) -> Vec<CellFeatures> {
    let (rows, cols) = (g.rows as i32, g.cols as i32);
    let mut out = Vec::new();
    for c in -1..=cols {
        for r in [-1, rows] {
            out.extend(features(integral, g, r, c, size));
        }
    }
    for r in 0..rows {
        for c in [-1, cols] {
            out.extend(features(integral, g, r, c, size));
        }
    }
    out
}

/// Which cells show background. The background's colours and texture are learnt from the
/// quiet ring cells around the board (or, when the ring is off the frame, from the flattest
/// board cells); a cell is empty when it is about as flat as that background and close to one
/// of its colours. Comparing with several ring colours copes with gradients and noise.
fn classify_empty(feats: &[CellFeatures], ring: &[CellFeatures]) -> Vec<bool> {
    let quiet: Vec<&CellFeatures> = ring.iter().filter(|f| f.spread < 10.0).collect();
    let refs: Vec<&CellFeatures> = if quiet.is_empty() {
        feats.iter().filter(|f| f.spread < 5.0).collect()
    } else {
        quiet
    };
    if refs.is_empty() {
        return vec![false; feats.len()];
    }
    let texture = refs.iter().map(|f| f.spread).fold(0f32, f32::max);
    let max_spread = (texture * 1.6 + 4.0).max(9.0);
    let max_dist = 18.0 + texture;
    feats
        .iter()
        .map(|f| {
            f.spread < max_spread && refs.iter().any(|r| colour_dist(r.mean, f.mean) < max_dist)
        })
        .collect()
}

/// Groups that are obstacles rather than tiles. Every tile of a game shares a body (the face
/// around the symbol), seen in at least one face corner a symbol does not reach; the body is
/// the median corner colour of all non-empty cells. A group whose cells show that body in no
/// corner is not a tile; if exactly one such group exists it is the obstacles (every crate
/// looks alike), while several such groups are tiles of a game with more than one face
/// colour.
fn obstacle_groups(cells: &[&CellFeatures], group: &[usize]) -> Vec<usize> {
    if cells.is_empty() {
        return Vec::new();
    }
    let mut face = [0f32; 3];
    for (c, f) in face.iter_mut().enumerate() {
        let mut v: Vec<f32> = cells
            .iter()
            .flat_map(|x| x.body.iter().map(move |b| b[c]))
            .collect();
        v.sort_by(f32::total_cmp);
        *f = v[v.len() / 2];
    }
    let far = |x: &CellFeatures| x.body.iter().all(|b| colour_dist(*b, face) > 30.0);
    let ng = group.iter().max().map_or(0, |m| m + 1);
    let mut votes = vec![(0usize, 0usize); ng];
    for (i, x) in cells.iter().enumerate() {
        let v = &mut votes[group[i]];
        v.0 += 1;
        if far(x) {
            v.1 += 1;
        }
    }
    let odd_ones: Vec<usize> = (0..ng).filter(|&g| votes[g].1 * 2 > votes[g].0).collect();
    if odd_ones.len() == 1 {
        odd_ones
    } else {
        Vec::new()
    }
}
