//! `llk plan`, `llk pairs`, `llk generate` and `llk bench plan`: the planner from the
//! command line, on boards given as text files.

use super::exit;
use super::out::outln;
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use llk::board::{removable_pairs, Board, Gravity, Link, Rules};
use llk::plan::{generate as gen_board, plan as run_plan, GenSpec, Outcome, PlanOptions, Strategy};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// The game settings shared by `plan` and `pairs`.
#[derive(Args, Debug, Clone, Copy)]
pub struct RuleArgs {
    /// How tiles slide after each removal: none, down, up, left, right, center-v
    /// (columns close toward the middle row), center-h (rows close toward the middle column).
    #[arg(long, default_value = "none")]
    pub gravity: Gravity,
    /// Links may not run through the ring of cells just outside the board.
    #[arg(long)]
    pub no_outside: bool,
}

impl RuleArgs {
    fn rules(self) -> Rules {
        Rules {
            outside: !self.no_outside,
            gravity: self.gravity,
        }
    }
}

#[derive(Args, Debug)]
pub struct PlanArgs {
    /// Board text file: one line per row, '.' empty, '#' obstacle, any other printable
    /// ASCII char a tile type (equal chars = same picture); `-` reads it from stdin.
    pub board: PathBuf,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// greedy (first removable pair in reading order), paper (least F(A,B), no
    /// backtracking) or search (heuristic depth-first search with backtracking: within its
    /// budget it clears
    /// every solvable board, proves the others unsolvable).
    #[arg(long, default_value = "search")]
    pub strategy: Strategy,
    /// Budget: boards expanded (greedy and paper: moves made) before giving up.
    #[arg(long, default_value_t = PlanOptions::default().max_states)]
    pub max_states: u64,
    /// Budget: milliseconds before giving up, for every strategy.
    #[arg(long, default_value_t = 2000)]
    pub max_ms: u64,
    /// Print one JSON object {"solved", "outcome", "moves": [{"a", "b", "path"}], "states",
    /// "micros"} with 0-based [row, col] pairs; ring cells are -1 or rows/cols.
    #[arg(long)]
    pub json: bool,
}

/// Reads and checks a board file (stdin for `-`); every failure names the file.
fn read_board(path: &Path, need_even: bool) -> Result<Board> {
    let name = super::input::name(path);
    let text = super::input::read_board_text(path)?;
    let board = Board::parse(&text).map_err(|e| anyhow!("{name}: {e}"))?;
    if need_even {
        board.check_even().map_err(|e| anyhow!("{name}: {e}"))?;
    }
    Ok(board)
}

fn cell_json(row: i64, col: i64) -> serde_json::Value {
    json!([row, col])
}

fn link_json(l: &Link) -> serde_json::Value {
    json!({
        "a": cell_json(l.a.row as i64, l.a.col as i64),
        "b": cell_json(l.b.row as i64, l.b.col as i64),
        "path": l.path.iter().map(|p| cell_json(p.row as i64, p.col as i64)).collect::<Vec<_>>(),
    })
}

/// One move as text: the type, both cells and the corners in between.
fn link_text(board: &Board, l: &Link) -> String {
    let via: Vec<String> = l.path[1..l.path.len() - 1]
        .iter()
        .map(|p| format!("({},{})", p.row, p.col))
        .collect();
    let via = if via.is_empty() {
        "straight".to_string()
    } else {
        format!("via {}", via.join(" "))
    };
    format!("{} {}-{} {via}", board.get(l.a).to_char(), l.a, l.b)
}

/// The exit status of `llk plan` for an outcome other than cleared (see `super::exit`):
/// the summary line or the JSON `"outcome"` on stdout says the same in words.
fn outcome_status(outcome: Outcome) -> Result<()> {
    let code = match outcome {
        Outcome::Cleared => return Ok(()),
        Outcome::Stuck => exit::TILES_LEFT,
        Outcome::Unsolvable => exit::UNSOLVABLE,
        Outcome::GaveUp => exit::GAVE_UP,
    };
    Err(exit::Exit::reported(code).into())
}

/// `llk plan`: prints the moves as text (one per line, then a summary) or one JSON object.
/// A board that is not cleared prints its moves and outcome all the same and ends with the
/// outcome's status: 3 stuck, 4 unsolvable, 5 gave up.
pub fn plan(args: PlanArgs) -> Result<()> {
    let board = read_board(&args.board, true)?;
    let rules = args.rules.rules();
    let opts = PlanOptions {
        strategy: args.strategy,
        max_states: args.max_states,
        max_time: Some(Duration::from_millis(args.max_ms)),
    };
    let p = run_plan(&board, &rules, &opts);
    if args.json {
        let out = json!({
            "solved": p.solved(),
            "outcome": p.outcome.name(),
            "moves": p.moves.iter().map(link_json).collect::<Vec<_>>(),
            "states": p.states,
            "micros": p.micros,
        });
        outln!("{out}")?;
        return outcome_status(p.outcome);
    }
    let mut b = board.clone();
    for (i, m) in p.moves.iter().enumerate() {
        outln!("{:3}. {}", i + 1, link_text(&b, m))?;
        b.remove_pair(m.a, m.b, rules.gravity);
    }
    let what = match p.outcome {
        Outcome::Cleared => format!("cleared in {} moves", p.moves.len()),
        Outcome::Stuck => format!(
            "stuck after {} moves with {} tiles left (no removable pair)",
            p.moves.len(),
            b.tile_count()
        ),
        Outcome::Unsolvable => "unsolvable: no order of removals clears this board".into(),
        Outcome::GaveUp => format!(
            "gave up after {} states and {} moves: the budget ran out (see --max-states, \
             --max-ms)",
            p.states,
            p.moves.len()
        ),
    };
    outln!(
        "{what} ({} strategy, {} states, {} µs)",
        args.strategy,
        p.states,
        p.micros
    )?;
    outcome_status(p.outcome)
}

#[derive(Args, Debug)]
pub struct PairsArgs {
    /// Board text file (same format as for `llk plan`); `-` reads it from stdin.
    pub board: PathBuf,
    #[command(flatten)]
    pub rules: RuleArgs,
    /// Print a JSON array of {"a", "b", "path"} objects instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `llk pairs`: the pairs removable on the board as it is, with their paths.
pub fn pairs(args: PairsArgs) -> Result<()> {
    let board = read_board(&args.board, true)?;
    let pairs = removable_pairs(&board, &args.rules.rules());
    if args.json {
        outln!(
            "{}",
            serde_json::Value::Array(pairs.iter().map(link_json).collect())
        )?;
        return Ok(());
    }
    for l in &pairs {
        outln!("{}", link_text(&board, l))?;
    }
    outln!("{} removable pairs", pairs.len())?;
    Ok(())
}

#[derive(Args, Debug)]
pub struct GenerateArgs {
    /// Board height in cells.
    #[arg(long, default_value_t = 8)]
    pub rows: usize,
    /// Board width in cells.
    #[arg(long, default_value_t = 12)]
    pub cols: usize,
    /// Number of tile types; default: as many as fit with the obstacles.
    #[arg(long)]
    pub types: Option<usize>,
    /// Tiles of each type (even).
    #[arg(long, default_value_t = 4)]
    pub copies: usize,
    /// Obstacles scattered over the board.
    #[arg(long, default_value_t = 0)]
    pub obstacles: usize,
    /// Seed: the same numbers always give the same board.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Write the board to this file instead of printing it.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
}

/// `llk generate`: a random board in the text form, to stdout or a file.
pub fn generate(args: GenerateArgs) -> Result<()> {
    let cells = args.rows.saturating_mul(args.cols);
    let types = args.types.unwrap_or_else(|| {
        cells
            .saturating_sub(args.obstacles)
            .checked_div(args.copies)
            .unwrap_or(0)
    });
    let spec = GenSpec {
        rows: args.rows,
        cols: args.cols,
        types,
        copies: args.copies,
        obstacles: args.obstacles,
        seed: args.seed,
    };
    let board = gen_board(&spec).map_err(|e| anyhow!("{e}"))?;
    match &args.output {
        Some(path) => std::fs::write(path, board.to_text() + "\n")
            .map_err(|e| anyhow!("{}: cannot write: {e}", path.display()))?,
        None => outln!("{board}")?,
    }
    Ok(())
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Random boards per size and gravity mode.
    #[arg(long, default_value_t = 1000)]
    pub boards: usize,
    /// Board sizes ROWSxCOLS (repeat or comma-separate); default the QQ sizes.
    #[arg(long, value_delimiter = ',', default_value = "8x12,10x14,11x19", value_parser = parse_size)]
    pub size: Vec<(usize, usize)>,
    /// Gravity modes to run (repeat or comma-separate); default all seven.
    #[arg(long, value_delimiter = ',', default_values = ["none", "down", "up", "left", "right", "center-v", "center-h"])]
    pub gravity: Vec<Gravity>,
    /// Strategies to compare (repeat or comma-separate).
    #[arg(long, value_delimiter = ',', default_values = ["greedy", "paper", "search"])]
    pub strategy: Vec<Strategy>,
    /// Tiles per type.
    #[arg(long, default_value_t = 4)]
    pub copies: usize,
    /// Percentage of the cells holding tiles: boards get as many types as fit in that
    /// share (100 = full, the QQ layout; the rest of the cells start empty).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u8).range(1..=100))]
    pub fill: u8,
    /// Seed of the first board (board i uses seed + i).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Links may not run through the ring outside the board.
    #[arg(long)]
    pub no_outside: bool,
    /// Search budget per board, in boards expanded (deterministic, unlike a time limit on a
    /// shared machine). Lower than `llk plan`'s default so the full table finishes in
    /// minutes; boards that run out count as "gave up".
    #[arg(long, default_value_t = 20_000)]
    pub max_states: u64,
    /// Search budget per board, in milliseconds.
    #[arg(long, default_value_t = 2000)]
    pub max_ms: u64,
    /// Worker threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Instead of the table, time the move generator alone: listing every removable pair
    /// and making a move, with `board::link` + `Board::remove_pair` (the reference) and with
    /// the planner's padded grid, along greedy games on the same boards (one thread).
    #[arg(long)]
    pub link_speed: bool,
}

/// `--link-speed`: µs per board state for the reference rules and the padded grid.
fn link_speed(args: &BenchArgs, spec: &dyn Fn(usize, usize, u64) -> GenSpec) -> Result<()> {
    use llk::plan::padded::Ctx;
    use std::time::Instant;
    outln!("| size | gravity | reference µs/state | padded µs/state | speed-up | states |")?;
    outln!("|---|---|---|---|---|---|")?;
    for &(rows, cols) in &args.size {
        for &gravity in &args.gravity {
            let rules = Rules {
                outside: !args.no_outside,
                gravity,
            };
            let boards: Vec<Board> = (0..args.boards)
                .map(|i| gen_board(&spec(rows, cols, args.seed + i as u64)).expect("checked"))
                .collect();
            // Reference: every pair through find_link, then remove_pair with Gravity::apply.
            let t = Instant::now();
            let mut states = 0u64;
            for b in &boards {
                let mut b = b.clone();
                loop {
                    states += 1;
                    let pairs = removable_pairs(&b, &rules);
                    let Some(l) = pairs.first() else { break };
                    b.remove_pair(l.a, l.b, gravity);
                }
            }
            let reference = t.elapsed().as_secs_f64() * 1e6 / states as f64;
            let t = Instant::now();
            let mut fast_states = 0u64;
            let (mut groups, mut pairs) = (Vec::new(), Vec::new());
            for b in &boards {
                let (ctx, mut st) = Ctx::new(b, &rules).map_err(|e| anyhow!("{e}"))?;
                loop {
                    fast_states += 1;
                    ctx.pairs(&st, &mut groups, &mut pairs);
                    let Some(&(a, c)) = pairs.first() else { break };
                    ctx.remove(&mut st, a, c);
                }
            }
            let fast = t.elapsed().as_secs_f64() * 1e6 / fast_states as f64;
            if fast_states != states {
                bail!("the padded grid and the reference disagree on {rows}x{cols} {gravity}");
            }
            outln!(
                "| {rows}×{cols} | {gravity} | {reference:.2} | {fast:.2} | {:.1}× | {states} |",
                reference / fast
            )?;
        }
    }
    Ok(())
}

fn parse_size(s: &str) -> Result<(usize, usize), String> {
    let (r, c) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("{s:?}: expected ROWSxCOLS, e.g. 11x19"))?;
    let r = r
        .trim()
        .parse()
        .map_err(|_| format!("{s:?}: rows is not a number"))?;
    let c = c
        .trim()
        .parse()
        .map_err(|_| format!("{s:?}: cols is not a number"))?;
    Ok((r, c))
}

/// What one strategy did on one board.
#[derive(Clone, Copy)]
struct Run {
    outcome: Outcome,
    micros: u64,
    states: u64,
}

/// The value at quantile `q` (nearest rank) of sorted data.
fn quantile(sorted: &[u64], q: f64) -> u64 {
    if sorted.is_empty() {
        return 0;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// `llk bench plan`: every strategy on the same random boards, one Markdown table row per
/// size, gravity mode and strategy (or the move-generator timing with `--link-speed`).
pub fn bench(args: BenchArgs) -> Result<()> {
    if args.boards == 0 {
        bail!("--boards must be at least 1");
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let opts = |strategy| PlanOptions {
        strategy,
        max_states: args.max_states,
        max_time: Some(Duration::from_millis(args.max_ms)),
    };
    let spec = |rows: usize, cols: usize, seed: u64| {
        let tiles = rows.saturating_mul(cols).saturating_mul(args.fill as usize) / 100;
        GenSpec {
            types: tiles.checked_div(args.copies).unwrap_or(0),
            ..GenSpec::full(rows, cols, args.copies, seed)
        }
    };
    for &(rows, cols) in &args.size {
        gen_board(&spec(rows, cols, 0)).map_err(|e| anyhow!("--size {rows}x{cols}: {e}"))?;
    }
    if args.link_speed {
        return link_speed(&args, &spec);
    }
    let combos: Vec<((usize, usize), Gravity)> = args
        .size
        .iter()
        .flat_map(|&s| args.gravity.iter().map(move |&g| (s, g)))
        .collect();
    let bar = indicatif::ProgressBar::new((combos.len() * args.boards) as u64);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{bar:40} {pos}/{len} boards, {elapsed} ({eta} left)",
        )
        .context("progress bar template")?,
    );
    outln!(
        "{} random boards per row, {} copies per type, {} % of the cells filled, outside ring {}, \
         {threads} threads, search budget {} states / {} ms",
        args.boards,
        args.copies,
        args.fill,
        if args.no_outside { "off" } else { "on" },
        args.max_states,
        args.max_ms
    )?;
    outln!(
        "| size | gravity | strategy | cleared | stuck (of solvable) | unsolvable | gave up | median ms | p99 ms | max ms | p99 ms cleared | mean states | max states |"
    )?;
    outln!("|---|---|---|---|---|---|---|---|---|---|---|---|---|")?;
    for ((rows, cols), gravity) in combos {
        let rules = Rules {
            outside: !args.no_outside,
            gravity,
        };
        // runs[board][strategy]
        let runs: Mutex<Vec<Vec<Run>>> = Mutex::new(vec![Vec::new(); args.boards]);
        let next = AtomicUsize::new(0);
        std::thread::scope(|s| {
            for _ in 0..threads {
                s.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= args.boards {
                        break;
                    }
                    let board = gen_board(&spec(rows, cols, args.seed + i as u64))
                        .expect("size checked above");
                    let r: Vec<Run> = args
                        .strategy
                        .iter()
                        .map(|&st| {
                            let p = run_plan(&board, &rules, &opts(st));
                            Run {
                                outcome: p.outcome,
                                micros: p.micros,
                                states: p.states,
                            }
                        })
                        .collect();
                    runs.lock().expect("no worker panics")[i] = r;
                    bar.inc(1);
                });
            }
        });
        let runs = runs.into_inner().expect("no worker panics");
        // A board is known solvable when any strategy cleared it.
        let solvable: Vec<bool> = runs
            .iter()
            .map(|r| r.iter().any(|x| x.outcome == Outcome::Cleared))
            .collect();
        let n_solvable = solvable.iter().filter(|&&s| s).count();
        for (k, strategy) in args.strategy.iter().enumerate() {
            let col: Vec<Run> = runs.iter().map(|r| r[k]).collect();
            let count = |o: Outcome| col.iter().filter(|x| x.outcome == o).count();
            let stuck_solvable = col
                .iter()
                .zip(&solvable)
                .filter(|(x, &s)| s && x.outcome != Outcome::Cleared)
                .count();
            let mut times: Vec<u64> = col.iter().map(|x| x.micros).collect();
            times.sort_unstable();
            let states: Vec<u64> = col.iter().map(|x| x.states).collect();
            let mut cleared_times: Vec<u64> = col
                .iter()
                .filter(|x| x.outcome == Outcome::Cleared)
                .map(|x| x.micros)
                .collect();
            cleared_times.sort_unstable();
            let pct = |n: usize| 100.0 * n as f64 / args.boards as f64;
            bar.suspend(|| -> Result<()> {
                outln!(
                    "| {rows}×{cols} | {gravity} | {strategy} | {:.1} % | {} ({stuck_solvable}/{n_solvable}) | {} | {} | {:.3} | {:.3} | {:.3} | {:.3} | {:.0} | {} |",
                    pct(count(Outcome::Cleared)),
                    count(Outcome::Stuck),
                    count(Outcome::Unsolvable),
                    count(Outcome::GaveUp),
                    quantile(&times, 0.5) as f64 / 1000.0,
                    quantile(&times, 0.99) as f64 / 1000.0,
                    times.last().copied().unwrap_or(0) as f64 / 1000.0,
                    quantile(&cleared_times, 0.99) as f64 / 1000.0,
                    states.iter().sum::<u64>() as f64 / states.len() as f64,
                    states.iter().max().copied().unwrap_or(0),
                )
            })?;
        }
    }
    bar.finish_and_clear();
    Ok(())
}
