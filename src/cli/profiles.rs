//! `llk profiles` (list or forget what `llk play` learnt about game windows) and the
//! `--profile NAME` reading of `llk read` and `llk annotate`.

use super::out::outln;
use anyhow::{bail, Result};
use clap::Args;
use image::RgbaImage;
use llk::agent::profile::ProfileStore;
use llk::vision::{read_cells_with, ReaderChoice, Reading};

#[derive(Args, Debug)]
pub struct ProfilesArgs {
    /// Forget (delete) the profile of this application instead of listing them.
    #[arg(long, value_name = "NAME")]
    pub forget: Option<String>,
}

pub fn profiles(args: ProfilesArgs) -> Result<()> {
    let store = ProfileStore::user()?;
    if let Some(name) = &args.forget {
        if !store.forget(name)? {
            bail!(
                "no profile for {name:?} in {} (`llk profiles` lists them)",
                store.dir().display()
            );
        }
        outln!("forgot the profile of {name}")?;
        return Ok(());
    }
    let all = store.list()?;
    if all.is_empty() {
        outln!(
            "no profiles in {} (`llk play` saves one per game window once it has removed pairs)",
            store.dir().display()
        )?;
    }
    for p in &all {
        outln!("{}", p.summary())?;
    }
    Ok(())
}

/// Reads `frame` on the grid of `name`'s saved profile, with `reader` or the profile's
/// own. The frame must have the window size the grid was learnt at.
pub fn read_on_profile(
    name: &str,
    frame: &RgbaImage,
    reader: Option<ReaderChoice>,
) -> Result<Reading> {
    let store = ProfileStore::user()?;
    let Some(p) = store.load(name)? else {
        bail!(
            "no profile for {name:?} in {} (`llk profiles` lists them)",
            store.dir().display()
        );
    };
    if frame.dimensions() != p.window {
        bail!(
            "the image is {}x{} but {name}'s profile was learnt on a {}x{} window: its grid \
             does not apply (capture the window's client area at that size)",
            frame.width(),
            frame.height(),
            p.window.0,
            p.window.1
        );
    }
    let reader = match reader {
        Some(r) => r,
        None => p
            .reader
            .parse()
            .map_err(|e: String| anyhow::anyhow!("{name}'s profile: {e}"))?,
    };
    read_cells_with(reader, frame, &p.grid)
        .map_err(|e| anyhow::anyhow!("on {name}'s profile grid: {e} [{}]", e.kind()))
}
