//! `llk puzzle …` end to end: the JSON each subcommand prints, its error messages, and
//! interactive play through stdin.

use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn llk(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_llk"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("running llk");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn json(args: &[&str]) -> Value {
    let out = llk(args, "");
    assert!(
        out.status.success(),
        "llk {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

fn error(args: &[&str]) -> String {
    let out = llk(args, "");
    assert!(!out.status.success(), "llk {args:?} should fail");
    String::from_utf8(out.stderr).unwrap()
}

fn classic() -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/puzzles/classic.txt")
        .display()
        .to_string()
}

#[test]
fn maze_classic_is_15_steps_with_every_algorithm() {
    let file = classic();
    for extra in [
        &["--algo", "astar", "--heuristic", "manhattan"][..],
        &["--algo", "astar", "--heuristic", "euclid"],
        &["--algo", "bfs"],
        &["--algo", "dijkstra"],
    ] {
        let mut args = vec!["puzzle", "maze", &file, "--json"];
        args.extend_from_slice(extra);
        let v = json(&args);
        assert_eq!(v["length"], 15, "{extra:?}");
        let path = v["path"].as_array().unwrap();
        assert_eq!(path.len(), 16);
        // 1-based (5,3) and (6,9) in the issue are 0-based (4,2) and (5,8).
        assert_eq!(path[0], serde_json::json!([4, 2]));
        assert_eq!(path[15], serde_json::json!([5, 8]));
    }
    // The drawing shows the path.
    let out = llk(&["puzzle", "maze", &file], "");
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.matches('*').count(), 14, "{text}");
    assert!(text.contains("length 15"));
}

#[test]
fn maze_errors_name_the_file_and_the_problem() {
    let dir = std::env::temp_dir().join(format!("llk-puzzles-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "S.?\n..G\n").unwrap();
    let e = error(&["puzzle", "maze", bad.to_str().unwrap()]);
    assert!(
        e.contains("bad.txt: line 1, column 3: unknown cell '?'"),
        "{e}"
    );
    std::fs::write(&bad, "...\n..G\n").unwrap();
    let e = error(&["puzzle", "maze", bad.to_str().unwrap()]);
    assert!(e.contains("no start"), "{e}");
    let e = error(&["puzzle", "maze", "/nonexistent/maze.txt"]);
    assert!(e.contains("reading maze /nonexistent/maze.txt"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn river_classic_needs_11_crossings_and_hints_work() {
    let v = json(&[
        "puzzle",
        "river",
        "--priests",
        "3",
        "--devils",
        "3",
        "--boat",
        "2",
        "--json",
    ]);
    assert_eq!(v["length"], 11);
    assert_eq!(v["states"].as_array().unwrap().len(), 12);
    let v = json(&["puzzle", "river", "--hint", "3,1,R", "--json"]);
    assert_eq!(v["crossings_left"], 10);
    assert_eq!(v["move"], serde_json::json!({"priests": 0, "devils": 1}));
    let e = error(&["puzzle", "river", "--hint", "1,3,L"]);
    assert!(
        e.contains("devils outnumber priests 3 to 1 on the left bank"),
        "{e}"
    );
}

#[test]
fn ttt_board_analysis_prints_move_score_nodes() {
    for algo in ["minimax", "alphabeta", "negamax"] {
        let v = json(&[
            "puzzle",
            "ttt",
            "--board",
            "X.O......",
            "--algo",
            algo,
            "--json",
        ]);
        // X to move wins by force; every search finds the same winning move.
        assert_eq!(v["move"], 6, "{algo}");
        assert_eq!(v["score"], 95, "{algo}");
        assert!(v["nodes"].as_u64().unwrap() > 0);
    }
    let m = json(&[
        "puzzle",
        "ttt",
        "--board",
        ".........",
        "--algo",
        "minimax",
        "--json",
    ]);
    assert_eq!(m["nodes"], 549_946);
    let e = error(&["puzzle", "ttt", "--board", "XXO.....", "--json"]);
    assert!(e.contains("8 cells, expected 9"), "{e}");
    let e = error(&["puzzle", "ttt", "--board", "XXX.OO...", "--json"]);
    assert!(e.contains("game is over, X has won"), "{e}");
}

#[test]
fn ttt_plays_a_human_through_stdin() {
    // The human is O; the computer (X) opens. Junk is re-asked, then O plays the free cells
    // in order until the game ends.
    let script = "x\n1\n2\n3\n4\n5\n6\n7\n8\n9\n";
    let out = llk(&["puzzle", "ttt", "--human", "o"], script);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("The computer plays cell 5."), "{text}");
    assert!(text.contains("\"x\" is not a cell"), "{text}");
    assert!(
        text.contains("The computer wins.") || text.contains("Draw."),
        "{text}"
    );
}

#[test]
fn c4_analysis_and_play() {
    let v = json(&["puzzle", "c4", "--moves", "161616", "--json"]);
    assert_eq!(v["column"], 1);
    let v = json(&["puzzle", "c4", "--moves", "16171", "--depth", "4", "--json"]);
    assert_eq!(v["column"], 1);
    let e = error(&["puzzle", "c4", "--moves", "1218", "--json"]);
    assert!(e.contains("move 4 is '8'"), "{e}");
    let e = error(&["puzzle", "c4", "--height", "8"]);
    assert!(e.contains("height 8"), "{e}");
    // Play: a bad column is re-asked, then the human quits.
    let out = llk(&["puzzle", "c4", "--depth", "2"], "9\n4\nq\n");
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("column 9 is off the board"), "{text}");
    assert!(text.contains("The computer plays column"), "{text}");
    assert!(text.contains("Game abandoned."), "{text}");
}

/// The exit status of a run, its stdout and its stderr.
fn status(args: &[&str]) -> (Option<i32>, String, String) {
    let o = llk(args, "");
    (
        o.status.code(),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

/// Issue 21 item 12: "no path" and an unsolvable river crossing exited 0, like a solution.
/// Both end with status 4 (`UNSOLVABLE`), text and JSON alike, with the outcome on stdout
/// and nothing on stderr; a solution still exits 0.
#[test]
fn no_path_and_an_unsolvable_river_exit_4() {
    let dir = std::env::temp_dir().join(format!("llk-puzzles-exit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let walled = dir.join("walled.txt");
    std::fs::write(&walled, "S.#.\n..#G\n").unwrap();
    let walled = walled.to_str().unwrap();
    let (code, out, err) = status(&["puzzle", "maze", walled]);
    assert_eq!(code, Some(4), "{out}{err}");
    assert!(
        out.contains("no path: the walls cut the goal off from the start"),
        "{out}"
    );
    assert_eq!(err, "");
    let (code, out, _) = status(&["puzzle", "maze", walled, "--json"]);
    assert_eq!(code, Some(4), "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(v["length"].is_null(), "{v}");
    let (code, out, _) = status(&["puzzle", "maze", walled, "--compare"]);
    assert_eq!(code, Some(4), "{out}");
    assert_eq!(out.matches("no path").count(), 4, "{out}");
    let (code, _, _) = status(&["puzzle", "maze", &classic(), "--compare"]);
    assert_eq!(code, Some(0));

    let four = ["puzzle", "river", "--priests", "4", "--devils", "4"];
    let (code, out, err) = status(&four);
    assert_eq!(code, Some(4), "{out}{err}");
    assert!(
        out.contains("unsolvable: no sequence of crossings gets 4 priests, 4 devils, a boat of 2 across safely"),
        "{out}"
    );
    assert_eq!(err, "");
    let (code, out, _) = status(&[&four[..], &["--json"]].concat());
    assert_eq!(code, Some(4), "{out}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(v["length"].is_null(), "{v}");
    // A hint from a state with no way across, and from the goal (solved: 0).
    let (code, out, _) = status(&[&four[..], &["--hint", "4,4,L"]].concat());
    assert_eq!(code, Some(4), "{out}");
    assert!(out.contains("no way across exists"), "{out}");
    let (code, out, _) = status(&["puzzle", "river", "--hint", "0,0,R"]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("everyone is across"), "{out}");
    let (code, _, _) = status(&["puzzle", "river"]);
    assert_eq!(code, Some(0));
    std::fs::remove_dir_all(&dir).unwrap();
}
