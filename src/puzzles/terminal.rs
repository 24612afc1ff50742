//! Playing a [`TwoPlayerGame`] against a human in a terminal, generic over the input and output
//! streams so that tests drive whole games with scripted lines (bad ones included).

use super::adversarial::{Terminal, TwoPlayerGame};
use anyhow::{bail, Context};
use std::io::{BufRead, Write};

/// What a game needs beyond its rules to be played by a person: a drawing of the position,
/// a reader for typed moves, and names for moves and sides.
pub trait TerminalGame: TwoPlayerGame {
    /// The position as text, with whatever labels help pick a move (cell or column numbers).
    fn show(&self, state: &Self::State) -> String;
    /// Reads a typed move, checking it is legal here; the error says what to type instead.
    fn parse_move(&self, state: &Self::State, text: &str) -> Result<Self::Move, String>;
    /// A move as the player would type it, to report the computer's choice.
    fn move_name(&self, mv: Self::Move) -> String;
    /// What to type, shown in the prompt ("a cell 1-9").
    fn prompt(&self) -> &'static str;
}

/// How a terminal game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The person won.
    HumanWon,
    /// The computer won.
    ComputerWon,
    /// Nobody won.
    Draw,
    /// The person typed `quit`.
    Quit,
}

/// Plays `state` to the end with the person typing moves on `input` and `computer` choosing
/// the others; `human_moves_first` says who moves in `state`. Illegal or unreadable moves are
/// explained and asked again; `q`/`quit` stops. Fails only when the input ends mid-game or
/// the output cannot be written.
pub fn play<G, R, W>(
    game: &G,
    mut state: G::State,
    human_moves_first: bool,
    mut computer: impl FnMut(&G::State) -> G::Move,
    mut input: R,
    mut out: W,
) -> anyhow::Result<(Ending, G::State)>
where
    G: TerminalGame,
    R: BufRead,
    W: Write,
{
    let mut human_turn = human_moves_first;
    let mut line = String::new();
    loop {
        if let Some(t) = game.terminal(&state) {
            writeln!(out, "{}", game.show(&state))?;
            // The side to move has lost, so the winner is whoever moved last.
            let ending = match t {
                Terminal::Drawn => Ending::Draw,
                Terminal::Lost if human_turn => Ending::ComputerWon,
                Terminal::Lost => Ending::HumanWon,
            };
            let text = match ending {
                Ending::Draw => "Draw.",
                Ending::HumanWon => "You win!",
                _ => "The computer wins.",
            };
            writeln!(out, "{text}")?;
            return Ok((ending, state));
        }
        if human_turn {
            writeln!(out, "{}", game.show(&state))?;
            let mv = loop {
                write!(out, "Your move ({}, or q to quit): ", game.prompt())?;
                out.flush()?;
                line.clear();
                let n = input.read_line(&mut line).context("reading your move")?;
                if n == 0 {
                    bail!("the input ended before the game did");
                }
                let text = line.trim();
                if text.eq_ignore_ascii_case("q") || text.eq_ignore_ascii_case("quit") {
                    writeln!(out, "Game abandoned.")?;
                    return Ok((Ending::Quit, state));
                }
                match game.parse_move(&state, text) {
                    Ok(mv) => break mv,
                    Err(why) => writeln!(out, "{why} — try again.")?,
                }
            };
            state = game.play(&state, mv);
        } else {
            let mv = computer(&state);
            writeln!(out, "The computer plays {}.", game.move_name(mv))?;
            state = game.play(&state, mv);
        }
        human_turn = !human_turn;
    }
}
