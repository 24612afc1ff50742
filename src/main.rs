//! The `llk` command line: parses arguments, calls the library, prints text or JSON.
//! Every subcommand lives in its own module under `cli/`.

mod cli;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Plays tile puzzles by looking at the screen: Lianliankan (Onet, Shisen-Sho) and sliding
/// tiles, live in a game window or offline from screenshots.
#[derive(Parser, Debug)]
#[command(name = "llk", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Plan the whole elimination order of a board given as text.
    ///
    /// Exit status: 0 cleared; 3 stuck (greedy or paper: tiles left and no removable pair);
    /// 4 unsolvable (no order of removals clears the board); 5 gave up (the budget ran out
    /// first); 1 an error. The moves and the outcome are printed in every case.
    Plan(cli::plan::PlanArgs),
    /// List the pairs that can be removed right now.
    Pairs(cli::plan::PairsArgs),
    /// Make a random board (reproducible from its seed).
    Generate(cli::plan::GenerateArgs),
    /// Read a board from a screenshot (PNG, JPEG, BMP).
    Read(cli::vision::ReadArgs),
    /// Draw the reading of a screenshot as an annotated PNG: grid, types, pairs, next moves.
    Annotate(cli::render::AnnotateArgs),
    /// Draw a board as a game would, to a PNG (the fixture renderer).
    Render(cli::render::RenderArgs),
    /// Measure the planner or the reader and print a table.
    #[command(subcommand)]
    Bench(BenchCmd),
    /// Sliding-tile puzzles: solve, benchmark, play a window.
    Slide(cli::slide::SlideArgs),
    /// More puzzles on the generic search API: maze, river crossing, tic-tac-toe, connect four.
    Puzzle(cli::puzzle::PuzzleArgs),
    /// Open the bundled practice game in a window.
    Game(cli::game_args::GameArgs),
    /// Play a Lianliankan game window live: capture, read, plan, click, verify.
    Play(cli::live::PlayArgs),
    /// List the saved game profiles (what `llk play` learnt about each game's window), or
    /// forget one.
    Profiles(cli::profiles::ProfilesArgs),
    /// List the windows the bot can see, to pick a --window title.
    Windows(cli::live::WindowsArgs),
    /// Re-run vision and planning on a recorded session and check every decision.
    Replay(cli::live::ReplayArgs),
    /// Open the bundled game and let the bot clear it live (the quick-start demo).
    Demo(cli::live::DemoArgs),
}

#[derive(Subcommand, Debug)]
enum BenchCmd {
    /// Every strategy on random boards of the QQ sizes and every gravity mode.
    Plan(cli::plan::BenchArgs),
    /// Reading speed on a full-HD frame.
    Read(cli::vision::BenchArgs),
    /// Reading accuracy on folders of screenshots with truth files: exact, wrong (sure),
    /// unsure, refused, and refused as expected.
    Truth(cli::accuracy::TruthArgs),
}

fn main() -> ExitCode {
    // Rust ignores SIGPIPE, so printing into a closed pipe (`llk plan b.txt | head -1`) would
    // panic in `println!`; the default action ends the process quietly, as `cat` does.
    #[cfg(unix)]
    // SAFETY: called first thing, before any thread exists; SIG_DFL is always a valid action.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = Cli::parse();
    let result = match cli.cmd {
        Cmd::Plan(a) => cli::plan::plan(a),
        Cmd::Pairs(a) => cli::plan::pairs(a),
        Cmd::Generate(a) => cli::plan::generate(a),
        Cmd::Read(a) => cli::vision::read(a),
        Cmd::Annotate(a) => cli::render::annotate(a),
        Cmd::Render(a) => cli::render::render(a),
        Cmd::Bench(BenchCmd::Plan(a)) => cli::plan::bench(a),
        Cmd::Bench(BenchCmd::Read(a)) => cli::vision::bench(a),
        Cmd::Bench(BenchCmd::Truth(a)) => cli::accuracy::truth(a),
        Cmd::Slide(a) => cli::slide::run(a),
        Cmd::Puzzle(a) => cli::puzzle::run(a),
        Cmd::Game(a) => cli::live::game(a),
        Cmd::Play(a) => cli::live::play(a),
        Cmd::Profiles(a) => cli::profiles::profiles(a),
        Cmd::Windows(a) => cli::live::windows(a),
        Cmd::Replay(a) => cli::live::replay(a),
        Cmd::Demo(a) => cli::live::demo(a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // One line, with the chain of causes: "reading x.png: truncated PNG: ...". An
            // outcome already printed on stdout comes as an `Exit` with no message.
            let text = format!("{e:#}");
            if !text.is_empty() {
                eprintln!("llk: error: {text}");
            }
            match e.downcast_ref::<cli::exit::Exit>() {
                Some(exit) => ExitCode::from(exit.code),
                None => ExitCode::FAILURE,
            }
        }
    }
}
