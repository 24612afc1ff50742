//! `llk read` (screenshot → board text or JSON) and `llk bench read` (reading speed).

use super::out::outln;
use anyhow::{bail, Context, Result};
use clap::Args;
use llk::board::{cell_list, Board};
use llk::render::{Background, RenderSpec, Renderer, Theme};
use llk::vision::{load_image, read_cells_with, read_with, Hints, Reading};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde_json::json;
use std::path::PathBuf;
use std::time::Instant;

#[derive(Args, Debug)]
pub struct ReadArgs {
    /// Screenshot to read (PNG, JPEG or BMP); `-` reads it from stdin.
    pub image: PathBuf,
    /// Print JSON (rows, cols, origin_px, cell_px, cells, tiles, types, unsure) instead of
    /// the board text.
    #[arg(long)]
    pub json: bool,
    /// Board rows, when known.
    #[arg(long)]
    pub rows: Option<usize>,
    /// Board columns, when known.
    #[arg(long)]
    pub cols: Option<usize>,
    /// Only look inside this rectangle of the screenshot: x,y,w,h in pixels.
    #[arg(long, value_parser = parse_region)]
    pub region: Option<(u32, u32, u32, u32)>,
    /// Which reader: `general` (lattice, pictures, extent, verdict), `legacy`, or `auto` (the
    /// legacy reader's reading when it is sure, else the general one's). Default: `auto`, or
    /// the profile's with --profile.
    #[arg(long)]
    pub reader: Option<llk::vision::ReaderChoice>,
    /// Read on the grid `llk play` saved for this application (see `llk profiles`)
    /// instead of looking for the board.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["rows", "cols", "region"])]
    pub profile: Option<String>,
}

/// Parses "x,y,w,h".
pub fn parse_region(s: &str) -> Result<(u32, u32, u32, u32), String> {
    let v: Vec<u32> = s
        .split(',')
        .map(|p| p.trim().parse::<u32>())
        .collect::<Result<_, _>>()
        .map_err(|_| format!("{s:?}: expected x,y,w,h as four whole numbers"))?;
    match v[..] {
        [x, y, w, h] if w > 0 && h > 0 => Ok((x, y, w, h)),
        [_, _, _, _] => Err(format!("{s:?}: width and height must be positive")),
        _ => Err(format!("{s:?}: expected x,y,w,h as four whole numbers")),
    }
}

/// The JSON form of a reading, in the schema of the truth files.
pub fn reading_json(r: &Reading) -> serde_json::Value {
    json!({
        "rows": r.grid.rows,
        "cols": r.grid.cols,
        "origin_px": [r.grid.origin.0, r.grid.origin.1],
        "cell_px": [r.grid.pitch.0, r.grid.pitch.1],
        "cells": r.board.row_strings(),
        "tiles": r.board.tile_count(),
        "types": r.board.type_counts().len(),
        "unsure": r.unsure.iter().map(|p| [p.row, p.col]).collect::<Vec<_>>(),
    })
}

pub fn read(args: ReadArgs) -> Result<()> {
    let frame = super::input::load_image(&args.image)?;
    let name = super::input::name(&args.image);
    let hints = Hints {
        rows: args.rows,
        cols: args.cols,
        region: args.region,
    };
    let r = match &args.profile {
        Some(p) => super::profiles::read_on_profile(p, &frame, args.reader)
            .map_err(|e| anyhow::anyhow!("{name}: {e:#}"))?,
        None => llk::vision::read_with(args.reader.unwrap_or_default(), &frame, &hints)
            .map_err(|e| anyhow::anyhow!("{name}: {e} [{}]", e.kind()))?,
    };
    if let (Some(rows), Some(cols)) = (args.rows, args.cols) {
        if (r.grid.rows, r.grid.cols) != (rows, cols) {
            bail!(
                "{name}: found a {}x{} board, not the {rows}x{cols} given",
                r.grid.rows,
                r.grid.cols
            );
        }
    }
    if args.json {
        outln!("{}", serde_json::to_string(&reading_json(&r))?)?;
    } else {
        outln!("{}", r.board)?;
        if !r.unsure.is_empty() {
            eprintln!("llk: unsure cells: {}", cell_list(&r.unsure));
        }
    }
    Ok(())
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Frames to time.
    #[arg(long, default_value_t = 200)]
    pub frames: usize,
    /// Also time reading a given screenshot (repeated --frames times), and reading its
    /// cells on the grid the first read found.
    #[arg(long)]
    pub image: Option<PathBuf>,
    /// Which reader to time: `auto` (the default reader, which runs both), `legacy` or
    /// `general`.
    #[arg(long, default_value = "auto")]
    pub reader: llk::vision::ReaderChoice,
}

/// CPU time this thread has run, in ms, from Linux's `/proc/thread-self/schedstat`: on a
/// loaded machine wall-clock figures include time spent waiting for a core, CPU time does
/// not. `None` elsewhere.
fn thread_cpu_ms() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e6)
}

/// Times `f` on `frames` runs: (wall ms, CPU ms) per run.
fn time_runs(frames: usize, mut f: impl FnMut()) -> (Vec<f64>, Vec<f64>) {
    let mut wall = Vec::with_capacity(frames);
    let mut cpu = Vec::with_capacity(frames);
    for _ in 0..frames {
        let c0 = thread_cpu_ms();
        let t = Instant::now();
        f();
        wall.push(t.elapsed().as_secs_f64() * 1e3);
        if let (Some(a), Some(b)) = (c0, thread_cpu_ms()) {
            cpu.push(b - a);
        }
    }
    (wall, cpu)
}

fn median_ms(mut v: Vec<f64>) -> (f64, f64, f64) {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    (v[n / 2], v[n / 10], v[(n * 9 / 10).min(n - 1)])
}

/// Prints one table row of timings: median / p10 / p90 wall ms and median CPU ms.
fn timing_row(name: &str, call: &str, (wall, cpu): (Vec<f64>, Vec<f64>)) -> Result<()> {
    let (m, lo, hi) = median_ms(wall);
    let cpu = if cpu.is_empty() {
        "n/a".to_string()
    } else {
        format!("{:.2}", median_ms(cpu).0)
    };
    outln!("| {name} | {call} | {m:.2} | {lo:.2} | {hi:.2} | {cpu} |")?;
    Ok(())
}

/// Times `read` and `read_cells` with the chosen reader on 1920×1080 frames with a 19×11
/// board (classic theme, chrome, the board placed in a full-HD window), and on `--image`,
/// and prints median / p10 / p90.
pub fn bench(args: BenchArgs) -> Result<()> {
    if args.frames == 0 {
        bail!("--frames must be at least 1");
    }
    let reader = args.reader;
    let read = |img: &image::RgbaImage| read_with(reader, img, &Hints::default());
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let board: Board = llk::render::fixtures::random_board(11, 19, 30, 1.0, 0, &mut rng);
    outln!("reader: {}", reader.name())?;
    outln!("| frame | call | median ms | p10 ms | p90 ms | median CPU ms |")?;
    outln!("|---|---|---|---|---|---|")?;
    for (theme, background) in [
        (Theme::Classic, Background::Plain),
        (Theme::Mahjong, Background::Noise),
    ] {
        let spec = RenderSpec {
            theme,
            background,
            canvas: Some((1920, 1080)),
            origin: Some((500, 300)),
            ..RenderSpec::default()
        };
        let frame = Renderer::new(&spec, 11, 19).draw(&board, &[], &[]);
        if frame.image.dimensions() != (1920, 1080) {
            bail!(
                "bench frame is {:?}, expected 1920x1080",
                frame.image.dimensions()
            );
        }
        let first =
            read(&frame.image).map_err(|e| anyhow::anyhow!("bench frame did not read: {e}"))?;
        if !first.board.same_up_to_renaming(&board) {
            bail!("bench frame misread: the figures would mean nothing");
        }
        let name = format!("1920x1080 19x11 {theme} {background}");
        timing_row(
            &name,
            "read",
            time_runs(args.frames, || {
                std::hint::black_box(read(&frame.image).is_ok());
            }),
        )?;
        timing_row(
            &name,
            "read_cells",
            time_runs(args.frames, || {
                std::hint::black_box(read_cells_with(reader, &frame.image, &first.grid).is_ok());
            }),
        )?;
    }
    if let Some(path) = &args.image {
        let frame = load_image(path)?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .context("image path has no file name")?;
        let first = read(&frame);
        timing_row(
            &name,
            "read",
            time_runs(args.frames, || {
                std::hint::black_box(read(&frame).is_ok());
            }),
        )?;
        match first {
            Ok(r) => timing_row(
                &name,
                "read_cells",
                time_runs(args.frames, || {
                    std::hint::black_box(read_cells_with(reader, &frame, &r.grid).is_ok());
                }),
            )?,
            Err(e) => {
                outln!("| {name} | read_cells | not timed: the image does not read ({e}) | | | |")?
            }
        }
    }
    Ok(())
}
