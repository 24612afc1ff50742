//! Game profiles from the command line: `llk profiles` lists and forgets what `llk play`
//! saved, and `llk read`/`llk annotate --profile NAME` read on a saved grid. Each test runs
//! llk with its own XDG_CONFIG_HOME.

use llk::agent::profile::{Profile, ProfileStore};
use llk::board::Board;
use llk::geometry::Grid;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const FRAME: &str = "fixtures/kshisen/s0-default-default-full";

/// A config folder unique to this test process and name.
fn config(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("llk-profiles-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn llk(config: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_llk"))
        .args(args)
        .env("XDG_CONFIG_HOME", config)
        .output()
        .expect("run llk")
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// The frame's truth: its grid and board.
fn truth() -> (Grid, Board) {
    let t: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{FRAME}.truth.json")).unwrap())
            .unwrap();
    let f = |v: &serde_json::Value| v.as_f64().unwrap() as f32;
    let grid = Grid {
        origin: (f(&t["origin"][0]), f(&t["origin"][1])),
        pitch: (f(&t["pitch"][0]), f(&t["pitch"][1])),
        rows: t["rows"].as_u64().unwrap() as usize,
        cols: t["cols"].as_u64().unwrap() as usize,
    };
    let rows: Vec<String> = t["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect();
    (grid, Board::from_rows(&rows).unwrap())
}

/// Saves a KShisen profile with the frame's true grid, as `llk play` would.
fn save_kshisen(config: &Path) {
    let (grid, _) = truth();
    let store = ProfileStore::at(config.join("llk").join("profiles"));
    store
        .save(&Profile {
            app: "kshisen".into(),
            grid,
            window: (900, 754),
            reader: "general".into(),
            outside: true,
            gravity: None,
        })
        .unwrap();
}

#[test]
fn profiles_are_listed_and_forgotten() {
    let cfg = config("list");
    let (out, _) = text(&llk(&cfg, &["profiles"]));
    assert!(out.contains("no profiles in"), "{out}");
    save_kshisen(&cfg);
    let o = llk(&cfg, &["profiles"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        out.contains("kshisen: 6x14 board") && out.contains("reader general"),
        "{out}"
    );
    let o = llk(&cfg, &["profiles", "--forget", "KShisen"]);
    assert!(
        o.status.success() && text(&o).0.contains("forgot"),
        "{:?}",
        text(&o)
    );
    let o = llk(&cfg, &["profiles", "--forget", "kshisen"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).1.contains("no profile for \"kshisen\""),
        "{:?}",
        text(&o)
    );
    std::fs::remove_dir_all(&cfg).unwrap();
}

#[test]
fn read_and_annotate_take_a_profile_grid() {
    let cfg = config("read");
    save_kshisen(&cfg);
    let png = format!("{FRAME}.png");
    let o = llk(&cfg, &["read", &png, "--profile", "kshisen"]);
    let (out, err) = text(&o);
    assert!(o.status.success(), "{err}");
    let read: Board = out.parse().unwrap();
    assert!(read.same_up_to_renaming(&truth().1), "{out}");
    let ann = cfg.join("ann.png");
    let o = llk(
        &cfg,
        &[
            "annotate",
            &png,
            "--profile",
            "kshisen",
            "-o",
            ann.to_str().unwrap(),
        ],
    );
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(
        text(&o).0.contains("6x14 board, 84 tiles"),
        "{:?}",
        text(&o)
    );
    std::fs::remove_dir_all(&cfg).unwrap();
}

#[test]
fn a_profile_grid_is_refused_on_another_window_size_or_a_missing_profile() {
    let cfg = config("refuse");
    save_kshisen(&cfg);
    // KShisen's high-score window: another size than the game window the grid was
    // learnt on.
    let other = "fixtures/kshisen/s0-default-default-won-hiscores-window.png";
    let o = llk(&cfg, &["read", other, "--profile", "kshisen"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).1.contains("learnt on a 900x754 window"),
        "{:?}",
        text(&o)
    );
    let o = llk(
        &cfg,
        &["read", &format!("{FRAME}.png"), "--profile", "nosuch"],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        text(&o).1.contains("no profile for \"nosuch\""),
        "{:?}",
        text(&o)
    );
    // The grid comes from the profile: size hints cannot be given with it.
    let o = llk(
        &cfg,
        &[
            "read",
            &format!("{FRAME}.png"),
            "--profile",
            "kshisen",
            "--rows",
            "6",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    std::fs::remove_dir_all(&cfg).unwrap();
}
