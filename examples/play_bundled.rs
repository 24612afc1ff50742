//! Plays the bundled Lianliankan game headless: the game's rules (`llk::game::Game`) run
//! in memory, each frame is drawn by the same renderer the game's window uses, and the bot
//! plays it through the same loop as `llk play` — the default reader on the pixels, the
//! planner, clicks, verification by re-reading. No window, no display, no mouse.
//!
//! `cargo run --release --example play_bundled -- [SEED]` (default 1). Exits 1 unless the
//! board is cleared.

use image::RgbaImage;
use llk::agent::pipeline::{Planner, Vision};
use llk::agent::{PlayOptions, Player, Stop};
use llk::capture::{CaptureError, Frame, FrameSource};
use llk::game::{Game, GameConfig};
use llk::geometry::Grid;
use llk::input::{ClickError, Clicker};
use llk::render::{RenderSpec, Renderer};
use std::cell::RefCell;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// The game as a window would hold it: its rules, its picture, where its client area sits
/// on the (imaginary) screen, and its clock.
struct Window {
    game: Game,
    renderer: Renderer,
    grid: Grid,
    origin: (i32, i32),
    start: Instant,
}

impl Window {
    /// Milliseconds since the game started: the game's own clock, which ends a removal's
    /// animation.
    fn now(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }
}

/// One window shared by the frame source and the clicker, as the screen is shared live.
#[derive(Clone)]
struct Headless(Rc<RefCell<Window>>);

impl FrameSource for Headless {
    /// The picture now: time advances first, so a matched pair's link disappears when the
    /// game says it does.
    fn frame(&mut self) -> Result<Frame, CaptureError> {
        let mut w = self.0.borrow_mut();
        let now = w.now();
        w.game.tick(now);
        let board = w.game.board().clone();
        let selected: Vec<_> = w.game.selected().into_iter().collect();
        let links: Vec<_> = w.game.showing().cloned().into_iter().collect();
        let image: RgbaImage = w.renderer.draw(&board, &selected, &links).image;
        Ok(Frame {
            image,
            origin: w.origin,
        })
    }
}

impl Clicker for Headless {
    /// A press at screen point (x, y), handed to the game as the window would: in window
    /// pixels (the pixel's centre), with the cell under it.
    fn click(&mut self, x: i32, y: i32) -> Result<(), ClickError> {
        let mut w = self.0.borrow_mut();
        let (wx, wy) = ((x - w.origin.0) as f32 + 0.5, (y - w.origin.1) as f32 + 0.5);
        let cell = w.grid.cell_at(wx, wy);
        let now = w.now();
        w.game.click(wx, wy, cell, now);
        Ok(())
    }
}

fn main() -> anyhow::Result<ExitCode> {
    let seed = match std::env::args().nth(1) {
        Some(s) => s.parse()?,
        None => 1,
    };
    let config = GameConfig {
        rows: 6,
        cols: 8,
        types: 8,
        seed,
        ..GameConfig::default()
    };
    let game = Game::new(&config)?;
    let renderer = Renderer::new(&RenderSpec::default(), config.rows, config.cols);
    let grid = renderer.grid();
    let window = Headless(Rc::new(RefCell::new(Window {
        game,
        renderer,
        grid,
        origin: (200, 100),
        start: Instant::now(),
    })));
    let (mut source, mut clicker) = (window.clone(), window.clone());
    let summary = Player {
        source: &mut source,
        clicker: &mut clicker,
        eyes: &mut Vision::default(),
        brain: &mut Planner::default(),
        recorder: None,
        progress: indicatif::ProgressBar::hidden(),
        notes: &mut |note| println!("{note}"),
        options: PlayOptions {
            rules: config.rules,
            timeout: Duration::from_secs(120),
            ..PlayOptions::default()
        },
    }
    .play()?;
    let w = window.0.borrow();
    let stats = w.game.stats();
    println!(
        "{}x{} game, seed {seed}: {} after {} moves ({}/{} pairs), {} clicks, {} illegal, \
         {} on empty cells, game cleared: {}",
        config.rows,
        config.cols,
        summary.stop.word(),
        summary.moves,
        summary.pairs_cleared,
        summary.total_pairs,
        stats.clicks,
        stats.illegal,
        stats.empty,
        w.game.is_cleared()
    );
    Ok(if summary.stop == Stop::Cleared && w.game.is_cleared() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
