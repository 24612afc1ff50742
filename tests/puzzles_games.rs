//! The game players against every opponent (tic-tac-toe), against random play and tactical
//! positions (connect four), and the terminal loop driven by scripted input.

use llk::puzzles::adversarial::{alphabeta, minimax, negamax, GameTreeSearch, TwoPlayerGame};
use llk::puzzles::c4::{ConnectFour, Position};
use llk::puzzles::terminal::{play, Ending};
use llk::puzzles::ttt::{rule_move, Mark, TicTacToe, TttBoard};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;

/// Plays `ai` (as `ai_mark`) from `b` against every possible sequence of opponent moves;
/// returns (games played, games the AI lost, games it won).
fn all_lines(
    ai: &mut dyn FnMut(&TttBoard) -> usize,
    ai_mark: Mark,
    b: TttBoard,
) -> (u64, u64, u64) {
    if let Some(w) = b.winner() {
        return (1, (w != ai_mark) as u64, (w == ai_mark) as u64);
    }
    if b.empty().is_empty() {
        return (1, 0, 0);
    }
    if b.to_move() == ai_mark {
        let mv = ai(&b);
        assert!(
            b.cells[mv].is_none(),
            "AI played the taken cell {mv} on {}",
            b.to_text()
        );
        all_lines(ai, ai_mark, b.with(mv, ai_mark))
    } else {
        b.empty().into_iter().fold((0, 0, 0), |acc, c| {
            let r = all_lines(ai, ai_mark, b.with(c, ai_mark.other()));
            (acc.0 + r.0, acc.1 + r.1, acc.2 + r.2)
        })
    }
}

/// Wraps a player with a cache, since the same position recurs in many opponent lines.
fn cached(f: impl Fn(&TttBoard) -> usize) -> impl FnMut(&TttBoard) -> usize {
    let mut memo: HashMap<TttBoard, usize> = HashMap::new();
    move |b| *memo.entry(*b).or_insert_with(|| f(b))
}

/// A tic-tac-toe player under test, by name.
type Player = (&'static str, Box<dyn Fn(&TttBoard) -> usize>);

#[test]
fn tic_tac_toe_players_never_lose_against_any_opponent_line() {
    let players: Vec<Player> = vec![
        ("rule", Box::new(|b| rule_move(b).unwrap())),
        (
            "minimax",
            Box::new(|b| minimax(&TicTacToe, b, 9).best.unwrap()),
        ),
        (
            "alphabeta",
            Box::new(|b| alphabeta(&TicTacToe, b, 9).best.unwrap()),
        ),
        (
            "negamax",
            Box::new(|b| negamax(&TicTacToe, b, 9).best.unwrap()),
        ),
    ];
    for (name, f) in players {
        let mut ai = cached(f);
        for mark in [Mark::X, Mark::O] {
            let (games, lost, won) = all_lines(&mut ai, mark, TttBoard::default());
            println!("{name:>9} as {mark}: {games} opponent lines, {won} won, {lost} lost");
            assert!(games > 0);
            assert_eq!(lost, 0, "{name} as {mark} lost {lost} of {games} games");
            assert!(won > 0, "{name} as {mark} never punished a mistake");
        }
    }
}

/// Every position reachable in a real game, with its side to move.
fn reachable(b: TttBoard, out: &mut HashMap<TttBoard, ()>) {
    if out.insert(b, ()).is_some() || TicTacToe.terminal(&b).is_some() {
        return;
    }
    for c in TicTacToe.moves(&b) {
        reachable(TicTacToe.play(&b, c), out);
    }
}

#[test]
fn the_three_searches_agree_on_every_position_and_pruning_saves_nodes() {
    let mut all = HashMap::new();
    reachable(TttBoard::default(), &mut all);
    assert_eq!(all.len(), 5478, "tic-tac-toe has 5,478 legal positions");
    let (mut full, mut pruned) = (0u64, 0u64);
    let open: Vec<&TttBoard> = all
        .keys()
        .filter(|b| TicTacToe.terminal(b).is_none())
        .collect();
    assert_eq!(open.len(), 4520, "958 of them are final");
    for b in open {
        let m = minimax(&TicTacToe, b, 9);
        let a = alphabeta(&TicTacToe, b, 9);
        let n = negamax(&TicTacToe, b, 9);
        assert_eq!((m.best, m.score), (a.best, a.score), "{}", b.to_text());
        assert_eq!(a, n, "{}", b.to_text());
        assert!(a.nodes <= m.nodes);
        full += m.nodes;
        pruned += a.nodes;
    }
    println!("nodes over all non-terminal positions: minimax {full}, alpha-beta {pruned}");
    assert!(pruned * 5 < full);
}

#[test]
fn depth_limited_searches_still_take_wins_and_block() {
    // At depth 2 the search sees an immediate win and the opponent's immediate win.
    let b = TttBoard::parse("OO.XX.X..").unwrap(); // O wins at 2 (X threatens 5 and 2)
    assert_eq!(b.to_move(), Mark::O);
    for algo in GameTreeSearch::ALL {
        assert_eq!(algo.search(&TicTacToe, &b, 2).best, Some(2), "{algo:?}");
    }
    let b = TttBoard::parse("XX.O.....").unwrap(); // O to move must block 2
    for algo in GameTreeSearch::ALL {
        assert_eq!(algo.search(&TicTacToe, &b, 2).best, Some(2), "{algo:?}");
    }
}

/// Plays connect four: the AI by negamax at `depth`, the other side uniformly at random.
/// Returns the winner (1 or 2), or `None` for a draw.
fn ai_vs_random(ai_player: u8, depth: u32, rng: &mut ChaCha8Rng) -> Option<u8> {
    let mut p = Position::new(6).unwrap();
    while ConnectFour.terminal(&p).is_none() {
        let col = if p.to_move() == ai_player {
            negamax(&ConnectFour, &p, depth).best.unwrap()
        } else {
            let moves = ConnectFour.moves(&p);
            moves[rng.random_range(0..moves.len())]
        };
        p = p.drop_disc(col);
    }
    p.winner
}

#[test]
fn connect_four_depth_6_beats_a_random_player_99_times_in_100() {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut wins = 0;
    for game in 0..100 {
        // Half the games the AI moves first, half second.
        let ai = if game % 2 == 0 { 1 } else { 2 };
        if ai_vs_random(ai, 6, &mut rng) == Some(ai) {
            wins += 1;
        }
    }
    println!("negamax depth 6 beat the random player in {wins} of 100 games");
    assert!(wins >= 99, "only {wins} wins of 100");
}

#[test]
fn connect_four_tactics() {
    // (moves so far, height, the column 1-7 that must be played, why).
    let cases = [
        ("161616", 6, 1, "X completes the vertical four"),
        ("16171", 6, 1, "O blocks X's vertical three"),
        (
            "1122337",
            6,
            4,
            "X completes the horizontal four in column 4",
        ),
        ("112233", 6, 4, "X completes the horizontal four"),
        ("2233", 6, 4, "X makes an open three that wins next move"),
        ("12234334477", 6, 4, "O blocks X's rising diagonal"),
        (
            "77665",
            7,
            4,
            "O blocks the horizontal threat on a 7-high board",
        ),
        (
            "4455",
            6,
            3,
            "X makes an open three (2 and 6 both win next)",
        ),
    ];
    for (moves, height, col, why) in cases {
        let p = Position::from_moves(height, moves).unwrap();
        let r = negamax(&ConnectFour, &p, 6);
        assert_eq!(r.best.map(|c| c + 1), Some(col), "{moves}: {why} ({r:?})");
        assert_eq!(r, alphabeta(&ConnectFour, &p, 6), "{moves}");
    }
}

#[test]
fn terminal_play_reasks_bad_moves_and_finishes_the_game() {
    // The human (X) types junk, an off-board cell, a taken cell, then plays on; the computer
    // (alpha-beta) draws or wins, never loses.
    let script = "hello\n0\n10\n5\n5\n1\n9\n3\n4\n6\n7\n8\n2\n";
    let mut out = Vec::new();
    let (ending, last) = play(
        &TicTacToe,
        TttBoard::default(),
        true,
        |b| alphabeta(&TicTacToe, b, 9).best.unwrap(),
        script.as_bytes(),
        &mut out,
    )
    .unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(
        text.contains("\"hello\" is not a cell: type a number 1-9 — try again."),
        "{text}"
    );
    assert!(text.contains("cell 0 is off the board"), "{text}");
    assert!(text.contains("cell 10 is off the board"), "{text}");
    assert!(text.contains("cell 5 is taken — try again."), "{text}");
    assert!(text.contains("The computer plays cell"), "{text}");
    assert_ne!(ending, Ending::HumanWon);
    assert_ne!(ending, Ending::Quit);
    assert!(TicTacToe.terminal(&last).is_some());
}

#[test]
fn terminal_play_handles_quit_end_of_input_and_full_columns() {
    // Connect four, human second: stack column 4 until it is full, then quit.
    let script = "4\n4\n4\n4\n4\n4\n4\nq\n";
    let mut out = Vec::new();
    let result = play(
        &ConnectFour,
        Position::new(6).unwrap(),
        false,
        |p| {
            // A computer that also plays column 4 while it can, so the column fills.
            if p.can_play(3) {
                3
            } else {
                ConnectFour.moves(p)[0]
            }
        },
        script.as_bytes(),
        &mut out,
    );
    let text = String::from_utf8(out).unwrap();
    let (ending, _) = result.unwrap();
    assert_eq!(ending, Ending::Quit, "{text}");
    assert!(text.contains("column 4 is full — try again."), "{text}");
    // Input that stops mid-game is an error, not a hang or a panic.
    let err = play(
        &TicTacToe,
        TttBoard::default(),
        true,
        |b| rule_move(b).unwrap(),
        "5\n".as_bytes(),
        Vec::new(),
    )
    .unwrap_err();
    assert!(err.to_string().contains("input ended"), "{err}");
}
