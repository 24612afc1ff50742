//! Drawing boards as a game would, and annotating frames for people.
//!
//! The renderer is how the project gets screenshots with known truth: every fixture, the
//! vision tests' large on-the-fly set and the bundled practice game draw through
//! [`render_board`] (or a cached [`Renderer`]), and because the renderer also reports the
//! [`Grid`] it used, a reader's output can be checked cell by cell. It deliberately imitates
//! what makes real screenshots hard: 3-D tile edges, textured backgrounds, window chrome,
//! JPEG artefacts and fractional DPI scaling.
//!
//! [`annotate`] goes the other way: it draws what the bot believes (grid, types, links,
//! doubts) over a frame so a person can check it at a glance.

pub mod annotate;
pub mod background;
pub mod fixtures;
pub mod font;
pub mod paint;
pub mod theme;
pub mod tiles;

pub use background::Background;
pub use theme::{Style, Theme};

use crate::board::{Board, Cell, Link, Pos};
use crate::geometry::Grid;
use image::{imageops, ImageFormat, RgbImage, RgbaImage};
use paint::{disc, fill_rect, segment, stroke_rect};
use std::collections::HashMap;

/// Everything that decides how a board looks. The same spec and board always give the same
/// pixels, so fixtures can be regenerated instead of stored.
#[derive(Clone, Debug, PartialEq)]
pub struct RenderSpec {
    /// Tile faces, symbols and colours.
    pub theme: Theme,
    /// Size (w, h) of one tile in pixels at scale 1, its 3-D edge included.
    pub cell: (u32, u32),
    /// Background pixels between neighbouring tiles.
    pub gap: u32,
    /// Top-left of the board area in the window at scale 1; `None` leaves room for the
    /// title bar and one ring cell (where links may run) around the board.
    pub origin: Option<(u32, u32)>,
    /// Window size at scale 1; `None` fits the board, its ring and the chrome. A size too
    /// small for the board is enlarged to fit it.
    pub canvas: Option<(u32, u32)>,
    /// What is drawn behind the board.
    pub background: Background,
    /// Whether to draw the title and status bars.
    pub chrome: bool,
    /// Seeds the background texture.
    pub seed: u64,
    /// Tiles shown as selected, as a game highlights the tile just clicked.
    pub selected: Vec<Pos>,
    /// Link paths shown, as a game flashes the path of a removed pair.
    pub links: Vec<Link>,
    /// Encode and decode as JPEG at this quality (1..=100) to add real compression
    /// artefacts; `None` keeps exact pixels.
    pub jpeg_quality: Option<u8>,
    /// Resize the finished window by this factor, as a 125 % or 150 % DPI screen does;
    /// the grid then has a fractional pitch.
    pub scale: f32,
}

impl Default for RenderSpec {
    fn default() -> Self {
        RenderSpec {
            theme: Theme::Classic,
            cell: (31, 35),
            gap: 0,
            origin: None,
            canvas: None,
            background: Background::Plain,
            chrome: true,
            seed: 0,
            selected: Vec::new(),
            links: Vec::new(),
            jpeg_quality: None,
            scale: 1.0,
        }
    }
}

impl RenderSpec {
    /// Checks the spec is drawable: a sane tile size, scale and JPEG quality, and a window
    /// no larger than a JPEG can hold. [`render_board`] assumes a valid spec.
    pub fn validate(&self, rows: usize, cols: usize) -> Result<(), SpecError> {
        let (w, h) = self.cell;
        if !(6..=512).contains(&w) || !(6..=512).contains(&h) {
            return Err(SpecError::TileSize(w, h));
        }
        if self.gap > 256 {
            return Err(SpecError::Gap(self.gap));
        }
        if !(self.scale.is_finite() && (0.25..=4.0).contains(&self.scale)) {
            return Err(SpecError::Scale(self.scale));
        }
        if let Some(q) = self.jpeg_quality {
            if !(1..=100).contains(&q) {
                return Err(SpecError::JpegQuality(q));
            }
        }
        let layout = Layout::new(self, rows, cols);
        let (cw, ch) = layout.canvas;
        let (sw, sh) = (cw as f32 * self.scale, ch as f32 * self.scale);
        if sw > 16_000.0 || sh > 16_000.0 {
            return Err(SpecError::TooLarge(sw, sh));
        }
        Ok(())
    }
}

/// Why [`RenderSpec::validate`] refuses a spec.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum SpecError {
    /// A tile side outside 6..=512 px.
    #[error("tile size {0}x{1} px: each side must be 6..=512")]
    TileSize(u32, u32),
    /// A gap over 256 px.
    #[error("gap {0} px: must be at most 256")]
    Gap(u32),
    /// A scale outside 0.25..=4 (or not a number).
    #[error("scale {0}: must be 0.25..=4")]
    Scale(f32),
    /// A JPEG quality outside 1..=100.
    #[error("JPEG quality {0}: must be 1..=100")]
    JpegQuality(u8),
    /// A window (scaled) over 16000 px on a side.
    #[error("window {0:.0}x{1:.0} px is too large (at most 16000 px a side)")]
    TooLarge(f32, f32),
}

/// A drawn board and the grid it was drawn on, in the final (scaled) pixels.
#[derive(Clone, Debug)]
pub struct Rendered {
    /// The picture.
    pub image: RgbaImage,
    /// Where its cells are, pixels.
    pub grid: Grid,
}

/// Where things go at scale 1.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Layout {
    rows: usize,
    cols: usize,
    pitch: (u32, u32),
    origin: (u32, u32),
    canvas: (u32, u32),
}

impl Layout {
    fn new(spec: &RenderSpec, rows: usize, cols: usize) -> Layout {
        let pitch = (spec.cell.0 + spec.gap, spec.cell.1 + spec.gap);
        let ring = (pitch.0 + 10, pitch.1 + 10);
        let top = if spec.chrome { background::TITLE_H } else { 0 };
        let bottom = if spec.chrome { background::STATUS_H } else { 0 };
        let origin = spec.origin.unwrap_or((ring.0, top + ring.1));
        let board = (cols as u32 * pitch.0, rows as u32 * pitch.1);
        let fit = (
            origin.0 + board.0 + ring.0,
            origin.1 + board.1 + ring.1 + bottom,
        );
        let canvas = match spec.canvas {
            None => fit,
            Some((w, h)) => (w.max(origin.0 + board.0 + 1), h.max(origin.1 + board.1 + 1)),
        };
        Layout {
            rows,
            cols,
            pitch,
            origin,
            canvas,
        }
    }

    fn grid(&self) -> Grid {
        Grid {
            origin: (self.origin.0 as f32, self.origin.1 as f32),
            pitch: (self.pitch.0 as f32, self.pitch.1 as f32),
            rows: self.rows,
            cols: self.cols,
        }
    }
}

/// A renderer for one spec that caches the window background and every tile bitmap, so
/// redrawing a board (the practice game at 60 fps) costs one copy and a blit per tile.
pub struct Renderer {
    spec: RenderSpec,
    style: Style,
    layout: Layout,
    base: RgbaImage,
    tiles: HashMap<u8, RgbaImage>,
    obstacle: RgbaImage,
}

impl Renderer {
    /// Prepares the window for a `rows × cols` board. The spec's `selected` and `links` are
    /// ignored here: they are per frame, see [`Renderer::draw`].
    pub fn new(spec: &RenderSpec, rows: usize, cols: usize) -> Renderer {
        let style = spec.theme.style();
        let layout = Layout::new(spec, rows, cols);
        let base = Self::draw_base(spec, &style, &layout);
        let obstacle = tiles::draw_obstacle(&style, spec.cell.0, spec.cell.1);
        Renderer {
            spec: spec.clone(),
            style,
            layout,
            base,
            tiles: HashMap::new(),
            obstacle,
        }
    }

    fn draw_base(spec: &RenderSpec, style: &Style, layout: &Layout) -> RgbaImage {
        let (w, h) = layout.canvas;
        let mut img = background::fill(spec.background, style.background, w, h, spec.seed);
        if spec.chrome {
            let g = layout.grid();
            let (bx, by, bw, bh) = g.bounds();
            let keep = (
                bx - g.pitch.0,
                by - g.pitch.1,
                bw + 2.0 * g.pitch.0,
                bh + 2.0 * g.pitch.1,
            );
            let title = format!(
                "LLK practice — {} {}×{}",
                spec.theme, layout.rows, layout.cols
            );
            background::draw_chrome(&mut img, style, &title, keep);
        }
        img
    }

    /// The grid of the final image (after scaling).
    pub fn grid(&self) -> Grid {
        self.final_geometry().0
    }

    fn final_geometry(&self) -> (Grid, (u32, u32)) {
        let g = self.layout.grid();
        let (w, h) = self.layout.canvas;
        if (self.spec.scale - 1.0).abs() < 1e-6 {
            return (g, (w, h));
        }
        let nw = ((w as f32 * self.spec.scale).round() as u32).max(1);
        let nh = ((h as f32 * self.spec.scale).round() as u32).max(1);
        // The true factors after rounding the window size, so the grid matches the pixels.
        let (sx, sy) = (nw as f32 / w as f32, nh as f32 / h as f32);
        let grid = Grid {
            origin: (g.origin.0 * sx, g.origin.1 * sy),
            pitch: (g.pitch.0 * sx, g.pitch.1 * sy),
            rows: g.rows,
            cols: g.cols,
        };
        (grid, (nw, nh))
    }

    /// Draws `board` with `selected` tiles highlighted and `links` shown. A board of a
    /// different size than the renderer was made for re-lays the window first.
    pub fn draw(&mut self, board: &Board, selected: &[Pos], links: &[Link]) -> Rendered {
        if (board.rows(), board.cols()) != (self.layout.rows, self.layout.cols) {
            self.layout = Layout::new(&self.spec, board.rows(), board.cols());
            self.base = Self::draw_base(&self.spec, &self.style, &self.layout);
        }
        let mut img = self.base.clone();
        let g = self.layout.grid();
        let inset = (self.spec.gap / 2) as i32;
        for (p, cell) in board.positions().map(|p| (p, board.get(p))) {
            let (x, y, _, _) = g.cell_rect(p.row as i32, p.col as i32);
            let (x, y) = (x as i32 + inset, y as i32 + inset);
            match cell {
                Cell::Empty => {}
                Cell::Obstacle => paint::blit(&mut img, &self.obstacle, x, y),
                Cell::Tile(t) => {
                    let (style, (w, h)) = (&self.style, self.spec.cell);
                    let tile = self
                        .tiles
                        .entry(t)
                        .or_insert_with(|| tiles::draw_tile(style, t, w, h));
                    paint::blit(&mut img, tile, x, y);
                }
            }
        }
        for &p in selected.iter().filter(|p| board.contains(**p)) {
            let (x, y, _, _) = g.cell_rect(p.row as i32, p.col as i32);
            let (x, y) = (x + inset as f32, y + inset as f32);
            let (w, h) = (self.spec.cell.0 as f32, self.spec.cell.1 as f32);
            let hl = self.style.highlight;
            fill_rect(&mut img, x, y, x + w, y + h, hl, 0.35);
            let t = (w.min(h) / 14.0).max(2.0);
            stroke_rect(&mut img, x, y, x + w, y + h, t, hl);
        }
        let width = (g.pitch.0.min(g.pitch.1) / 9.0).max(3.0);
        for link in links {
            for pair in link.path.windows(2) {
                let (a, b) = (g.point_center(pair[0]), g.point_center(pair[1]));
                segment(&mut img, a, b, width, self.style.link, 1.0);
            }
            for &p in &link.path {
                disc(
                    &mut img,
                    g.point_center(p),
                    width * 0.9,
                    self.style.link,
                    1.0,
                );
            }
        }
        let (grid, (nw, nh)) = self.final_geometry();
        if (nw, nh) != img.dimensions() {
            img = imageops::resize(&img, nw, nh, imageops::FilterType::Triangle);
        }
        if let Some(q) = self.spec.jpeg_quality {
            img = jpeg_round_trip(&img, q);
        }
        Rendered { image: img, grid }
    }
}

/// Encodes as JPEG at quality `q` and decodes again, giving the blocking and ringing of a
/// real compressed screenshot.
pub fn jpeg_round_trip(img: &RgbaImage, q: u8) -> RgbaImage {
    let rgb: RgbImage = image::DynamicImage::ImageRgba8(img.clone()).to_rgb8();
    let mut buf = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut buf, q.clamp(1, 100))
        .encode_image(&rgb)
        .expect("JPEG encoding of an in-memory image within JPEG's size limits succeeds");
    image::load_from_memory_with_format(&buf, ImageFormat::Jpeg)
        .expect("a JPEG we just encoded decodes")
        .to_rgba8()
}

/// Draws `board` as a game would and reports where its cells are. Deterministic: the same
/// board and spec give the same pixels. The spec must pass [`RenderSpec::validate`].
pub fn render_board(board: &Board, spec: &RenderSpec) -> Rendered {
    Renderer::new(spec, board.rows(), board.cols()).draw(board, &spec.selected, &spec.links)
}
