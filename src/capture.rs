//! Where frames come from: a live window, a recorded session folder, or frames held in
//! memory.
//!
//! The play loop only ever asks a [`FrameSource`] for the next [`Frame`], so the same loop
//! runs against a real game, a replay, or a test's hand-made frames. A frame carries the
//! screen position of its top-left pixel because windows move: a click at image pixel
//! (px, py) goes to screen point (origin.0 + px, origin.1 + py) of *that* frame.

use crate::vision::load::LoadError;
use image::RgbaImage;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// One captured image of a window's client area.
#[derive(Clone, Debug)]
pub struct Frame {
    /// The client area's pixels.
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

/// An image file that could not be loaded: the error of [`crate::vision::load_image`],
/// which names the file and the problem.
#[derive(Debug, thiserror::Error)]
#[error(transparent)]
pub struct ImageLoadError(#[from] pub LoadError);

impl ImageLoadError {
    /// Loads `path` with [`crate::vision::load_image`], turning its error into this type.
    pub fn load(path: &Path) -> Result<RgbaImage, ImageLoadError> {
        Ok(crate::vision::load_image(path)?)
    }
}

/// Why there is no frame to be had (not why a frame is hard to read: that is vision's).
#[derive(Debug, thiserror::Error)]
pub enum CaptureError {
    /// A [`VecSource`] handed out every frame it was given.
    #[error("no frames left in the in-memory source")]
    Exhausted,
    /// A recorded session's folder could not be listed.
    #[error("listing recorded frames in {}", dir.display())]
    ListFrames {
        /// The folder.
        dir: PathBuf,
        /// What the file system said.
        #[source]
        source: std::io::Error,
    },
    /// A folder with no `frame-*.png` file.
    #[error("{}: no frame-*.png files (not a recorded session)", dir.display())]
    NoFrames {
        /// The folder.
        dir: PathBuf,
    },
    /// A [`FolderSource`] handed out every frame of its recording.
    #[error("the recording has only {frames} frames")]
    RecordingEnded {
        /// Frames in the recording.
        frames: usize,
    },
    /// A recorded frame's file could not be loaded.
    #[error("reading frame {}", path.display())]
    ReadFrame {
        /// The frame's file.
        path: PathBuf,
        /// The loader's error.
        #[source]
        source: ImageLoadError,
    },
    /// The window system could not list its windows.
    #[error("listing windows failed: {0} (is DISPLAY set and a window manager running?)")]
    ListWindows(String),
    /// No window, or more than one, matches the query.
    #[error(transparent)]
    Choose(#[from] ChooseError),
    /// The window's client area has no pixel.
    #[error("window {title:?} has an empty client area")]
    EmptyWindow {
        /// The window's title.
        title: String,
    },
    /// Capturing the window failed, most often because it was closed.
    #[error("capturing window {title:?} (was it closed?)")]
    Window {
        /// The window's title.
        title: String,
        /// The capture library's error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The window was closed (simulated windows, which know it).
    #[error("the window was closed")]
    Closed,
}

/// Something that produces frames on demand.
pub trait FrameSource {
    /// The current picture; an error means there is no picture to be had (window closed,
    /// recording exhausted), not that the picture is hard to read.
    fn frame(&mut self) -> Result<Frame, CaptureError>;
}

/// A source shared with other handles (a headless window that is also the clicker, as one
/// screen is both live): each frame borrows it for the call.
impl<T: FrameSource + ?Sized> FrameSource for Rc<RefCell<T>> {
    fn frame(&mut self) -> Result<Frame, CaptureError> {
        self.borrow_mut().frame()
    }
}

/// Frames given in advance, handed out in order (tests).
pub struct VecSource {
    frames: VecDeque<Frame>,
}

impl VecSource {
    /// A source that hands out `frames` in order, then fails.
    pub fn new(frames: Vec<Frame>) -> Self {
        VecSource {
            frames: frames.into(),
        }
    }
}

impl FrameSource for VecSource {
    fn frame(&mut self) -> Result<Frame, CaptureError> {
        self.frames.pop_front().ok_or(CaptureError::Exhausted)
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
    pub fn new(dir: &Path) -> Result<Self, CaptureError> {
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|source| CaptureError::ListFrames {
                dir: dir.to_path_buf(),
                source,
            })?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("frame-") && n.ends_with(".png"))
            })
            .collect();
        paths.sort();
        if paths.is_empty() {
            return Err(CaptureError::NoFrames {
                dir: dir.to_path_buf(),
            });
        }
        Ok(FolderSource { paths, next: 0 })
    }

    /// Number of frame files in the folder.
    pub fn len(&self) -> usize {
        self.paths.len()
    }

    /// Whether the folder holds no frame (never true for a source that was created).
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }
}

impl FrameSource for FolderSource {
    fn frame(&mut self) -> Result<Frame, CaptureError> {
        let path = self
            .paths
            .get(self.next)
            .ok_or(CaptureError::RecordingEnded {
                frames: self.paths.len(),
            })?;
        self.next += 1;
        Ok(Frame {
            image: ImageLoadError::load(path).map_err(|source| CaptureError::ReadFrame {
                path: path.clone(),
                source,
            })?,
            origin: (0, 0),
        })
    }
}

mod choose;
pub use choose::{choose, ChooseError, WindowQuery};

/// A window as listed by `list_windows` (with the `live` feature).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WindowInfo {
    /// The window system's id (`llk play --window-id`).
    pub id: u32,
    /// The process that owns it (0 when the window does not say).
    pub pid: u32,
    /// `_NET_WM_NAME`, or `WM_NAME` for windows that set only that.
    pub title: String,
    /// The application (`WM_CLASS` class) name.
    pub app: String,
    /// Screen x of the window's left edge, pixels.
    pub x: i32,
    /// Screen y of the window's top edge, pixels.
    pub y: i32,
    /// Width, pixels.
    pub width: u32,
    /// Height, pixels.
    pub height: u32,
    /// Whether the window is minimized (nothing of it can be captured).
    pub minimized: bool,
}

#[cfg(feature = "live")]
pub use live::{list_windows, WindowSource};

#[cfg(feature = "live")]
mod live {
    use super::{choose, CaptureError, Frame, FrameSource, WindowInfo, WindowQuery};

    type Result<T> = std::result::Result<T, CaptureError>;

    /// `WM_NAME` of any text type. xcap reads `_NET_WM_NAME`, then `WM_NAME` only when it is
    /// COMPOUND_TEXT, so the titles of older X11 apps (`xlogo`: `WM_NAME(STRING)`) come back
    /// empty from it.
    #[cfg(target_os = "linux")]
    mod wm_names {
        pub struct WmNames(xcb::Connection);

        impl WmNames {
            /// A connection to the display of `DISPLAY`; `None` when there is none.
            pub fn connect() -> Option<WmNames> {
                xcb::Connection::connect(None).ok().map(|(c, _)| WmNames(c))
            }

            /// The `WM_NAME` of window `id`, when it has a non-empty one.
            pub fn get(&self, id: u32) -> Option<String> {
                // A stale id only makes the request fail, which gives `None`.
                let window: xcb::x::Window = xcb::XidNew::new(id);
                let cookie = self.0.send_request(&xcb::x::GetProperty {
                    delete: false,
                    window,
                    property: xcb::x::ATOM_WM_NAME,
                    r#type: xcb::x::ATOM_ANY,
                    long_offset: 0,
                    long_length: 1024,
                });
                let reply = self.0.wait_for_reply(cookie).ok()?;
                let text = String::from_utf8_lossy(reply.value::<u8>()).into_owned();
                (!text.is_empty()).then_some(text)
            }
        }
    }

    /// No `WM_NAME` fallback off Linux: xcap's titles are all there is.
    #[cfg(not(target_os = "linux"))]
    mod wm_names {
        pub struct WmNames;
        impl WmNames {
            pub fn connect() -> Option<WmNames> {
                None
            }
            pub fn get(&self, _id: u32) -> Option<String> {
                None
            }
        }
    }

    /// Every window xcap sees (needs an EWMH window manager on X11).
    pub fn list_windows() -> Result<Vec<WindowInfo>> {
        Ok(windows()?.into_iter().map(|(_, info)| info).collect())
    }

    /// xcap's windows with what `llk windows` shows of each.
    fn windows() -> Result<Vec<(xcap::Window, WindowInfo)>> {
        let all = xcap::Window::all().map_err(|e| CaptureError::ListWindows(e.to_string()))?;
        let names = wm_names::WmNames::connect();
        Ok(all
            .into_iter()
            .map(|w| {
                let id = w.id().unwrap_or(0);
                let mut title = w.title().unwrap_or_default();
                if title.is_empty() {
                    title = names.as_ref().and_then(|n| n.get(id)).unwrap_or_default();
                }
                let info = WindowInfo {
                    id,
                    pid: w.pid().unwrap_or(0),
                    title,
                    app: w.app_name().unwrap_or_default(),
                    x: w.x().unwrap_or(0),
                    y: w.y().unwrap_or(0),
                    width: w.width().unwrap_or(0),
                    height: w.height().unwrap_or(0),
                    minimized: w.is_minimized().unwrap_or(false),
                };
                (w, info)
            })
            .collect())
    }

    /// A live window, captured with xcap. Its position is re-read on every frame, so a
    /// moved window keeps being clicked in the right place.
    pub struct WindowSource {
        window: xcap::Window,
        info: WindowInfo,
    }

    impl WindowSource {
        /// Finds the one window whose title or application name contains `name`
        /// (case-insensitive; an exact match wins over substrings).
        pub fn find(name: &str) -> Result<Self> {
            Self::open(&WindowQuery::Name(name.to_string()))
        }

        /// Opens the one window `query` names; fails with a [`ChooseError`](super::ChooseError) (listing the
        /// candidates with their ids) when none or several match.
        pub fn open(query: &WindowQuery) -> Result<Self> {
            let all = windows()?;
            let infos: Vec<WindowInfo> = all.iter().map(|(_, i)| i.clone()).collect();
            let chosen = choose(&infos, query)?;
            let (window, info) = all
                .into_iter()
                .find(|(_, i)| i == chosen)
                .expect("the chosen window comes from this list");
            Ok(WindowSource { window, info })
        }

        /// The window found, as `llk windows` lists it.
        pub fn info(&self) -> &WindowInfo {
            &self.info
        }

        /// The full title of the window found.
        pub fn title(&self) -> &str {
            &self.info.title
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
                (_, _, Ok(_)) => Err(CaptureError::EmptyWindow {
                    title: self.info.title.clone(),
                }),
                (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => Err(CaptureError::Window {
                    title: self.info.title.clone(),
                    source: Box::new(e),
                }),
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
    fn image_load_error_names_the_file() {
        let p = Path::new("/nonexistent/llk-frame.png");
        let e = ImageLoadError::load(p).unwrap_err();
        assert!(e.to_string().contains("llk-frame.png"), "{e}");
        assert!(matches!(e.0, LoadError::Open { .. }), "{e}");
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
