//! Re-checking a recorded session offline: every reading, plan and verification is redone
//! on the saved frames and compared with what the bot decided live.
//!
//! A replay that passes means the recorded decisions follow from the pixels alone, so a
//! change to vision or planning that alters any decision shows up as a failing step.

use super::play::emptied_as_predicted;
use super::record::{board_of, read_session, Entry, RecordError};
use super::stages::{Brain, Eyes};
use crate::board::{Board, Gravity, Link, Pos, Rules};
use crate::capture::ImageLoadError;
use crate::vision::{is_sure, ReadError, Reading};
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

/// Why a recorded session cannot be replayed at all (a decision that replays differently
/// is a failing [`Check`], not an error).
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The log could not be read, or holds a bad board.
    #[error(transparent)]
    Session(#[from] RecordError),
    /// A frame's file is not a plain name inside the session folder.
    #[error("{}: frame {index} names {file:?}, which is not a file in the session folder", dir.display())]
    FrameOutside {
        /// The session folder.
        dir: PathBuf,
        /// The frame's index.
        index: usize,
        /// The file the log names.
        file: String,
    },
    /// The log's first line is not its start entry.
    #[error("{}: the session log does not begin with a start line", dir.display())]
    NoStart {
        /// The session folder.
        dir: PathBuf,
    },
    /// An entry names a frame before the frame's own entry.
    #[error("frame {0} is used before it is logged")]
    FrameUnlogged(usize),
    /// A frame's file could not be loaded.
    #[error(transparent)]
    Image(#[from] ImageLoadError),
    /// A move is verified before the move's own entry.
    #[error("move {0} is verified before it is logged")]
    VerifiedUnlogged(usize),
    /// The log has no reading, plan or verification to check.
    #[error("{}: the session has no recorded decisions", dir.display())]
    NoDecisions {
        /// The session folder.
        dir: PathBuf,
    },
}

type Result<T> = std::result::Result<T, ReplayError>;

/// The verdict on one recorded decision.
#[derive(Clone, Debug, PartialEq)]
pub struct Check {
    /// The step, e.g. "read frame 3", "plan frame 3", "move 2 -> frame 9".
    pub step: String,
    /// Whether the decision replays the same.
    pub ok: bool,
    /// What was compared, or how the replay differs.
    pub detail: String,
}

/// Whether a logged frame file names a file directly inside the session folder: one plain
/// name, no folder, no `..`, not absolute.
fn inside_session(file: &str) -> bool {
    let mut parts = Path::new(file).components();
    matches!(
        (parts.next(), parts.next()),
        (Some(Component::Normal(_)), None)
    )
}

/// The checks on the session's shape: frames numbered 0, 1, 2, … with no gap (a deleted
/// frame line), every frame file present (a deleted PNG), and an `end` entry last (a log
/// cut short at a line boundary). A frame file outside the session folder is refused.
fn shape_checks(dir: &Path, entries: &[Entry]) -> Result<Vec<Check>> {
    let mut checks = Vec::new();
    let mut next = 0;
    for e in entries {
        let Entry::Frame { index, file, .. } = e else {
            continue;
        };
        if !inside_session(file) {
            return Err(ReplayError::FrameOutside {
                dir: dir.to_path_buf(),
                index: *index,
                file: file.clone(),
            });
        }
        if *index != next {
            checks.push(Check {
                step: format!("frame {index}"),
                ok: false,
                detail: format!(
                    "frame {index} follows frame {}: frame entries are missing",
                    next as i64 - 1
                ),
            });
        }
        next = index + 1;
        if !dir.join(file).is_file() {
            checks.push(Check {
                step: format!("frame {index}"),
                ok: false,
                detail: format!("its file {file} is missing"),
            });
        }
    }
    let ends = entries
        .iter()
        .filter(|e| matches!(e, Entry::End { .. }))
        .count();
    let last_is_end = matches!(entries.last(), Some(Entry::End { .. }));
    checks.push(Check {
        step: "end".to_string(),
        ok: last_is_end && ends == 1,
        detail: match (last_is_end, ends) {
            (true, 1) => "the log ends with its end entry".to_string(),
            (_, 0) => "the log has no end entry: it was cut short".to_string(),
            (false, _) => "entries follow the end entry".to_string(),
            (true, n) => format!("{n} end entries"),
        },
    });
    Ok(checks)
}

/// Replays the session in `dir` with the given stages. Returns one check per recorded
/// reading, refusal (`blind` frame), plan and verified move, and checks on the log's shape
/// (see `shape_checks`); fails only when the folder cannot be replayed at all.
pub fn replay_session(
    dir: &Path,
    eyes: &mut dyn Eyes,
    brain: &mut dyn Brain,
) -> Result<Vec<Check>> {
    let entries = read_session(dir)?;
    let rules: Rules = match entries.first() {
        Some(Entry::Start { rules, .. }) => *rules,
        _ => {
            return Err(ReplayError::NoStart {
                dir: dir.to_path_buf(),
            })
        }
    };
    let mut files: HashMap<usize, String> = HashMap::new();
    let mut expect: HashMap<usize, Vec<String>> = HashMap::new();
    let mut checks = shape_checks(dir, &entries)?;
    let shape = checks.len();
    // The grid of the latest reading: the locked grid a later blind frame was read with.
    let mut last_grid = None;
    // The board the next move is played on, and the gravity planned under: the last plan's
    // board, then each predicted board a move leaves. Per move: that board, its link and
    // the gravity.
    let mut planned: Option<(Board, Gravity)> = None;
    let mut moved: HashMap<usize, (Board, Link, Gravity)> = HashMap::new();
    let load = |files: &HashMap<usize, String>, frame: usize| {
        let file = files.get(&frame).ok_or(ReplayError::FrameUnlogged(frame))?;
        Ok::<_, ReplayError>(ImageLoadError::load(&dir.join(file))?)
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
                unsure,
                ..
            } => {
                last_grid = Some(*grid);
                let img = load(&files, *frame)?;
                let got = eyes.read(&img, if *locked { Some(grid) } else { None });
                let (ok, detail) = match got {
                    Ok(seen) if seen.board.row_strings() == *board => (true, "same board".into()),
                    Ok(seen) if same_but_unsure(&seen, board, unsure) => (
                        true,
                        "the same unsure cells, the same board around them".into(),
                    ),
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
                planned = Some((b.clone(), rules.gravity));
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
            Entry::Move {
                n, expect: e, link, ..
            } => {
                expect.insert(*n, e.clone());
                if let Some((b, g)) = &planned {
                    moved.entry(*n).or_insert((b.clone(), link.clone(), *g));
                }
            }
            Entry::Verify {
                n, frame, result, ..
            } if result == "predicted" => {
                let Some(rows) = expect.get(n) else {
                    return Err(ReplayError::VerifiedUnlogged(*n));
                };
                let want = board_of(rows)?;
                let img = load(&files, *frame)?;
                // The grid a verification reads with is the locked one of the last reading.
                let grid = entries.iter().find_map(|e| match e {
                    Entry::Read { frame: f, grid, .. } if f == frame => Some(*grid),
                    _ => None,
                });
                let got = eyes.read(&img, grid.as_ref());
                // The loop weighs a reading with doubts against the move's prediction
                // before it compares ([`emptied_as_predicted`]); so does the replay, on the
                // board the move was planned from. The loop waits for the game to settle
                // before it weighs doubts on the pair's own cells, a wait the log does not
                // time: the frame taken is one the loop settled on.
                let weighed = match (&got, moved.get(n)) {
                    (Ok(seen), Some((before, link, g))) => Some(emptied_as_predicted(
                        seen.clone(),
                        before,
                        link,
                        &[(*g, want.clone())],
                        true,
                    )),
                    _ => None,
                };
                if let Some((_, _, g)) = moved.get(n) {
                    planned = Some((want.clone(), *g));
                }
                let (ok, detail) = match got {
                    Ok(seen) if seen.board.same_up_to_renaming(&want) => {
                        (true, "next frame shows the expected board".to_string())
                    }
                    Ok(_) if weighed.is_some_and(|w| w.board.same_up_to_renaming(&want)) => (
                        true,
                        "next frame shows the expected board once its doubted cells are \
                         weighed against the prediction"
                            .to_string(),
                    ),
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
            Entry::Blind {
                frame,
                locked,
                animation,
                message,
                grid,
            } => {
                let img = load(&files, *frame)?;
                let grid = match (locked, grid) {
                    (false, _) => None,
                    (true, Some(g)) => Some(g),
                    (true, None) => last_grid.as_ref(),
                };
                let (ok, detail) = match eyes.read(&img, grid) {
                    Err(b) if matches!(b, ReadError::Animation(_)) == *animation => {
                        (true, format!("refused again: {b}"))
                    }
                    Err(b) => (false, format!("recorded {message:?}, now {b}")),
                    // On the locked grid a reader may read such a frame with its doubted
                    // cells unsure instead of refusing it: no more a reading to act on.
                    Ok(seen) if *locked && !is_sure(&seen) => (
                        true,
                        format!(
                            "read unsure again ({} doubted cells): {}",
                            seen.unsure.len(),
                            seen.board.row_strings().join("/")
                        ),
                    ),
                    Ok(seen) => (
                        false,
                        format!(
                            "recorded {message:?}, now reads {}",
                            seen.board.row_strings().join("/")
                        ),
                    ),
                };
                checks.push(Check {
                    step: format!("blind frame {frame}"),
                    ok,
                    detail,
                });
            }
            // What the live eyes were taught, taught again, so later readings see alike.
            Entry::Ground { frame, grid, board } => {
                let img = load(&files, *frame)?;
                eyes.ground_seen(&img, grid, &board_of(board)?);
            }
            Entry::Forget { .. } => {
                eyes.forget_ground();
            }
            _ => {}
        }
    }
    if checks.len() == shape {
        return Err(ReplayError::NoDecisions {
            dir: dir.to_path_buf(),
        });
    }
    Ok(checks)
}

/// Whether a new reading makes the same decision as a recorded unsure one: the bot never
/// acts on a reading with unsure cells, so what such a cell reads as (empty or obstacle)
/// changes nothing, as long as the same cells are unsure and every other cell is the same.
fn same_but_unsure(seen: &Reading, board: &[String], unsure: &[Pos]) -> bool {
    let mut got = seen.unsure.clone();
    let mut want = unsure.to_vec();
    got.sort();
    want.sort();
    let rows = seen.board.row_strings();
    !want.is_empty()
        && got == want
        && rows.len() == board.len()
        && rows.iter().zip(board).enumerate().all(|(r, (a, b))| {
            a.len() == b.len()
                && a.chars()
                    .zip(b.chars())
                    .enumerate()
                    .all(|(c, (x, y))| x == y || want.contains(&Pos::new(r, c)))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Grid;

    fn seen(rows: &str, unsure: &[Pos]) -> Reading {
        Reading {
            grid: Grid {
                origin: (0.0, 0.0),
                pitch: (10.0, 10.0),
                rows: 2,
                cols: 3,
            },
            board: Board::parse(rows).unwrap(),
            unsure: unsure.to_vec(),
            selected: Vec::new(),
        }
    }

    /// Eyes that read a 2x3 board on the grid with pitch 10 and refuse every other grid.
    struct OnOneGrid;

    impl Eyes for OnOneGrid {
        fn read(
            &mut self,
            _: &image::RgbaImage,
            grid: Option<&Grid>,
        ) -> std::result::Result<Reading, ReadError> {
            match grid {
                Some(g) if g.pitch.0 == 10.0 => Ok(seen("A.B\nAB.", &[])),
                _ => Err(ReadError::NoBoard("not here".into())),
            }
        }
    }

    #[test]
    fn a_refusal_replays_on_the_grid_it_was_given() {
        use super::super::record::{test_session, test_start};
        use super::super::stages::FirstPair;
        use crate::capture::Frame;
        let (dir, mut rec) = test_session("replay-blind");
        rec.entry(&test_start(Rules::default())).unwrap();
        let frame = Frame {
            image: image::RgbaImage::new(40, 30),
            origin: (0, 0),
        };
        let i = rec.frame(&frame, 0).unwrap();
        let locked = seen("A.B\nAB.", &[]).grid;
        let beside = Grid {
            pitch: (12.0, 10.0),
            ..locked
        };
        rec.entry(&Entry::Read {
            frame: i,
            locked: true,
            grid: locked,
            board: vec!["A.B".into(), "AB.".into()],
            unsure: Vec::new(),
            micros: 0,
        })
        .unwrap();
        // A trial grid beside the locked one, refused: replayed on that grid, not the
        // latest reading's.
        rec.entry(&Entry::Blind {
            frame: i,
            locked: true,
            animation: false,
            message: "no board: not here".into(),
            grid: Some(beside),
        })
        .unwrap();
        rec.finish().unwrap();
        let checks = replay_session(&dir, &mut OnOneGrid, &mut FirstPair).unwrap();
        let blind = checks.iter().find(|c| c.step.starts_with("blind")).unwrap();
        assert!(blind.ok, "{blind:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Eyes over a 3x1 column: a black frame shows the deal `A/B/B`; any other frame the
    /// board after the Bs go under gravity down, with a doubted stone where the A fell from.
    struct FellFrom;

    impl Eyes for FellFrom {
        fn read(
            &mut self,
            frame: &image::RgbaImage,
            _: Option<&Grid>,
        ) -> std::result::Result<Reading, ReadError> {
            let g = Grid {
                origin: (0.0, 0.0),
                pitch: (10.0, 10.0),
                rows: 3,
                cols: 1,
            };
            let (rows, unsure) = match frame.get_pixel(0, 0).0 {
                [0, 0, 0, _] => ("A\nB\nB", vec![]),
                _ => ("#\n.\nA", vec![Pos::new(0, 0)]),
            };
            Ok(Reading {
                grid: g,
                board: Board::parse(rows).unwrap(),
                unsure,
                selected: Vec::new(),
            })
        }
    }

    #[test]
    fn a_verified_move_replays_with_the_doubts_weighed_as_the_loop_weighs_them() {
        use super::super::record::{test_session, test_start};
        use super::super::stages::{Brain, FirstPair};
        use crate::capture::Frame;
        let rules = Rules {
            gravity: Gravity::Down,
            ..Rules::default()
        };
        let deal = Board::parse("A\nB\nB").unwrap();
        let plan = FirstPair.plan(&deal, &rules);
        let (dir, mut rec) = test_session("replay-weigh");
        rec.entry(&test_start(rules)).unwrap();
        let shot = |v: u8| Frame {
            image: image::RgbaImage::from_pixel(10, 30, image::Rgba([v, v, v, 255])),
            origin: (0, 0),
        };
        let first = rec.frame(&shot(0), 0).unwrap();
        rec.entry(&Entry::Plan {
            frame: first,
            board: deal.row_strings(),
            outcome: plan.outcome.to_string(),
            moves: plan.moves.clone(),
            micros: 0,
            gravity: Some(Gravity::Down),
        })
        .unwrap();
        rec.entry(&Entry::Move {
            n: 1,
            attempt: 0,
            link: plan.moves[0].clone(),
            expect: vec![".".into(), ".".into(), "A".into()],
            clicks: Vec::new(),
        })
        .unwrap();
        let after = rec.frame(&shot(255), 10).unwrap();
        rec.entry(&Entry::Verify {
            n: 1,
            frame: after,
            result: "predicted".into(),
            polls: 1,
            micros: 0,
        })
        .unwrap();
        rec.finish().unwrap();
        let checks = replay_session(&dir, &mut FellFrom, &mut FirstPair).unwrap();
        let verified = checks.iter().find(|c| c.step.starts_with("move")).unwrap();
        assert!(verified.ok, "{verified:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn an_unsure_reading_replays_whatever_its_unsure_cells_read_as() {
        let rec: Vec<String> = vec!["A.B".into(), "AB.".into()];
        let u = [Pos::new(0, 1)];
        // The unsure cell now reads as an obstacle: the same decision (no click).
        assert!(same_but_unsure(&seen("A#B\nAB.", &u), &rec, &u));
        // Another cell differs, or other cells are unsure, or none were: not the same.
        assert!(!same_but_unsure(&seen("A#B\nA..", &u), &rec, &u));
        assert!(!same_but_unsure(
            &seen("A#B\nAB.", &[Pos::new(1, 2)]),
            &rec,
            &u
        ));
        assert!(!same_but_unsure(&seen("A#B\nAB.", &[]), &rec, &[]));
    }
}
