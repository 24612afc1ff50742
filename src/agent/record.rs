//! Recording a session: every captured frame as a PNG and every decision as one JSON line
//! of `session.jsonl`, so `llk replay` can re-check the bot's choices without a window.
//!
//! Consecutive identical frames (a game at rest while the bot polls) share one PNG, which
//! keeps committed sessions small. PNGs are compressed on a writer thread: at the highest
//! compression a window-sized frame takes tens of milliseconds to encode, and encoding on
//! the bot's own thread takes about 40 % of a live game's time.

use crate::board::{Board, Gravity, Link, Pos, Rules};
use crate::capture::Frame;
use crate::geometry::Grid;
use serde::{Deserialize, Serialize};
use std::collections::hash_map::DefaultHasher;
use std::fs::File;
use std::hash::{Hash, Hasher};
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, SyncSender};
use std::thread::JoinHandle;

/// Frames waiting for the writer thread before `frame` blocks: enough to ride out a burst of
/// polls, bounded so a slow disk cannot make a recording hold a game's worth of frames.
const QUEUE: usize = 32;

/// The log's name inside a session folder.
pub const LOG_NAME: &str = "session.jsonl";

/// Why a session could not be recorded or read back.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The session folder could not be created.
    #[error("creating the session folder {}", dir.display())]
    CreateDir {
        /// The folder.
        dir: PathBuf,
        /// What the file system said.
        #[source]
        source: std::io::Error,
    },
    /// The folder already holds a session log.
    #[error("{} already holds a recorded session; choose an empty folder", dir.display())]
    AlreadyRecorded {
        /// The folder.
        dir: PathBuf,
    },
    /// A file of the session could not be created.
    #[error("creating {}", path.display())]
    Create {
        /// The file.
        path: PathBuf,
        /// What the file system said.
        #[source]
        source: std::io::Error,
    },
    /// The thread that saves frames could not be started.
    #[error("starting the session writer thread")]
    Spawn(#[source] std::io::Error),
    /// The thread that saves frames panicked.
    #[error("the session writer thread panicked")]
    WriterPanicked,
    /// A frame came after [`SessionWriter::finish`].
    #[error("the session recording was already finished")]
    Finished,
    /// A log line could not be written.
    #[error("writing the session log")]
    WriteLog(#[source] std::io::Error),
    /// A frame could not be saved as a PNG.
    #[error("saving {}", path.display())]
    SavePng {
        /// The PNG file.
        path: PathBuf,
        /// The encoder's error.
        #[source]
        source: image::ImageError,
    },
    /// The folder has no session log.
    #[error("{}: not a recorded session (no {LOG_NAME})", dir.display())]
    NoLog {
        /// The folder.
        dir: PathBuf,
        /// What the file system said.
        #[source]
        source: std::io::Error,
    },
    /// The session log could not be read.
    #[error("reading {}", path.display())]
    ReadLog {
        /// The log file.
        path: PathBuf,
        /// What the file system said.
        #[source]
        source: std::io::Error,
    },
    /// A log line is not a session entry.
    #[error("{} line {line}: not a session entry", path.display())]
    BadEntry {
        /// The log file.
        path: PathBuf,
        /// The line's number, from 1.
        line: usize,
        /// What the JSON reader said.
        #[source]
        source: serde_json::Error,
    },
    /// A board in the log is not a board.
    #[error("bad board in the session log")]
    BadBoard(#[source] crate::board::ParseError),
}

type Result<T> = std::result::Result<T, RecordError>;

/// Time spent per activity, in microseconds; where a live game's time goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timings {
    /// Capturing frames.
    pub capture: u64,
    /// Reading boards from frames.
    pub read: u64,
    /// Planning moves.
    pub plan: u64,
    /// Clicking, the button holds and gaps included.
    pub click: u64,
    /// Writing frames and log lines (only when recording).
    pub record: u64,
    /// Everything else: sleeping between polls while the game reacts.
    pub wait: u64,
    /// The whole session.
    pub total: u64,
}

/// One line of a session log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Entry {
    /// The settings a replay needs to redo the decisions.
    Start {
        /// The rules played by.
        rules: Rules,
        /// The planner's name (`Brain::name`), which replay looks up.
        brain: String,
        /// The title of the window played.
        window: String,
        /// The llk version that recorded the session.
        version: String,
        /// The board reader the session was played with (`legacy` or `general`); absent, the
        /// legacy reader.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reader: Option<String>,
    },
    /// A captured frame: its PNG (shared with the previous frame when identical) and where
    /// the window was.
    Frame {
        /// The frame's number, from 0.
        index: usize,
        /// The PNG's name inside the session folder.
        file: String,
        /// Screen position of the frame's top-left pixel.
        origin: (i32, i32),
        /// Milliseconds since the session started.
        t_ms: u64,
    },
    /// A board read from frame `frame`; `locked` says the grid was given, not found.
    Read {
        /// The frame read.
        frame: usize,
        /// Whether the grid was given (locked) rather than found.
        locked: bool,
        /// The grid read on.
        grid: Grid,
        /// The board's rows in text form.
        board: Vec<String>,
        /// Cells the reader doubts.
        unsure: Vec<Pos>,
        /// Reading time, µs.
        micros: u64,
    },
    /// A frame that gave no board, and why.
    Blind {
        /// The frame read.
        frame: usize,
        /// Whether the grid was given (locked) rather than found.
        locked: bool,
        /// Whether the refusal was for a link or removal being drawn.
        animation: bool,
        /// The reader's refusal.
        message: String,
        /// The grid given (locked, or a trial grid beside it); absent in logs older than
        /// the field, where a replay takes the latest reading's.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        grid: Option<Grid>,
    },
    /// The moves chosen for the board read from `frame`, under gravity `gravity` (the mode
    /// believed at the time when the bot finds it; absent, the start line's rules hold).
    Plan {
        /// The frame whose reading was planned.
        frame: usize,
        /// The board planned, rows in text form.
        board: Vec<String>,
        /// The planner's outcome (`cleared`, `stuck`, `unsolvable`, `gave-up`).
        outcome: String,
        /// The moves in play order.
        moves: Vec<Link>,
        /// Planning time, µs.
        micros: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        /// The gravity planned under.
        gravity: Option<Gravity>,
    },
    /// The board the loop plays from here on, as frame `frame` shows it on the locked grid
    /// `grid` (the reading, weighed against the board before): its empty cells taught the
    /// eyes their ground ([`super::Eyes::ground_seen`]).
    Ground {
        /// The frame the board was read from.
        frame: usize,
        /// The locked grid.
        grid: Grid,
        /// The board's rows in text form.
        board: Vec<String>,
    },
    /// The eyes forgot the ground they were taught ([`super::Eyes::forget_ground`]) before
    /// frame `frame`, read clear on the locked grid, was read again.
    Forget {
        /// The frame read clear.
        frame: usize,
    },
    /// A click on `cell`, selected before the bot's first click, to deselect it.
    Deselect {
        /// The selected tile.
        cell: Pos,
        /// The screen point clicked.
        click: (i32, i32),
    },
    /// Clicks made for move `n` (attempt 0 is the first try), screen coordinates.
    Move {
        /// The move's number, from 1.
        n: usize,
        /// The try: 0 first, then retries.
        attempt: u32,
        /// The pair and its path.
        link: Link,
        /// The board expected after the removal, rows in text form.
        expect: Vec<String>,
        /// The screen points clicked.
        clicks: Vec<(i32, i32)>,
    },
    /// How move `n` turned out, judged on frame `frame`: "predicted" (the board the plan
    /// expected), "changed" (another board: re-plan), "retry:WHAT", "no-effect", "stale".
    Verify {
        /// The move's number.
        n: usize,
        /// The frame judged on.
        frame: usize,
        /// The verdict (see above).
        result: String,
        /// Frames polled until the verdict.
        polls: u32,
        /// Time until the verdict, µs.
        micros: u64,
    },
    /// The session's last line.
    End {
        /// Why it ended: a [`super::Stop`] word, or `error: ` and the error.
        reason: String,
        /// Moves whose removal was seen.
        moves: usize,
        /// Pairs gone since the first reading.
        pairs_cleared: usize,
        /// Where the time went.
        timings: Timings,
    },
}

/// Writes a session folder.
pub struct SessionWriter {
    dir: PathBuf,
    log: BufWriter<File>,
    frames: usize,
    last: Option<(u64, String)>,
    /// Frames to save, for the writer thread; `None` once finished.
    queue: Option<SyncSender<(image::RgbaImage, PathBuf)>>,
    writer: Option<JoinHandle<Result<()>>>,
}

impl SessionWriter {
    /// Creates `dir` (and parents) and its log; refuses a folder that already holds a
    /// session, so a recording is never silently mixed with an older one.
    pub fn create(dir: &Path) -> Result<Self> {
        std::fs::create_dir_all(dir).map_err(|source| RecordError::CreateDir {
            dir: dir.to_path_buf(),
            source,
        })?;
        let log_path = dir.join(LOG_NAME);
        if log_path.exists() {
            return Err(RecordError::AlreadyRecorded {
                dir: dir.to_path_buf(),
            });
        }
        let log =
            BufWriter::new(
                File::create(&log_path).map_err(|source| RecordError::Create {
                    path: log_path.clone(),
                    source,
                })?,
            );
        let (queue, frames) = sync_channel::<(image::RgbaImage, PathBuf)>(QUEUE);
        // Saves frames in order and stops at the first error, which `finish` (or the next
        // `frame` call, when the thread has gone) reports.
        let writer = std::thread::Builder::new()
            .name("llk-record".into())
            .spawn(move || {
                for (image, path) in frames {
                    save_png(&image, &path)?;
                }
                Ok(())
            })
            .map_err(RecordError::Spawn)?;
        Ok(SessionWriter {
            dir: dir.to_path_buf(),
            log,
            frames: 0,
            last: None,
            queue: Some(queue),
            writer: Some(writer),
        })
    }

    /// Waits until every frame is saved; the first error saving one, if any.
    pub fn finish(&mut self) -> Result<()> {
        self.queue = None;
        match self.writer.take() {
            Some(w) => w.join().map_err(|_| RecordError::WriterPanicked)?,
            None => Ok(()),
        }
    }

    /// The session folder, for messages telling the user where the recording went.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Saves a frame (or reuses the previous PNG when the pixels are identical), logs it
    /// and returns its index.
    pub fn frame(&mut self, frame: &Frame, t_ms: u64) -> Result<usize> {
        let index = self.frames;
        self.frames += 1;
        let mut h = DefaultHasher::new();
        frame.image.dimensions().hash(&mut h);
        frame.image.as_raw().hash(&mut h);
        let hash = h.finish();
        let file = match &self.last {
            Some((last, file)) if *last == hash => file.clone(),
            _ => {
                let file = format!("frame-{index:05}.png");
                let path = self.dir.join(&file);
                let sent = match &self.queue {
                    Some(q) => q.send((frame.image.clone(), path)).is_ok(),
                    None => false,
                };
                if !sent {
                    // The writer stopped: its error says why.
                    self.finish()?;
                    return Err(RecordError::Finished);
                }
                self.last = Some((hash, file.clone()));
                file
            }
        };
        self.entry(&Entry::Frame {
            index,
            file,
            origin: frame.origin,
            t_ms,
        })?;
        Ok(index)
    }

    /// Appends one log line.
    pub fn entry(&mut self, e: &Entry) -> Result<()> {
        serde_json::to_writer(&mut self.log, e).map_err(|e| RecordError::WriteLog(e.into()))?;
        self.log
            .write_all(b"\n")
            .and_then(|()| self.log.flush())
            .map_err(RecordError::WriteLog)
    }
}

impl Drop for SessionWriter {
    /// Waits for the frames still queued, so a session folder is whole once its writer is
    /// gone (errors are for `finish` to report).
    fn drop(&mut self) {
        let _ = self.finish();
    }
}

/// Saves a frame as a maximally compressed PNG: recordings are committed as fixtures, and
/// screen captures of flat game art compress far better at the highest level.
fn save_png(img: &image::RgbaImage, path: &Path) -> Result<()> {
    use image::codecs::png::{CompressionType, FilterType, PngEncoder};
    use image::ImageEncoder;
    let file = File::create(path).map_err(|source| RecordError::Create {
        path: path.to_path_buf(),
        source,
    })?;
    PngEncoder::new_with_quality(
        BufWriter::new(file),
        CompressionType::Best,
        FilterType::Adaptive,
    )
    .write_image(
        img.as_raw(),
        img.width(),
        img.height(),
        image::ExtendedColorType::Rgba8,
    )
    .map_err(|source| RecordError::SavePng {
        path: path.to_path_buf(),
        source,
    })
}

/// Reads a session log back, with a one-line error naming the bad line.
pub fn read_session(dir: &Path) -> Result<Vec<Entry>> {
    let path = dir.join(LOG_NAME);
    let f = File::open(&path).map_err(|source| RecordError::NoLog {
        dir: dir.to_path_buf(),
        source,
    })?;
    let mut out = Vec::new();
    for (i, line) in BufReader::new(f).lines().enumerate() {
        let line = line.map_err(|source| RecordError::ReadLog {
            path: path.clone(),
            source,
        })?;
        if line.trim().is_empty() {
            continue;
        }
        out.push(
            serde_json::from_str(&line).map_err(|source| RecordError::BadEntry {
                path: path.clone(),
                line: i + 1,
                source,
            })?,
        );
    }
    Ok(out)
}

/// Board rows to a board, for log entries (which hold the text form).
pub fn board_of(rows: &[String]) -> Result<Board> {
    Board::from_rows(rows).map_err(RecordError::BadBoard)
}

/// A session writer on a fresh folder under the system's temp folder, named by `tag` and
/// the process id (removed first, should an earlier run have left it), for tests.
#[cfg(test)]
pub(crate) fn test_session(tag: &str) -> (PathBuf, SessionWriter) {
    let dir = std::env::temp_dir().join(format!("llk-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let rec = SessionWriter::create(&dir).unwrap();
    (dir, rec)
}

/// The start line a test's session needs for a replay: `rules`, played by
/// [`super::stages::FirstPair`].
#[cfg(test)]
pub(crate) fn test_start(rules: Rules) -> Entry {
    use super::stages::Brain;
    Entry::Start {
        rules,
        brain: super::stages::FirstPair.name(),
        window: "test".into(),
        version: "test".into(),
        reader: None,
    }
}
