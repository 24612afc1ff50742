//! `llk render` (draw a board to a PNG, or write a batch of fixtures with truth) and
//! `llk annotate` (read a screenshot and draw what was read and what to play over it).

use super::out::outln;
use anyhow::{bail, Context, Result};
use clap::Args;
use image::RgbaImage;
use llk::board::{Board, Gravity, Link, Pos, Rules};
use llk::geometry::Grid;
use llk::render::annotate::{annotate as draw_annotation, Annotation};
use llk::render::fixtures::{fixture_spec, truth_json};
use llk::render::{render_board, Background, RenderSpec, Theme};
use std::path::{Path, PathBuf};

#[derive(Args, Debug)]
pub struct RenderArgs {
    /// Board text file (one line per row: '.' empty, '#' obstacle, any other char a tile).
    #[arg(required_unless_present = "fixtures")]
    pub board: Option<PathBuf>,
    /// Output image (.png, or .jpg/.jpeg to save as JPEG); a directory is refused.
    #[arg(short, long, required_unless_present = "fixtures")]
    pub output: Option<PathBuf>,
    /// Look: classic, dark, pastel or mahjong.
    #[arg(long, default_value = "classic")]
    pub theme: Theme,
    /// Tile size in pixels, WxH.
    #[arg(long, default_value = "31x35", value_parser = parse_size)]
    pub cell: (u32, u32),
    /// Pixels between tiles.
    #[arg(long, default_value_t = 0)]
    pub gap: u32,
    /// Background: plain, gradient, noise or pattern.
    #[arg(long, default_value = "plain")]
    pub background: Background,
    /// Pass the image through JPEG at this quality (1-100) to add compression artefacts.
    #[arg(long)]
    pub jpeg: Option<u8>,
    /// Resize the window by this factor (1.25 = a 125 % DPI screen).
    #[arg(long, default_value_t = 1.0)]
    pub scale: f32,
    /// Seed of the background texture (and of the boards with --fixtures).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// No title and status bars around the board.
    #[arg(long)]
    pub no_chrome: bool,
    /// Write a batch of varied fixtures (PNG + NAME.truth.json) into this folder instead.
    #[arg(long, conflicts_with_all = ["board", "output"])]
    pub fixtures: Option<PathBuf>,
    /// Number of fixtures to write with --fixtures.
    #[arg(long, default_value_t = 20)]
    pub count: u64,
}

/// Parses "WxH" (e.g. 31x35).
fn parse_size(s: &str) -> Result<(u32, u32), String> {
    let (w, h) = s
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("{s:?}: expected WxH, e.g. 31x35"))?;
    let w = w
        .trim()
        .parse()
        .map_err(|_| format!("{s:?}: width is not a number"))?;
    let h = h
        .trim()
        .parse()
        .map_err(|_| format!("{s:?}: height is not a number"))?;
    Ok((w, h))
}

/// The format an output picture is saved in, from its path: PNG or JPEG by the extension.
/// A directory, `-` (stdout) and any other extension are refused, each saying so.
fn output_format(path: &Path) -> Result<image::ImageFormat> {
    if path == Path::new("-") {
        bail!("-o -: pictures are written to a file, not to stdout; give a path ending in .png or .jpg");
    }
    if path.is_dir() {
        bail!(
            "-o {}: is a directory; give the picture's file name, e.g. {}",
            path.display(),
            path.join("annotated.png").display()
        );
    }
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase();
    match ext.as_str() {
        "jpg" | "jpeg" => Ok(image::ImageFormat::Jpeg),
        "png" => Ok(image::ImageFormat::Png),
        _ => bail!(
            "{}: unknown image extension {ext:?} (use .png, .jpg or .jpeg)",
            path.display()
        ),
    }
}

/// Saves as PNG, or as JPEG when the extension says so (JPEG has no alpha, hence RGB).
fn save(img: &RgbaImage, path: &Path) -> Result<()> {
    let res = match output_format(path)? {
        image::ImageFormat::Jpeg => image::DynamicImage::ImageRgba8(img.clone())
            .to_rgb8()
            .save_with_format(path, image::ImageFormat::Jpeg),
        format => img.save_with_format(path, format),
    };
    res.with_context(|| format!("cannot write {}", path.display()))
}

pub fn render(args: RenderArgs) -> Result<()> {
    if let Some(dir) = &args.fixtures {
        return write_fixtures(dir, args.count, args.seed);
    }
    let (Some(board_path), Some(out)) = (&args.board, &args.output) else {
        bail!("give a board file and -o OUT.png, or --fixtures DIR");
    };
    output_format(out)?;
    let text = std::fs::read_to_string(board_path)
        .with_context(|| format!("cannot read board file {}", board_path.display()))?;
    let board =
        Board::parse(&text).with_context(|| format!("{}: not a board", board_path.display()))?;
    let spec = RenderSpec {
        theme: args.theme,
        cell: args.cell,
        gap: args.gap,
        background: args.background,
        chrome: !args.no_chrome,
        seed: args.seed,
        jpeg_quality: args.jpeg,
        scale: args.scale,
        ..RenderSpec::default()
    };
    spec.validate(board.rows(), board.cols())
        .map_err(|e| anyhow::anyhow!("cannot render {}: {e}", board_path.display()))?;
    let r = render_board(&board, &spec);
    save(&r.image, out)?;
    outln!("{}", serde_json::to_string(&r.grid)?)?;
    Ok(())
}

/// Writes `count` fixture cases starting at `seed` as PNG + truth JSON.
fn write_fixtures(dir: &Path, count: u64, seed: u64) -> Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("cannot create fixture folder {}", dir.display()))?;
    for i in seed..seed.saturating_add(count) {
        let case = fixture_spec(i);
        let r = case.render();
        let png = format!("{}.png", case.name);
        save(&r.image, &dir.join(&png))?;
        let truth = truth_json(&png, &r.grid, &case.board, &case.spec);
        let path = dir.join(format!("{}.truth.json", case.name));
        std::fs::write(&path, serde_json::to_string_pretty(&truth)? + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
        outln!("{png}")?;
    }
    Ok(())
}

#[derive(Args, Debug)]
pub struct AnnotateArgs {
    /// Screenshot to annotate (PNG, JPEG or BMP); `-` reads it from stdin.
    pub image: PathBuf,
    /// Where to write the annotated picture: a file name ending in .png or .jpg (.jpeg). A
    /// directory is refused (name the file inside it).
    #[arg(short, long)]
    pub output: PathBuf,
    /// Take the grid and board from this truth file (the `*.truth.json` schema) instead of
    /// reading the screenshot: shows what a correct reading looks like.
    #[arg(long)]
    pub truth: Option<PathBuf>,
    /// Show the next N planned moves, numbered, instead of every removable pair.
    #[arg(long)]
    pub moves: Option<usize>,
    /// Gravity after each removal when planning (none, down, up, left, right, center-v,
    /// center-h).
    #[arg(long, default_value = "none")]
    pub gravity: Gravity,
    /// Links may not run through the ring outside the board.
    #[arg(long)]
    pub no_outside: bool,
    /// Board size when known, to help the reader.
    #[arg(long)]
    pub rows: Option<usize>,
    #[arg(long)]
    pub cols: Option<usize>,
    /// Write the picture even when OUTPUT is the screenshot itself (or the truth file),
    /// replacing it; without this such a run is refused.
    #[arg(long)]
    pub force: bool,
    /// Read on the grid `llk play` saved for this application (see `llk profiles`), with
    /// the profile's reader, instead of looking for the board.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["truth", "rows", "cols"])]
    pub profile: Option<String>,
}

/// Whether `a` and `b` name the same existing file (through links, `..` or a relative path).
fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(ma), Ok(mb)) = (std::fs::metadata(a), std::fs::metadata(b)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        ma.dev() == mb.dev() && ma.ino() == mb.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (ma, mb);
        matches!(
            (std::fs::canonicalize(a), std::fs::canonicalize(b)),
            (Ok(x), Ok(y)) if x == y
        )
    }
}

/// The grid, board and doubtful cells of a screenshot, from a truth file.
fn read_truth(path: &Path) -> Result<(Grid, Board, Vec<Pos>)> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read truth file {}", path.display()))?;
    let v: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{}: not JSON", path.display()))?;
    if v["kind"] != "board" {
        bail!(
            "{}: kind is {}, not \"board\": there is no board to annotate",
            path.display(),
            v["kind"]
        );
    }
    let pair = |key: &str| -> Result<(f32, f32)> {
        let a = v[key].as_array().filter(|a| a.len() == 2);
        let a = a.with_context(|| format!("{}: {key} must be [x, y]", path.display()))?;
        match (a[0].as_f64(), a[1].as_f64()) {
            (Some(x), Some(y)) => Ok((x as f32, y as f32)),
            _ => bail!("{}: {key} must hold two numbers", path.display()),
        }
    };
    let rows: Vec<String> = serde_json::from_value(v["cells"].clone())
        .with_context(|| format!("{}: cells must be a list of row strings", path.display()))?;
    let board =
        Board::from_rows(&rows).with_context(|| format!("{}: bad cells", path.display()))?;
    let grid = Grid {
        origin: pair("origin_px")?,
        pitch: pair("cell_px")?,
        rows: board.rows(),
        cols: board.cols(),
    };
    if grid.pitch.0 <= 0.0 || grid.pitch.1 <= 0.0 {
        bail!("{}: cell_px must be positive", path.display());
    }
    Ok((grid, board, Vec::new()))
}

/// Reads the screenshot with the vision stage; hints from `--rows/--cols` narrow the search.
fn read_screen(
    path: &Path,
    frame: &RgbaImage,
    args: &AnnotateArgs,
) -> Result<(Grid, Board, Vec<Pos>)> {
    let hints = llk::vision::Hints {
        rows: args.rows,
        cols: args.cols,
        region: None,
    };
    let r = match &args.profile {
        Some(p) => super::profiles::read_on_profile(p, frame, None)
            .map_err(|e| anyhow::anyhow!("{}: {e:#}", super::input::name(path)))?,
        None => llk::vision::read(frame, &hints)
            .map_err(|e| anyhow::anyhow!("{}: {e} [{}]", super::input::name(path), e.kind()))?,
    };
    Ok((r.grid, r.board, r.unsure))
}

/// The links to draw: every removable pair, or the first `moves` planned moves, numbered.
///
/// Removable pairs come from the link finder. The planner lands with its own branch; until
/// it is merged this build cannot order moves, and says so on stderr rather than implying
/// there are none (it then shows the removable pairs, unnumbered).
fn links_to_show(board: &Board, rules: &Rules, moves: Option<usize>) -> Result<(Vec<Link>, bool)> {
    let Some(n) = moves else {
        return Ok((llk::board::removable_pairs(board, rules), false));
    };
    let plan = llk::plan::plan(board, rules, &llk::plan::PlanOptions::default());
    if !plan.solved() {
        // Still worth drawing: the moves the planner did commit to show what it would try.
        eprintln!(
            "llk: warning: the planner found no full clearing order ({:?} after {} states); \
             drawing the {} moves it has",
            plan.outcome,
            plan.states,
            plan.moves.len().min(n)
        );
    }
    if rules.gravity != llk::board::Gravity::None && n > 1 {
        eprintln!(
            "llk: note: with gravity, moves after the first are drawn where their tiles will \
             have slid to, not where they are in this frame"
        );
    }
    Ok((plan.moves.into_iter().take(n).collect(), true))
}

pub fn annotate(args: AnnotateArgs) -> Result<()> {
    output_format(&args.output)?;
    let inputs = std::iter::once(&args.image).chain(args.truth.as_ref());
    for input in inputs.filter(|p| !super::input::is_stdin(p)) {
        if !args.force && same_file(input, &args.output) {
            bail!(
                "-o {} is the input {}: writing there would replace it (give another -o, \
                 or --force to overwrite)",
                args.output.display(),
                input.display()
            );
        }
    }
    let frame = super::input::load_image(&args.image)?;
    let (grid, board, unsure) = match &args.truth {
        Some(t) => read_truth(t)?,
        None => read_screen(&args.image, &frame, &args)?,
    };
    let rules = Rules {
        outside: !args.no_outside,
        gravity: args.gravity,
    };
    let (links, numbered) = links_to_show(&board, &rules, args.moves)?;
    let ann = Annotation {
        grid,
        board,
        unsure,
        links,
        numbered,
    };
    let out = draw_annotation(&frame, &ann);
    save(&out, &args.output)?;
    outln!(
        "{}: {}x{} board, {} tiles, {} unsure, {} links drawn",
        args.output.display(),
        ann.board.rows(),
        ann.board.cols(),
        ann.board.tile_count(),
        ann.unsure.len(),
        ann.links.len()
    )?;
    Ok(())
}
