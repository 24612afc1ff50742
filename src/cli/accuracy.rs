//! `llk bench truth`: how a reader does on folders of screenshots with truth files
//! (`NAME.truth.json` beside `NAME.png`/`.jpg`), scored by [`llk::vision::truth`]: one line
//! of counts per folder, `X` exact, `W` wrong (sure, so the bot would click it), `U` unsure,
//! `R` a board refused, `E` a frame without a board refused. `W` is the class that
//! matters: a refusal costs a turn, a confident misreading costs the game.

use super::out::outln;
use anyhow::{bail, Context, Result};
use clap::Args;
use llk::vision::truth::{Class, Truth};
use llk::vision::{load_image, read_with, Hints, ReaderChoice};
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
fn image_of(truth: &Path, want: &Truth) -> Option<PathBuf> {
    let dir = truth.parent()?;
    if let Some(name) = &want.image {
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

/// Scores one frame: `None` for a board whose truth gives neither its cells nor its size.
fn classify(truth: &Path, reader: ReaderChoice) -> Result<Option<(Class, String)>> {
    let text = std::fs::read_to_string(truth)
        .with_context(|| format!("cannot read {}", truth.display()))?;
    let want = Truth::parse(&text).map_err(|e| anyhow::anyhow!("{} {e}", truth.display()))?;
    let Some(image) = image_of(truth, &want) else {
        bail!("{}: no screenshot beside it", truth.display());
    };
    if !want.scorable() {
        return Ok(None);
    }
    let frame = load_image(&image).map_err(|e| anyhow::anyhow!("{e:#}"))?;
    let got = read_with(reader, &frame, &Hints::default());
    let score = want.score(got.as_ref());
    let note = match &got {
        Err(e) => format!("{e} [{}]", e.kind()),
        Ok(got) => format!(
            "read {}x{} at ({:.1}, {:.1}) pitch {:.1}x{:.1}, {} unsure",
            got.grid.rows,
            got.grid.cols,
            got.grid.origin.0,
            got.grid.origin.1,
            got.grid.pitch.0,
            got.grid.pitch.1,
            got.unsure.len()
        ),
    };
    let note = match score.class {
        Class::Exact | Class::Refused => note,
        _ if score.why.is_empty() => note,
        _ => format!("{note}: {}", score.why),
    };
    Ok(Some((score.class, note)))
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
