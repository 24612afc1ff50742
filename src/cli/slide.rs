//! (being written)

#[derive(clap::Args, Debug)]
pub struct SlideArgs {}

pub fn run(_args: SlideArgs) -> anyhow::Result<()> {
    anyhow::bail!("not written yet")
}
