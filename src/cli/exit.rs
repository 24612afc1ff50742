//! Exit statuses: 0 success, 1 an error (with its message on stderr), 2 bad arguments
//! (clap's usage errors), and the statuses below, which tell a script how a command ended
//! without parsing its output. README.md lists them in a table.

use std::fmt;

/// Tiles are left and no pair can be removed: `llk play` on a deal it cannot clear (the
/// game did not change the board, or covered it with its own message after the last
/// move), `llk plan` when the greedy or paper strategy gets stuck.
pub const TILES_LEFT: u8 = 3;
/// No solution exists, proved by the search: `llk plan` "unsolvable", `llk puzzle maze`
/// "no path", `llk puzzle river` "unsolvable" (with `--hint`: no way across from there).
pub const UNSOLVABLE: u8 = 4;
/// The search ran out of its budget before it found a solution or proved there is none:
/// `llk plan` "gave up".
pub const GAVE_UP: u8 = 5;

/// An error that ends the process with `code`. `main` prints the message on stderr as
/// "llk: error: MESSAGE"; an empty message prints nothing (see [`Exit::reported`]).
#[derive(Debug)]
pub struct Exit {
    pub code: u8,
    pub message: String,
}

impl Exit {
    /// Ends with `code` and no message: the command already printed its outcome on stdout
    /// ("unsolvable: …", "no path: …"), which the status repeats for scripts.
    pub fn reported(code: u8) -> Exit {
        Exit {
            code,
            message: String::new(),
        }
    }
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Exit {}
