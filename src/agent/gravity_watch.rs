//! Finding a game's gravity from what its board does after removals.
//!
//! Every mode of [`Gravity::ALL`] starts as a candidate. After each removal the watch
//! compares the board the game shows with what each candidate predicts and keeps those that
//! explain it; modes that agree on every removal so far are all consistent, so the watch
//! keeps watching until one is left. A removal that no remaining candidate explains, but
//! some other mode does, re-checks: the candidates become the modes that explain it. A board
//! no mode explains (a reshuffle, a misread frame) says nothing about gravity. A mode given
//! by the user is never changed.

use crate::board::{Board, Gravity, Pos};
use std::fmt;

/// What one observed removal did to the watch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Observation {
    /// The mode is fixed (given by the user), or the removal changed nothing known.
    Unchanged,
    /// Some candidates were ruled out; several remain.
    Narrowed,
    /// One mode is left.
    Found(Gravity),
    /// The mode believed so far failed to explain a removal; these modes do.
    Rechecked(Vec<Gravity>),
    /// No mode explains the board shown (a reshuffle or a misread): ignored.
    Unexplained,
}

/// The gravity mode a game plays with, given or being found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GravityWatch {
    given: bool,
    candidates: Vec<Gravity>,
    /// Removals observed (explained or not).
    removals: usize,
    /// Removals observed when the candidates last became a single mode.
    found_at: Option<usize>,
    /// Times a mode believed failed and the candidates were rebuilt.
    rechecks: usize,
}

impl GravityWatch {
    /// A mode the user gave: planned with, never changed.
    pub fn given(mode: Gravity) -> Self {
        GravityWatch {
            given: true,
            candidates: vec![mode],
            removals: 0,
            found_at: None,
            rechecks: 0,
        }
    }

    /// Every mode possible until removals rule them out.
    pub fn auto() -> Self {
        GravityWatch {
            given: false,
            candidates: Gravity::ALL.to_vec(),
            removals: 0,
            found_at: None,
            rechecks: 0,
        }
    }

    /// Every mode possible, `guess` (a mode this game was seen to play with before) tried
    /// first: planned with until a removal rules it out.
    pub fn auto_first(guess: Gravity) -> Self {
        let mut w = GravityWatch::auto();
        w.candidates.retain(|&g| g != guess);
        w.candidates.insert(0, guess);
        w
    }

    /// The mode to plan with: the given or found one, else the first candidate left (in the
    /// order of [`Gravity::ALL`], so `none` while nothing has been seen).
    pub fn current(&self) -> Gravity {
        self.candidates[0]
    }

    /// Modes consistent with every removal seen since the last re-check.
    pub fn candidates(&self) -> &[Gravity] {
        &self.candidates
    }

    /// Whether the user gave the mode.
    pub fn is_given(&self) -> bool {
        self.given
    }

    /// The one mode left, when found (or given).
    pub fn found(&self) -> Option<Gravity> {
        (self.candidates.len() == 1).then_some(self.candidates[0])
    }

    /// The board each candidate predicts after `a` and `b` leave `before`, one entry per
    /// distinct board, the current mode's first.
    pub fn predictions(&self, before: &Board, a: Pos, b: Pos) -> Vec<(Gravity, Board)> {
        let mut out: Vec<(Gravity, Board)> = Vec::new();
        for &g in &self.candidates {
            let p = after(before, a, b, g);
            if !out.iter().any(|(_, q)| *q == p) {
                out.push((g, p));
            }
        }
        out
    }

    /// Takes in one removal: `a` and `b` left `before` and the game then showed `shown`.
    pub fn observe(&mut self, before: &Board, a: Pos, b: Pos, shown: &Board) -> Observation {
        if self.given {
            return Observation::Unchanged;
        }
        self.removals += 1;
        let explains = |g: &Gravity| after(before, a, b, *g).same_up_to_renaming(shown);
        let keep: Vec<Gravity> = self.candidates.iter().copied().filter(explains).collect();
        if keep.is_empty() {
            let any: Vec<Gravity> = Gravity::ALL.iter().copied().filter(explains).collect();
            if any.is_empty() {
                return Observation::Unexplained;
            }
            self.rechecks += 1;
            self.candidates = any.clone();
            self.found_at = (any.len() == 1).then_some(self.removals);
            return Observation::Rechecked(any);
        }
        let narrowed = keep.len() < self.candidates.len();
        self.candidates = keep;
        match (narrowed, self.found()) {
            (true, Some(g)) => {
                self.found_at = Some(self.removals);
                Observation::Found(g)
            }
            (true, None) => Observation::Narrowed,
            (false, _) => Observation::Unchanged,
        }
    }
}

/// `before` with `a` and `b` removed under `g`.
fn after(before: &Board, a: Pos, b: Pos, g: Gravity) -> Board {
    let mut p = before.clone();
    p.remove_pair(a, b, g);
    p
}

/// One line for people: "down (found after 2 removals)", "down (given)", "none or down
/// (undecided after 3 removals)".
impl fmt::Display for GravityWatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        if self.given {
            return write!(f, "{} (given)", self.current());
        }
        match (self.found(), self.found_at) {
            (Some(g), Some(n)) => {
                let how = if self.rechecks > 0 {
                    "re-checked"
                } else {
                    "found"
                };
                write!(f, "{g} ({how} after {n} removal{})", plural(n))
            }
            _ if self.removals == 0 => write!(f, "not found (no removal seen)"),
            _ => {
                let names: Vec<&str> = self.candidates.iter().map(|g| g.name()).collect();
                write!(
                    f,
                    "{} (undecided after {} removal{}: they agree on every one)",
                    names.join(" or "),
                    self.removals,
                    plural(self.removals)
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{removable_pairs, Rules};

    fn board(rows: &[&str]) -> Board {
        Board::from_rows(rows).unwrap()
    }

    /// Removes the first removable pair under `truth` and shows the watch the result, until
    /// the board is clear or `steps` removals were made.
    fn watch_game(mut b: Board, truth: Gravity, steps: usize) -> GravityWatch {
        let mut w = GravityWatch::auto();
        let rules = Rules {
            outside: true,
            gravity: truth,
        };
        for _ in 0..steps {
            let Some(l) = removable_pairs(&b, &rules).into_iter().next() else {
                break;
            };
            let shown = after(&b, l.a, l.b, truth);
            w.observe(&b, l.a, l.b, &shown);
            b = shown;
        }
        w
    }

    #[test]
    fn every_mode_is_found_on_a_full_board() {
        let b = board(&["ABCDEF", "GHIJKL", "FEDCBA", "LKJIHG", "ABCDEF", "FEDCBA"]);
        for truth in Gravity::ALL {
            let w = watch_game(b.clone(), truth, 18);
            assert!(w.candidates().contains(&truth), "{truth}: {w}");
            assert_eq!(w.found(), Some(truth), "{truth}: {w}");
            assert!(w.to_string().starts_with(truth.name()), "{w}");
            assert!(w.to_string().contains("found after"), "{w}");
        }
    }

    #[test]
    fn modes_that_agree_stay_candidates() {
        // The pair in the top row leaves nothing to fall: none and down agree.
        let b = board(&["CC", "AB"]);
        let shown = board(&["..", "AB"]);
        let mut w = GravityWatch::auto();
        let o = w.observe(&b, Pos::new(0, 0), Pos::new(0, 1), &shown);
        assert_eq!(o, Observation::Narrowed);
        assert!(w.candidates().contains(&Gravity::None));
        assert!(w.candidates().contains(&Gravity::Down));
        assert!(!w.candidates().contains(&Gravity::Up));
        assert_eq!(w.found(), None);
        assert!(w.to_string().contains("undecided after 1 removal"), "{w}");
    }

    #[test]
    fn a_later_mismatch_rechecks() {
        let mut w = GravityWatch::auto();
        let b = board(&["AB", "CD", "DC", "BA"]);
        let shown = after(&b, Pos::new(1, 1), Pos::new(2, 0), Gravity::Down);
        w.observe(&b, Pos::new(1, 1), Pos::new(2, 0), &shown);
        assert_eq!(w.found(), Some(Gravity::Down), "{w}");
        // Now the game shows tiles moving up.
        let b = board(&["AB", "CD", "DC", "BA"]);
        let shown = after(&b, Pos::new(1, 1), Pos::new(2, 0), Gravity::Up);
        let o = w.observe(&b, Pos::new(1, 1), Pos::new(2, 0), &shown);
        assert!(
            matches!(&o, Observation::Rechecked(m) if m.contains(&Gravity::Up) && !m.contains(&Gravity::Down)),
            "{o:?}"
        );
        assert!(w.candidates().contains(&Gravity::Up));
    }

    #[test]
    fn a_board_no_mode_explains_changes_nothing() {
        let mut w = GravityWatch::auto();
        let b = board(&["AB", "BA"]);
        let reshuffled = board(&["A.", ".A"]);
        let o = w.observe(&b, Pos::new(0, 0), Pos::new(1, 1), &reshuffled);
        assert_eq!(o, Observation::Unexplained);
        assert_eq!(w.candidates().len(), Gravity::ALL.len());
    }

    #[test]
    fn a_given_mode_is_kept() {
        let mut w = GravityWatch::given(Gravity::Left);
        let b = board(&["AB", "CC"]);
        let shown = board(&["AB", ".."]);
        assert_eq!(
            w.observe(&b, Pos::new(1, 0), Pos::new(1, 1), &shown),
            Observation::Unchanged
        );
        assert_eq!(w.current(), Gravity::Left);
        assert_eq!(w.to_string(), "left (given)");
    }

    #[test]
    fn a_guess_is_planned_with_first_and_dropped_when_a_removal_refutes_it() {
        let mut w = GravityWatch::auto_first(Gravity::Down);
        assert_eq!(w.current(), Gravity::Down);
        assert_eq!(w.candidates().len(), Gravity::ALL.len());
        assert_eq!(
            GravityWatch::auto_first(Gravity::None),
            GravityWatch::auto()
        );
        // A removal from the bottom row and nothing falls into it: not `down`.
        let b = board(&["AAB", "CDB", "CDE", "FFE"]);
        let shown = board(&["AAB", "CDB", "CDE", "..E"]);
        w.observe(&b, Pos::new(3, 0), Pos::new(3, 1), &shown);
        assert_ne!(w.current(), Gravity::Down);
        assert!(!w.candidates().contains(&Gravity::Down));
    }

    #[test]
    fn predictions_are_distinct_boards_current_first() {
        let w = GravityWatch::auto();
        let b = board(&["AB", "CC"]);
        let p = w.predictions(&b, Pos::new(1, 0), Pos::new(1, 1));
        assert_eq!(p[0].0, Gravity::None);
        for i in 0..p.len() {
            for j in 0..i {
                assert_ne!(p[i].1, p[j].1);
            }
        }
        assert!(p.len() >= 2 && p.len() < Gravity::ALL.len());
    }
}
