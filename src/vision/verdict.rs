//! Stage 4, the verdict: is what the cells show a Lianliankan board, and how sure is each
//! cell?
//!
//! Tiles come in pairs. A frame whose pictures mostly have no twin is some other game (a
//! sliding puzzle's numbers, a grid of digits); a board with more lone pictures than a
//! selection explains is being redrawn (a link line crosses it, tiles explode); a frame with
//! hardly any tiles shows no board. Each refusal says what was counted.

use super::config::ReaderConfig;
use super::ReadError;

/// What the cells of a candidate board came to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Cells read as tiles (paired or not).
    pub tiles: usize,
    /// Tiles whose picture has no twin on the board and matches no type even after a
    /// tint is taken out.
    pub lone: usize,
    /// Tiles of types whose count is odd (a twin misread or hidden).
    pub odd: usize,
    pub rows: usize,
    pub cols: usize,
}

/// Accepts the board, or says why not.
pub fn judge(t: &Tally, cfg: &ReaderConfig) -> Result<(), ReadError> {
    if t.tiles < cfg.min_tiles {
        return Err(ReadError::NoBoard(format!(
            "{} tile-like cells in a {}x{} lattice (need {})",
            t.tiles, t.rows, t.cols, cfg.min_tiles
        )));
    }
    if t.lone as f32 > cfg.max_unpaired_share * t.tiles as f32 {
        return Err(ReadError::NotLianliankan(format!(
            "{} of {} pictures have no twin in the {}x{} grid: tiles here do not come in pairs",
            t.lone, t.tiles, t.rows, t.cols
        )));
    }
    if t.lone + t.odd > cfg.max_unpaired {
        return Err(ReadError::Animation(format!(
            "{} pictures without a twin and {} tiles of odd types in the {}x{} board: it is \
             being redrawn",
            t.lone, t.odd, t.rows, t.cols
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(tiles: usize, lone: usize, odd: usize) -> Tally {
        Tally {
            tiles,
            lone,
            odd,
            rows: 6,
            cols: 14,
        }
    }

    #[test]
    fn a_paired_board_passes_with_a_selection() {
        let cfg = ReaderConfig::default();
        assert!(judge(&tally(84, 0, 0), &cfg).is_ok());
        assert!(judge(&tally(84, 1, 0), &cfg).is_ok());
    }

    #[test]
    fn each_refusal_has_its_kind() {
        let cfg = ReaderConfig::default();
        assert_eq!(judge(&tally(2, 0, 0), &cfg).unwrap_err().kind(), "no-board");
        assert_eq!(
            judge(&tally(15, 14, 0), &cfg).unwrap_err().kind(),
            "not-lianliankan"
        );
        assert_eq!(
            judge(&tally(84, 3, 2), &cfg).unwrap_err().kind(),
            "animation"
        );
    }
}
