//! The committed recordings of the bundled game (fixtures/sessions/*) replay offline: every
//! reading, plan and verification the bot made live is reproduced from the saved frames by
//! today's vision and planner. A tampered recording must be caught.

use llk::agent::pipeline::{Planner, Vision};
use llk::agent::{read_session, replay_session, Brain, Entry, FirstPair};
use llk::vision::ReaderChoice;
use std::path::{Path, PathBuf};

fn sessions() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sessions");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("session.jsonl").exists())
        .collect();
    dirs.sort();
    dirs
}

/// The planner and the eyes a session was played with (its start entry; a session without
/// a reader name was played with the legacy reader).
fn stages_for(dir: &Path) -> (Box<dyn Brain>, Vision) {
    let (name, reader) = read_session(dir)
        .unwrap()
        .iter()
        .find_map(|e| match e {
            Entry::Start { brain, reader, .. } => Some((brain.clone(), reader.clone())),
            _ => None,
        })
        .expect("a start line");
    let brain: Box<dyn Brain> = if name == FirstPair.name() {
        Box::new(FirstPair)
    } else {
        Box::new(Planner::from_name(&name).unwrap())
    };
    let eyes = Vision {
        reader: reader.map_or(ReaderChoice::Legacy, |r| r.parse().unwrap()),
        ..Vision::default()
    };
    (brain, eyes)
}

/// Steps of a recording that today's vision reads otherwise, by name: a new difference and
/// a silent return both show. The KShisen sessions' last frames show the last pair under
/// its removal's link line: recorded as the cleared board (with nothing else to pair, every
/// picture was taken for ground), they are now refused as an animation, and the last move's
/// check fails on the last of them. (`kshisen-14x6-gravity-down` frames 320..=327, a line across row 1
/// recorded as a board with two unsure cells on the locked grid, were refused for a while
/// and read as recorded again once the ground's colour test counted only the blocks away
/// from neighbouring tiles' sides.)
fn known_differences(session: &str) -> Vec<String> {
    // The frames of the last pair's line, and move 41 (the last) checked on the last one.
    let last_line = |frames: std::ops::RangeInclusive<usize>| {
        let last = *frames.end();
        frames
            .map(|f| format!("read frame {f}"))
            .chain([format!("move 41 -> frame {last}")])
            .collect()
    };
    match session {
        "kshisen-14x6-gravity-down" => last_line(557..=561),
        "kshisen-14x6-gravity-none" => last_line(483..=490),
        _ => Vec::new(),
    }
}

#[test]
fn recorded_sessions_replay_exactly() {
    let dirs = sessions();
    assert!(
        dirs.len() >= 3,
        "expected at least 3 recorded sessions, found {}",
        dirs.len()
    );
    for dir in dirs {
        let (mut brain, mut eyes) = stages_for(&dir);
        let checks = replay_session(&dir, &mut eyes, brain.as_mut()).unwrap();
        // Refused (blind) frames have their own floor below.
        let bad: Vec<_> = checks
            .iter()
            .filter(|c| !c.ok && !c.step.starts_with("blind"))
            .collect();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        let known = known_differences(&name);
        let steps: Vec<String> = bad.iter().map(|c| c.step.clone()).collect();
        assert_eq!(steps, known, "{}: {bad:#?}", dir.display());
        // A known difference is only ever a refusal where the recording read a board.
        for c in &bad {
            assert!(
                c.detail.starts_with("recorded a board, now animation")
                    || c.detail.starts_with("expected a board, got animation"),
                "{name}: {c:#?}"
            );
        }
        let moves = checks.iter().filter(|c| c.step.starts_with("move")).count();
        assert!(moves >= 5, "{}: only {moves} verified moves", dir.display());
        let entries = read_session(&dir).unwrap();
        assert!(
            entries
                .iter()
                .any(|e| matches!(e, Entry::End { reason, .. } if reason == "cleared")),
            "{}: the recording does not end with a cleared board",
            dir.display()
        );
    }
}

/// Frames the bot refused live (a link line being drawn) must still be refused, or on the
/// locked grid read with doubts (no reading to act on either: `replay` counts it so). Today's
/// reader (`read_cells` on the locked grid) reads some of them as boards — the line taken
/// for obstacles or empties, e.g. "####A." under a line along row 0 — where the reader the
/// sessions were recorded with (2026-11-23) saw the animation: 16 of 249 refused frames in
/// gravity-none-5x6, 16 of 236 in reshuffle-moving-left-5x6 and 135 of 1227 in
/// slow-center-v-6x6, none of 227 in gravity-down-5x6. These counts are a floor to bring to
/// zero in vision; the test fails if more frames slip.
#[test]
fn recorded_animation_frames_are_still_refused() {
    let floor = |name: &str| match name {
        "gravity-none-5x6" => 16,
        "reshuffle-moving-left-5x6" => 16,
        "slow-center-v-6x6" => 135,
        _ => 0,
    };
    for dir in sessions() {
        let (mut brain, mut eyes) = stages_for(&dir);
        let checks = replay_session(&dir, &mut eyes, brain.as_mut()).unwrap();
        let blind: Vec<_> = checks
            .iter()
            .filter(|c| c.step.starts_with("blind"))
            .collect();
        // The bundled game's link animation is refused by the reader it was recorded with;
        // KShisen's sessions (stage reader) may refuse none.
        let kshisen = dir
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("kshisen");
        assert!(
            kshisen || !blind.is_empty(),
            "{}: no refused frame checked",
            dir.display()
        );
        let bad = blind.iter().filter(|c| !c.ok).count();
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            bad <= floor(&name),
            "{name}: {bad} refused frames now read as boards (floor {})",
            floor(&name)
        );
    }
}

#[test]
fn a_tampered_recording_fails_replay() {
    let src = sessions().into_iter().next().expect("a recorded session");
    let tmp = std::env::temp_dir().join(format!("llk-replay-tamper-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).unwrap();
    for e in std::fs::read_dir(&src).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, tmp.join(p.file_name().unwrap())).unwrap();
    }
    // Change the first planned move: swap its plan for a different legal-looking order.
    let log = std::fs::read_to_string(tmp.join("session.jsonl")).unwrap();
    let mut out = Vec::new();
    let mut done = false;
    for line in log.lines() {
        let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
        if !done && v["kind"] == "plan" && v["moves"].as_array().is_some_and(|m| m.len() >= 2) {
            v["moves"].as_array_mut().unwrap().swap(0, 1);
            done = true;
        }
        out.push(v.to_string());
    }
    assert!(done, "no plan with two moves to tamper with");
    std::fs::write(tmp.join("session.jsonl"), out.join("\n")).unwrap();
    let (mut brain, mut eyes) = stages_for(&tmp);
    let checks = replay_session(&tmp, &mut eyes, brain.as_mut()).unwrap();
    assert!(checks.iter().any(|c| !c.ok && c.step.starts_with("plan")));
    // The command line says so and exits non-zero.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_llk"))
        .args(["replay", "--quiet"])
        .arg(&tmp)
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("FAIL plan"));
    let _ = std::fs::remove_dir_all(&tmp);
}
