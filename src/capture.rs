//! Where frames come from: a live window, a recorded session folder, or frames held in
//! memory.
//!
//! The play loop only ever asks a [`FrameSource`] for the next [`Frame`], so the same loop
//! runs against a real game, a replay, or a test's hand-made frames. A frame carries the
//! screen position of its top-left pixel because windows move: a click at image pixel
//! (px, py) goes to screen point (origin.0 + px, origin.1 + py) of *that* frame.

use anyhow::{bail, Context, Result};
use image::RgbaImage;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};

/// One captured image of a window's client area.
#[derive(Clone, Debug)]
pub struct Frame {
    pub image: RgbaImage,
    /// Screen position of the image's (0, 0).
    pub origin: (i32, i32),
}

impl Frame {
    /// The screen point of image pixel (x, y), rounded to the pixel the pointer can reach.
    pub fn to_screen(&self, x: f32, y: f32) -> (i32, i32) {
        (
            self.origin.0 + x.floor() as i32,
            self.origin.1 + y.floor() as i32,
        )
    }

    /// Whether screen point (x, y) lies on this frame (the window's client rectangle).
    pub fn contains_screen(&self, x: i32, y: i32) -> bool {
        let (w, h) = self.image.dimensions();
        x >= self.origin.0
            && y >= self.origin.1
            && ((x - self.origin.0) as u32) < w
            && ((y - self.origin.1) as u32) < h
    }
}

/// Something that produces frames on demand.
pub trait FrameSource {
    /// The current picture; an error means there is no picture to be had (window closed,
    /// recording exhausted), not that the picture is hard to read.
    fn frame(&mut self) -> Result<Frame>;
}

/// Frames given in advance, handed out in order (tests).
pub struct VecSource {
    frames: VecDeque<Frame>,
}

impl VecSource {
    pub fn new(frames: Vec<Frame>) -> Self {
        VecSource {
            frames: frames.into(),
        }
    }
}

impl FrameSource for VecSource {
    fn frame(&mut self) -> Result<Frame> {
        self.frames
            .pop_front()
            .context("no frames left in the in-memory source")
    }
}

/// The PNG frames of a recorded session folder (`frame-NNNNN.png`, in name order), each
/// with origin (0, 0): a recording's screen positions live in its log.
pub struct FolderSource {
    paths: Vec<PathBuf>,
    next: usize,
}

impl FolderSource {
    /// Lists the frames of `dir`; fails when it has none.
    pub fn new(dir: &Path) -> Result<Self> {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .with_context(|| format!("listing recorded frames in {}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("frame-") && n.ends_with(".png"))
            })
            .collect();
        paths.sort();
        if paths.is_empty() {
            bail!(
                "{}: no frame-*.png files (not a recorded session)",
                dir.display()
            );
        }
        Ok(FolderSource { paths, next: 0 })
    }

    pub fn len(&self) -> usize {
        self.paths.len()
    }

    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }
}

impl FrameSource for FolderSource {
    fn frame(&mut self) -> Result<Frame> {
        let path = self
            .paths
            .get(self.next)
            .with_context(|| format!("the recording has only {} frames", self.paths.len()))?;
        self.next += 1;
        Ok(Frame {
            image: load_png(path)?,
            origin: (0, 0),
        })
    }
}

/// Loads a PNG frame with a one-line error naming the file.
pub fn load_png(path: &Path) -> Result<RgbaImage> {
    Ok(image::open(path)
        .with_context(|| format!("reading frame {}", path.display()))?
        .to_rgba8())
}

/// A window as listed by [`list_windows`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WindowInfo {
    pub id: u32,
    pub title: String,
    pub app: String,
    pub x: i32,
    pub y: i32,
    pub width: u32,
    pub height: u32,
    pub minimized: bool,
}

#[cfg(feature = "live")]
pub use live::{list_windows, WindowSource};

#[cfg(feature = "live")]
mod live {
    use super::{Frame, FrameSource, WindowInfo};
    use anyhow::{bail, Context, Result};

    /// Every window xcap sees (needs an EWMH window manager on X11).
    pub fn list_windows() -> Result<Vec<WindowInfo>> {
        let all = xcap::Window::all().map_err(|e| {
            anyhow::anyhow!(
                "listing windows failed: {e} (is DISPLAY set and a window manager running?)"
            )
        })?;
        Ok(all
            .iter()
            .map(|w| WindowInfo {
                id: w.id().unwrap_or(0),
                title: w.title().unwrap_or_default(),
                app: w.app_name().unwrap_or_default(),
                x: w.x().unwrap_or(0),
                y: w.y().unwrap_or(0),
                width: w.width().unwrap_or(0),
                height: w.height().unwrap_or(0),
                minimized: w.is_minimized().unwrap_or(false),
            })
            .collect())
    }

    /// A live window found by title, captured with xcap. Its position is re-read on every
    /// frame, so a moved window keeps being clicked in the right place.
    pub struct WindowSource {
        window: xcap::Window,
        title: String,
    }

    impl WindowSource {
        /// Finds the one window whose title contains `title` (case-insensitive; an exact
        /// match wins over substrings). Fails listing the candidates when none or several
        /// match.
        pub fn find(title: &str) -> Result<Self> {
            let all = xcap::Window::all().map_err(|e| {
                anyhow::anyhow!(
                    "listing windows failed: {e} (is DISPLAY set and a window manager running?)"
                )
            })?;
            let needle = title.to_lowercase();
            let titled: Vec<(xcap::Window, String)> = all
                .into_iter()
                .filter(|w| !w.is_minimized().unwrap_or(false))
                .map(|w| {
                    let t = w.title().unwrap_or_default();
                    (w, t)
                })
                .collect();
            let mut hits: Vec<&(xcap::Window, String)> = titled
                .iter()
                .filter(|(_, t)| t.to_lowercase().contains(&needle))
                .collect();
            if hits.len() > 1 {
                let exact: Vec<_> = hits.iter().copied().filter(|(_, t)| t == title).collect();
                if exact.len() == 1 {
                    hits = exact;
                }
            }
            match hits.as_slice() {
                [(w, t)] => Ok(WindowSource {
                    window: w.clone(),
                    title: t.clone(),
                }),
                [] => {
                    let names: Vec<String> = titled.iter().map(|(_, t)| format!("{t:?}")).collect();
                    bail!(
                        "no window title contains {title:?}; windows: {}",
                        if names.is_empty() {
                            "none".to_string()
                        } else {
                            names.join(", ")
                        }
                    )
                }
                many => {
                    let names: Vec<String> = many.iter().map(|(_, t)| format!("{t:?}")).collect();
                    bail!(
                        "{} windows match {title:?}: {}; give more of the title",
                        many.len(),
                        names.join(", ")
                    )
                }
            }
        }

        /// The full title of the window found.
        pub fn title(&self) -> &str {
            &self.title
        }
    }

    impl FrameSource for WindowSource {
        fn frame(&mut self) -> Result<Frame> {
            let x = self.window.x();
            let y = self.window.y();
            let image = self.window.capture_image();
            match (x, y, image) {
                (Ok(x), Ok(y), Ok(image)) if image.width() > 0 && image.height() > 0 => Ok(Frame {
                    image,
                    origin: (x, y),
                }),
                (_, _, Ok(_)) => bail!("window {:?} has an empty client area", self.title),
                (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => Err(e)
                    .with_context(|| format!("capturing window {:?} (was it closed?)", self.title)),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn screen_points_and_bounds() {
        let f = Frame {
            image: RgbaImage::new(100, 50),
            origin: (200, 300),
        };
        assert_eq!(f.to_screen(10.6, 20.2), (210, 320));
        assert!(f.contains_screen(200, 300));
        assert!(f.contains_screen(299, 349));
        assert!(!f.contains_screen(300, 320));
        assert!(!f.contains_screen(199, 320));
    }

    #[test]
    fn vec_source_runs_out_with_an_error() {
        let mut s = VecSource::new(vec![Frame {
            image: RgbaImage::new(2, 2),
            origin: (0, 0),
        }]);
        assert!(s.frame().is_ok());
        assert!(s.frame().is_err());
    }

    #[test]
    fn folder_source_needs_frames() {
        let dir = std::env::temp_dir().join(format!("llk-capture-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let err = FolderSource::new(&dir).err().unwrap().to_string();
        assert!(err.contains("no frame-"), "{err}");
        RgbaImage::new(3, 2)
            .save(dir.join("frame-00001.png"))
            .unwrap();
        RgbaImage::new(4, 2)
            .save(dir.join("frame-00000.png"))
            .unwrap();
        let mut s = FolderSource::new(&dir).unwrap();
        assert_eq!(s.frame().unwrap().image.width(), 4, "name order");
        assert_eq!(s.frame().unwrap().image.width(), 3);
        assert!(s.frame().is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
