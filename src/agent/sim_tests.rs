//! The play loop against a simulated game: the real game logic and renderer behind a
//! FrameSource + Clicker, with faults (lost clicks, reshuffles, gravity, a moving window)
//! injected, and exact eyes so that only the loop's own logic is under test.

use super::play::{PlayOptions, Player, Stop};
use super::stages::{Blind, Eyes, FirstPair, Seen};
use crate::board::{Gravity, Rules};
use crate::capture::{Frame, FrameSource};
use crate::game::{Game, GameConfig, Stats};
use crate::geometry::Grid;
use crate::input::Clicker;
use crate::render::{RenderSpec, Renderer};
use image::RgbaImage;
use indicatif::ProgressBar;
use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

struct Sim {
    game: Game,
    renderer: Renderer,
    grid: Grid,
    origin: (i32, i32),
    t0: Instant,
    clicks: u32,
    lose_every: Option<u32>,
    move_every: Option<u32>,
    moved_at: u32,
}

impl Sim {
    fn now(&self) -> u64 {
        self.t0.elapsed().as_millis() as u64
    }
    fn tick(&mut self) {
        let now = self.now();
        self.game.tick(now);
        self.maybe_move();
    }
    fn maybe_move(&mut self) {
        let removed = self.game.stats().removed;
        if let Some(n) = self.move_every {
            if removed > 0 && removed.is_multiple_of(n) && self.moved_at != removed {
                self.moved_at = removed;
                self.origin.0 += 37;
                self.origin.1 -= 11;
            }
        }
    }
}

#[derive(Clone)]
struct Shared(Rc<RefCell<Sim>>);

impl FrameSource for Shared {
    fn frame(&mut self) -> anyhow::Result<Frame> {
        let mut s = self.0.borrow_mut();
        s.tick();
        let sel: Vec<_> = s.game.selected().into_iter().collect();
        let links: Vec<_> = s.game.showing().cloned().into_iter().collect();
        let board = s.game.board().clone();
        let image = s.renderer.draw(&board, &sel, &links).image;
        Ok(Frame {
            image,
            origin: s.origin,
        })
    }
}

impl Clicker for Shared {
    fn click(&mut self, x: i32, y: i32) -> anyhow::Result<()> {
        let mut s = self.0.borrow_mut();
        s.clicks += 1;
        if s.lose_every.is_some_and(|k| s.clicks.is_multiple_of(k)) {
            return Ok(());
        }
        let (wx, wy) = ((x - s.origin.0) as f32 + 0.5, (y - s.origin.1) as f32 + 0.5);
        let cell = s.grid.cell_at(wx, wy);
        let now = s.now();
        s.game.click(wx, wy, cell, now);
        s.maybe_move();
        Ok(())
    }
}

/// Reads the game's state instead of its pixels.
impl Eyes for Shared {
    fn read(&mut self, _frame: &RgbaImage, _grid: Option<&Grid>) -> Result<Seen, Blind> {
        let s = self.0.borrow();
        Ok(Seen {
            grid: s.grid,
            board: s.game.board().clone(),
            unsure: vec![],
        })
    }
}

fn run(
    config: GameConfig,
    lose_every: Option<u32>,
    move_every: Option<u32>,
) -> (Stop, Stats, usize) {
    let game = Game::new(&config).unwrap();
    let renderer = Renderer::new(&RenderSpec::default(), config.rows, config.cols);
    let grid = renderer.grid();
    let sim = Shared(Rc::new(RefCell::new(Sim {
        game,
        renderer,
        grid,
        origin: (300, 200),
        t0: Instant::now(),
        clicks: 0,
        lose_every,
        move_every,
        moved_at: 0,
    })));
    let (mut src, mut clk, mut eyes) = (sim.clone(), sim.clone(), sim.clone());
    let mut brain = FirstPair;
    let mut player = Player {
        source: &mut src,
        clicker: &mut clk,
        eyes: &mut eyes,
        brain: &mut brain,
        recorder: None,
        progress: ProgressBar::hidden(),
        options: PlayOptions {
            rules: config.rules,
            timeout: Duration::from_secs(60),
            retry_after: Duration::from_millis(120),
            ..PlayOptions::default()
        },
    };
    let summary = player.play().unwrap();
    let stats = sim.0.borrow().game.stats();
    (summary.stop, stats, summary.retries)
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
