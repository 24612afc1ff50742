//! The generic searches, in one place for every puzzle.
//!
//! - A [`Problem`] states a single-agent puzzle's start, its actions, the result of an
//!   action, the goal test, the step cost and an optional heuristic, and [`bfs`],
//!   [`dijkstra`] and [`astar`] solve any of them (the maze and the river crossing). Those
//!   searches are the `pathfinding` crate's: this layer only turns a problem into the start /
//!   successors / heuristic / goal closures those functions take, and recovers the actions
//!   along the path they return, so a puzzle is written once and searched every way.
//! - [`dfs_bounded`] and [`dls`] are the depth-bounded searches `pathfinding` lacks, in its
//!   closure style (a start node, a successor closure, a goal test; the path from start to
//!   goal). Neither is optimal: they return the first path their order finds (the sliding
//!   puzzles' `--algo dfs` and `dls`).
//!
//! Two-player games search with [`crate::puzzles::adversarial`]; the Lianliankan planner and
//! the sliding puzzles' IDA* and weighted A* are specialised to their boards
//! ([`crate::plan`], [`crate::slide`]).

use std::cell::Cell;
use std::collections::HashMap;
use std::hash::Hash;

/// A single-agent puzzle, in the textbook shape (actions, result, goal test, step cost,
/// heuristic), so that every search in this module works on every puzzle.
///
/// Costs are `u64` so the same problem can be searched by BFS (which ignores them), Dijkstra
/// and A*; a puzzle with real-valued costs scales them to integers.
pub trait Problem {
    /// A whole configuration of the puzzle; searches hash it to avoid revisiting it.
    type State: Clone + Eq + Hash;
    /// What the solver can do in a state; kept so solutions can be replayed and explained.
    type Action: Clone;

    /// Where the search begins.
    fn start(&self) -> Self::State;
    /// The actions allowed in `state`; an empty list means a dead end.
    fn actions(&self, state: &Self::State) -> Vec<Self::Action>;
    /// The state reached by doing `action` in `state` (the transition model).
    fn result(&self, state: &Self::State, action: &Self::Action) -> Self::State;
    /// Whether `state` solves the puzzle.
    fn is_goal(&self, state: &Self::State) -> bool;
    /// The price of doing `action` in `state`; 1 unless the puzzle says otherwise.
    fn step_cost(&self, _state: &Self::State, _action: &Self::Action) -> u64 {
        1
    }
    /// A lower bound on the cost still to pay from `state`; 0 (no information) by default.
    /// A* returns shortest paths only while this never overestimates.
    fn heuristic(&self, _state: &Self::State) -> u64 {
        0
    }
}

/// A solved puzzle: the states from start to goal, the actions between them, and what the
/// search did, so callers can show the path, replay it, or compare algorithms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionPath<S, A> {
    /// Every state from the start to the goal, both included.
    pub states: Vec<S>,
    /// `actions[i]` leads from `states[i]` to `states[i + 1]`.
    pub actions: Vec<A>,
    /// The summed step costs (for BFS: the number of actions).
    pub cost: u64,
    /// How many states the search expanded (asked for their successors): the effort figure.
    pub expanded: usize,
}

/// The successors of `state` with their step costs, counting the expansion.
fn successors<P: Problem>(
    problem: &P,
    state: &P::State,
    expanded: &Cell<usize>,
) -> Vec<(P::State, u64)> {
    expanded.set(expanded.get() + 1);
    problem
        .actions(state)
        .iter()
        .map(|a| (problem.result(state, a), problem.step_cost(state, a)))
        .collect()
}

/// Recovers the actions along a path of states found by a state-only search: for each step,
/// the cheapest action that produces the next state.
fn solution<P: Problem>(
    problem: &P,
    states: Vec<P::State>,
    expanded: usize,
) -> ActionPath<P::State, P::Action> {
    let mut actions = Vec::with_capacity(states.len().saturating_sub(1));
    let mut cost = 0;
    for w in states.windows(2) {
        let (action, c) = problem
            .actions(&w[0])
            .into_iter()
            .filter(|a| problem.result(&w[0], a) == w[1])
            .map(|a| {
                let c = problem.step_cost(&w[0], &a);
                (a, c)
            })
            .min_by_key(|(_, c)| *c)
            .expect("the search only links states joined by an action");
        actions.push(action);
        cost += c;
    }
    ActionPath {
        states,
        actions,
        cost,
        expanded,
    }
}

/// Breadth-first search: the solution with the fewest actions (step costs are ignored, the
/// returned `cost` still sums them), or `None` when no goal is reachable.
///
/// # Example
///
/// Counting from 1 to 10 by "+1" and "×2" takes four steps (1→2→4→5→10):
///
/// ```
/// use llk::search::{bfs, Problem};
///
/// struct Count;
/// impl Problem for Count {
///     type State = u32;
///     type Action = &'static str;
///     fn start(&self) -> u32 { 1 }
///     fn actions(&self, _: &u32) -> Vec<&'static str> { vec!["+1", "x2"] }
///     fn result(&self, s: &u32, a: &&'static str) -> u32 { if *a == "+1" { s + 1 } else { s * 2 } }
///     fn is_goal(&self, s: &u32) -> bool { *s == 10 }
/// }
///
/// let sol = bfs(&Count).unwrap();
/// assert_eq!(sol.actions.len(), 4);
/// assert_eq!(sol.states.first(), Some(&1));
/// assert_eq!(sol.states.last(), Some(&10));
/// ```
pub fn bfs<P: Problem>(problem: &P) -> Option<ActionPath<P::State, P::Action>> {
    let expanded = Cell::new(0);
    let states = pathfinding::directed::bfs::bfs(
        &problem.start(),
        |s| {
            successors(problem, s, &expanded)
                .into_iter()
                .map(|(n, _)| n)
        },
        |s| problem.is_goal(s),
    )?;
    Some(solution(problem, states, expanded.get()))
}

/// Dijkstra's uniform-cost search: the cheapest solution by summed step costs, without a
/// heuristic; `None` when no goal is reachable.
///
/// # Example
///
/// Walking costs 3 a step and a taxi costs 10 a ride of five steps: reaching 10 from 0 is
/// cheapest by two rides.
///
/// ```
/// use llk::search::{dijkstra, Problem};
///
/// struct Trip;
/// impl Problem for Trip {
///     type State = u32;
///     type Action = u32; // distance covered
///     fn start(&self) -> u32 { 0 }
///     fn actions(&self, s: &u32) -> Vec<u32> { if *s < 10 { vec![1, 5] } else { vec![] } }
///     fn result(&self, s: &u32, a: &u32) -> u32 { s + a }
///     fn is_goal(&self, s: &u32) -> bool { *s == 10 }
///     fn step_cost(&self, _: &u32, a: &u32) -> u64 { if *a == 1 { 3 } else { 10 } }
/// }
///
/// let sol = dijkstra(&Trip).unwrap();
/// assert_eq!(sol.cost, 20);
/// assert_eq!(sol.actions, vec![5, 5]);
/// ```
pub fn dijkstra<P: Problem>(problem: &P) -> Option<ActionPath<P::State, P::Action>> {
    let expanded = Cell::new(0);
    let (states, _) = pathfinding::directed::dijkstra::dijkstra(
        &problem.start(),
        |s| successors(problem, s, &expanded),
        |s| problem.is_goal(s),
    )?;
    Some(solution(problem, states, expanded.get()))
}

/// A* search: the cheapest solution, guided by [`Problem::heuristic`]; optimal while the
/// heuristic never overestimates, and it expands fewer states the better the estimate.
///
/// # Example
///
/// Walking on a number line from 0 to 7 with steps of ±1, guided by the distance left:
///
/// ```
/// use llk::search::{astar, Problem};
///
/// struct Line;
/// impl Problem for Line {
///     type State = i32;
///     type Action = i32;
///     fn start(&self) -> i32 { 0 }
///     fn actions(&self, _: &i32) -> Vec<i32> { vec![-1, 1] }
///     fn result(&self, s: &i32, a: &i32) -> i32 { s + a }
///     fn is_goal(&self, s: &i32) -> bool { *s == 7 }
///     fn heuristic(&self, s: &i32) -> u64 { (7 - s).unsigned_abs() as u64 }
/// }
///
/// let sol = astar(&Line).unwrap();
/// assert_eq!(sol.cost, 7);
/// assert_eq!(sol.expanded, 7); // the heuristic is exact: no detour is explored
/// ```
pub fn astar<P: Problem>(problem: &P) -> Option<ActionPath<P::State, P::Action>> {
    let expanded = Cell::new(0);
    let (states, _) = pathfinding::directed::astar::astar(
        &problem.start(),
        |s| successors(problem, s, &expanded),
        |s| problem.heuristic(s),
        |s| problem.is_goal(s),
    )?;
    Some(solution(problem, states, expanded.get()))
}

/// Graph depth-first search that never goes deeper than `max_depth` edges. A node seen
/// before is searched again only when reached by a shorter path, so the search is complete
/// within the bound without re-walking the same subtree at the same depth.
///
/// ```
/// use llk::search::dfs_bounded;
/// // Reach 7 from 0 with steps of +1 or +3, at most 3 steps.
/// let path = dfs_bounded(0, |&n| vec![n + 1, n + 3], |&n| n == 7, 3).unwrap();
/// assert_eq!(path.first(), Some(&0));
/// assert_eq!(path.last(), Some(&7));
/// assert!(path.len() <= 4);
/// assert!(dfs_bounded(0, |&n| vec![n + 1], |&n| n == 7, 3).is_none());
/// ```
pub fn dfs_bounded<N, FN, IN, FS>(
    start: N,
    mut successors: FN,
    mut success: FS,
    max_depth: usize,
) -> Option<Vec<N>>
where
    N: Eq + Hash + Clone,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
    FS: FnMut(&N) -> bool,
{
    let mut best: HashMap<N, usize> = HashMap::new();
    best.insert(start.clone(), 0);
    let mut path = vec![start];
    // Each frame: the children still to try at that depth.
    let mut stack: Vec<std::vec::IntoIter<N>> = Vec::new();
    if success(&path[0]) {
        return Some(path);
    }
    if max_depth > 0 {
        stack.push(
            successors(&path[0])
                .into_iter()
                .collect::<Vec<_>>()
                .into_iter(),
        );
    }
    while let Some(frame) = stack.last_mut() {
        let Some(n) = frame.next() else {
            stack.pop();
            path.pop();
            continue;
        };
        let depth = path.len();
        if best.get(&n).is_some_and(|&d| d <= depth) {
            continue;
        }
        best.insert(n.clone(), depth);
        if success(&n) {
            path.push(n);
            return Some(path);
        }
        if depth < max_depth {
            let kids: Vec<N> = successors(&n).into_iter().collect();
            path.push(n);
            stack.push(kids.into_iter());
        }
    }
    None
}

/// Depth-limited tree search: depth-first down to exactly `limit` edges, skipping only
/// nodes already on the current path (no memory beyond the path, as in Korf's DLS).
///
/// ```
/// use llk::search::dls;
/// let path = dls(0, |&n| vec![n + 1, n + 3], |&n| n == 7, 5).unwrap();
/// assert_eq!(path.last(), Some(&7));
/// assert!(dls(0, |&n| vec![n + 2], |&n| n == 7, 10).is_none());
/// ```
pub fn dls<N, FN, IN, FS>(
    start: N,
    mut successors: FN,
    mut success: FS,
    limit: usize,
) -> Option<Vec<N>>
where
    N: Eq,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = N>,
    FS: FnMut(&N) -> bool,
{
    fn go<N: Eq, FN, IN, FS>(
        path: &mut Vec<N>,
        succ: &mut FN,
        success: &mut FS,
        left: usize,
    ) -> bool
    where
        FN: FnMut(&N) -> IN,
        IN: IntoIterator<Item = N>,
        FS: FnMut(&N) -> bool,
    {
        if success(path.last().expect("path is never empty")) {
            return true;
        }
        if left == 0 {
            return false;
        }
        let kids: Vec<N> = succ(path.last().expect("path is never empty"))
            .into_iter()
            .collect();
        for n in kids {
            if path.contains(&n) {
                continue;
            }
            path.push(n);
            if go(path, succ, success, left - 1) {
                return true;
            }
            path.pop();
        }
        false
    }
    let mut path = vec![start];
    go(&mut path, &mut successors, &mut success, limit).then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reach `target` from 0 on a line with walls (states outside 0..=20 and the walls are
    /// not allowed), steps ±1 cost 1, a jump of +3 costs 5.
    struct Line {
        target: i32,
        walls: Vec<i32>,
    }

    impl Problem for Line {
        type State = i32;
        type Action = i32;
        fn start(&self) -> i32 {
            0
        }
        fn actions(&self, s: &i32) -> Vec<i32> {
            [-1, 1, 3]
                .into_iter()
                .filter(|a| {
                    let n = s + a;
                    (0..=20).contains(&n) && !self.walls.contains(&n)
                })
                .collect()
        }
        fn result(&self, s: &i32, a: &i32) -> i32 {
            s + a
        }
        fn is_goal(&self, s: &i32) -> bool {
            *s == self.target
        }
        fn step_cost(&self, _: &i32, a: &i32) -> u64 {
            if *a == 3 {
                5
            } else {
                1
            }
        }
        fn heuristic(&self, s: &i32) -> u64 {
            (self.target - s).unsigned_abs() as u64
        }
    }

    #[test]
    fn bfs_counts_actions_and_the_others_count_cost() {
        let p = Line {
            target: 9,
            walls: vec![],
        };
        // Fewest actions: three jumps (cost 15).
        let b = bfs(&p).unwrap();
        assert_eq!(b.actions, vec![3, 3, 3]);
        assert_eq!(b.cost, 15);
        // Cheapest: nine single steps (cost 9).
        let d = dijkstra(&p).unwrap();
        assert_eq!(d.cost, 9);
        let a = astar(&p).unwrap();
        assert_eq!(a.cost, 9);
        assert!(a.expanded <= d.expanded);
        for s in [&b, &d, &a] {
            assert_eq!(s.states.len(), s.actions.len() + 1);
            for (i, act) in s.actions.iter().enumerate() {
                assert_eq!(p.result(&s.states[i], act), s.states[i + 1]);
            }
        }
    }

    #[test]
    fn walls_force_a_jump_and_unreachable_goals_give_none() {
        let p = Line {
            target: 5,
            walls: vec![2],
        };
        assert_eq!(dijkstra(&p).unwrap().actions, vec![1, 3, 1]);
        let p = Line {
            target: 5,
            walls: vec![2, 3],
        };
        assert_eq!(astar(&p).unwrap().actions, vec![1, 3, 1]);
        let p = Line {
            target: 5,
            walls: vec![1, 2, 3, 4],
        };
        assert!(bfs(&p).is_none());
        assert!(dijkstra(&p).is_none());
        assert!(astar(&p).is_none());
    }

    #[test]
    fn a_start_that_is_a_goal_gives_an_empty_solution() {
        let p = Line {
            target: 0,
            walls: vec![],
        };
        let s = bfs(&p).unwrap();
        assert_eq!(s.states, vec![0]);
        assert!(s.actions.is_empty());
        assert_eq!(s.cost, 0);
    }
}
