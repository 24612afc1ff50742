//! `llk slide …`: solve one board, generate boards, build the pattern tables, and run the
//! benchmark files.

use super::out::outln;
use anyhow::{bail, Context, Result};
use clap::Subcommand;
use llk::slide::bench::{parse_cases, BenchCase};
use llk::slide::pdb::{self, PatternDb};
use llk::slide::{
    moves_to_string, parse_size, solve, solve_with, Algo, Goal, Heuristic, Limits, Puzzle, Solution,
};
use llk::slide::{reduce, wastar};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Sliding-tile puzzles.
#[derive(clap::Args, Debug)]
pub struct SlideArgs {
    #[command(subcommand)]
    cmd: SlideCmd,
}

#[derive(Subcommand, Debug)]
enum SlideCmd {
    /// Solve one board and print the moves (letters of the blank's direction).
    Solve(SolveArgs),
    /// Print a random solvable board (reproducible from its seed).
    Gen(GenArgs),
    /// Build (or check) the cached pattern tables for a board size and time it.
    Pdb(PdbArgs),
    /// Run a benchmark file (hard8.txt, korf100.txt, …) and print a table.
    Bench(BenchArgs),
    /// Time the non-optimal solvers (fast, wastar) on the same random boards of a size.
    BenchFast(BenchFastArgs),
    /// Play a sliding-puzzle window live: read the tiles, solve, click each move.
    Play(super::slide_play::SlidePlayArgs),
}

#[derive(clap::Args, Debug)]
struct SolveArgs {
    /// Tiles in row-major order, 0 = blank, e.g. "8 0 6 5 4 7 2 3 1".
    #[arg(long)]
    tiles: String,
    /// ROWSxCOLS, needed when the count is not a square (e.g. 3x4).
    #[arg(long)]
    size: Option<String>,
    /// Goal convention.
    #[arg(long, value_enum, default_value = "blank-first")]
    goal: Goal,
    /// Search algorithm; default: idastar up to 4×4, wastar beyond.
    #[arg(long, value_enum)]
    algo: Option<Algo>,
    /// Weight W of wastar: the solution is at most W × optimal (on boards of up to 25
    /// cells; larger boards are reduced to 5×5 first, without a bound on the whole).
    /// Default: W = 1.4, then larger weights when 600k expansions (~0.6 s) are not enough,
    /// which promises no bound.
    #[arg(long)]
    bound: Option<f64>,
    /// Estimate for A*/IDA*/wastar; default: pdb on boards of ≤ 25 cells (5×5 tables take
    /// ~3 minutes to build once), else linear-conflict.
    #[arg(long, value_enum)]
    heuristic: Option<Heuristic>,
    /// Depth bound for dfs/dls (default: length of the fast solution).
    #[arg(long)]
    depth: Option<usize>,
    /// Give up after this many expanded nodes (default: no limit for idastar, whose memory
    /// is one path; 50 000 000 for the others).
    #[arg(long)]
    max_nodes: Option<u64>,
    /// Give up when the nodes that bfs, bibfs, astar and dfs keep would take more than this
    /// much memory: bytes, or with a K, M or G suffix (powers of 1024).
    #[arg(long, default_value = "2G", value_parser = parse_bytes)]
    max_memory: u64,
    /// Give up after this many seconds (default: no time limit).
    #[arg(long)]
    max_secs: Option<f64>,
    /// Print {"length","moves","nodes","micros"} as JSON.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    tables: TablesArg,
}

#[derive(clap::Args, Debug)]
struct GenArgs {
    /// ROWSxCOLS.
    #[arg(long, default_value = "4x4")]
    size: String,
    /// Goal convention the board must be solvable for.
    #[arg(long, value_enum, default_value = "blank-first")]
    goal: Goal,
    /// Random seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(clap::Args, Debug)]
struct PdbArgs {
    /// ROWSxCOLS (at most 32 cells; 5x5 takes ~3 minutes and 1.8 GB once).
    #[arg(long, default_value = "4x4")]
    size: String,
    /// Ignore the cache and rebuild (the new tables replace the cached ones).
    #[arg(long)]
    rebuild: bool,
    #[command(flatten)]
    tables: TablesArg,
}

#[derive(clap::Args, Debug)]
struct BenchArgs {
    /// Benchmark file, e.g. ../shared/sliding/korf100.txt.
    file: PathBuf,
    /// Comma-separated ALGO[:HEURISTIC] list; default depends on the board size
    /// (3×3: every algorithm; 4×4: idastar:pdb then idastar:linear-conflict).
    #[arg(long)]
    algos: Option<String>,
    /// Only the first N positions (0: none, e.g. to run only --compare).
    #[arg(long)]
    limit: Option<usize>,
    /// Depth bound for dfs/dls (default: 31 on 3×3, the 8-puzzle's diameter).
    #[arg(long)]
    depth: Option<usize>,
    /// Weight W of wastar (solution ≤ W × optimal); default: as `llk slide solve`.
    #[arg(long)]
    bound: Option<f64>,
    /// Also time pathfinding::idastar against the hand-written IDA* (same PDB) on the
    /// first N positions.
    #[arg(long, default_value_t = 0)]
    compare: usize,
    /// Print one line per position and algorithm.
    #[arg(long)]
    verbose: bool,
    #[command(flatten)]
    tables: TablesArg,
}

#[derive(clap::Args, Debug)]
struct BenchFastArgs {
    /// ROWSxCOLS.
    #[arg(long, default_value = "8x8")]
    size: String,
    /// Number of random boards (each solved for both goals).
    #[arg(long, default_value_t = 100)]
    count: u64,
    /// Comma-separated algorithms to compare on the same boards.
    #[arg(long, default_value = "fast,wastar")]
    algos: String,
    /// Weight W of wastar; default: as `llk slide solve`.
    #[arg(long)]
    bound: Option<f64>,
}

/// Routes `llk slide` subcommands.
pub fn run(args: SlideArgs) -> Result<()> {
    match args.cmd {
        SlideCmd::Solve(a) => solve_cmd(a),
        SlideCmd::Gen(a) => gen_cmd(a),
        SlideCmd::Pdb(a) => pdb_cmd(a),
        SlideCmd::Bench(a) => bench_cmd(a),
        SlideCmd::BenchFast(a) => bench_fast_cmd(a),
        SlideCmd::Play(a) => super::slide_play::slide_play(a),
    }
}

/// Parses a byte count: digits with an optional K, M or G suffix (powers of 1024, an `iB`
/// or `B` after it allowed), e.g. 2G, 512M, 1048576.
fn parse_bytes(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix('B'))
        .unwrap_or(t);
    let (digits, shift) = match t.chars().last().map(|c| c.to_ascii_uppercase()) {
        Some('K') => (&t[..t.len() - 1], 10),
        Some('M') => (&t[..t.len() - 1], 20),
        Some('G') => (&t[..t.len() - 1], 30),
        _ => (t, 0),
    };
    let n: u64 = digits
        .trim()
        .parse()
        .map_err(|_| format!("{s:?}: expected bytes, e.g. 2G, 512M or 1048576"))?;
    let bytes = n
        .checked_mul(1 << shift)
        .ok_or_else(|| format!("{s:?} is too large"))?;
    if bytes == 0 {
        return Err(format!("{s:?}: the memory limit must be above zero"));
    }
    Ok(bytes)
}

fn default_heuristic(p: &Puzzle, algo: Algo) -> Heuristic {
    if p.width() * p.height() <= 25 || algo == Algo::Wastar {
        Heuristic::Pdb
    } else {
        Heuristic::LinearConflict
    }
}

fn solve_cmd(a: SolveArgs) -> Result<()> {
    let size = a.size.as_deref().map(parse_size).transpose()?;
    let p = Puzzle::parse(&a.tiles, size)?;
    let algo = a.algo.unwrap_or(if p.width() * p.height() <= 16 {
        Algo::Idastar
    } else {
        Algo::Wastar
    });
    let heur = a.heuristic.unwrap_or_else(|| default_heuristic(&p, algo));
    let max_time = match a.max_secs {
        Some(t) if t > 0.0 && t.is_finite() => Some(Duration::from_secs_f64(t)),
        Some(t) => bail!("--max-secs {t} must be a positive number of seconds"),
        None => None,
    };
    let limits = Limits {
        weight: a.bound,
        depth: a.depth,
        max_nodes: a.max_nodes,
        max_time,
        max_memory: a.max_memory,
    };
    let tables = (heur == Heuristic::Pdb && a.tables.partition != "default")
        .then(|| tables_for(p.width(), p.height(), &a.tables.partition))
        .transpose()?;
    let s = solve_with(&p, &a.goal, algo, heur, &limits, tables)?;
    let moves = moves_to_string(&s.moves);
    if a.json {
        let v = serde_json::json!({
            "length": s.moves.len(),
            "moves": moves,
            "nodes": s.nodes,
            "micros": s.micros,
        });
        outln!("{v}")?;
    } else {
        let tiles: Vec<String> = s.tiles_moved.iter().map(|t| t.to_string()).collect();
        outln!("{p}")?;
        outln!("moves:  {moves}")?;
        outln!("tiles:  {}", tiles.join(" "))?;
        outln!(
            "length: {}{}",
            s.moves.len(),
            if algo.is_optimal() {
                " (optimal)".to_string()
            } else if let (Algo::Wastar, true, Some(w)) =
                (algo, p.width() * p.height() <= 25, a.bound)
            {
                format!(" (at most {w} × optimal)")
            } else {
                " (not necessarily optimal)".to_string()
            }
        )?;
        outln!("nodes:  {} expanded, {} generated", s.nodes, s.generated)?;
        outln!("time:   {:.3} ms", s.micros as f64 / 1000.0)?;
    }
    Ok(())
}

fn gen_cmd(a: GenArgs) -> Result<()> {
    let (r, c) = parse_size(&a.size)?;
    let p = Puzzle::random(c, r, a.goal, a.seed)?;
    let t: Vec<String> = p.tiles().iter().map(|t| t.to_string()).collect();
    outln!("{}", t.join(" "))?;
    Ok(())
}

/// `--partition`, shared by the commands that use pattern tables.
#[derive(clap::Args, Debug)]
struct TablesArg {
    /// Pattern partition for the pdb estimate on boards of ≤ 16 cells: default, 6-6-3,
    /// 7-7-1, 7-8 (4×4), or tiles spelled out, e.g. "1,2,3,4,5,6,7/8,9,10,11,12,13,14,15".
    #[arg(long, default_value = "default")]
    partition: String,
}

/// Pattern tables of a named partition (see `--partition`).
fn tables_for(width: usize, height: usize, name: &str) -> Result<Arc<PatternDb>> {
    Ok(PatternDb::for_patterns(
        width,
        height,
        pdb::partition(width, height, name)?,
    )?)
}

fn pdb_cmd(a: PdbArgs) -> Result<()> {
    let (r, c) = parse_size(&a.size)?;
    let dir = pdb::cache_dir();
    let pats = pdb::partition(c, r, &a.tables.partition)?;
    let missing = pats
        .iter()
        .any(|p| !pdb::cache_file(&dir, c, r, p).exists());
    if a.rebuild || missing {
        pdb::check_cache_dir(&dir)?;
    }
    if a.rebuild {
        for p in &pats {
            for f in [
                pdb::cache_file(&dir, c, r, p),
                pdb::excess_file(&dir, c, r, p),
            ] {
                if f.exists() {
                    std::fs::remove_file(&f)
                        .with_context(|| format!("cannot remove {}", f.display()))?;
                }
            }
        }
    }
    let t = Instant::now();
    let db = PatternDb::build_into_cache(c, r, pats.clone(), &dir)?;
    let (mapped, owned) = db.footprint();
    outln!(
        "{}x{} pattern tables {:?} (reflection: {}) ready in {:.2} s ({:.1} MB mapped from \
         the cache, {:.1} MB in memory); {} excess entries capped",
        r,
        c,
        db.patterns(),
        db.reflects(),
        t.elapsed().as_secs_f64(),
        mapped as f64 / 1e6,
        owned as f64 / 1e6,
        db.capped()
    )?;
    for p in &pats {
        let f = pdb::cache_file(&dir, c, r, p);
        // Listed only once read back whole: header, size and checksum.
        pdb::load_table(&f, c, r, p).context("the cached table does not read back")?;
        let len = std::fs::metadata(&f)
            .with_context(|| format!("cannot stat {}", f.display()))?
            .len();
        outln!("  {} ({} bytes)", f.display(), len)?;
        let fx = pdb::excess_file(&dir, c, r, p);
        if let Ok(m) = std::fs::metadata(&fx) {
            outln!("  {} ({} bytes, what a solve loads)", fx.display(), m.len())?;
        }
    }
    Ok(())
}

/// One entry of the `--algos` list.
#[derive(Clone, Copy, Debug)]
struct Run {
    algo: Algo,
    heur: Heuristic,
}

impl Run {
    fn name(&self) -> String {
        let a = clap::ValueEnum::to_possible_value(&self.algo)
            .map(|v| v.get_name().to_string())
            .unwrap_or_default();
        if matches!(
            self.algo,
            Algo::Astar | Algo::Idastar | Algo::PfIdastar | Algo::Wastar
        ) {
            let h = clap::ValueEnum::to_possible_value(&self.heur)
                .map(|v| v.get_name().to_string())
                .unwrap_or_default();
            format!("{a}:{h}")
        } else {
            a
        }
    }
}

fn parse_runs(s: &str) -> Result<Vec<Run>> {
    s.split(',')
        .filter(|t| !t.trim().is_empty())
        .map(|t| {
            let (a, h) = t.trim().split_once(':').unwrap_or((t.trim(), "pdb"));
            let algo = <Algo as clap::ValueEnum>::from_str(a, true)
                .map_err(|_| anyhow::anyhow!("unknown algorithm '{a}'"))?;
            let heur = <Heuristic as clap::ValueEnum>::from_str(h, true)
                .map_err(|_| anyhow::anyhow!("unknown heuristic '{h}'"))?;
            Ok(Run { algo, heur })
        })
        .collect()
}

fn default_runs(cells: usize) -> &'static str {
    match cells {
        0..=9 => "bfs,dfs,dls,ids,bibfs,astar:manhattan,astar:pdb,idastar:misplaced,idastar:manhattan,idastar:linear-conflict,idastar:pdb,pf-idastar:pdb",
        10..=16 => "idastar:pdb,idastar:linear-conflict",
        17..=25 => "wastar:pdb,fast",
        _ => "wastar,fast",
    }
}

fn bench_cmd(a: BenchArgs) -> Result<()> {
    let text = std::fs::read_to_string(&a.file)
        .with_context(|| format!("cannot read benchmark file {}", a.file.display()))?;
    let all = parse_cases(&text).with_context(|| format!("{}", a.file.display()))?;
    let cases = &all[..a.limit.unwrap_or(all.len()).min(all.len())];
    let first = &all[0].puzzle;
    let cells = first.width() * first.height();
    let runs = parse_runs(a.algos.as_deref().unwrap_or(default_runs(cells)))?;
    let depth = a.depth.or((cells == 9).then_some(31));
    let limits = Limits {
        weight: a.bound,
        depth,
        max_nodes: Some(u64::MAX),
        ..Limits::default()
    };
    let mut tables = None;
    if runs.iter().any(|r| r.heur == Heuristic::Pdb) && cells <= 25 {
        let t = Instant::now();
        let db = tables_for(first.width(), first.height(), &a.tables.partition)?;
        tables = Some(db.clone());
        outln!(
            "pattern tables {:?}{}: ready in {:.2} s (cache: {})",
            db.patterns(),
            if db.reflects() {
                " + diagonal reflection"
            } else {
                ""
            },
            t.elapsed().as_secs_f64(),
            pdb::cache_dir().display()
        )?;
    }
    outln!("{} positions from {}", cases.len(), a.file.display())?;
    for run in runs.iter().filter(|_| !cases.is_empty()) {
        bench_run(cases, *run, &limits, tables.clone(), a.verbose || cells > 9)?;
    }
    if a.compare > 0 {
        compare_pathfinding(&all[..a.compare.min(all.len())])?;
    }
    Ok(())
}

/// CPU time of the whole process (all threads) in seconds, so figures can be read apart
/// from the wall clock when other jobs share the cores: `CLOCK_PROCESS_CPUTIME_ID`
/// (nanoseconds) on Unix, `None` elsewhere.
#[cfg(unix)]
fn process_cpu_seconds() -> Option<f64> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid, writable timespec for the call's whole duration.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    (r == 0).then(|| t.tv_sec as f64 + t.tv_nsec as f64 / 1e9)
}

#[cfg(not(unix))]
fn process_cpu_seconds() -> Option<f64> {
    None
}

/// The process CPU time `f` took, in microseconds (0 where it cannot be measured).
fn cpu_micros_of<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let a = process_cpu_seconds();
    let out = f();
    let us = match (a, process_cpu_seconds()) {
        (Some(a), Some(b)) => ((b - a) * 1e6) as u64,
        _ => 0,
    };
    (out, us)
}

fn bench_run(
    cases: &[BenchCase],
    run: Run,
    limits: &Limits,
    tables: Option<Arc<PatternDb>>,
    per_case: bool,
) -> Result<()> {
    outln!("\n== {} ==", run.name())?;
    let cpu0 = process_cpu_seconds();
    if per_case {
        outln!(
            "{:>5} {:>4} {:>4} {:>6} {:>12} {:>13} {:>10} {:>15}",
            "id",
            "opt",
            "len",
            "ratio",
            "expanded",
            "generated",
            "ms",
            "published"
        )?;
    }
    let (mut total_us, mut nodes, mut generated) = (0u64, 0u64, 0u64);
    let (mut wrong, mut max_us) = (0usize, 0u64);
    let (mut cpu_us, mut max_cpu_us) = (0u64, 0u64);
    let mut lengths = Vec::new();
    for c in cases {
        let (s, cpu) = cpu_micros_of(|| {
            solve_with(
                &c.puzzle,
                &c.goal,
                run.algo,
                run.heur,
                limits,
                tables.clone(),
            )
        });
        let s: Solution = s.with_context(|| format!("{} on position {}", run.name(), c.id))?;
        cpu_us += cpu;
        max_cpu_us = max_cpu_us.max(cpu);
        let len = s.moves.len();
        if run.algo.is_optimal() && len != c.optimal {
            wrong += 1;
        }
        lengths.push(len);
        total_us += s.micros;
        max_us = max_us.max(s.micros);
        nodes += s.nodes;
        generated += s.generated;
        if per_case {
            let published = c.figures.first().map(|v| v.to_string()).unwrap_or_default();
            outln!(
                "{:>5} {:>4} {:>4} {:>6.3} {:>12} {:>13} {:>10.3} {:>15}",
                c.id,
                c.optimal,
                len,
                len as f64 / c.optimal as f64,
                s.nodes,
                s.generated,
                s.micros as f64 / 1000.0,
                published
            )?;
        }
    }
    let n = cases.len();
    if let (Some(a), Some(b)) = (cpu0, process_cpu_seconds()) {
        outln!(
            "{}: wall {:.3} s of search; CPU {:.2} s over all threads for the run (incl. checks); CPU per position: mean {:.3} ms, max {:.3} ms",
            run.name(),
            total_us as f64 / 1e6,
            b - a,
            cpu_us as f64 / n as f64 / 1000.0,
            max_cpu_us as f64 / 1000.0
        )?;
    }
    if run.algo.is_optimal() {
        outln!(
            "{}: {}/{} optimal lengths match; {} expanded, {} generated; total {:.3} s, mean {:.3} ms, max {:.3} ms",
            run.name(),
            n - wrong,
            n,
            nodes,
            generated,
            total_us as f64 / 1e6,
            total_us as f64 / n as f64 / 1000.0,
            max_us as f64 / 1000.0
        )?;
    } else {
        let excess: i64 = cases
            .iter()
            .zip(&lengths)
            .map(|(c, &l)| l as i64 - c.optimal as i64)
            .sum();
        let ratios: Vec<f64> = cases
            .iter()
            .zip(&lengths)
            .map(|(c, &l)| l as f64 / c.optimal as f64)
            .collect();
        outln!(
            "{}: length / optimal: mean {:.3}, max {:.3}; time per position: mean {:.3} ms, max {:.3} ms",
            run.name(),
            ratios.iter().sum::<f64>() / n as f64,
            ratios.iter().cloned().fold(0.0, f64::max),
            total_us as f64 / n as f64 / 1000.0,
            max_us as f64 / 1000.0
        )?;
        outln!(
            "{}: not optimal; mean length {:.1} vs optimal {:.1} (+{} moves in all); {} expanded; total {:.3} s, max {:.3} ms",
            run.name(),
            lengths.iter().sum::<usize>() as f64 / n as f64,
            cases.iter().map(|c| c.optimal).sum::<usize>() as f64 / n as f64,
            excess,
            nodes,
            total_us as f64 / 1e6,
            max_us as f64 / 1000.0
        )?;
    }
    if wrong > 0 {
        bail!(
            "{}: {wrong} of {n} lengths differ from the file's optimal",
            run.name()
        );
    }
    Ok(())
}

/// Hand-written IDA* against `pathfinding::idastar` with the same pattern tables.
fn compare_pathfinding(cases: &[BenchCase]) -> Result<()> {
    outln!("\n== hand-written IDA* vs pathfinding::idastar (same PDB heuristic) ==")?;
    outln!(
        "{:>5} {:>4} {:>12} {:>10} {:>12} {:>10} {:>7}",
        "id",
        "opt",
        "hand nodes",
        "hand ms",
        "pf nodes",
        "pf ms",
        "speedup"
    )?;
    let limits = Limits {
        depth: None,
        max_nodes: Some(u64::MAX),
        ..Limits::default()
    };
    let (mut th, mut tp) = (0u64, 0u64);
    for c in cases {
        let h = solve(&c.puzzle, &c.goal, Algo::Idastar, Heuristic::Pdb, &limits)?;
        let p = solve(&c.puzzle, &c.goal, Algo::PfIdastar, Heuristic::Pdb, &limits)?;
        if h.moves.len() != c.optimal || p.moves.len() != c.optimal {
            bail!(
                "position {}: lengths {} / {} differ from optimal {}",
                c.id,
                h.moves.len(),
                p.moves.len(),
                c.optimal
            );
        }
        th += h.micros;
        tp += p.micros;
        outln!(
            "{:>5} {:>4} {:>12} {:>10.3} {:>12} {:>10.3} {:>6.1}x",
            c.id,
            c.optimal,
            h.nodes,
            h.micros as f64 / 1000.0,
            p.nodes,
            p.micros as f64 / 1000.0,
            p.micros as f64 / h.micros.max(1) as f64
        )?;
    }
    outln!(
        "total: hand {:.3} s, pathfinding {:.3} s, speedup {:.1}x",
        th as f64 / 1e6,
        tp as f64 / 1e6,
        tp as f64 / th.max(1) as f64
    )?;
    Ok(())
}

fn bench_fast_cmd(a: BenchFastArgs) -> Result<()> {
    let (r, c) = parse_size(&a.size)?;
    let limits = Limits {
        weight: a.bound,
        ..Limits::default()
    };
    let algos: Vec<Algo> = a
        .algos
        .split(',')
        .filter(|t| !t.trim().is_empty())
        .map(|t| {
            <Algo as clap::ValueEnum>::from_str(t.trim(), true)
                .map_err(|_| anyhow::anyhow!("unknown algorithm '{t}'"))
        })
        .collect::<Result<_>>()?;
    let mut first_len = None;
    for algo in algos {
        let heur = if algo == Algo::Wastar {
            Heuristic::Pdb
        } else {
            Heuristic::Zero
        };
        let name = Run { algo, heur }.name();
        if heur == Heuristic::Pdb {
            // Loaded before the clocks start: boards over 5×5 search a 5×5 block.
            let side = |n: usize| {
                if r * c > wastar::MAX_CELLS {
                    reduce::BLOCK
                } else {
                    n
                }
            };
            PatternDb::for_board(side(c), side(r))?;
        }
        let (mut total, mut max, mut len, mut max_len) = (0u64, 0u64, 0usize, 0usize);
        let (mut cpu_total, mut cpu_max) = (0u64, 0u64);
        for seed in 0..a.count {
            for goal in [Goal::BlankFirst, Goal::BlankLast] {
                let p = Puzzle::random(c, r, goal, seed)?;
                let t = Instant::now();
                let (s, cpu) = cpu_micros_of(|| solve(&p, &goal, algo, heur, &limits));
                let s = s.with_context(|| format!("{name} on seed {seed}"))?;
                cpu_total += cpu;
                cpu_max = cpu_max.max(cpu);
                let us = t.elapsed().as_micros() as u64;
                total += us;
                max = max.max(us);
                len += s.moves.len();
                max_len = max_len.max(s.moves.len());
            }
        }
        let n = 2 * a.count;
        let mean = len as f64 / n as f64;
        let versus = match first_len {
            None => {
                first_len = Some(mean);
                String::new()
            }
            Some(f) => format!(" ({:+.1} % against the first)", 100.0 * (mean / f - 1.0)),
        };
        outln!(
            "{name} on {n} random {r}x{c} boards (both goals): mean {:.2} ms, max {:.2} ms (CPU mean {:.2} ms, max {:.2} ms), mean length {mean:.1}{versus}, max length {max_len}",
            total as f64 / n as f64 / 1000.0,
            max as f64 / 1000.0,
            cpu_total as f64 / n as f64 / 1000.0,
            cpu_max as f64 / 1000.0,
        )?;
    }
    Ok(())
}
