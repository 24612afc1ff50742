//! The arguments of `llk game`, shared by the commands that open the bundled game
//! (`llk game`, `llk demo`, `llk slide play`'s tests) without importing each other.

use clap::Args;
use llk::board::Gravity;
use llk::render::{Background, Theme};
use llk::slide::Goal;
use std::path::PathBuf;

/// Parses "WxH" (e.g. 31x35).
fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("{s:?}: expected WxH, e.g. 31x35"))?;
    let num = |v: &str, what: &str| {
        v.trim()
            .parse::<u32>()
            .map_err(|_| format!("{s:?}: {what} is not a number"))
    };
    Ok((num(w, "width")?, num(h, "height")?))
}

/// Parses "X,Y" (signed pixels).
fn parse_point(s: &str) -> Result<(i32, i32), String> {
    let (x, y) = s
        .split_once(',')
        .ok_or_else(|| format!("{s:?}: expected X,Y, e.g. 40,0"))?;
    let num = |v: &str| {
        v.trim()
            .parse::<i32>()
            .map_err(|_| format!("{s:?}: {v:?} is not a whole number"))
    };
    Ok((num(x)?, num(y)?))
}

#[derive(Args, Debug, Clone)]
pub struct GameArgs {
    #[arg(long, default_value_t = 8)]
    pub rows: usize,
    #[arg(long, default_value_t = 12)]
    pub cols: usize,
    /// Number of distinct tile pictures.
    #[arg(long, default_value_t = 16)]
    pub types: usize,
    /// How tiles slide after a removal: none, down, up, left, right, center-v, center-h.
    #[arg(long, default_value = "none")]
    pub gravity: Gravity,
    /// Links may not run through the ring just outside the board.
    #[arg(long)]
    pub no_outside: bool,
    /// Tile size in pixels, WxH.
    #[arg(long, default_value = "31x35", value_parser = parse_size)]
    pub tile: (u32, u32),
    /// Look: classic, dark, pastel or mahjong.
    #[arg(long, default_value = "classic")]
    pub theme: Theme,
    /// Background: plain, gradient, noise or pattern.
    #[arg(long, default_value = "plain")]
    pub background: Background,
    /// Seeds the deal and every reshuffle.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Milliseconds a matched pair stays on screen (with its link) before it disappears.
    #[arg(long, default_value_t = 150)]
    pub animation_ms: u64,
    /// Fault injection: reshuffle the board after every N removals.
    #[arg(long)]
    pub shuffle_every: Option<u32>,
    /// Fault injection: move the window every N removals.
    #[arg(long)]
    pub move_every: Option<u32>,
    /// How far the window moves, X,Y pixels (it alternates back and forth).
    #[arg(long, default_value = "40,30", value_parser = parse_point)]
    pub move_by: (i32, i32),
    /// Initial window position X,Y.
    #[arg(long, value_parser = parse_point)]
    pub position: Option<(i32, i32)>,
    /// Window title (what `llk play --window` looks for).
    #[arg(long, default_value = "LLK practice")]
    pub title: String,
    /// Write the game's events as JSON lines (clicks, removals, illegal clicks, shuffles,
    /// final state).
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// Close the window this many ms after the board is cleared (default: stay open).
    #[arg(long)]
    pub close_after_clear_ms: Option<u64>,
    /// Close the window after this many seconds whatever happens.
    #[arg(long)]
    pub timeout: Option<f64>,
    #[command(flatten)]
    pub slide: SlideGameArgs,
}

impl GameArgs {
    /// The arguments that recreate this game in a child process (`llk demo`, the tests).
    #[cfg_attr(not(feature = "live"), allow(dead_code))]
    pub fn to_cli(&self) -> Vec<String> {
        let mut v: Vec<String> = vec![
            "game".into(),
            format!("--rows={}", self.rows),
            format!("--cols={}", self.cols),
            format!("--types={}", self.types),
            format!("--gravity={}", self.gravity),
            format!("--tile={}x{}", self.tile.0, self.tile.1),
            format!("--theme={}", self.theme),
            format!("--background={}", self.background),
            format!("--seed={}", self.seed),
            format!("--animation-ms={}", self.animation_ms),
            format!("--move-by={},{}", self.move_by.0, self.move_by.1),
            format!("--title={}", self.title),
        ];
        if self.no_outside {
            v.push("--no-outside".into());
        }
        if let Some(n) = self.shuffle_every {
            v.push(format!("--shuffle-every={n}"));
        }
        if let Some(n) = self.move_every {
            v.push(format!("--move-every={n}"));
        }
        if let Some((x, y)) = self.position {
            v.push(format!("--position={x},{y}"));
        }
        if let Some(p) = &self.log {
            v.push(format!("--log={}", p.display()));
        }
        if let Some(ms) = self.close_after_clear_ms {
            v.push(format!("--close-after-clear-ms={ms}"));
        }
        if let Some(t) = self.timeout {
            v.push(format!("--timeout={t}"));
        }
        v.extend(self.slide.to_cli());
        v
    }
}

/// The sliding-puzzle options of `llk game`; the window title, seed, log, position and
/// timeouts are the game's common ones.
#[derive(Args, Debug, Clone)]
pub struct SlideGameArgs {
    /// Open a sliding puzzle of ROWSxCOLS (e.g. 3x3, 4x4) instead of Lianliankan.
    #[arg(long, value_name = "ROWSxCOLS")]
    pub slide: Option<String>,
    /// Sliding puzzle: tiles are pieces of a picture instead of numbers.
    #[arg(long, requires = "slide")]
    pub picture: bool,
    /// Sliding puzzle: write the solved picture to this PNG (for `llk slide play
    /// --reference`) before opening the window.
    #[arg(long, requires = "picture")]
    pub save_reference: Option<PathBuf>,
    /// Sliding puzzle: where the blank sits when solved.
    #[arg(long, value_enum, default_value = "blank-last")]
    pub goal: Goal,
    /// Sliding puzzle: tile side in pixels.
    #[arg(long, default_value_t = 72)]
    pub tile_px: u32,
    /// Sliding puzzle: milliseconds a tile takes to slide on screen (0: at once).
    #[arg(long, default_value_t = 0)]
    pub slide_ms: u64,
}

impl Default for SlideGameArgs {
    /// No sliding puzzle: the Lianliankan game (what `llk demo` opens).
    fn default() -> Self {
        SlideGameArgs {
            slide: None,
            picture: false,
            save_reference: None,
            goal: Goal::BlankLast,
            tile_px: 72,
            slide_ms: 0,
        }
    }
}

impl SlideGameArgs {
    /// The arguments that recreate these options in a child process.
    #[cfg_attr(not(feature = "live"), allow(dead_code))] // used by the live commands only
    pub fn to_cli(&self) -> Vec<String> {
        let mut v = Vec::new();
        if let Some(s) = &self.slide {
            v.push(format!("--slide={s}"));
            v.push(format!("--tile-px={}", self.tile_px));
            v.push(format!("--slide-ms={}", self.slide_ms));
            v.push(format!("--goal={}", goal_arg(self.goal)));
            if self.picture {
                v.push("--picture".into());
            }
            if let Some(p) = &self.save_reference {
                v.push(format!("--save-reference={}", p.display()));
            }
        }
        v
    }
}

/// The `--goal` value naming `goal`.
#[cfg_attr(not(feature = "live"), allow(dead_code))] // used by the live commands only
fn goal_arg(goal: Goal) -> &'static str {
    match goal {
        Goal::BlankFirst => "blank-first",
        Goal::BlankLast => "blank-last",
    }
}
