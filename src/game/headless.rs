//! The bundled Lianliankan game's window without the display: the game's rules, the picture
//! the window shows, where the window sits on the screen, and the game's clock.
//!
//! The real window (`game::window`, with the `live` feature) shows [`Headless::picture`]
//! and hands its presses to [`Headless::press`]; with no display, a [`Headless`] is itself
//! a [`FrameSource`] and a [`Clicker`], so the play loop plays the bundled game in memory
//! on the very pixels the window would show (`examples/play_bundled.rs`, the agent's
//! simulator tests). Share one between the loop's source and clicker as an
//! `Rc<RefCell<Headless>>`, as one screen is both live.

use super::logic::{Event, Game};
use crate::board::{Board, Pos};
use crate::capture::{CaptureError, Frame, FrameSource};
use crate::geometry::Grid;
use crate::input::{ClickError, Clicker};
use crate::render::background::STATUS_H;
use crate::render::{font, paint, RenderSpec, Renderer};
use image::RgbaImage;
use std::time::Instant;

/// The bundled game as its window holds it, minus the display.
pub struct Headless {
    game: Game,
    spec: RenderSpec,
    renderer: Renderer,
    grid: Grid,
    origin: (i32, i32),
    start: Instant,
}

impl Headless {
    /// `game` drawn as `spec` says (a spec that passes [`RenderSpec::validate`] for the
    /// game's board), the window's client area at the screen's top-left; the game's clock
    /// starts now.
    pub fn new(game: Game, spec: &RenderSpec) -> Headless {
        let board = game.board();
        let renderer = Renderer::new(spec, board.rows(), board.cols());
        Headless {
            grid: renderer.grid(),
            game,
            spec: spec.clone(),
            renderer,
            origin: (0, 0),
            start: Instant::now(),
        }
    }

    /// The game: its board, selection, link on show and totals.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Where the cells are, window pixels.
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// Screen position of the window's client area (its pixel (0, 0)).
    pub fn origin(&self) -> (i32, i32) {
        self.origin
    }

    /// Moves the window: its client area's top-left goes to screen point `origin`.
    pub fn move_to(&mut self, origin: (i32, i32)) {
        self.origin = origin;
    }

    /// Lays the board out anew as `spec` says (a window resized, a board moved inside it).
    pub fn relayout(&mut self, spec: &RenderSpec) {
        let board = self.game.board();
        self.renderer = Renderer::new(spec, board.rows(), board.cols());
        self.grid = self.renderer.grid();
        self.spec = spec.clone();
    }

    /// Milliseconds since the game started: the game's own clock, which ends a removal's
    /// animation.
    pub fn now(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Advances the game to now; returns what happened (a pair removed, the board cleared).
    pub fn tick(&mut self) -> Vec<Event> {
        let now = self.now();
        self.game.tick(now)
    }

    /// A press at window pixel (x, y), handed to the game with the cell under it.
    pub fn press(&mut self, x: f32, y: f32) -> Vec<Event> {
        let cell = self.grid.cell_at(x, y);
        let now = self.now();
        self.game.click(x, y, cell, now)
    }

    /// A press at screen point (x, y): on the window's pixel there, at its centre.
    pub fn press_screen(&mut self, x: i32, y: i32) -> Vec<Event> {
        let (wx, wy) = (
            (x - self.origin.0) as f32 + 0.5,
            (y - self.origin.1) as f32 + 0.5,
        );
        self.press(wx, wy)
    }

    /// What the window shows now: the game's board with its selection and link.
    pub fn picture(&mut self) -> RgbaImage {
        let board = self.game.board().clone();
        let selected: Vec<Pos> = self.game.selected().into_iter().collect();
        self.picture_of(&board, &selected)
    }

    /// The window's picture with `board` in place of the game's and `selected` tiles
    /// highlighted (a test's stand-in: a frame caught mid-redraw, a hovered tile), the
    /// game's link on show, and once the game is cleared a "Cleared!" banner in the status
    /// bar — off the board, so a reader sees a plainly empty board rather than text over
    /// the cells.
    pub fn picture_of(&mut self, board: &Board, selected: &[Pos]) -> RgbaImage {
        let links: Vec<_> = self.game.showing().cloned().into_iter().collect();
        let mut img = self.renderer.draw(board, selected, &links).image;
        if self.game.is_cleared() {
            let (w, h) = (img.width() as f32, img.height() as f32);
            let bar = (STATUS_H as f32 * self.spec.scale).min(h);
            let style = self.spec.theme.style();
            paint::fill_rect(&mut img, 0.0, h - bar, w, h, style.highlight, 1.0);
            font::draw_centred(
                &mut img,
                "Cleared!",
                w / 2.0,
                h - bar / 2.0,
                bar * 0.8,
                style.chrome_text,
            );
        }
        img
    }
}

impl FrameSource for Headless {
    /// The picture now: time advances first, so a matched pair's link disappears when the
    /// game says it does.
    fn frame(&mut self) -> Result<Frame, CaptureError> {
        self.tick();
        Ok(Frame {
            image: self.picture(),
            origin: self.origin,
        })
    }
}

impl Clicker for Headless {
    /// A press at screen point (x, y), handed to the game as the window would.
    fn click(&mut self, x: i32, y: i32) -> Result<(), ClickError> {
        self.press_screen(x, y);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GameConfig;

    #[test]
    fn a_click_on_a_cell_selects_it_and_the_picture_shows_it() {
        let config = GameConfig {
            rows: 4,
            cols: 6,
            types: 4,
            ..GameConfig::default()
        };
        let mut h = Headless::new(Game::new(&config).unwrap(), &RenderSpec::default());
        h.move_to((200, 100));
        let before = h.frame().unwrap();
        assert_eq!(before.origin, (200, 100));
        let p = Pos::new(1, 2);
        let (x, y) = h.grid().center(p);
        h.click(200 + x as i32, 100 + y as i32).unwrap();
        assert_eq!(h.game().selected(), Some(p));
        let after = h.frame().unwrap();
        assert_eq!(after.image.dimensions(), before.image.dimensions());
        assert_ne!(after.image, before.image, "the selection is drawn");
    }
}
