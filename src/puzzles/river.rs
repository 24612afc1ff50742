//! Priests and devils (missionaries and cannibals) on the [`Problem`] API: any numbers of
//! each and any boat size; BFS finds the fewest crossings, and a hint gives the next move
//! on a shortest crossing from any legal state.

use crate::search::{self, ActionPath, Problem};
use serde::Serialize;

/// The largest head count accepted: the state space grows as priests × devils, and the
/// move list as boat², so this keeps every search within about two seconds.
pub const MAX_PEOPLE: u32 = 1000;

/// A setting of the puzzle: everyone starts on the left bank with the boat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct River {
    /// Priests to ferry.
    pub priests: u32,
    /// Devils to ferry.
    pub devils: u32,
    /// Seats in the boat; it needs at least one person to cross.
    pub boat: u32,
}

/// Who is where: counts on the left (starting) bank and the boat's side; the right bank
/// holds everyone else.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Banks {
    /// Priests on the left bank.
    pub priests_left: u32,
    /// Devils on the left bank.
    pub devils_left: u32,
    /// Whether the boat is at the left bank.
    pub boat_left: bool,
}

/// One crossing: who rides (the direction follows from where the boat is).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Crossing {
    /// Priests in the boat.
    pub priests: u32,
    /// Devils in the boat.
    pub devils: u32,
}

/// A river setting or state that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RiverError {
    /// A boat of no seats.
    #[error("the boat needs at least one seat (got --boat 0)")]
    NoSeat,
    /// More people than [`MAX_PEOPLE`] of a kind.
    #[error("at most {MAX_PEOPLE} priests and {MAX_PEOPLE} devils (got {priests} and {devils})")]
    TooMany {
        /// Priests asked for.
        priests: u32,
        /// Devils asked for.
        devils: u32,
    },
    /// A state with more people on the left bank than the setting has.
    #[error(
        "state {state}: the left bank cannot hold more than {priests} priests and {devils} devils"
    )]
    Overfull {
        /// The state.
        state: Banks,
        /// The setting's priests.
        priests: u32,
        /// The setting's devils.
        devils: u32,
    },
    /// A state where devils outnumber priests on a bank with priests.
    #[error("state {state}: devils outnumber priests {devils} to {priests} on the {bank} bank")]
    Outnumbered {
        /// The state.
        state: Banks,
        /// "left" or "right".
        bank: &'static str,
        /// Devils on that bank.
        devils: u32,
        /// Priests on that bank.
        priests: u32,
    },
    /// A state text that is not PRIESTS,DEVILS,SIDE.
    #[error(
        "state {text:?}: {}expected PRIESTS,DEVILS,SIDE: the counts on the left bank and the \
         boat's side L or R, e.g. 3,1,R",
        part.as_ref().map_or(String::new(), |p| format!("{p:?} is not {kind}; "))
    )]
    BadState {
        /// The text given.
        text: String,
        /// The part that is wrong, when the text has three.
        part: Option<String>,
        /// What that part should be ("a count", "a side").
        kind: &'static str,
    },
}

impl River {
    /// A setting, refused when the boat has no seat or the counts are beyond
    /// [`MAX_PEOPLE`].
    pub fn new(priests: u32, devils: u32, boat: u32) -> Result<River, RiverError> {
        if boat == 0 {
            return Err(RiverError::NoSeat);
        }
        if priests > MAX_PEOPLE || devils > MAX_PEOPLE {
            return Err(RiverError::TooMany { priests, devils });
        }
        Ok(River {
            priests,
            devils,
            boat,
        })
    }

    /// Everyone on the left bank with the boat.
    pub fn start(&self) -> Banks {
        Banks {
            priests_left: self.priests,
            devils_left: self.devils,
            boat_left: true,
        }
    }

    /// Everyone across (the boat is then on the right too, unless nobody was ever there
    /// to row it).
    pub fn is_goal(&self, s: &Banks) -> bool {
        s.priests_left == 0 && s.devils_left == 0
    }

    /// Whether `s` is a legal state: the fast test the search makes for every boat load
    /// ([`River::check`] says why not).
    pub fn is_legal(&self, s: &Banks) -> bool {
        let safe = |p: u32, d: u32| p == 0 || d <= p;
        s.priests_left <= self.priests
            && s.devils_left <= self.devils
            && safe(s.priests_left, s.devils_left)
            && safe(self.priests - s.priests_left, self.devils - s.devils_left)
    }

    /// Why `s` is not a legal state (counts beyond the totals, or devils outnumbering the
    /// priests on a bank that has priests), or `Ok` when it is.
    pub fn check(&self, s: &Banks) -> Result<(), RiverError> {
        if s.priests_left > self.priests || s.devils_left > self.devils {
            return Err(RiverError::Overfull {
                state: *s,
                priests: self.priests,
                devils: self.devils,
            });
        }
        let right = (self.priests - s.priests_left, self.devils - s.devils_left);
        for (bank, (p, d)) in [("left", (s.priests_left, s.devils_left)), ("right", right)] {
            if p > 0 && d > p {
                return Err(RiverError::Outnumbered {
                    state: *s,
                    bank,
                    devils: d,
                    priests: p,
                });
            }
        }
        Ok(())
    }

    /// The fewest crossings from the start, or `None` when the setting cannot be solved.
    pub fn solve(&self) -> Option<ActionPath<Banks, Crossing>> {
        self.solve_from(self.start())
    }

    /// The fewest crossings from `from`; `None` when there are none, including when `from`
    /// itself is not legal (see [`River::check`] for why).
    pub fn solve_from(&self, from: Banks) -> Option<ActionPath<Banks, Crossing>> {
        if !self.is_legal(&from) {
            return None;
        }
        search::bfs(&RiverProblem { river: *self, from })
    }

    /// The next crossing on a shortest way across from `state` and how many crossings that
    /// way takes in all: `Ok(None)` when the state is already solved or no way across exists
    /// (tell them apart with [`River::is_goal`]); an error when the state is not legal.
    pub fn hint(&self, state: Banks) -> Result<Option<(Crossing, usize)>, RiverError> {
        self.check(&state)?;
        Ok(self
            .solve_from(state)
            .and_then(|s| s.actions.first().map(|a| (*a, s.actions.len()))))
    }
}

impl std::fmt::Display for Banks {
    /// The form `--hint` reads: priests and devils on the left bank, then the boat's side.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let side = if self.boat_left { 'L' } else { 'R' };
        write!(f, "{},{},{side}", self.priests_left, self.devils_left)
    }
}

impl std::str::FromStr for Banks {
    type Err = RiverError;

    /// Reads "P,D,L" or "P,D,R": priests and devils on the left bank, the boat's side.
    fn from_str(text: &str) -> Result<Banks, RiverError> {
        let parts: Vec<&str> = text.split(',').map(str::trim).collect();
        let bad = |part: Option<&str>, kind| RiverError::BadState {
            text: text.to_string(),
            part: part.map(str::to_string),
            kind,
        };
        let [p, d, side] = parts[..] else {
            return Err(bad(None, "three parts"));
        };
        let count = |s: &str| s.parse::<u32>().map_err(|_| bad(Some(s), "a count"));
        let boat_left = match side.to_ascii_uppercase().as_str() {
            "L" | "LEFT" => true,
            "R" | "RIGHT" => false,
            _ => return Err(bad(Some(side), "a side")),
        };
        Ok(Banks {
            priests_left: count(p)?,
            devils_left: count(d)?,
            boat_left,
        })
    }
}

/// The puzzle as a search problem from a given state.
#[derive(Clone, Copy, Debug)]
pub struct RiverProblem {
    /// The setting.
    pub river: River,
    /// Where the search starts.
    pub from: Banks,
}

impl Problem for RiverProblem {
    type State = Banks;
    type Action = Crossing;

    fn start(&self) -> Banks {
        self.from
    }

    /// Every boat load of 1..=boat people from the boat's bank that leaves both banks legal.
    fn actions(&self, s: &Banks) -> Vec<Crossing> {
        let r = &self.river;
        let (here_p, here_d) = if s.boat_left {
            (s.priests_left, s.devils_left)
        } else {
            (r.priests - s.priests_left, r.devils - s.devils_left)
        };
        let mut out = Vec::new();
        for p in 0..=here_p.min(r.boat) {
            for d in 0..=here_d.min(r.boat - p) {
                let c = Crossing {
                    priests: p,
                    devils: d,
                };
                if p + d > 0 && r.is_legal(&self.result(s, &c)) {
                    out.push(c);
                }
            }
        }
        out
    }

    fn result(&self, s: &Banks, c: &Crossing) -> Banks {
        if s.boat_left {
            Banks {
                priests_left: s.priests_left - c.priests,
                devils_left: s.devils_left - c.devils,
                boat_left: false,
            }
        } else {
            Banks {
                priests_left: s.priests_left + c.priests,
                devils_left: s.devils_left + c.devils,
                boat_left: true,
            }
        }
    }

    fn is_goal(&self, s: &Banks) -> bool {
        self.river.is_goal(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crossings(p: u32, d: u32, b: u32) -> Option<usize> {
        River::new(p, d, b)
            .unwrap()
            .solve()
            .map(|s| s.actions.len())
    }

    #[test]
    fn classic_three_and_three_needs_eleven_crossings() {
        let r = River::new(3, 3, 2).unwrap();
        let s = r.solve().unwrap();
        assert_eq!(s.actions.len(), 11);
        for st in &s.states {
            r.check(st).unwrap();
            assert!(r.is_legal(st));
        }
        assert_eq!(s.states[0], r.start());
        assert!(r.is_goal(s.states.last().unwrap()));
    }

    #[test]
    fn known_solvability_limits() {
        // Boat 2 carries at most 3 pairs, boat 3 at most 5, boat 4 any number.
        assert_eq!(crossings(2, 2, 2), Some(5));
        assert_eq!(crossings(4, 4, 2), None);
        assert_eq!(crossings(4, 4, 3), Some(9));
        assert_eq!(crossings(5, 5, 3), Some(11));
        assert_eq!(crossings(6, 6, 3), None);
        assert!(crossings(10, 10, 4).is_some());
        assert_eq!(crossings(3, 3, 1), None);
        assert_eq!(crossings(0, 0, 1), Some(0));
        // A boat of one can never make progress: whoever crosses must row it back.
        assert_eq!(crossings(1, 1, 1), None);
        // More priests than devils is easier; devils alone cross with any boat of two.
        assert!(crossings(5, 3, 2).is_some());
        assert_eq!(crossings(0, 3, 2), Some(3));
        // One priest among two devils is lost before the boat leaves, big boat or not.
        assert_eq!(crossings(1, 2, 3), None);
    }

    #[test]
    fn hints_follow_a_shortest_crossing() {
        let r = River::new(3, 3, 2).unwrap();
        let sol = r.solve().unwrap();
        // From every state on the shortest solution, the hint leads one step closer.
        for (i, st) in sol.states.iter().enumerate() {
            match r.hint(*st).unwrap() {
                Some((_, left)) => assert_eq!(left, 11 - i),
                None => assert!(r.is_goal(st)),
            }
        }
        let e = r.hint("1,2,L".parse().unwrap()).unwrap_err().to_string();
        assert!(
            e.contains("devils outnumber priests 2 to 1 on the left bank"),
            "{e}"
        );
        assert!(!r.is_legal(&"1,2,L".parse().unwrap()));
        assert!(
            !r.is_legal(&"2,1,L".parse().unwrap()),
            "2 devils against 1 priest on the right"
        );
        let e = r.hint("2,1,L".parse().unwrap()).unwrap_err().to_string();
        assert!(e.contains("2 to 1 on the right bank"), "{e}");
        let e = r.hint("4,0,L".parse().unwrap()).unwrap_err().to_string();
        assert!(e.contains("cannot hold more than 3 priests"), "{e}");
    }

    #[test]
    fn states_parse_and_print() {
        let s: Banks = "3, 1, r".parse().unwrap();
        assert_eq!(s.to_string(), "3,1,R");
        assert!("3,1"
            .parse::<Banks>()
            .unwrap_err()
            .to_string()
            .contains("expected PRIESTS"));
        assert!("3,x,L"
            .parse::<Banks>()
            .unwrap_err()
            .to_string()
            .contains("\"x\" is not a count"));
        assert!("3,1,up"
            .parse::<Banks>()
            .unwrap_err()
            .to_string()
            .contains("not a side"));
        assert!(River::new(3, 3, 0).is_err());
    }
}
