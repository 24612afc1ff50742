//! (being written)

#[derive(clap::Args, Debug)]
pub struct PuzzleArgs {}

pub fn run(_args: PuzzleArgs) -> anyhow::Result<()> {
    anyhow::bail!("not written yet")
}
