//! Exit statuses other than 0 (success) and 1 (an error, with its message): an error that
//! carries its own status.

use std::fmt;

/// `llk play` stopped with tiles left because no pair on the board can be removed and the
/// game did not change the board (a deal that cannot be cleared).
pub const TILES_LEFT: u8 = 3;

/// An error that ends the process with `code`.
#[derive(Debug)]
pub struct Exit {
    pub code: u8,
    pub message: String,
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Exit {}
