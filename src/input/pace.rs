//! Learning how fast a game takes clicks: the shortest button hold (and the same gap before
//! the next press) that it still registers.
//!
//! Games that poll input once per frame miss a press shorter than a frame; 50 ms hold and
//! 50 ms gap lost none of 470+ clicks at 60 fps (LIVE-TESTING.md), so that is the start.
//! While moves keep registering the pace shortens by a quarter every few moves; a lost click
//! goes back to the start pace at once (or doubles, when that is more), so the retry of a
//! lost click is made at the pace measured safe (a 60 fps polling game can miss a doubled
//! 4 ms hold as well, and two lost tries in a row stop the bot), and sets a floor of 1.5×
//! the pace that failed, below which it never goes again.

use std::time::Duration;

/// Moves in a row that must register before the pace shortens.
const STREAK: u32 = 3;

/// The hold (and gap) to click with, learnt from which clicks registered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClickPacer {
    current: Duration,
    /// The start pace: where a lost click goes back to.
    safe: Duration,
    floor: Duration,
    min: Duration,
    max: Duration,
    streak: u32,
    lost: u32,
}

impl ClickPacer {
    /// Starts at `start`, never below `min` nor above `max`.
    pub fn new(start: Duration, min: Duration, max: Duration) -> Self {
        ClickPacer {
            current: start.clamp(min, max),
            safe: start.clamp(min, max),
            floor: min,
            min,
            max,
            streak: 0,
            lost: 0,
        }
    }

    /// The hold and gap to use now.
    pub fn current(&self) -> Duration {
        self.current
    }

    /// Clicks the game lost so far.
    pub fn lost(&self) -> u32 {
        self.lost
    }

    /// Every click of a move registered.
    pub fn registered(&mut self) {
        self.streak += 1;
        if self.streak >= STREAK {
            self.streak = 0;
            self.current = (self.current * 3 / 4).max(self.floor).max(self.min);
        }
    }

    /// A click was lost: slow down at once, and never again as fast as this.
    pub fn lost_one(&mut self) {
        self.lost += 1;
        self.streak = 0;
        self.floor = self.floor.max(self.current * 3 / 2).min(self.max);
        self.current = (self.current * 2)
            .max(self.safe)
            .max(self.floor)
            .min(self.max);
    }
}

impl Default for ClickPacer {
    /// 50 ms to start, between 4 ms and 100 ms.
    fn default() -> Self {
        ClickPacer::new(
            Duration::from_millis(50),
            Duration::from_millis(4),
            Duration::from_millis(100),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    /// Plays `moves` moves against a game that loses every click shorter than `needs`.
    fn learn(needs: Duration, moves: usize) -> ClickPacer {
        let mut p = ClickPacer::default();
        for _ in 0..moves {
            if p.current() < needs {
                p.lost_one();
            } else {
                p.registered();
            }
        }
        p
    }

    #[test]
    fn shortens_while_clicks_register() {
        let mut p = ClickPacer::default();
        for _ in 0..3 {
            p.registered();
        }
        assert!(p.current() < 50 * MS);
        let p = learn(Duration::ZERO, 100);
        assert_eq!(p.current(), 4 * MS);
        assert_eq!(p.lost(), 0);
    }

    #[test]
    fn settles_just_above_what_the_game_needs() {
        for needs in [10 * MS, 17 * MS, 33 * MS] {
            let p = learn(needs, 200);
            assert!(p.current() >= needs, "{needs:?}: {p:?}");
            assert!(p.current() < needs * 2, "{needs:?}: {p:?}");
            assert!(p.lost() <= 3, "{needs:?}: {p:?}");
        }
    }

    #[test]
    fn a_lost_click_backs_off_at_once() {
        let mut p = ClickPacer::new(20 * MS, 4 * MS, 100 * MS);
        p.lost_one();
        assert_eq!(p.current(), 40 * MS);
        for _ in 0..30 {
            p.registered();
        }
        assert_eq!(
            p.current(),
            30 * MS,
            "never below 1.5× the pace that failed"
        );
    }

    #[test]
    fn a_click_lost_at_a_short_pace_is_retried_at_the_start_pace() {
        let mut p = ClickPacer::default();
        for _ in 0..60 {
            p.registered();
        }
        assert_eq!(p.current(), 4 * MS);
        p.lost_one();
        assert_eq!(p.current(), 50 * MS, "{p:?}");
        for _ in 0..60 {
            p.registered();
        }
        assert_eq!(p.current(), 6 * MS, "1.5× the pace that failed: {p:?}");
    }

    #[test]
    fn a_game_slower_than_the_start_is_followed() {
        let p = learn(80 * MS, 20);
        assert!(p.current() >= 80 * MS, "{p:?}");
    }
}
