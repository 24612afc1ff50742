//! The bundled sliding puzzle's rules and pictures, pure: a seeded scramble, clicks turned
//! into moves or refusals, and the frame the window shows.
//!
//! The window loop (`game::slide_window`, with the `live` feature) only forwards clicks
//! and draws what [`draw`] returns, so the unit tests (and the player's tests) play whole
//! games and read real frames without a display. Tiles are either numbers, drawn with the
//! embedded font, or pieces of a procedural picture cut along the grid ([`picture`]) — the
//! picture is what `--save-reference` writes for the player's `--reference`.

use crate::geometry::Grid;
use crate::render::font;
use crate::render::paint::{self, Rgb};
use crate::slide::{Dir, Goal, Puzzle, PuzzleError};
use image::RgbaImage;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// What decides a sliding game: size, goal convention, scramble seed and the look.
#[derive(Clone, Debug, PartialEq)]
pub struct SlideConfig {
    /// Board rows, 2..=8.
    pub rows: usize,
    /// Board columns, 2..=8.
    pub cols: usize,
    /// Where the blank sits when solved; most games put it last.
    pub goal: Goal,
    /// Seeds the scramble (always solvable, never already solved) and the picture.
    pub seed: u64,
    /// Tiles show pieces of a picture instead of numbers.
    pub picture: bool,
    /// Tile side in pixels.
    pub tile: u32,
}

impl Default for SlideConfig {
    fn default() -> Self {
        SlideConfig {
            rows: 3,
            cols: 3,
            goal: Goal::BlankLast,
            seed: 1,
            picture: false,
            tile: 72,
        }
    }
}

/// Why a sliding game cannot be dealt.
#[derive(Debug, thiserror::Error)]
pub enum SlideConfigError {
    /// A side outside 2..=8.
    #[error("sliding board {name} {value}: must be 2..=8")]
    Side {
        /// "rows" or "cols".
        name: &'static str,
        /// The side asked for.
        value: usize,
    },
    /// A tile side outside 24..=200 px.
    #[error("tile size {0} px: must be 24..=200 (digits need room)")]
    Tile(u32),
    /// The scramble is not a board.
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
}

impl SlideConfig {
    /// Checks the board and tile sizes before a window is opened for them.
    pub fn validate(&self) -> Result<(), SlideConfigError> {
        for (name, value) in [("rows", self.rows), ("cols", self.cols)] {
            if !(2..=8).contains(&value) {
                return Err(SlideConfigError::Side { name, value });
            }
        }
        if !(24..=200).contains(&self.tile) {
            return Err(SlideConfigError::Tile(self.tile));
        }
        Ok(())
    }

    /// Where everything sits in the window.
    pub fn layout(&self) -> Layout {
        Layout::new(self.rows, self.cols, self.tile)
    }
}

/// Pixel layout of the window: a margin, tiles separated by a gap, a status bar below.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// Tile side in pixels.
    pub tile: u32,
    /// Board background showing between tiles, so each tile has its own edges.
    pub gap: u32,
    /// Window background around the board, so the board's outer edges show too.
    pub margin: u32,
    /// Height of the status bar under the board (move count, "Solved!").
    pub status: u32,
}

impl Layout {
    /// Gap and margin scale with the tile so small and large windows look alike.
    pub fn new(rows: usize, cols: usize, tile: u32) -> Layout {
        Layout {
            rows,
            cols,
            tile,
            gap: (tile / 16).max(2),
            margin: (tile / 4).max(8),
            status: 28,
        }
    }

    /// Window size (w, h).
    pub fn window(&self) -> (u32, u32) {
        let (bw, bh) = self.board_size();
        (bw + 2 * self.margin, bh + 2 * self.margin + self.status)
    }

    /// Size of the board's picture area: the tiles and the gaps between them.
    pub fn board_size(&self) -> (u32, u32) {
        let p = self.tile + self.gap;
        (
            self.cols as u32 * p - self.gap,
            self.rows as u32 * p - self.gap,
        )
    }

    /// The cell lattice, centred on the tiles: each cell is a tile plus half a gap around
    /// it, so a click anywhere on a tile lands in its cell.
    pub fn grid(&self) -> Grid {
        let p = (self.tile + self.gap) as f32;
        let o = self.margin as f32 - self.gap as f32 / 2.0;
        Grid {
            origin: (o, o),
            pitch: (p, p),
            rows: self.rows,
            cols: self.cols,
        }
    }

    /// Top-left of the tile drawn in cell `cell` (row-major index).
    pub fn tile_origin(&self, cell: usize) -> (u32, u32) {
        let p = self.tile + self.gap;
        (
            self.margin + (cell % self.cols) as u32 * p,
            self.margin + (cell / self.cols) as u32 * p,
        )
    }
}

/// Everything the game decides; one JSON line each in the event log.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum SlideEvent {
    /// A press of the left button at window pixel (x, y) and the cell under it (`None`:
    /// off the board, which a bot must never do).
    Click {
        /// Window x, pixels.
        x: f32,
        /// Window y, pixels.
        y: f32,
        /// The cell (row, col) under the press.
        cell: Option<[usize; 2]>,
    },
    /// A tile slid from `from` into the blank at `to`; `board` is the new position
    /// (row-major, 0 = blank).
    Move {
        /// The tile that slid.
        tile: u8,
        /// Its cell (row, col) before.
        from: [usize; 2],
        /// Its cell (row, col) after: where the blank was.
        to: [usize; 2],
        /// Moves made so far.
        moves: u32,
        /// The new position.
        board: Vec<u8>,
    },
    /// A click that moves nothing: the blank itself, a tile outside the blank's row and
    /// column, or any click once solved.
    Illegal {
        /// The cell (row, col) pressed.
        cell: [usize; 2],
        /// Why it moves nothing.
        reason: String,
    },
    /// The board reached the goal.
    Solved {
        /// Moves made.
        moves: u32,
    },
}

/// Running totals for the log's final line and the tests' verdict.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SlideStats {
    /// Presses of the left button.
    pub clicks: u32,
    /// Presses off the board.
    pub outside: u32,
    /// Presses that moved nothing.
    pub illegal: u32,
    /// Tiles moved.
    pub moves: u32,
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct SlideGame {
    puzzle: Puzzle,
    goal: Goal,
    stats: SlideStats,
}

impl SlideGame {
    /// Deals a random solvable scramble from the seed; a scramble that happens to be solved
    /// already is redrawn with the next seed, so the player always has work to do.
    pub fn new(config: &SlideConfig) -> Result<SlideGame, SlideConfigError> {
        config.validate()?;
        let mut seed = config.seed;
        let puzzle = loop {
            let p = Puzzle::random(config.cols, config.rows, config.goal, seed)?;
            if !p.is_goal(config.goal) {
                break p;
            }
            seed = seed.wrapping_add(1);
        };
        Ok(SlideGame::from_puzzle(puzzle, config.goal))
    }

    /// A game from a given position (tests, replays).
    pub fn from_puzzle(puzzle: Puzzle, goal: Goal) -> SlideGame {
        SlideGame {
            puzzle,
            goal,
            stats: SlideStats::default(),
        }
    }

    /// The current position (what the window shows).
    pub fn puzzle(&self) -> &Puzzle {
        &self.puzzle
    }

    /// The convention the game is solved in.
    pub fn goal(&self) -> Goal {
        self.goal
    }

    /// Totals so far, for the log's final line.
    pub fn stats(&self) -> SlideStats {
        self.stats
    }

    /// Whether the position is the goal; clicks are refused from then on.
    pub fn is_solved(&self) -> bool {
        self.puzzle.is_goal(self.goal)
    }

    /// A press at window pixel (x, y) over `cell` (`None`: off the board). A tile in the
    /// blank's row or column slides toward it with every tile in between (one `Move` event
    /// and one counted move per tile); anything else is refused and logged as illegal.
    pub fn click(&mut self, x: f32, y: f32, cell: Option<(usize, usize)>) -> Vec<SlideEvent> {
        self.stats.clicks += 1;
        let mut events = vec![SlideEvent::Click {
            x,
            y,
            cell: cell.map(|(r, c)| [r, c]),
        }];
        let Some((r, c)) = cell else {
            self.stats.outside += 1;
            return events;
        };
        let w = self.puzzle.width();
        let blank = self.puzzle.blank();
        let at = r * w + c;
        let refuse = |reason: &str| SlideEvent::Illegal {
            cell: [r, c],
            reason: reason.to_string(),
        };
        if self.is_solved() {
            self.stats.illegal += 1;
            events.push(refuse("the puzzle is already solved"));
            return events;
        }
        if at == blank {
            self.stats.illegal += 1;
            events.push(refuse("clicked the blank"));
            return events;
        }
        // The blank moves toward the clicked tile, and every tile from the blank's
        // neighbour to the clicked one slides one cell the other way: one click moves a
        // whole run in the blank's row or column, as Simon Tatham's Fifteen does.
        let (br, bc) = (blank / w, blank % w);
        let run = if r == br {
            Some(if c > bc {
                (Dir::Right, c - bc)
            } else {
                (Dir::Left, bc - c)
            })
        } else if c == bc {
            Some(if r > br {
                (Dir::Down, r - br)
            } else {
                (Dir::Up, br - r)
            })
        } else {
            None
        };
        let Some((dir, count)) = run else {
            self.stats.illegal += 1;
            events.push(refuse("not in the blank's row or column"));
            return events;
        };
        for _ in 0..count {
            let to = self.puzzle.blank();
            let tile = self
                .puzzle
                .apply(dir)
                .expect("the run lies between the blank and the clicked cell");
            let from = self.puzzle.blank();
            self.stats.moves += 1;
            events.push(SlideEvent::Move {
                tile,
                from: [from / w, from % w],
                to: [to / w, to % w],
                moves: self.stats.moves,
                board: self.puzzle.tiles().to_vec(),
            });
        }
        if self.is_solved() {
            events.push(SlideEvent::Solved {
                moves: self.stats.moves,
            });
        }
        events
    }
}

/// Window background, board background (what the blank shows), tile face, tile edges and
/// digits.
const WINDOW_BG: Rgb = [34.0, 40.0, 52.0];
const BOARD_BG: Rgb = [58.0, 66.0, 82.0];
const FACE: Rgb = [236.0, 204.0, 140.0];
const INK: Rgb = [70.0, 42.0, 22.0];

/// The procedural picture the picture tiles are cut from, at the board's size: a seeded
/// gradient with discs and stripes, busy enough everywhere that every tile is textured
/// (a flat tile would look like the blank).
pub fn picture(layout: &Layout, seed: u64) -> RgbaImage {
    let (w, h) = layout.board_size();
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed_9c7e);
    let colour = |rng: &mut ChaCha8Rng| -> Rgb {
        [
            rng.random_range(30.0..230.0),
            rng.random_range(30.0..230.0),
            rng.random_range(30.0..230.0),
        ]
    };
    let (c0, c1, c2) = (colour(&mut rng), colour(&mut rng), colour(&mut rng));
    let mut img = RgbaImage::new(w, h);
    let period = rng.random_range(9.0..15.0f32) * layout.tile as f32 / 72.0;
    for y in 0..h {
        for x in 0..w {
            let (u, v) = (x as f32 / w as f32, y as f32 / h as f32);
            let base = paint::mix(paint::mix(c0, c1, u), c2, v * 0.7);
            let stripe = (((x + y) as f32 / period).floor() as i64).rem_euclid(2) == 0;
            let c = if stripe {
                paint::shade(base, 0.25)
            } else {
                base
            };
            img.put_pixel(x, y, paint::px(c));
        }
    }
    let discs = 3 + layout.rows * layout.cols;
    for _ in 0..discs {
        let centre = (
            rng.random_range(0.0..w as f32),
            rng.random_range(0.0..h as f32),
        );
        let r = rng.random_range(0.08..0.22) * w.min(h) as f32;
        let c = colour(&mut rng);
        paint::disc(&mut img, centre, r, c, 0.85);
        paint::disc(&mut img, centre, r * 0.45, paint::shade(c, -0.4), 0.9);
    }
    img
}

/// A tile on its way into the blank, as games animate a move: it is drawn `t` (0..1) of
/// the way from cell `from` to cell `to` (row-major indices; `to` holds it in the puzzle).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Motion {
    /// Cell the tile leaves.
    pub from: usize,
    /// Cell the tile slides into.
    pub to: usize,
    /// How far it has slid, 0 (at `from`) to 1 (at `to`).
    pub t: f32,
}

/// The window's pixels for `puzzle`: numbered (or picture) tiles with a bevel, the blank
/// showing the board background, and a status bar with the move count or "Solved!".
/// `art` is the picture for picture games (`None`: numbers), cut for `goal`'s home cells;
/// `motion` draws the last moved tile part-way (mid-animation frames).
pub fn draw(
    layout: &Layout,
    puzzle: &Puzzle,
    goal: Goal,
    art: Option<&RgbaImage>,
    moves: u32,
    solved: bool,
    motion: Option<Motion>,
) -> RgbaImage {
    let (w, h) = layout.window();
    let mut img = RgbaImage::from_pixel(w, h, paint::px(WINDOW_BG));
    let (bw, bh) = layout.board_size();
    let m = layout.margin as f32;
    let g = layout.gap as f32;
    paint::fill_rect(
        &mut img,
        m - g,
        m - g,
        m + bw as f32 + g,
        m + bh as f32 + g,
        BOARD_BG,
        1.0,
    );
    let t = layout.tile;
    let n = puzzle.tiles().len();
    for (cell, &tile) in puzzle.tiles().iter().enumerate() {
        if tile == 0 {
            continue;
        }
        let (x, y) = match motion {
            Some(m) if m.to == cell => {
                let (a, b) = (layout.tile_origin(m.from), layout.tile_origin(m.to));
                let t = m.t.clamp(0.0, 1.0);
                let lerp = |p: u32, q: u32| (p as f32 + (q as f32 - p as f32) * t).round() as u32;
                (lerp(a.0, b.0), lerp(a.1, b.1))
            }
            _ => layout.tile_origin(cell),
        };
        match art {
            Some(pic) => {
                let home = home_cell(tile, n, goal);
                let (hx, hy) = layout.tile_origin(home);
                let (ox, oy) = (hx - layout.margin, hy - layout.margin);
                for dy in 0..t {
                    for dx in 0..t {
                        img.put_pixel(x + dx, y + dy, *pic.get_pixel(ox + dx, oy + dy));
                    }
                }
            }
            None => {
                paint::fill_rect(
                    &mut img,
                    x as f32,
                    y as f32,
                    (x + t) as f32,
                    (y + t) as f32,
                    FACE,
                    1.0,
                );
                let text = tile.to_string();
                font::draw_centred(
                    &mut img,
                    &text,
                    x as f32 + t as f32 / 2.0,
                    y as f32 + t as f32 / 2.0,
                    t as f32 * 0.5,
                    INK,
                );
            }
        }
        // Bevel: light top and left, dark bottom and right, as games draw raised tiles.
        let e = (t as f32 / 24.0).max(1.0);
        let (x0, y0, x1, y1) = (x as f32, y as f32, (x + t) as f32, (y + t) as f32);
        paint::fill_rect(&mut img, x0, y0, x1, y0 + e, [255.0; 3], 0.45);
        paint::fill_rect(&mut img, x0, y0 + e, x0 + e, y1, [255.0; 3], 0.45);
        paint::fill_rect(&mut img, x0 + e, y1 - e, x1, y1, [0.0; 3], 0.35);
        paint::fill_rect(&mut img, x1 - e, y0 + e, x1, y1 - e, [0.0; 3], 0.35);
    }
    let bar_top = (h - layout.status) as f32;
    let (bar, text, fg) = if solved {
        (
            [90.0, 170.0, 90.0],
            format!("Solved! {moves} moves"),
            [255.0; 3],
        )
    } else {
        (WINDOW_BG, format!("Moves: {moves}"), [200.0, 205.0, 215.0])
    };
    paint::fill_rect(&mut img, 0.0, bar_top, w as f32, h as f32, bar, 1.0);
    font::draw_centred(
        &mut img,
        &text,
        w as f32 / 2.0,
        bar_top + layout.status as f32 / 2.0,
        layout.status as f32 * 0.7,
        fg,
    );
    img
}

/// The cell where `tile` belongs in the solved board of `goal` (`n` cells).
pub fn home_cell(tile: u8, n: usize, goal: Goal) -> usize {
    match goal {
        Goal::BlankLast => (tile as usize + n - 1) % n,
        Goal::BlankFirst => tile as usize,
    }
}

/// Draws a game as its window shows it (picture pieces placed for the game's goal).
pub fn draw_game(layout: &Layout, game: &SlideGame, art: Option<&RgbaImage>) -> RgbaImage {
    draw_moving(layout, game, art, None)
}

/// [`draw_game`] with the last move part-way through its animation.
pub fn draw_moving(
    layout: &Layout,
    game: &SlideGame,
    art: Option<&RgbaImage>,
    motion: Option<Motion>,
) -> RgbaImage {
    draw(
        layout,
        game.puzzle(),
        game.goal(),
        art,
        game.stats().moves,
        game.is_solved(),
        motion,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(tiles: &str) -> SlideGame {
        SlideGame::from_puzzle(Puzzle::parse(tiles, None).unwrap(), Goal::BlankLast)
    }

    #[test]
    fn a_tile_next_to_the_blank_slides() {
        let mut g = game("1 2 3 4 5 6 7 0 8");
        let ev = g.click(0.0, 0.0, Some((2, 2)));
        assert!(matches!(
            ev[1],
            SlideEvent::Move {
                tile: 8,
                from: [2, 2],
                to: [2, 1],
                ..
            }
        ));
        assert!(matches!(ev[2], SlideEvent::Solved { moves: 1 }));
        assert!(g.is_solved());
        let ev = g.click(0.0, 0.0, Some((2, 1)));
        assert!(matches!(&ev[1], SlideEvent::Illegal { reason, .. } if reason.contains("solved")));
        assert_eq!(g.stats().illegal, 1);
    }

    /// A click two or three cells from the blank, in its row or column, slides the whole
    /// run: one click, one move per tile.
    #[test]
    fn a_click_in_the_blanks_line_slides_the_whole_run() {
        let mut g = game("0 1 2 3 4 5 6 7 8");
        let ev = g.click(0.0, 0.0, Some((0, 2)));
        assert_eq!(g.puzzle().tiles(), &[1, 2, 0, 3, 4, 5, 6, 7, 8]);
        assert!(matches!(
            ev[1],
            SlideEvent::Move {
                tile: 1,
                from: [0, 1],
                to: [0, 0],
                ..
            }
        ));
        assert!(matches!(
            ev[2],
            SlideEvent::Move {
                tile: 2,
                from: [0, 2],
                to: [0, 1],
                ..
            }
        ));
        g.click(0.0, 0.0, Some((2, 2)));
        assert_eq!(g.puzzle().tiles(), &[1, 2, 5, 3, 4, 8, 6, 7, 0]);
        let s = g.stats();
        assert_eq!((s.clicks, s.illegal, s.moves), (2, 0, 4));
    }

    #[test]
    fn far_tiles_the_blank_and_off_board_clicks_are_refused() {
        let mut g = game("1 2 3 4 5 6 7 0 8");
        let before = g.puzzle().clone();
        assert_eq!(g.click(0.0, 0.0, Some((0, 0))).len(), 2);
        assert_eq!(g.click(0.0, 0.0, Some((2, 1))).len(), 2);
        assert_eq!(g.click(500.0, 0.0, None).len(), 1);
        assert_eq!(g.puzzle(), &before);
        let s = g.stats();
        assert_eq!((s.clicks, s.illegal, s.outside, s.moves), (3, 2, 1, 0));
    }

    #[test]
    fn deals_are_solvable_unsolved_and_seeded() {
        for seed in 0..20 {
            let c = SlideConfig {
                seed,
                rows: 4,
                cols: 4,
                ..SlideConfig::default()
            };
            let g = SlideGame::new(&c).unwrap();
            assert!(g.puzzle().is_solvable(Goal::BlankLast) && !g.is_solved());
            assert_eq!(g.puzzle(), SlideGame::new(&c).unwrap().puzzle());
        }
        let bad = SlideConfig {
            rows: 1,
            ..SlideConfig::default()
        };
        assert!(SlideGame::new(&bad)
            .unwrap_err()
            .to_string()
            .contains("rows 1"));
    }

    #[test]
    fn layout_cells_cover_their_tiles() {
        let l = Layout::new(3, 4, 60);
        let grid = l.grid();
        for cell in 0..12 {
            let (x, y) = l.tile_origin(cell);
            for (dx, dy) in [(0, 0), (59, 59), (30, 30)] {
                let at = grid.cell_at((x + dx) as f32 + 0.5, (y + dy) as f32 + 0.5);
                assert_eq!(at.map(|p| (p.row, p.col)), Some((cell / 4, cell % 4)));
            }
        }
        let (w, h) = l.window();
        let img = draw(
            &l,
            &Puzzle::solved(4, 3, Goal::BlankLast).unwrap(),
            Goal::BlankLast,
            None,
            0,
            true,
            None,
        );
        assert_eq!(img.dimensions(), (w, h));
    }
}
