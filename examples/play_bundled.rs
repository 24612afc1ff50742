//! Plays the bundled Lianliankan game headless: the game's rules run in memory in a
//! `llk::game::Headless` window, which draws each frame as the game's real window does and
//! takes the clicks it would, and the bot plays it through the same loop as `llk play` —
//! the default reader on the pixels, the planner, clicks, verification by re-reading. No
//! window, no display, no mouse.
//!
//! `cargo run --release --example play_bundled -- [SEED]` (default 1). Exits 1 unless the
//! board is cleared.

use llk::agent::pipeline::{Planner, Vision};
use llk::agent::{PlayOptions, Player, Stop};
use llk::game::{Game, GameConfig, Headless};
use llk::render::RenderSpec;
use std::cell::RefCell;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::Duration;

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
    let mut window = Headless::new(Game::new(&config)?, &RenderSpec::default());
    // The client area's place on the (imaginary) screen: clicks come in screen points.
    window.move_to((200, 100));
    // One window is both the frame source and the clicker, as the screen is live.
    let window = Rc::new(RefCell::new(window));
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
    let w = window.borrow();
    let stats = w.game().stats();
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
        w.game().is_cleared()
    );
    Ok(if summary.stop == Stop::Cleared && w.game().is_cleared() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
