//! What both practice windows share: the minifb window with its close rules and press
//! detection, and the JSON-lines event log. Each game's loop keeps only its own rules,
//! drawing and events.

use image::RgbaImage;
use minifb::{Key, MouseButton, MouseMode, Window, WindowOptions};
use serde::Serialize;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Why a practice window could not be run.
#[derive(Debug, thiserror::Error)]
pub enum WindowError {
    /// The Lianliankan game's settings.
    #[error(transparent)]
    Config(#[from] super::logic::ConfigError),
    /// The sliding game's settings.
    #[error(transparent)]
    SlideConfig(#[from] super::slide::SlideConfigError),
    /// The look asked for does not fit the board.
    #[error(transparent)]
    Spec(#[from] crate::render::SpecError),
    /// The event log could not be created.
    #[error("creating the event log {}", path.display())]
    CreateLog {
        /// The log file.
        path: PathBuf,
        /// What the file system said.
        #[source]
        source: std::io::Error,
    },
    /// An event could not be written to the log.
    #[error("writing the event log")]
    WriteLog(#[source] std::io::Error),
    /// The window could not be opened.
    #[error("opening a {w}x{h} game window (is DISPLAY set?)")]
    Open {
        /// Width, pixels.
        w: u32,
        /// Height, pixels.
        h: u32,
        /// The window library's error.
        #[source]
        source: minifb::Error,
    },
    /// A frame could not be shown.
    #[error("drawing the game window")]
    Draw(#[source] minifb::Error),
}

type Result<T> = std::result::Result<T, WindowError>;

/// Why a game's event log gives no verdict.
#[derive(Debug, thiserror::Error)]
pub enum GameLogError {
    /// The log could not be read.
    #[error("reading the game log {}", path.display())]
    Read {
        /// The log file.
        path: PathBuf,
        /// What the file system said.
        #[source]
        source: std::io::Error,
    },
    /// A line is not JSON.
    #[error("{} line {line}: not JSON", path.display())]
    NotJson {
        /// The log file.
        path: PathBuf,
        /// The line's number, from 1.
        line: usize,
        /// What the JSON reader said.
        #[source]
        source: serde_json::Error,
    },
    /// The log has no final line: the game was killed before it finished.
    #[error("the game log has no \"end\" line: the game did not finish")]
    NoEnd,
}

/// The event log, one JSON object per line, flushed each line so a killed game still leaves
/// a readable log (the end-to-end tests judge the bot by it, not by the bot's own account).
pub(super) struct EventLog(Option<BufWriter<File>>);

impl EventLog {
    /// A log written to `path`, or one that drops everything when there is none.
    pub(super) fn create(path: Option<&Path>) -> Result<EventLog> {
        Ok(EventLog(match path {
            Some(p) => Some(BufWriter::new(File::create(p).map_err(|source| {
                WindowError::CreateLog {
                    path: p.to_path_buf(),
                    source,
                }
            })?)),
            None => None,
        }))
    }

    pub(super) fn write(&mut self, value: &impl Serialize) -> Result<()> {
        if let Some(w) = &mut self.0 {
            serde_json::to_writer(&mut *w, value).map_err(|e| WindowError::WriteLog(e.into()))?;
            w.write_all(b"\n")
                .and_then(|()| w.flush())
                .map_err(WindowError::WriteLog)?;
        }
        Ok(())
    }
}

/// An open game window of a fixed size, with the clock its events are timed by.
pub(super) struct Shell {
    pub(super) window: Window,
    size: (usize, usize),
    start: Instant,
    was_down: bool,
    buffer: Vec<u32>,
}

impl Shell {
    /// Opens a `w`×`h` window at 60 frames a second, at `position` when given.
    pub(super) fn open(
        title: &str,
        (w, h): (u32, u32),
        position: Option<(i32, i32)>,
    ) -> Result<Shell> {
        let mut window = Window::new(title, w as usize, h as usize, WindowOptions::default())
            .map_err(|source| WindowError::Open { w, h, source })?;
        window.set_target_fps(60);
        if let Some((x, y)) = position {
            window.set_position(x as isize, y as isize);
        }
        Ok(Shell {
            window,
            size: (w as usize, h as usize),
            start: Instant::now(),
            was_down: false,
            buffer: Vec::new(),
        })
    }

    /// Time since the window opened.
    pub(super) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Why the window should close now, if it should: closed by the user or Escape
    /// ("closed"), past `timeout` ("timeout"), or `linger` after the game ended at `done`
    /// (`done_reason`).
    pub(super) fn closing(
        &self,
        timeout: Option<Duration>,
        linger: Option<Duration>,
        done: Option<Instant>,
        done_reason: &'static str,
    ) -> Option<&'static str> {
        if !self.window.is_open() || self.window.is_key_down(Key::Escape) {
            return Some("closed");
        }
        if timeout.is_some_and(|t| self.start.elapsed() >= t) {
            return Some("timeout");
        }
        match (linger, done) {
            (Some(t), Some(at)) if at.elapsed() >= t => Some(done_reason),
            _ => None,
        }
    }

    /// Where the left button went down since the last call, in window pixels: one event per
    /// press, however many frames the button is held (a held button is not a second click).
    pub(super) fn press(&mut self) -> Option<(f32, f32)> {
        let down = self.window.get_mouse_down(MouseButton::Left);
        let pressed = down && !self.was_down;
        self.was_down = down;
        pressed
            .then(|| self.window.get_mouse_pos(MouseMode::Pass))
            .flatten()
    }

    /// Takes a new picture to show (`None`: keep the last one) and presents a frame, which
    /// also pumps the window's input events.
    pub(super) fn show(&mut self, picture: Option<&RgbaImage>) -> Result<()> {
        if let Some(img) = picture {
            self.buffer = img
                .pixels()
                .map(|p| (u32::from(p[0]) << 16) | (u32::from(p[1]) << 8) | u32::from(p[2]))
                .collect();
        }
        let (w, h) = self.size;
        self.window
            .update_with_buffer(&self.buffer, w, h)
            .map_err(WindowError::Draw)
    }
}
