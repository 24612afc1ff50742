//! The planner's answers are judged only by the reference rules (`check_link`,
//! `Board::remove_pair`) and by a brute-force solver that shares no code with it.

use llk::board::{Board, Gravity, Rules};
use llk::plan::exhaustive::solvable;
use llk::plan::{generate, plan, replay, GenSpec, Outcome, PlanOptions, Strategy as PlanStrategy};
use proptest::prelude::*;

fn opts(strategy: PlanStrategy) -> PlanOptions {
    PlanOptions {
        strategy,
        max_states: 300_000,
        max_time: None,
    }
}

/// Replays a plan with the reference rules and checks it agrees with its outcome.
fn check_plan(board: &Board, rules: &Rules, strategy: PlanStrategy) -> Outcome {
    let p = plan(board, rules, &opts(strategy));
    let end = replay(board, rules, &p.moves)
        .unwrap_or_else(|e| panic!("{strategy} {rules:?}: illegal move: {e}\n{board}"));
    match p.outcome {
        Outcome::Cleared => assert!(end.is_clear(), "{strategy}: cleared but tiles left"),
        Outcome::Stuck => {
            assert!(!end.is_clear());
            assert!(
                llk::board::removable_pairs(&end, rules).is_empty(),
                "{strategy}: stuck with a removable pair left\n{end}"
            );
        }
        Outcome::Unsolvable | Outcome::GaveUp => {
            assert_eq!(strategy, PlanStrategy::Search);
            assert!(p.moves.is_empty());
        }
    }
    p.outcome
}

/// Every strategy, gravity mode and ring setting on QQ-like boards (full, 4 copies):
/// every move is legal and the outcome is what the replay shows.
#[test]
fn plans_replay_legally_in_every_mode() {
    let mut cleared = 0;
    for seed in 0..8 {
        let (rows, cols) = [(8, 12), (6, 8), (5, 6), (10, 14)][seed as usize % 4];
        let board = generate(&GenSpec {
            obstacles: (seed % 3) as usize,
            types: (rows * cols - 2) / 4,
            ..GenSpec::full(rows, cols, 4, seed)
        })
        .unwrap();
        for gravity in Gravity::ALL {
            for outside in [true, false] {
                let rules = Rules { outside, gravity };
                for strategy in PlanStrategy::ALL {
                    if check_plan(&board, &rules, strategy) == Outcome::Cleared {
                        cleared += 1;
                    }
                }
            }
        }
    }
    // Not a vacuous test: many of these plans clear their board.
    assert!(cleared > 20, "only {cleared} plans cleared");
}

/// Boards with free space: greedy and paper often clear them, search always.
#[test]
fn search_clears_whenever_greedy_does() {
    for seed in 0..40 {
        let board = generate(&GenSpec {
            rows: 8,
            cols: 12,
            types: 16,
            copies: 4,
            obstacles: 4,
            seed,
        })
        .unwrap();
        for gravity in Gravity::ALL {
            let rules = Rules {
                outside: true,
                gravity,
            };
            let s = check_plan(&board, &rules, PlanStrategy::Search);
            for other in [PlanStrategy::Greedy, PlanStrategy::Paper] {
                if check_plan(&board, &rules, other) == Outcome::Cleared {
                    assert_eq!(
                        s,
                        Outcome::Cleared,
                        "{other} cleared, search did not\n{board}"
                    );
                }
            }
        }
    }
}

fn small_board() -> impl Strategy<Value = (Board, Rules)> {
    (
        2usize..=4,
        2usize..=5,
        1usize..=4,
        0usize..=3,
        any::<u64>(),
        0usize..7,
        any::<bool>(),
    )
        .prop_filter_map(
            "fits",
            |(rows, cols, types, obstacles, seed, g, outside)| {
                let copies = if types * 4 + obstacles <= rows * cols {
                    4
                } else {
                    2
                };
                let b = generate(&GenSpec {
                    rows,
                    cols,
                    types,
                    copies,
                    obstacles,
                    seed,
                })
                .ok()?;
                (b.tile_count() <= 16).then_some((
                    b,
                    Rules {
                        outside,
                        gravity: Gravity::ALL[g],
                    },
                ))
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Search never plays an illegal move and agrees with brute force about solvability.
    #[test]
    fn search_agrees_with_exhaustive((board, rules) in small_board()) {
        let truth = solvable(&board, &rules, 1_000_000).expect("small board");
        let p = plan(&board, &rules, &opts(PlanStrategy::Search));
        let end = replay(&board, &rules, &p.moves).map_err(|e| TestCaseError::fail(e.to_string()))?;
        match p.outcome {
            Outcome::Cleared => prop_assert!(end.is_clear()),
            o => prop_assert_eq!(o, Outcome::Unsolvable),
        }
        prop_assert_eq!(p.solved(), truth, "{:?}\n{}", rules, board);
    }

    /// Greedy and paper never play an illegal move, and never claim more than brute force.
    #[test]
    fn one_pass_strategies_are_legal((board, rules) in small_board()) {
        for strategy in [PlanStrategy::Greedy, PlanStrategy::Paper] {
            let p = plan(&board, &rules, &opts(strategy));
            let end = replay(&board, &rules, &p.moves).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(end.is_clear(), p.solved());
            if p.solved() {
                prop_assert_eq!(solvable(&board, &rules, 1_000_000), Some(true));
            }
        }
    }
}

/// Boards big enough that the search often needs more than its first run (restarts with
/// noise, the pairing search's and the move-order search's tables kept across runs), still
/// small enough for brute force: every answer matches the exhaustive solver.
#[test]
fn restarted_search_agrees_with_exhaustive() {
    let (mut compared, mut restarted) = (0, 0);
    for seed in 0..100u64 {
        let board = generate(&GenSpec {
            rows: 5,
            cols: 6,
            types: 7,
            copies: 4,
            obstacles: 1 + (seed % 2) as usize,
            seed,
        })
        .unwrap();
        for gravity in Gravity::ALL {
            let rules = Rules {
                outside: seed % 3 != 0,
                gravity,
            };
            let Some(truth) = solvable(&board, &rules, 200_000) else {
                continue;
            };
            let p = plan(&board, &rules, &opts(PlanStrategy::Search));
            let end = replay(&board, &rules, &p.moves)
                .unwrap_or_else(|e| panic!("{rules:?}: illegal move: {e}\n{board}"));
            assert_eq!(p.solved(), truth, "{rules:?}\n{board}");
            assert_eq!(p.solved(), end.is_clear());
            if !truth {
                assert_eq!(p.outcome, Outcome::Unsolvable, "{rules:?}\n{board}");
            }
            compared += 1;
            // Greedy's pass takes at most 14 states (28 tiles); the first run 128.
            restarted += (p.states > 14 + 128) as usize;
        }
    }
    assert!(compared > 500, "only {compared} boards compared");
    assert!(
        restarted > 5,
        "only {restarted} searches went past their first run"
    );
}
