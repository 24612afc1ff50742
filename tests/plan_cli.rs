//! `llk plan`, `llk pairs`, `llk generate` as a user runs them: the JSON shape, and a
//! one-line error with a non-zero exit for every kind of bad input.

use llk::board::{Board, Link, Point, Pos, Rules};
use llk::plan::replay;
use std::path::PathBuf;
use std::process::{Command, Output};

fn llk(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_llk"))
        .args(args)
        .output()
        .expect("run llk")
}

/// A scratch file unique to this test process and name.
fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("llk-plan-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A bad input fails with exit code 1 and one line on stderr that contains `what`.
fn assert_one_line_error(o: &Output, what: &[&str]) {
    assert_eq!(o.status.code(), Some(1), "stderr: {}", stderr(o));
    let e = stderr(o);
    assert_eq!(e.trim_end().lines().count(), 1, "not one line: {e}");
    assert!(!e.contains("panicked"), "{e}");
    for w in what {
        assert!(e.contains(w), "{w:?} missing from {e}");
    }
}

fn pos(v: &serde_json::Value) -> Pos {
    Pos::new(
        v[0].as_u64().unwrap() as usize,
        v[1].as_u64().unwrap() as usize,
    )
}

#[test]
fn plan_json_shape_and_moves_replay() {
    let text = "AB.C\nCB.A\n#..D\nD...";
    let f = temp_file("ok.txt", text);
    for gravity in ["none", "down", "up", "center-v"] {
        let o = llk(&["plan", f.to_str().unwrap(), "--json", "--gravity", gravity]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["solved"], true);
        assert!(v["states"].is_u64() && v["micros"].is_u64());
        let moves: Vec<Link> = v["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| Link {
                a: pos(&m["a"]),
                b: pos(&m["b"]),
                path: m["path"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| {
                        Point::new(p[0].as_i64().unwrap() as i32, p[1].as_i64().unwrap() as i32)
                    })
                    .collect(),
            })
            .collect();
        assert_eq!(moves.len(), 4);
        let rules = Rules {
            outside: true,
            gravity: gravity.parse().unwrap(),
        };
        let board = Board::parse(text).unwrap();
        assert!(replay(&board, &rules, &moves).unwrap().is_clear());
    }
}

#[test]
fn plan_json_uses_ring_coordinates() {
    // Only a path through the ring above joins the As.
    let f = temp_file("ring.txt", "ABAB");
    let o = llk(&[
        "plan",
        f.to_str().unwrap(),
        "--json",
        "--strategy",
        "greedy",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let path = &v["moves"][0]["path"];
    assert_eq!(path[1], serde_json::json!([-1, 0]), "{v}");
    // Without the ring nothing links: the search proves it.
    let o = llk(&["plan", f.to_str().unwrap(), "--json", "--no-outside"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["solved"], false);
    assert_eq!(v["outcome"], "unsolvable");
    let o = llk(&["plan", f.to_str().unwrap(), "--no-outside"]);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.contains("unsolvable") && out.contains("2 states"),
        "{out}"
    );
    let big = temp_file(
        "big.txt",
        &llk::plan::generate(&llk::plan::GenSpec::full(11, 19, 4, 3))
            .unwrap()
            .to_text(),
    );
    let o = llk(&[
        "plan",
        big.to_str().unwrap(),
        "--gravity",
        "left",
        "--max-states",
        "5",
    ]);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains("gave up after"), "{out}");
}

#[test]
fn plan_text_and_pairs() {
    let f = temp_file("text.txt", "AB\nAB");
    let o = llk(&["plan", f.to_str().unwrap(), "--strategy", "paper"]);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains("cleared in 2 moves"), "{out}");
    let o = llk(&["pairs", f.to_str().unwrap()]);
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains("A (0,0)-(1,0) straight"), "{out}");
    assert!(out.contains("2 removable pairs"), "{out}");
    let o = llk(&["pairs", f.to_str().unwrap(), "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v.as_array().unwrap().len(), 2);
}

#[test]
fn bad_boards_get_one_line_errors() {
    let missing = std::env::temp_dir().join("llk-no-such-board.txt");
    let o = llk(&["plan", missing.to_str().unwrap()]);
    assert_one_line_error(&o, &["llk-no-such-board.txt", "cannot read"]);

    let empty = temp_file("empty.txt", "\n \n");
    let o = llk(&["plan", empty.to_str().unwrap()]);
    assert_one_line_error(&o, &["empty.txt", "empty"]);

    let ragged = temp_file("ragged.txt", "AB\nABA\n");
    let o = llk(&["plan", ragged.to_str().unwrap()]);
    assert_one_line_error(&o, &["ragged.txt", "line 2", "ragged"]);

    let odd = temp_file("odd.txt", "AAB\nB.A\n");
    let o = llk(&["plan", odd.to_str().unwrap()]);
    assert_one_line_error(&o, &["odd.txt", "odd", "'A' ×3"]);
    let o = llk(&["pairs", odd.to_str().unwrap()]);
    assert_one_line_error(&o, &["odd.txt", "odd"]);

    let bad_char = temp_file("char.txt", "Aé\n");
    let o = llk(&["plan", bad_char.to_str().unwrap()]);
    assert_one_line_error(&o, &["char.txt", "column 2"]);

    let binary = temp_file("binary.txt", "");
    std::fs::write(&binary, [0xffu8, 0xfe, 0x00]).unwrap();
    let o = llk(&["plan", binary.to_str().unwrap()]);
    assert_one_line_error(&o, &["binary.txt"]);
}

#[test]
fn bad_options_are_refused() {
    let f = temp_file("opts.txt", "AA");
    let o = llk(&["plan", f.to_str().unwrap(), "--strategy", "best"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("greedy"), "{}", stderr(&o));
    let o = llk(&["plan", f.to_str().unwrap(), "--gravity", "sideways"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("center-v"), "{}", stderr(&o));
}

#[test]
fn generate_is_reproducible_and_checked() {
    let args = [
        "generate",
        "--rows",
        "6",
        "--cols",
        "8",
        "--seed",
        "5",
        "--obstacles",
        "3",
    ];
    let a = llk(&args);
    let b = llk(&args);
    assert!(a.status.success(), "{}", stderr(&a));
    assert_eq!(a.stdout, b.stdout);
    let board = Board::parse(&String::from_utf8(a.stdout).unwrap()).unwrap();
    assert_eq!((board.rows(), board.cols()), (6, 8));
    assert_eq!(board.tile_count(), 44);
    assert!(board.check_even().is_ok());

    let out = temp_file("gen.txt", "");
    let o = llk(&[
        "generate",
        "--rows",
        "4",
        "--cols",
        "4",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(Board::parse(&text).unwrap().tile_count(), 16);

    let o = llk(&["generate", "--copies", "3"]);
    assert_one_line_error(&o, &["even"]);
    let o = llk(&["generate", "--rows", "2", "--cols", "2", "--types", "3"]);
    assert_one_line_error(&o, &["do not fit", "2×2"]);
}

#[test]
fn help_explains_the_options() {
    for (args, words) in [
        (
            &["plan", "--help"][..],
            &["--gravity", "--strategy", "--no-outside", "--json"][..],
        ),
        (&["pairs", "--help"], &["--gravity", "--json"]),
        (
            &["generate", "--help"],
            &["--seed", "--copies", "--obstacles"],
        ),
        (
            &["bench", "plan", "--help"],
            &["--boards", "--size", "--threads"],
        ),
    ] {
        let o = llk(args);
        assert!(o.status.success());
        let out = String::from_utf8(o.stdout).unwrap();
        for w in words {
            assert!(out.contains(w), "{args:?}: {w} missing");
        }
    }
}

#[test]
fn bench_runs_quick() {
    let o = llk(&[
        "bench",
        "plan",
        "--boards",
        "3",
        "--size",
        "6x8",
        "--gravity",
        "none,down",
        "--threads",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    // Header, separator, and one row per gravity mode and strategy.
    assert_eq!(
        out.lines().filter(|l| l.starts_with("| 6×8")).count(),
        6,
        "{out}"
    );
    let o = llk(&["bench", "plan", "--boards", "0"]);
    assert_one_line_error(&o, &["--boards"]);
    let o = llk(&["bench", "plan", "--size", "0x5", "--boards", "1"]);
    assert!(!o.status.success());
}

/// Issue 21 item 12: "unsolvable" and "gave up" exited 0, like a cleared board. Each
/// outcome has its own status (3 stuck, 4 unsolvable, 5 gave up), in text and JSON, with
/// the moves and the outcome on stdout and nothing on stderr.
#[test]
fn plan_outcomes_have_distinct_exit_statuses() {
    // Only a path through the ring joins the As: without it nothing links.
    let ring = temp_file("status-ring.txt", "ABAB");
    let ring = ring.to_str().unwrap();
    let big = temp_file(
        "status-big.txt",
        &llk::plan::generate(&llk::plan::GenSpec::full(11, 19, 4, 3))
            .unwrap()
            .to_text(),
    );
    let big = big.to_str().unwrap();
    let budget = ["--gravity", "left", "--max-states", "5"];
    for (args, code, words) in [
        (vec![ring], 0, "cleared in 2 moves"),
        (
            vec![ring, "--no-outside"],
            4,
            "unsolvable: no order of removals",
        ),
        (
            vec![ring, "--no-outside", "--strategy", "greedy"],
            3,
            "stuck after 0 moves with 4 tiles left",
        ),
        (
            vec![ring, "--no-outside", "--strategy", "paper"],
            3,
            "stuck after 0 moves",
        ),
        ([&[big][..], &budget].concat(), 5, "gave up after"),
    ] {
        for json in [false, true] {
            let mut run = vec!["plan"];
            run.extend(&args);
            if json {
                run.push("--json");
            }
            let o = llk(&run);
            let out = String::from_utf8(o.stdout.clone()).unwrap();
            assert_eq!(o.status.code(), Some(code), "{run:?}: {out}{}", stderr(&o));
            assert_eq!(stderr(&o), "", "{run:?}");
            if json {
                let v: serde_json::Value = serde_json::from_str(&out).unwrap();
                assert_eq!(v["solved"], code == 0, "{run:?}: {v}");
            } else {
                assert!(out.contains(words), "{run:?}: {out}");
            }
        }
    }
}
