//! (being written)

#[derive(clap::Args, Debug)]
pub struct AnnotateArgs {}

pub fn annotate(_args: AnnotateArgs) -> anyhow::Result<()> {
    anyhow::bail!("not written yet")
}

#[derive(clap::Args, Debug)]
pub struct RenderArgs {}

pub fn render(_args: RenderArgs) -> anyhow::Result<()> {
    anyhow::bail!("not written yet")
}
