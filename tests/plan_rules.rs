//! The link rule after gravity, on hand-made boards: what a move leaves behind in every
//! gravity mode, and which links the new layout allows. The planner trusts these rules
//! (its own fast copy is tested against them), so they are pinned down case by case here.

use llk::board::{check_link, find_link, Board, Gravity, Pos, Rules};

fn p(row: usize, col: usize) -> Pos {
    Pos::new(row, col)
}

/// Removes the C pair from the middle of a board whose As and Bs sit in the corners, and
/// checks where every mode puts the corner tiles and that both pairs still link (two
/// turns each, since the other pair blocks the one-turn corners).
#[test]
fn corners_after_each_gravity() {
    let start = "A..B\n.CC.\n....\nB..A";
    let cases = [
        (Gravity::None, "A..B\n....\n....\nB..A"),
        (Gravity::Down, "....\n....\nA..B\nB..A"),
        (Gravity::Up, "A..B\nB..A\n....\n...."),
        (Gravity::Left, "AB..\n....\n....\nBA.."),
        (Gravity::Right, "..AB\n....\n....\n..BA"),
        (Gravity::CenterV, "....\nA..B\nB..A\n...."),
        (Gravity::CenterH, ".AB.\n....\n....\n.BA."),
    ];
    for (gravity, want) in cases {
        let rules = Rules {
            outside: false,
            gravity,
        };
        let mut b = Board::parse(start).unwrap();
        let c = find_link(&b, &rules, p(1, 1), p(1, 2)).expect("touching Cs link");
        assert_eq!(c.turns(), 0);
        b.remove_pair(c.a, c.b, gravity);
        assert_eq!(b.to_text(), want, "{gravity}");
        let tiles: Vec<(Pos, u8)> = b.tiles().collect();
        for t in [b'A', b'B'] {
            let ends: Vec<Pos> = tiles.iter().filter(|x| x.1 == t).map(|x| x.0).collect();
            let l = find_link(&b, &rules, ends[0], ends[1])
                .unwrap_or_else(|| panic!("{gravity}: {} pair does not link\n{b}", t as char));
            assert_eq!(l.turns(), 2, "{gravity} {}: {:?}", t as char, l.path);
            check_link(&b, &rules, &l).unwrap();
        }
    }
}

/// A tile falling into a gap closes a straight link; the pair then needs the detour.
#[test]
fn falling_tile_blocks_a_straight_link() {
    let start = ".C.\nDD.\nA.A\n###";
    for (gravity, turns) in [(Gravity::None, 0), (Gravity::Down, 2)] {
        let rules = Rules {
            outside: false,
            gravity,
        };
        let mut b = Board::parse(start).unwrap();
        b.remove_pair(p(1, 0), p(1, 1), gravity);
        let l = find_link(&b, &rules, p(2, 0), p(2, 2)).unwrap();
        assert_eq!(l.turns(), turns, "{gravity}\n{b}");
        check_link(&b, &rules, &l).unwrap();
    }
    // With the row above also filled, only the ring is left, and it is switched off.
    let mut b = Board::parse("XCX\nDDY\nA.A\n###").unwrap();
    let rules = Rules {
        outside: false,
        gravity: Gravity::Down,
    };
    b.remove_pair(p(1, 0), p(1, 1), Gravity::Down);
    assert_eq!(b.to_text(), "..X\nX.Y\nACA\n###");
    assert!(find_link(&b, &rules, p(2, 0), p(2, 2)).is_none());
    let outside = Rules {
        outside: true,
        ..rules
    };
    assert!(
        find_link(&b, &outside, p(2, 0), p(2, 2)).is_none(),
        "X and Y wall it in"
    );
}

/// Obstacles split a column: tiles above one never fall past it.
#[test]
fn obstacles_hold_tiles_up() {
    let rules = Rules {
        outside: true,
        gravity: Gravity::Down,
    };
    let mut b = Board::parse("E.\n#.\nFF\n.E").unwrap();
    b.remove_pair(p(2, 0), p(2, 1), Gravity::Down);
    assert_eq!(b.to_text(), "E.\n#.\n..\n.E");
    // The upper E stayed above the obstacle; it reaches the lower one with one turn, along
    // row 0 and down the emptied column 1.
    let l = find_link(&b, &rules, p(0, 0), p(3, 1)).unwrap();
    assert_eq!(l.turns(), 1);
    check_link(&b, &rules, &l).unwrap();
}
