//! The longest removal sequence that can be found on a board no order clears (or none was
//! found within the planner's budget): what the bot plays before it stops on a deal that
//! cannot be cleared.
//!
//! A depth-first search over removal orders that remembers the deepest sequence reached and
//! skips boards it has already expanded. It is bounded by a count of boards expanded (so a
//! recorded session replays to the same moves) and by a wall-clock budget as a backstop.

use crate::board::{removable_pairs, Board, Link, Rules};
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// How far the search may go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Boards expanded.
    pub states: u64,
    /// Wall-clock time.
    pub time: Duration,
}

impl Default for Budget {
    /// 2 000 boards: on full 11×19 deals 0.11–0.20 s on average and at most 0.32 s
    /// (10 deals each under none, down and left, 2 shared cores; each expansion lists the
    /// board's removable pairs), inside the 1 s backstop.
    fn default() -> Self {
        Budget {
            states: 2_000,
            time: Duration::from_secs(1),
        }
    }
}

struct Search<'r> {
    rules: &'r Rules,
    seen: HashSet<Board>,
    path: Vec<Link>,
    best: Vec<Link>,
    states: u64,
    budget: Budget,
    deadline: Instant,
}

impl Search<'_> {
    fn out_of_budget(&self) -> bool {
        self.states >= self.budget.states || Instant::now() >= self.deadline
    }

    /// Explores `board`; returns true when the board was cleared (nothing longer exists).
    fn dive(&mut self, board: &Board) -> bool {
        if board.is_clear() {
            self.best = self.path.clone();
            return true;
        }
        if self.out_of_budget() || !self.seen.insert(board.clone()) {
            return false;
        }
        self.states += 1;
        for link in removable_pairs(board, self.rules) {
            let mut next = board.clone();
            next.remove_pair(link.a, link.b, self.rules.gravity);
            self.path.push(link);
            if self.path.len() > self.best.len() {
                self.best = self.path.clone();
            }
            let cleared = self.dive(&next);
            self.path.pop();
            if cleared || self.out_of_budget() {
                return cleared;
            }
        }
        false
    }
}

/// The longest sequence of legal removals found from `board`, each move legal on the board
/// the ones before it leave, within `budget`; at least as long as `baseline` (a sequence
/// found some other way, kept when the search finds nothing longer).
pub fn longest_sequence(
    board: &Board,
    rules: &Rules,
    budget: Budget,
    baseline: Vec<Link>,
) -> Vec<Link> {
    let mut s = Search {
        rules,
        seen: HashSet::new(),
        path: Vec::new(),
        best: Vec::new(),
        states: 0,
        budget,
        deadline: Instant::now() + budget.time,
    };
    s.dive(board);
    if s.best.len() > baseline.len() {
        s.best
    } else {
        baseline
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{check_link, Gravity};

    fn rules() -> Rules {
        Rules {
            outside: false,
            gravity: Gravity::None,
        }
    }

    fn legal(board: &Board, rules: &Rules, moves: &[Link]) -> Board {
        let mut b = board.clone();
        for l in moves {
            check_link(&b, rules, l).unwrap();
            b.remove_pair(l.a, l.b, rules.gravity);
        }
        b
    }

    #[test]
    fn goes_at_least_as_far_as_greedy_on_deals_that_cannot_be_cleared() {
        use crate::plan::{generate::generate, generate::GenSpec, plan, PlanOptions, Strategy};
        let r = rules();
        let mut longer = 0;
        for seed in 0..30 {
            let b = generate(&GenSpec::full(6, 8, 4, seed)).unwrap();
            let greedy = plan(
                &b,
                &r,
                &PlanOptions {
                    strategy: Strategy::Greedy,
                    ..PlanOptions::default()
                },
            );
            if greedy.solved() {
                continue;
            }
            let moves = longest_sequence(&b, &r, Budget::default(), greedy.moves.clone());
            legal(&b, &r, &moves);
            assert!(moves.len() >= greedy.moves.len());
            longer += usize::from(moves.len() > greedy.moves.len());
        }
        assert!(longer > 0, "the search never beat greedy");
    }

    #[test]
    fn a_clearable_board_is_cleared() {
        let b = Board::from_rows(&["AB", "AB", "CC"]).unwrap();
        let r = Rules {
            outside: true,
            gravity: Gravity::Down,
        };
        let moves = longest_sequence(&b, &r, Budget::default(), Vec::new());
        assert!(legal(&b, &r, &moves).is_clear(), "{moves:?}");
    }

    #[test]
    fn keeps_the_baseline_when_it_is_longer() {
        let b = Board::from_rows(&["AAB", "CCB"]).unwrap();
        let r = rules();
        let none = Budget {
            states: 0,
            time: Duration::from_secs(1),
        };
        let base = removable_pairs(&b, &r);
        assert_eq!(base.len(), 3);
        assert!(longest_sequence(&b, &r, none, Vec::new()).is_empty());
        assert_eq!(longest_sequence(&b, &r, none, base.clone()), base);
    }

    #[test]
    fn nothing_to_do_on_a_board_with_no_pair() {
        let b = Board::from_rows(&["AB", "BA"]).unwrap();
        assert!(longest_sequence(&b, &rules(), Budget::default(), Vec::new()).is_empty());
    }
}
