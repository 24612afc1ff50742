//! `llk game --slide 3x3 [--picture]` (the bundled sliding-puzzle window) and `llk slide
//! play --window TITLE` (the live player).

use super::game_args::GameArgs;
use super::out::outln;
use anyhow::{bail, Context, Result};
use clap::Args;
use llk::slide::player::{PlayConfig, PlayReport};
use llk::slide::screen::Tiles;
use llk::slide::{parse_size, Goal};
use std::path::PathBuf;
use std::time::Duration;

/// `llk game --slide …`: writes the reference picture when asked, then runs the window.
#[cfg(feature = "live")]
pub fn slide_game(args: &GameArgs) -> Result<()> {
    use llk::game::slide::{picture, SlideConfig};
    use llk::game::slide_window::{run_slide, SlideWindowConfig};
    let s = &args.slide;
    let size = s
        .slide
        .as_deref()
        .context("--slide is required for a sliding game")?;
    let (rows, cols) = parse_size(size).with_context(|| format!("--slide {size}"))?;
    let config = SlideConfig {
        rows,
        cols,
        goal: s.goal,
        seed: args.seed,
        picture: s.picture,
        tile: s.tile_px,
    };
    config.validate()?;
    if let Some(t) = args.timeout {
        if !(t.is_finite() && t > 0.0) {
            bail!("--timeout {t}: must be a positive number of seconds");
        }
    }
    if let Some(path) = &s.save_reference {
        picture(&config.layout(), config.seed)
            .save(path)
            .with_context(|| format!("writing the reference picture {}", path.display()))?;
        outln!("reference picture written to {}", path.display())?;
    }
    let title = if args.title == "LLK practice" {
        "LLK slide".to_string()
    } else {
        args.title.clone()
    };
    let win = SlideWindowConfig {
        title,
        log: args.log.clone(),
        position: args.position,
        close_after_solved: args.close_after_clear_ms.map(Duration::from_millis),
        timeout: args.timeout.map(Duration::from_secs_f64),
        animation: Duration::from_millis(s.slide_ms),
    };
    let out = run_slide(&config, &win)?;
    outln!(
        "{}: {} moves, {} clicks ({} illegal, {} outside the board) in {:.1} s",
        if out.solved {
            "solved"
        } else {
            out.reason.as_str()
        },
        out.stats.moves,
        out.stats.clicks,
        out.stats.illegal,
        out.stats.outside,
        out.millis as f64 / 1000.0
    )?;
    Ok(())
}

#[cfg(not(feature = "live"))]
#[allow(dead_code)] // src/cli/live.rs does not call it in builds without `live`
pub fn slide_game(_args: &GameArgs) -> Result<()> {
    bail!("this llk was built without the `live` feature: no game window")
}

/// `llk slide play`: read a sliding puzzle window, solve it and click the moves.
#[derive(Args, Debug, Clone)]
#[command(group(clap::ArgGroup::new("which").required(true).args(["window", "window_id"])))]
pub struct SlidePlayArgs {
    /// The game window: part of its title or of its application name (see `llk windows`).
    #[arg(long)]
    pub window: Option<String>,
    /// The game window by its id (the first column of `llk windows`), when several match
    /// --window.
    #[arg(long)]
    pub window_id: Option<u32>,
    /// Board size ROWSxCOLS; default: found from the window.
    #[arg(long)]
    pub size: Option<String>,
    /// Where the blank sits when solved.
    #[arg(long, value_enum, default_value = "blank-last")]
    pub goal: Goal,
    /// Picture tiles: the solved picture (as `llk game --slide … --picture
    /// --save-reference` writes it). Without it tiles are read as numbers.
    #[arg(long)]
    pub reference: Option<PathBuf>,
    /// Print the plan and the clicks it would make, without clicking.
    #[arg(long)]
    pub dry_run: bool,
    /// One click per tile moved. By default consecutive moves in one direction are one
    /// click on the run's far tile, which Fifteen and the bundled game slide together (a
    /// window that does not is detected on the first such click, tried twice).
    #[arg(long)]
    pub single_moves: bool,
    /// Milliseconds the button is held per click (games polling once per frame miss
    /// shorter clicks).
    #[arg(long, default_value_t = 50)]
    pub hold_ms: u64,
    /// Milliseconds between a release and the next press.
    #[arg(long, default_value_t = 50)]
    pub gap_ms: u64,
    /// Milliseconds to wait for a move to show before the click counts as lost.
    #[arg(long, default_value_t = 800)]
    pub settle_ms: u64,
    /// Extra clicks on a tile whose click showed no change.
    #[arg(long, default_value_t = 3)]
    pub retries: u32,
    /// Give up after this many seconds.
    #[arg(long, default_value_t = 120.0)]
    pub timeout: f64,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
}

impl SlidePlayArgs {
    /// The window the user named: `--window-id` when given, else `--window`.
    #[cfg(feature = "live")]
    fn query(&self) -> llk::capture::WindowQuery {
        use llk::capture::WindowQuery;
        match (self.window_id, &self.window) {
            (Some(id), _) => WindowQuery::Id(id),
            (None, Some(name)) => WindowQuery::Name(name.clone()),
            (None, None) => unreachable!("clap requires --window or --window-id"),
        }
    }
}

/// Checks the player's options and loads the tile matcher.
#[cfg_attr(not(feature = "live"), allow(dead_code))] // used by the live commands only
fn prepare(args: &SlidePlayArgs) -> Result<(PlayConfig, Tiles)> {
    let size = match &args.size {
        Some(s) => Some(parse_size(s).with_context(|| format!("--size {s}"))?),
        None => None,
    };
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        bail!(
            "--timeout {}: must be a positive number of seconds",
            args.timeout
        );
    }
    let tiles = match &args.reference {
        Some(p) => Tiles::Picture(
            llk::vision::load_image(p).with_context(|| format!("--reference {}", p.display()))?,
        ),
        None => Tiles::numbers(size.map_or(64, |(r, c)| r * c)),
    };
    let cfg = PlayConfig {
        size,
        goal: args.goal,
        retries: args.retries,
        settle: Duration::from_millis(args.settle_ms),
        timeout: Duration::from_secs_f64(args.timeout),
        dry_run: args.dry_run,
        single_moves: args.single_moves,
        ..PlayConfig::default()
    };
    Ok((cfg, tiles))
}

/// Prints the report: moves made, clicks, retries, time and moves per second.
#[cfg_attr(not(feature = "live"), allow(dead_code))] // used by the live commands only
fn print_report(r: &PlayReport, json: bool) -> Result<()> {
    if json {
        outln!("{}", serde_json::to_string(r)?)?;
        return Ok(());
    }
    let secs = r.millis as f64 / 1000.0;
    let plan = r.plan_micros as f64 / 1e6;
    let playing = secs - plan;
    outln!(
        "{}: {} moves made in {:.2} s (planning {:.2} s by {}; {:.1} moves/s while playing), {} clicks ({} sliding a run), {} retried, {} re-solves, {} frames read ({:.1} ms each)",
        if r.solved { "solved" } else { "not solved" },
        r.moves_made,
        secs,
        plan,
        if r.planner.is_empty() { "none" } else { &r.planner },
        if playing > 0.0 { r.moves_made as f64 / playing } else { 0.0 },
        r.clicks,
        r.run_clicks,
        r.retries,
        r.resolves,
        r.reads,
        r.read_micros as f64 / 1000.0 / r.reads.max(1) as f64
    )?;
    Ok(())
}

#[cfg(feature = "live")]
pub fn slide_play(args: SlidePlayArgs) -> Result<()> {
    use llk::capture::WindowSource;
    use llk::input::{DryRun, MouseClicker};
    let (cfg, tiles) = prepare(&args)?;
    let mut source = WindowSource::open(&args.query())?;
    eprintln!("playing window {:?}", source.title());
    let mut say = |line: &str| eprintln!("{line}");
    let report = if args.dry_run {
        llk::slide::player::play(&mut source, &mut DryRun::default(), &tiles, &cfg, &mut say)?
    } else {
        let mut mouse = MouseClicker::new(
            Duration::from_millis(args.hold_ms),
            Duration::from_millis(args.gap_ms),
        )?;
        llk::slide::player::play(&mut source, &mut mouse, &tiles, &cfg, &mut say)?
    };
    print_report(&report, args.json)
}

#[cfg(not(feature = "live"))]
pub fn slide_play(_args: SlidePlayArgs) -> Result<()> {
    bail!("this llk was built without the `live` feature: cannot play a window")
}
