//! The renderer draws what it says: tiles where the grid says, background elsewhere, every
//! type distinguishable, the same pixels every time.

use image::RgbaImage;
use llk::board::{Board, Cell, Link, Point, Pos, TYPE_ALPHABET};
use llk::geometry::Grid;
use llk::render::fixtures::{fixture_case, fixture_spec, random_board};
use llk::render::{render_board, Background, RenderSpec, Renderer, Theme};
use rand::SeedableRng;

/// Mean RGB of the central part of a cell (`keep` = fraction of the pitch kept).
fn interior(img: &RgbaImage, g: &Grid, p: Pos, keep: f32) -> Vec<[f32; 3]> {
    let (x, y, w, h) = g.cell_rect(p.row as i32, p.col as i32);
    let (mx, my) = (w * (1.0 - keep) / 2.0, h * (1.0 - keep) / 2.0);
    let mut out = Vec::new();
    for yy in (y + my).ceil() as u32..(y + h - my).floor() as u32 {
        for xx in (x + mx).ceil() as u32..(x + w - mx).floor() as u32 {
            let q = img.get_pixel(xx, yy).0;
            out.push([q[0] as f32, q[1] as f32, q[2] as f32]);
        }
    }
    out
}

/// A cell's colour layout: the mean colour of each of `n × n` blocks of its interior. JPEG
/// moves single pixels a lot but block means very little, so readers compare these.
fn layout(img: &RgbaImage, g: &Grid, p: Pos, keep: f32, n: usize) -> Vec<[f32; 3]> {
    let (x, y, w, h) = g.cell_rect(p.row as i32, p.col as i32);
    let (x0, y0) = (x + w * (1.0 - keep) / 2.0, y + h * (1.0 - keep) / 2.0);
    let (bw, bh) = (w * keep / n as f32, h * keep / n as f32);
    let mut out = Vec::new();
    for by in 0..n {
        for bx in 0..n {
            let mut s = [0.0f32; 3];
            let mut k = 0.0;
            for yy in
                (y0 + by as f32 * bh).round() as u32..(y0 + (by + 1) as f32 * bh).round() as u32
            {
                for xx in
                    (x0 + bx as f32 * bw).round() as u32..(x0 + (bx + 1) as f32 * bw).round() as u32
                {
                    let q = img.get_pixel(xx, yy).0;
                    for i in 0..3 {
                        s[i] += q[i] as f32;
                    }
                    k += 1.0;
                }
            }
            out.push([s[0] / k, s[1] / k, s[2] / k]);
        }
    }
    out
}

/// Mean absolute per-channel difference of two equally sized crops.
fn mad(a: &[[f32; 3]], b: &[[f32; 3]]) -> f32 {
    let n = a.len().min(b.len()).max(1);
    let s: f32 = a
        .iter()
        .zip(b)
        .map(|(p, q)| (0..3).map(|i| (p[i] - q[i]).abs()).sum::<f32>() / 3.0)
        .sum();
    s / n as f32
}

#[test]
fn rendering_is_deterministic() {
    for i in [0, 5, 17, 33] {
        let (a, ga, ba) = fixture_case(i);
        let (b, gb, bb) = fixture_case(i);
        assert_eq!(ga, gb);
        assert_eq!(ba, bb);
        assert!(a == b, "case {i} differs between two renders");
    }
    let (a, _, _) = fixture_case(1);
    let (b, _, _) = fixture_case(2);
    assert!(a != b);
}

#[test]
fn a_cached_renderer_matches_render_board() {
    let spec = RenderSpec {
        theme: Theme::Mahjong,
        background: Background::Noise,
        seed: 9,
        ..RenderSpec::default()
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let b1 = random_board(8, 12, 20, 0.8, 2, &mut rng);
    let b2 = random_board(8, 12, 20, 0.5, 0, &mut rng);
    let mut r = Renderer::new(&spec, 8, 12);
    let first = r.draw(&b1, &[], &[]);
    let second = r.draw(&b2, &[], &[]);
    assert!(first.image == render_board(&b1, &spec).image);
    assert!(second.image == render_board(&b2, &spec).image);
    assert_eq!(r.grid(), first.grid);
}

/// Tiles sit where the grid says and empty cells show exactly the background: compare with
/// the same window drawn with an empty board.
#[test]
fn grid_matches_where_tiles_are_drawn() {
    for i in 0..24 {
        let case = fixture_spec(i);
        let drawn = case.render();
        let mut empty_spec = case.spec.clone();
        empty_spec.selected.clear();
        let empty = render_board(
            &Board::new(case.board.rows(), case.board.cols()),
            &empty_spec,
        );
        assert_eq!(drawn.grid, empty.grid);
        assert_eq!(drawn.image.dimensions(), empty.image.dimensions());
        let g = drawn.grid;
        let (_, _, bw, bh) = g.bounds();
        assert!(g.origin.0 + bw <= drawn.image.width() as f32);
        assert!(g.origin.1 + bh <= drawn.image.height() as f32);
        let lossy = case.spec.jpeg_quality.is_some();
        for p in case.board.positions() {
            let a = interior(&drawn.image, &g, p, 0.4);
            let b = interior(&empty.image, &g, p, 0.4);
            let d = mad(&a, &b);
            match case.board.get(p) {
                Cell::Empty => {
                    let limit = if lossy { 6.0 } else { 0.0 };
                    assert!(
                        d <= limit,
                        "{}: empty {p} differs from background by {d}",
                        case.name
                    )
                }
                _ => assert!(
                    d > 20.0,
                    "{}: tile {p} looks like background ({d})",
                    case.name
                ),
            }
        }
    }
}

/// Every type against every other, at the smallest tile size and JPEG 60: the closest pair
/// of different types (by colour layout) must still be far apart compared with two copies
/// of one type drawn at a different JPEG block phase.
#[test]
fn all_types_are_distinguishable_after_jpeg_60() {
    let chars: Vec<u8> = TYPE_ALPHABET.to_vec();
    let cols = 19;
    let rows = (2 * chars.len()).div_ceil(cols);
    let mut board = Board::new(rows, cols);
    for (k, &t) in chars.iter().chain(chars.iter()).enumerate() {
        board.set(Pos::new(k / cols, k % cols), Cell::Tile(t));
    }
    for theme in Theme::ALL {
        let spec = RenderSpec {
            theme,
            cell: (28, 32),
            background: Background::Noise,
            jpeg_quality: Some(60),
            scale: 1.0,
            ..RenderSpec::default()
        };
        let r = render_board(&board, &spec);
        let n = chars.len();
        let at = |k: usize| Pos::new(k / cols, k % cols);
        let crops: Vec<_> = (0..2 * n)
            .map(|k| layout(&r.image, &r.grid, at(k), 0.8, 4))
            .collect();
        let mut worst_same: f32 = 0.0;
        for k in 0..n {
            worst_same = worst_same.max(mad(&crops[k], &crops[k + n]));
        }
        let mut closest = (f32::MAX, 0, 0);
        for a in 0..n {
            for b in 0..a {
                let d = mad(&crops[a], &crops[b]);
                if d < closest.0 {
                    closest = (d, a, b);
                }
            }
        }
        eprintln!("{theme}: copies {worst_same}, closest {}", closest.0);
        assert!(
            worst_same < 3.0,
            "{theme}: two copies of a type differ by {worst_same}"
        );
        assert!(
            closest.0 > 4.0 && closest.0 > 2.5 * worst_same,
            "{theme}: types {:?} and {:?} differ by only {} (copies differ by {worst_same})",
            chars[closest.1] as char,
            chars[closest.2] as char,
            closest.0
        );
    }
}

#[test]
fn scale_gives_fractional_pitch_and_tiles_follow_it() {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let board = random_board(7, 10, 12, 0.6, 0, &mut rng);
    let spec = RenderSpec {
        cell: (31, 35),
        scale: 1.25,
        ..RenderSpec::default()
    };
    let r = render_board(&board, &spec);
    assert!((r.grid.pitch.0 - 38.75).abs() < 0.05, "{:?}", r.grid);
    assert!((r.grid.pitch.1 - 43.75).abs() < 0.05, "{:?}", r.grid);
    assert!(r.grid.pitch.0.fract() != 0.0);
    let empty = render_board(&Board::new(7, 10), &spec);
    for p in board.positions() {
        let d = mad(
            &interior(&r.image, &r.grid, p, 0.4),
            &interior(&empty.image, &r.grid, p, 0.4),
        );
        if board.get(p).is_tile() {
            assert!(d > 20.0, "tile {p}: {d}");
        } else {
            assert!(d < 1.0, "empty {p}: {d}");
        }
    }
    // The last column's right edge lands on the scaled board edge, not a pixel off.
    let unscaled = render_board(
        &board,
        &RenderSpec {
            scale: 1.0,
            ..spec.clone()
        },
    );
    let (sx, sy) = (
        r.image.width() as f32 / unscaled.image.width() as f32,
        r.image.height() as f32 / unscaled.image.height() as f32,
    );
    assert!((r.grid.origin.0 - unscaled.grid.origin.0 * sx).abs() < 1e-3);
    assert!((r.grid.origin.1 - unscaled.grid.origin.1 * sy).abs() < 1e-3);
}

#[test]
fn selection_and_links_are_drawn_only_where_asked() {
    let board = Board::parse("AB.C\nBA.C\n#...").unwrap();
    let plain = render_board(&board, &RenderSpec::default());
    let spec = RenderSpec {
        selected: vec![Pos::new(0, 0)],
        links: vec![Link {
            a: Pos::new(0, 3),
            b: Pos::new(1, 3),
            path: vec![
                Point::new(0, 3),
                Point::new(0, 4),
                Point::new(1, 4),
                Point::new(1, 3),
            ],
        }],
        ..RenderSpec::default()
    };
    let shown = render_board(&board, &spec);
    let g = plain.grid;
    let changed = |p: Point| {
        let (x, y) = g.point_center(p);
        plain.image.get_pixel(x as u32, y as u32) != shown.image.get_pixel(x as u32, y as u32)
    };
    assert!(changed(Point::new(0, 0)), "selected tile not highlighted");
    assert!(
        changed(Point::new(0, 4)),
        "link corner in the ring not drawn"
    );
    assert!(
        changed(Point::new(1, 4)),
        "link corner in the ring not drawn"
    );
    assert!(!changed(Point::new(1, 1)), "an unrelated tile changed");
    assert!(
        !changed(Point::new(2, 2)),
        "an unrelated empty cell changed"
    );
}

#[test]
fn obstacles_and_tiles_look_different() {
    let board = Board::parse("#A\nA#").unwrap();
    for theme in Theme::ALL {
        let r = render_board(
            &board,
            &RenderSpec {
                theme,
                ..RenderSpec::default()
            },
        );
        let o = interior(&r.image, &r.grid, Pos::new(0, 0), 0.7);
        let t = interior(&r.image, &r.grid, Pos::new(0, 1), 0.7);
        let o2 = interior(&r.image, &r.grid, Pos::new(1, 1), 0.7);
        assert!(mad(&o, &t) > 30.0, "{theme}: obstacle looks like a tile");
        assert_eq!(mad(&o, &o2), 0.0);
    }
}

#[test]
fn bad_specs_are_refused_with_a_reason() {
    let bad = [
        RenderSpec {
            cell: (2, 30),
            ..RenderSpec::default()
        },
        RenderSpec {
            scale: 0.0,
            ..RenderSpec::default()
        },
        RenderSpec {
            scale: f32::NAN,
            ..RenderSpec::default()
        },
        RenderSpec {
            jpeg_quality: Some(0),
            ..RenderSpec::default()
        },
        RenderSpec {
            cell: (500, 500),
            scale: 4.0,
            ..RenderSpec::default()
        },
    ];
    for s in bad {
        let e = s.validate(11, 19).unwrap_err();
        assert!(!e.to_string().is_empty());
    }
    assert!(RenderSpec::default().validate(11, 19).is_ok());
    // An empty board still renders (a window with no tiles).
    let r = render_board(&Board::new(0, 0), &RenderSpec::default());
    assert!(r.image.width() > 0 && r.image.height() > 0);
}

#[test]
fn fixture_cases_cover_the_promised_range() {
    let mut themes = std::collections::HashSet::new();
    let mut scales = std::collections::HashSet::new();
    let (mut jpeg, mut png, mut gaps, mut obstacles) = (0, 0, 0, 0);
    for i in 0..64 {
        let c = fixture_spec(i);
        assert!((6..=11).contains(&c.board.rows()) && (8..=19).contains(&c.board.cols()));
        assert!(c.board.check_even().is_ok(), "{}", c.name);
        assert!(c.spec.validate(c.board.rows(), c.board.cols()).is_ok());
        themes.insert(c.spec.theme);
        scales.insert((c.spec.scale * 100.0) as u32);
        match c.spec.jpeg_quality {
            Some(q) => {
                assert!((60..=95).contains(&q));
                jpeg += 1
            }
            None => png += 1,
        }
        gaps += (c.spec.gap > 0) as u32;
        obstacles += c.board.cells().contains(&Cell::Obstacle) as u32;
    }
    assert_eq!(themes.len(), 4);
    assert_eq!(scales.len(), 3);
    assert!(jpeg > 10 && png > 10 && gaps > 5 && obstacles > 5);
}
