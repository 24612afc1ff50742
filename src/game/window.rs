//! The practice game's window: a minifb framebuffer that shows a [`Game`] as its
//! [`Headless`] window draws it (the fixture renderer), hands left-button presses to it and
//! writes every event to a JSON-lines log.
//!
//! Drawing through the fixture renderer means the bot sees exactly the pictures vision is
//! tested on, and the log (not the bot's own account) is what the end-to-end tests judge by.

use super::headless::Headless;
use super::logic::{Event, Game, GameConfig, Stats};
use super::shell::{EventLog, GameLogError, Shell, WindowError};
use crate::board::Board;
use crate::render::RenderSpec;
use serde::Serialize;
use serde_json::json;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How the window behaves, beyond the game's rules.
#[derive(Clone, Debug)]
pub struct WindowConfig {
    /// The window title, which `llk play --window` looks for.
    pub title: String,
    /// How the board is drawn.
    pub spec: RenderSpec,
    /// Where to write the event log (JSON lines, flushed line by line).
    pub log: Option<PathBuf>,
    /// Moves the window by (dx, dy) every N removals (alternating directions so it stays on
    /// screen): a bot that does not re-read the window position misclicks.
    pub move_every: Option<u32>,
    /// The move (dx, dy), screen pixels.
    pub move_by: (i32, i32),
    /// Initial window position, when given.
    pub position: Option<(i32, i32)>,
    /// Closes the window this long after the board is cleared (`None`: stays open).
    pub close_after_clear: Option<Duration>,
    /// Closes the window after this long in any case, so a forgotten test game never lingers.
    pub timeout: Option<Duration>,
}

/// How the game ended, written as the log's last line.
#[derive(Clone, Debug, Serialize)]
pub struct GameOutcome {
    /// Whether the board was cleared.
    pub cleared: bool,
    /// Why the window closed: "cleared", "closed", "timeout".
    pub reason: String,
    /// The game's totals.
    pub stats: Stats,
    /// The final board's rows in text form.
    pub board: Vec<String>,
    /// How long the window was open, ms.
    pub millis: u64,
}

/// Runs the game in a window until it is closed (by the user, Escape, the timeout, or
/// `close_after_clear`) and returns how it ended.
pub fn run(config: &GameConfig, win: &WindowConfig) -> Result<GameOutcome, WindowError> {
    let game = Game::new(config)?;
    win.spec.validate(config.rows, config.cols)?;
    let mut headless = Headless::new(game, &win.spec);
    let grid = headless.grid();
    let (w, h) = headless.picture().dimensions();
    let mut log = EventLog::create(win.log.as_deref())?;
    let mut shell = Shell::open(&win.title, (w, h), win.position)?;
    log.write(&json!({
        "event": "start",
        "title": win.title,
        "rows": config.rows,
        "cols": config.cols,
        "types": config.types,
        "seed": config.seed,
        "rules": config.rules,
        "size": [w, h],
        "grid": grid,
        "board": headless.game().board().row_strings(),
    }))?;

    let mut cleared_at: Option<Instant> = None;
    let mut moves_done = 0u32;
    let mut home: Option<(i32, i32)> = None;
    let mut dirty = true;
    let reason = loop {
        if let Some(why) = shell.closing(win.timeout, win.close_after_clear, cleared_at, "cleared")
        {
            break why;
        }
        let mut events = headless.tick();
        if let Some((x, y)) = shell.press() {
            events.extend(headless.press(x, y));
        }
        for e in &events {
            log.write(e)?;
            match e {
                Event::Cleared => cleared_at = Some(Instant::now()),
                Event::Removed { .. } => {
                    if let Some(n) = win.move_every {
                        if headless.game().stats().removed.is_multiple_of(n) {
                            moves_done += 1;
                            // Alternate between two fixed spots: stepping from
                            // get_position() drifts, because under a window manager it
                            // reports the client area while set_position places the frame.
                            let (x, y) = shell.window.get_position();
                            let (hx, hy) = *home.get_or_insert((x as i32, y as i32));
                            let to = if !moves_done.is_multiple_of(2) {
                                (hx + win.move_by.0, hy + win.move_by.1)
                            } else {
                                (hx, hy)
                            };
                            shell.window.set_position(to.0 as isize, to.1 as isize);
                            log.write(
                                &json!({"event": "moved", "from": [x, y], "to": [to.0, to.1]}),
                            )?;
                        }
                    }
                }
                _ => {}
            }
        }
        dirty |= !events.is_empty();
        let picture = dirty.then(|| headless.picture());
        dirty = false;
        shell.show(picture.as_ref())?;
    };
    let game = headless.game();
    let outcome = GameOutcome {
        cleared: game.is_cleared(),
        reason: reason.to_string(),
        stats: game.stats(),
        board: game.board().row_strings(),
        millis: shell.elapsed().as_millis() as u64,
    };
    log.write(&json!({"event": "end", "outcome": outcome}))?;
    Ok(outcome)
}

/// Reads a game's event log back: every line as JSON, for tests and the demo's summary.
pub fn read_log(path: &std::path::Path) -> Result<Vec<serde_json::Value>, GameLogError> {
    let text = std::fs::read_to_string(path).map_err(|source| GameLogError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).map_err(|source| GameLogError::NotJson {
                path: path.to_path_buf(),
                line: i + 1,
                source,
            })
        })
        .collect()
}

/// The verdict of a finished game log: whether it was cleared, and the counts a bot is
/// judged on. Fails when the log has no final line (the game was killed).
pub fn verdict(log: &[serde_json::Value]) -> Result<(bool, Stats, Board), GameLogError> {
    let Some(end) = log.iter().rev().find(|v| v["event"] == "end") else {
        return Err(GameLogError::NoEnd);
    };
    let o = &end["outcome"];
    let n = |k: &str| o["stats"][k].as_u64().unwrap_or(0) as u32;
    let stats = Stats {
        clicks: n("clicks"),
        outside: n("outside"),
        empty: n("empty"),
        busy: n("busy"),
        illegal: n("illegal"),
        removed: n("removed"),
        shuffles: n("shuffles"),
    };
    let rows: Vec<String> = o["board"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    let board = Board::from_rows(&rows).unwrap_or_else(|_| Board::new(0, 0));
    Ok((o["cleared"].as_bool().unwrap_or(false), stats, board))
}
