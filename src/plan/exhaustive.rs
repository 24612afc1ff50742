//! A brute-force solvability test, the yardstick for the planner on small boards.
//!
//! It shares nothing with the planner's fast path: moves come from
//! [`crate::board::removable_pairs`] and [`Board::remove_pair`], boards are remembered whole
//! (no hashing shortcuts), and every removable pair is tried. Only usable on small boards
//! (a few dozen tiles at most), which is what tests need.

use crate::board::{removable_pairs, Board, Rules};
use std::collections::HashSet;

/// Whether some order of removals clears `board`: `Some(true)`/`Some(false)`, or `None`
/// when more than `max_states` distinct boards would have to be examined.
///
/// ```
/// use llk::board::{Board, Rules};
/// use llk::plan::exhaustive::solvable;
///
/// let row = Board::parse("ABAB").unwrap();
/// assert_eq!(solvable(&row, &Rules::default(), 100), Some(true));
/// let inside = Rules { outside: false, ..Rules::default() };
/// assert_eq!(solvable(&row, &inside, 100), Some(false));
/// ```
pub fn solvable(board: &Board, rules: &Rules, max_states: usize) -> Option<bool> {
    if board.check_even().is_err() {
        return Some(false);
    }
    let mut dead = HashSet::new();
    explore(board, rules, &mut dead, max_states)
}

/// Depth-first over every removable pair; `dead` holds boards proved not clearable.
fn explore(
    board: &Board,
    rules: &Rules,
    dead: &mut HashSet<Board>,
    max_states: usize,
) -> Option<bool> {
    if board.is_clear() {
        return Some(true);
    }
    if dead.contains(board) {
        return Some(false);
    }
    if dead.len() >= max_states {
        return None;
    }
    for link in removable_pairs(board, rules) {
        let mut next = board.clone();
        next.remove_pair(link.a, link.b, rules.gravity);
        if explore(&next, rules, dead, max_states)? {
            return Some(true);
        }
    }
    dead.insert(board.clone());
    Some(false)
}
