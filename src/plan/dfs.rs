//! Informed depth-first search with a transposition table, in the style of the
//! `pathfinding` crate: a start node, a successor closure, a heuristic, a goal test.
//!
//! `pathfinding` has DFS (no ordering, no table, no budget) and IDA*/A* (which look for the
//! *cheapest* path and keep every frontier node). A Lianliankan plan has no cost to
//! minimise — every clearing order has the same length — and dead ends are what matter, so
//! what fits is a depth-first walk that tries the heuristically best move first, remembers
//! every board it has finished with (a dead end: it was fully explored without reaching the
//! goal) and stops on a budget. Exhausting the tree is a proof that no goal is reachable.

use std::collections::HashSet;
use std::hash::Hash;
use std::time::Instant;

/// When to stop looking: after `max_states` expanded nodes or at `deadline`.
#[derive(Clone, Copy, Debug)]
pub struct DfsBudget {
    /// Nodes expanded before giving up.
    pub max_states: u64,
    /// Wall-clock time at which to give up.
    pub deadline: Option<Instant>,
}

/// How a search ended.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum DfsOutcome<M> {
    /// The moves from the start to a goal node.
    Found(Vec<M>),
    /// Every reachable node was explored: no goal is reachable.
    Exhausted,
    /// The budget ran out first; nothing is known.
    GaveUp,
}

/// The outcome and the number of nodes expanded (successors generated).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DfsResult<M> {
    /// Found, exhausted or gave up.
    pub outcome: DfsOutcome<M>,
    /// Nodes expanded (successors generated).
    pub states: u64,
}

/// Depth-first search from `start` that tries moves in increasing `heuristic` order
/// (ties keep the order `successors` gave) and never expands a node twice.
///
/// - `successors(node)` lists the moves available at `node`;
/// - `apply(node, move)` is the node a move leads to (built only when it is tried);
/// - `heuristic(node, move)` ranks the moves of one node, lowest first;
/// - `key(node)` identifies a node for the transposition table (nodes with equal keys are
///   treated as the same node: a 64-bit Zobrist hash is the usual choice);
/// - `success(node)` is the goal test.
///
/// The graph must be acyclic for `Exhausted` to mean "unreachable" only in the sense that
/// every node is expanded at most once; cycles are cut by the table, so the search always
/// ends.
///
/// # Example
///
/// Reach 13 from 1 with "+3" and "×2" without passing 20, preferring the larger result:
///
/// ```
/// use llk::plan::dfs::{informed_dfs, DfsOutcome, DfsBudget};
///
/// let limits = DfsBudget { max_states: 1_000, deadline: None };
/// let res = informed_dfs(
///     1u32,
///     |&n| [3u32, 2].into_iter().filter(move |&m| if m == 3 { n + 3 <= 20 } else { n * 2 <= 20 }),
///     |&n, &m| if m == 3 { n + 3 } else { n * 2 },
///     |&n, &m| std::cmp::Reverse(if m == 3 { n + 3 } else { n * 2 }),
///     |&n| n,
///     |&n| n == 13,
///     &limits,
/// );
/// let DfsOutcome::Found(moves) = res.outcome else { panic!("13 is reachable") };
/// let end = moves.iter().fold(1, |n, &m| if m == 3 { n + 3 } else { n * 2 });
/// assert_eq!(end, 13);
/// ```
pub fn informed_dfs<N, M, K, H, FS, IS, FA, FH, FK, FG>(
    start: N,
    successors: FS,
    apply: FA,
    heuristic: FH,
    key: FK,
    success: FG,
    limits: &DfsBudget,
) -> DfsResult<M>
where
    M: Clone,
    K: Hash + Eq + Clone,
    H: PartialOrd,
    FS: FnMut(&N) -> IS,
    IS: IntoIterator<Item = M>,
    FA: FnMut(&N, &M) -> N,
    FH: FnMut(&N, &M) -> H,
    FK: FnMut(&N) -> K,
    FG: FnMut(&N) -> bool,
{
    let mut dead = HashSet::new();
    informed_dfs_with_table(
        start, successors, apply, heuristic, key, success, &mut dead, limits,
    )
}

/// [`informed_dfs`] with the table of dead ends passed in and kept: on return `dead` holds
/// only nodes proved not to lead to a goal (those still open when the budget ran out are
/// taken back out). A later search from the same start — with another move order, say —
/// can reuse it and skip everything already refuted, which makes restarts cheap.
///
/// ```
/// use llk::plan::dfs::{informed_dfs_with_table, DfsOutcome, DfsBudget};
/// use std::collections::HashSet;
///
/// // Count down from 10 by 1 or 2 without ever landing on 5 or 4; the goal is 0.
/// let mut dead = HashSet::new();
/// let run = |dead: &mut HashSet<u32>, max_states| {
///     informed_dfs_with_table(
///         10u32,
///         |&n| [1u32, 2].into_iter().filter(move |&d| d <= n && n - d != 5 && n - d != 4),
///         |&n, &d| n - d,
///         |_, &d| d,
///         |&n| n,
///         |&n| n == 0,
///         dead,
///         &DfsBudget { max_states, deadline: None },
///     )
/// };
/// assert_eq!(run(&mut dead, 2).outcome, DfsOutcome::GaveUp);
/// assert_eq!(run(&mut dead, 100).outcome, DfsOutcome::Exhausted);
/// assert!(dead.contains(&10));
/// ```
#[allow(clippy::too_many_arguments)]
pub fn informed_dfs_with_table<N, M, K, H, FS, IS, FA, FH, FK, FG>(
    start: N,
    mut successors: FS,
    mut apply: FA,
    mut heuristic: FH,
    mut key: FK,
    mut success: FG,
    dead: &mut HashSet<K>,
    limits: &DfsBudget,
) -> DfsResult<M>
where
    M: Clone,
    K: Hash + Eq + Clone,
    H: PartialOrd,
    FS: FnMut(&N) -> IS,
    IS: IntoIterator<Item = M>,
    FA: FnMut(&N, &M) -> N,
    FH: FnMut(&N, &M) -> H,
    FK: FnMut(&N) -> K,
    FG: FnMut(&N) -> bool,
{
    struct Frame<N, M, K> {
        node: N,
        key: K,
        moves: Vec<M>,
        next: usize,
    }
    let mut states = 0u64;
    // Loop turns, for checking the clock now and then rather than every turn.
    let mut ticks = 0u64;
    if success(&start) {
        return DfsResult {
            outcome: DfsOutcome::Found(Vec::new()),
            states,
        };
    }
    let start_key = key(&start);
    if dead.contains(&start_key) {
        return DfsResult {
            outcome: DfsOutcome::Exhausted,
            states,
        };
    }
    let expand = |node: N,
                  key: K,
                  states: &mut u64,
                  successors: &mut FS,
                  heuristic: &mut FH|
     -> Frame<N, M, K> {
        *states += 1;
        let mut scored: Vec<(H, M)> = successors(&node)
            .into_iter()
            .map(|m| (heuristic(&node, &m), m))
            .collect();
        scored.sort_by(|x, y| x.0.partial_cmp(&y.0).unwrap_or(std::cmp::Ordering::Equal));
        Frame {
            node,
            key,
            moves: scored.into_iter().map(|(_, m)| m).collect(),
            next: 0,
        }
    };
    // Every node entered goes into the table at once: it is either on the stack (and the
    // graph of boards is acyclic, so it cannot be met again below itself) or finished, and
    // a finished node that did not return a goal is dead.
    dead.insert(start_key.clone());
    let mut stack = vec![expand(
        start,
        start_key,
        &mut states,
        &mut successors,
        &mut heuristic,
    )];
    while let Some(top) = stack.last_mut() {
        if top.next == top.moves.len() {
            stack.pop();
            continue;
        }
        ticks += 1;
        if states >= limits.max_states
            || (ticks.is_multiple_of(32) && limits.deadline.is_some_and(|d| Instant::now() >= d))
        {
            // The open nodes are not refuted; take them back out.
            for f in &stack {
                dead.remove(&f.key);
            }
            return DfsResult {
                outcome: DfsOutcome::GaveUp,
                states,
            };
        }
        let m = top.moves[top.next].clone();
        top.next += 1;
        let child = apply(&top.node, &m);
        if success(&child) {
            // Each frame's last tried move is the one that led to the frame above it.
            let path: Vec<M> = stack.iter().map(|f| f.moves[f.next - 1].clone()).collect();
            for f in &stack {
                dead.remove(&f.key);
            }
            return DfsResult {
                outcome: DfsOutcome::Found(path),
                states,
            };
        }
        let k = key(&child);
        if !dead.insert(k.clone()) {
            continue;
        }
        let frame = expand(child, k, &mut states, &mut successors, &mut heuristic);
        stack.push(frame);
    }
    DfsResult {
        outcome: DfsOutcome::Exhausted,
        states,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(max_states: u64) -> DfsBudget {
        DfsBudget {
            max_states,
            deadline: None,
        }
    }

    #[test]
    fn finds_and_proves() {
        // Subsets of {3, 5, 7, 11} summing to a target, adding one number at a time.
        let nums = [3u32, 5, 7, 11];
        let run = |target: u32, max: u64| {
            informed_dfs(
                (0u32, 0u8),
                |&(_, used)| (0..4).filter(move |i| used & (1 << i) == 0),
                |&(s, used), &i| (s + nums[i], used | (1 << i)),
                |_, &i| std::cmp::Reverse(nums[i]),
                |&n| n,
                |&(s, _)| s == target,
                &limits(max),
            )
        };
        let r = run(18, 100);
        let DfsOutcome::Found(m) = r.outcome else {
            panic!("18 = 7 + 11")
        };
        assert_eq!(m.iter().map(|&i| nums[i]).sum::<u32>(), 18);
        // Largest first: 11 then 7.
        assert_eq!(m, vec![3, 2]);
        let r = run(2, 100);
        assert_eq!(r.outcome, DfsOutcome::Exhausted);
        // 16 subsets, each expanded once.
        assert_eq!(r.states, 16);
        assert_eq!(run(2, 5).outcome, DfsOutcome::GaveUp);
    }

    #[test]
    fn start_is_goal() {
        let r = informed_dfs(
            0u8,
            |_| Vec::<u8>::new(),
            |&n, _| n,
            |_, _| 0,
            |&n| n,
            |&n| n == 0,
            &limits(1),
        );
        assert_eq!(r.outcome, DfsOutcome::Found(vec![]));
    }
}
