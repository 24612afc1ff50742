//! `llk puzzle …`: the puzzles on the generic search API — a maze, the river crossing,
//! tic-tac-toe and connect four — solved, hinted, analysed or played in the terminal.

use super::exit::{Exit, UNSOLVABLE};
use anyhow::{bail, Context, Result};
use clap::{Subcommand, ValueEnum};
use indicatif::ProgressBar;
use llk::puzzles::adversarial::{GameTreeSearch, SearchResult, TwoPlayerGame};
use llk::puzzles::c4::{ConnectFour, Position};
use llk::puzzles::maze::{self, Maze, MazeAlgo, MazeHeuristic};
use llk::puzzles::river::{Banks, River};
use llk::puzzles::terminal::{self, Ending};
use llk::puzzles::ttt::{self, TicTacToe, TttBoard};
use serde_json::json;
use std::fmt::Write as _;
use std::io::{self, Write as _};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// `llk puzzle` and its subcommands.
#[derive(clap::Args, Debug)]
pub struct PuzzleArgs {
    #[command(subcommand)]
    cmd: PuzzleCmd,
}

#[derive(Subcommand, Debug)]
enum PuzzleCmd {
    /// Shortest path through a text maze (S start, G goal, # wall, . free).
    ///
    /// Exit status: 0 a path was found; 4 no path (the walls cut the goal off); 1 an error.
    Maze(MazeArgs),
    /// Priests and devils (missionaries and cannibals): fewest crossings, or a hint.
    ///
    /// Exit status: 0 solved (or, with --hint, a move or everyone already across); 4
    /// unsolvable (no safe sequence of crossings; with --hint, none from that state); 1 an
    /// error.
    River(RiverArgs),
    /// Tic-tac-toe: play in the terminal, or analyse a board with --board.
    Ttt(TttArgs),
    /// Connect four: play in the terminal, or analyse a position with --moves.
    C4(C4Args),
}

#[derive(clap::Args, Debug)]
struct MazeArgs {
    /// The maze file: one line per row of S, G, # and .
    file: PathBuf,
    /// The search to use.
    #[arg(long, value_enum, default_value_t = MazeAlgoArg::Astar)]
    algo: MazeAlgoArg,
    /// A*'s estimate of the distance left (ignored by bfs and dijkstra).
    #[arg(long, value_enum, default_value_t = HeuristicArg::Manhattan)]
    heuristic: HeuristicArg,
    /// Print {"length": L, "path": [[r,c], ...]} (0-based cells) instead of the drawing.
    #[arg(long)]
    json: bool,
    /// A table of path length and cells expanded for every search and heuristic.
    #[arg(long)]
    compare: bool,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum MazeAlgoArg {
    Astar,
    Bfs,
    Dijkstra,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum HeuristicArg {
    Manhattan,
    Euclid,
}

#[derive(clap::Args, Debug)]
struct RiverArgs {
    /// Priests to ferry across.
    #[arg(long, default_value_t = 3)]
    priests: u32,
    /// Devils to ferry across.
    #[arg(long, default_value_t = 3)]
    devils: u32,
    /// Seats in the boat.
    #[arg(long, default_value_t = 2)]
    boat: u32,
    /// Instead of the whole crossing, the next move from this state: priests and devils on
    /// the left (starting) bank and the boat's side, e.g. 3,1,R.
    #[arg(long, value_name = "P,D,SIDE")]
    hint: Option<String>,
    /// Print JSON instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(ValueEnum, Clone, Copy, Debug)]
enum TttAlgo {
    /// Newell and Simon's ordered rules, no search.
    Rule,
    Minimax,
    Alphabeta,
    Negamax,
}

#[derive(clap::Args, Debug)]
struct TttArgs {
    /// Analyse this board instead of playing: nine cells row-major, X O or . (e.g.
    /// "X.O......"); the side to move follows from the counts.
    #[arg(long)]
    board: Option<String>,
    /// The computer's method.
    #[arg(long, value_enum, default_value_t = TttAlgo::Alphabeta)]
    algo: TttAlgo,
    /// How many plies the searches look ahead (9 sees every game to its end).
    #[arg(long, default_value_t = 9)]
    depth: u32,
    /// With --board: print {"move": i, "score": s, "nodes": n} (cell i in 0..8).
    #[arg(long)]
    json: bool,
    /// With --board (or from the empty board): a table of move, score and nodes for every
    /// search, showing what pruning saves.
    #[arg(long)]
    compare: bool,
    /// In play: the human's mark; X moves first.
    #[arg(long, value_enum, default_value_t = Side::X)]
    human: Side,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    X,
    O,
}

#[derive(clap::Args, Debug)]
struct C4Args {
    /// Rows on the board, 6 or 7 (there are always 7 columns).
    #[arg(long, default_value_t = 6)]
    height: usize,
    /// How many plies negamax looks ahead (1-12).
    #[arg(long, default_value_t = 6)]
    depth: u32,
    /// Analyse the position after these moves instead of playing: one column 1-7 per disc,
    /// first player first (e.g. "4453").
    #[arg(long)]
    moves: Option<String>,
    /// With --moves: print {"column": c, "score": s, "nodes": n} (column 1-7).
    #[arg(long)]
    json: bool,
    /// A table of column, score, nodes and time for every search at depths 1..=--depth,
    /// from the position of --moves (or the empty board), printed row by row; plain minimax
    /// grows as 7^depth.
    #[arg(long)]
    compare: bool,
    /// Stop a search (the analysis, or the --compare table) that runs longer than this many
    /// seconds, with an error saying how far it got.
    #[arg(long, default_value_t = 60.0)]
    max_secs: f64,
    /// In play: whether the human drops the first disc (X) or the second (O).
    #[arg(long, value_enum, default_value_t = Turn::First)]
    human: Turn,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Turn {
    First,
    Second,
}

/// Runs `llk puzzle …`.
pub fn run(args: PuzzleArgs) -> Result<()> {
    let mut out = String::new();
    let result = match args.cmd {
        PuzzleCmd::Maze(a) => maze_cmd(a, &mut out),
        PuzzleCmd::River(a) => river_cmd(a, &mut out),
        PuzzleCmd::Ttt(a) => ttt_cmd(a, &mut out),
        PuzzleCmd::C4(a) => c4_cmd(a, &mut out),
    };
    emit(&mut out)?;
    result
}

/// Ends a command whose text (gathered in `out`) says there is no solution, with
/// [`UNSOLVABLE`].
fn unsolvable() -> Result<()> {
    Err(Exit::reported(UNSOLVABLE).into())
}

/// Writes and clears the text gathered in `out` (see `super::out`).
fn emit(out: &mut String) -> Result<()> {
    let written = super::out::text(out);
    out.clear();
    written
}

fn maze_cmd(a: MazeArgs, out: &mut String) -> Result<()> {
    let name = a.file.display().to_string();
    let text = std::fs::read_to_string(&a.file).with_context(|| format!("reading maze {name}"))?;
    let m = Maze::parse(&name, &text)?;
    let algo = match a.algo {
        MazeAlgoArg::Astar => MazeAlgo::AStar,
        MazeAlgoArg::Bfs => MazeAlgo::Bfs,
        MazeAlgoArg::Dijkstra => MazeAlgo::Dijkstra,
    };
    let h = match a.heuristic {
        HeuristicArg::Manhattan => MazeHeuristic::Manhattan,
        HeuristicArg::Euclid => MazeHeuristic::Euclid,
    };
    if a.compare {
        let mut found = false;
        writeln!(
            out,
            "{:<10} {:<10} {:>7} {:>9}",
            "search", "heuristic", "length", "expanded"
        )?;
        for (algo, h, an, hn) in [
            (
                MazeAlgo::AStar,
                MazeHeuristic::Manhattan,
                "astar",
                "manhattan",
            ),
            (MazeAlgo::AStar, MazeHeuristic::Euclid, "astar", "euclid"),
            (MazeAlgo::Bfs, MazeHeuristic::Zero, "bfs", "-"),
            (MazeAlgo::Dijkstra, MazeHeuristic::Zero, "dijkstra", "-"),
        ] {
            let sol = maze::solve(&m, algo, h);
            match &sol {
                Some(s) => writeln!(out, "{an:<10} {hn:<10} {:>7} {:>9}", s.cost, s.expanded),
                None => writeln!(out, "{an:<10} {hn:<10} {:>7} {:>9}", "no path", "-"),
            }?;
            found = sol.is_some();
        }
        // Every search finds a path when one exists, so the last row decides.
        return if found { Ok(()) } else { unsolvable() };
    }
    let sol = maze::solve(&m, algo, h);
    if a.json {
        let v = match &sol {
            Some(s) => json!({
                "length": s.cost,
                "path": s.states.iter().map(|&(r, c)| [r, c]).collect::<Vec<_>>(),
                "expanded": s.expanded,
            }),
            None => json!({ "length": null, "path": [], "expanded": null }),
        };
        writeln!(out, "{v}")?;
        return if sol.is_some() { Ok(()) } else { unsolvable() };
    }
    match sol {
        Some(s) => {
            write!(out, "{}", m.draw(&s.states))?;
            writeln!(
                out,
                "length {} from ({},{}) to ({},{}), 0-based; {} cells expanded",
                s.cost, m.start.0, m.start.1, m.goal.0, m.goal.1, s.expanded
            )?;
        }
        None => {
            write!(out, "{}", m.draw(&[]))?;
            writeln!(out, "no path: the walls cut the goal off from the start")?;
            return unsolvable();
        }
    }
    Ok(())
}

fn river_cmd(a: RiverArgs, out: &mut String) -> Result<()> {
    let river = River::new(a.priests, a.devils, a.boat)?;
    let setting = format!(
        "{} priests, {} devils, a boat of {}",
        a.priests, a.devils, a.boat
    );
    if let Some(text) = &a.hint {
        let state: Banks = text.parse()?;
        let hint = river.hint(state)?;
        let stuck = hint.is_none() && !river.is_goal(&state);
        if a.json {
            let v = match hint {
                Some((c, left)) => json!({
                    "state": state, "solved": false, "solvable": true,
                    "move": c, "from": side(state.boat_left), "crossings_left": left,
                }),
                None => json!({
                    "state": state, "solved": river.is_goal(&state),
                    "solvable": river.is_goal(&state), "move": null,
                }),
            };
            writeln!(out, "{v}")?;
        } else {
            match hint {
                Some((c, left)) => writeln!(
                out,
                    "from {state}: take {} across from the {} bank ({left} crossings to go, this one included)",
                    riders(c.priests, c.devils),
                    side(state.boat_left)
                ),
                None if river.is_goal(&state) => writeln!(out, "from {state}: everyone is across"),
                None => writeln!(out, "from {state}: no way across exists ({setting})"),
            }?;
        }
        return if stuck { unsolvable() } else { Ok(()) };
    }
    let sol = river.solve();
    // Why there is no solution: an unsafe start, or no safe sequence of crossings.
    let why = match river.check(&river.start()) {
        Err(e) => format!("the start is already unsafe ({e})"),
        Ok(()) => format!("no sequence of crossings gets {setting} across safely"),
    };
    if a.json {
        let v = match &sol {
            Some(s) => json!({
                "length": s.actions.len(), "states": s.states, "moves": s.actions,
            }),
            None => json!({ "length": null, "states": [], "moves": [], "reason": why }),
        };
        writeln!(out, "{v}")?;
        return if sol.is_some() { Ok(()) } else { unsolvable() };
    }
    let Some(s) = sol else {
        writeln!(out, "unsolvable: {why}")?;
        return unsolvable();
    };
    writeln!(out, "{setting}: {} crossings", s.actions.len())?;
    writeln!(out, "  left bank  | right bank")?;
    let total = (a.priests, a.devils);
    for (i, st) in s.states.iter().enumerate() {
        let right = (total.0 - st.priests_left, total.1 - st.devils_left);
        let boat = if st.boat_left { "B ~~  " } else { "  ~~ B" };
        writeln!(
            out,
            "  {:>2}P {:>2}D {boat} {:>2}P {:>2}D",
            st.priests_left, st.devils_left, right.0, right.1
        )?;
        if let Some(c) = s.actions.get(i) {
            let arrow = if st.boat_left {
                "──▶"
            } else {
                "◀──"
            };
            writeln!(out, "      {arrow} {}", riders(c.priests, c.devils))?;
        }
    }
    Ok(())
}

fn side(left: bool) -> &'static str {
    if left {
        "left"
    } else {
        "right"
    }
}

fn riders(p: u32, d: u32) -> String {
    let plural = |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    match (p, d) {
        (0, d) => plural(d, "devil", "devils"),
        (p, 0) => plural(p, "priest", "priests"),
        (p, d) => format!(
            "{} and {}",
            plural(p, "priest", "priests"),
            plural(d, "devil", "devils")
        ),
    }
}

/// The computer's tic-tac-toe move and its search figures (the rule player searches no
/// nodes and gives no score).
fn ttt_choice(algo: TttAlgo, b: &TttBoard, depth: u32) -> (Option<usize>, Option<i32>, u64) {
    let searched = |r: SearchResult<usize>| (r.best, Some(r.score), r.nodes);
    match algo {
        TttAlgo::Rule => (ttt::rule_move(b), None, 0),
        TttAlgo::Minimax => searched(GameTreeSearch::Minimax.search(&TicTacToe, b, depth)),
        TttAlgo::Alphabeta => searched(GameTreeSearch::AlphaBeta.search(&TicTacToe, b, depth)),
        TttAlgo::Negamax => searched(GameTreeSearch::Negamax.search(&TicTacToe, b, depth)),
    }
}

fn ttt_cmd(a: TttArgs, out: &mut String) -> Result<()> {
    if !(1..=9).contains(&a.depth) {
        bail!(
            "--depth {} is out of range: tic-tac-toe searches 1 to 9 plies",
            a.depth
        );
    }
    let board = a.board.as_deref().map(TttBoard::parse).transpose()?;
    if a.compare {
        let b = board.unwrap_or_default();
        writeln!(
            out,
            "board {} ({} to move), depth {}",
            b.to_text(),
            b.to_move(),
            a.depth
        )?;
        writeln!(
            out,
            "{:<10} {:>5} {:>6} {:>8}",
            "search", "move", "score", "nodes"
        )?;
        for algo in GameTreeSearch::ALL {
            let r = algo.search(&TicTacToe, &b, a.depth);
            let mv = r.best.map_or("-".to_string(), |m| m.to_string());
            writeln!(
                out,
                "{:<10} {:>5} {:>6} {:>8}",
                algo.name(),
                mv,
                r.score,
                r.nodes
            )?;
        }
        return Ok(());
    }
    if let Some(b) = board {
        if let Some(w) = b.winner() {
            bail!("board {}: the game is over, {w} has won", b.to_text());
        }
        let (mv, score, nodes) = ttt_choice(a.algo, &b, a.depth);
        let Some(mv) = mv else {
            bail!("board {}: the game is over, the board is full", b.to_text());
        };
        if a.json {
            writeln!(
                out,
                "{}",
                json!({ "move": mv, "score": score, "nodes": nodes })
            )?;
        } else {
            let score = score.map_or("-".to_string(), |s| s.to_string());
            writeln!(
                out,
                "{} to move plays cell {mv} (0-based; row {}, column {}); score {score}, {nodes} nodes",
                b.to_move(),
                mv / 3 + 1,
                mv % 3 + 1
            )?;
        }
        return Ok(());
    }
    if a.json {
        bail!("--json needs --board: interactive play prints no JSON");
    }
    let (algo, depth) = (a.algo, a.depth);
    writeln!(
        out,
        "Tic-tac-toe: you are {:?}; type the number of a free cell.",
        a.human
    )?;
    emit(out)?;
    let stdin = io::stdin();
    let (ending, _) = terminal::play(
        &TicTacToe,
        TttBoard::default(),
        a.human == Side::X,
        |b| {
            ttt_choice(algo, b, depth)
                .0
                .expect("the loop asks only while moves remain")
        },
        stdin.lock(),
        io::stdout().lock(),
    )?;
    report(ending)
}

fn c4_cmd(a: C4Args, out: &mut String) -> Result<()> {
    if !(1..=12).contains(&a.depth) {
        bail!(
            "--depth {} is out of range: use 1 to 12 (each ply multiplies the time by up to 7)",
            a.depth
        );
    }
    if !(a.max_secs > 0.0 && a.max_secs.is_finite()) {
        bail!(
            "--max-secs {} must be a positive number of seconds",
            a.max_secs
        );
    }
    let budget = Duration::from_secs_f64(a.max_secs);
    let t0 = Instant::now();
    let deadline = t0 + budget;
    if a.compare {
        let p = Position::from_moves(a.height, a.moves.as_deref().unwrap_or(""))?;
        writeln!(
            out,
            "{:>5} {:<10} {:>6} {:>8} {:>10} {:>10}",
            "depth", "search", "column", "score", "nodes", "ms"
        )?;
        emit(out)?;
        // Rows are printed as each search ends; the spinner (drawn only on a terminal)
        // shows which search is running and for how long.
        let bar = ProgressBar::new_spinner();
        bar.enable_steady_tick(Duration::from_millis(200));
        for depth in 1..=a.depth {
            for algo in GameTreeSearch::ALL {
                bar.set_message(format!("depth {depth}: {}", algo.name()));
                let t = Instant::now();
                let Some(r) = algo.search_until(&ConnectFour, &p, depth, deadline) else {
                    bar.finish_and_clear();
                    bail!(
                        "stopped after {:.1} s (--max-secs {}): {} at depth {depth} did not \
                         finish; the rows above are complete",
                        t0.elapsed().as_secs_f64(),
                        a.max_secs,
                        algo.name()
                    );
                };
                let col = r.best.map_or("-".to_string(), |c| (c + 1).to_string());
                writeln!(
                    out,
                    "{depth:>5} {:<10} {col:>6} {:>8} {:>10} {:>10.1}",
                    algo.name(),
                    r.score,
                    r.nodes,
                    t.elapsed().as_secs_f64() * 1000.0
                )?;
                bar.suspend(|| emit(out))?;
            }
        }
        bar.finish_and_clear();
        return Ok(());
    }
    if let Some(moves) = &a.moves {
        let p = Position::from_moves(a.height, moves)?;
        if let Some(w) = p.winner {
            bail!("moves {moves:?}: the game is over, player {w} has won");
        }
        let Some(r) = GameTreeSearch::Negamax.search_until(&ConnectFour, &p, a.depth, deadline)
        else {
            bail!(
                "stopped after {:.1} s (--max-secs {}): the depth-{} search did not finish",
                t0.elapsed().as_secs_f64(),
                a.max_secs,
                a.depth
            );
        };
        let Some(col) = r.best else {
            bail!("moves {moves:?}: the game is over, the board is full");
        };
        if a.json {
            writeln!(
                out,
                "{}",
                json!({ "column": col + 1, "score": r.score, "nodes": r.nodes })
            )?;
        } else {
            writeln!(out, "{}", terminal::TerminalGame::show(&ConnectFour, &p))?;
            writeln!(
                out,
                "player {} plays column {}; score {}{}, {} nodes",
                p.to_move(),
                col + 1,
                r.score,
                verdict(r.score),
                r.nodes
            )?;
        }
        return Ok(());
    }
    if a.json {
        bail!("--json needs --moves: interactive play prints no JSON");
    }
    let start = Position::new(a.height)?;
    writeln!(
        out,
        "Connect four: you are {}; type a column 1-7.",
        if a.human == Turn::First {
            "X (first)"
        } else {
            "O (second)"
        }
    )?;
    let depth = a.depth;
    emit(out)?;
    let stdin = io::stdin();
    let (ending, _) = terminal::play(
        &ConnectFour,
        start,
        a.human == Turn::First,
        |p| {
            GameTreeSearch::Negamax
                .search(&ConnectFour, p, depth)
                .best
                .expect("the loop asks only while moves remain")
        },
        stdin.lock(),
        io::stdout().lock(),
    )?;
    report(ending)
}

/// Words for a connect-four score: a forced result when the search saw one.
fn verdict(score: i32) -> String {
    let plies = ConnectFour::WIN - score.abs();
    if score.abs() > ConnectFour::WIN / 2 {
        let who = if score > 0 { "wins" } else { "loses" };
        let unit = if plies == 1 { "ply" } else { "plies" };
        format!(" (the side to move {who} in {plies} {unit})")
    } else {
        String::new()
    }
}

fn report(ending: Ending) -> Result<()> {
    io::stdout().flush()?;
    if ending == Ending::Quit {
        eprintln!("llk: game abandoned");
    }
    Ok(())
}
