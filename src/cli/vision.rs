//! (being written)

#[derive(clap::Args, Debug)]
pub struct ReadArgs {}

pub fn read(_args: ReadArgs) -> anyhow::Result<()> {
    anyhow::bail!("not written yet")
}

#[derive(clap::Args, Debug)]
pub struct BenchArgs {}

pub fn bench(_args: BenchArgs) -> anyhow::Result<()> {
    anyhow::bail!("not written yet")
}
