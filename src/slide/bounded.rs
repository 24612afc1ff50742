//! Generic depth-bounded searches missing from the `pathfinding` crate, in its style: a
//! start node, a successor closure and a goal test; the result is the path including start
//! and goal. Neither is optimal: they return the first path their order finds.

use std::collections::HashMap;
use std::hash::Hash;

/// Graph depth-first search that never goes deeper than `max_depth` edges. A node seen
/// before is searched again only when reached by a shorter path, so the search is complete
/// within the bound without re-walking the same subtree at the same depth.
///
/// ```
/// use llk::slide::bounded::dfs_bounded;
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
/// use llk::slide::bounded::dls;
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
