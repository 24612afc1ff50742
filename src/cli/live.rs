//! (being written)

#[derive(clap::Args, Debug)]
pub struct GameArgs {}

pub fn game(_args: GameArgs) -> anyhow::Result<()> {
    anyhow::bail!("not written yet")
}

#[derive(clap::Args, Debug)]
pub struct PlayArgs {}

pub fn play(_args: PlayArgs) -> anyhow::Result<()> {
    anyhow::bail!("not written yet")
}

#[derive(clap::Args, Debug)]
pub struct WindowsArgs {}

pub fn windows(_args: WindowsArgs) -> anyhow::Result<()> {
    anyhow::bail!("not written yet")
}

#[derive(clap::Args, Debug)]
pub struct ReplayArgs {}

pub fn replay(_args: ReplayArgs) -> anyhow::Result<()> {
    anyhow::bail!("not written yet")
}

#[derive(clap::Args, Debug)]
pub struct DemoArgs {}

pub fn demo(_args: DemoArgs) -> anyhow::Result<()> {
    anyhow::bail!("not written yet")
}
