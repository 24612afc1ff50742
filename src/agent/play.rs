//! The play loop: capture, read, plan, click, verify, and re-plan whenever the screen
//! disagrees with the plan.
//!
//! The screen is the only truth. The loop clicks only on a confident reading (a board with
//! no unsure cell and pairs of every type); a frame that shows no board, or something other
//! than Lianliankan, gets no click. After each click pair it polls frames until the board
//! reads as predicted (next move), or as some other board with two tiles fewer (a reshuffle
//! or gravity surprise: re-plan from what is shown), or until the pixels say a click was lost
//! (only one tile highlighted, or none: click the missing one again). Clicks that remove
//! nothing twice in a row stop the loop: the board is probably misread, and a third try
//! would click the user's game at random. It never clicks outside the window's client
//! rectangle or the board, and re-reads the window position before every move because
//! windows move. Unless the gravity is given, it is found from the first removals
//! ([`GravityWatch`]).

use super::gravity_watch::{GravityWatch, Observation};
use super::record::{Entry, RecordError, SessionWriter, Timings};
use super::stages::{Brain, Eyes};
use super::verify::{link_drawn, reaction, Reaction};
use crate::board::{cell_list, removable_pairs, Board, Cell, Gravity, Link, Pos, Rules};
use crate::capture::{CaptureError, Frame, FrameSource};
use crate::error::Chain;
use crate::geometry::{Grid, Side};
use crate::input::{ClickError, Clicker, Pace};
use crate::plan::Outcome;
use crate::vision::{is_sure, ReadError, Reading};
use image::RgbaImage;
use indicatif::ProgressBar;
use std::fmt;
use std::thread::sleep;
use std::time::{Duration, Instant};

/// How long a board other than the predicted one must read the same before the loop
/// re-plans from it.
const STEADY: Duration = Duration::from_millis(120);

/// Readings, 300 ms apart, that may show no removable pair before the loop stops: the
/// time a game gets to change such a board (a reshuffle).
const NO_MOVE_PATIENCE: u32 = 4;

/// How the loop plays.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    /// The rules; with `find_gravity`, `rules.gravity` is only the first guess.
    pub rules: Rules,
    /// Find the gravity from the first removals instead of trusting `rules.gravity`.
    pub find_gravity: bool,
    /// Stop after this many moves.
    pub max_moves: Option<usize>,
    /// Stop after this long in any case.
    pub timeout: Duration,
    /// How long a move may take to show before the loop gives up on it and re-reads; also
    /// how long the loop waits for a confident reading.
    pub verify_timeout: Duration,
    /// With no visible reaction after this long, the clicks are taken as lost and retried.
    pub retry_after: Duration,
    /// Click tries in a row that remove nothing before the loop stops.
    pub max_strikes: u32,
    /// Pause between polling captures.
    pub poll: Duration,
    /// Read and plan once, click nothing.
    pub dry_run: bool,
    /// A grid learnt in an earlier session (a saved profile) and the client-area size it
    /// was learnt at: tried before looking for the board, on a frame of that size only.
    pub known_grid: Option<(Grid, (u32, u32))>,
}

impl Default for PlayOptions {
    fn default() -> Self {
        PlayOptions {
            rules: Rules::default(),
            find_gravity: false,
            max_moves: None,
            timeout: Duration::from_secs(600),
            verify_timeout: Duration::from_secs(3),
            retry_after: Duration::from_millis(400),
            max_strikes: 2,
            poll: Duration::from_millis(5),
            dry_run: false,
            known_grid: None,
        }
    }
}

/// Why the loop stopped without an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The board is clear.
    Cleared,
    /// `max_moves` moves were made.
    MaxMoves,
    /// `timeout` passed.
    Timeout,
    /// Read and planned only.
    DryRun,
    /// No confident Lianliankan reading (why): nothing was clicked on it.
    Unreadable(String),
    /// Tiles are left, no pair on the board as read can be removed, and the game did not
    /// change the board.
    NoMoves {
        /// Tiles on the board as read.
        tiles_left: usize,
        /// Why no pair can be removed, from the planner's outcome.
        why: String,
    },
    /// Clicks of planned moves removed nothing, `max_strikes` tries in a row.
    NoEffect(String),
}

impl Stop {
    /// A short word for logs.
    pub fn word(&self) -> String {
        match self {
            Stop::Cleared => "cleared".into(),
            Stop::MaxMoves => "max-moves".into(),
            Stop::Timeout => "timeout".into(),
            Stop::DryRun => "dry-run".into(),
            Stop::Unreadable(why) => format!("unreadable: {why}"),
            Stop::NoMoves { tiles_left, why } => {
                format!("no-moves: {tiles_left} tiles left: {why}")
            }
            Stop::NoEffect(why) => format!("no-effect: {why}"),
        }
    }
}

/// What a session did.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Why the loop stopped.
    pub stop: Stop,
    /// Moves whose removal was seen on screen.
    pub moves: usize,
    /// Pairs gone since the first reading.
    pub pairs_cleared: usize,
    /// Pairs on the board at the first reading.
    pub total_pairs: usize,
    /// Retries of lost clicks.
    pub retries: usize,
    /// Times the screen disagreed with the plan and the loop re-planned.
    pub replans: usize,
    /// The gravity played with: given, found, or still being found.
    pub gravity: GravityWatch,
    /// Where the session's time went, µs.
    pub timings: Timings,
    /// How the clicks were paced (live clickers).
    pub pace: Option<Pace>,
    /// The first good reading and its frame, with the first plan (for `--dry-run` and the
    /// demo's annotated PNG). `None` when no board was ever read.
    pub first: Option<(Frame, Reading, Vec<Link>)>,
    /// The grid the session was locked on at the end (what a profile saves).
    pub grid: Option<Grid>,
}

impl Summary {
    /// Pairs removed per second of the whole session.
    pub fn pairs_per_second(&self) -> f64 {
        let s = self.timings.total as f64 / 1e6;
        if s > 0.0 {
            self.moves as f64 / s
        } else {
            0.0
        }
    }

    /// The bot's own time per removed pair, µs: capturing, reading, planning and clicking
    /// (the button holds and gaps included); `None` before the first removal.
    pub fn own_micros_per_pair(&self) -> Option<u64> {
        let t = &self.timings;
        (self.moves > 0).then(|| (t.capture + t.read + t.plan + t.click) / self.moves as u64)
    }

    /// Time per removed pair spent waiting for the game (its animation, its reaction), µs.
    pub fn game_micros_per_pair(&self) -> Option<u64> {
        (self.moves > 0).then(|| self.timings.wait / self.moves as u64)
    }
}

/// What stopped the play loop with an error.
#[derive(Debug, thiserror::Error)]
pub enum PlayFault {
    /// No frame to be had: the window vanished, the recording ended.
    #[error(transparent)]
    Capture(#[from] CaptureError),
    /// A click failed, or the user took the mouse back.
    #[error(transparent)]
    Click(#[from] ClickError),
    /// The session could not be recorded.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// A cell's centre lies outside the window's client area (never clicked).
    #[error(
        "refusing to click cell {cell} at screen ({}, {}): outside the window's client area at ({}, {}) {}x{}",
        at.0, at.1, origin.0, origin.1, size.0, size.1
    )]
    OffWindow {
        /// The cell.
        cell: Pos,
        /// Its centre on the screen, pixels.
        at: (i32, i32),
        /// The client area's top-left corner on the screen, pixels.
        origin: (i32, i32),
        /// The client area's width and height, pixels.
        size: (u32, u32),
    },
}

type Result<T> = std::result::Result<T, PlayFault>;

/// What the eyes made of one frame: a reading, or why there is none.
type Look = std::result::Result<Reading, ReadError>;

/// Play stopped on an error (the window vanished, the user took the mouse, a click would
/// have left the window), with what had been done until then.
#[derive(Debug)]
pub struct PlayError {
    /// What stopped the loop.
    pub cause: PlayFault,
    /// What the loop had done until then.
    pub summary: Box<Summary>,
}

impl fmt::Display for PlayError {
    /// The cause with its own causes, then the progress: "user took control (after 3
    /// moves, 3/24 pairs cleared)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.summary;
        write!(
            f,
            "{} (after {} moves, {}/{} pairs cleared)",
            Chain(&self.cause),
            s.moves,
            s.pairs_cleared,
            s.total_pairs
        )
    }
}

impl std::error::Error for PlayError {}

/// The loop's stages and state.
pub struct Player<'a> {
    /// Where frames come from.
    pub source: &'a mut dyn FrameSource,
    /// Where clicks go.
    pub clicker: &'a mut dyn Clicker,
    /// Frame → board.
    pub eyes: &'a mut dyn Eyes,
    /// Board → moves.
    pub brain: &'a mut dyn Brain,
    /// Records every frame and decision when given.
    pub recorder: Option<&'a mut SessionWriter>,
    /// Shows the pairs cleared (hidden in tests and examples).
    pub progress: ProgressBar,
    /// Told what the loop finds on the way ("gravity: down (found after 2 removals)").
    pub notes: &'a mut dyn FnMut(&str),
    /// How the loop plays: rules, limits, timings.
    pub options: PlayOptions,
}

/// How one move turned out.
enum Verified {
    /// Two tiles fewer, as one gravity candidate predicted; `current` when it was the
    /// prediction of the mode the plan was made under.
    Removed { shot: Shot, current: bool },
    /// A different board, two tiles fewer: re-plan from it.
    Changed(Shot),
    /// The screen is not what the move was planned on (a moved or redrawn window), or the
    /// game's reaction was unclear: re-read before clicking.
    Stale,
    /// Clicks removed nothing, `max_strikes` tries in a row: why.
    NoEffect(String),
}

/// A frame, its index in the recording, and its reading.
struct Shot {
    frame: Frame,
    index: usize,
    seen: Reading,
}

struct Run<'p, 'a> {
    p: &'p mut Player<'a>,
    s: Summary,
    t: Timings,
    start: Instant,
    grid: Option<Grid>,
    /// The size of the frame the grid was locked on: a window of another size has laid
    /// its board out anew.
    lock_size: Option<(u32, u32)>,
    /// The most tiles of one type seen on the locked board ([`Run::grow_lock`]).
    widest_type: usize,
    frames: usize,
    /// Click tries in a row that removed nothing.
    strikes: u32,
    /// Whether the bot has clicked yet (a selection seen before that is the user's).
    clicked: bool,
    /// Whether the pointer was moved off the board to tell a hover from a selection.
    parked: bool,
    /// The last pair clicked would leave the board clear, but no frame showed it yet: games
    /// cover a won board with their own end screen, so a board that can no longer be read
    /// after it is a cleared one.
    last_pair_pending: bool,
    /// Tiles left on the board the last move leaves (the last move of a deal no order
    /// clears), when no two of them can be linked: games cover a deadlocked board with
    /// their own message too, so a board that can no longer be read after it is the deal's
    /// end with these tiles left.
    dead_end_pending: Option<usize>,
    /// The last frame read, the grid it was read on and what it gave: a game at rest shows
    /// the same pixels poll after poll, and the same pixels read the same.
    last_read: Option<(RgbaImage, Option<Grid>, Look)>,
    /// The last board the bot planned on or saw a move leave. A game only takes tiles
    /// away, so a reading on the locked grid with more tiles than this one is a misreading
    /// (a reader taking emptied cells for a new type of tiles) and is not acted on.
    played: Option<Board>,
}

impl Player<'_> {
    /// Plays until the board is clear, a limit is reached, or no progress is possible.
    /// Errors are for what must stop the bot at once: the window vanished, the user took
    /// the mouse, a click would have left the window; they carry the moves made so far.
    ///
    /// A dry run on a rendered board: the loop reads the frames until the board holds
    /// still, plans, and stops before clicking (`llk play --dry-run`).
    ///
    /// ```
    /// use llk::agent::pipeline::{Planner, Vision};
    /// use llk::agent::{PlayOptions, Player, Stop};
    /// use llk::capture::{Frame, VecSource};
    /// use llk::input::DryRun;
    /// use llk::plan::{generate, GenSpec};
    /// use llk::render::{render_board, RenderSpec};
    ///
    /// let board = generate(&GenSpec::full(6, 8, 4, 7)).unwrap();
    /// let shot = render_board(&board, &RenderSpec::default());
    /// let frame = Frame { image: shot.image, origin: (0, 0) };
    /// let mut source = VecSource::new(vec![frame; 4]);
    /// let mut clicker = DryRun::default();
    /// let summary = Player {
    ///     source: &mut source,
    ///     clicker: &mut clicker,
    ///     eyes: &mut Vision::default(),
    ///     brain: &mut Planner::default(),
    ///     recorder: None,
    ///     progress: indicatif::ProgressBar::hidden(),
    ///     notes: &mut |_| {},
    ///     options: PlayOptions { dry_run: true, ..PlayOptions::default() },
    /// }
    /// .play()
    /// .unwrap();
    /// assert_eq!(summary.stop, Stop::DryRun);
    /// assert_eq!(clicker.count, 0);
    /// let (_, seen, moves) = summary.first.unwrap();
    /// assert!(seen.board.same_up_to_renaming(&board)); // read exactly (types named anew)
    /// assert_eq!(moves.len(), board.tile_count() / 2); // a plan that clears it
    /// ```
    pub fn play(&mut self) -> std::result::Result<Summary, PlayError> {
        let gravity = if self.options.find_gravity {
            GravityWatch::auto_first(self.options.rules.gravity)
        } else {
            GravityWatch::given(self.options.rules.gravity)
        };
        let mut run = Run {
            p: self,
            s: Summary {
                stop: Stop::Timeout,
                moves: 0,
                pairs_cleared: 0,
                total_pairs: 0,
                retries: 0,
                replans: 0,
                gravity,
                timings: Timings::default(),
                pace: None,
                first: None,
                grid: None,
            },
            t: Timings::default(),
            start: Instant::now(),
            grid: None,
            lock_size: None,
            widest_type: 0,
            frames: 0,
            strikes: 0,
            clicked: false,
            parked: false,
            last_pair_pending: false,
            dead_end_pending: None,
            last_read: None,
            played: None,
        };
        let out = run.main();
        run.t.total = run.start.elapsed().as_micros() as u64;
        let t = &mut run.t;
        t.wait = t
            .total
            .saturating_sub(t.capture + t.read + t.plan + t.click + t.record);
        run.s.timings = run.t;
        run.s.pace = run.p.clicker.pace();
        run.s.grid = run.grid;
        let reason = match &out {
            Ok(stop) => stop.word(),
            Err(e) => format!("error: {}", Chain(e)),
        };
        let end = Entry::End {
            reason,
            moves: run.s.moves,
            pairs_cleared: run.s.pairs_cleared,
            timings: run.t,
        };
        let logged = match run.p.recorder.as_deref_mut() {
            Some(rec) => rec.entry(&end).map_err(PlayFault::from),
            None => Ok(()),
        };
        let stop = match (out, logged) {
            (Ok(stop), Ok(())) => stop,
            // The play error is what the caller must see; the log is best effort then.
            (Err(cause), _) | (Ok(_), Err(cause)) => {
                run.p.progress.abandon();
                return Err(PlayError {
                    cause,
                    summary: Box::new(run.s),
                });
            }
        };
        run.s.stop = stop;
        run.p.progress.finish();
        Ok(run.s)
    }
}

fn micros(since: Instant) -> u64 {
    since.elapsed().as_micros() as u64
}

impl Run<'_, '_> {
    fn record(&mut self, e: &Entry) -> Result<()> {
        if let Some(rec) = self.p.recorder.as_deref_mut() {
            let t0 = Instant::now();
            rec.entry(e)?;
            self.t.record += micros(t0);
        }
        Ok(())
    }

    fn note(&mut self, text: &str) {
        (self.p.notes)(text);
    }

    /// Captures a frame (and records it). Stops first when the user has taken the mouse,
    /// so every wait of the loop notices it, not only the next click.
    fn capture(&mut self) -> Result<(Frame, usize)> {
        self.p.clicker.in_control()?;
        let t0 = Instant::now();
        let frame = self.p.source.frame()?;
        self.t.capture += micros(t0);
        let mut index = self.frames;
        self.frames += 1;
        if let Some(rec) = self.p.recorder.as_deref_mut() {
            let t0 = Instant::now();
            index = rec.frame(&frame, self.start.elapsed().as_millis() as u64)?;
            self.t.record += micros(t0);
        }
        Ok((frame, index))
    }

    /// Reads a frame with the locked grid when there is one (and records the reading).
    fn read(&mut self, frame: &Frame, index: usize) -> Result<Look> {
        self.read_on(frame, index, self.grid)
    }

    /// Reads a frame on `grid`, or finds the grid when it is `None` (and records the
    /// reading).
    fn read_on(&mut self, frame: &Frame, index: usize, grid: Option<Grid>) -> Result<Look> {
        let t0 = Instant::now();
        let seen = match &self.last_read {
            Some((img, g, seen)) if *g == grid && *img == frame.image => seen.clone(),
            _ => {
                let seen = self.p.eyes.read(&frame.image, grid.as_ref());
                self.last_read = Some((frame.image.clone(), grid, seen.clone()));
                seen
            }
        };
        let us = micros(t0);
        self.t.read += us;
        let entry = match &seen {
            Ok(s) => Entry::Read {
                frame: index,
                locked: grid.is_some(),
                grid: s.grid,
                board: s.board.row_strings(),
                unsure: s.unsure.clone(),
                micros: us,
            },
            Err(b) => Entry::Blind {
                frame: index,
                locked: grid.is_some(),
                animation: matches!(b, ReadError::Animation(_)),
                message: b.to_string(),
                grid,
            },
        };
        self.record(&entry)?;
        let mut seen = seen;
        if let Ok(s) = &mut seen {
            if grid.is_some() && grid == self.grid {
                self.doubt_the_impossible(s);
            }
        }
        Ok(seen)
    }

    /// How many tiles the board had when the bot last saw it with confidence, when `board`
    /// shows more: tiles never come back in a game (removals, gravity and reshuffles keep
    /// or lower the count), so such a reading cannot be right.
    fn returned_tiles(&self, board: &Board) -> Option<usize> {
        let had = self.played.as_ref()?.tile_count();
        (board.tile_count() > had).then_some(had)
    }

    /// The board last played, when it has `board`'s size (cell by cell comparable).
    fn played_like(&self, board: &Board) -> Option<&Board> {
        self.played
            .as_ref()
            .filter(|p| p.rows() == board.rows() && p.cols() == board.cols())
    }

    /// Cells `board` reads as obstacles where the board last played (of the same size) had
    /// none: obstacles never appear or move in a game (removals, gravity and reshuffles move
    /// tiles only), so such a reading is wrong there (a pair tinted while it goes, read as
    /// two stones).
    fn new_obstacles(&self, board: &Board) -> Vec<Pos> {
        let Some(played) = self.played_like(board) else {
            return Vec::new();
        };
        board
            .positions()
            .filter(|&p| board.get(p) == Cell::Obstacle && played.get(p) != Cell::Obstacle)
            .collect()
    }

    /// Cells whose occupancy `board` reads otherwise than the board last played (of the
    /// same size) when it holds exactly as many tiles: tiles only move when a pair goes
    /// (gravity), which leaves two fewer, so such a reading is wrong there (emptied cells
    /// read as a new pair where the removed pair's cells read empty).
    fn moved_tiles(&self, board: &Board) -> Vec<Pos> {
        let Some(played) = self
            .played_like(board)
            .filter(|p| p.tile_count() == board.tile_count())
        else {
            return Vec::new();
        };
        board
            .positions()
            .filter(|&p| board.get(p).is_tile() != played.get(p).is_tile())
            .collect()
    }

    /// Empties the cells `seen` doubts where the board last played (of the same size) was
    /// empty. Obstacles never appear, and no tile can reach such a cell: a game's board at
    /// rest is packed the way its gravity pulls (with none, tiles never move), so the cells
    /// beyond an empty one on that side are empty too, and removals, falls and reshuffles
    /// move tiles only onto cells that held tiles. What the reader doubted there is the
    /// ground showing something it does not know: a photo's leaf or branch, or a neighbour's
    /// 3-D side and shadow over a photo, read as a stone or as one more tile of a type. When
    /// the reading is then the board last played itself, it confirms that board, and the
    /// doubts left (the type such a picture made odd) go too.
    fn empty_stays_empty(&self, seen: &mut Reading) {
        let Some(played) = self.played_like(&seen.board) else {
            return;
        };
        let emptied: Vec<Pos> = seen
            .unsure
            .iter()
            .copied()
            .filter(|&p| seen.board.get(p) != Cell::Empty && played.get(p) == Cell::Empty)
            .collect();
        for p in &emptied {
            seen.board.set(*p, Cell::Empty);
        }
        seen.unsure.retain(|p| !emptied.contains(p));
        if !emptied.is_empty() && seen.board.same_up_to_renaming(played) {
            seen.unsure.clear();
        }
    }

    /// Marks what a reading on the locked grid cannot show as unsure, so the loop waits,
    /// looks again and at worst stops, and never clicks it: more tiles than the board last
    /// played (on the cells that hold a tile now and did not then, every tile when the
    /// boards differ in size), obstacles where it had none, and as many tiles on other
    /// cells; first, doubted cells that were empty are emptied ([`Self::empty_stays_empty`]).
    /// The recorded reading stays the reader's own.
    fn doubt_the_impossible(&self, seen: &mut Reading) {
        self.empty_stays_empty(seen);
        let mut doubted = self.new_obstacles(&seen.board);
        doubted.extend(self.moved_tiles(&seen.board));
        if let Some(played) = self
            .played
            .as_ref()
            .filter(|_| self.returned_tiles(&seen.board).is_some())
        {
            let same_size = self.played_like(&seen.board).is_some();
            let mut new: Vec<Pos> = seen
                .board
                .tiles()
                .map(|(p, _)| p)
                .filter(|&p| !same_size || !played.get(p).is_tile())
                .collect();
            if new.is_empty() {
                new = seen.board.tiles().map(|(p, _)| p).collect();
            }
            doubted.extend(new);
        }
        for p in doubted {
            if !seen.unsure.contains(&p) {
                seen.unsure.push(p);
            }
        }
    }

    /// Makes `shot`'s board the board played, and, on the locked grid, tells the eyes its
    /// empty cells show the ground there (and records that, for a replay to do the same).
    /// The reading cached for the last frame is dropped: the same pixels may read otherwise
    /// now.
    fn adopt(&mut self, shot: &Shot) -> Result<()> {
        self.played = Some(shot.seen.board.clone());
        let grid = shot.seen.grid;
        if self.grid == Some(grid) {
            self.p
                .eyes
                .ground_seen(&shot.frame.image, &grid, &shot.seen.board);
            self.last_read = None;
            self.record(&Entry::Ground {
                frame: shot.index,
                grid,
                board: shot.seen.board.row_strings(),
            })?;
        }
        Ok(())
    }

    fn over_time(&self) -> bool {
        self.start.elapsed() >= self.p.options.timeout
    }

    /// Captures until a reading is confident: no animation, nothing unsure, an even count
    /// of every type. Gives up after `verify_timeout` with the last reason; an unconfident
    /// reading is never used.
    ///
    /// A locked grid is dropped when the board is found elsewhere on screen: at once when
    /// the window has another size than the grid was locked at (a game scales its board to
    /// its window), and after half the patience of readings on the grid that are not
    /// confident (the board moved inside the window). The shot returned then has no grid
    /// locked, and the loop locks the new one as at the start of a game.
    fn settled_read(&mut self) -> Result<std::result::Result<Shot, String>> {
        let t0 = Instant::now();
        let patience = self.p.options.verify_timeout;
        let mut why = String::from("no frame read yet");
        while t0.elapsed() < patience && !self.over_time() {
            let (frame, index) = self.capture()?;
            let pause = self.p.options.poll.max(Duration::from_millis(20));
            let (w, h) = frame.image.dimensions();
            if self.grid.is_some() && self.lock_size != Some((w, h)) {
                if let Some(shot) = self.relock(frame, index, true)? {
                    return Ok(Ok(shot));
                }
                why = format!("the window is {w}x{h} now, and the board is not found on it");
                sleep(pause);
                continue;
            }
            match self.read(&frame, index)? {
                Ok(seen) => match seen.board.check_even() {
                    Ok(()) if is_sure(&seen) => {
                        return Ok(Ok(Shot { frame, index, seen }));
                    }
                    Ok(()) => {
                        let (appeared, moved) = match self.grid {
                            Some(_) => (
                                self.new_obstacles(&seen.board),
                                self.moved_tiles(&seen.board),
                            ),
                            None => (Vec::new(), Vec::new()),
                        };
                        why = match self.grid.and(self.returned_tiles(&seen.board)) {
                            Some(had) => format!(
                                "the board reads with {} tiles, more than the {had} it had: \
                                 tiles never come back in a game, so the reading is wrong",
                                seen.board.tile_count()
                            ),
                            None if !appeared.is_empty() => format!(
                                "the board reads with obstacles at {} where it had none: \
                                 obstacles never appear in a game, so the reading is wrong",
                                cell_list(&appeared)
                            ),
                            None if !moved.is_empty() => format!(
                                "the board reads with its {} tiles on other cells ({}): \
                                 tiles only move when a pair goes, so the reading is wrong",
                                seen.board.tile_count(),
                                cell_list(&moved)
                            ),
                            None => format!(
                                "the reader is unsure of {} cells ({})",
                                seen.unsure.len(),
                                cell_list(&seen.unsure)
                            ),
                        };
                    }
                    Err(e) => why = format!("the board as read cannot be right: {e}"),
                },
                Err(b) => why = b.to_string(),
            }
            if self.grid.is_some() && t0.elapsed() >= patience / 2 {
                if let Some(shot) = self.relock(frame, index, false)? {
                    return Ok(Ok(shot));
                }
            }
            sleep(pause);
        }
        Ok(Err(why))
    }

    /// Looks for the board on `frame` without the locked grid, and drops the lock when it
    /// is found with confidence on another lattice (another pitch, or cells off the locked
    /// ones by more than a quarter pitch), or on a window of another size (`resized`).
    /// Returns the reading, to be confirmed by the next one as a game's first is.
    fn relock(&mut self, frame: Frame, index: usize, resized: bool) -> Result<Option<Shot>> {
        let Some(old) = self.grid else {
            return Ok(None);
        };
        let seen = match self.read_on(&frame, index, None)? {
            Ok(seen) if is_sure(&seen) => seen,
            _ => return Ok(None),
        };
        if !resized && same_lattice(&old, &seen.grid) {
            // The board is where the lock says, but the lattice the frame shows sits a
            // pixel or more off the locked one (a grid locked from an early frame): the
            // lock moves onto it, keeping its extent, and the next reading on it decides.
            if let Some(moved) = nudged(&old, &seen.grid) {
                self.note(&format!(
                    "the board reads on a lattice {:.1}, {:.1} px off the locked grid: the lock \
                     moves there",
                    moved.origin.0 - old.origin.0,
                    moved.origin.1 - old.origin.1
                ));
                self.grid = Some(moved);
            }
            return Ok(None);
        }
        let g = seen.grid;
        let text = format!(
            "{}: found the board again as {}x{} cells of {:.1}x{:.1} px at ({:.0}, {:.0})",
            if resized {
                "the window changed size and its board was laid out anew"
            } else {
                "the board moved in the window"
            },
            g.rows,
            g.cols,
            g.pitch.0,
            g.pitch.1,
            g.origin.0,
            g.origin.1
        );
        self.note(&text);
        self.grid = None;
        self.lock_size = None;
        Ok(Some(Shot { frame, index, seen }))
    }

    /// The first confident reading of a game, taken only once the next capture reads the
    /// same board on the same grid: a frame caught while the game draws or resizes its
    /// window can read as a smaller board with even types, and the grid locked from it
    /// would stay wrong for the whole game. Gives up after `verify_timeout` of readings
    /// that keep changing.
    fn steady_first(&mut self, mut shot: Shot) -> Result<std::result::Result<Shot, String>> {
        let t0 = Instant::now();
        loop {
            let next = match self.settled_read()? {
                Ok(next) => next,
                Err(why) => return Ok(Err(why)),
            };
            if same_reading(&shot.seen, &next.seen) {
                return Ok(Ok(next));
            }
            if t0.elapsed() >= self.p.options.verify_timeout || self.over_time() {
                return Ok(Err(format!(
                    "readings of the board keep changing ({}x{}, then {}x{}): it is not at rest",
                    shot.seen.grid.rows,
                    shot.seen.grid.cols,
                    next.seen.grid.rows,
                    next.seen.grid.cols
                )));
            }
            shot = next;
        }
    }

    /// Grows the locked grid a line at a time over tiles beside it on `frame`, and
    /// returns the reading on the grown grid when it grew. A reading can leave out a
    /// whole edge line of a board whose tiles pair among themselves (the types stay even,
    /// so nothing looks wrong), and a grid locked from it would never show those tiles:
    /// the game would end "cleared" with tiles on screen. A line is taken only when the
    /// grown grid reads with confidence and shows a tile on it; a line that reads unsure
    /// (a tile's drop shadow, the window's chrome) is not, nor one holding a type with
    /// more tiles than any type the locked board showed (tiles are dealt a few of a type;
    /// the row of tiles' 3-D sides under a board, or a status bar, reads as one type
    /// filling the line).
    fn grow_lock(&mut self, frame: &Frame, index: usize) -> Result<Option<Reading>> {
        let Some(mut grid) = self.grid else {
            return Ok(None);
        };
        let (w, h) = frame.image.dimensions();
        // The widest type of the board on the grid as locked (on a grown grid the types'
        // cut can move and merge types).
        if let Ok(locked) = self.read_on(frame, index, Some(grid))? {
            let widest = locked.board.type_counts().into_values().max().unwrap_or(0);
            self.widest_type = self.widest_type.max(widest);
        }
        let mut grown = None;
        loop {
            let mut grew = false;
            for side in Side::ALL {
                let Some(g) = grid.grown(side, w, h) else {
                    continue;
                };
                if let Ok(seen) = self.read_on(frame, index, Some(g))? {
                    let line = grid.new_line(side);
                    let on_grid = seen.board.rows() == g.rows && seen.board.cols() == g.cols;
                    if !on_grid || !is_sure(&seen) {
                        continue;
                    }
                    if line.iter().any(|&p| seen.board.get(p).is_tile())
                        && seen.board.widest_type_on(&line) <= self.widest_type
                    {
                        grid = g;
                        grown = Some(seen);
                        grew = true;
                    }
                }
            }
            if !grew {
                break;
            }
        }
        if let Some(seen) = &grown {
            self.grid = Some(seen.grid);
            let text = format!(
                "tiles beside the board as first read: the grid grew to {}x{}",
                seen.grid.rows, seen.grid.cols
            );
            self.note(&text);
        }
        Ok(grown)
    }

    /// Sets the pair counts from a board shown on screen.
    fn count(&mut self, first_tiles: usize, board: &Board) {
        self.s.total_pairs = first_tiles / 2;
        self.s.pairs_cleared = first_tiles.saturating_sub(board.tile_count()) / 2;
        self.p.progress.set_length(self.s.total_pairs as u64);
        self.p.progress.set_position(self.s.pairs_cleared as u64);
    }

    /// Takes in a removal of `link` from `before` that showed `shown`, and says what was
    /// found about the gravity. Returns whether the mode to plan with changed.
    fn learn_gravity(&mut self, before: &Board, link: &Link, shown: &Board) -> bool {
        let was = self.s.gravity.current();
        let obs = self.s.gravity.observe(before, link.a, link.b, shown);
        match obs {
            Observation::Found(_) => {
                let text = format!("gravity: {}", self.s.gravity);
                self.note(&text);
            }
            Observation::Rechecked(modes) => {
                let names: Vec<&str> = modes.iter().map(|g| g.name()).collect();
                let text = format!(
                    "gravity: the board did not move as {was} predicts; re-checking ({} fit)",
                    names.join(", ")
                );
                self.note(&text);
                if let Some(g) = self.s.gravity.found() {
                    let text = format!("gravity: {g}");
                    self.note(&text);
                }
            }
            Observation::Unchanged | Observation::Narrowed | Observation::Unexplained => {}
        }
        self.s.gravity.current() != was
    }

    /// Moves the pointer to a corner of the window's client area off the board (a game
    /// may show the tile under the pointer as selected). Returns whether it moved.
    fn park(&mut self, shot: &Shot) -> Result<bool> {
        let grid = self.grid.unwrap_or(shot.seen.grid);
        let (now, _) = self.capture()?;
        let (w, h) = now.image.dimensions();
        let (w, h) = (w as f32, h as f32);
        let corners = [
            (2.0, 2.0),
            (w - 3.0, 2.0),
            (2.0, h - 3.0),
            (w - 3.0, h - 3.0),
        ];
        let Some(&(x, y)) = corners
            .iter()
            .find(|&&(x, y)| x >= 0.0 && y >= 0.0 && grid.cell_at(x, y).is_none())
        else {
            return Ok(false);
        };
        let (sx, sy) = now.to_screen(x, y);
        if !now.contains_screen(sx, sy) {
            return Ok(false);
        }
        let moved = self.p.clicker.park(sx, sy)?;
        if moved {
            self.note("a tile shows as selected: moved the pointer off the board to look again");
        }
        Ok(moved)
    }

    /// Clicks `cell` (selected by someone else before the bot's first click) to deselect
    /// it.
    fn deselect(&mut self, shot: &Shot, cell: Pos) -> Result<()> {
        let grid = self.grid.unwrap_or(shot.seen.grid);
        let (now, _) = self.capture()?;
        let (sx, sy) = screen_point(&now, &grid, cell)?;
        let t0 = Instant::now();
        self.p.clicker.click(sx, sy)?;
        self.t.click += micros(t0);
        self.record(&Entry::Deselect {
            cell,
            click: (sx, sy),
        })?;
        let text = format!("tile {cell} was selected before the bot began: clicked it to deselect");
        self.note(&text);
        Ok(())
    }

    /// Tries the grid of a saved profile on a fresh frame: kept when the frame has the size
    /// it was learnt at, reads on it with confidence, and shows a tile on each of its four
    /// edge lines (only the tiles show where a board ends; a grid larger than this deal's
    /// board would have an empty edge line, and links through it would run where the game
    /// has no cells). Otherwise the board is looked for as usual.
    fn known_grid(&mut self) -> Result<Option<Shot>> {
        let Some((grid, size)) = self.p.options.known_grid else {
            return Ok(None);
        };
        let (frame, index) = self.capture()?;
        let why = if frame.image.dimensions() != size {
            format!(
                "the window is {}x{}, not the {}x{} it was learnt at",
                frame.image.width(),
                frame.image.height(),
                size.0,
                size.1
            )
        } else {
            match self.read_on(&frame, index, Some(grid))? {
                Ok(seen) if is_sure(&seen) && edges_hold_tiles(&seen.board) => {
                    self.grid = Some(grid);
                    self.lock_size = Some(frame.image.dimensions());
                    let text =
                        format!("using the saved profile's {}x{} grid", grid.rows, grid.cols);
                    self.note(&text);
                    return Ok(Some(Shot { frame, index, seen }));
                }
                Ok(_) => "the board does not read on it with a tile on every edge".to_string(),
                Err(b) => b.to_string(),
            }
        };
        let text = format!("the saved profile's grid does not fit ({why}): looking for the board");
        self.note(&text);
        Ok(None)
    }

    fn main(&mut self) -> Result<Stop> {
        let mut current: Option<Shot> = self.known_grid()?;
        if let Some(shot) = &mut current {
            if let Some(seen) = self.grow_lock(&shot.frame, shot.index)? {
                shot.seen = seen;
            }
        }
        let mut first_tiles: Option<usize> = None;
        let mut idle = 0u32;
        loop {
            if self.over_time() {
                return Ok(Stop::Timeout);
            }
            if self.p.options.max_moves.is_some_and(|m| self.s.moves >= m) {
                return Ok(Stop::MaxMoves);
            }
            let mut shot = match current.take() {
                Some(s) => s,
                None => match self.settled_read()? {
                    Ok(s) => s,
                    Err(_) if self.over_time() && self.s.first.is_some() => {
                        return Ok(Stop::Timeout)
                    }
                    Err(why) if self.last_pair_pending => {
                        let (frame, index) = self.capture()?;
                        if let Some(seen) = self.grow_lock(&frame, index)? {
                            self.last_pair_pending = false;
                            self.s.moves += 1;
                            if let Some(first) = &mut first_tiles {
                                *first += seen.board.tile_count();
                            }
                            current = Some(Shot { frame, index, seen });
                            continue;
                        }
                        self.s.moves += 1;
                        self.s.pairs_cleared = self.s.total_pairs;
                        self.note(&format!(
                            "after the last pair the window shows no board ({why}): the \
                             game's end screen, taken as cleared"
                        ));
                        return Ok(Stop::Cleared);
                    }
                    Err(why) if self.dead_end_pending.is_some() => {
                        let tiles_left = self.dead_end_pending.unwrap_or_default();
                        self.note(&format!(
                            "after the last move no two tiles left can be linked, and the \
                             window shows no board ({why}): the game's own message on a \
                             deadlocked deal, taken as the deal's end"
                        ));
                        return Ok(Stop::NoMoves {
                            tiles_left,
                            why: format!(
                                "no two of them can be linked (the deal cannot be cleared; \
                                 the bot played the longest sequence it found), and the game \
                                 then covered its board ({why})"
                            ),
                        });
                    }
                    Err(why) => return Ok(Stop::Unreadable(why)),
                },
            };
            self.last_pair_pending = false;
            self.dead_end_pending = None;
            if self.grid.is_none() {
                shot = match self.steady_first(shot)? {
                    Ok(s) => s,
                    Err(why) => return Ok(Stop::Unreadable(why)),
                };
                self.grid = Some(shot.seen.grid);
                self.lock_size = Some(shot.frame.image.dimensions());
                if let Some(seen) = self.grow_lock(&shot.frame, shot.index)? {
                    shot.seen = seen;
                }
            }
            if shot.seen.board.is_clear() && self.grid.is_some() && self.p.eyes.forget_ground() {
                // Clear on the locked grid with the ground remembered: read again without
                // it. A tile a wrong reading once left out is remembered as ground, and the
                // game would end "cleared" with it on screen. A sure reading with tiles is
                // played on (the eyes learn the ground again from the boards played); an
                // unsure one (a photo ground's emptied cells, which the memory was for)
                // does not stand against the clear one.
                self.record(&Entry::Forget { frame: shot.index })?;
                self.last_read = None;
                if let Ok(seen) = self.read_on(&shot.frame, shot.index, self.grid)? {
                    if is_sure(&seen) && !seen.board.is_clear() {
                        self.note(&format!(
                            "the board read clear with the ground remembered shows {} tiles \
                             without it: the remembered ground is forgotten",
                            seen.board.tile_count()
                        ));
                        shot.seen = seen;
                    }
                }
            }
            if shot.seen.board.is_clear() {
                // Clear on the locked grid: unless tiles stand beside it.
                match self.grow_lock(&shot.frame, shot.index)? {
                    Some(seen) => {
                        if let Some(first) = &mut first_tiles {
                            *first += seen.board.tile_count();
                        }
                        shot.seen = seen;
                    }
                    None => {
                        let first = *first_tiles.get_or_insert(0);
                        self.count(first, &shot.seen.board);
                        return Ok(Stop::Cleared);
                    }
                }
            }
            let first = *first_tiles.get_or_insert(shot.seen.board.tile_count());
            self.count(first, &shot.seen.board);
            self.adopt(&shot)?;
            let rules = Rules {
                gravity: self.s.gravity.current(),
                ..self.p.options.rules
            };
            let t0 = Instant::now();
            let proposal = self.p.brain.plan(&shot.seen.board, &rules);
            let us = micros(t0);
            self.t.plan += us;
            self.record(&Entry::Plan {
                frame: shot.index,
                board: shot.seen.board.row_strings(),
                outcome: proposal.outcome.name().to_string(),
                moves: proposal.moves.clone(),
                micros: us,
                gravity: Some(rules.gravity),
            })?;
            if self.s.first.is_none() {
                self.s.first = Some((
                    shot.frame.clone(),
                    shot.seen.clone(),
                    proposal.moves.clone(),
                ));
            }
            if self.p.options.dry_run {
                return Ok(Stop::DryRun);
            }
            if proposal.moves.is_empty() {
                idle += 1;
                if idle >= NO_MOVE_PATIENCE {
                    return Ok(Stop::NoMoves {
                        tiles_left: shot.seen.board.tile_count(),
                        why: no_move_reason(proposal.outcome),
                    });
                }
                sleep(Duration::from_millis(300));
                continue;
            }
            idle = 0;
            // A tile shown selected before the bot's first click may only be hovered by the
            // pointer: move the pointer off the board and look again. One still selected is
            // the user's: pair it when the first move uses it, else click it once to
            // deselect it and look again.
            let mut preselected = None;
            if !self.clicked {
                if let Some(&sel) = shot.seen.selected.first() {
                    if !self.parked {
                        self.parked = true;
                        if self.park(&shot)? {
                            continue;
                        }
                    }
                    self.clicked = true;
                    let first_move = &proposal.moves[0];
                    if sel == first_move.a || sel == first_move.b {
                        preselected = Some(sel);
                    } else {
                        self.deselect(&shot, sel)?;
                        continue;
                    }
                }
            }
            let mut board = shot.seen.board.clone();
            let mut before = shot;
            for link in &proposal.moves {
                let predictions = self.s.gravity.predictions(&board, link.a, link.b);
                let n = self.s.moves;
                match self.one_move(n, &before, &board, link, &predictions, preselected.take())? {
                    Verified::Removed { shot, current: cur } => {
                        self.s.moves += 1;
                        self.strikes = 0;
                        let switched = self.learn_gravity(&board, link, &shot.seen.board);
                        self.count(first, &shot.seen.board);
                        self.adopt(&shot)?;
                        self.dead_end_pending = dead_end([&shot.seen.board], &rules);
                        if !cur || switched || shot.seen.board.is_clear() {
                            // Re-planned from the board (a clear one is checked for tiles
                            // beside the locked grid first).
                            // The plan was made under another mode: re-plan from the board.
                            if !shot.seen.board.is_clear() {
                                self.s.replans += 1;
                            }
                            current = Some(shot);
                            break;
                        }
                        board = predictions[0].1.clone();
                        before = shot;
                        if self.over_time()
                            || self.p.options.max_moves.is_some_and(|m| self.s.moves >= m)
                        {
                            break;
                        }
                    }
                    Verified::Changed(shot) => {
                        self.s.moves += 1;
                        self.strikes = 0;
                        self.s.replans += 1;
                        self.learn_gravity(&board, link, &shot.seen.board);
                        current = Some(shot);
                        break;
                    }
                    Verified::Stale => {
                        self.s.replans += 1;
                        self.last_pair_pending = predictions.iter().all(|(_, b)| b.is_clear());
                        self.dead_end_pending =
                            dead_end(predictions.iter().map(|(_, b)| b), &rules);
                        break;
                    }
                    Verified::NoEffect(why) => return Ok(Stop::NoEffect(why)),
                }
            }
        }
    }

    /// Clicks one planned pair and watches the screen until it shows the result.
    /// `predictions` are the boards the gravity candidates expect (the plan's mode first);
    /// `preselected` is an end of the pair already selected in the game, so only the other
    /// is clicked.
    fn one_move(
        &mut self,
        n: usize,
        before: &Shot,
        board: &Board,
        link: &Link,
        predictions: &[(Gravity, Board)],
        preselected: Option<Pos>,
    ) -> Result<Verified> {
        let grid = self.grid.unwrap_or(before.seen.grid);
        let (a, b) = (link.a, link.b);
        let mut need: Vec<Pos> = match preselected {
            Some(p) if p == a => vec![b],
            Some(p) if p == b => vec![a],
            _ => vec![a, b],
        };
        let opts = self.p.options.clone();
        let mut polls = 0u32;
        let t_move = Instant::now();
        let mut attempt = 0u32;
        loop {
            // Where is the window now? A fresh capture, checked against the frame the move
            // was planned on, so a window that moved or redrew is caught before clicking.
            let (now, now_index) = self.capture()?;
            if now.image.dimensions() != before.frame.image.dimensions()
                || (attempt == 0
                    && reaction(&before.frame.image, &now.image, &grid, a, b) != Reaction::Nothing)
            {
                self.record(&Entry::Verify {
                    n,
                    frame: now_index,
                    result: "stale".into(),
                    polls,
                    micros: micros(t_move),
                })?;
                return Ok(Verified::Stale);
            }
            // A retry clicks only while the board still reads as it did before the move: a
            // game that takes a click late may have matched the pair meanwhile, and a click
            // then lands on an emptied cell or starts a selection nobody planned.
            // The pixels of the pair's cells say so first: unless both changed or the game
            // is busy beyond them, the pair still stands (a reading can take the last pair,
            // one tile of it selected, for ground).
            let unchanged = attempt == 0
                || reaction(&before.frame.image, &now.image, &grid, a, b) != Reaction::Busy
                || matches!(self.read(&now, now_index)?, Ok(seen) if stands_as_before(&seen, board, link));
            let targets: &[Pos] = if unchanged { &need } else { &[] };
            let mut clicks = Vec::new();
            for &p in targets {
                let (sx, sy) = screen_point(&now, &grid, p)?;
                let t0 = Instant::now();
                self.clicked = true;
                self.p.clicker.click(sx, sy)?;
                self.t.click += micros(t0);
                clicks.push((sx, sy));
            }
            if !clicks.is_empty() {
                self.record(&Entry::Move {
                    n,
                    attempt,
                    link: link.clone(),
                    expect: predictions[0].1.row_strings(),
                    clicks,
                })?;
            }
            let clicked = Instant::now();
            let mut held: Option<(Board, Instant)> = None;
            let mut retry: Option<(Vec<Pos>, Reaction)> = None;
            while clicked.elapsed() < opts.verify_timeout {
                sleep(opts.poll);
                let (f, index) = self.capture()?;
                polls += 1;
                // What the screen shows of the pair: a removal changes both of its cells,
                // or cells beyond them (tiles falling, the game redrawing). Compared only
                // when a decision needs it (a scan of the board's pixels when nothing
                // beyond the pair changed), once a poll.
                let shown_once = std::cell::OnceCell::new();
                let shown = || {
                    *shown_once.get_or_init(|| reaction(&before.frame.image, &f.image, &grid, a, b))
                };
                let seen = self.read(&f, index)?.map(|s| {
                    // Past half the patience a removal's animation is over: a pair tinted
                    // while it goes no longer stands on the cells it leaves. Unless one of
                    // the pair's cells shows what it showed before the move: a click was
                    // lost and the pair is still there (one tile of it tinted when
                    // selected, both then pictures without a twin).
                    let settled_game =
                        clicked.elapsed() >= opts.verify_timeout / 2 && shown() == Reaction::Busy;
                    emptied_as_predicted(s, board, link, predictions, settled_game)
                });
                let mut removed_seen = false;
                if let Ok(seen) = &seen {
                    // A predicted board counts once it is read with confidence and has held
                    // still for a while: while a game draws the link, the two cells read as
                    // empty before the tiles above them fall, which looks like no gravity.
                    // One clock for every board: it restarts whenever the board read
                    // differs from the last one, sure or not.
                    let predicted = predictions
                        .iter()
                        .position(|(_, p)| seen.board.same_up_to_renaming(p));
                    let still = match &held {
                        Some((b, since)) if *b == seen.board => since.elapsed() >= STEADY,
                        _ => {
                            held = Some((seen.board.clone(), Instant::now()));
                            false
                        }
                    };
                    // A pair one of whose cells still shows what it showed before the move
                    // was not taken, however the frame reads (the last pair, one tile of it
                    // selected after a lost click, can read as bare ground).
                    // Nor while the game still draws the pair's link line: the tiles above
                    // a pair can fall only once it is gone, and the line over both tiles
                    // can read as bare ground (past half the patience a line that stays
                    // is taken for the game's chrome).
                    let line_gone = || {
                        clicked.elapsed() >= opts.verify_timeout / 2
                            || !link_drawn(&before.frame.image, &f.image, &grid, link)
                    };
                    let settled =
                        still && seen.unsure.is_empty() && shown() == Reaction::Busy && line_gone();
                    if let Some(i) = predicted.filter(|_| settled) {
                        self.record(&Entry::Verify {
                            n,
                            frame: index,
                            // A replay checks "predicted" frames against the move's
                            // expected board, which is the plan mode's.
                            result: if i == 0 { "predicted" } else { "changed" }.into(),
                            polls,
                            micros: micros(t_move),
                        })?;
                        if attempt == 0 {
                            self.p.clicker.feedback(true);
                        }
                        let seen = seen.clone();
                        return Ok(Verified::Removed {
                            shot: Shot {
                                frame: f,
                                index,
                                seen,
                            },
                            current: i == 0,
                        });
                    }
                    if seen.board.tile_count() < board.tile_count()
                        && shown() == Reaction::Busy
                        && !stands_as_before(seen, board, link)
                    {
                        removed_seen = true;
                        // Another board than predicted: believe it only once it has held
                        // still for a while (a link drawn over tiles can misread twice).
                        // A predicted board is left to the test above, whose clock is
                        // the same.
                        if predicted.is_none() && settled && seen.board.check_even().is_ok() {
                            self.record(&Entry::Verify {
                                n,
                                frame: index,
                                result: "changed".into(),
                                polls,
                                micros: micros(t_move),
                            })?;
                            if attempt == 0 {
                                self.p.clicker.feedback(true);
                            }
                            let seen = seen.clone();
                            return Ok(Verified::Changed(Shot {
                                frame: f,
                                index,
                                seen,
                            }));
                        }
                    }
                }
                if !removed_seen && clicked.elapsed() >= opts.retry_after {
                    let r = shown();
                    let again = match r {
                        // Nothing shows: every click of this try was lost.
                        Reaction::Nothing => Some(need.clone()),
                        Reaction::FirstOnly => Some(vec![b]),
                        Reaction::SecondOnly => Some(vec![a]),
                        Reaction::Busy => None,
                    };
                    if let Some(again) = again {
                        self.p.clicker.feedback(false);
                        self.record(&Entry::Verify {
                            n,
                            frame: index,
                            result: format!("retry:{r:?}"),
                            polls,
                            micros: micros(t_move),
                        })?;
                        retry = Some((again, r));
                        break;
                    }
                }
            }
            // This try removed nothing.
            self.strikes += 1;
            let what = match &retry {
                Some((_, Reaction::Nothing)) => "nothing changed on screen",
                Some(_) => "only one of the two tiles changed",
                None => "the screen changed in a way no plan explains",
            };
            if self.strikes >= opts.max_strikes {
                self.record(&Entry::Verify {
                    n,
                    frame: self.frames.saturating_sub(1),
                    result: "no-effect".into(),
                    polls,
                    micros: micros(t_move),
                })?;
                return Ok(Verified::NoEffect(format!(
                    "clicks did not remove the pair {a}-{b} ({what}), {} tries in a row without a removal; \
                     stopped rather than click again (the board may be misread)",
                    self.strikes
                )));
            }
            match retry {
                Some((again, _)) => {
                    self.s.retries += 1;
                    need = again;
                    attempt += 1;
                }
                None => return Ok(Verified::Stale),
            }
        }
    }
}

/// Whether `seen` reads the board `before` the move `link`, the move not made: the same up
/// to renaming once the cells it doubts on the pair's own cells are the pair's tiles. A
/// lost click leaves one tile of the pair selected (tinted) and the other as it was; the
/// last two tiles of a type then read as two pictures without a twin, doubted, where the
/// pair stands.
fn stands_as_before(seen: &Reading, before: &Board, link: &Link) -> bool {
    let on_pair = |u: &Pos| *u == link.a || *u == link.b;
    let mut board = seen.board.clone();
    if seen.unsure.iter().all(on_pair)
        && board.rows() == before.rows()
        && board.cols() == before.cols()
    {
        for u in &seen.unsure {
            board.set(*u, before.get(*u));
        }
    }
    board.same_up_to_renaming(before)
}

/// Whether a tile stands on each of the board's four edge lines.
fn edges_hold_tiles(b: &Board) -> bool {
    let tiles: Vec<Pos> = b.tiles().map(|(p, _)| p).collect();
    let any = |on_edge: &dyn Fn(&Pos) -> bool| tiles.iter().any(on_edge);
    any(&|p| p.row == 0)
        && any(&|p| p.row + 1 == b.rows())
        && any(&|p| p.col == 0)
        && any(&|p| p.col + 1 == b.cols())
}

/// Whether grid `b`'s cells lie on grid `a`'s lattice: the same pitch (within 2 %) and
/// origins a whole number of cells apart (within a quarter pitch).
fn same_lattice(a: &Grid, b: &Grid) -> bool {
    let axis = |pa: f32, pb: f32, oa: f32, ob: f32| {
        let steps = (ob - oa) / pa;
        (pa - pb).abs() <= pa * 0.02 && (steps - steps.round()).abs() <= 0.25
    };
    axis(a.pitch.0, b.pitch.0, a.origin.0, b.origin.0)
        && axis(a.pitch.1, b.pitch.1, a.origin.1, b.origin.1)
}

/// `seen` (a reading after the move `link` on the board `before`) taken as a prediction
/// when its doubts fit it: each doubted cell is either not a tile and one the prediction
/// leaves empty (a stone there is emptied), a tile on a cell a tile fell from (emptied),
/// or a tile the prediction has a tile on; the reading must then be the prediction. Obstacles never appear, and with every other cell as predicted no tile is
/// missing that could stand there; the emptied ground of a removed pair can show what the
/// reader knows of no ground (a photo's branch beside the tiles' 3-D sides), and a picture
/// on a cell that was empty that joined a type (emptied by [`Run::empty_stays_empty`])
/// leaves that type's tiles doubted. Cells a fall has just emptied count as the pair's do
/// (the ground shows there too), and there a doubted tile goes as well: the emptied
/// ground with a neighbour's 3-D side reads as a picture, alike on such cells over a
/// gradient ground, so as a type of its own. A tile still on its way through such a cell
/// leaves its own cell empty, so that reading is not the prediction, and the verify loop
/// takes a prediction only once it has held still. Tiles doubted on the pair's own cells
/// stay (a pair the game has not taken reads as tiles there, tinted when selected) unless
/// the pair's other cell reads empty for sure (a game takes both tiles of a pair at once,
/// and the ground laid bare can be a photo whose patch reads as a picture of its own);
/// so do tiles doubted on cells that were empty before the move (the reader saw them
/// for sure: [`Run::empty_stays_empty`] has already emptied the ones it doubted).
/// Unless `settled_game` (the game's animations are over), one of the pair's cells must
/// read empty for sure: a pair tinted while it goes can read as two stones on the very
/// cells it leaves.
pub(super) fn emptied_as_predicted(
    mut seen: Reading,
    before: &Board,
    link: &Link,
    predictions: &[(Gravity, Board)],
    settled_game: bool,
) -> Reading {
    if seen.unsure.is_empty() {
        return seen;
    }
    for (_, p) in predictions {
        if p.rows() != seen.board.rows() || p.cols() != seen.board.cols() {
            continue;
        }
        // Empty in the prediction: empty before, or emptied by this move (the pair's cells,
        // and under gravity the cells its tiles fell from).
        let clear = |q: Pos| p.get(q) == Cell::Empty;
        let fell_from = |q: Pos| q != link.a && q != link.b && before.get(q).is_tile();
        let seen_empty =
            |q: Pos| clear(q) && !seen.unsure.contains(&q) && seen.board.get(q) == Cell::Empty;
        // A game takes a pair's two tiles at once: where one of its cells reads empty for
        // sure, a picture doubted on the other is the ground the removal laid bare (a
        // photo's patch, a picture of a type of its own), not the pair still standing.
        let partner_gone =
            |q: Pos| (q == link.a && seen_empty(link.b)) || (q == link.b && seen_empty(link.a));
        let doubts_fit = seen.unsure.iter().all(|&u| {
            let tile = seen.board.get(u).is_tile();
            (clear(u) && (!tile || fell_from(u) || partner_gone(u))) || (tile && p.get(u).is_tile())
        });
        let one_seen_empty = [link.a, link.b].iter().any(|q| seen_empty(*q));
        if !(doubts_fit && (one_seen_empty || settled_game)) {
            continue;
        }
        let mut board = seen.board.clone();
        for &u in seen.unsure.iter().filter(|&&u| clear(u)) {
            board.set(u, Cell::Empty);
        }
        if board.same_up_to_renaming(p) {
            seen.board = board;
            seen.unsure.clear();
            return seen;
        }
    }
    seen
}

/// `old` moved onto `found`'s lattice, its extent kept, when the two lie on one lattice
/// ([`same_lattice`]) at least [`NUDGE_MIN`] px apart on an axis: the fractional part of
/// the offset, in `found`'s pitch. `None` when they coincide.
fn nudged(old: &Grid, found: &Grid) -> Option<Grid> {
    let off = |o: f32, f: f32, p: f32| {
        let d = f - o;
        d - (d / p).round() * p
    };
    let dx = off(old.origin.0, found.origin.0, found.pitch.0);
    let dy = off(old.origin.1, found.origin.1, found.pitch.1);
    (dx.abs() >= NUDGE_MIN || dy.abs() >= NUDGE_MIN).then_some(Grid {
        origin: (old.origin.0 + dx, old.origin.1 + dy),
        pitch: found.pitch,
        ..*old
    })
}

/// Offsets under this (px) leave the lock where it is: a fraction of a pixel, which moves
/// no cell's picture (found readings of one still KShisen board agree to 0.0001 px).
const NUDGE_MIN: f32 = 0.5;

/// Whether two readings show the same board on the same grid (within a quarter pitch).
fn same_reading(a: &Reading, b: &Reading) -> bool {
    let (ga, gb) = (&a.grid, &b.grid);
    ga.rows == gb.rows
        && ga.cols == gb.cols
        && (ga.origin.0 - gb.origin.0).abs() <= ga.pitch.0 / 4.0
        && (ga.origin.1 - gb.origin.1).abs() <= ga.pitch.1 / 4.0
        && a.board.same_up_to_renaming(&b.board)
}

/// The screen point of `cell`'s centre on `frame`; fails when it is outside the window's
/// client area or not on the cell (never click there).
fn screen_point(frame: &Frame, grid: &Grid, cell: Pos) -> Result<(i32, i32)> {
    let (cx, cy) = grid.center(cell);
    let (sx, sy) = frame.to_screen(cx, cy);
    if !frame.contains_screen(sx, sy) || grid.cell_at(cx, cy) != Some(cell) {
        return Err(PlayFault::OffWindow {
            cell,
            at: (sx, sy),
            origin: frame.origin,
            size: frame.image.dimensions(),
        });
    }
    Ok((sx, sy))
}

/// The tiles left when every board in `boards` (a move's outcome under each gravity mode
/// still possible) holds tiles and no two of them can be linked under `rules` (a link does
/// not depend on the gravity): the move ends the deal.
fn dead_end<'b>(boards: impl IntoIterator<Item = &'b Board>, rules: &Rules) -> Option<usize> {
    let boards: Vec<&Board> = boards.into_iter().collect();
    let stuck = |b: &&Board| !b.is_clear() && removable_pairs(b, rules).is_empty();
    if !boards.is_empty() && boards.iter().all(stuck) {
        boards.iter().map(|b| b.tile_count()).min()
    } else {
        None
    }
}

/// Why a board with tiles has no move, from the planner's outcome.
fn no_move_reason(outcome: Outcome) -> String {
    let planner = match outcome {
        Outcome::Unsolvable => "the planner proved no order clears this deal",
        Outcome::GaveUp => "the planner found no clearing order within its budget",
        Outcome::Cleared | Outcome::Stuck => "the planner found no removable pair",
    };
    format!(
        "no two tiles on the board as read can be linked ({planner}), and the game did not change the board"
    )
}
