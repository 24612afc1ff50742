//! (being written)

#[derive(clap::Args, Debug)]
pub struct PlanArgs {}

pub fn plan(_args: PlanArgs) -> anyhow::Result<()> {
    anyhow::bail!("not written yet")
}

#[derive(clap::Args, Debug)]
pub struct PairsArgs {}

pub fn pairs(_args: PairsArgs) -> anyhow::Result<()> {
    anyhow::bail!("not written yet")
}

#[derive(clap::Args, Debug)]
pub struct GenerateArgs {}

pub fn generate(_args: GenerateArgs) -> anyhow::Result<()> {
    anyhow::bail!("not written yet")
}

#[derive(clap::Args, Debug)]
pub struct BenchArgs {}

pub fn bench(_args: BenchArgs) -> anyhow::Result<()> {
    anyhow::bail!("not written yet")
}
