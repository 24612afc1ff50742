//! Re-checking a recorded session offline: every reading, plan and verification is redone
//! on the saved frames and compared with what the bot decided live.
//!
//! A replay that passes means the recorded decisions follow from the pixels alone, so a
//! change to vision or planning that alters any decision shows up as a failing step.

use super::record::{board_of, read_session, Entry};
use super::stages::{Brain, Eyes};
use crate::board::Rules;
use crate::capture::load_png;
use anyhow::{bail, Result};
use std::collections::HashMap;
use std::path::Path;

/// The verdict on one recorded decision.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// The step, e.g. "read frame 3", "plan frame 3", "move 2 -> frame 9".
    pub step: String,
    pub ok: bool,
    pub detail: String,
}

/// Replays the session in `dir` with the given stages. Returns one check per recorded
/// reading, plan and verified move; fails only when the folder cannot be replayed at all.
pub fn replay_session(
    dir: &Path,
    eyes: &mut dyn Eyes,
    brain: &mut dyn Brain,
) -> Result<Vec<Check>> {
    let entries = read_session(dir)?;
    let rules: Rules = match entries.first() {
        Some(Entry::Start { rules, .. }) => *rules,
        _ => bail!(
            "{}: the session log does not begin with a start line",
            dir.display()
        ),
    };
    let mut files: HashMap<usize, String> = HashMap::new();
    let mut expect: HashMap<usize, Vec<String>> = HashMap::new();
    let mut checks = Vec::new();
    let load = |files: &HashMap<usize, String>, frame: usize| {
        let file = files
            .get(&frame)
            .ok_or_else(|| anyhow::anyhow!("frame {frame} is used before it is logged"))?;
        load_png(&dir.join(file))
    };
    for e in &entries {
        match e {
            Entry::Frame { index, file, .. } => {
                files.insert(*index, file.clone());
            }
            Entry::Read {
                frame,
                locked,
                grid,
                board,
                ..
            } => {
                let img = load(&files, *frame)?;
                let got = eyes.read(&img, if *locked { Some(grid) } else { None });
                let (ok, detail) = match got {
                    Ok(seen) if seen.board.row_strings() == *board => (true, "same board".into()),
                    Ok(seen) => (
                        false,
                        format!(
                            "recorded {} now reads {}",
                            board.join("/"),
                            seen.board.row_strings().join("/")
                        ),
                    ),
                    Err(b) => (false, format!("recorded a board, now {b}")),
                };
                checks.push(Check {
                    step: format!("read frame {frame}"),
                    ok,
                    detail,
                });
            }
            Entry::Plan {
                frame,
                board,
                moves,
                gravity,
                ..
            } => {
                let b = board_of(board)?;
                let rules = Rules {
                    gravity: gravity.unwrap_or(rules.gravity),
                    ..rules
                };
                let got = brain.plan(&b, &rules);
                let same = got.moves == *moves;
                checks.push(Check {
                    step: format!("plan frame {frame}"),
                    ok: same,
                    detail: if same {
                        format!("same {} moves", moves.len())
                    } else {
                        let i = moves
                            .iter()
                            .zip(&got.moves)
                            .position(|(x, y)| x != y)
                            .unwrap_or(moves.len().min(got.moves.len()));
                        let show = |l: Option<&crate::board::Link>| match l {
                            Some(l) => format!("{}-{} via {:?}", l.a, l.b, l.path),
                            None => "nothing".to_string(),
                        };
                        format!(
                            "recorded {} moves, now {}; first difference at move {i}: recorded {}, now {}",
                            moves.len(),
                            got.moves.len(),
                            show(moves.get(i)),
                            show(got.moves.get(i))
                        )
                    },
                });
            }
            Entry::Move { n, expect: e, .. } => {
                expect.insert(*n, e.clone());
            }
            Entry::Verify {
                n, frame, result, ..
            } if result == "predicted" => {
                let Some(rows) = expect.get(n) else {
                    bail!("move {n} is verified before it is logged");
                };
                let want = board_of(rows)?;
                let img = load(&files, *frame)?;
                // The grid a verification reads with is the locked one of the last reading.
                let grid = entries.iter().find_map(|e| match e {
                    Entry::Read { frame: f, grid, .. } if f == frame => Some(*grid),
                    _ => None,
                });
                let got = eyes.read(&img, grid.as_ref());
                let (ok, detail) = match got {
                    Ok(seen) if seen.board.same_up_to_renaming(&want) => {
                        (true, "next frame shows the expected board".to_string())
                    }
                    Ok(seen) => (
                        false,
                        format!(
                            "expected {} but the frame reads {}",
                            rows.join("/"),
                            seen.board.row_strings().join("/")
                        ),
                    ),
                    Err(b) => (false, format!("expected a board, got {b}")),
                };
                checks.push(Check {
                    step: format!("move {n} -> frame {frame}"),
                    ok,
                    detail,
                });
            }
            _ => {}
        }
    }
    if checks.is_empty() {
        bail!("{}: the session has no recorded decisions", dir.display());
    }
    Ok(checks)
}
