//! Playing a [`TwoPlayerGame`] against a human in a terminal, generic over the input and output
//! streams so that tests drive whole games with scripted lines (bad ones included).

use super::adversarial::{Terminal, TwoPlayerGame};
use std::io::{BufRead, Write};

/// What a game needs beyond its rules to be played by a person: a drawing of the position,
/// a reader for typed moves, and names for moves and sides.
pub trait TerminalGame: TwoPlayerGame {
    /// The position as text, with whatever labels help pick a move (cell or column numbers).
    fn show(&self, state: &Self::State) -> String;
    /// Reads a typed move, checking it is legal here; the error says what to type instead.
    fn parse_move(&self, state: &Self::State, text: &str) -> Result<Self::Move, RefusedMove>;
    /// A move as the player would type it, to report the computer's choice.
    fn move_name(&self, mv: Self::Move) -> String;
    /// What to type, shown in the prompt ("a cell 1-9").
    fn prompt(&self) -> &'static str;
}

/// A typed move the game does not take; the message says what to type instead.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RefusedMove {
    /// Not a number.
    #[error("{text:?} is not a {what}: type a number 1-{last}")]
    NotANumber {
        /// What was typed.
        text: String,
        /// What a move names: "cell", "column".
        what: &'static str,
        /// The highest number.
        last: usize,
    },
    /// A number outside 1..=`last`.
    #[error("{what} {n} is off the board: {what}s are 1-{last}")]
    OffBoard {
        /// The number typed.
        n: usize,
        /// What a move names.
        what: &'static str,
        /// The highest number.
        last: usize,
    },
    /// A cell or column that cannot take a move now.
    #[error("{what} {n} is {why}")]
    Unavailable {
        /// The number typed.
        n: usize,
        /// What a move names.
        what: &'static str,
        /// Why: "taken", "full".
        why: &'static str,
    },
}

impl RefusedMove {
    /// Reads `text` as a number 1..=`last` naming a `what` ("cell", "column").
    pub fn number(text: &str, what: &'static str, last: usize) -> Result<usize, RefusedMove> {
        let n: usize = text.parse().map_err(|_| RefusedMove::NotANumber {
            text: text.to_string(),
            what,
            last,
        })?;
        if !(1..=last).contains(&n) {
            return Err(RefusedMove::OffBoard { n, what, last });
        }
        Ok(n)
    }
}

/// Why a terminal game stopped before its end.
#[derive(Debug, thiserror::Error)]
pub enum TerminalError {
    /// The person's input could not be read.
    #[error("reading your move")]
    Read(#[source] std::io::Error),
    /// The input ended mid-game.
    #[error("the input ended before the game did")]
    InputEnded,
    /// The board could not be written.
    #[error("writing the board")]
    Write(#[from] std::io::Error),
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
) -> Result<(Ending, G::State), TerminalError>
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
                let n = input.read_line(&mut line).map_err(TerminalError::Read)?;
                if n == 0 {
                    return Err(TerminalError::InputEnded);
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
