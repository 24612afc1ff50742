//! Reading the team's benchmark files (`korf100.txt`, `hard8.txt`, `hard15_80.txt`,
//! `korf24.txt`): one position per line, `#` comments, optional `BF`/`BL` convention tag,
//! an id, the tiles, the optimal length, then any published figures.

use super::puzzle::{Goal, Puzzle, PuzzleError};

/// Why a benchmark file does not parse; each names the line, counted from 1.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// A line with fewer than an id and numbers.
    #[error("line {0}: expected an id, tiles and an optimal length")]
    Short(usize),
    /// A line whose numbers start with no complete square set of tiles.
    #[error("line {0}: no square board of tiles 0..k-1 found")]
    NoBoard(usize),
    /// A line whose tiles are not a board.
    #[error("line {line}")]
    Board {
        /// The line.
        line: usize,
        /// Why its tiles are not a board.
        #[source]
        source: PuzzleError,
    },
    /// No position in the whole text.
    #[error("no positions found (expected lines of: [BF|BL] id tiles… optimal …)")]
    Empty,
}

/// One benchmark position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchCase {
    /// The line's id (`1`, `H1`, `D17`, …).
    pub id: String,
    /// Goal convention of the line (`BF`/`BL` tag; blank-first when untagged, as Korf's).
    pub goal: Goal,
    /// The position.
    pub puzzle: Puzzle,
    /// The listed optimal length.
    pub optimal: usize,
    /// The numbers after the optimal length (e.g. Korf 1985 node counts), in file order.
    pub figures: Vec<u64>,
}

/// Largest square count `k` (4, 9, …, 64) such that the first `k` numbers are a
/// permutation of `0..k`: the board is whatever prefix is a complete set of tiles.
fn board_len(nums: &[u64]) -> Option<usize> {
    (2..=8usize).rev().map(|s| s * s).find(|&k| {
        nums.len() > k && {
            let mut seen = vec![false; k];
            nums[..k].iter().all(|&v| {
                let ok = (v as usize) < k && !seen[v as usize];
                if ok {
                    seen[v as usize] = true;
                }
                ok
            })
        }
    })
}

/// Parses a benchmark file's text; errors name the line.
pub fn parse_cases(text: &str) -> Result<Vec<BenchCase>, BenchError> {
    let mut out = Vec::new();
    for (ln, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut toks: Vec<&str> = line.split_whitespace().collect();
        let goal = match toks[0] {
            "BF" => Some(Goal::BlankFirst),
            "BL" => Some(Goal::BlankLast),
            _ => None,
        };
        if goal.is_some() {
            toks.remove(0);
        }
        let goal = goal.unwrap_or(Goal::BlankFirst);
        if toks.len() < 2 {
            return Err(BenchError::Short(ln + 1));
        }
        let id = toks[0].to_string();
        // Numbers only; words such as "own_ok" are notes and skipped.
        let nums: Vec<u64> = toks[1..].iter().filter_map(|t| t.parse().ok()).collect();
        let k = board_len(&nums).ok_or(BenchError::NoBoard(ln + 1))?;
        let side = (k as f64).sqrt().round() as usize;
        let puzzle = Puzzle::new(side, side, nums[..k].iter().map(|&v| v as u8).collect())
            .map_err(|source| BenchError::Board {
                line: ln + 1,
                source,
            })?;
        out.push(BenchCase {
            id,
            goal,
            puzzle,
            optimal: nums[k] as usize,
            figures: nums[k + 1..].to_vec(),
        });
    }
    if out.is_empty() {
        return Err(BenchError::Empty);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_both_layouts() {
        let t = "# c\nBF H1 8 0 6 5 4 7 2 3 1 31\n\
                 1 14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3 57 276361933 276361933 41\n";
        let c = parse_cases(t).unwrap();
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].optimal, 31);
        assert_eq!(c[0].puzzle.width(), 3);
        assert_eq!(c[1].puzzle.width(), 4);
        assert_eq!(c[1].optimal, 57);
        assert_eq!(c[1].figures, vec![276361933, 276361933, 41]);
        assert!(matches!(
            parse_cases("x 1 2 3"),
            Err(BenchError::NoBoard(1))
        ));
        assert!(matches!(parse_cases("# only\n"), Err(BenchError::Empty)));
    }
}
