//! Reads a Lianliankan board from a screenshot with the stage reader and plans its whole
//! elimination order: the offline half of `llk play`.
//!
//! `cargo run --release --example read_and_plan -- [SHOT.png]` (default: a KShisen frame
//! from fixtures/kshisen).

use llk::board::Rules;
use llk::plan::{plan, PlanOptions};
use llk::vision::{load_image, read_with, Hints, ReaderChoice};
use std::path::PathBuf;

fn main() -> anyhow::Result<()> {
    let shot = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("fixtures/kshisen/s0-default-default-full.png")
        });
    let frame = load_image(&shot)?;
    let reading = read_with(ReaderChoice::General, &frame, &Hints::default())?;
    println!(
        "{}: a {}x{} board, cells of {:.1}x{:.1} px at ({:.0}, {:.0})",
        shot.display(),
        reading.grid.rows,
        reading.grid.cols,
        reading.grid.pitch.0,
        reading.grid.pitch.1,
        reading.grid.origin.0,
        reading.grid.origin.1
    );
    println!("{}", reading.board);
    let p = plan(&reading.board, &Rules::default(), &PlanOptions::default());
    println!("{}: {} moves", p.outcome, p.moves.len());
    for (i, m) in p.moves.iter().take(5).enumerate() {
        println!("  {}: {} - {}", i + 1, m.a, m.b);
    }
    Ok(())
}
