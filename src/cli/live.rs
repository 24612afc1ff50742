//! `llk game` (the bundled practice window), `llk play` (the live bot), `llk windows`,
//! `llk replay` (re-check a recorded session offline) and `llk demo`.

use anyhow::{bail, Context, Result};
use clap::Args;
use llk::board::{Gravity, Rules};
use llk::render::{Background, RenderSpec, Theme};
use std::path::PathBuf;
use std::time::Duration;

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
}

impl GameArgs {
    /// The arguments that recreate this game in a child process (`llk demo`, the tests).
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
        v
    }
}

#[cfg(feature = "live")]
pub fn game(args: GameArgs) -> Result<()> {
    use llk::game::{run, GameConfig, WindowConfig};
    let config = GameConfig {
        rows: args.rows,
        cols: args.cols,
        types: args.types,
        rules: Rules {
            outside: !args.no_outside,
            gravity: args.gravity,
        },
        seed: args.seed,
        animation_ms: args.animation_ms,
        shuffle_every: args.shuffle_every,
    };
    if let Some(t) = args.timeout {
        if !(t.is_finite() && t > 0.0) {
            bail!("--timeout {t}: must be a positive number of seconds");
        }
    }
    let win = WindowConfig {
        title: args.title.clone(),
        spec: RenderSpec {
            theme: args.theme,
            cell: args.tile,
            background: args.background,
            seed: args.seed,
            ..RenderSpec::default()
        },
        log: args.log.clone(),
        move_every: args.move_every,
        move_by: args.move_by,
        position: args.position,
        close_after_clear: args.close_after_clear_ms.map(Duration::from_millis),
        timeout: args.timeout.map(Duration::from_secs_f64),
    };
    let out = run(&config, &win)?;
    println!(
        "{}: {} pairs removed, {} clicks ({} illegal, {} outside the board), {} shuffles",
        if out.cleared {
            "cleared"
        } else {
            out.reason.as_str()
        },
        out.stats.removed,
        out.stats.clicks,
        out.stats.illegal,
        out.stats.outside,
        out.stats.shuffles
    );
    Ok(())
}

#[cfg(not(feature = "live"))]
pub fn game(_args: GameArgs) -> Result<()> {
    bail!("this llk was built without the `live` feature: no game window")
}

#[derive(Args, Debug)]
pub struct WindowsArgs {
    /// Only windows whose title contains this (case-insensitive).
    pub filter: Option<String>,
    /// Print JSON lines instead of a table.
    #[arg(long)]
    pub json: bool,
}

#[cfg(feature = "live")]
pub fn windows(args: WindowsArgs) -> Result<()> {
    let needle = args.filter.as_deref().unwrap_or("").to_lowercase();
    let list: Vec<_> = llk::capture::list_windows()?
        .into_iter()
        .filter(|w| w.title.to_lowercase().contains(&needle))
        .collect();
    for w in &list {
        if args.json {
            println!(
                "{}",
                serde_json::json!({"id": w.id, "title": w.title, "app": w.app, "x": w.x,
                    "y": w.y, "width": w.width, "height": w.height, "minimized": w.minimized})
            );
        } else {
            println!(
                "{:>10}  {:>5},{:<5} {:>5}x{:<5} {}{:?} ({})",
                w.id,
                w.x,
                w.y,
                w.width,
                w.height,
                if w.minimized { "[minimized] " } else { "" },
                w.title,
                w.app
            );
        }
    }
    if list.is_empty() && !args.json {
        println!(
            "no windows{}",
            if needle.is_empty() { "" } else { " match" }
        );
    }
    Ok(())
}

#[cfg(not(feature = "live"))]
pub fn windows(_args: WindowsArgs) -> Result<()> {
    bail!("this llk was built without the `live` feature: cannot list windows")
}

#[derive(Args, Debug)]
pub struct PlayArgs {}

pub fn play(_args: PlayArgs) -> Result<()> {
    bail!("not written yet")
}

#[derive(Args, Debug)]
pub struct ReplayArgs {}

pub fn replay(_args: ReplayArgs) -> Result<()> {
    bail!("not written yet")
}

#[derive(Args, Debug)]
pub struct DemoArgs {}

pub fn demo(_args: DemoArgs) -> Result<()> {
    let _ = PathBuf::new();
    let _ = Context::context(Ok::<(), anyhow::Error>(()), "");
    bail!("not written yet")
}
