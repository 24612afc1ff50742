//! The sliding puzzle's window: a minifb framebuffer showing [`draw_game`](super::slide::draw_game), turning
//! left-button presses into [`SlideGame::click`] and logging every event as a JSON line —
//! the same shape as the Lianliankan window ([`super::window`]), so the log (not the
//! player's own account) is what the end-to-end tests judge by.

use super::shell::{EventLog, GameLogError, Shell, WindowError};
use super::slide::{draw_moving, picture, Motion, SlideConfig, SlideEvent, SlideGame, SlideStats};
use serde::Serialize;
use serde_json::json;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// How the window behaves, beyond the game's rules.
#[derive(Clone, Debug, Default)]
pub struct SlideWindowConfig {
    /// The window title, which `llk slide play --window` looks for.
    pub title: String,
    /// Where to write the event log (JSON lines, flushed line by line).
    pub log: Option<PathBuf>,
    /// Initial window position, when given.
    pub position: Option<(i32, i32)>,
    /// Closes the window this long after the puzzle is solved (`None`: stays open).
    pub close_after_solved: Option<Duration>,
    /// Closes the window after this long in any case, so a forgotten test game never lingers.
    pub timeout: Option<Duration>,
    /// How long a tile takes to slide into the blank on screen (zero: at once). The rules
    /// move it at the click; only the picture lags, as in games that animate moves, so a
    /// player must wait for the picture to settle rather than trust one capture.
    pub animation: Duration,
}

/// How the game ended, written as the log's last line.
#[derive(Clone, Debug, Serialize)]
pub struct SlideOutcome {
    /// Whether the puzzle was solved.
    pub solved: bool,
    /// Why the window closed: "solved", "closed", "timeout".
    pub reason: String,
    /// The game's totals.
    pub stats: SlideStats,
    /// The final position, row-major, 0 = blank.
    pub board: Vec<u8>,
    /// How long the window was open, ms.
    pub millis: u64,
}

/// Runs a sliding game in a window until it is closed (by the user, Escape, the timeout or
/// `close_after_solved`) and returns how it ended.
pub fn run_slide(
    config: &SlideConfig,
    win: &SlideWindowConfig,
) -> Result<SlideOutcome, WindowError> {
    let mut game = SlideGame::new(config)?;
    let layout = config.layout();
    let art = config.picture.then(|| picture(&layout, config.seed));
    let grid = layout.grid();
    let (w, h) = layout.window();
    let mut log = EventLog::create(win.log.as_deref())?;
    let mut shell = Shell::open(&win.title, (w, h), win.position)?;
    log.write(&json!({
        "event": "start",
        "title": win.title,
        "rows": config.rows,
        "cols": config.cols,
        "goal": config.goal,
        "seed": config.seed,
        "picture": config.picture,
        "size": [w, h],
        "grid": grid,
        "board": game.puzzle().tiles(),
    }))?;

    let mut solved_at: Option<Instant> = None;
    let mut dirty = true;
    let mut moving: Option<(usize, usize, Instant)> = None;
    let reason = loop {
        if let Some(why) = shell.closing(win.timeout, win.close_after_solved, solved_at, "solved") {
            break why;
        }
        if let Some((x, y)) = shell.press() {
            let cell = grid.cell_at(x, y).map(|p| (p.row, p.col));
            for e in game.click(x, y, cell) {
                match &e {
                    SlideEvent::Solved { .. } => solved_at = Some(Instant::now()),
                    SlideEvent::Move { from, to, .. } if !win.animation.is_zero() => {
                        let at = |p: &[usize; 2]| p[0] * config.cols + p[1];
                        moving = Some((at(from), at(to), Instant::now()));
                    }
                    _ => {}
                }
                log.write(&e)?;
            }
            dirty = true;
        }
        let motion = moving.and_then(|(from, to, at)| {
            let t = at.elapsed().as_secs_f32() / win.animation.as_secs_f32();
            (t < 1.0).then_some(Motion { from, to, t })
        });
        if moving.is_some() {
            // Every frame of an animation is new, and one more once it has ended.
            dirty = true;
            if motion.is_none() {
                moving = None;
            }
        }
        let picture = dirty.then(|| draw_moving(&layout, &game, art.as_ref(), motion));
        dirty = false;
        shell.show(picture.as_ref())?;
    };
    let outcome = SlideOutcome {
        solved: game.is_solved(),
        reason: reason.to_string(),
        stats: game.stats(),
        board: game.puzzle().tiles().to_vec(),
        millis: shell.elapsed().as_millis() as u64,
    };
    log.write(&json!({"event": "end", "outcome": outcome}))?;
    Ok(outcome)
}

/// The verdict of a finished sliding game's log (see [`super::read_log`]): whether it was
/// solved, and its totals. Fails when the log has no final line (the game was killed).
pub fn slide_verdict(
    log: &[serde_json::Value],
) -> Result<(bool, SlideStats, Vec<u8>), GameLogError> {
    let Some(end) = log.iter().rev().find(|v| v["event"] == "end") else {
        return Err(GameLogError::NoEnd);
    };
    let o = &end["outcome"];
    let n = |k: &str| o["stats"][k].as_u64().unwrap_or(0) as u32;
    let stats = SlideStats {
        clicks: n("clicks"),
        outside: n("outside"),
        illegal: n("illegal"),
        moves: n("moves"),
    };
    let board = o["board"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|v| v.as_u64().map(|t| t as u8))
                .collect()
        })
        .unwrap_or_default();
    Ok((o["solved"].as_bool().unwrap_or(false), stats, board))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdict_reads_the_end_line_and_needs_one() {
        let end = json!({"event": "end", "outcome": {"solved": true, "reason": "solved",
            "stats": {"clicks": 5, "outside": 0, "illegal": 1, "moves": 4},
            "board": [1, 2, 3, 0], "millis": 10}});
        let (solved, stats, board) = slide_verdict(&[json!({"event": "start"}), end]).unwrap();
        assert!(solved);
        assert_eq!((stats.clicks, stats.illegal, stats.moves), (5, 1, 4));
        assert_eq!(board, vec![1, 2, 3, 0]);
        let err = slide_verdict(&[json!({"event": "start"})]).unwrap_err();
        assert!(matches!(err, GameLogError::NoEnd), "{err:?}");
        assert!(err.to_string().contains("no \"end\" line"));
    }
}
