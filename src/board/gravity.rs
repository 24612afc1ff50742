//! Gravity variants: how tiles slide after a pair is removed.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The direction tiles close up toward after each removal. Obstacles never move and split a
/// column (row) into segments; within a segment tiles keep their order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Gravity {
    #[default]
    None,
    Down,
    Up,
    Left,
    Right,
    /// In each column, rows `0..R/2` close up downward and rows `R/2..R` upward.
    CenterV,
    /// In each row, cols `0..C/2` close up rightward and cols `C/2..C` leftward.
    CenterH,
}

impl Gravity {
    /// Every mode, in the order the CLI and the benchmark list them.
    pub const ALL: [Gravity; 7] = [
        Gravity::None,
        Gravity::Down,
        Gravity::Up,
        Gravity::Left,
        Gravity::Right,
        Gravity::CenterV,
        Gravity::CenterH,
    ];

    /// The name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Gravity::None => "none",
            Gravity::Down => "down",
            Gravity::Up => "up",
            Gravity::Left => "left",
            Gravity::Right => "right",
            Gravity::CenterV => "center-v",
            Gravity::CenterH => "center-h",
        }
    }
}

impl fmt::Display for Gravity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Gravity {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Gravity::ALL
            .into_iter()
            .find(|g| g.name() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Gravity::ALL.iter().map(|g| g.name()).collect();
                format!(
                    "unknown gravity mode {s:?}; expected one of {}",
                    names.join(", ")
                )
            })
    }
}
