//! Screenshots with known truth, made on the fly.
//!
//! Committing hundreds of PNGs would bloat the repository, so tests ask for case `i` and get
//! the same image every time. Cases vary everything vision has to cope with: theme,
//! background, board size (6×8 to 11×19), tile size, gaps, type count (up to 75), partly
//! cleared boards, obstacles, window placement, JPEG quality 60–95 and DPI scale
//! 1 / 1.25 / 1.5.

use super::{render_board, Background, RenderSpec, Rendered, Theme};
use crate::board::Board;
use crate::geometry::Grid;
pub use crate::plan::generate::random_board;
use image::RgbaImage;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::{json, Value};

/// One fixture: a name, the board and how it is drawn.
#[derive(Clone, Debug)]
pub struct FixtureCase {
    /// The fixture's file stem.
    pub name: String,
    /// The board drawn (its truth).
    pub board: Board,
    /// How it is drawn.
    pub spec: RenderSpec,
}

impl FixtureCase {
    /// Draws the case.
    pub fn render(&self) -> Rendered {
        render_board(&self.board, &self.spec)
    }
}

const CELLS: [(u32, u32); 7] = [
    (31, 35),
    (40, 40),
    (36, 44),
    (28, 32),
    (44, 48),
    (34, 34),
    (48, 52),
];

/// The `i`-th fixture case: cases cycle themes fastest, then backgrounds, so any 16
/// consecutive cases cover every theme/background pair; the rest is drawn from a generator
/// seeded by `i`.
pub fn fixture_spec(i: u64) -> FixtureCase {
    let mut rng = ChaCha8Rng::seed_from_u64(i.wrapping_mul(0x9E37_79B9).wrapping_add(17));
    let theme = Theme::ALL[(i % 4) as usize];
    let background = Background::ALL[((i / 4) % 4) as usize];
    let rows = rng.random_range(6..=11);
    let cols = rng.random_range(8..=19);
    let cell = CELLS[rng.random_range(0..CELLS.len())];
    let gap = [0, 0, 0, 1, 2, 3, 4][rng.random_range(0..7)];
    let scale = [1.0, 1.25, 1.5][rng.random_range(0..3)];
    let jpeg_quality = if rng.random_bool(0.4) {
        None
    } else {
        Some(rng.random_range(60..=95))
    };
    let fill = if rng.random_bool(0.4) {
        1.0
    } else {
        rng.random_range(0.4..1.0)
    };
    let obstacles = if rng.random_bool(0.3) {
        rng.random_range(1..=6)
    } else {
        0
    };
    let pairs = ((rows * cols - obstacles) as f32 * fill) as usize / 2;
    let max_types = pairs.clamp(1, 75);
    let types = rng.random_range(max_types.min(6)..=max_types);
    let board = random_board(rows, cols, types, fill, obstacles, &mut rng);
    let chrome = rng.random_bool(0.8);
    let origin = if rng.random_bool(0.3) {
        let pitch = (cell.0 + gap, cell.1 + gap);
        let top = if chrome {
            super::background::TITLE_H
        } else {
            0
        };
        Some((
            pitch.0 + 10 + rng.random_range(0..60),
            top + pitch.1 + 10 + rng.random_range(0..60),
        ))
    } else {
        None
    };
    let spec = RenderSpec {
        theme,
        cell,
        gap,
        origin,
        canvas: None,
        background,
        chrome,
        seed: i,
        selected: Vec::new(),
        links: Vec::new(),
        jpeg_quality,
        scale,
    };
    let q = jpeg_quality.map_or("png".to_string(), |q| format!("q{q}"));
    let name = format!(
        "case{i:04}-{}-{}-{rows}x{cols}-s{}-{q}",
        theme,
        background,
        (scale * 100.0) as u32
    );
    FixtureCase { name, board, spec }
}

/// The `i`-th fixture drawn: the image, the grid it was drawn on and its board.
pub fn fixture_case(i: u64) -> (RgbaImage, Grid, Board) {
    let case = fixture_spec(i);
    let r = case.render();
    (r.image, r.grid, case.board)
}

/// A truth record in the schema of `../shared/llk-real/*.truth.json`, so the same checker
/// scores real and rendered screenshots; `render` records how it was drawn.
pub fn truth_json(image: &str, grid: &Grid, board: &Board, spec: &RenderSpec) -> Value {
    json!({
        "image": image,
        "kind": "board",
        "rows": board.rows(),
        "cols": board.cols(),
        "origin_px": [grid.origin.0, grid.origin.1],
        "cell_px": [grid.pitch.0, grid.pitch.1],
        "cells": board.row_strings(),
        "tiles": board.tile_count(),
        "types": board.type_counts().len(),
        "render": {
            "theme": spec.theme.name(),
            "tile_px": [spec.cell.0, spec.cell.1],
            "gap": spec.gap,
            "background": spec.background.name(),
            "seed": spec.seed,
            "jpeg_quality": spec.jpeg_quality,
            "scale": spec.scale,
        },
        "notes": "rendered by `llk render`; origin_px/cell_px are exact (the grid the tiles were drawn on; with a gap each tile sits centred in its cell)",
    })
}
