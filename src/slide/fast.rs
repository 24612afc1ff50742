//! Fast, non-optimal solving of any board up to 8×8 by reduction: fix the top row, then the
//! left column, and so on while the rest is larger than 2×2, then finish the last 2×2.
//!
//! Each step is a small exact search: only the blank and the one or two tiles being placed
//! matter (every other free tile may be disturbed), so a breadth-first search over their
//! cells — at most 64³ states — finds the shortest way to place them without touching what
//! is already fixed. The last two tiles of a line are placed together, which is what lets
//! the search find the classic "corner" manoeuvre by itself. Works in the blank-last
//! convention (solved rows are the top ones).

use super::puzzle::{step, Dir, Puzzle, PuzzleError};

/// Why a reduction (the row-and-column solver here, the line placement of
/// [`super::reduce`]) did not bring a board down.
#[derive(Debug, thiserror::Error)]
pub enum ReduceError {
    /// A tile the reduction needs is not on the board.
    #[error("tile {0} is missing from the board")]
    TileMissing(u8),
    /// A line of more tiles than the line search packs.
    #[error("a line of {0} tiles is longer than this search takes")]
    LineTooLong(usize),
    /// The line search ran out of positions: the board cannot be solved.
    #[error("the line at cells {0:?} cannot be placed (unsolvable board?)")]
    LineUnplaceable(Vec<usize>),
    /// The row-and-column reduction ran out of positions: the board cannot be solved.
    #[error("reduction step cannot place tiles at cells {0:?} (unsolvable board?)")]
    StepUnplaceable(Vec<usize>),
    /// A tile left in the final block belongs outside it.
    #[error("tile {0} belongs outside the block it was left in")]
    OutsideBlock(u8),
    /// A board built on the way is not a board.
    #[error(transparent)]
    Puzzle(#[from] PuzzleError),
    /// A line search's moves leave the board: a bug, caught before the moves are used.
    #[error("internal error: a line search produced an impossible move")]
    ImpossibleMove(#[source] PuzzleError),
}

type Result<T> = std::result::Result<T, ReduceError>;

/// Moves solving a solvable blank-last position (not optimal; typically a few times the
/// optimum, found in milliseconds even on 8×8).
pub fn solve_blank_last(start: &Puzzle) -> Result<Vec<Dir>> {
    let (w, h) = (start.width(), start.height());
    let mut board = start.clone();
    let mut locked = 0u64;
    let mut moves = Vec::new();
    let (mut top, mut left) = (0, 0);
    let at = |r: usize, c: usize| r * w + c;
    while h - top > 2 || w - left > 2 {
        let (rows, cols) = (h - top, w - left);
        if rows > 2 && (rows >= cols || cols <= 2) {
            for c in left..w - 2 {
                place(&mut board, &[at(top, c)], &mut locked, &mut moves)?;
            }
            let (a, b) = (at(top, w - 2), at(top, w - 1));
            place_pair(&mut board, a, b, w, &mut locked, &mut moves)?;
            top += 1;
        } else {
            for r in top..h - 2 {
                place(&mut board, &[at(r, left)], &mut locked, &mut moves)?;
            }
            let (a, b) = (at(h - 2, left), at(h - 1, left));
            place_pair(&mut board, a, b, 1, &mut locked, &mut moves)?;
            left += 1;
        }
    }
    place(
        &mut board,
        &[at(top, left), at(top, left + 1), at(top + 1, left)],
        &mut locked,
        &mut moves,
    )?;
    Ok(moves)
}

/// Places the last two tiles of a line, `a` then `b` (the line's end), where `beside` is
/// the step from `a` into the unsolved part. A search over both tiles from a random spot
/// can visit 64³ states; staging them first the classic way — `b`'s tile into `a`, then
/// `a`'s tile next to it — leaves a search of a few moves.
fn place_pair(
    board: &mut Puzzle,
    a: usize,
    b: usize,
    beside: usize,
    locked: &mut u64,
    moves: &mut Vec<Dir>,
) -> Result<()> {
    // Staging can trap `a`'s tile beside the dead-end cell `b`; then fall back to the
    // full search from where we started, which always succeeds.
    let (saved, done) = (board.clone(), moves.len());
    let mut staged = *locked;
    let ok = place_tiles(board, &[((b + 1) as u8, a)], &mut staged, moves)
        .and_then(|_| place_tiles(board, &[((a + 1) as u8, a + beside)], &mut staged, moves));
    if ok.is_err() {
        *board = saved;
        moves.truncate(done);
    }
    place(board, &[a, b], locked, moves)
}

/// Brings the tiles that belong in `cells` (tile `cell + 1`) home by the fewest moves that
/// keep `locked` cells still, plays them on `board`, then locks `cells`.
fn place(
    board: &mut Puzzle,
    cells: &[usize],
    locked: &mut u64,
    moves: &mut Vec<Dir>,
) -> Result<()> {
    let targets: Vec<(u8, usize)> = cells.iter().map(|&c| ((c + 1) as u8, c)).collect();
    place_tiles(board, &targets, locked, moves)
}

/// Brings each `(tile, cell)` of `targets` to its cell by the fewest moves that keep
/// `locked` cells still, plays them on `board`, then locks those cells.
fn place_tiles(
    board: &mut Puzzle,
    targets: &[(u8, usize)],
    locked: &mut u64,
    moves: &mut Vec<Dir>,
) -> Result<()> {
    let cells: Vec<usize> = targets.iter().map(|&(_, c)| c).collect();
    let cells = &cells[..];
    let (w, h) = (board.width(), board.height());
    let n = w * h;
    let free: Vec<usize> = (0..n).filter(|&c| *locked & (1 << c) == 0).collect();
    let mut fidx = [usize::MAX; 64];
    for (i, &c) in free.iter().enumerate() {
        fidx[c] = i;
    }
    let f = free.len();
    let k = cells.len();
    let size = f.pow(k as u32 + 1);
    let encode = |blank: usize, pos: &[usize]| -> usize {
        pos.iter().rev().fold(0, |acc, &p| acc * f + p) * f + blank
    };
    let mut pos = [0usize; 3];
    for (i, &(tile, _)) in targets.iter().enumerate() {
        let Some(cell) = board.tiles().iter().position(|&t| t == tile) else {
            return Err(ReduceError::TileMissing(tile));
        };
        pos[i] = fidx[cell];
    }
    let goal: Vec<usize> = cells.iter().map(|&c| fidx[c]).collect();
    let start = encode(fidx[board.blank()], &pos[..k]);
    let goal_blank_free = |s: usize| {
        let mut s = s / f;
        goal.iter().all(|&g| {
            let ok = s % f == g;
            s /= f;
            ok
        })
    };
    let mut parent = vec![u32::MAX; size];
    let mut pdir = vec![0u8; size];
    parent[start] = start as u32;
    let mut queue = vec![start as u32];
    let mut head = 0;
    let mut found = None;
    if goal_blank_free(start) {
        found = Some(start);
    }
    while found.is_none() && head < queue.len() {
        let s = queue[head] as usize;
        head += 1;
        let blank = free[s % f];
        let mut rest = s / f;
        for p in pos.iter_mut().take(k) {
            *p = rest % f;
            rest /= f;
        }
        for (di, &d) in Dir::ALL.iter().enumerate() {
            let Some(q) = step(blank, d, w, h) else {
                continue;
            };
            if *locked & (1 << q) != 0 {
                continue;
            }
            let qf = fidx[q];
            let mut np = pos;
            for p in np.iter_mut().take(k) {
                if *p == qf {
                    *p = fidx[blank];
                }
            }
            let ns = encode(qf, &np[..k]);
            if parent[ns] == u32::MAX {
                parent[ns] = s as u32;
                pdir[ns] = di as u8;
                if goal_blank_free(ns) {
                    found = Some(ns);
                    break;
                }
                queue.push(ns as u32);
            }
        }
    }
    let Some(mut s) = found else {
        return Err(ReduceError::StepUnplaceable(cells.to_vec()));
    };
    let mut path = Vec::new();
    while s != start {
        path.push(Dir::ALL[pdir[s] as usize]);
        s = parent[s] as usize;
    }
    path.reverse();
    board.apply_all(&path)?;
    moves.extend(path);
    for &c in cells {
        *locked |= 1 << c;
    }
    Ok(())
}
