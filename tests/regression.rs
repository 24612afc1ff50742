//! One named test per defect found by hardening (issue 21): each runs `llk` (or the
//! library) the way the defect was found and checks the fixed behaviour.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const LLK: &str = env!("CARGO_BIN_EXE_llk");

fn llk(args: &[&str]) -> Output {
    Command::new(LLK).args(args).output().expect("run llk")
}

/// A scratch folder unique to this test process and name, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("llk-regression-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A rendered screenshot of a small board, for the commands that read images.
fn screenshot(dir: &Path) -> PathBuf {
    let board = dir.join("board.txt");
    let g = llk(&["generate", "--rows", "6", "--cols", "8", "--seed", "3"]);
    assert!(g.status.success(), "generate: {}", stderr(&g));
    std::fs::write(&board, &g.stdout).unwrap();
    let png = dir.join("shot.png");
    let o = llk(&["render", s(&board), "-o", s(&png)]);
    assert!(o.status.success(), "render: {}", stderr(&o));
    png
}

/// Issue 21 item 10: `llk annotate shot.png -o shot.png` replaced the screenshot with its
/// annotation. It is refused (under any spelling of the same path) unless `--force`.
#[test]
fn annotate_refuses_to_overwrite_its_input() {
    let dir = scratch("annotate-overwrite");
    let png = screenshot(&dir);
    let before = std::fs::read(&png).unwrap();
    let other_spelling = dir.join(".").join("shot.png");
    for out in [&png, &other_spelling] {
        let o = llk(&["annotate", s(&png), "-o", s(out)]);
        assert_eq!(o.status.code(), Some(1), "stderr: {}", stderr(&o));
        assert!(stderr(&o).contains("--force"), "{}", stderr(&o));
        assert_eq!(
            std::fs::read(&png).unwrap(),
            before,
            "the screenshot was changed"
        );
    }
    // A different output is written without --force.
    let o = llk(&["annotate", s(&png), "-o", s(&dir.join("ann.png"))]);
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    let o = llk(&["annotate", s(&png), "-o", s(&png), "--force"]);
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    assert_ne!(
        std::fs::read(&png).unwrap(),
        before,
        "--force did not write"
    );
}

/// Issue 21 item 9: `llk slide pdb` with a cache folder that cannot be created exited 0 and
/// listed "(0 bytes)" tables as ready. It fails, naming the folder and LLK_CACHE.
#[test]
fn slide_pdb_fails_on_an_unwritable_cache() {
    let dir = scratch("pdb-unwritable");
    let file = dir.join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    let cache = file.join("cache");
    let o = Command::new(LLK)
        .args(["slide", "pdb", "--size", "3x3"])
        .env("LLK_CACHE", &cache)
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(1),
        "stdout: {}",
        String::from_utf8_lossy(&o.stdout)
    );
    let e = stderr(&o);
    assert!(e.contains("not writable") && e.contains("LLK_CACHE"), "{e}");
    assert!(!String::from_utf8_lossy(&o.stdout).contains("bytes)"));
}

/// Issue 21 item 9: `LLK_CACHE=""` wrote the tables into the current folder. An empty
/// variable means unset: the tables go to `$HOME/.cache/llk`.
#[test]
fn empty_llk_cache_means_unset() {
    let dir = scratch("pdb-empty-var");
    let (work, home) = (dir.join("work"), dir.join("home"));
    std::fs::create_dir_all(&work).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let o = Command::new(LLK)
        .args(["slide", "pdb", "--size", "3x3"])
        .current_dir(&work)
        .env("LLK_CACHE", "")
        .env("XDG_CACHE_HOME", "")
        .env("HOME", &home)
        .output()
        .unwrap();
    assert!(o.status.success(), "stderr: {}", stderr(&o));
    let in_work = std::fs::read_dir(&work).unwrap().count();
    assert_eq!(in_work, 0, "tables written into the current folder");
    let cached = std::fs::read_dir(home.join(".cache").join("llk"))
        .map(|d| d.count())
        .unwrap_or(0);
    assert!(cached > 0, "no tables under $HOME/.cache/llk");
}

/// Issue 21 item 2: printing to a full stdout panicked with exit 101 (`llk generate >
/// /dev/full`, and `plan`, `read`, `slide solve` the same). Every command that prints
/// goes through one checked output path: exit 1 and "writing to stdout: No space left on
/// device".
#[test]
fn full_stdout_is_an_error_not_a_panic() {
    let full = Path::new("/dev/full");
    if !full.exists() {
        eprintln!("skipped: no /dev/full on this system");
        return;
    }
    let dir = scratch("dev-full");
    let png = screenshot(&dir);
    let board = dir.join("board.txt");
    let board = s(&board);
    let maze = dir.join("maze.txt");
    std::fs::write(&maze, "S..\n.#.\n..G\n").unwrap();
    let ann = dir.join("ann.png");
    let runs: Vec<Vec<&str>> = vec![
        vec!["generate", "--rows", "4", "--cols", "4"],
        vec!["plan", board],
        vec!["plan", board, "--json"],
        vec!["pairs", board],
        vec!["read", s(&png)],
        vec!["annotate", s(&png), "-o", s(&ann)],
        vec!["slide", "solve", "--tiles", "1 0 2 3 4 5 6 7 8"],
        vec!["slide", "solve", "--tiles", "1 0 2 3 4 5 6 7 8", "--json"],
        vec!["slide", "gen", "--size", "3x3"],
        vec!["puzzle", "maze", s(&maze)],
    ];
    for args in runs {
        let out = std::fs::OpenOptions::new().write(true).open(full).unwrap();
        let o = Command::new(LLK).args(&args).stdout(out).output().unwrap();
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {e}");
        assert!(
            e.contains("writing to stdout: No space left on device"),
            "{args:?}: {e}"
        );
        assert!(!e.contains("panicked"), "{args:?}: {e}");
    }
}

/// Issue 21 item 11: `llk puzzle c4 --compare --depth 12` ran for hours with no output.
/// Rows are printed as each search ends, and `--max-secs` stops the table with an error
/// naming the search that did not finish.
#[test]
fn c4_compare_honours_a_time_budget() {
    let t = std::time::Instant::now();
    let o = llk(&[
        "puzzle",
        "c4",
        "--compare",
        "--depth",
        "12",
        "--max-secs",
        "2",
    ]);
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(o.status.code(), Some(1), "stderr: {}", stderr(&o));
    assert!(secs < 15.0, "took {secs:.1} s");
    let e = stderr(&o);
    assert!(
        e.contains("--max-secs 2") && e.contains("did not finish"),
        "{e}"
    );
    let table = String::from_utf8_lossy(&o.stdout);
    // The rows that finished were printed: at least depths 1-4 for all three searches.
    assert!(table.lines().count() > 12, "{table}");
    assert!(
        table
            .lines()
            .any(|l| l.trim_start().starts_with("4 negamax")),
        "{table}"
    );
}

/// The 15-puzzle the search-limit defects were found on (52 moves, blank-first).
const HARD15: &str = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";

/// Runs llk with its data segment (heap: brk and private mappings) capped at `cap` bytes
/// and returns its exit code and stderr. A run that tried to hold more than the cap fails
/// to allocate and aborts instead of exiting 1 with its own message. (Peak RSS from
/// `wait4` is no measure here: the child's count starts from the test process's own
/// pages, which the parallel tests fill.)
#[cfg(unix)]
fn llk_capped(args: &[&str], cap: u64) -> (Option<i32>, String) {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(LLK);
    cmd.args(args);
    // SAFETY: setrlimit is async-signal-safe and touches only the child being started.
    unsafe {
        cmd.pre_exec(move || {
            let lim = libc::rlimit {
                rlim_cur: cap as libc::rlim_t,
                rlim_max: cap as libc::rlim_t,
            };
            if libc::setrlimit(libc::RLIMIT_DATA, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let o = cmd.output().expect("run llk");
    (o.status.code(), stderr(&o))
}

/// Issue 21 item 3: bfs, bibfs and A* bounded nodes, not memory (7.6 GB at the default
/// 50M nodes), and reported 92M nodes against the 50M limit. `--max-memory` bounds the
/// nodes they keep, and the node limit is not overshot.
#[test]
fn slide_searches_stop_at_their_memory_and_node_limits() {
    for algo in [&["bfs"][..], &["bibfs"], &["astar", "--heuristic", "zero"]] {
        let mut args = vec!["slide", "solve", "--tiles", HARD15, "--algo"];
        args.extend(algo);
        args.extend(["--max-memory", "200M"]);
        #[cfg(unix)]
        {
            // The heap may not pass the limit by more than the program's own few MiB.
            let (code, e) = llk_capped(&args, 240 << 20);
            assert_eq!(code, Some(1), "{algo:?} (heap capped at 240 MiB): {e}");
            assert!(e.contains("memory limit (200 MiB, --max-memory)"), "{e}");
        }
        #[cfg(not(unix))]
        {
            let o = llk(&args);
            let e = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "{algo:?}: {e}");
            assert!(e.contains("memory limit (200 MiB, --max-memory)"), "{e}");
        }
    }
    let o = llk(&[
        "slide",
        "solve",
        "--tiles",
        HARD15,
        "--algo",
        "bfs",
        "--max-nodes",
        "100000",
    ]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(
        e.contains("gave up after 100000 nodes expanded (limit 100000"),
        "{e}"
    );
}

/// Issue 21 item 4: a run that is already IDA* was told "try --algo idastar" when it gave
/// up; it is offered what can still help.
#[test]
fn idastar_gave_up_message_offers_what_helps() {
    let o = llk(&[
        "slide",
        "solve",
        "--tiles",
        HARD15,
        "--heuristic",
        "manhattan",
        "--max-nodes",
        "1000",
    ]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(
        e.contains("Idastar gave up after 1000 nodes expanded"),
        "{e}"
    );
    assert!(!e.contains("--algo idastar"), "{e}");
    assert!(e.contains("--algo fast"), "{e}");
    // Without a node limit a time limit still ends it.
    let t = std::time::Instant::now();
    let o = llk(&[
        "slide",
        "solve",
        "--tiles",
        HARD15,
        "--heuristic",
        "zero",
        "--max-secs",
        "0.3",
    ]);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert!(e.contains("(limit, --max-secs)"), "{e}");
    assert!(t.elapsed().as_secs_f64() < 5.0);
}

/// Issue 21 item 4: the default optimal solve (IDA* with the 7-7-1 tables) gave up at 50M
/// nodes on two of the 17 80-move 15-puzzles (#3 and #4 of hard15_80.txt: 64.6M and 62.5M
/// nodes). With default limits it solves #3. Skipped when ../shared is absent (failed under
/// `CI=true`).
#[test]
fn default_optimal_solve_does_not_give_up_on_an_80_move_position() {
    use llk::slide::bench::parse_cases;
    use llk::slide::{solve, Algo, Heuristic, Limits};
    let Some(path) = common::shared("sliding/hard15_80.txt") else {
        return;
    };
    let text = std::fs::read_to_string(&path).expect("hard15_80.txt reads");
    let cases = parse_cases(&text).unwrap();
    let c = cases
        .iter()
        .find(|c| c.id == "3")
        .expect("hard15_80.txt has position 3");
    let s = solve(
        &c.puzzle,
        &c.goal,
        Algo::Idastar,
        Heuristic::Pdb,
        &Limits::default(),
    )
    .expect("the default optimal solve gave up");
    assert_eq!(s.moves.len(), 80);
    assert!(
        s.nodes > 50_000_000,
        "{} nodes: no longer past the old limit",
        s.nodes
    );
}

/// A copy of a committed recording to tamper with.
fn session_copy(name: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sessions/gravity-down-5x6");
    let dir = scratch(name).join("session");
    std::fs::create_dir_all(&dir).unwrap();
    for e in std::fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, dir.join(p.file_name().unwrap())).unwrap();
    }
    dir
}

fn log_lines(dir: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("session.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn write_log(dir: &Path, lines: &[serde_json::Value]) {
    let text: Vec<String> = lines.iter().map(|v| v.to_string()).collect();
    std::fs::write(dir.join("session.jsonl"), text.join("\n") + "\n").unwrap();
}

/// `llk replay` on `dir`: must fail, and `what` must appear in its output.
fn assert_replay_fails(dir: &Path, what: &str) {
    let o = llk(&["replay", "--quiet", s(dir)]);
    let all = String::from_utf8_lossy(&o.stdout).into_owned() + &stderr(&o);
    assert!(!o.status.success(), "replay passed:\n{all}");
    assert!(all.contains(what), "{what:?} missing from:\n{all}");
}

/// Issue 21 item 7: `llk replay` accepted incomplete or altered sessions. The untouched
/// recording replays; each alteration fails it.
#[test]
fn replay_catches_altered_and_incomplete_sessions() {
    let o = llk(&["replay", "--quiet", s(&session_copy("replay-ok"))]);
    assert!(o.status.success(), "{}", stderr(&o));

    // A refused animation frame replaced by a frame showing a board.
    let dir = session_copy("replay-blind");
    let lines = log_lines(&dir);
    let file_of = |frame: &serde_json::Value| {
        lines
            .iter()
            .find(|v| v["kind"] == "frame" && v["index"] == *frame)
            .unwrap()["file"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let blind = lines.iter().find(|v| v["kind"] == "blind").unwrap();
    let read = lines.iter().find(|v| v["kind"] == "read").unwrap();
    std::fs::copy(
        dir.join(file_of(&read["frame"])),
        dir.join(file_of(&blind["frame"])),
    )
    .unwrap();
    assert_replay_fails(&dir, "FAIL blind frame");

    // A frame deleted from the log with the refusal that looked at it.
    let dir = session_copy("replay-frame-line");
    let mut lines = log_lines(&dir);
    let gone = lines.iter().find(|v| v["kind"] == "blind").unwrap()["frame"].clone();
    lines.retain(|v| !((v["kind"] == "frame" && v["index"] == gone) || v["frame"] == gone));
    write_log(&dir, &lines);
    assert_replay_fails(&dir, "frame entries are missing");

    // A frame's PNG deleted: one that only refused frames show, which nothing used to load.
    let dir = session_copy("replay-frame-file");
    let lines = log_lines(&dir);
    let file = |frame: &serde_json::Value| {
        lines
            .iter()
            .find(|v| v["kind"] == "frame" && v["index"] == *frame)
            .map(|v| v["file"].as_str().unwrap().to_string())
    };
    let loaded: Vec<String> = lines
        .iter()
        .filter(|v| v["kind"] == "read" || (v["kind"] == "verify" && v["result"] == "predicted"))
        .filter_map(|v| file(&v["frame"]))
        .collect();
    let victim = lines
        .iter()
        .filter(|v| v["kind"] == "blind")
        .filter_map(|v| file(&v["frame"]))
        .find(|f| !loaded.contains(f))
        .expect("a PNG only refused frames show");
    std::fs::remove_file(dir.join(&victim)).unwrap();
    assert_replay_fails(&dir, &victim);

    // The log cut at a line boundary (half of it kept), and the end entry alone removed.
    for (name, keep) in [("replay-cut", 0.5), ("replay-no-end", 1.0)] {
        let dir = session_copy(name);
        let lines = log_lines(&dir);
        let n = ((lines.len() - 1) as f64 * keep) as usize;
        write_log(&dir, &lines[..n]);
        assert_replay_fails(&dir, "no end entry");
    }

    // A frame file pointing outside the session folder.
    let dir = session_copy("replay-outside");
    let mut lines = log_lines(&dir);
    let f = lines.iter_mut().find(|v| v["kind"] == "frame").unwrap();
    let name = f["file"].as_str().unwrap().to_string();
    std::fs::copy(dir.join(&name), dir.parent().unwrap().join(&name)).unwrap();
    f["file"] = serde_json::Value::String(format!("../{name}"));
    write_log(&dir, &lines);
    assert_replay_fails(&dir, "not a file in the session folder");
}

/// Issue 21 item 5: greedy, paper and the search's opening greedy pass ignored the budget
/// (a 256×256 board with `--max-ms 100`: greedy 7.9 s, search 8.4 s; paper on 200×200 ran
/// past 20 s). Every strategy stops near the budget with "gave-up".
#[test]
fn every_plan_strategy_honours_the_time_budget() {
    let dir = scratch("plan-budget");
    let g = llk(&[
        "generate", "--rows", "256", "--cols", "256", "--types", "64", "--copies", "1024",
        "--seed", "1",
    ]);
    assert!(g.status.success(), "{}", stderr(&g));
    let board = dir.join("b256.txt");
    std::fs::write(&board, &g.stdout).unwrap();
    for strategy in ["greedy", "paper", "search"] {
        let t = std::time::Instant::now();
        let o = llk(&[
            "plan",
            s(&board),
            "--strategy",
            strategy,
            "--max-ms",
            "100",
            "--json",
        ]);
        let wall = t.elapsed().as_secs_f64();
        // 5: gave up (issue 21 item 12).
        assert_eq!(o.status.code(), Some(5), "{strategy}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["outcome"], "gave-up", "{strategy}");
        // One paper move on this board takes ~0.13 s, the most a budget is overshot by on
        // an idle machine; on two cores shared with other builds it measured 0.40 s. The
        // bounds stay far below the 7.9–20 s of a strategy that ignores the budget, and
        // far above what load adds (a behaviour check, not a speed target).
        let micros = v["micros"].as_u64().unwrap();
        assert!(micros < 1_500_000, "{strategy}: {micros} µs reported");
        assert!(wall < 5.0, "{strategy}: took {wall:.2} s");
    }
}

/// Issue 21 item 5: boards had no size limit (a 1×1 000 000 board planned past 60 s). Past
/// 256 rows or columns a board is refused with a clear error.
#[test]
fn oversized_boards_are_refused_clearly() {
    let dir = scratch("plan-size");
    let board = dir.join("row.txt");
    std::fs::write(&board, "AB".repeat(150) + "\n").unwrap();
    for cmd in ["plan", "pairs"] {
        let o = llk(&[cmd, s(&board)]);
        assert_eq!(o.status.code(), Some(1), "{cmd}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("1x300: at most 256 rows and 256 columns"),
            "{}",
            stderr(&o)
        );
    }
    let o = llk(&["generate", "--rows", "2", "--cols", "300"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("at most 256 rows"), "{}", stderr(&o));
}
