//! The live sliding-puzzle player: read the board from a frame, check it can be solved,
//! solve it, and click the tile next to the blank for each move, confirming every move by
//! reading the next frames.
//!
//! It talks only to a [`FrameSource`] and a [`Clicker`], so the same loop plays a real
//! window, rehearses (`--dry-run`), or runs in a unit test against a simulated game. A click
//! that shows no change is retried; a board that is not the one expected (a lost or extra
//! move, a user's click) is re-read and re-solved from what is actually there.

use super::screen::{read_slide, read_with_grid, ScreenError, SlideReading, Tiles};
use super::solve::SolveError;
use super::{moves_to_string, pdb, solve, Algo, Dir, Goal, Heuristic, Limits, Puzzle, Solution};
use crate::board::Pos;
use crate::capture::{CaptureError, Frame, FrameSource};
use crate::input::{ClickError, Clicker};
use crate::slide::puzzle::step;
use std::time::{Duration, Instant};

/// Why the sliding player stopped without solving the puzzle.
#[derive(Debug, thiserror::Error)]
pub enum SlidePlayError {
    /// No frame to be had.
    #[error("capturing the game window")]
    Capture(#[source] CaptureError),
    /// The first frame does not read as a sliding board.
    #[error("reading the sliding puzzle")]
    Read(#[source] ScreenError),
    /// The board as read cannot reach the goal.
    #[error("the board read cannot be solved (wrong inversion parity): \n{0}\nis it a different goal convention, or a misread tile?")]
    Unsolvable(Puzzle),
    /// No solver found the moves.
    #[error(transparent)]
    Solve(#[from] SolveError),
    /// A planned move would take the blank off the board (a misread board).
    #[error("move {} leaves the board", .0.letter())]
    OffBoard(Dir),
    /// The tile to click lies outside the window's client area.
    #[error("the click point ({}, {}) is outside the window's client area", .0.0, .0.1)]
    OffWindow((i32, i32)),
    /// A click failed, or the user took the mouse back.
    #[error(transparent)]
    Click(#[from] ClickError),
    /// The overall time ran out.
    #[error("timed out after {secs:.1} s with {moves} moves made")]
    TimedOut {
        /// Seconds played.
        secs: f64,
        /// Moves confirmed on screen.
        moves: u32,
    },
    /// A click changed nothing, however often it was repeated.
    #[error("the click at ({}, {}) showed no change after {tries} tries", at.0, at.1)]
    NoChange {
        /// The screen point clicked.
        at: (i32, i32),
        /// Clicks made there.
        tries: u32,
    },
    /// The board kept differing from the plan's.
    #[error("the board kept differing from what was expected ({resolves} re-solves); last read:\n{last}")]
    KeptDiffering {
        /// Re-solves allowed and made.
        resolves: u32,
        /// The board last read.
        last: Puzzle,
    },
    /// A frame after a click did not read as a board.
    #[error("the board became unreadable after a click")]
    Unreadable(#[source] ScreenError),
}

type Result<T> = std::result::Result<T, SlidePlayError>;

/// How the player behaves.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    /// Expected board size (rows, cols); `None`: whatever grid is found.
    pub size: Option<(usize, usize)>,
    /// Where the blank sits when solved.
    pub goal: Goal,
    /// Extra clicks on the same tile when a click shows no change.
    pub retries: u32,
    /// How long to keep polling for a move's effect before calling the click lost.
    pub settle: Duration,
    /// Most re-reads-and-re-solves after surprises before giving up.
    pub max_resolves: u32,
    /// Gives up after this long in total.
    pub timeout: Duration,
    /// Plan and report the clicks, but click nothing.
    pub dry_run: bool,
    /// One click per tile moved, never a click that slides a run of tiles (see [`play`]).
    pub single_moves: bool,
}

impl Default for PlayConfig {
    fn default() -> Self {
        PlayConfig {
            size: None,
            goal: Goal::BlankLast,
            retries: 3,
            settle: Duration::from_millis(800),
            max_resolves: 5,
            timeout: Duration::from_secs(120),
            dry_run: false,
            single_moves: false,
        }
    }
}

/// What the player did.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct PlayReport {
    /// The board as first read (row-major, 0 = blank).
    pub start: Vec<u8>,
    /// The first plan, as a `UDLR` word of blank moves.
    pub plan: String,
    /// How the first plan was found (see [`Plan::planner`]), e.g. `wastar:pdb`.
    pub planner: String,
    /// Moves confirmed on screen (tiles moved: a run click counts each tile).
    pub moves_made: u32,
    /// Clicks made.
    pub clicks: u32,
    /// Clicks that slid a run of two or more tiles at once.
    pub run_clicks: u32,
    /// Whether the window slides runs: `None` until a run click has been tried.
    pub runs: Option<bool>,
    /// Clicks repeated because the first showed no change.
    pub retries: u32,
    /// Times the board was not as expected and was solved again from what was read.
    pub resolves: u32,
    /// Frames read.
    pub reads: u32,
    /// Time spent capturing and reading frames, in microseconds (the rest is clicking,
    /// the mouse's hold and gap, and waiting for the game).
    pub read_micros: u64,
    /// Time spent planning (including loading pattern tables), in microseconds.
    pub plan_micros: u64,
    /// Whether the board reached the goal.
    pub solved: bool,
    /// Time played, ms.
    pub millis: u64,
}

/// Whether the pattern tables for a board size are on disk already (`llk slide pdb`):
/// building them takes about 40 s and 700 MB on a 4×4, too much to start mid-game.
pub fn pdb_cached(width: usize, height: usize) -> bool {
    let dir = pdb::cache_dir();
    pdb::default_patterns(width, height)
        .iter()
        .all(|t| pdb::cache_file(&dir, width, height, t).exists())
}

/// A plan and the search that found it.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The moves, checked to reach the goal.
    pub solution: Solution,
    /// The algorithm that found them.
    pub algo: Algo,
    /// Its estimate (ignored by `fast`).
    pub heuristic: Heuristic,
}

impl Plan {
    /// The search's name as `--algo`/`--heuristic` spell it: `wastar:pdb`,
    /// `idastar:linear-conflict`, or `fast` (which uses no estimate).
    pub fn planner(&self) -> String {
        let name = |v: Option<clap::builder::PossibleValue>| {
            v.map(|v| v.get_name().to_string()).unwrap_or_default()
        };
        let algo = name(clap::ValueEnum::to_possible_value(&self.algo));
        if self.algo == Algo::Fast {
            return algo;
        }
        format!(
            "{algo}:{}",
            name(clap::ValueEnum::to_possible_value(&self.heuristic))
        )
    }
}

/// Plans the moves for `start`: optimal IDA* on boards of up to 9 cells; on 4×4 optimal
/// IDA* with the pattern tables when they are cached, otherwise IDA* with linear conflicts
/// within a node budget (a fraction of a second); beyond 16 cells weighted A* (`wastar`,
/// reducing boards over 5×5 to a 5×5 block first) with the pattern tables when they are
/// cached and linear conflicts otherwise (measured on Korf & Felner's 24-puzzles: 1.10 and
/// 1.36 × optimal), so a first game never waits minutes for tables. The fast
/// row-and-column solver is the last resort, so the player never stalls on a hard
/// scramble.
pub fn plan_moves(start: &Puzzle, goal: Goal) -> Result<Plan> {
    if !start.is_solvable(goal) {
        return Err(SlidePlayError::Unsolvable(start.clone()));
    }
    let run = |algo: Algo, heuristic: Heuristic, limits: &Limits| {
        solve(start, &goal, algo, heuristic, limits).map(|solution| Plan {
            solution,
            algo,
            heuristic,
        })
    };
    // The row-and-column reduction: any board, in milliseconds; the last resort.
    let fast = || Ok(run(Algo::Fast, Heuristic::Manhattan, &Limits::default())?);
    let cells = start.width() * start.height();
    if cells <= 9 {
        return Ok(run(
            Algo::Idastar,
            Heuristic::Manhattan,
            &Limits::default(),
        )?);
    }
    let (w, h) = (start.width(), start.height());
    if cells > 16 {
        let (tw, th) = if cells > super::wastar::MAX_CELLS {
            (super::reduce::BLOCK, super::reduce::BLOCK)
        } else {
            (w, h)
        };
        let heur = if pdb_cached(tw, th) {
            Heuristic::Pdb
        } else {
            Heuristic::LinearConflict
        };
        return run(Algo::Wastar, heur, &Limits::default()).or_else(|_| fast());
    }
    if pdb_cached(w, h) {
        if let Ok(p) = run(Algo::Idastar, Heuristic::Pdb, &Limits::default()) {
            return Ok(p);
        }
    }
    let budget = Limits {
        max_nodes: Some(3_000_000),
        ..Limits::default()
    };
    run(Algo::Idastar, Heuristic::LinearConflict, &budget).or_else(|_| fast())
}

/// The screen point to click for blank move `dir`: the centre of the tile that slides into
/// the blank. Fails when that point is not inside the frame (the window's client area).
pub fn click_point(frame: &Frame, reading: &SlideReading, dir: Dir) -> Result<(i32, i32)> {
    run_click_point(frame, reading, dir, 1)
}

/// The screen point to click for `count` blank moves `dir` in a row: the centre of the
/// tile `count` cells from the blank, which a window that slides runs moves together with
/// the tiles between it and the blank.
pub fn run_click_point(
    frame: &Frame,
    reading: &SlideReading,
    dir: Dir,
    count: usize,
) -> Result<(i32, i32)> {
    let p = &reading.puzzle;
    let mut cell = p.blank();
    for _ in 0..count.max(1) {
        cell = step(cell, dir, p.width(), p.height()).ok_or(SlidePlayError::OffBoard(dir))?;
    }
    let (x, y) = reading.grid.center(Pos {
        row: cell / p.width(),
        col: cell % p.width(),
    });
    let (sx, sy) = frame.to_screen(x, y);
    if !frame.contains_screen(sx, sy) {
        return Err(SlidePlayError::OffWindow((sx, sy)));
    }
    Ok((sx, sy))
}

/// What the frames showed after a click.
enum After {
    /// The expected board.
    Done(Frame, SlideReading),
    /// Still the board from before the click.
    NoChange,
    /// Some other readable board.
    Other(Frame, SlideReading),
}

/// Reads a frame, reusing the last grid while it still gives a board (the grid inside the
/// client area does not move even when the window does) and finding it again otherwise.
fn read(
    frame: &Frame,
    grid: Option<&SlideReading>,
    tiles: &Tiles,
    cfg: &PlayConfig,
) -> std::result::Result<SlideReading, ScreenError> {
    if let Some(last) = grid {
        if let Ok(r) = read_with_grid(&frame.image, &last.grid, tiles, cfg.goal) {
            return Ok(r);
        }
    }
    read_slide(&frame.image, cfg.size, tiles, cfg.goal)
}

/// Plays until the board shows the goal. `say` receives one line per notable event (plan,
/// retries, re-solves) for the CLI to print.
///
/// Consecutive moves of the blank in one direction are made with one click on the far tile
/// of the run, which windows such as Simon Tatham's Fifteen and the bundled game slide
/// together with the tiles between it and the blank (`single_moves` turns this off). A
/// window that does not is recognised by the first such click moving nothing twice; the
/// player then goes on one tile a click.
pub fn play(
    source: &mut dyn FrameSource,
    clicker: &mut dyn Clicker,
    tiles: &Tiles,
    cfg: &PlayConfig,
    say: &mut dyn FnMut(&str),
) -> Result<PlayReport> {
    let clock = Instant::now();
    let mut report = PlayReport::default();
    let mut frame = source.frame().map_err(SlidePlayError::Capture)?;
    report.reads += 1;
    let mut reading = read(&frame, None, tiles, cfg).map_err(SlidePlayError::Read)?;
    report.read_micros += clock.elapsed().as_micros() as u64;
    report.start = reading.puzzle.tiles().to_vec();
    say(&format!(
        "read a {}x{} board ({:.1} px cells, worst match {:.3}):\n{}",
        reading.grid.rows, reading.grid.cols, reading.grid.pitch.0, reading.worst, reading.puzzle
    ));
    'solve: loop {
        if reading.puzzle.is_goal(cfg.goal) {
            report.solved = true;
            break;
        }
        let t = Instant::now();
        let plan = plan_moves(&reading.puzzle, cfg.goal)?;
        report.plan_micros += t.elapsed().as_micros() as u64;
        let solution = &plan.solution;
        let word = moves_to_string(&solution.moves);
        if report.plan.is_empty() {
            report.plan = word.clone();
            report.planner = plan.planner();
        }
        say(&format!(
            "plan ({}): {} moves {word} (tiles {:?})",
            plan.planner(),
            solution.moves.len(),
            solution.tiles_moved
        ));
        // Consecutive moves in one direction form a run the window may slide with one
        // click on the run's far tile. Whether it does is learnt from the first run click:
        // two that change nothing mean it does not (that run and every later one go tile by
        // tile).
        let moves = &solution.moves;
        let run_at = |i: usize, runs: Option<bool>| {
            if cfg.single_moves || runs == Some(false) {
                return 1;
            }
            moves[i..].iter().take_while(|&&d| d == moves[i]).count()
        };
        if cfg.dry_run {
            let mut p = reading.clone();
            let mut i = 0;
            while i < moves.len() {
                let (d, k) = (moves[i], run_at(i, None));
                let (x, y) = run_click_point(&frame, &p, d, k)?;
                let mut tiles = Vec::new();
                for _ in 0..k {
                    tiles.push(p.puzzle.apply(d).ok_or(SlidePlayError::OffBoard(d))?);
                }
                say(&format!(
                    "would click tile {} at ({x}, {y}) (moves {tiles:?})",
                    tiles[k - 1]
                ));
                i += k;
            }
            break;
        }
        let mut i = 0;
        while i < moves.len() {
            if clock.elapsed() > cfg.timeout {
                return Err(SlidePlayError::TimedOut {
                    secs: clock.elapsed().as_secs_f64(),
                    moves: report.moves_made,
                });
            }
            let (dir, k) = (moves[i], run_at(i, report.runs));
            let mut expected = reading.puzzle.clone();
            for _ in 0..k {
                expected.apply(dir).ok_or(SlidePlayError::OffBoard(dir))?;
            }
            let mut tries = 0;
            let after = loop {
                let (x, y) = run_click_point(&frame, &reading, dir, k)?;
                clicker.click(x, y)?;
                report.clicks += 1;
                let after = wait_for_change(source, &reading, &expected, tiles, cfg, &mut report)?;
                match after {
                    // A run click that moved nothing twice (once could be a lost click).
                    After::NoChange if k > 1 && report.runs.is_none() && tries >= 1 => {
                        break After::NoChange
                    }
                    After::NoChange if tries < cfg.retries => {
                        tries += 1;
                        report.retries += 1;
                        say(&format!("click at ({x}, {y}) showed no change: retrying"));
                        frame = source.frame().map_err(SlidePlayError::Capture)?;
                        report.reads += 1;
                    }
                    After::NoChange => {
                        return Err(SlidePlayError::NoChange {
                            at: (x, y),
                            tries: tries + 1,
                        })
                    }
                    other => break other,
                }
            };
            match after {
                After::Done(f, r) => {
                    frame = f;
                    reading = r;
                    report.moves_made += k as u32;
                    if k > 1 {
                        report.run_clicks += 1;
                        report.runs = Some(true);
                    }
                    i += k;
                }
                After::NoChange => {
                    // The first run click moved nothing, twice: this window slides one
                    // tile a click. The same moves are made again tile by tile.
                    report.runs = Some(false);
                    say("a click on the far tile of a run moved nothing: one tile a click from now on");
                    frame = source.frame().map_err(SlidePlayError::Capture)?;
                    report.reads += 1;
                }
                After::Other(f, r) => {
                    report.resolves += 1;
                    if report.resolves > cfg.max_resolves {
                        return Err(SlidePlayError::KeptDiffering {
                            resolves: cfg.max_resolves,
                            last: r.puzzle,
                        });
                    }
                    say(&format!(
                        "the board is not what was expected; solving again from:\n{}",
                        r.puzzle
                    ));
                    frame = f;
                    reading = r;
                    continue 'solve;
                }
            }
        }
    }
    report.millis = clock.elapsed().as_millis() as u64;
    Ok(report)
}

/// Polls frames until the board shows `expected`, or `cfg.settle` passes. Unreadable frames
/// (a tile mid-slide) are polled past; one still unreadable at the end is an error.
fn wait_for_change(
    source: &mut dyn FrameSource,
    before: &SlideReading,
    expected: &Puzzle,
    tiles: &Tiles,
    cfg: &PlayConfig,
    report: &mut PlayReport,
) -> Result<After> {
    let deadline = Instant::now() + cfg.settle;
    loop {
        let t = Instant::now();
        let frame = source.frame().map_err(SlidePlayError::Capture)?;
        report.reads += 1;
        let late = t >= deadline;
        let reading = read(&frame, Some(before), tiles, cfg);
        report.read_micros += t.elapsed().as_micros() as u64;
        match reading {
            Ok(r) if &r.puzzle == expected => return Ok(After::Done(frame, r)),
            Ok(r) if r.puzzle == before.puzzle => {
                if late {
                    return Ok(After::NoChange);
                }
            }
            Ok(r) => {
                if late {
                    return Ok(After::Other(frame, r));
                }
            }
            Err(e) => {
                if late {
                    return Err(SlidePlayError::Unreadable(e));
                }
            }
        }
        std::thread::sleep(Duration::from_millis(8));
    }
}

/// The player against the bundled game without a window: frames are drawn by the game's
/// own renderer and clicks go straight to its rules, so every reading and every retry path
/// runs as it would live.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::slide::{draw_game, picture, SlideConfig, SlideGame};
    use std::cell::RefCell;
    use std::rc::Rc;

    /// A simulated game window at screen offset (100, 50).
    struct Sim {
        game: Rc<RefCell<SlideGame>>,
        config: SlideConfig,
        art: Option<image::RgbaImage>,
    }

    impl FrameSource for Sim {
        fn frame(&mut self) -> std::result::Result<Frame, CaptureError> {
            let l = self.config.layout();
            Ok(Frame {
                image: draw_game(&l, &self.game.borrow(), self.art.as_ref()),
                origin: (100, 50),
            })
        }
    }

    /// Clicks straight into the simulated game, dropping every n-th click when given n
    /// (field 2); field 3 counts the clicks.
    struct SimClicker(Rc<RefCell<SlideGame>>, SlideConfig, Option<u32>, u32);

    impl Clicker for SimClicker {
        fn click(&mut self, x: i32, y: i32) -> std::result::Result<(), ClickError> {
            self.3 += 1;
            if self.2.is_some_and(|n| self.3.is_multiple_of(n)) {
                return Ok(());
            }
            let (px, py) = ((x - 100) as f32 + 0.5, (y - 50) as f32 + 0.5);
            let cell = self
                .1
                .layout()
                .grid()
                .cell_at(px, py)
                .map(|p| (p.row, p.col));
            self.0.borrow_mut().click(px, py, cell);
            Ok(())
        }
    }

    fn setup(config: SlideConfig, lose: Option<u32>) -> (Sim, SimClicker, Tiles) {
        let game = Rc::new(RefCell::new(SlideGame::new(&config).unwrap()));
        let art = config
            .picture
            .then(|| picture(&config.layout(), config.seed));
        let tiles = match &art {
            Some(a) => Tiles::Picture(a.clone()),
            None => Tiles::numbers(64),
        };
        let clicker = SimClicker(game.clone(), config.clone(), lose, 0);
        let sim = Sim { game, config, art };
        (sim, clicker, tiles)
    }

    fn fast_cfg() -> PlayConfig {
        PlayConfig {
            settle: Duration::from_millis(30),
            ..PlayConfig::default()
        }
    }

    /// Runs of moves in one direction are one click each on the bundled game (which slides
    /// runs): the same moves in fewer clicks; `single_moves` clicks once per tile; a window
    /// that moves only neighbours of the blank is detected and played tile by tile.
    #[test]
    fn runs_of_moves_take_one_click() {
        let config = SlideConfig {
            rows: 4,
            cols: 4,
            seed: 7,
            ..SlideConfig::default()
        };
        let (mut sim, mut clicker, tiles) = setup(config.clone(), None);
        let runs = play(&mut sim, &mut clicker, &tiles, &fast_cfg(), &mut |_| {}).unwrap();
        let g = sim.game.borrow().stats();
        assert!(runs.solved && sim.game.borrow().is_solved());
        assert_eq!((g.illegal, g.outside), (0, 0));
        assert_eq!(runs.moves_made, g.moves);
        assert_eq!(runs.clicks, g.clicks);
        assert_eq!(runs.runs, Some(true));
        assert!(
            runs.run_clicks > 0 && runs.clicks < runs.moves_made,
            "{runs:?}"
        );

        let (mut sim, mut clicker, tiles) = setup(config.clone(), None);
        let cfg = PlayConfig {
            single_moves: true,
            ..fast_cfg()
        };
        let single = play(&mut sim, &mut clicker, &tiles, &cfg, &mut |_| {}).unwrap();
        assert!(single.solved);
        assert_eq!(single.plan, runs.plan, "the same solution");
        assert_eq!(single.clicks, single.moves_made);
        assert_eq!((single.run_clicks, single.runs), (0, None));

        // A window that slides only the blank's neighbours: far clicks do nothing.
        struct NeighboursOnly(SimClicker);
        impl Clicker for NeighboursOnly {
            fn click(&mut self, x: i32, y: i32) -> std::result::Result<(), ClickError> {
                let (px, py) = ((x - 100) as f32 + 0.5, (y - 50) as f32 + 0.5);
                let cell = self.0 .1.layout().grid().cell_at(px, py);
                let g = self.0 .0.borrow();
                let p = g.puzzle();
                let blank = p.blank();
                let (br, bc) = (blank / p.width(), blank % p.width());
                let near = cell.is_some_and(|c| c.row.abs_diff(br) + c.col.abs_diff(bc) == 1);
                drop(g);
                if near {
                    self.0.click(x, y)?;
                }
                Ok(())
            }
        }
        let (mut sim, clicker, tiles) = setup(config, None);
        let mut clicker = NeighboursOnly(clicker);
        let slow = play(&mut sim, &mut clicker, &tiles, &fast_cfg(), &mut |_| {}).unwrap();
        assert!(slow.solved && sim.game.borrow().is_solved());
        assert_eq!(slow.runs, Some(false));
        assert_eq!(slow.run_clicks, 0);
        assert_eq!(
            slow.clicks,
            slow.moves_made + 2,
            "two far clicks, then tile by tile"
        );
    }

    #[test]
    fn reads_rendered_boards_exactly() {
        for (rows, picture, tile) in [(3, false, 72), (4, false, 48), (3, true, 72), (4, true, 60)]
        {
            for seed in 0..6 {
                let config = SlideConfig {
                    rows,
                    cols: rows,
                    seed,
                    picture,
                    tile,
                    ..SlideConfig::default()
                };
                let (mut sim, _, tiles) = setup(config, None);
                let frame = sim.frame().unwrap();
                let truth = sim.config.layout().grid();
                let g = crate::slide::screen::find_slide_grid(&frame.image, Some((rows, rows)))
                    .unwrap();
                // Every cell centre the player would click lies well inside its tile.
                let off = (0..rows)
                    .map(|k| {
                        let c = |o: f32, p: f32| o + (k as f32 + 0.5) * p;
                        (c(g.origin.0, g.pitch.0) - c(truth.origin.0, truth.pitch.0))
                            .abs()
                            .max(
                                (c(g.origin.1, g.pitch.1) - c(truth.origin.1, truth.pitch.1)).abs(),
                            )
                    })
                    .fold(0f32, f32::max);
                assert!(
                    off < 0.1 * truth.pitch.0,
                    "{rows}x{rows} picture={picture} seed {seed}: grid {g:?}, truth {truth:?}"
                );
                let r = read_slide(&frame.image, Some((rows, rows)), &tiles, Goal::BlankLast)
                    .unwrap_or_else(|e| {
                        panic!(
                            "{rows}x{rows} picture={picture} seed {seed}: {}",
                            crate::error::Chain(&e)
                        )
                    });
                assert_eq!(&r.puzzle, sim.game.borrow().puzzle(), "seed {seed}");
            }
        }
    }

    #[test]
    fn solves_numbers_and_pictures_and_survives_lost_clicks() {
        let cases = [
            (3, false, None, Goal::BlankLast),
            (4, false, Some(4), Goal::BlankLast),
            (3, true, Some(3), Goal::BlankLast),
            (3, false, Some(5), Goal::BlankFirst),
            (3, true, None, Goal::BlankFirst),
        ];
        for (rows, picture, lose, goal) in cases {
            let config = SlideConfig {
                rows,
                cols: rows,
                seed: 7,
                picture,
                goal,
                ..SlideConfig::default()
            };
            let (mut sim, mut clicker, tiles) = setup(config, lose);
            // No size given: the player finds the board's size itself.
            let cfg = PlayConfig { goal, ..fast_cfg() };
            let report = play(&mut sim, &mut clicker, &tiles, &cfg, &mut |_| {}).unwrap();
            let g = sim.game.borrow();
            let case = format!("{rows}x{rows} picture={picture} {goal:?}");
            assert!(report.solved && g.is_solved(), "{case}");
            assert_eq!(g.stats().illegal, 0, "{case}");
            assert_eq!(g.stats().outside, 0, "{case}");
            assert_eq!(report.moves_made, g.stats().moves, "{case}");
            assert_eq!(report.retries > 0, lose.is_some(), "{case}");
        }
    }

    #[test]
    fn a_tile_mid_slide_is_never_read_as_moved() {
        use crate::game::slide::{draw_moving, Motion};
        let config = SlideConfig {
            seed: 4,
            ..SlideConfig::default()
        };
        let (sim, mut clicker, tiles) = setup(config.clone(), None);
        let before = sim.game.borrow().puzzle().clone();
        let b = before.blank();
        let from = Dir::ALL.into_iter().find_map(|d| step(b, d, 3, 3)).unwrap();
        let c = config.layout().grid().center(Pos {
            row: from / 3,
            col: from % 3,
        });
        clicker.click(100 + c.0 as i32, 50 + c.1 as i32).unwrap();
        let after = sim.game.borrow().puzzle().clone();
        assert_ne!(after, before);
        for t in [0.25, 0.5, 0.75] {
            let img = draw_moving(
                &config.layout(),
                &sim.game.borrow(),
                None,
                Some(Motion { from, to: b, t }),
            );
            if let Ok(r) = read_slide(&img, Some((3, 3)), &tiles, Goal::BlankLast) {
                assert_ne!(r.puzzle, after, "t = {t}: a half-moved tile read as moved");
            }
        }
    }

    #[test]
    fn digits_read_whatever_the_tile_colour() {
        // Swap the colour channels and darken: another game's palette, same shapes.
        let config = SlideConfig {
            rows: 4,
            cols: 4,
            seed: 9,
            tile: 40,
            ..SlideConfig::default()
        };
        let (mut sim, _, tiles) = setup(config, None);
        let mut frame = sim.frame().unwrap();
        for p in frame.image.pixels_mut() {
            let [r, g, b, a] = p.0;
            p.0 = [b / 2 + 20, r / 2, g / 2 + 40, a];
        }
        let r = read_slide(&frame.image, Some((4, 4)), &tiles, Goal::BlankLast).unwrap();
        assert_eq!(&r.puzzle, sim.game.borrow().puzzle());
    }

    #[test]
    fn a_surprise_move_is_re_read_and_re_solved() {
        let config = SlideConfig {
            seed: 3,
            ..SlideConfig::default()
        };
        let (mut sim, clicker, tiles) = setup(config, None);
        // A clicker that, on its 2nd click, also makes a user's move first.
        struct Meddler(SimClicker, u32);
        impl Clicker for Meddler {
            fn click(&mut self, x: i32, y: i32) -> std::result::Result<(), ClickError> {
                self.1 += 1;
                if self.1 == 2 {
                    let mut g = self.0 .0.borrow_mut();
                    let p = g.puzzle().clone();
                    let b = p.blank();
                    let (w, h) = (p.width(), p.height());
                    let other = Dir::ALL.into_iter().find_map(|d| step(b, d, w, h)).unwrap();
                    g.click(0.0, 0.0, Some((other / w, other % w)));
                }
                self.0.click(x, y)
            }
        }
        let mut m = Meddler(clicker, 0);
        let report = play(&mut sim, &mut m, &tiles, &fast_cfg(), &mut |_| {}).unwrap();
        assert!(sim.game.borrow().is_solved());
        assert!(report.resolves >= 1, "{report:?}");
    }

    #[test]
    fn dry_run_clicks_nothing_and_unsolvable_boards_are_refused() {
        let config = SlideConfig::default();
        let (mut sim, mut clicker, tiles) = setup(config, None);
        let cfg = PlayConfig {
            dry_run: true,
            ..fast_cfg()
        };
        let mut lines = Vec::new();
        let r = play(&mut sim, &mut clicker, &tiles, &cfg, &mut |l| {
            lines.push(l.to_string())
        })
        .unwrap();
        assert_eq!(clicker.3, 0);
        assert!(!r.solved && !r.plan.is_empty());
        assert!(lines.iter().any(|l| l.starts_with("would click")));
        // Swapping two tiles flips the parity.
        let p = Puzzle::parse("2 1 3 4 5 6 7 8 0", None).unwrap();
        let err = plan_moves(&p, Goal::BlankLast).unwrap_err().to_string();
        assert!(err.contains("parity"), "{err}");
    }

    /// A 5×5 and a 7×7 window are planned with `wastar` (the tables when cached, linear
    /// conflicts otherwise): the plan reaches the goal and is shorter than the row-and-column
    /// reduction's.
    #[test]
    fn boards_over_4x4_are_planned_by_wastar() {
        for (side, seed) in [(5, 2), (7, 3)] {
            let p = Puzzle::random(side, side, Goal::BlankLast, seed).unwrap();
            let plan = plan_moves(&p, Goal::BlankLast).unwrap();
            assert_eq!(plan.algo, Algo::Wastar);
            assert!(plan.planner().starts_with("wastar:"), "{}", plan.planner());
            let plan = plan.solution;
            let mut q = p.clone();
            q.apply_all(&plan.moves).unwrap();
            assert!(q.is_goal(Goal::BlankLast));
            let fast = solve(
                &p,
                &Goal::BlankLast,
                Algo::Fast,
                Heuristic::Zero,
                &Limits::default(),
            )
            .unwrap();
            assert!(plan.moves.len() < fast.moves.len(), "{side}x{side}");
            assert!(plan.nodes > 0, "wastar searched");
        }
    }
}
