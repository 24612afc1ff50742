//! `llk bench truth`: how a reader does on folders of screenshots with truth files
//! (`NAME.truth.json` beside `NAME.png`/`.jpg`, the schema of `../shared/llk-real`, of
//! `llk render --fixtures` and of the KShisen captures). Each frame lands in one class:
//!
//! | class | truth | reading |
//! |---|---|---|
//! | `X` exact | any | the truth's rows, columns and cells, types up to renaming, but for empty edge lines either side may leave off (where the truth gives no cells: its rows, columns and the game's count of tiles left) |
//! | `W` wrong | any | sure (nothing unsure, every type even) and not exact: the bot would click it |
//! | `U` unsure | any | not exact and not sure: the bot would not click |
//! | `R` refused | `board` | an error |
//! | `E` expected refusal | `no-board`, `animation` | an error |
//!
//! `W` is the class that matters: a refusal costs a turn, a confident misreading costs the
//! game.

use super::out::outln;
use anyhow::{bail, Context, Result};
use clap::Args;
use llk::board::Board;
use llk::vision::{is_sure, load_image, read_with, Hints, ReaderChoice};
use serde_json::Value;
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct TruthArgs {
    /// Folders holding `NAME.truth.json` beside `NAME.png` (or `.jpg`, `.jpeg`, `.bmp`).
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,
    /// Which reader: `auto` (the default reader), `legacy` or `general`.
    #[arg(long, default_value = "auto")]
    pub reader: ReaderChoice,
    /// Also print one line per frame: its class and, when not exact, what was read.
    #[arg(long)]
    pub list: bool,
}

/// A frame's class (see the module doc), in the order of the table's columns.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Class {
    Exact,
    Wrong,
    Unsure,
    Refused,
    Expected,
}

impl Class {
    fn letter(self) -> char {
        match self {
            Class::Exact => 'X',
            Class::Wrong => 'W',
            Class::Unsure => 'U',
            Class::Refused => 'R',
            Class::Expected => 'E',
        }
    }
}

/// The truth files of `dir`, sorted by name.
fn truth_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot list {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".truth.json"))
        .collect();
    files.sort();
    Ok(files)
}

/// The screenshot a truth file describes: its `image` field, else the first of
/// `NAME.png|jpg|jpeg|bmp` that exists.
fn image_of(truth: &Path, v: &Value) -> Option<PathBuf> {
    let dir = truth.parent()?;
    if let Some(name) = v.get("image").and_then(Value::as_str) {
        let p = dir.join(name);
        if p.exists() {
            return Some(p);
        }
    }
    let stem = truth
        .file_name()?
        .to_string_lossy()
        .replace(".truth.json", "");
    ["png", "jpg", "jpeg", "bmp"]
        .iter()
        .map(|ext| dir.join(format!("{stem}.{ext}")))
        .find(|p| p.exists())
}

/// Classes one frame: (class, a note on what was read); `None` for a board whose truth
/// gives neither its cells nor its size and the game's count of tiles left.
fn classify(truth: &Path, reader: ReaderChoice) -> Result<Option<(Class, String)>> {
    let text = std::fs::read_to_string(truth)
        .with_context(|| format!("cannot read {}", truth.display()))?;
    let v: Value =
        serde_json::from_str(&text).with_context(|| format!("{} is not JSON", truth.display()))?;
    let Some(image) = image_of(truth, &v) else {
        bail!("{}: no screenshot beside it", truth.display());
    };
    let kind = v.get("kind").and_then(Value::as_str).unwrap_or("board");
    let want = match v.get("cells").and_then(Value::as_array) {
        Some(rows) => {
            let rows: Vec<&str> = rows.iter().filter_map(Value::as_str).collect();
            Some(
                Board::from_rows(&rows)
                    .map_err(|e| anyhow::anyhow!("{}: its cells: {e}", truth.display()))?,
            )
        }
        None => None,
    };
    // Without cells a board's truth may still give its size and the game's own count of
    // tiles left: the reading must match both. Without them it cannot be scored.
    let size = ["rows", "cols"].map(|k| v.get(k).and_then(Value::as_u64).map(|n| n as usize));
    let tiles_left = v
        .pointer("/counters/remaining_tiles")
        .and_then(Value::as_u64)
        .map(|n| n as usize);
    if kind == "board" && want.is_none() && (size.contains(&None) || tiles_left.is_none()) {
        return Ok(None);
    }
    let frame = load_image(&image).map_err(|e| anyhow::anyhow!("{e:#}"))?;
    let got = match read_with(reader, &frame, &Hints::default()) {
        Err(e) if kind == "board" => {
            return Ok(Some((Class::Refused, format!("{e} [{}]", e.kind()))))
        }
        Err(e) => return Ok(Some((Class::Expected, format!("{e} [{}]", e.kind())))),
        Ok(r) => r,
    };
    // A board's empty edge lines show nowhere on screen and change no move (links may run
    // outside the board): a reading that differs from the truth only by them is exact.
    let exact = match &want {
        Some(w) => w
            .without_empty_edges()
            .same_up_to_renaming(&got.board.without_empty_edges()),
        None => {
            kind == "board"
                && size == [Some(got.board.rows()), Some(got.board.cols())]
                && tiles_left == Some(got.board.tile_count())
        }
    };
    let note = format!(
        "read {}x{} at ({:.1}, {:.1}) pitch {:.1}x{:.1}, {} unsure",
        got.grid.rows,
        got.grid.cols,
        got.grid.origin.0,
        got.grid.origin.1,
        got.grid.pitch.0,
        got.grid.pitch.1,
        got.unsure.len()
    );
    let class = if exact {
        Class::Exact
    } else if is_sure(&got) {
        Class::Wrong
    } else {
        Class::Unsure
    };
    Ok(Some((class, note)))
}

pub fn truth(args: TruthArgs) -> Result<()> {
    outln!("reader: {}", args.reader.name())?;
    outln!("| folder | frames | X | W | U | R | E | not scored |")?;
    outln!("|---|---|---|---|---|---|---|---|")?;
    for dir in &args.dirs {
        let files = truth_files(dir)?;
        if files.is_empty() {
            bail!("{}: no *.truth.json files", dir.display());
        }
        let mut counts = [0usize; 5];
        let mut unscored = 0;
        let mut lines = Vec::new();
        for f in &files {
            let name = f
                .file_name()
                .map(|n| n.to_string_lossy().replace(".truth.json", ""))
                .unwrap_or_default();
            match classify(f, args.reader)? {
                Some((class, note)) => {
                    counts[class as usize] += 1;
                    lines.push(format!("{} {name} {note}", class.letter()));
                }
                None => {
                    unscored += 1;
                    lines.push(format!(
                        "- {name} (its truth gives no cells, nor size and tiles left)"
                    ));
                }
            }
        }
        outln!(
            "| {} | {} | {} | {} | {} | {} | {} | {unscored} |",
            dir.display(),
            files.len(),
            counts[0],
            counts[1],
            counts[2],
            counts[3],
            counts[4]
        )?;
        if args.list {
            for l in lines {
                outln!("  {l}")?;
            }
        }
    }
    Ok(())
}
