//! Solves a sliding-tile puzzle optimally with IDA* and the linear-conflict estimate.
//!
//! `cargo run --release --example solve_slide -- ["8 0 6 5 4 7 2 3 1"]` (tiles row by row, 0
//! the blank; the goal puts the blank first).

use llk::slide::{solve, Algo, Goal, Heuristic, Limits, Puzzle};

fn main() -> anyhow::Result<()> {
    let text = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "8 0 6 5 4 7 2 3 1".to_string());
    let start = Puzzle::parse(&text, None)?;
    let s = solve(
        &start,
        &Goal::BlankFirst,
        Algo::Idastar,
        Heuristic::LinearConflict,
        &Limits::default(),
    )?;
    println!(
        "{} moves ({} nodes expanded): tiles slid {:?}",
        s.moves.len(),
        s.nodes,
        s.tiles_moved
    );
    Ok(())
}
