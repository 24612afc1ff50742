//! Where clicks go: the real mouse (enigo), nowhere (dry run), or a list (tests).
//!
//! The play loop only talks to a [`Clicker`], so the same loop can play live, rehearse
//! without touching the mouse, or be checked by a test that inspects every click.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

mod pace;
pub use pace::ClickPacer;

/// Why a click was not made.
#[derive(Debug, thiserror::Error)]
pub enum ClickError {
    /// The display's input could not be opened.
    #[error("connecting to the mouse (is DISPLAY set?)")]
    Connect(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// The pointer's position could not be read.
    #[error("reading the pointer position")]
    Pointer(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// A person moved the pointer away from where the bot left it.
    #[error("user took control{}", moved_text(*.moved))]
    UserTookControl {
        /// Where the pointer is now and where the bot last saw it, screen pixels, when the
        /// clicker knows them.
        moved: Option<((i32, i32), (i32, i32))>,
    },
    /// The input system refused to move the pointer or press the button.
    #[error("clicking at ({x}, {y})")]
    Click {
        /// Screen x of the click, pixels.
        x: i32,
        /// Screen y of the click, pixels.
        y: i32,
        /// The input library's error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The input system refused to move the pointer.
    #[error("moving the pointer to ({x}, {y})")]
    Move {
        /// Screen x of the target, pixels.
        x: i32,
        /// Screen y of the target, pixels.
        y: i32,
        /// The input library's error.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

/// ": the mouse moved to (x, y) from (x0, y0) where the bot last saw it", or nothing.
fn moved_text(moved: Option<((i32, i32), (i32, i32))>) -> String {
    match moved {
        Some((now, left)) => format!(
            ": the mouse moved to ({}, {}) from ({}, {}) where the bot last saw it",
            now.0, now.1, left.0, left.1
        ),
        None => String::new(),
    }
}

/// Something that can click at a screen point.
pub trait Clicker {
    /// A left click at screen point (x, y). Fails when the click could not be made, or when
    /// the user has taken the mouse back (live clickers).
    fn click(&mut self, x: i32, y: i32) -> Result<(), ClickError>;

    /// Fails when the user has taken the mouse back (live clickers); checked between
    /// clicks too, so a bot that is only watching the screen stops as soon as a click would.
    fn in_control(&self) -> Result<(), ClickError> {
        Ok(())
    }

    /// Moves the pointer to screen point (x, y) without clicking; returns whether it moved
    /// (clickers without a pointer do nothing).
    fn park(&mut self, _x: i32, _y: i32) -> Result<bool, ClickError> {
        Ok(false)
    }

    /// What the screen said about the last clicks: all registered (`true`), or one was
    /// lost. Clickers that learn their pace use it; the others ignore it.
    fn feedback(&mut self, _registered: bool) {}

    /// The button hold (and gap) in use, when the clicker paces its clicks.
    fn pace(&self) -> Option<Pace> {
        None
    }
}

/// A clicker shared with other handles (a headless window that is also the frame source,
/// as one screen is both live): each call borrows it.
impl<T: Clicker + ?Sized> Clicker for Rc<RefCell<T>> {
    fn click(&mut self, x: i32, y: i32) -> Result<(), ClickError> {
        self.borrow_mut().click(x, y)
    }

    fn in_control(&self) -> Result<(), ClickError> {
        self.borrow().in_control()
    }

    fn park(&mut self, x: i32, y: i32) -> Result<bool, ClickError> {
        self.borrow_mut().park(x, y)
    }

    fn feedback(&mut self, registered: bool) {
        self.borrow_mut().feedback(registered)
    }

    fn pace(&self) -> Option<Pace> {
        self.borrow().pace()
    }
}

/// How a clicker paces its clicks, for the summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pace {
    /// How long the button is held down.
    pub hold: Duration,
    /// Least time between a release and the next press.
    pub gap: Duration,
    /// Whether the pace was learnt (else it was given).
    pub learnt: bool,
    /// Clicks the game lost.
    pub lost: u32,
}

/// Clicks nothing, counts what it would have done: `llk play --dry-run`.
#[derive(Clone, Debug, Default)]
pub struct DryRun {
    /// Clicks that would have been made.
    pub count: usize,
}

impl Clicker for DryRun {
    fn click(&mut self, _x: i32, _y: i32) -> Result<(), ClickError> {
        self.count += 1;
        Ok(())
    }
}

/// Keeps every click, for tests that check where the bot clicked.
#[derive(Clone, Debug, Default)]
pub struct Recorder {
    /// Screen points clicked, in order.
    pub clicks: Vec<(i32, i32)>,
}

impl Clicker for Recorder {
    fn click(&mut self, x: i32, y: i32) -> Result<(), ClickError> {
        self.clicks.push((x, y));
        Ok(())
    }
}

/// Whether the pointer is still where the bot left it (within `tolerance` pixels on each
/// axis): if not, a person moved it and the bot must stop.
pub fn still_in_control(left_at: (i32, i32), now_at: (i32, i32), tolerance: i32) -> bool {
    (left_at.0 - now_at.0).abs() <= tolerance && (left_at.1 - now_at.1).abs() <= tolerance
}

#[cfg(feature = "live")]
pub use live::MouseClicker;

#[cfg(feature = "live")]
mod live {
    use super::{still_in_control, ClickError, ClickPacer, Clicker, Pace};
    use enigo::{Button, Coordinate, Direction, Enigo, Mouse, Settings};
    use std::thread::sleep;
    use std::time::{Duration, Instant};

    /// The real mouse. Holds the button `hold` and leaves at least `gap` between a release
    /// and the next press, because games that poll input once per frame miss enigo's 12 ms
    /// click (LIVE-TESTING.md); with a [`ClickPacer`] both are learnt from the game. The gap
    /// is waited lazily, before the next press, so time the bot spends polling the screen
    /// counts toward it. Before moving it checks the pointer is where it was left ("user
    /// took control").
    pub struct MouseClicker {
        enigo: Enigo,
        /// How long the button is held down.
        pub hold: Duration,
        /// Least time between a release and the next press.
        pub gap: Duration,
        /// Learns `hold` and `gap` (both set to its pace) from the loop's feedback.
        pub pacer: Option<ClickPacer>,
        lost: u32,
        /// Pixels the pointer may drift before the user is deemed to have taken over.
        pub tolerance: i32,
        left_at: Option<(i32, i32)>,
        released: Option<Instant>,
    }

    impl MouseClicker {
        /// Connects to the display's input (X11 on Linux) and notes where the pointer is now,
        /// so a person moving the mouse before the bot's first click stops it too, not only
        /// one moving it between clicks.
        pub fn new(hold: Duration, gap: Duration) -> Result<Self, ClickError> {
            // enigo's X11 backend has the server delay each fake button event by
            // `linux_delay` (12 ms), so a press lasts `hold` + 12 ms. Measured: with that
            // delay at 0 the bundled game loses clicks at a 50 ms hold and takes some late
            // (a retry then hits an emptied cell) in 2 of 3 games under load; with it, none.
            let enigo =
                Enigo::new(&Settings::default()).map_err(|e| ClickError::Connect(Box::new(e)))?;
            let left_at = enigo.location().ok();
            Ok(MouseClicker {
                enigo,
                hold,
                gap,
                pacer: None,
                lost: 0,
                tolerance: 3,
                left_at,
                released: None,
            })
        }

        /// Learns the hold and gap with `pacer`, starting from its pace.
        pub fn learning(mut self, pacer: ClickPacer) -> Self {
            self.hold = pacer.current();
            self.gap = pacer.current();
            self.pacer = Some(pacer);
            self
        }

        /// Fails with "user took control" when the pointer is no longer where the last
        /// click (or, before the first, the start) left it.
        pub fn check_control(&self) -> Result<(), ClickError> {
            if let Some(left) = self.left_at {
                let now = self
                    .enigo
                    .location()
                    .map_err(|e| ClickError::Pointer(Box::new(e)))?;
                if !still_in_control(left, now, self.tolerance) {
                    return Err(ClickError::UserTookControl {
                        moved: Some((now, left)),
                    });
                }
            }
            Ok(())
        }
    }

    impl Clicker for MouseClicker {
        fn click(&mut self, x: i32, y: i32) -> Result<(), ClickError> {
            if let Some(t) = self.released {
                if let Some(rest) = self.gap.checked_sub(t.elapsed()) {
                    sleep(rest);
                }
            }
            // Checked after the gap's pause, just before the pointer moves: a person's move
            // during the pause would otherwise be overwritten by the bot's own move and go
            // unnoticed (the pause is 50 ms until the pace is learnt).
            self.check_control()?;
            let e = |e: enigo::InputError| ClickError::Click {
                x,
                y,
                source: Box::new(e),
            };
            self.enigo.move_mouse(x, y, Coordinate::Abs).map_err(e)?;
            self.left_at = Some((x, y));
            self.enigo
                .button(Button::Left, Direction::Press)
                .map_err(e)?;
            sleep(self.hold);
            self.enigo
                .button(Button::Left, Direction::Release)
                .map_err(e)?;
            self.released = Some(Instant::now());
            Ok(())
        }

        fn in_control(&self) -> Result<(), ClickError> {
            self.check_control()
        }

        fn park(&mut self, x: i32, y: i32) -> Result<bool, ClickError> {
            self.check_control()?;
            self.enigo
                .move_mouse(x, y, Coordinate::Abs)
                .map_err(|e| ClickError::Move {
                    x,
                    y,
                    source: Box::new(e),
                })?;
            self.left_at = Some((x, y));
            Ok(true)
        }

        fn feedback(&mut self, registered: bool) {
            if !registered {
                self.lost += 1;
            }
            if let Some(p) = &mut self.pacer {
                if registered {
                    p.registered();
                } else {
                    p.lost_one();
                }
                self.hold = p.current();
                self.gap = p.current();
            }
        }

        fn pace(&self) -> Option<Pace> {
            Some(Pace {
                hold: self.hold,
                gap: self.gap,
                learnt: self.pacer.is_some(),
                lost: self.lost,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorder_and_dry_run() {
        let mut r = Recorder::default();
        r.click(1, 2).unwrap();
        r.click(3, 4).unwrap();
        assert_eq!(r.clicks, vec![(1, 2), (3, 4)]);
        let mut d = DryRun::default();
        d.click(5, 5).unwrap();
        assert_eq!(d.count, 1);
    }

    #[test]
    fn took_control_says_where_the_mouse_went() {
        let e = ClickError::UserTookControl {
            moved: Some(((40, 50), (10, 20))),
        };
        assert_eq!(
            e.to_string(),
            "user took control: the mouse moved to (40, 50) from (10, 20) where the bot last saw it"
        );
        let e = ClickError::UserTookControl { moved: None };
        assert_eq!(e.to_string(), "user took control");
    }

    #[test]
    fn control_tolerance() {
        assert!(still_in_control((10, 10), (12, 8), 3));
        assert!(!still_in_control((10, 10), (14, 10), 3));
        assert!(!still_in_control((10, 10), (10, 200), 3));
    }
}
