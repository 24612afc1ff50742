//! One module per group of subcommands; each turns its arguments into library calls.

pub mod accuracy;
pub mod exit;
pub mod game_args;
pub mod input;
pub mod live;
pub mod out;
pub mod plan;
pub mod profiles;
pub mod puzzle;
pub mod render;
pub mod slide;
pub mod slide_play;
pub mod vision;
