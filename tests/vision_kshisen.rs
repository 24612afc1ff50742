//! KShisen (KDE's Shisen-Sho) frames read by the stage reader: `fixtures/kshisen/*.png` with
//! truth made from the pixels independently of the reader (scripts/kshisen_truth.py: the
//! lattice by brute force, types by exact sprite equality) and checked by eye.
//!
//! A `board` frame must read with its rows and columns, origin within 3 px, pitch within
//! 0.5 px, occupancy exact, types equal up to renaming and no tile as an obstacle; the
//! selected tile must be reported as selected. An `animation` frame (a link line drawn) must
//! be refused as `animation` or read exactly as the board before the removal; a `board` frame
//! must also read exactly on the grid found for it and on the grid a live game locked, where
//! the truth gives one (`locked_grid`): the live bot's path. A `no-board` frame must be
//! refused, and on the grid a live game locked (where the truth gives one) read as nothing
//! to click by the stage reader and the default one: refused, or unsure. `LLK_KSHISEN_DIR=DIR`
//! runs the same check on another folder (the full capture matrix) and prints the table
//! without failing.
//!
//! `fixtures/xshisen/` holds frames of a second Shisen-Sho, xshisen (Debian `xshisen`,
//! pixel-art tiles on a plain ground of any colour, a selected tile stippled), checked the
//! same way; their truth comes from the game's own sprites (scripts/xshisen_truth.py).

use llk::board::{Board, Cell, Pos};
use llk::geometry::Grid;
use llk::vision::reader::{read_board, read_grid};
use llk::vision::{is_sure, load_image, read_cells_with, Hints, ReaderChoice, ReaderConfig};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn truth_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".truth.json"))
        .collect();
    files.sort();
    files
}

fn board_of(v: &Value) -> Board {
    let rows: Vec<&str> = v["cells"]
        .as_array()
        .expect("cells")
        .iter()
        .map(|r| r.as_str().expect("row"))
        .collect();
    Board::parse(&rows.join("\n")).expect("truth board")
}

/// The grid a live game locked, from the truth's `locked_grid` (origin and pitch), with
/// `rows` × `cols` cells.
fn locked_grid(g: &Value, rows: usize, cols: usize) -> Grid {
    let f = |k: &str, i: usize| g[k][i].as_f64().expect("locked_grid") as f32;
    Grid {
        origin: (f("origin", 0), f("origin", 1)),
        pitch: (f("pitch", 0), f("pitch", 1)),
        rows,
        cols,
    }
}

/// Checks one frame; `Ok(note)` when it passes.
fn check(truth_path: &Path) -> Result<String, String> {
    let v: Value = serde_json::from_str(&std::fs::read_to_string(truth_path).unwrap()).unwrap();
    let png = truth_path.to_string_lossy().replace(".truth.json", ".png");
    let img = load_image(Path::new(&png)).map_err(|e| format!("{e:#}"))?;
    let kind = v["kind"].as_str().unwrap_or("");
    let got = read_board(&img, &Hints::default(), &ReaderConfig::default());
    if kind == "no-board" {
        let refused = match got {
            Err(e) if e.kind() == "no-board" => format!("refused: {e}"),
            Err(e) => return Err(format!("refused as {} (want no-board): {e}", e.kind())),
            Ok(r) => return Err(format!("read a {}x{} board", r.grid.rows, r.grid.cols)),
        };
        // On the grid a live game had locked (`locked_grid`, rows and columns given), the
        // frame must give nothing to click: a refusal or an unsure reading.
        if let Some(g) = v.get("locked_grid") {
            let n = |k: &str| g[k].as_u64().expect("locked_grid rows, cols") as usize;
            let grid = locked_grid(g, n("rows"), n("cols"));
            for (name, choice) in [
                ("stage", ReaderChoice::General),
                ("auto", ReaderChoice::Auto),
            ] {
                if let Ok(r) = read_cells_with(choice, &img, &grid) {
                    if is_sure(&r) {
                        return Err(format!(
                            "the {name} reader read a sure board on the locked grid:\n{}",
                            r.board
                        ));
                    }
                }
            }
        }
        return Ok(refused);
    }
    let r = match got {
        Err(e) if kind == "animation" && e.kind() == "animation" => {
            return Ok(format!("refused: {e}"))
        }
        Err(e) => return Err(format!("{e} [{}]", e.kind())),
        Ok(r) => r,
    };
    let want = board_of(&v);
    let (rows, cols) = (want.rows(), want.cols());
    if (r.grid.rows, r.grid.cols) != (rows, cols) {
        return Err(format!(
            "read {}x{} (want {rows}x{cols})\n{}",
            r.grid.rows, r.grid.cols, r.board
        ));
    }
    let o = &v["origin"];
    let p = &v["pitch"];
    let (ox, oy) = (o[0].as_f64().unwrap() as f32, o[1].as_f64().unwrap() as f32);
    let (px, py) = (p[0].as_f64().unwrap() as f32, p[1].as_f64().unwrap() as f32);
    // The truth's origin is the face's corner; a cell may also take in the tile's 3-D side,
    // so the reader's cell may start up to a tenth of a pitch earlier.
    let dx = (r.grid.origin.0 - ox)
        .abs()
        .max((r.grid.origin.1 - oy).abs());
    if dx > 3.0 + 0.1 * px.max(py)
        || (r.grid.pitch.0 - px).abs() > 0.5
        || (r.grid.pitch.1 - py).abs() > 0.5
    {
        return Err(format!(
            "grid at {:?} pitch {:?} (want {:?} {:?})",
            r.grid.origin,
            r.grid.pitch,
            (ox, oy),
            (px, py)
        ));
    }
    if r.board.cells().contains(&Cell::Obstacle) {
        return Err(format!("obstacles read:\n{}", r.board));
    }
    match want.renaming_mismatches(&r.board) {
        Some(m) if m.is_empty() => {}
        m => return Err(format!("cells differ at {m:?}\n{}\n--\n{want}", r.board)),
    }
    if kind == "board" {
        let mut got_sel = r.selected.clone();
        got_sel.sort();
        let want_sel = truth_selected(&v);
        if got_sel != want_sel {
            return Err(format!("selected {got_sel:?} (want {want_sel:?})"));
        }
    }
    // The live bot reads later frames on the grid it locked: that path must agree, on the
    // grid found for this frame and on the one a live game locked (`locked_grid`, where the
    // truth records it).
    let mut grids = vec![r.grid];
    if let Some(g) = v.get("locked_grid") {
        grids.push(locked_grid(g, rows, cols));
    }
    for grid in grids.iter().filter(|_| kind == "board") {
        let locked = read_grid(&img, grid, &ReaderConfig::default())
            .map_err(|e| format!("on the grid {grid:?}: {e} [{}]", e.kind()))?;
        match want.renaming_mismatches(&locked.board) {
            Some(m) if m.is_empty() => {}
            m => {
                return Err(format!(
                    "on the grid {grid:?}, cells differ at {m:?}\n{}\n--\n{want}",
                    locked.board
                ))
            }
        }
    }
    Ok(format!("{}x{} exact", rows, cols))
}

/// A truth file's frame name (its file name without `.truth.json`).
fn truth_name(f: &Path) -> String {
    f.file_name()
        .unwrap()
        .to_string_lossy()
        .replace(".truth.json", "")
}

/// Whether `got` is the `want` board: same size, cells equal up to a renaming of types.
fn same_board(want: &Board, got: &Board) -> bool {
    (want.rows(), want.cols()) == (got.rows(), got.cols())
        && want.renaming_mismatches(got).is_some_and(|m| m.is_empty())
}

fn run(dir: &Path) -> Vec<String> {
    let mut failed = Vec::new();
    for f in truth_files(dir) {
        let name = truth_name(&f);
        match check(&f) {
            Ok(note) => println!("{name:45} ok: {note}"),
            Err(e) => {
                println!("{name:45} FAIL: {e}");
                failed.push(name);
            }
        }
    }
    failed
}

#[test]
fn kshisen_frames_read_exactly() {
    if let Some(dir) = std::env::var_os("LLK_KSHISEN_DIR") {
        let failed = run(Path::new(&dir));
        println!("{} failed: {failed:?}", failed.len());
        return;
    }
    // Known failures, by name: a new failure and a silent fix both show here.
    // Frames the stage reader does not read yet (what each shows is in docs/vision.md): a
    // jade tile's selection not reported (the board reads exactly); cells emptied on a
    // photo ground that read exactly on the grid found and, unsure, as lone pictures on
    // that grid given; two boards whose margin is narrower than a pitch on three sides,
    // which read exactly on the grid found (the ring's cells partly past the window are
    // described there) and, on that grid given, whose ring keeps whole cells only (the
    // window's toolbar), with emptied cells as lone pictures or stones, unsure.
    assert_known_failures(
        "fixtures/kshisen",
        &[
            "s0-classic-egyptian-w1300-mid07",
            "s0-default-wood_light-w1200-mid12",
            "s0-jade-wood_light-mid06sel",
            "s3-traditional-summerfield-w1024-mid06",
        ],
        "KShisen frames that do not read exactly",
    );
}

/// Runs [`check`] over the fixture folder `dir` (relative to the crate) and asserts the
/// frames that fail are exactly `known`, by name.
fn assert_known_failures(dir: &str, known: &[&str], what: &str) {
    let failed = run(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir));
    assert_eq!(failed, known, "{what}");
}

/// xshisen's frames (a game the reader was never tuned on: counted at first sight before
/// any change, see docs/vision.md) by the stage reader.
#[test]
fn xshisen_frames_read_exactly() {
    // The frames with a tile stippled (selected) read exactly, and a board's corner tile
    // (its frame shows ground on two sides) is not taken for selected. Known failures: late
    // frames of a live game with gravity (a few dozen tiles, most rows empty) on which the
    // stage reader finds no lattice or a wrong one; on the grid the game locked they read
    // (live_frames_read_on_the_grid_the_game_locked).
    assert_known_failures(
        "fixtures/xshisen",
        &[
            "x0-p1-g004000-grav-live-anim",
            "x0-p1-g004000-grav-live-end4sel",
            "x0-p1-g004000-grav-live-sel1",
        ],
        "xshisen frames that do not read exactly",
    );
}

/// Frames of a tkinter Shisen-Sho from PyPI (`shisensho`: tiles drawn edge to edge, their
/// symbols running to the tiles' edges, over a photo that covers part of the board) by the
/// stage reader: full deals whose bamboo symbols the legacy chain took for obstacles or
/// ground, sure (the default reader's check is below), and mid-game boards whose emptied
/// cells show patches of the photo (two or more, with no twin, frame, shape or face:
/// ground). Known failures: those mid-game boards read exactly on the grid found but not
/// on that grid given, where the patches stay lone pictures, unsure (the live bot grounds
/// them by the cells it saw emptied); and a mid-game board whose first column holds a
/// single tile, on a lattice whose extent leaves that column out (a cell unsure).
#[test]
fn shisensho_frames_read_exactly() {
    assert_known_failures(
        "fixtures/shisensho",
        &[
            "shs-a-10x4-s11-mid05",
            "shs-a-10x4-s12-mid07",
            "shs-b-14x6-s23-mid05",
            "shs-d-14x6-s91-mid24",
        ],
        "shisensho frames that do not read exactly",
    );
}

/// The default reader on fixtures/shisensho, from scratch (no grid given): the frames it
/// does not read exactly or reads unsure, by name (the one in
/// shisensho_frames_read_exactly whose extent leaves a column out).
#[test]
fn shisensho_frames_read_exactly_from_scratch() {
    use llk::vision::{read_with, ReaderChoice};
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut missed = Vec::new();
    for f in truth_files(&root.join("fixtures/shisensho")) {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let png = f.to_string_lossy().replace(".truth.json", ".png");
        let img = load_image(Path::new(&png)).unwrap();
        let want = board_of(&v);
        let exact = read_with(ReaderChoice::Auto, &img, &Hints::default())
            .is_ok_and(|r| r.unsure.is_empty() && same_board(&want, &r.board));
        if !exact {
            missed.push(truth_name(&f));
        }
    }
    assert_eq!(
        missed,
        ["shs-d-14x6-s91-mid24"],
        "shisensho frames the default reader does not read exactly"
    );
}

/// The selected cells a truth names, sorted.
fn truth_selected(v: &Value) -> Vec<Pos> {
    let mut sel: Vec<Pos> = v["selected"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|p| {
                    Pos::new(
                        p[0].as_u64().unwrap() as usize,
                        p[1].as_u64().unwrap() as usize,
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    sel.sort();
    sel
}

/// Frames a live game captured (`locked_grid` in the truth) read by the stage reader on
/// the grid the game locked, as the live bot reads every frame after its first: a `board`
/// frame exactly, its selection reported; an `animation` frame (a removal's link line
/// drawn) refused, unsure, or exactly the board before the removal, never a sure board
/// with the pair gone while the line still shows.
fn live_failures(dir: &str) -> Vec<String> {
    let mut failed = Vec::new();
    for f in truth_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join(dir)) {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let kind = v["kind"].as_str().unwrap_or("");
        let Some(g) = v.get("locked_grid") else {
            continue;
        };
        if kind != "board" && kind != "animation" {
            continue;
        }
        let name = truth_name(&f);
        let png = f.to_string_lossy().replace(".truth.json", ".png");
        let img = load_image(Path::new(&png)).unwrap();
        let want = board_of(&v);
        let grid = locked_grid(g, want.rows(), want.cols());
        let verdict = match read_grid(&img, &grid, &ReaderConfig::default()) {
            Err(e) if kind == "animation" => Ok(format!("refused: {e}")),
            Err(e) => Err(format!("{e} [{}]", e.kind())),
            Ok(r) if kind == "animation" && !is_sure(&r) => Ok("unsure".to_string()),
            Ok(r) => {
                let mut sel = r.selected.clone();
                sel.sort();
                match want.renaming_mismatches(&r.board) {
                    Some(m) if m.is_empty() && (kind != "board" || sel == truth_selected(&v)) => {
                        Ok("exact".to_string())
                    }
                    Some(m) if m.is_empty() => Err(format!("selected {sel:?}")),
                    m => Err(format!("cells differ at {m:?}\n{}", r.board)),
                }
            }
        };
        match verdict {
            Ok(note) => println!("{name:45} ok on the locked grid: {note}"),
            Err(e) => {
                println!("{name:45} FAIL on the locked grid: {e}");
                failed.push(name);
            }
        }
    }
    failed
}

#[test]
fn live_frames_read_on_the_grid_the_game_locked() {
    let mut failed = live_failures("fixtures/kshisen");
    failed.extend(live_failures("fixtures/xshisen"));
    assert_eq!(
        failed,
        Vec::<String>::new(),
        "live frames that do not read on the locked grid"
    );
}

/// The default reader (`auto`: the legacy reader's reading when it is sure, else the stage
/// reader's) on fixtures/kshisen, /xshisen and /shisensho: the frames it reads with confidence
/// (nothing unsure, every type even) yet wrongly, by name. Refusals and unsure readings are
/// allowed (the bot does not click them).
#[test]
fn default_reader_confident_misreadings_are_the_known_ones() {
    use llk::vision::{is_sure, read_with, ReaderChoice};
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut wrong = Vec::new();
    let files = ["kshisen", "xshisen", "shisensho"]
        .map(|d| root.join("fixtures").join(d))
        .iter()
        .flat_map(|d| truth_files(d))
        .collect::<Vec<_>>();
    for f in files {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&f).unwrap()).unwrap();
        let png = f.to_string_lossy().replace(".truth.json", ".png");
        let img = load_image(Path::new(&png)).unwrap();
        let Ok(r) = read_with(ReaderChoice::Auto, &img, &Hints::default()) else {
            continue;
        };
        let exact = v.get("cells").is_some() && same_board(&board_of(&v), &r.board);
        if is_sure(&r) && !exact {
            wrong.push(truth_name(&f));
        }
    }
    // None known. A 30x16 board of light faces on the plain light ground
    // (s5-default-color_plain-w1500-mid11) was one: the ground ran on from emptied cells
    // into a type whose six circles leave the face's middle bare.
    let known: Vec<String> = Vec::new();
    assert_eq!(wrong, known, "confident misreadings of the default reader");
}

/// A reader saved in a window's profile is tried first, but while it gives no sure
/// reading the default `auto` reads too: a profile that named the legacy chain (it read an
/// earlier deal) must not leave the live bot blind on a frame only the stage reader reads.
#[test]
fn a_saved_reader_that_cannot_read_the_frame_gives_way_to_auto() {
    use llk::agent::pipeline::Vision;
    use llk::agent::Eyes;
    use llk::vision::ReaderChoice;
    let frame = load_image(Path::new("fixtures/kshisen/s0-default-default-full.png")).unwrap();
    let sure = |r: &Result<llk::vision::Reading, llk::vision::ReadError>| {
        r.as_ref()
            .is_ok_and(|s| s.unsure.is_empty() && s.board.check_even().is_ok())
    };
    let mut given = Vision {
        reader: ReaderChoice::Legacy,
        ..Vision::default()
    };
    assert!(
        !sure(&given.read(&frame, None)),
        "the legacy chain reads this frame now: pick another"
    );
    assert_eq!(given.reader, ReaderChoice::Legacy);
    let mut saved = Vision {
        reader: ReaderChoice::Legacy,
        fallback: true,
        ..Vision::default()
    };
    let seen = saved.read(&frame, None);
    assert!(sure(&seen));
    assert_eq!(saved.reader, ReaderChoice::General);
    assert!(!saved.fallback);
}

/// The live bot's eyes over a game's frames (`fixtures/kshisen/live/`, from
/// `scripts/kshisen-e2e 0:true:3:egypt:wood_light`): on the full deal both readers read
/// the same board, so the eyes must not settle on the legacy chain alone. Ten pairs later,
/// on the grid locked from the deal, the cells emptied beside the egypt tiles' deep 3-D
/// sides must read as empty (the legacy chain read them as a type of tiles, sure, and the
/// bot clicked two of them).
#[test]
fn live_eyes_keep_both_readers_while_they_agree() {
    use llk::agent::pipeline::Vision;
    use llk::agent::Eyes;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/kshisen/live");
    let load = |name: &str| load_image(&dir.join(name)).expect("live frame");
    let mut eyes = Vision {
        reader: ReaderChoice::Auto,
        ..Vision::default()
    };
    let deal = eyes
        .read(&load("s0-egypt-wood_light-full.png"), None)
        .expect("the deal reads");
    assert!(is_sure(&deal), "{:?}\n{}", deal.unsure, deal.board);
    assert_eq!((deal.grid.rows, deal.grid.cols), (6, 14));
    assert_eq!(deal.board.tile_count(), 84, "{}", deal.board);
    assert_eq!(
        eyes.reader,
        ReaderChoice::Auto,
        "both readers agree on the deal"
    );
    let later = eyes
        .read(&load("s0-egypt-wood_light-mid10.png"), Some(&deal.grid))
        .expect("the later frame reads");
    assert!(is_sure(&later), "{:?}\n{}", later.unsure, later.board);
    // The top two rows as the frame shows them (checked by eye): tiles at columns 6 and 12
    // of row 0, and 6, 7, 8, 10 and 12 of row 1.
    let row = |r: usize| -> String {
        (0..14)
            .map(|c| match later.board.get(Pos::new(r, c)) {
                Cell::Tile(_) => 'x',
                _ => '.',
            })
            .collect()
    };
    assert_eq!(row(0), "......x.....x.", "{}", later.board);
    assert_eq!(row(1), "......xxx.x.x.", "{}", later.board);
}

/// A late frame of a live game (`scripts/kshisen-e2e 0:true:0:traditional:color_plain`,
/// `fixtures/kshisen/live/s0-traditional-color_plain-line-below.png`): six tiles left on
/// the bottom row, the two of a pair selected with the link line run below the board between
/// them. Read by the stage reader on the grid the game locked, the two light-faced tiles
/// (columns 6 and 11, checked by eye), whose faces mostly show the ground's colour, must stay
/// tiles: their frames are the other tiles' frames, not the two selected ones'. Read as
/// ground, the bot took a removal that never happened, learnt the tiles as ground and
/// claimed a cleared game with two tiles left.
#[test]
fn light_faced_tiles_beside_a_selected_pair_under_its_line_stay_tiles() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/kshisen/live");
    let frame = load_image(&dir.join("s0-traditional-color_plain-line-below.png")).unwrap();
    let grid = Grid {
        origin: (47.66777, 171.39902),
        pitch: (58.000256, 74.00244),
        rows: 6,
        cols: 14,
    };
    let r = read_grid(&frame, &grid, &ReaderConfig::default()).expect("the frame reads");
    let want = Board::parse(
        "..............\n..............\n..............\n..............\n..............\n...A..BC.CAB..",
    )
    .unwrap();
    assert!(
        want.renaming_mismatches(&r.board)
            .is_some_and(|m| m.is_empty()),
        "{}",
        r.board
    );
}
