//! Sliding-tile solver: every algorithm against the team's benchmark files (skipped with a
//! notice when ../shared is absent, failed under `CI=true`), the fast solver on every size, the CLI's output.

mod common;

use llk::slide::bench::{parse_cases, BenchCase};
use llk::slide::{moves_to_string, solve, solve_with, Algo, Goal, Heuristic, Limits, Puzzle};
use proptest::prelude::*;

fn cases(file: &str) -> Option<Vec<BenchCase>> {
    let path = common::shared(&format!("sliding/{file}"))?;
    let text = std::fs::read_to_string(&path).expect("benchmark file reads");
    Some(parse_cases(&text).expect("benchmark file parses"))
}

fn unlimited(depth: Option<usize>) -> Limits {
    Limits {
        depth,
        max_nodes: Some(u64::MAX),
        ..Limits::default()
    }
}

#[test]
fn hard8_every_optimal_algorithm_finds_the_listed_length() {
    let Some(cases) = cases("hard8.txt") else {
        return;
    };
    assert_eq!(cases.len(), 68);
    let runs = [
        (Algo::Bfs, Heuristic::Zero),
        (Algo::Bibfs, Heuristic::Zero),
        (Algo::Ids, Heuristic::Zero),
        (Algo::Astar, Heuristic::Manhattan),
        (Algo::Astar, Heuristic::Pdb),
        (Algo::Idastar, Heuristic::Misplaced),
        (Algo::Idastar, Heuristic::Manhattan),
        (Algo::Idastar, Heuristic::LinearConflict),
        (Algo::Idastar, Heuristic::Pdb),
        (Algo::PfIdastar, Heuristic::Pdb),
    ];
    for c in &cases {
        for (algo, heur) in runs {
            // Uninformed iterative deepening needs ~10^8 nodes per 27+ move position: the
            // bench covers those (`llk slide bench hard8.txt`), the test stops at 26.
            if algo == Algo::Ids && c.optimal > 26 {
                continue;
            }
            let s = solve(&c.puzzle, &c.goal, algo, heur, &unlimited(None)).unwrap();
            assert_eq!(
                s.moves.len(),
                c.optimal,
                "{algo:?}/{heur:?} on {:?} {}",
                c.goal,
                c.id
            );
            assert_eq!(s.tiles_moved.len(), s.moves.len());
        }
    }
}

#[test]
fn hard8_depth_bounded_searches_return_valid_solutions_within_the_bound() {
    let Some(cases) = cases("hard8.txt") else {
        return;
    };
    for c in cases.iter().filter(|c| c.optimal <= 24) {
        for algo in [Algo::Dfs, Algo::Dls] {
            // solve() replays the moves and fails unless they reach the goal.
            let s = solve(
                &c.puzzle,
                &c.goal,
                algo,
                Heuristic::Zero,
                &unlimited(Some(31)),
            )
            .unwrap();
            assert!(
                s.moves.len() >= c.optimal && s.moves.len() <= 31,
                "{algo:?} {}",
                c.id
            );
            assert_eq!(
                s.moves.len() % 2,
                c.optimal % 2,
                "parity of {algo:?} {}",
                c.id
            );
        }
    }
}

#[test]
fn korf100_all_optimal_with_pattern_databases() {
    let Some(cases) = cases("korf100.txt") else {
        return;
    };
    assert_eq!(cases.len(), 100);
    let mut nodes = 0;
    for c in &cases {
        let s = solve(
            &c.puzzle,
            &c.goal,
            Algo::Idastar,
            Heuristic::Pdb,
            &unlimited(None),
        )
        .unwrap();
        assert_eq!(s.moves.len(), c.optimal, "Korf instance {}", c.id);
        nodes += s.nodes;
    }
    // The PDB must prune far harder than Manhattan (Korf 1985: 36e9 nodes in all).
    assert!(nodes < 100_000_000, "{nodes} nodes expanded");
}

/// Every named 4×4 partition that builds in test time, and tiles spelled out, gives the
/// optimal lengths too (the 7-8 tables take minutes and 5.6 GB: the bench covers them).
#[test]
fn korf100_other_partitions_give_the_same_lengths() {
    let Some(cases) = cases("korf100.txt") else {
        return;
    };
    for name in ["6-6-3", "1,2,3,4,5,6,7/8,9,10,11,13,14,15/12"] {
        let pats = llk::slide::pdb::partition(4, 4, name).unwrap();
        let db = llk::slide::pdb::PatternDb::for_patterns(4, 4, pats).unwrap();
        for c in cases.iter().step_by(10) {
            let s = solve_with(
                &c.puzzle,
                &c.goal,
                Algo::Idastar,
                Heuristic::Pdb,
                &unlimited(None),
                Some(db.clone()),
            )
            .unwrap();
            assert_eq!(s.moves.len(), c.optimal, "{name}: Korf instance {}", c.id);
        }
    }
    // Tables of another board size are refused, not misread.
    let small = llk::slide::pdb::PatternDb::for_board(3, 3).unwrap();
    let e = solve_with(
        &cases[0].puzzle,
        &cases[0].goal,
        Algo::Idastar,
        Heuristic::Pdb,
        &unlimited(None),
        Some(small),
    )
    .unwrap_err();
    assert!(e.to_string().contains("pattern tables for 3x3"), "{e}");
}

#[test]
fn korf100_blank_last_form_gives_the_same_lengths() {
    let Some(cases) = cases("korf100.txt") else {
        return;
    };
    for c in cases.iter().take(10) {
        let bl = c.puzzle.converted();
        let s = solve(
            &bl,
            &Goal::BlankLast,
            Algo::Idastar,
            Heuristic::Pdb,
            &unlimited(None),
        )
        .unwrap();
        assert_eq!(s.moves.len(), c.optimal, "instance {}", c.id);
    }
}

#[test]
fn fast_solves_every_size_up_to_8x8() {
    for h in 2..=8 {
        for w in 2..=8 {
            for goal in [Goal::BlankFirst, Goal::BlankLast] {
                for seed in 0..3 {
                    let p = Puzzle::random(w, h, goal, seed).unwrap();
                    let s =
                        solve(&p, &goal, Algo::Fast, Heuristic::Zero, &Limits::default()).unwrap();
                    let mut q = p.clone();
                    q.apply_all(&s.moves).unwrap();
                    assert!(q.is_goal(goal), "{h}x{w} {goal:?} seed {seed}");
                }
            }
        }
    }
}

#[test]
fn korf24_fast_mode_solves_the_24_puzzle() {
    let Some(cases) = cases("korf24.txt") else {
        return;
    };
    for c in &cases {
        let s = solve(
            &c.puzzle,
            &c.goal,
            Algo::Fast,
            Heuristic::Zero,
            &Limits::default(),
        )
        .unwrap();
        assert!(s.moves.len() >= c.optimal);
    }
}

#[test]
fn rectangles_solve_optimally_with_every_heuristic() {
    // 2x4, 3x4 and 5x2 boards: IDA* with every heuristic finds the same optimal length as
    // the reference: BFS where the state space is small (2x4: 20,160 states; 5x2: 1.8M),
    // on 3x4 (239M states) bidirectional BFS, which meets in the middle.
    for (w, h) in [(4, 2), (4, 3), (2, 5)] {
        for seed in 0..3 {
            let p = Puzzle::random(w, h, Goal::BlankLast, seed).unwrap();
            let reference = if w * h <= 10 { Algo::Bfs } else { Algo::Bibfs };
            let bfs = solve(
                &p,
                &Goal::BlankLast,
                reference,
                Heuristic::Zero,
                &unlimited(None),
            )
            .unwrap();
            // Misplaced tiles is too weak for 3x4 in a test's time.
            let weak = (w * h <= 10).then_some(Heuristic::Misplaced);
            for heur in weak.into_iter().chain([
                Heuristic::Manhattan,
                Heuristic::LinearConflict,
                Heuristic::Pdb,
            ]) {
                let s = solve(&p, &Goal::BlankLast, Algo::Idastar, heur, &unlimited(None)).unwrap();
                assert_eq!(
                    s.moves.len(),
                    bfs.moves.len(),
                    "{h}x{w} seed {seed} {heur:?}"
                );
            }
        }
    }
}

#[test]
fn unsolvable_and_malformed_input_are_refused() {
    let p = Puzzle::parse("1 2 3 4 5 6 8 7 0", None).unwrap();
    let e = solve(
        &p,
        &Goal::BlankLast,
        Algo::Idastar,
        Heuristic::Manhattan,
        &Limits::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("parity"), "{e}");
    assert!(Puzzle::parse("1 2 3 4 5 6 7 0 0", None).is_err());
    assert!(Puzzle::parse("1 2 3", None).is_err());
    // BFS on a 15-puzzle gives up at the node limit instead of eating memory.
    let p = Puzzle::random(4, 4, Goal::BlankFirst, 1).unwrap();
    let lim = Limits {
        max_nodes: Some(10_000),
        ..Limits::default()
    };
    let e = solve(&p, &Goal::BlankFirst, Algo::Bfs, Heuristic::Zero, &lim).unwrap_err();
    assert!(e.to_string().contains("gave up"), "{e}");
}

/// The JSON a successful `llk` run printed (the test fails with its stderr otherwise).
fn json_of(out: &std::process::Output) -> serde_json::Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn cli_json_output() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_llk"))
        .args([
            "slide",
            "solve",
            "--tiles",
            "8 0 6 5 4 7 2 3 1",
            "--heuristic",
            "manhattan",
            "--json",
        ])
        .output()
        .unwrap();
    let v = json_of(&out);
    assert_eq!(v["length"], 31);
    assert_eq!(v["moves"].as_str().unwrap().len(), 31);
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert!(v["micros"].is_u64());
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_llk"))
        .args(["slide", "solve", "--tiles", "1 2 3 4 5 6 7 7 0"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("tile 7 appears more than once"));
    // A partition spelled out is used; a wrong one is one line naming the problem.
    let solve_with_partition = |partition: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_llk"))
            .args(["slide", "solve", "--tiles", "8 0 6 5 4 7 2 3 1", "--json"])
            .args(["--partition", partition])
            .output()
            .unwrap()
    };
    assert_eq!(
        json_of(&solve_with_partition("1,2,3,4,5,6,7/8"))["length"],
        31
    );
    for (bad, says) in [
        ("7-8", "is for 4x4 boards"),
        ("1,2,3/4", "must cover every tile"),
        ("1,2,3,4/4,5,6,7,8", "in two patterns"),
        ("1,2,x", "'x' is not a tile number"),
    ] {
        let out = solve_with_partition(bad);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(says), "{bad}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{bad}: {err}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, failure_persistence: None, ..ProptestConfig::default() })]
    /// On random 8-puzzles, A*, IDA* and bidirectional BFS agree with BFS, and both goal
    /// conventions give equal lengths for converted boards.
    #[test]
    fn optimal_algorithms_agree(seed in 0u64..1_000_000, last in any::<bool>()) {
        let goal = if last { Goal::BlankLast } else { Goal::BlankFirst };
        let p = Puzzle::random(3, 3, goal, seed).unwrap();
        let lim = unlimited(None);
        let bfs = solve(&p, &goal, Algo::Bfs, Heuristic::Zero, &lim).unwrap();
        for (algo, heur) in [(Algo::Bibfs, Heuristic::Zero), (Algo::Astar, Heuristic::LinearConflict),
                             (Algo::Idastar, Heuristic::Pdb), (Algo::Idastar, Heuristic::LinearConflict)] {
            let s = solve(&p, &goal, algo, heur, &lim).unwrap();
            prop_assert_eq!(s.moves.len(), bfs.moves.len());
        }
        let other = if last { Goal::BlankFirst } else { Goal::BlankLast };
        let s = solve(&p.converted(), &other, Algo::Idastar, Heuristic::Manhattan, &lim).unwrap();
        prop_assert_eq!(s.moves.len(), bfs.moves.len());
        let mut q = p.clone();
        q.apply_all(&llk::slide::moves_from_str(&moves_to_string(&bfs.moves)).unwrap()).unwrap();
        prop_assert!(q.is_goal(goal));
    }
}

/// `wastar` with a weight: on the 8-puzzle's hard positions (pattern tables) and on 3×4
/// boards (linear conflicts), every solution reaches the goal within W × the listed or
/// IDA*-proved optimum, in both goal conventions.
#[test]
fn wastar_stays_within_its_bound() {
    let Some(cases) = cases("hard8.txt") else {
        return;
    };
    for weight in [1.0, 1.25, 2.0] {
        let lim = Limits {
            weight: Some(weight),
            ..unlimited(None)
        };
        for c in &cases {
            let s = solve(&c.puzzle, &c.goal, Algo::Wastar, Heuristic::Pdb, &lim).unwrap();
            assert!(
                s.moves.len() as f64 <= weight * c.optimal as f64,
                "{}",
                c.id
            );
            if weight == 1.0 {
                assert_eq!(s.moves.len(), c.optimal, "{}", c.id);
            }
        }
        for seed in 0..10 {
            let goal = if seed % 2 == 0 {
                Goal::BlankFirst
            } else {
                Goal::BlankLast
            };
            let p = Puzzle::random(4, 3, goal, seed).unwrap();
            let h = Heuristic::LinearConflict;
            let opt = solve(&p, &goal, Algo::Idastar, h, &unlimited(None)).unwrap();
            let s = solve(&p, &goal, Algo::Wastar, h, &lim).unwrap();
            assert!(s.moves.len() as f64 <= weight * opt.moves.len() as f64);
        }
    }
}

/// Boards of 6×6 to 8×8 (square and oblong) are reduced to 5×5 and finished by `wastar`
/// (with linear conflicts here, so the test builds no 5×5 tables): the replayed moves reach
/// the goal in both conventions, and on the whole they are shorter than the row-and-column
/// reduction's.
#[test]
fn wastar_solves_boards_up_to_8x8_shorter_than_the_reduction() {
    let (mut ours, mut fast) = (0, 0);
    for (w, h) in [(6, 6), (7, 7), (8, 8), (8, 6), (5, 7)] {
        for goal in [Goal::BlankFirst, Goal::BlankLast] {
            let p = Puzzle::random(w, h, goal, 4).unwrap();
            let lim = Limits::default();
            let s = solve(&p, &goal, Algo::Wastar, Heuristic::LinearConflict, &lim).unwrap();
            let mut q = p.clone();
            q.apply_all(&s.moves).unwrap();
            assert!(q.is_goal(goal), "{h}x{w} {goal:?}");
            ours += s.moves.len();
            fast += solve(&p, &goal, Algo::Fast, Heuristic::Zero, &lim)
                .unwrap()
                .moves
                .len();
        }
    }
    assert!(
        ours * 10 < fast * 8,
        "{ours} moves against the reduction's {fast}"
    );
}

/// Unsolvable boards of any size are refused by parity with a message, never a panic, and
/// a weight below 1 is refused.
#[test]
fn wastar_refuses_unsolvable_boards_and_bad_weights() {
    for (w, h) in [(5, 5), (6, 6), (8, 8)] {
        let mut tiles: Vec<u8> = (1..(w * h) as u8).collect();
        tiles.push(0);
        tiles.swap(0, 1);
        let p = Puzzle::new(w, h, tiles).unwrap();
        let e = solve(
            &p,
            &Goal::BlankLast,
            Algo::Wastar,
            Heuristic::LinearConflict,
            &Limits::default(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("parity"), "{e}");
    }
    let p = Puzzle::random(3, 3, Goal::BlankFirst, 1).unwrap();
    let lim = Limits {
        weight: Some(0.5),
        ..Limits::default()
    };
    let e = solve(
        &p,
        &Goal::BlankFirst,
        Algo::Wastar,
        Heuristic::Manhattan,
        &lim,
    )
    .unwrap_err();
    assert!(e.to_string().contains("at least 1"), "{e}");
}
