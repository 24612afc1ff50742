//! The play loop: capture, read, plan, click, verify, and re-plan whenever the screen
//! disagrees with the plan.
//!
//! The screen is the only truth. After each click pair the loop polls frames until the board
//! reads as predicted (next move), or as some other board with two tiles fewer (a reshuffle
//! or gravity surprise: re-plan from what is shown), or until the pixels say a click was lost
//! (only one tile highlighted, or none: click the missing one again). It never clicks outside
//! the window's client rectangle or the board, and re-reads the window position before every
//! move because windows move.

use super::record::{Entry, SessionWriter, Timings};
use super::stages::{Blind, Brain, Eyes, Seen};
use super::verify::{reaction, Reaction};
use crate::board::{Board, Link, Pos, Rules};
use crate::capture::{Frame, FrameSource};
use crate::geometry::Grid;
use crate::input::Clicker;
use anyhow::{bail, Result};
use indicatif::ProgressBar;
use std::thread::sleep;
use std::time::{Duration, Instant};

/// How long a board other than the predicted one must read the same before the loop
/// re-plans from it.
const STEADY: Duration = Duration::from_millis(120);

/// How the loop plays.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    pub rules: Rules,
    /// Stop after this many moves.
    pub max_moves: Option<usize>,
    /// Stop after this long in any case.
    pub timeout: Duration,
    /// How long a move may take to show before the loop gives up on it and re-reads.
    pub verify_timeout: Duration,
    /// With no visible reaction after this long, the clicks are taken as lost and retried.
    pub retry_after: Duration,
    /// Click retries per move.
    pub max_retries: u32,
    /// Pause between polling captures.
    pub poll: Duration,
    /// Read and plan once, click nothing.
    pub dry_run: bool,
}

impl Default for PlayOptions {
    fn default() -> Self {
        PlayOptions {
            rules: Rules::default(),
            max_moves: None,
            timeout: Duration::from_secs(600),
            verify_timeout: Duration::from_secs(3),
            retry_after: Duration::from_millis(400),
            max_retries: 3,
            poll: Duration::from_millis(5),
            dry_run: false,
        }
    }
}

/// Why the loop stopped without an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    Cleared,
    MaxMoves,
    Timeout,
    /// Read and planned only.
    DryRun,
    /// No progress possible, with the reason.
    Stuck(String),
}

impl Stop {
    /// A short word for logs.
    pub fn word(&self) -> String {
        match self {
            Stop::Cleared => "cleared".into(),
            Stop::MaxMoves => "max-moves".into(),
            Stop::Timeout => "timeout".into(),
            Stop::DryRun => "dry-run".into(),
            Stop::Stuck(why) => format!("stuck: {why}"),
        }
    }
}

/// What a session did.
#[derive(Clone, Debug)]
pub struct Summary {
    pub stop: Stop,
    /// Moves whose removal was seen on screen.
    pub moves: usize,
    /// Pairs gone since the first reading.
    pub pairs_cleared: usize,
    pub total_pairs: usize,
    /// Retries of lost clicks.
    pub retries: usize,
    /// Times the screen disagreed with the plan and the loop re-planned.
    pub replans: usize,
    pub timings: Timings,
    /// The first good reading and its frame, with the first plan (for `--dry-run` and the
    /// demo's annotated PNG).
    pub first: Option<(Frame, Seen, Vec<Link>)>,
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
}

/// The loop's stages and state.
pub struct Player<'a> {
    pub source: &'a mut dyn FrameSource,
    pub clicker: &'a mut dyn Clicker,
    pub eyes: &'a mut dyn Eyes,
    pub brain: &'a mut dyn Brain,
    pub recorder: Option<&'a mut SessionWriter>,
    pub progress: ProgressBar,
    pub options: PlayOptions,
}

/// How one move turned out.
enum Verified {
    /// The board the plan predicted.
    Predicted(Shot),
    /// A different board, two tiles fewer: re-plan from it.
    Changed(Shot),
    /// The screen is not what the move was planned on (a moved or redrawn window):
    /// re-read before clicking.
    Stale,
    /// Nothing happened despite the retries.
    NoEffect,
}

/// A frame, its index in the recording, and its reading.
struct Shot {
    frame: Frame,
    index: usize,
    seen: Seen,
}

struct Run<'p, 'a> {
    p: &'p mut Player<'a>,
    t: Timings,
    start: Instant,
    grid: Option<Grid>,
    frames: usize,
    retries: usize,
    replans: usize,
}

impl Player<'_> {
    /// Plays until the board is clear, a limit is reached, or no progress is possible.
    /// Errors are for what must stop the bot at once: the window vanished, the user took
    /// the mouse, a click would have left the window.
    pub fn play(&mut self) -> Result<Summary> {
        let mut run = Run {
            p: self,
            t: Timings::default(),
            start: Instant::now(),
            grid: None,
            frames: 0,
            retries: 0,
            replans: 0,
        };
        let out = run.main();
        run.t.total = run.start.elapsed().as_micros() as u64;
        let t = &mut run.t;
        t.wait = t
            .total
            .saturating_sub(t.capture + t.read + t.plan + t.click + t.record);
        let mut summary = match out {
            Ok(s) => s,
            Err(e) => {
                if let Some(rec) = run.p.recorder.as_deref_mut() {
                    // Best effort: the error itself is what the caller must see.
                    let _ = rec.entry(&Entry::End {
                        reason: format!("error: {e:#}"),
                        moves: 0,
                        pairs_cleared: 0,
                        timings: run.t,
                    });
                }
                run.p.progress.abandon();
                return Err(e);
            }
        };
        summary.timings = run.t;
        summary.retries = run.retries;
        summary.replans = run.replans;
        if let Some(rec) = run.p.recorder.as_deref_mut() {
            rec.entry(&Entry::End {
                reason: summary.stop.word(),
                moves: summary.moves,
                pairs_cleared: summary.pairs_cleared,
                timings: summary.timings,
            })?;
        }
        run.p.progress.finish();
        Ok(summary)
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

    /// Captures a frame (and records it).
    fn capture(&mut self) -> Result<(Frame, usize)> {
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
    fn read(&mut self, frame: &Frame, index: usize) -> Result<Result<Seen, Blind>> {
        let t0 = Instant::now();
        let grid = self.grid;
        let seen = self.p.eyes.read(&frame.image, grid.as_ref());
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
                animation: matches!(b, Blind::Animation(_)),
                message: b.to_string(),
            },
        };
        self.record(&entry)?;
        Ok(seen)
    }

    fn over_time(&self) -> bool {
        self.start.elapsed() >= self.p.options.timeout
    }

    /// Captures until a reading can be trusted: no animation, an even count of every type,
    /// nothing unsure; after a while the best plausible reading is taken anyway.
    fn settled_read(&mut self) -> Result<std::result::Result<Shot, String>> {
        let t0 = Instant::now();
        let patience = self.p.options.verify_timeout;
        let mut fallback: Option<Shot> = None;
        let mut last_err = String::from("no frame read yet");
        while t0.elapsed() < patience && !self.over_time() {
            let (frame, index) = self.capture()?;
            match self.read(&frame, index)? {
                Ok(seen) => {
                    if seen.unsure.is_empty() && seen.board.check_even().is_ok() {
                        return Ok(Ok(Shot { frame, index, seen }));
                    }
                    last_err = match seen.board.check_even() {
                        Err(e) => e,
                        Ok(()) => format!("{} cells unsure", seen.unsure.len()),
                    };
                    if seen.board.check_even().is_ok() {
                        fallback = Some(Shot { frame, index, seen });
                    }
                }
                Err(b) => last_err = b.to_string(),
            }
            sleep(self.p.options.poll.max(Duration::from_millis(20)));
        }
        Ok(fallback.ok_or(last_err))
    }

    fn main(&mut self) -> Result<Summary> {
        let mut summary = Summary {
            stop: Stop::Timeout,
            moves: 0,
            pairs_cleared: 0,
            total_pairs: 0,
            retries: 0,
            replans: 0,
            timings: Timings::default(),
            first: None,
        };
        let mut current: Option<Shot> = None;
        let mut first_tiles: Option<usize> = None;
        let mut idle = 0u32;
        let rules = self.p.options.rules;
        loop {
            if self.over_time() {
                summary.stop = Stop::Timeout;
                return Ok(summary);
            }
            if self.p.options.max_moves.is_some_and(|m| summary.moves >= m) {
                summary.stop = Stop::MaxMoves;
                return Ok(summary);
            }
            let shot = match current.take() {
                Some(s) => s,
                None => match self.settled_read()? {
                    Ok(s) => s,
                    Err(why) if self.over_time() => {
                        let _ = why;
                        summary.stop = Stop::Timeout;
                        return Ok(summary);
                    }
                    Err(why) => {
                        summary.stop = Stop::Stuck(format!("cannot read the board: {why}"));
                        return Ok(summary);
                    }
                },
            };
            if self.grid.is_none() {
                self.grid = Some(shot.seen.grid);
            }
            let tiles = shot.seen.board.tile_count();
            let first = *first_tiles.get_or_insert(tiles);
            summary.total_pairs = first / 2;
            summary.pairs_cleared = first.saturating_sub(tiles) / 2;
            self.p.progress.set_length(summary.total_pairs as u64);
            self.p.progress.set_position(summary.pairs_cleared as u64);
            if shot.seen.board.is_clear() {
                summary.stop = Stop::Cleared;
                return Ok(summary);
            }
            let t0 = Instant::now();
            let proposal = self.p.brain.plan(&shot.seen.board, &rules);
            let us = micros(t0);
            self.t.plan += us;
            self.record(&Entry::Plan {
                frame: shot.index,
                board: shot.seen.board.row_strings(),
                outcome: proposal.outcome.clone(),
                moves: proposal.moves.clone(),
                micros: us,
            })?;
            if summary.first.is_none() {
                summary.first = Some((
                    shot.frame.clone(),
                    shot.seen.clone(),
                    proposal.moves.clone(),
                ));
            }
            if self.p.options.dry_run {
                summary.stop = Stop::DryRun;
                return Ok(summary);
            }
            if proposal.moves.is_empty() {
                idle += 1;
                if idle > 3 {
                    summary.stop = Stop::Stuck(format!(
                        "no move on the board as read (planner: {}), and the game did not change it",
                        proposal.outcome
                    ));
                    return Ok(summary);
                }
                sleep(Duration::from_millis(300));
                continue;
            }
            let mut board = shot.seen.board.clone();
            let mut before = shot;
            for link in &proposal.moves {
                let mut predicted = board.clone();
                predicted.remove_pair(link.a, link.b, rules.gravity);
                let n = summary.moves;
                match self.one_move(n, &before, &board, link, &predicted)? {
                    Verified::Predicted(s) => {
                        summary.moves += 1;
                        idle = 0;
                        summary.pairs_cleared = first.saturating_sub(predicted.tile_count()) / 2;
                        self.p.progress.set_position(summary.pairs_cleared as u64);
                        board = predicted;
                        before = s;
                        if board.is_clear() {
                            summary.stop = Stop::Cleared;
                            return Ok(summary);
                        }
                        if self.over_time()
                            || self.p.options.max_moves.is_some_and(|m| summary.moves >= m)
                        {
                            break;
                        }
                    }
                    Verified::Changed(s) => {
                        summary.moves += 1;
                        idle = 0;
                        self.replans += 1;
                        current = Some(s);
                        break;
                    }
                    Verified::Stale => {
                        self.replans += 1;
                        break;
                    }
                    Verified::NoEffect => {
                        idle += 1;
                        if idle >= 3 {
                            summary.stop = Stop::Stuck(format!(
                                "clicks on {} and {} had no visible effect, {idle} moves in a row",
                                link.a, link.b
                            ));
                            return Ok(summary);
                        }
                        break;
                    }
                }
            }
        }
    }

    /// Clicks one planned pair and watches the screen until it shows the result.
    fn one_move(
        &mut self,
        n: usize,
        before: &Shot,
        board: &Board,
        link: &Link,
        predicted: &Board,
    ) -> Result<Verified> {
        let grid = self.grid.unwrap_or(before.seen.grid);
        let (a, b) = (link.a, link.b);
        let mut need: Vec<Pos> = vec![a, b];
        let opts = self.p.options.clone();
        let mut polls = 0u32;
        let t_move = Instant::now();
        for attempt in 0..=opts.max_retries {
            // Where is the window now? A fresh capture, checked against the frame the move
            // was planned on, so a window that moved or redrew is caught before clicking.
            let (now, now_index) = self.capture()?;
            if attempt == 0
                && (now.image.dimensions() != before.frame.image.dimensions()
                    || reaction(&before.frame.image, &now.image, &grid, a, b) != Reaction::Nothing)
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
            let mut clicks = Vec::new();
            for &p in &need {
                let (cx, cy) = grid.center(p);
                let (sx, sy) = now.to_screen(cx, cy);
                if !now.contains_screen(sx, sy) || grid.cell_at(cx, cy) != Some(p) {
                    bail!(
                        "refusing to click cell {p} at screen ({sx}, {sy}): outside the window's client area at ({}, {}) {}x{}",
                        now.origin.0,
                        now.origin.1,
                        now.image.width(),
                        now.image.height()
                    );
                }
                let t0 = Instant::now();
                self.p.clicker.click(sx, sy)?;
                self.t.click += micros(t0);
                clicks.push((sx, sy));
            }
            self.record(&Entry::Move {
                n,
                attempt,
                link: link.clone(),
                expect: predicted.row_strings(),
                clicks,
            })?;
            let clicked = Instant::now();
            let mut last: Option<(Board, Instant)> = None;
            let mut retry: Option<Vec<Pos>> = None;
            while clicked.elapsed() < opts.verify_timeout {
                sleep(opts.poll);
                let (f, index) = self.capture()?;
                polls += 1;
                let seen = self.read(&f, index)?;
                let mut removed_seen = false;
                if let Ok(seen) = &seen {
                    if seen.board.same_up_to_renaming(predicted) {
                        self.record(&Entry::Verify {
                            n,
                            frame: index,
                            result: "predicted".into(),
                            polls,
                            micros: micros(t_move),
                        })?;
                        let seen = seen.clone();
                        return Ok(Verified::Predicted(Shot {
                            frame: f,
                            index,
                            seen,
                        }));
                    }
                    if seen.board.tile_count() < board.tile_count() {
                        removed_seen = true;
                        // Another board than predicted: believe it only once it has held
                        // still for a while (a link drawn over tiles can misread twice).
                        let steady = match &last {
                            Some((b, since)) if *b == seen.board => {
                                since.elapsed() >= STEADY && seen.board.check_even().is_ok()
                            }
                            _ => {
                                last = Some((seen.board.clone(), Instant::now()));
                                false
                            }
                        };
                        if steady {
                            self.record(&Entry::Verify {
                                n,
                                frame: index,
                                result: "changed".into(),
                                polls,
                                micros: micros(t_move),
                            })?;
                            let seen = seen.clone();
                            return Ok(Verified::Changed(Shot {
                                frame: f,
                                index,
                                seen,
                            }));
                        }
                    } else {
                        last = None;
                    }
                }
                if !removed_seen && clicked.elapsed() >= opts.retry_after {
                    let r = reaction(&before.frame.image, &f.image, &grid, a, b);
                    let again = match r {
                        Reaction::Nothing => Some(vec![a, b]),
                        Reaction::FirstOnly => Some(vec![b]),
                        Reaction::SecondOnly => Some(vec![a]),
                        Reaction::Busy => None,
                    };
                    if let Some(again) = again {
                        self.record(&Entry::Verify {
                            n,
                            frame: index,
                            result: format!("retry:{r:?}"),
                            polls,
                            micros: micros(t_move),
                        })?;
                        retry = Some(again);
                        break;
                    }
                }
            }
            match retry {
                Some(again) if attempt < opts.max_retries => {
                    self.retries += 1;
                    need = again;
                }
                _ => break,
            }
        }
        self.record(&Entry::Verify {
            n,
            frame: self.frames.saturating_sub(1),
            result: "no-effect".into(),
            polls,
            micros: micros(t_move),
        })?;
        Ok(Verified::NoEffect)
    }
}
