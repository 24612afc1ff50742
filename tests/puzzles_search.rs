//! Properties of the generic searches on random puzzles: every search finds a path of the
//! same (shortest) length, the path is walkable, and A* with either admissible heuristic
//! never expands more than Dijkstra.

use llk::puzzles::maze::{solve, Maze, MazeAlgo, MazeHeuristic};
use llk::puzzles::river::River;
use proptest::prelude::*;
use std::collections::VecDeque;

/// A random maze as text: `rows`×`cols` cells, walls where `walls` says, S top-left area and
/// G elsewhere.
fn maze_text(rows: usize, cols: usize, walls: &[bool], s: usize, g: usize) -> String {
    let mut text = String::new();
    for r in 0..rows {
        for c in 0..cols {
            let i = r * cols + c;
            text.push(if i == s {
                'S'
            } else if i == g {
                'G'
            } else if walls[i] {
                '#'
            } else {
                '.'
            });
        }
        text.push('\n');
    }
    text
}

/// Shortest path length by a plain breadth-first flood, independent of the search layer.
fn flood(m: &Maze) -> Option<u64> {
    let mut dist = vec![u64::MAX; m.rows * m.cols];
    let mut queue = VecDeque::from([m.start]);
    dist[m.start.0 * m.cols + m.start.1] = 0;
    while let Some((r, c)) = queue.pop_front() {
        let d = dist[r * m.cols + c];
        if (r, c) == m.goal {
            return Some(d);
        }
        let next = [
            (r.wrapping_sub(1), c),
            (r + 1, c),
            (r, c.wrapping_sub(1)),
            (r, c + 1),
        ];
        for n in next {
            if m.is_free(n) && dist[n.0 * m.cols + n.1] == u64::MAX {
                dist[n.0 * m.cols + n.1] = d + 1;
                queue.push_back(n);
            }
        }
    }
    None
}

proptest! {
    #[test]
    fn every_maze_search_finds_the_shortest_path(
        rows in 2usize..12,
        cols in 2usize..12,
        walls in proptest::collection::vec(proptest::bool::weighted(0.3), 144),
        s in 0usize..144,
        g in 0usize..144,
    ) {
        let n = rows * cols;
        let (s, g) = (s % n, g % n);
        prop_assume!(s != g);
        let m = Maze::parse("random", &maze_text(rows, cols, &walls, s, g)).unwrap();
        let truth = flood(&m);
        let dijkstra = solve(&m, MazeAlgo::Dijkstra, MazeHeuristic::Zero);
        for (algo, h) in [
            (MazeAlgo::AStar, MazeHeuristic::Manhattan),
            (MazeAlgo::AStar, MazeHeuristic::Euclid),
            (MazeAlgo::Bfs, MazeHeuristic::Zero),
            (MazeAlgo::Dijkstra, MazeHeuristic::Zero),
        ] {
            let sol = solve(&m, algo, h);
            prop_assert_eq!(sol.as_ref().map(|s| s.cost), truth, "{:?} {:?}", algo, h);
            if let Some(sol) = sol {
                prop_assert_eq!(sol.states[0], m.start);
                prop_assert_eq!(*sol.states.last().unwrap(), m.goal);
                for w in sol.states.windows(2) {
                    prop_assert!(m.is_free(w[1]));
                    prop_assert_eq!(w[0].0.abs_diff(w[1].0) + w[0].1.abs_diff(w[1].1), 1);
                }
                if algo == MazeAlgo::AStar {
                    let d = dijkstra.as_ref().unwrap();
                    prop_assert!(sol.expanded <= d.expanded, "{:?}: {} > {}", h, sol.expanded, d.expanded);
                }
            }
        }
    }

    #[test]
    fn river_solutions_are_legal_and_hints_count_down(
        priests in 0u32..8,
        devils in 0u32..8,
        boat in 1u32..5,
    ) {
        let r = River::new(priests, devils, boat).unwrap();
        if r.check(&r.start()).is_err() {
            // Devils outnumber priests from the start: there is nothing legal to solve.
            prop_assert!(priests > 0 && devils > priests);
            return Ok(());
        }
        if let Some(sol) = r.solve() {
            let n = sol.actions.len();
            for (i, st) in sol.states.iter().enumerate() {
                prop_assert!(r.is_legal(st));
                match r.hint(*st).unwrap() {
                    Some((_, left)) => prop_assert_eq!(left, n - i),
                    None => prop_assert!(r.is_goal(st)),
                }
            }
            for c in &sol.actions {
                prop_assert!(c.priests + c.devils >= 1 && c.priests + c.devils <= boat);
            }
        }
    }
}
