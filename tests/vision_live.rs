//! What the live bot sees: the bundled practice game's frames, drawn by `render::Renderer`
//! (classic theme by default, tiles 31×35 or larger, gaps 0..4, chrome). Every stage of a
//! game must read exactly with the grid locked from the first read, down to 2 tiles and an
//! empty board; a highlighted tile reads as its type; a frame with a link path drawn is
//! refused as an animation.

use llk::board::{removable_pairs, Rules};
use llk::render::fixtures::random_board;
use llk::render::{Background, RenderSpec, Renderer, Theme};
use llk::vision::{read, read_cells, Hints, ReadError};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn specs() -> Vec<(RenderSpec, usize, usize)> {
    let mut out = Vec::new();
    for (i, (cell, gap)) in [((31, 35), 0), ((31, 35), 2), ((36, 40), 4), ((40, 44), 1)]
        .into_iter()
        .enumerate()
    {
        for theme in [Theme::Classic, Theme::Dark, Theme::Mahjong, Theme::Pastel] {
            let spec = RenderSpec {
                theme,
                cell,
                gap,
                seed: i as u64,
                background: if i % 2 == 0 {
                    Background::Plain
                } else {
                    Background::Gradient
                },
                ..RenderSpec::default()
            };
            let (rows, cols) = [(11, 19), (8, 12), (7, 10), (10, 14)][i];
            out.push((spec, rows, cols));
        }
    }
    out
}

/// Plays a random game to the end (removing any removable pair), reading every frame with
/// the grid locked from the first `read`.
#[test]
fn every_stage_of_a_game_reads_exactly() {
    let rules = Rules::default();
    for (k, (spec, rows, cols)) in specs().into_iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(k as u64);
        let mut board = random_board(rows, cols, 12 + k % 20, 1.0, 0, &mut rng);
        let mut renderer = Renderer::new(&spec, rows, cols);
        let first = renderer.draw(&board, &[], &[]);
        let reading = read(&first.image, &Hints::default())
            .unwrap_or_else(|e| panic!("{:?} {rows}x{cols}: first read failed: {e}", spec.theme));
        let g = reading.grid;
        assert_eq!((g.rows, g.cols), (rows, cols), "{:?}", spec.theme);
        assert!(
            (g.origin.0 - first.grid.origin.0).abs() <= 3.0,
            "{g:?} vs {:?}",
            first.grid
        );
        assert!(
            (g.origin.1 - first.grid.origin.1).abs() <= 3.0,
            "{g:?} vs {:?}",
            first.grid
        );
        assert!(reading.board.same_up_to_renaming(&board));
        let mut frames = 0;
        loop {
            let f = renderer.draw(&board, &[], &[]);
            let r = read_cells(&f.image, &g).unwrap_or_else(|e| {
                panic!("{:?} with {} tiles: {e}", spec.theme, board.tile_count())
            });
            assert!(
                r.board.same_up_to_renaming(&board),
                "{:?} gap {} at {} tiles:\n{}\n--\n{}",
                spec.theme,
                spec.gap,
                board.tile_count(),
                r.board,
                board
            );
            frames += 1;
            if board.is_clear() {
                break;
            }
            let pairs = removable_pairs(&board, &rules);
            if pairs.is_empty() {
                break;
            }
            let l = &pairs[rng.random_range(0..pairs.len())];
            board.remove_pair(l.a, l.b, rules.gravity);
        }
        println!(
            "{:?} {rows}x{cols} gap {}: {frames} frames read",
            spec.theme, spec.gap
        );
    }
}

#[test]
fn selected_tiles_read_as_their_type() {
    for (k, (spec, rows, cols)) in specs().into_iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(100 + k as u64);
        let board = random_board(rows, cols, 10, 0.8, 0, &mut rng);
        let mut renderer = Renderer::new(&spec, rows, cols);
        let tiles: Vec<_> = board.tiles().map(|(p, _)| p).collect();
        for _ in 0..3 {
            let sel = tiles[rng.random_range(0..tiles.len())];
            let f = renderer.draw(&board, &[sel], &[]);
            let r = read_cells(&f.image, &f.grid).unwrap_or_else(|e| panic!("{e}"));
            assert!(
                r.board.same_up_to_renaming(&board),
                "{:?} gap {} selected {sel}:\n{}\n--\n{}",
                spec.theme,
                spec.gap,
                r.board,
                board
            );
        }
    }
}

#[test]
fn link_frames_are_refused_as_animation() {
    let rules = Rules::default();
    for (k, (spec, rows, cols)) in specs().into_iter().enumerate() {
        let mut rng = ChaCha8Rng::seed_from_u64(200 + k as u64);
        let board = random_board(rows, cols, 8, 0.7, 0, &mut rng);
        let mut renderer = Renderer::new(&spec, rows, cols);
        let pairs = removable_pairs(&board, &rules);
        for l in pairs.iter().take(6) {
            let f = renderer.draw(&board, &[l.a], std::slice::from_ref(l));
            match read_cells(&f.image, &f.grid) {
                Err(ReadError::Animation(_)) => {}
                other => panic!(
                    "{:?} gap {} link {:?}: expected an animation refusal, got {other:?}",
                    spec.theme, spec.gap, l.path
                ),
            }
        }
        // The same frame without the link reads fine.
        let f = renderer.draw(&board, &[], &[]);
        assert!(read_cells(&f.image, &f.grid).is_ok());
    }
}
