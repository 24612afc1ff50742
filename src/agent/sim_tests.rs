//! The play loop against a simulated game: the bundled game's headless window behind a
//! FrameSource + Clicker, with faults (lost clicks, reshuffles, gravity, a moving window)
//! injected, and exact eyes so that only the loop's own logic is under test.

use super::play::{PlayError, PlayFault, PlayOptions, Player, Stop, Summary};
use super::record::{read_session, test_session, test_start, Entry, SessionWriter};
use super::stages::{Brain, Eyes, FirstPair, Proposal};
use crate::board::{removable_pairs, Board, Cell, Gravity, Link, Pos, Rules};
use crate::capture::{CaptureError, Frame, FrameSource};
use crate::game::{Game, GameConfig, Headless, Stats};
use crate::geometry::Grid;
use crate::input::{ClickError, ClickPacer, Clicker, Pace};
use crate::plan::Outcome;
use crate::render::{RenderSpec, Renderer};
use crate::vision::{ReadError, Reading};
use image::RgbaImage;
use indicatif::ProgressBar;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

struct Sim {
    /// The bundled game's window, drawn and clicked without a display.
    window: Headless,
    /// Frames left before the window "closes" (capture fails).
    frames_left: Option<u32>,
    /// A learning pace and the shortest one the game registers.
    pacer: Option<(ClickPacer, Duration)>,
    /// Where the pointer is (screen), and whether the game shows the tile under it as
    /// selected (a hover highlight).
    pointer: (i32, i32),
    hover_selects: bool,
    /// The user has taken the mouse.
    taken: bool,
    clicks: u32,
    lose_every: Option<u32>,
    move_every: Option<u32>,
    moved_at: u32,
    /// Frames still to draw with two tiles swapped (a window caught mid-redraw), and
    /// whether the last frame was one.
    garbled: u32,
    showing_garbled: bool,
    /// After this many removals the game lays its board out anew with this spec (a window
    /// resized, or the board moved inside it).
    relayout: Option<(u32, RenderSpec)>,
}

impl Sim {
    fn tick(&mut self) {
        self.window.tick();
        self.maybe_move();
    }
    /// The tiles the game shows selected, and the one under the pointer when hovering
    /// selects: what the frame draws and the exact eyes report alike.
    fn shown_selected(&self) -> Vec<Pos> {
        let game = self.window.game();
        let mut sel: Vec<Pos> = game.selected().into_iter().collect();
        let origin = self.window.origin();
        let (px, py) = (self.pointer.0 - origin.0, self.pointer.1 - origin.1);
        if let Some(p) = self.window.grid().cell_at(px as f32 + 0.5, py as f32 + 0.5) {
            if self.hover_selects && game.board().get(p).is_tile() && !sel.contains(&p) {
                sel.push(p);
            }
        }
        sel
    }
    fn maybe_move(&mut self) {
        let removed = self.window.game().stats().removed;
        if self.relayout.as_ref().is_some_and(|(n, _)| removed >= *n) {
            let (_, spec) = self.relayout.take().unwrap();
            self.window.relayout(&spec);
        }
        if let Some(n) = self.move_every {
            if removed > 0 && removed.is_multiple_of(n) && self.moved_at != removed {
                self.moved_at = removed;
                let (x, y) = self.window.origin();
                self.window.move_to((x + 37, y - 11));
            }
        }
    }
}

#[derive(Clone)]
struct Shared(Rc<RefCell<Sim>>);

impl FrameSource for Shared {
    fn frame(&mut self) -> Result<Frame, CaptureError> {
        let mut s = self.0.borrow_mut();
        if let Some(n) = &mut s.frames_left {
            if *n == 0 {
                return Err(CaptureError::Closed);
            }
            *n -= 1;
        }
        s.tick();
        // A hovered tile is drawn as the eyes report it: the same pixels read the same.
        let sel = s.shown_selected();
        s.showing_garbled = s.garbled > 0;
        s.garbled = s.garbled.saturating_sub(1);
        let board = s.shown_board();
        let image = s.window.picture_of(&board, &sel);
        Ok(Frame {
            image,
            origin: s.window.origin(),
        })
    }
}

impl Clicker for Shared {
    fn click(&mut self, x: i32, y: i32) -> Result<(), ClickError> {
        let mut s = self.0.borrow_mut();
        s.pointer = (x, y);
        s.clicks += 1;
        if s.lose_every.is_some_and(|k| s.clicks.is_multiple_of(k)) {
            return Ok(());
        }
        if s.pacer.is_some_and(|(p, needs)| p.current() < needs) {
            return Ok(());
        }
        s.window.press_screen(x, y);
        s.maybe_move();
        Ok(())
    }

    fn in_control(&self) -> Result<(), ClickError> {
        if self.0.borrow().taken {
            return Err(ClickError::UserTookControl { moved: None });
        }
        Ok(())
    }

    fn park(&mut self, x: i32, y: i32) -> Result<bool, ClickError> {
        self.0.borrow_mut().pointer = (x, y);
        Ok(true)
    }

    fn feedback(&mut self, registered: bool) {
        if let Some((p, _)) = &mut self.0.borrow_mut().pacer {
            if registered {
                p.registered();
            } else {
                p.lost_one();
            }
        }
    }

    fn pace(&self) -> Option<Pace> {
        self.0.borrow().pacer.map(|(p, _)| Pace {
            hold: p.current(),
            gap: p.current(),
            learnt: true,
            lost: p.lost(),
        })
    }
}

/// Reads the game's state instead of its pixels, on the grid given (cells off the game's
/// board read empty) or on the game's own. A grid off the game's lattice (another pitch,
/// or cells a fraction of a cell away) reads as a reader reads it: cut pictures without
/// twins.
impl Eyes for Shared {
    fn read(&mut self, _frame: &RgbaImage, grid: Option<&Grid>) -> Result<Reading, ReadError> {
        let s = self.0.borrow();
        let own = s.window.grid();
        let g = grid.copied().unwrap_or(own);
        let on = |pa: f32, pb: f32, oa: f32, ob: f32| {
            let steps = (ob - oa) / pa;
            (pa - pb).abs() < 0.5 && (steps - steps.round()).abs() < 0.1
        };
        let (a, b) = (&own, &g);
        if !on(a.pitch.0, b.pitch.0, a.origin.0, b.origin.0)
            || !on(a.pitch.1, b.pitch.1, a.origin.1, b.origin.1)
        {
            return Err(ReadError::Animation(
                "pictures without a twin on this grid".into(),
            ));
        }
        Ok(s.seen_on(g))
    }
}

impl Sim {
    /// The board the last frame drew: the game's, or a garbled one.
    fn shown_board(&self) -> Board {
        let mut board = self.window.game().board().clone();
        if self.showing_garbled {
            let tiles: Vec<(Pos, u8)> = board.tiles().collect();
            let (a, ta) = tiles[0];
            let &(b, tb) = tiles.iter().find(|(_, t)| *t != ta).unwrap();
            board.set(a, Cell::Tile(tb));
            board.set(b, Cell::Tile(ta));
        }
        board
    }

    /// What exact eyes read on grid `g` in the last frame.
    fn seen_on(&self, g: Grid) -> Reading {
        let truth = &self.shown_board();
        let own = self.window.grid();
        let row0 = ((g.origin.1 - own.origin.1) / own.pitch.1).round() as i32;
        let col0 = ((g.origin.0 - own.origin.0) / own.pitch.0).round() as i32;
        let mut board = Board::new(g.rows, g.cols);
        for p in board.clone().positions() {
            let cell = truth.get_signed(p.row as i32 + row0, p.col as i32 + col0);
            board.set(p, cell.unwrap_or(Cell::Empty));
        }
        let shift = |p: Pos| {
            let (r, c) = (p.row as i32 - row0, p.col as i32 - col0);
            (r >= 0 && c >= 0 && (r as usize) < g.rows && (c as usize) < g.cols)
                .then(|| Pos::new(r as usize, c as usize))
        };
        Reading {
            grid: g,
            board,
            unsure: vec![],
            selected: self
                .shown_selected()
                .into_iter()
                .filter_map(shift)
                .collect(),
        }
    }
}

/// A simulated game and the loop's settings for one test.
struct Setup {
    game: Game,
    rows: usize,
    cols: usize,
    options: PlayOptions,
    lose_every: Option<u32>,
    move_every: Option<u32>,
    frames_left: Option<u32>,
    pacer: Option<(ClickPacer, Duration)>,
    /// The pointer over this cell at the start, shown selected while hovered.
    hover: Option<Pos>,
    /// The user has taken the mouse from the start.
    taken: bool,
    /// Frames drawn garbled at the start.
    garbled: u32,
    /// A new layout after this many removals.
    relayout: Option<(u32, RenderSpec)>,
}

impl Setup {
    fn new(config: &GameConfig) -> Setup {
        Setup {
            game: Game::new(config).unwrap(),
            rows: config.rows,
            cols: config.cols,
            options: options(config.rules),
            lose_every: None,
            move_every: None,
            frames_left: None,
            pacer: None,
            hover: None,
            taken: false,
            garbled: 0,
            relayout: None,
        }
    }

    fn on_board(board: Board, rules: Rules) -> Setup {
        Setup {
            rows: board.rows(),
            cols: board.cols(),
            game: Game::from_board(board, rules, 1, 0),
            options: options(rules),
            lose_every: None,
            move_every: None,
            frames_left: None,
            pacer: None,
            hover: None,
            taken: false,
            garbled: 0,
            relayout: None,
        }
    }

    fn sim(self) -> (Shared, PlayOptions) {
        let mut window = Headless::new(self.game, &RenderSpec::default());
        window.move_to((300, 200));
        let (grid, origin) = (window.grid(), window.origin());
        let pointer = match self.hover {
            Some(p) => {
                let (x, y) = grid.center(p);
                (origin.0 + x as i32, origin.1 + y as i32)
            }
            None => (0, 0),
        };
        let sim = Shared(Rc::new(RefCell::new(Sim {
            window,
            frames_left: self.frames_left,
            pacer: self.pacer,
            pointer,
            hover_selects: self.hover.is_some(),
            taken: self.taken,
            clicks: 0,
            lose_every: self.lose_every,
            move_every: self.move_every,
            moved_at: 0,
            garbled: self.garbled,
            showing_garbled: false,
            relayout: self.relayout,
        })));
        (sim, self.options)
    }
}

fn options(rules: Rules) -> PlayOptions {
    PlayOptions {
        rules,
        timeout: Duration::from_secs(60),
        retry_after: Duration::from_millis(120),
        ..PlayOptions::default()
    }
}

/// What a played session left: the loop's verdict, the game's counts, the notes.
struct Played {
    result: Result<Summary, PlayError>,
    stats: Stats,
    notes: Vec<String>,
}

impl Played {
    fn summary(&self) -> &Summary {
        self.result.as_ref().unwrap()
    }
}

fn play_with(
    setup: Setup,
    eyes: Option<&mut dyn Eyes>,
    brain: &mut dyn Brain,
    recorder: Option<&mut SessionWriter>,
) -> Played {
    let (sim, options) = setup.sim();
    play_on(sim, options, eyes, brain, recorder)
}

/// Plays the simulated game `sim`; `eyes` (else exact eyes) may watch the same game.
fn play_on(
    sim: Shared,
    options: PlayOptions,
    eyes: Option<&mut dyn Eyes>,
    brain: &mut dyn Brain,
    recorder: Option<&mut SessionWriter>,
) -> Played {
    let (mut src, mut clk, mut own_eyes) = (sim.clone(), sim.clone(), sim.clone());
    let mut notes = Vec::new();
    let mut note = |m: &str| notes.push(m.to_string());
    let result = Player {
        source: &mut src,
        clicker: &mut clk,
        eyes: eyes.unwrap_or(&mut own_eyes),
        brain,
        recorder,
        progress: ProgressBar::hidden(),
        notes: &mut note,
        options,
    }
    .play();
    let stats = sim.0.borrow().window.game().stats();
    Played {
        result,
        stats,
        notes,
    }
}

fn play(setup: Setup) -> Played {
    play_with(setup, None, &mut FirstPair, None)
}

fn run(
    config: GameConfig,
    lose_every: Option<u32>,
    move_every: Option<u32>,
) -> (Stop, Stats, usize) {
    let mut setup = Setup::new(&config);
    setup.lose_every = lose_every;
    setup.move_every = move_every;
    let p = play(setup);
    let s = p.summary();
    (s.stop.clone(), p.stats, s.retries)
}

fn config(gravity: Gravity, animation_ms: u64, shuffle_every: Option<u32>) -> GameConfig {
    GameConfig {
        rows: 4,
        cols: 6,
        types: 6,
        rules: Rules {
            outside: true,
            gravity,
        },
        seed: 5,
        animation_ms,
        shuffle_every,
    }
}

#[test]
fn clears_a_plain_game() {
    let (stop, stats, _) = run(config(Gravity::None, 0, None), None, None);
    assert_eq!(stop, Stop::Cleared);
    assert_eq!((stats.removed, stats.illegal, stats.outside), (12, 0, 0));
}

#[test]
fn survives_gravity_animation_and_reshuffles() {
    let (stop, stats, _) = run(config(Gravity::Down, 40, Some(3)), None, None);
    assert_eq!(stop, Stop::Cleared);
    assert!(stats.shuffles >= 3, "{stats:?}");
    assert_eq!((stats.illegal, stats.outside, stats.empty), (0, 0, 0));
}

#[test]
fn retries_lost_clicks_without_illegal_ones() {
    let (stop, stats, retries) = run(config(Gravity::Left, 20, None), Some(4), None);
    assert_eq!(stop, Stop::Cleared);
    assert!(retries > 0);
    assert_eq!(
        (stats.illegal, stats.outside, stats.empty),
        (0, 0, 0),
        "{stats:?}"
    );
}

#[test]
fn follows_a_moving_window() {
    let (stop, stats, _) = run(config(Gravity::None, 0, None), None, Some(2));
    assert_eq!(stop, Stop::Cleared);
    assert_eq!(
        (stats.illegal, stats.outside, stats.empty),
        (0, 0, 0),
        "{stats:?}"
    );
}

/// A game whose board is laid out anew after two removals, by `spec` given the first
/// layout's grid and window size: the bot clears it without a click off a tile, and says
/// `note` of the new layout.
fn clears_relaid(spec: impl FnOnce(Grid, (u32, u32)) -> RenderSpec, note: &str) {
    let config = config(Gravity::Down, 20, None);
    let mut first = Renderer::new(&RenderSpec::default(), config.rows, config.cols);
    let size = first
        .draw(&Board::new(config.rows, config.cols), &[], &[])
        .image
        .dimensions();
    let mut setup = Setup::new(&config);
    setup.relayout = Some((2, spec(first.grid(), size)));
    let p = play(setup);
    assert_eq!(p.summary().stop, Stop::Cleared);
    let s = p.stats;
    assert_eq!(
        (s.removed, s.illegal, s.outside, s.empty),
        (12, 0, 0, 0),
        "{s:?}"
    );
    assert!(p.notes.iter().any(|n| n.contains(note)), "{:?}", p.notes);
}

#[test]
fn a_window_resized_mid_game_is_read_anew_before_any_click() {
    clears_relaid(
        |_, _| RenderSpec {
            cell: (40, 46),
            ..RenderSpec::default()
        },
        "changed size",
    );
}

#[test]
fn a_board_moved_inside_its_window_is_found_again() {
    clears_relaid(
        |g, size| RenderSpec {
            origin: Some((
                (g.origin.0 - g.pitch.0 / 2.0) as u32,
                (g.origin.1 - g.pitch.1 / 2.0) as u32,
            )),
            canvas: Some(size),
            ..RenderSpec::default()
        },
        "moved in the window",
    );
}

/// Eyes that never see a board.
struct Blindfold(ReadError);

impl Eyes for Blindfold {
    fn read(&mut self, _frame: &RgbaImage, _grid: Option<&Grid>) -> Result<Reading, ReadError> {
        Err(self.0.clone())
    }
}

/// Exact eyes that doubt one cell of every reading.
struct Doubting(Shared);

impl Eyes for Doubting {
    fn read(&mut self, frame: &RgbaImage, grid: Option<&Grid>) -> Result<Reading, ReadError> {
        let mut seen = self.0.read(frame, grid)?;
        seen.unsure = vec![Pos::new(0, 0)];
        Ok(seen)
    }
}

/// Exact eyes on whatever grid they are given (cells off the game's board read empty), but
/// a reader's mistake when they find the grid themselves: `short` leaves the board's last
/// column out; a reading on a grid wider than the short one doubts a cell while the game
/// has removed fewer than `unsure_beside_until` pairs.
struct Mistaken {
    sim: Shared,
    short: bool,
    unsure_beside_until: u32,
}

impl Eyes for Mistaken {
    fn read(&mut self, _frame: &RgbaImage, grid: Option<&Grid>) -> Result<Reading, ReadError> {
        let s = self.sim.0.borrow();
        let own = s.window.grid();
        let mut g = own;
        if grid.is_none() && self.short {
            g.cols -= 1;
        }
        let g = grid.copied().unwrap_or(g);
        let doubt = grid.is_some_and(|g| g.cols >= own.cols)
            && s.window.game().stats().removed < self.unsure_beside_until;
        let mut seen = s.seen_on(g);
        if doubt {
            seen.unsure = vec![Pos::new(0, 0)];
        }
        Ok(seen)
    }
}

/// A board whose last column pairs among itself, so a reading without it is still even.
fn board_with_a_column_of_pairs() -> Board {
    Board::from_rows(&["ABCDE", "ABCDE", "FGHIJ", "FGHIJ"]).unwrap()
}

/// Plays [`board_with_a_column_of_pairs`] with eyes that find the grid a column short
/// (doubting that column until `unsure_beside_until` pairs are gone), and checks that every
/// pair was removed, the counts say so, and the lock grew to the whole board.
fn clears_despite_a_short_grid(unsure_beside_until: u32) {
    let setup = Setup::on_board(board_with_a_column_of_pairs(), Rules::default());
    let (sim, options) = setup.sim();
    let mut eyes = Mistaken {
        sim: sim.clone(),
        short: true,
        unsure_beside_until,
    };
    let p = play_on(sim, options, Some(&mut eyes), &mut FirstPair, None);
    let s = p.summary();
    assert_eq!(s.stop, Stop::Cleared);
    assert_eq!(p.stats.removed, 10, "{:?}", p.stats);
    assert_eq!((s.pairs_cleared, s.total_pairs), (10, 10));
    assert!(
        p.notes.iter().any(|n| n.contains("grid grew to 4x5")),
        "{:?}",
        p.notes
    );
}

#[test]
fn tiles_beside_a_grid_read_one_column_short_are_played_too() {
    clears_despite_a_short_grid(0);
}

#[test]
fn a_board_cleared_on_a_short_grid_is_not_called_cleared_while_tiles_stand_beside_it() {
    // The column beside the short grid reads unsure while the board is full (as a tile's
    // shadow can), so the lock grows only once the rest is cleared.
    clears_despite_a_short_grid(8);
}

#[test]
fn a_first_reading_the_next_frame_contradicts_is_not_played() {
    let mut setup = Setup::new(&config(Gravity::None, 0, None));
    setup.garbled = 1;
    let truth = setup.game.board().clone();
    let p = play(setup);
    let s = p.summary();
    assert_eq!(s.stop, Stop::Cleared);
    assert_eq!(s.first.as_ref().unwrap().1.board, truth);
    assert_eq!(p.stats.illegal, 0, "{:?}", p.stats);
}

/// Exact eyes that, once the game has removed `after` pairs, read every cell emptied since
/// the deal as a tile of one new type: as a reader can take the ground showing in emptied
/// cells for a type of tiles (it comes in pairs, so the board still looks even).
struct Phantom {
    sim: Shared,
    dealt: Board,
    after: u32,
}

impl Eyes for Phantom {
    fn read(&mut self, frame: &RgbaImage, grid: Option<&Grid>) -> Result<Reading, ReadError> {
        let mut seen = self.sim.read(frame, grid)?;
        let removed = self.sim.0.borrow().window.game().stats().removed;
        let on_deal =
            seen.board.rows() == self.dealt.rows() && seen.board.cols() == self.dealt.cols();
        if removed >= self.after && on_deal {
            for p in self.dealt.positions() {
                if self.dealt.get(p).is_tile() && !seen.board.get(p).is_tile() {
                    seen.board.set(p, Cell::Tile(200));
                }
            }
        }
        Ok(seen)
    }
}

/// Plays a fresh game (no gravity) with the eyes `eyes` makes from the sim and the board
/// dealt, and asserts the bot stopped as unreadable saying `why`, with no click on an empty
/// cell, an illegal pair or outside the board.
fn stops_unreadable<E: Eyes>(eyes: impl FnOnce(Shared, Board) -> E, why: &str) -> Played {
    let setup = Setup::new(&config(Gravity::None, 0, None));
    let dealt = setup.game.board().clone();
    let (sim, mut options) = setup.sim();
    options.verify_timeout = Duration::from_millis(600);
    let mut eyes = eyes(sim.clone(), dealt);
    let p = play_on(sim, options, Some(&mut eyes), &mut FirstPair, None);
    let s = p.summary();
    match &s.stop {
        Stop::Unreadable(w) => assert!(w.contains(why), "{w}"),
        other => panic!("expected a stop as unreadable, got {other:?}"),
    }
    assert_eq!(
        (p.stats.empty, p.stats.illegal, p.stats.outside),
        (0, 0, 0),
        "{:?}",
        p.stats
    );
    p
}

/// Plays a fresh game with `gravity` and the eyes `eyes` makes from the sim, and asserts the
/// board was cleared with no click on an empty cell, an illegal pair or outside the board
/// (`case` names the run in a failure); returns the play and the eyes for the test's own
/// checks. The twin of [`stops_unreadable`].
fn clears_despite<E: Eyes>(
    gravity: Gravity,
    case: &str,
    eyes: impl FnOnce(Shared) -> E,
) -> (Played, E) {
    let setup = Setup::new(&config(gravity, 0, None));
    let (sim, mut options) = setup.sim();
    options.verify_timeout = Duration::from_millis(600);
    let mut eyes = eyes(sim.clone());
    let p = play_on(sim, options, Some(&mut eyes), &mut FirstPair, None);
    let s = p.summary();
    assert!(
        matches!(s.stop, Stop::Cleared),
        "{case}: {:?} {:?}",
        s.stop,
        p.notes
    );
    assert_eq!(
        (p.stats.empty, p.stats.illegal, p.stats.outside),
        (0, 0, 0),
        "{case}: {:?}",
        p.stats
    );
    (p, eyes)
}

/// Exact eyes, but a grid grown below the game's board reads its new row as tiles of one
/// type filling the line (the row of tiles' 3-D sides, or a status bar), with confidence.
struct Skirted(Shared);

impl Eyes for Skirted {
    fn read(&mut self, frame: &RgbaImage, grid: Option<&Grid>) -> Result<Reading, ReadError> {
        let mut seen = self.0.read(frame, grid)?;
        let own = self.0 .0.borrow().window.grid();
        let below = ((own.origin.1 + own.rows as f32 * own.pitch.1 - seen.grid.origin.1)
            / seen.grid.pitch.1)
            .round() as usize;
        if below < seen.board.rows() {
            for c in 0..seen.board.cols() {
                seen.board.set(Pos::new(below, c), Cell::Tile(TYPE_SKIRT));
            }
        }
        Ok(seen)
    }
}

/// The type [`Skirted`] eyes read below the board: one the deal never uses.
const TYPE_SKIRT: u8 = 250;

#[test]
fn a_line_of_one_type_beside_the_board_does_not_grow_the_lock() {
    let (p, _) = clears_despite(Gravity::None, "skirted", Skirted);
    assert!(
        !p.notes.iter().any(|n| n.contains("grid grew")),
        "{:?}",
        p.notes
    );
}

/// The first empty cell of `board`, row by row.
fn first_empty(board: &Board) -> Pos {
    board
        .positions()
        .find(|&p| board.get(p) == Cell::Empty)
        .expect("an empty cell")
}

#[test]
fn a_reading_with_more_tiles_than_the_board_had_is_never_clicked() {
    let p = stops_unreadable(
        |sim, dealt| Phantom {
            sim,
            dealt,
            after: 2,
        },
        "tiles never come back",
    );
    assert_eq!(p.stats.removed, 2, "{:?}", p.stats);
}

/// Eyes that, once `after` pairs are gone, read the tiles of the first type still on the
/// board as obstacles (a pair tinted while it goes can show no face, as a stone shows none).
struct Stones {
    sim: Shared,
    after: u32,
}

impl Eyes for Stones {
    fn read(&mut self, frame: &RgbaImage, grid: Option<&Grid>) -> Result<Reading, ReadError> {
        let mut seen = self.sim.read(frame, grid)?;
        let removed = self.sim.0.borrow().window.game().stats().removed;
        if removed >= self.after {
            let first = seen.board.tiles().next().map(|(_, t)| t);
            if let Some(t) = first {
                let same: Vec<Pos> = seen
                    .board
                    .tiles()
                    .filter(|&(_, u)| u == t)
                    .map(|(p, _)| p)
                    .collect();
                for p in same {
                    seen.board.set(p, Cell::Obstacle);
                }
            }
        }
        Ok(seen)
    }
}

#[test]
fn a_reading_with_obstacles_where_the_board_had_none_is_never_clicked() {
    let p = stops_unreadable(|sim, _| Stones { sim, after: 2 }, "obstacles never appear");
    assert_eq!(p.stats.removed, 2, "{:?}", p.stats);
}

/// Eyes that, from the moment `after` pairs are gone, also read two cells emptied before
/// then as a pair of tiles (emptied cells with a neighbour's 3-D side alike): the board
/// reads with as many tiles as before the last removal.
struct Phantom2 {
    sim: Shared,
    after: u32,
    earlier: Option<Board>,
    ghosts: Vec<Pos>,
}

impl Eyes for Phantom2 {
    fn read(&mut self, frame: &RgbaImage, grid: Option<&Grid>) -> Result<Reading, ReadError> {
        let mut seen = self.sim.read(frame, grid)?;
        let removed = self.sim.0.borrow().window.game().stats().removed;
        if removed + 1 == self.after {
            self.earlier = Some(seen.board.clone());
        }
        if removed >= self.after && self.ghosts.is_empty() {
            if let Some(earlier) = &self.earlier {
                self.ghosts = earlier
                    .positions()
                    .filter(|&p| !earlier.get(p).is_tile() && !seen.board.get(p).is_tile())
                    .take(2)
                    .collect();
            }
        }
        if removed >= self.after && self.ghosts.len() == 2 {
            for &p in &self.ghosts {
                if p.row < seen.board.rows() && p.col < seen.board.cols() {
                    seen.board.set(p, Cell::Tile(201));
                }
            }
        }
        Ok(seen)
    }
}

#[test]
fn a_reading_with_as_many_tiles_on_other_cells_is_never_clicked() {
    stops_unreadable(
        |sim, _| Phantom2 {
            sim,
            after: 3,
            earlier: None,
            ghosts: Vec::new(),
        },
        "tiles only move",
    );
}

#[test]
fn a_stone_doubted_on_a_cell_a_tile_fell_from_is_ground_when_all_else_is_as_predicted() {
    // Gravity down: the first removal empties a cell above the pair that a tile fell from,
    // and it reads as an unsure stone from then on, on found grids too.
    let (_, eyes) = clears_despite(Gravity::Down, "fallen", |sim| LeafInPair {
        sim,
        after: 1,
        both: false,
        fallen: true,
        picture: Cell::Obstacle,
        before: None,
        leaves: Vec::new(),
    });
    assert_eq!(eyes.leaves.len(), 1, "the leaf was never read");
}

#[test]
fn a_doubted_tile_on_a_cell_a_tile_fell_from_is_ground_when_all_else_is_as_predicted() {
    // The cell a fall empties reads as an unsure tile of a type of its own (an odd type).
    let (_, eyes) = clears_despite(Gravity::Down, "fallen tile", |sim| LeafInPair {
        sim,
        after: 1,
        both: false,
        fallen: true,
        picture: Cell::Tile(203),
        before: None,
        leaves: Vec::new(),
    });
    assert_eq!(eyes.leaves.len(), 1, "the leaf was never read");
}

/// Eyes that read a selected tile and the other tile of its type, when they are the last
/// two of it, as `picture`: two stones the reader doubts, or bare ground read with
/// confidence (a tinted tile and its twin, neither with a twin of its own look, as live
/// readers see the last pair of a type after a lost click).
struct SelectedPairAsStones {
    sim: Shared,
    read_so: u32,
    /// What the pair reads as: doubted stones, or (with confidence) bare ground.
    picture: Cell,
}

impl Eyes for SelectedPairAsStones {
    fn read(&mut self, frame: &RgbaImage, grid: Option<&Grid>) -> Result<Reading, ReadError> {
        let mut seen = self.sim.read(frame, grid)?;
        let selected = self.sim.0.borrow().window.game().selected();
        if let (Some(_), Some(p)) = (grid, selected) {
            if let Cell::Tile(t) = seen.board.get(p) {
                let pair: Vec<Pos> = seen
                    .board
                    .tiles()
                    .filter(|&(_, u)| u == t)
                    .map(|(q, _)| q)
                    .collect();
                if pair.len() == 2 {
                    for q in pair {
                        seen.board.set(q, self.picture);
                        if self.picture != Cell::Empty {
                            seen.unsure.push(q);
                        }
                    }
                    self.read_so += 1;
                }
            }
        }
        Ok(seen)
    }
}

#[test]
fn a_pair_left_standing_by_a_lost_click_is_not_taken_for_removed() {
    // Every third click lost: now a pair's first click, now its second, so one tile stays
    // selected while the bot waits, and the last pair of each type reads as two doubted stones on
    // the very cells the move should empty. Once half the patience has passed, those cells
    // still show what they showed before the move (one of them): the pair is still there.
    // The same pair read as bare ground, with confidence, as the stage reader can read the
    // last two tiles of a board (one tinted, neither with a twin of its look).
    for picture in [Cell::Obstacle, Cell::Empty] {
        let mut setup = Setup::new(&config(Gravity::None, 0, None));
        setup.lose_every = Some(3);
        let (sim, mut options) = setup.sim();
        // The retry of a lost click comes after half the patience, when a removal's
        // animation is over and doubted stones on the pair's cells could pass for ground.
        options.verify_timeout = Duration::from_millis(600);
        options.retry_after = Duration::from_millis(400);
        let mut eyes = SelectedPairAsStones {
            sim: sim.clone(),
            read_so: 0,
            picture,
        };
        let p = play_on(sim, options, Some(&mut eyes), &mut FirstPair, None);
        let s = p.summary();
        assert!(
            eyes.read_so > 0,
            "{picture:?}: no selected pair was read so"
        );
        assert_eq!(s.stop, Stop::Cleared, "{picture:?}: {:?}", p.notes);
        assert_eq!(
            (p.stats.removed, p.stats.empty, p.stats.illegal),
            (12, 0, 0),
            "{picture:?}: {:?}",
            p.stats
        );
    }
}

#[test]
fn a_lone_picture_doubted_on_a_pair_cell_is_ground_when_its_partner_reads_empty() {
    // A photo ground: the patch one cell of the removed pair lays bare reads as a picture
    // of its own (a type of one tile, doubted) while the other cell reads empty.
    let (_, eyes) = clears_despite(Gravity::None, "photo patch", |sim| LeafInPair {
        sim,
        after: 2,
        both: false,
        fallen: false,
        picture: Cell::Tile(b'@'),
        before: None,
        leaves: Vec::new(),
    });
    assert_eq!(eyes.leaves.len(), 1, "the patch was never read");
}

/// Eyes that, from the moment `after` pairs are gone, read one cell emptied before then as
/// an unsure stone on the locked grid (the ground there looks like nothing the reader
/// knows: a photo's leaf, a neighbour's 3-D side over a photo).
struct LeafOnLock {
    sim: Shared,
    after: u32,
    leaf: Option<Pos>,
}

impl Eyes for LeafOnLock {
    fn read(&mut self, frame: &RgbaImage, grid: Option<&Grid>) -> Result<Reading, ReadError> {
        let mut seen = self.sim.read(frame, grid)?;
        let removed = self.sim.0.borrow().window.game().stats().removed;
        if grid.is_some() && removed >= self.after {
            let leaf = *self.leaf.get_or_insert_with(|| first_empty(&seen.board));
            if seen.board.get(leaf) == Cell::Empty {
                seen.board.set(leaf, Cell::Obstacle);
                seen.unsure.push(leaf);
            }
        }
        Ok(seen)
    }
}

#[test]
fn a_stone_doubted_on_a_cell_that_was_empty_is_ground() {
    for gravity in [Gravity::None, Gravity::Down] {
        let case = format!("{gravity:?}");
        let (_, eyes) = clears_despite(gravity, &case, |sim| LeafOnLock {
            sim,
            after: 2,
            leaf: None,
        });
        assert!(eyes.leaf.is_some(), "{case}: the leaf was never read");
    }
}

/// Eyes that read one cell of the `after`-th pair removed (or both, `both`) as an unsure
/// stone on the locked grid from then on (the emptied ground shows something the reader
/// knows of no ground).
struct LeafInPair {
    sim: Shared,
    after: u32,
    both: bool,
    /// Only cells a tile fell from (its type kept its count): under gravity, the cells a
    /// removal empties above the pair; the stone shows on found grids too (the whole
    /// frame shows it), so no fresh look at the board clears it.
    fallen: bool,
    /// What the leaves read as: a stone, or a tile of a type of their own (emptied cells
    /// with a neighbour's 3-D side over a gradient ground, alike to one another).
    picture: Cell,
    before: Option<Board>,
    leaves: Vec<Pos>,
}

impl Eyes for LeafInPair {
    fn read(&mut self, frame: &RgbaImage, grid: Option<&Grid>) -> Result<Reading, ReadError> {
        let mut seen = self.sim.read(frame, grid)?;
        let removed = self.sim.0.borrow().window.game().stats().removed;
        if removed + 1 == self.after {
            self.before = Some(seen.board.clone());
        }
        if removed >= self.after && self.leaves.is_empty() {
            if let Some(before) = &self.before {
                // A tile whose type kept its count was not removed: it fell.
                let (was, now) = (before.type_counts(), seen.board.type_counts());
                let fell = |p: Pos| match before.get(p) {
                    Cell::Tile(t) => was.get(&t) == now.get(&t),
                    _ => false,
                };
                self.leaves = before
                    .positions()
                    .filter(|&p| before.get(p).is_tile() && seen.board.get(p) == Cell::Empty)
                    .filter(|&p| !self.fallen || fell(p))
                    .take(if self.both { 2 } else { 1 })
                    .collect();
            }
        }
        if grid.is_some() || self.fallen {
            for &leaf in &self.leaves {
                if seen.board.get(leaf) == Cell::Empty {
                    seen.board.set(leaf, self.picture);
                    seen.unsure.push(leaf);
                }
            }
        }
        Ok(seen)
    }
}

#[test]
fn a_stone_doubted_on_a_cell_the_move_emptied_is_ground_when_all_else_is_as_predicted() {
    // One cell of the pair doubted: taken at once; both: once the game's animation is over.
    for both in [false, true] {
        let (_, eyes) = clears_despite(Gravity::None, &format!("both {both}"), |sim| LeafInPair {
            sim,
            after: 2,
            both,
            fallen: false,
            picture: Cell::Obstacle,
            before: None,
            leaves: Vec::new(),
        });
        assert_eq!(
            eyes.leaves.len(),
            1 + both as usize,
            "the leaves were never read"
        );
    }
}

/// Eyes that, from the moment `after` pairs are gone, read one cell emptied before then as
/// one more tile of the first type on the board (the emptied ground's picture joined a
/// type), doubting that type's tiles as the reader doubts an odd type's.
struct PhantomTile {
    sim: Shared,
    after: u32,
    leaf: Option<Pos>,
}

impl Eyes for PhantomTile {
    fn read(&mut self, frame: &RgbaImage, grid: Option<&Grid>) -> Result<Reading, ReadError> {
        let mut seen = self.sim.read(frame, grid)?;
        let removed = self.sim.0.borrow().window.game().stats().removed;
        if grid.is_some() && removed >= self.after {
            let leaf = *self.leaf.get_or_insert_with(|| first_empty(&seen.board));
            let first = seen.board.tiles().next().map(|(_, t)| t);
            if let (Cell::Empty, Some(t)) = (seen.board.get(leaf), first) {
                seen.board.set(leaf, Cell::Tile(t));
                let odd: Vec<Pos> = seen
                    .board
                    .tiles()
                    .filter(|&(_, u)| u == t)
                    .map(|(p, _)| p)
                    .collect();
                seen.unsure.extend(odd);
            }
        }
        Ok(seen)
    }
}

#[test]
fn a_doubted_tile_on_a_cell_that_was_empty_is_ground() {
    for gravity in [Gravity::None, Gravity::Down] {
        let case = format!("{gravity:?}");
        let (_, eyes) = clears_despite(gravity, &case, |sim| PhantomTile {
            sim,
            after: 2,
            leaf: None,
        });
        assert!(eyes.leaf.is_some(), "{case}: the phantom was never read");
    }
}

/// Eyes whose first two found readings sit 2 px off the game's lattice (the grid locked
/// from them is off), and which read a given grid only within a pixel of the lattice.
struct OffFirst {
    sim: Shared,
    found: u32,
}

impl Eyes for OffFirst {
    fn read(&mut self, _frame: &RgbaImage, grid: Option<&Grid>) -> Result<Reading, ReadError> {
        let s = self.sim.0.borrow();
        let own = s.window.grid();
        match grid {
            None => {
                self.found += 1;
                let mut g = own;
                if self.found <= 2 {
                    g.origin = (g.origin.0 + 2.0, g.origin.1 + 2.0);
                }
                Ok(s.seen_on(g))
            }
            Some(g) if (g.origin.0 - own.origin.0).abs() > 1.0 => Err(ReadError::Animation(
                "pictures without a twin on this grid".into(),
            )),
            Some(g) => Ok(s.seen_on(*g)),
        }
    }
}

#[test]
fn a_lock_a_little_off_the_lattice_moves_onto_it() {
    let (p, _) = clears_despite(Gravity::None, "lock 2 px off", |sim| OffFirst {
        sim,
        found: 0,
    });
    assert!(
        p.notes.iter().any(|n| n.contains("the lock moves there")),
        "{:?}",
        p.notes
    );
}

/// Exact eyes on a grid they are given that cannot find one themselves.
struct GridOnly(Shared);

impl Eyes for GridOnly {
    fn read(&mut self, frame: &RgbaImage, grid: Option<&Grid>) -> Result<Reading, ReadError> {
        match grid {
            Some(_) => self.0.read(frame, grid),
            None => Err(ReadError::NoBoard("nothing tile-like".into())),
        }
    }
}

/// Plays a fresh game with `known` as the saved grid (`None`: the game's own grid, at the
/// frame's size) and eyes that only read on a given grid.
fn play_knowing(known: impl FnOnce(Grid, (u32, u32)) -> (Grid, (u32, u32))) -> Played {
    let setup = Setup::new(&config(Gravity::None, 0, None));
    let (mut sim, mut options) = setup.sim();
    let size = sim.frame().unwrap().image.dimensions();
    let grid = sim.0.borrow().window.grid();
    options.known_grid = Some(known(grid, size));
    let mut eyes = GridOnly(sim.clone());
    play_on(sim, options, Some(&mut eyes), &mut FirstPair, None)
}

#[test]
fn a_saved_grid_that_reads_with_a_tile_on_every_edge_is_played_on() {
    let p = play_knowing(|g, size| (g, size));
    assert_eq!(p.summary().stop, Stop::Cleared);
    assert!(
        p.notes
            .iter()
            .any(|n| n.contains("using the saved profile's 4x6 grid")),
        "{:?}",
        p.notes
    );
    assert_eq!(p.summary().grid.map(|g| (g.rows, g.cols)), Some((4, 6)));
}

#[test]
fn a_saved_grid_is_not_used_on_another_window_size_or_past_the_board() {
    let p = play_knowing(|g, (w, h)| (g, (w + 1, h)));
    assert!(matches!(p.summary().stop, Stop::Unreadable(_)));
    assert_eq!(p.stats.clicks, 0);
    assert!(
        p.notes.iter().any(|n| n.contains("not the")),
        "{:?}",
        p.notes
    );
    // One empty line too many: the board's extent is not what was saved.
    let p = play_knowing(|mut g, size| {
        g.cols += 1;
        (g, size)
    });
    assert!(matches!(p.summary().stop, Stop::Unreadable(_)));
    assert_eq!(p.stats.clicks, 0);
    assert!(
        p.notes.iter().any(|n| n.contains("tile on every edge")),
        "{:?}",
        p.notes
    );
}

fn quick(mut setup: Setup) -> Setup {
    setup.options.verify_timeout = Duration::from_millis(300);
    setup
}

#[test]
fn no_click_on_a_frame_that_is_not_lianliankan_or_shows_no_board() {
    for blind in [
        ReadError::NotLianliankan("numbered tiles 1-8".into()),
        ReadError::NoBoard("nothing tile-like".into()),
    ] {
        let mut eyes = Blindfold(blind.clone());
        let setup = quick(Setup::new(&config(Gravity::None, 0, None)));
        let p = play_with(setup, Some(&mut eyes), &mut FirstPair, None);
        let s = p.summary();
        assert_eq!(p.stats.clicks, 0, "{blind}");
        assert!(s.first.is_none());
        assert_eq!(s.stop, Stop::Unreadable(blind.to_string()));
    }
}

#[test]
fn no_click_on_an_unsure_reading() {
    let setup = quick(Setup::new(&config(Gravity::None, 0, None)));
    let (sim, _) = Setup::new(&config(Gravity::None, 0, None)).sim();
    let mut eyes = Doubting(sim);
    let p = play_with(setup, Some(&mut eyes), &mut FirstPair, None);
    assert_eq!(p.stats.clicks, 0);
    match &p.summary().stop {
        Stop::Unreadable(why) => assert!(why.contains("unsure of 1 cells"), "{why}"),
        other => panic!("{other:?}"),
    }
}

/// A planner fooled by a misread board: it proposes two tiles of different types.
struct Misread;

impl Brain for Misread {
    fn plan(&mut self, board: &Board, _rules: &Rules) -> Proposal {
        let tiles: Vec<(Pos, u8)> = board.tiles().collect();
        let (a, ta) = tiles[0];
        let (b, _) = *tiles.iter().find(|(_, t)| *t != ta).unwrap();
        Proposal {
            moves: vec![Link {
                a,
                b,
                path: vec![a.into(), b.into()],
            }],
            outcome: Outcome::Cleared,
            states: 1,
        }
    }
    fn name(&self) -> String {
        "misread".into()
    }
}

#[test]
fn two_clicks_without_effect_stop_the_bot_before_a_third() {
    let setup = Setup::new(&config(Gravity::None, 0, None));
    let p = play_with(setup, None, &mut Misread, None);
    let s = p.summary();
    match &s.stop {
        Stop::NoEffect(why) => assert!(why.contains("2 tries in a row"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(s.moves, 0);
    // The pair, then one retry of the missing click: two illegal pairings, not more.
    assert_eq!(p.stats.clicks, 3, "{:?}", p.stats);
    assert!(p.stats.illegal <= 2, "{:?}", p.stats);
}

/// Selects `cell` as a user would before the bot starts.
fn user_selects(setup: &mut Setup, cell: Pos) {
    let g = Renderer::new(&RenderSpec::default(), setup.rows, setup.cols).grid();
    let (x, y) = g.center(cell);
    setup.game.click(x, y, Some(cell), 0);
    assert_eq!(setup.game.selected(), Some(cell));
}

#[test]
fn a_tile_the_user_selected_is_paired_when_the_first_move_uses_it() {
    let mut setup = Setup::new(&config(Gravity::None, 0, None));
    let first = removable_pairs(setup.game.board(), &setup.options.rules)[0].clone();
    user_selects(&mut setup, first.a);
    let p = play(setup);
    assert_eq!(p.summary().stop, Stop::Cleared);
    // The user's click, then one click for the first pair and two for each of the 11 others.
    assert_eq!(p.stats.clicks, 1 + 1 + 2 * 11, "{:?}", p.stats);
    assert_eq!(p.stats.illegal, 0);
}

/// A tile of another type than the first removable pair's, and not in that pair.
fn a_tile_outside_the_first_pair(setup: &Setup) -> Pos {
    let first = removable_pairs(setup.game.board(), &setup.options.rules)[0].clone();
    let board = setup.game.board();
    let ta = board.get(first.a);
    board
        .tiles()
        .map(|(p, _)| p)
        .find(|&p| board.get(p) != ta && p != first.b)
        .unwrap()
}

#[test]
fn a_tile_the_user_selected_elsewhere_is_deselected_first() {
    let mut setup = Setup::new(&config(Gravity::None, 0, None));
    let other = a_tile_outside_the_first_pair(&setup);
    user_selects(&mut setup, other);
    let p = play(setup);
    assert_eq!(p.summary().stop, Stop::Cleared);
    assert_eq!(p.stats.illegal, 0, "{:?}", p.stats);
    assert!(
        p.notes.iter().any(|n| n.contains("deselect")),
        "{:?}",
        p.notes
    );
}

#[test]
fn an_error_keeps_the_true_counts_in_the_summary_and_the_recording() {
    let (dir, mut rec) = test_session("sim-err");
    // 24 pairs; a move takes at least two frames (a removal must hold still to count),
    // about five at this poll, so the window closes mid-game on fast and slow machines.
    let mut cfg = config(Gravity::None, 0, None);
    (cfg.rows, cfg.cols, cfg.types) = (6, 8, 12);
    let mut setup = Setup::new(&cfg);
    setup.options.poll = Duration::from_millis(30);
    setup.frames_left = Some(40);
    let p = play_with(setup, None, &mut FirstPair, Some(&mut rec));
    drop(rec);
    let err = p.result.as_ref().expect_err("the window closed mid-game");
    let moves = err.summary.moves;
    assert!(moves > 0, "{err}");
    // The pair clicked last may be gone in the game while the closing window cut its
    // verification short: the bot counts only removals it saw.
    assert!(
        (moves as u32..=moves as u32 + 1).contains(&p.stats.removed),
        "{moves} moves, {:?}",
        p.stats
    );
    let text = err.to_string();
    assert!(text.contains("the window was closed"), "{text}");
    assert!(text.contains(&format!("after {moves} moves")), "{text}");
    let end = read_session(&dir)
        .unwrap()
        .into_iter()
        .find_map(|e| match e {
            Entry::End {
                moves,
                pairs_cleared,
                reason,
                ..
            } => Some((moves, pairs_cleared, reason)),
            _ => None,
        })
        .unwrap();
    assert_eq!((end.0, end.1), (moves, err.summary.pairs_cleared));
    assert!(end.1 > 0 && end.2.starts_with("error"), "{end:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn gravity_is_found_for_every_mode() {
    for truth in Gravity::ALL {
        let config = GameConfig {
            rows: 6,
            cols: 8,
            types: 12,
            rules: Rules {
                outside: true,
                gravity: truth,
            },
            seed: 3,
            animation_ms: 0,
            shuffle_every: None,
        };
        let mut setup = Setup::new(&config);
        setup.options.find_gravity = true;
        setup.options.rules.gravity = Gravity::None;
        let p = play(setup);
        let s = p.summary();
        assert_eq!(s.stop, Stop::Cleared, "{truth}");
        assert_eq!(p.stats.illegal, 0, "{truth}: {:?}", p.stats);
        assert_eq!(s.gravity.found(), Some(truth), "{truth}: {}", s.gravity);
        let said = format!("gravity: {truth} (found after");
        assert!(
            p.notes.iter().any(|n| n.starts_with(&said)),
            "{truth}: {:?}",
            p.notes
        );
    }
}

#[test]
fn a_given_gravity_is_kept() {
    let mut setup = Setup::new(&config(Gravity::Down, 0, None));
    setup.options.find_gravity = false;
    let p = play(setup);
    assert_eq!(p.summary().stop, Stop::Cleared);
    assert_eq!(p.summary().gravity.to_string(), "down (given)");
    assert!(p.notes.is_empty(), "{:?}", p.notes);
}

#[test]
fn a_deal_that_cannot_be_cleared_is_played_out_then_stops_saying_what_is_left() {
    // Without the ring only A-A links; the other four tiles sit in pockets of obstacles, so
    // no reshuffle can help either.
    let board = Board::from_rows(&["AA#B#", "#####", "C#B#C"]).unwrap();
    let rules = Rules {
        outside: false,
        gravity: Gravity::None,
    };
    let setup = Setup::on_board(board, rules);
    let mut planner = super::pipeline::Planner::default();
    let p = play_with(setup, None, &mut planner, None);
    let s = p.summary();
    assert_eq!(s.moves, 1);
    match &s.stop {
        Stop::NoMoves { tiles_left, why } => {
            assert_eq!(*tiles_left, 4);
            assert!(why.contains("proved no order clears"), "{why}");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(p.stats.illegal, 0);
}

/// Exact eyes until the game has removed `after` pairs; then the game covers its board
/// with a message (a deadlock notice), and no frame shows a board.
struct CoveredAfter {
    sim: Shared,
    after: u32,
}

impl Eyes for CoveredAfter {
    fn read(&mut self, frame: &RgbaImage, grid: Option<&Grid>) -> Result<Reading, ReadError> {
        let removed = self.sim.0.borrow().window.game().stats().removed;
        if removed >= self.after {
            return Err(ReadError::NoBoard(
                "a message window covers the board".into(),
            ));
        }
        self.sim.read(frame, grid)
    }
}

#[test]
fn a_deal_whose_game_covers_its_deadlocked_board_stops_with_the_tiles_left() {
    // The deal of the test above, in a game that covers its board with a message once no
    // pair is left (xshisen does): the bot ends the deal saying what is left, not that it
    // could no longer read the board.
    let board = Board::from_rows(&["AA#B#", "#####", "C#B#C"]).unwrap();
    let rules = Rules {
        outside: false,
        gravity: Gravity::None,
    };
    let (sim, options) = Setup::on_board(board, rules).sim();
    let mut eyes = CoveredAfter {
        sim: sim.clone(),
        after: 1,
    };
    let mut planner = super::pipeline::Planner::default();
    let p = play_on(sim, options, Some(&mut eyes), &mut planner, None);
    let s = p.summary();
    assert_eq!(p.stats.removed, 1);
    assert_eq!(p.stats.illegal, 0);
    match &s.stop {
        Stop::NoMoves { tiles_left, why } => {
            assert_eq!(*tiles_left, 4);
            assert!(why.contains("cannot be cleared"), "{why}");
            assert!(why.contains("covers the board"), "{why}");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_board_covered_while_pairs_are_left_is_still_unreadable() {
    // The same message over a board that still has pairs is no deal's end: the bot stops
    // as unable to read, not as if the deal were over.
    let (sim, options) = Setup::new(&config(Gravity::None, 0, None)).sim();
    let mut eyes = CoveredAfter {
        sim: sim.clone(),
        after: 2,
    };
    let p = play_on(sim, options, Some(&mut eyes), &mut FirstPair, None);
    assert_eq!(p.stats.removed, 2);
    assert!(
        matches!(&p.summary().stop, Stop::Unreadable(why) if why.contains("covers the board")),
        "{:?}",
        p.summary().stop
    );
}

#[test]
fn the_click_pace_is_learnt_from_the_game() {
    let needs = Duration::from_millis(20);
    let mut setup = Setup::new(&GameConfig {
        rows: 6,
        cols: 8,
        types: 12,
        ..config(Gravity::None, 0, None)
    });
    setup.pacer = Some((ClickPacer::default(), needs));
    let p = play(setup);
    let s = p.summary();
    assert_eq!(s.stop, Stop::Cleared);
    let pace = s.pace.expect("the sim clicker paces");
    assert!(
        pace.hold >= needs && pace.hold < needs * 2,
        "{pace:?} after {} moves",
        s.moves
    );
    assert!(pace.lost >= 1 && pace.lost <= 3, "{pace:?}");
    assert_eq!(p.stats.illegal, 0);
}

#[test]
fn a_tile_shown_selected_only_under_the_pointer_is_not_clicked() {
    let mut setup = Setup::new(&config(Gravity::None, 0, None));
    let hovered = a_tile_outside_the_first_pair(&setup);
    setup.hover = Some(hovered);
    let p = play(setup);
    assert_eq!(p.summary().stop, Stop::Cleared);
    // No deselecting click: two clicks for each of the 12 pairs, none illegal.
    assert_eq!((p.stats.clicks, p.stats.illegal), (24, 0), "{:?}", p.stats);
    assert!(
        p.notes.iter().any(|n| n.contains("moved the pointer")),
        "{:?}",
        p.notes
    );
}

#[test]
fn a_user_taking_the_mouse_stops_a_bot_that_is_only_watching() {
    // Eyes that never see a board keep the loop capturing without a click for
    // `verify_timeout`; the user's move must stop it at the first capture.
    let mut setup = Setup::new(&config(Gravity::None, 0, None));
    setup.taken = true;
    let mut eyes = Blindfold(ReadError::NoBoard("nothing tile-like".into()));
    let t0 = Instant::now();
    let p = play_with(setup, Some(&mut eyes), &mut FirstPair, None);
    let err = p.result.expect_err("the user took the mouse");
    assert!(err.to_string().contains("user took control"), "{err}");
    assert!(
        matches!(
            err.cause,
            PlayFault::Click(ClickError::UserTookControl { .. })
        ),
        "{err:?}"
    );
    assert!(t0.elapsed() < Duration::from_secs(1), "{:?}", t0.elapsed());
    assert_eq!(p.stats.clicks, 0);
}

/// Eyes that read a drawn link as a game's reader may: the pair's two cells empty (and
/// doubted) while the tiles above them have not fallen yet.
struct LinkAsRemoved(Shared);

impl Eyes for LinkAsRemoved {
    fn read(&mut self, frame: &RgbaImage, grid: Option<&Grid>) -> Result<Reading, ReadError> {
        let mut seen = self.0.read(frame, grid)?;
        let link = self.0 .0.borrow().window.game().showing().cloned();
        if let Some(link) = link {
            seen.board.set(link.a, crate::board::Cell::Empty);
            seen.board.set(link.b, crate::board::Cell::Empty);
            seen.unsure = vec![link.a, link.b];
        }
        Ok(seen)
    }
}

#[test]
fn a_drawn_link_read_as_a_removal_does_not_hide_the_gravity() {
    // The link shows for 150 ms, longer than a verification would take to accept the first
    // frame that matches the prediction without gravity.
    let mut cfg = config(Gravity::Down, 150, None);
    cfg.rows = 6;
    cfg.cols = 8;
    cfg.types = 12;
    let mut setup = Setup::new(&cfg);
    setup.options.find_gravity = true;
    setup.options.rules.gravity = Gravity::None;
    let (sim, options) = setup.sim();
    let mut eyes = LinkAsRemoved(sim.clone());
    let p = play_on(sim, options, Some(&mut eyes), &mut FirstPair, None);
    let s = p.summary();
    assert_eq!(s.stop, Stop::Cleared, "{}", s.gravity);
    assert_eq!(s.gravity.found(), Some(Gravity::Down), "{}", s.gravity);
    assert_eq!(p.stats.illegal, 0, "{:?}", p.stats);
}

/// Exact eyes that count the frames they are asked to read.
struct Counting(Shared, usize);

impl Eyes for Counting {
    fn read(&mut self, frame: &RgbaImage, grid: Option<&Grid>) -> Result<Reading, ReadError> {
        self.1 += 1;
        self.0.read(frame, grid)
    }
}

#[test]
fn a_frame_like_the_last_is_not_read_again() {
    // A 150 ms removal animation: the game shows the same pixels for many polls at a time.
    let setup = Setup::new(&config(Gravity::None, 150, None));
    let (sim, options) = setup.sim();
    let mut eyes = Counting(sim.clone(), 0);
    let (dir, mut rec) = test_session("sim-memo");
    let p = play_on(
        sim,
        options,
        Some(&mut eyes),
        &mut FirstPair,
        Some(&mut rec),
    );
    rec.finish().unwrap();
    assert_eq!(p.summary().stop, Stop::Cleared);
    let log = read_session(&dir).unwrap();
    let reads = log
        .iter()
        .filter(|e| matches!(e, Entry::Read { .. } | Entry::Blind { .. }))
        .count();
    // Every poll's reading is logged, but frames equal to the one before are not read again.
    assert!(eyes.1 * 2 < reads, "{} reads for {reads} readings", eyes.1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Eyes that read the game exactly (`Some`) or see nothing (`None`), and keep every board
/// the loop teaches them as ground ([`Eyes::ground_seen`]).
struct Taught(Option<Shared>, Vec<(Grid, Vec<String>)>);

impl Eyes for Taught {
    fn read(&mut self, frame: &RgbaImage, grid: Option<&Grid>) -> Result<Reading, ReadError> {
        match &mut self.0 {
            Some(s) => s.read(frame, grid),
            None => Err(ReadError::NoBoard("blindfolded".into())),
        }
    }

    fn ground_seen(&mut self, _frame: &RgbaImage, grid: &Grid, board: &Board) {
        self.1.push((*grid, board.row_strings()));
    }
}

#[test]
fn the_eyes_learn_the_ground_of_every_board_played_and_a_replay_teaches_it_again() {
    let setup = Setup::new(&config(Gravity::Down, 0, None));
    let (sim, options) = setup.sim();
    let grid = sim.0.borrow().window.grid();
    let deal = sim.0.borrow().window.game().board().clone();
    let mut eyes = Taught(Some(sim.clone()), Vec::new());
    let (dir, mut rec) = test_session("sim-ground");
    rec.entry(&test_start(options.rules)).unwrap();
    let p = play_on(
        sim,
        options,
        Some(&mut eyes),
        &mut FirstPair,
        Some(&mut rec),
    );
    rec.finish().unwrap();
    assert_eq!(p.summary().stop, Stop::Cleared);
    // The deal, then each board a removal left (again when re-planned from), down to the
    // clear one: all on the grid the loop locked.
    let taught = &eyes.1;
    assert_eq!(taught[0].1, deal.row_strings());
    let tiles = |rows: &[String]| rows.concat().chars().filter(|c| *c != '.').count();
    for w in taught.windows(2) {
        assert!(
            w[1] == w[0] || tiles(&w[1].1) + 2 == tiles(&w[0].1),
            "{:?}",
            w
        );
    }
    assert!(taught.iter().any(|t| tiles(&t.1) == 12));
    assert!(taught.iter().all(|(g, _)| *g == grid));
    assert_eq!(tiles(&taught.last().unwrap().1), 0);
    // The log holds each lesson, and a replay teaches the same ones in the same order.
    let logged: Vec<(Grid, Vec<String>)> = read_session(&dir)
        .unwrap()
        .into_iter()
        .filter_map(|e| match e {
            Entry::Ground { grid, board, .. } => Some((grid, board)),
            _ => None,
        })
        .collect();
    assert_eq!(&logged, taught);
    let mut again = Taught(None, Vec::new());
    super::replay::replay_session(&dir, &mut again, &mut FirstPair).unwrap();
    assert_eq!(&again.1, taught);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Exact eyes whose ground memory went wrong: once taught a board ([`Eyes::ground_seen`]),
/// they read the game's last pair as empty until they forget what they were taught, as a
/// tile a wrong reading once left out is read as its cell's remembered ground.
struct Haunted {
    sim: Shared,
    taught: bool,
}

impl Eyes for Haunted {
    fn read(&mut self, frame: &RgbaImage, grid: Option<&Grid>) -> Result<Reading, ReadError> {
        let mut seen = self.sim.read(frame, grid)?;
        if self.taught && seen.board.tile_count() <= 2 {
            let tiles: Vec<Pos> = seen.board.tiles().map(|(p, _)| p).collect();
            for p in tiles {
                seen.board.set(p, Cell::Empty);
            }
        }
        Ok(seen)
    }

    fn ground_seen(&mut self, _frame: &RgbaImage, _grid: &Grid, _board: &Board) {
        self.taught = true;
    }

    fn forget_ground(&mut self) -> bool {
        std::mem::take(&mut self.taught)
    }
}

#[test]
fn a_last_pair_the_remembered_ground_hides_is_played_not_called_cleared() {
    let setup = Setup::new(&config(Gravity::None, 0, None));
    let (sim, options) = setup.sim();
    let mut eyes = Haunted {
        sim: sim.clone(),
        taught: false,
    };
    let p = play_on(sim, options, Some(&mut eyes), &mut FirstPair, None);
    assert_eq!(p.summary().stop, Stop::Cleared);
    assert_eq!(p.stats.removed, 12, "{:?}", p.stats);
    assert!(
        p.notes
            .iter()
            .any(|n| n.contains("the remembered ground is forgotten")),
        "{:?}",
        p.notes
    );
}
