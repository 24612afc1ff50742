//! `llk game` (the bundled practice window), `llk play` (the live bot), `llk windows`,
//! `llk replay` (re-check a recorded session offline) and `llk demo`.

use super::game_args::GameArgs;
use anyhow::{bail, Context, Result};
use clap::Args;
use llk::agent::pipeline::{Planner, Vision};
#[cfg(feature = "live")]
use llk::agent::SessionWriter;
use llk::agent::{replay_session, Brain, FirstPair, PlayOptions, Stop, Summary};
use llk::board::{Gravity, Rules};
use llk::plan::Strategy;
#[cfg(feature = "live")]
use llk::render::RenderSpec;
#[cfg(feature = "live")]
use llk::render::{Background, Theme};
#[cfg(feature = "live")]
use llk::vision::Hints;
use std::path::Path;
use std::path::PathBuf;
use std::time::Duration;

#[cfg(feature = "live")]
pub fn game(args: GameArgs) -> Result<()> {
    use llk::game::{run, GameConfig, WindowConfig};
    if args.slide.slide.is_some() {
        return super::slide_play::slide_game(&args);
    }
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
    /// Only windows whose title or application name contains this (case-insensitive).
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
        .filter(|w| {
            w.title.to_lowercase().contains(&needle) || w.app.to_lowercase().contains(&needle)
        })
        .collect();
    if !args.json && !list.is_empty() {
        println!(
            "{:>10}  {:>11} {:>11}  {:<16} title",
            "id", "position", "size", "app"
        );
    }
    for w in &list {
        if args.json {
            println!(
                "{}",
                serde_json::json!({"id": w.id, "pid": w.pid, "title": w.title, "app": w.app,
                    "x": w.x, "y": w.y, "width": w.width, "height": w.height,
                    "minimized": w.minimized})
            );
        } else {
            println!(
                "{:>10}  {:>5},{:<5} {:>5}x{:<5}  {:<16} {}{:?}",
                w.id,
                w.x,
                w.y,
                w.width,
                w.height,
                w.app,
                if w.minimized { "[minimized] " } else { "" },
                w.title,
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

#[derive(Args, Debug, Clone)]
#[command(group(clap::ArgGroup::new("which").required(true).args(["window", "window_id"])))]
pub struct PlayArgs {
    /// The game window: part of its title or of its application name (see `llk windows`).
    #[arg(long)]
    pub window: Option<String>,
    /// The game window by its id (the first column of `llk windows`).
    #[arg(long)]
    pub window_id: Option<u32>,
    /// The game's gravity: auto (found from the first removals), none, down, up, left,
    /// right, center-v, center-h.
    #[arg(long, default_value = "auto")]
    pub gravity: GravityChoice,
    /// The game does not let links run outside the board.
    #[arg(long)]
    pub no_outside: bool,
    /// Planner: greedy, paper or search.
    #[arg(long, default_value = "search")]
    pub strategy: Strategy,
    /// Search budget (boards expanded) per plan.
    #[arg(long, default_value_t = 200_000)]
    pub max_states: u64,
    /// Board rows, when known (helps the first read).
    #[arg(long)]
    pub rows: Option<usize>,
    /// Board reader: `auto`, `legacy` or `general` (the stage reader, which reads KShisen).
    /// Default: the one the window's saved profile names, else `auto` (the legacy reader's
    /// reading when it is sure, else the stage reader's; the first sure one stays).
    #[arg(long)]
    pub reader: Option<llk::vision::ReaderChoice>,
    /// Neither use nor save the window's profile (what an earlier session learnt about
    /// this application's window: its grid, reader and gravity; see `llk profiles`).
    #[arg(long)]
    pub no_profile: bool,
    /// Board columns, when known.
    #[arg(long)]
    pub cols: Option<usize>,
    /// Stop after this many moves.
    #[arg(long)]
    pub max_moves: Option<usize>,
    /// Stop after this many seconds.
    #[arg(long, default_value_t = 600.0)]
    pub timeout: f64,
    /// Save every frame and decision in this folder (replay with `llk replay DIR`).
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// Read and plan once, click nothing, write the annotated plan.
    #[arg(long)]
    pub dry_run: bool,
    /// Where --dry-run writes the annotated plan.
    #[arg(long, default_value = "llk-plan.png")]
    pub annotate: PathBuf,
    /// How long the mouse button is held, ms. Default: learnt from the game, starting at
    /// 50 ms (see --gap-ms).
    #[arg(long)]
    pub hold_ms: Option<u64>,
    /// Pause after each click, ms. Giving this or --hold-ms fixes both (50 ms for the one
    /// not given); with neither, the bot learns the shortest hold and gap the game accepts.
    #[arg(long)]
    pub gap_ms: Option<u64>,
    /// How long a move may take to show on screen before the bot re-reads, ms.
    #[arg(long, default_value_t = 3000)]
    pub verify_ms: u64,
    /// With no visible reaction after this long, clicks are taken as lost and retried, ms.
    #[arg(long, default_value_t = 400)]
    pub retry_ms: u64,
}

/// `--gravity`: found by watching the game, or given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GravityChoice {
    Auto,
    Given(Gravity),
}

impl std::str::FromStr for GravityChoice {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        if s == "auto" {
            return Ok(GravityChoice::Auto);
        }
        s.parse()
            .map(GravityChoice::Given)
            .map_err(|e: llk::error::UnknownName| format!("{e}, or auto"))
    }
}

impl PlayArgs {
    /// The window the user named.
    #[cfg(feature = "live")]
    fn query(&self) -> llk::capture::WindowQuery {
        use llk::capture::WindowQuery;
        match (self.window_id, &self.window) {
            (Some(id), _) => WindowQuery::Id(id),
            (None, Some(name)) => WindowQuery::Name(name.clone()),
            (None, None) => unreachable!("clap requires --window or --window-id"),
        }
    }

    #[cfg_attr(not(feature = "live"), allow(dead_code))]
    fn options(&self) -> Result<PlayOptions> {
        if !(self.timeout.is_finite() && self.timeout > 0.0) {
            bail!(
                "--timeout {}: must be a positive number of seconds",
                self.timeout
            );
        }
        let (gravity, find_gravity) = match self.gravity {
            GravityChoice::Auto => (Gravity::None, true),
            GravityChoice::Given(g) => (g, false),
        };
        Ok(PlayOptions {
            rules: Rules {
                outside: !self.no_outside,
                gravity,
            },
            find_gravity,
            max_moves: self.max_moves,
            timeout: Duration::from_secs_f64(self.timeout),
            verify_timeout: Duration::from_millis(self.verify_ms.max(1)),
            retry_after: Duration::from_millis(self.retry_ms.max(1)),
            dry_run: self.dry_run,
            ..PlayOptions::default()
        })
    }
}

/// Planned moves drawn on an annotated frame: a whole game's 48 paths cover the board, while
/// the next few show at a glance what the bot is about to do.
const ANNOTATED_MOVES: usize = 8;

/// Writes the first reading and the next planned moves over its frame.
fn write_annotated(summary: &Summary, path: &Path) -> Result<bool> {
    use llk::render::annotate::{annotate, Annotation};
    let Some((frame, seen, moves)) = &summary.first else {
        return Ok(false);
    };
    let img = annotate(
        &frame.image,
        &Annotation {
            grid: seen.grid,
            board: seen.board.clone(),
            unsure: seen.unsure.clone(),
            links: moves.iter().take(ANNOTATED_MOVES).cloned().collect(),
            numbered: true,
        },
    );
    img.save(path)
        .with_context(|| format!("writing the annotated plan {}", path.display()))?;
    Ok(true)
}

/// Finds the window and plays it; shared by `llk play` and `llk demo`.
#[cfg(feature = "live")]
fn run_play(args: &PlayArgs) -> Result<Summary> {
    use indicatif::{ProgressBar, ProgressStyle};
    use llk::agent::{Entry, Player};
    use llk::capture::WindowSource;
    use llk::input::{Clicker, DryRun, MouseClicker};
    let mut options = args.options()?;
    let mut source = WindowSource::open(&args.query())?;
    let app = source.info().app.clone();
    let store = profile_store(args, &app);
    let profile = store.as_ref().and_then(|s| match s.load(&app) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("llk: not using the saved profile: {e}");
            None
        }
    });
    let saved_reader = profile.as_ref().and_then(|p| p.reader.parse().ok());
    let reader = args.reader.or(saved_reader).unwrap_or_default();
    if let Some(p) = &profile {
        eprintln!("profile: {}", p.summary());
        options.known_grid = Some((p.grid, p.window));
        if options.find_gravity {
            options.rules.gravity = p.gravity.unwrap_or(options.rules.gravity);
        }
    }
    let mut planner = Planner {
        strategy: args.strategy,
        max_states: args.max_states,
    };
    let mut eyes = Vision {
        hints: Hints {
            rows: args.rows,
            cols: args.cols,
            ..Hints::default()
        },
        reader,
        fallback: args.reader.is_none() && saved_reader.is_some(),
        memory: None,
    };
    let mut recorder = match &args.record {
        Some(dir) => {
            let mut w = SessionWriter::create(dir)?;
            w.entry(&Entry::Start {
                rules: options.rules,
                brain: planner.name(),
                window: source.title().to_string(),
                version: env!("CARGO_PKG_VERSION").to_string(),
                reader: Some(reader.name().to_string()),
            })?;
            Some(w)
        }
        None => None,
    };
    let mut dry = DryRun::default();
    let mut mouse;
    let clicker: &mut dyn Clicker = if args.dry_run {
        &mut dry
    } else {
        let ms = |v: Option<u64>| Duration::from_millis(v.unwrap_or(50));
        mouse = MouseClicker::new(ms(args.hold_ms), ms(args.gap_ms))?;
        if args.hold_ms.is_none() && args.gap_ms.is_none() {
            mouse = mouse.learning(llk::input::ClickPacer::default());
        }
        &mut mouse
    };
    let progress = ProgressBar::new(0);
    progress.set_style(
        ProgressStyle::with_template("{spinner} {bar:30} {pos}/{len} pairs cleared {elapsed}")
            .expect("a valid progress template"),
    );
    let bar = progress.clone();
    let mut notes = move |m: &str| bar.suspend(|| eprintln!("{m}"));
    let mut player = Player {
        source: &mut source,
        clicker,
        eyes: &mut eyes,
        brain: &mut planner,
        recorder: recorder.as_mut(),
        progress,
        notes: &mut notes,
        options,
    };
    let outside = player.options.rules.outside;
    let summary = player.play();
    if let Some(store) = store.filter(|_| !args.dry_run) {
        let s = match &summary {
            Ok(s) => s,
            Err(e) => &e.summary,
        };
        save_profile(&store, &app, s, eyes.reader, outside);
    }
    if let Some(w) = recorder.as_mut() {
        w.finish()
            .with_context(|| format!("recording the session in {}", w.dir().display()))?;
    }
    Ok(summary?)
}

/// The user's profile store for `app`, unless `--no-profile` or the window names no
/// application (a warning says why a store cannot be used).
#[cfg(feature = "live")]
fn profile_store(args: &PlayArgs, app: &str) -> Option<llk::agent::profile::ProfileStore> {
    if args.no_profile {
        return None;
    }
    if app.trim().is_empty() {
        eprintln!("llk: the window names no application: its profile is neither used nor saved");
        return None;
    }
    match llk::agent::profile::ProfileStore::user() {
        Ok(s) => Some(s),
        Err(e) => {
            eprintln!("llk: no profiles: {e}");
            None
        }
    }
}

/// Saves what the session learnt about `app`'s window, once clicks on its grid removed
/// pairs (the grid is then known to be right); says where, or why not.
#[cfg(feature = "live")]
fn save_profile(
    store: &llk::agent::profile::ProfileStore,
    app: &str,
    s: &Summary,
    reader: llk::vision::ReaderChoice,
    outside: bool,
) {
    let (Some(grid), Some((frame, _, _))) = (s.grid, &s.first) else {
        return;
    };
    if s.moves == 0 {
        return;
    }
    // Clicks that removed nothing: the board may have been misread, and what this session
    // settled on (its reader above all) is no advice for the next.
    if let Stop::NoEffect(_) = s.stop {
        eprintln!("profile: not saved for {app}: planned pairs did not go (the board may have been misread)");
        return;
    }
    let p = llk::agent::profile::Profile {
        app: app.to_string(),
        grid,
        window: frame.image.dimensions(),
        reader: reader.name().to_string(),
        outside,
        gravity: s.gravity.found(),
    };
    match store.save(&p) {
        Ok(path) => eprintln!("profile: saved for {app} in {}", path.display()),
        Err(e) => eprintln!("llk: could not save the profile: {e}"),
    }
}

#[cfg(not(feature = "live"))]
fn run_play(_args: &PlayArgs) -> Result<Summary> {
    bail!("this llk was built without the `live` feature: cannot play a window")
}

/// How the session went and where its time went: one line, then the time per pair.
fn report(s: &Summary) -> String {
    let t = &s.timings;
    let pct = |v: u64| 100.0 * v as f64 / t.total.max(1) as f64;
    let mut out = format!(
        "{}: {} moves, {}/{} pairs cleared in {:.1} s ({:.2} pairs/s; {} retried clicks, {} re-plans); \
         gravity: {}; \
         time: capture {:.0}%, read {:.0}%, plan {:.0}%, click {:.0}%, record {:.0}%, waiting for the game {:.0}%",
        s.stop.word(),
        s.moves,
        s.pairs_cleared,
        s.total_pairs,
        t.total as f64 / 1e6,
        s.pairs_per_second(),
        s.retries,
        s.replans,
        s.gravity,
        pct(t.capture),
        pct(t.read),
        pct(t.plan),
        pct(t.click),
        pct(t.record),
        pct(t.wait)
    );
    if let (Some(own), Some(game)) = (s.own_micros_per_pair(), s.game_micros_per_pair()) {
        let n = s.moves.max(1) as f64 * 1000.0;
        out += &format!(
            "\nper pair: the bot {:.1} ms (capture {:.1}, read {:.1}, plan {:.2}, click {:.1}), the game {:.1} ms; bot/game {:.2}",
            own as f64 / 1000.0,
            t.capture as f64 / n,
            t.read as f64 / n,
            t.plan as f64 / n,
            t.click as f64 / n,
            game as f64 / 1000.0,
            own as f64 / game.max(1) as f64
        );
    }
    if let Some(p) = s.pace {
        out += &format!(
            "\nclicks: hold {} ms, gap {} ms ({}; {} lost)",
            p.hold.as_millis(),
            p.gap.as_millis(),
            if p.learnt { "learnt" } else { "given" },
            p.lost
        );
    }
    out
}

pub fn play(args: PlayArgs) -> Result<()> {
    let summary = run_play(&args)?;
    if summary.first.is_none() {
        bail!("{}", unread(&summary.stop));
    }
    if args.dry_run {
        write_annotated(&summary, &args.annotate)?;
        let n = summary.first.as_ref().map_or(0, |f| f.2.len());
        println!(
            "dry run: read the board and planned {n} moves; wrote {}",
            args.annotate.display()
        );
        return Ok(());
    }
    println!("{}", report(&summary));
    if let Some(dir) = &args.record {
        println!(
            "recorded the session in {} (check it with `llk replay {}`)",
            dir.display(),
            dir.display()
        );
    }
    outcome(&summary.stop, args.timeout)
}

/// Why `llk play` stopped before any board was read: the reader's reason ("no board: …",
/// said once) or how it stopped.
fn unread(stop: &Stop) -> String {
    let why = match stop {
        Stop::Unreadable(why) => why.clone(),
        other => other.word(),
    };
    format!("could not read a Lianliankan board in the window ({why}); clicked nothing")
}

/// The exit status of `llk play` for how it stopped: 0 cleared (or `--max-moves` reached),
/// [`super::exit::TILES_LEFT`] for a deal with tiles left and no move, 1 for every other
/// stop, each with a message saying why.
fn outcome(stop: &Stop, timeout: f64) -> Result<()> {
    match stop {
        Stop::Cleared | Stop::MaxMoves | Stop::DryRun => Ok(()),
        Stop::Timeout => bail!("timed out after {timeout} s with tiles left"),
        Stop::Unreadable(why) => {
            bail!("stopped: the board could no longer be read with confidence ({why})")
        }
        Stop::NoEffect(why) => bail!("stopped: {why}"),
        Stop::NoMoves { tiles_left, why } => Err(super::exit::Exit {
            code: super::exit::TILES_LEFT,
            message: format!("stopped with {tiles_left} tiles left: {why}"),
        }
        .into()),
    }
}

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// A folder written by `llk play --record`.
    pub dir: PathBuf,
    /// Print only mismatches and the summary.
    #[arg(long)]
    pub quiet: bool,
}

/// The planner a session was recorded with, from the start entry its log begins with; an
/// empty log or one without that header is not a session to replay.
/// The planner and reader a recorded session was played with (its start entry).
fn session_brain(
    dir: &Path,
    entries: &[llk::agent::Entry],
) -> Result<(String, llk::vision::ReaderChoice)> {
    let log = dir.join(llk::agent::record::LOG_NAME);
    match entries.first() {
        Some(llk::agent::Entry::Start { brain, reader, .. }) => {
            let reader = match reader {
                Some(r) => r
                    .parse()
                    .map_err(|e| anyhow::anyhow!("{}: {e}", log.display()))?,
                None => llk::vision::ReaderChoice::Legacy,
            };
            Ok((brain.clone(), reader))
        }
        None => bail!(
            "{}: the session log is empty: no start entry (the header `llk play --record` \
             writes first), so there is nothing to replay",
            log.display()
        ),
        Some(_) => bail!(
            "{}: the session log has no header: it does not begin with a start entry",
            log.display()
        ),
    }
}

pub fn replay(args: ReplayArgs) -> Result<()> {
    let entries = llk::agent::read_session(&args.dir)?;
    let (brain_name, reader) = session_brain(&args.dir, &entries)?;
    let mut first = FirstPair;
    let mut planner;
    let brain: &mut dyn Brain = if brain_name == first.name() {
        &mut first
    } else {
        planner = Planner::from_name(&brain_name)
            .map_err(|e| anyhow::anyhow!("{}: {e}", args.dir.display()))?;
        &mut planner
    };
    let mut eyes = Vision {
        reader,
        ..Vision::default()
    };
    let checks = replay_session(&args.dir, &mut eyes, brain)?;
    let bad = checks.iter().filter(|c| !c.ok).count();
    for c in &checks {
        if !c.ok || !args.quiet {
            println!(
                "{} {}: {}",
                if c.ok { "ok  " } else { "FAIL" },
                c.step,
                c.detail
            );
        }
    }
    println!(
        "{}: {} of {} recorded decisions reproduced",
        args.dir.display(),
        checks.len() - bad,
        checks.len()
    );
    if bad > 0 {
        bail!("{bad} recorded decisions differ on replay");
    }
    Ok(())
}

#[derive(Args, Debug)]
pub struct DemoArgs {
    /// Where to write the recorded session, the game's log and the annotated first frame.
    #[arg(long, default_value = "out/demo")]
    pub out: PathBuf,
    #[arg(long, default_value_t = 8)]
    pub rows: usize,
    #[arg(long, default_value_t = 12)]
    pub cols: usize,
    #[arg(long, default_value = "none")]
    pub gravity: Gravity,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Give up after this many seconds.
    #[arg(long, default_value_t = 180.0)]
    pub timeout: f64,
}

/// Kills the child process on every path out of the demo.
#[cfg(feature = "live")]
struct ChildGuard(std::process::Child);

#[cfg(feature = "live")]
impl Drop for ChildGuard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[cfg(feature = "live")]
pub fn demo(args: DemoArgs) -> Result<()> {
    use std::time::Instant;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("creating {}", args.out.display()))?;
    let session = args.out.join("session");
    if session.join(llk::agent::record::LOG_NAME).exists() {
        // Our own output from an earlier demo: replace it.
        std::fs::remove_dir_all(&session)
            .with_context(|| format!("clearing the old session {}", session.display()))?;
    }
    let game_log = args.out.join("game.jsonl");
    let title = format!("LLK demo {}", std::process::id());
    let game = GameArgs {
        rows: args.rows,
        cols: args.cols,
        types: 16,
        gravity: args.gravity,
        no_outside: false,
        tile: (31, 35),
        theme: Theme::Classic,
        background: Background::Plain,
        seed: args.seed,
        animation_ms: 150,
        shuffle_every: None,
        move_every: None,
        move_by: (0, 0),
        position: Some((60, 60)),
        title: title.clone(),
        log: Some(game_log.clone()),
        close_after_clear_ms: Some(1500),
        slide: Default::default(),
        timeout: Some(args.timeout + 30.0),
    };
    let exe = std::env::current_exe().context("finding this llk executable")?;
    let child = std::process::Command::new(&exe)
        .args(game.to_cli())
        .stdout(std::process::Stdio::null())
        .spawn()
        .with_context(|| format!("starting the game ({} game ...)", exe.display()))?;
    let mut child = ChildGuard(child);
    println!(
        "demo: opened the practice game {:?} ({}x{}, gravity {})",
        title, args.rows, args.cols, args.gravity
    );
    let t0 = Instant::now();
    loop {
        if let Some(status) = child.0.try_wait()? {
            bail!("the game window exited before play began ({status})");
        }
        if llk::capture::WindowSource::find(&title).is_ok() {
            break;
        }
        if t0.elapsed() > Duration::from_secs(15) {
            bail!("the game window {title:?} did not appear within 15 s (is a window manager running?)");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    // Let the window manager finish placing and the game draw its first frame.
    std::thread::sleep(Duration::from_millis(500));
    let play = PlayArgs {
        window: Some(title),
        window_id: None,
        gravity: GravityChoice::Given(args.gravity),
        no_outside: false,
        strategy: Strategy::Search,
        max_states: 200_000,
        rows: Some(args.rows),
        cols: Some(args.cols),
        reader: None,
        no_profile: true,
        max_moves: None,
        timeout: args.timeout,
        record: Some(session.clone()),
        dry_run: false,
        annotate: args.out.join("first-frame.png"),
        hold_ms: None,
        gap_ms: None,
        verify_ms: 3000,
        retry_ms: 400,
    };
    let summary = run_play(&play)?;
    println!("{}", report(&summary));
    let annotated = play.annotate.clone();
    let wrote = write_annotated(&summary, &annotated)?;
    // The game closes itself 1.5 s after the "cleared" screen; wait for its final log line.
    let t1 = Instant::now();
    while child.0.try_wait()?.is_none() && t1.elapsed() < Duration::from_secs(5) {
        std::thread::sleep(Duration::from_millis(100));
    }
    drop(child);
    if let Ok(log) = llk::game::read_log(&game_log) {
        if let Ok((cleared, stats, _)) = llk::game::verdict(&log) {
            println!(
                "game log: {} — {} pairs removed, {} clicks, {} illegal, {} outside the board",
                if cleared { "cleared" } else { "not cleared" },
                stats.removed,
                stats.clicks,
                stats.illegal,
                stats.outside
            );
        }
    }
    println!(
        "demo: wrote {} (replay it with `llk replay {}`)",
        session.display(),
        session.display()
    );
    if wrote {
        println!(
            "demo: wrote {} (the first frame, read and planned)",
            annotated.display()
        );
    }
    println!(
        "demo: wrote {} (the game's own event log)",
        game_log.display()
    );
    match summary.stop {
        Stop::Cleared => Ok(()),
        other => bail!("the bot did not clear the game: {}", other.word()),
    }
}

#[cfg(not(feature = "live"))]
pub fn demo(_args: DemoArgs) -> Result<()> {
    bail!("this llk was built without the `live` feature: no demo")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deal_with_tiles_left_exits_3_and_other_stops_1() {
        let stop = Stop::NoMoves {
            tiles_left: 4,
            why: "no two tiles can be linked".into(),
        };
        let err = outcome(&stop, 10.0).unwrap_err();
        let exit = err.downcast_ref::<crate::cli::exit::Exit>().unwrap();
        assert_eq!(exit.code, crate::cli::exit::TILES_LEFT);
        assert_eq!(exit.code, 3);
        assert!(exit.message.contains("4 tiles left"), "{}", exit.message);
        for stop in [
            Stop::Timeout,
            Stop::Unreadable("no board".into()),
            Stop::NoEffect("twice".into()),
        ] {
            let err = outcome(&stop, 10.0).unwrap_err();
            assert!(err.downcast_ref::<crate::cli::exit::Exit>().is_none());
        }
        assert!(outcome(&Stop::Cleared, 10.0).is_ok());
        assert!(outcome(&Stop::MaxMoves, 10.0).is_ok());
    }

    /// Issue 21 item 13: a window with no board said "no board: no board found: …" (the
    /// reader's kind, then its reason starting with the same words). It says it once.
    #[test]
    fn a_window_with_no_board_says_no_board_once() {
        use llk::agent::Eyes;
        let blank = image::RgbaImage::from_pixel(400, 300, image::Rgba([128, 128, 128, 255]));
        let blind = Vision::default().read(&blank, None).unwrap_err();
        let text = unread(&Stop::Unreadable(blind.to_string()));
        assert_eq!(text.matches("no board").count(), 1, "{text}");
        assert!(
            text.starts_with("could not read a Lianliankan board in the window (no board: "),
            "{text}"
        );
    }

    #[test]
    fn gravity_is_auto_or_a_mode() {
        assert_eq!("auto".parse::<GravityChoice>(), Ok(GravityChoice::Auto));
        assert_eq!(
            "center-h".parse::<GravityChoice>(),
            Ok(GravityChoice::Given(Gravity::CenterH))
        );
        let err = "sideways".parse::<GravityChoice>().unwrap_err();
        assert!(err.ends_with("or auto"), "{err}");
    }
}
