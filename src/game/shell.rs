//! What both practice windows share: the minifb window with its close rules and press
//! detection, and the JSON-lines event log. Each game's loop keeps only its own rules,
//! drawing and events.

use anyhow::{Context, Result};
use image::RgbaImage;
use minifb::{Key, MouseButton, MouseMode, Window, WindowOptions};
use serde::Serialize;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::{Duration, Instant};

/// The event log, one JSON object per line, flushed each line so a killed game still leaves
/// a readable log (the end-to-end tests judge the bot by it, not by the bot's own account).
pub(super) struct EventLog(Option<BufWriter<File>>);

impl EventLog {
    /// A log written to `path`, or one that drops everything when there is none.
    pub(super) fn create(path: Option<&Path>) -> Result<EventLog> {
        Ok(EventLog(match path {
            Some(p) => {
                Some(BufWriter::new(File::create(p).with_context(|| {
                    format!("creating the event log {}", p.display())
                })?))
            }
            None => None,
        }))
    }

    pub(super) fn write(&mut self, value: &impl Serialize) -> Result<()> {
        if let Some(w) = &mut self.0 {
            serde_json::to_writer(&mut *w, value)?;
            w.write_all(b"\n")?;
            w.flush()?;
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
            .with_context(|| format!("opening a {w}x{h} game window (is DISPLAY set?)"))?;
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
            .context("drawing the game window")
    }
}
