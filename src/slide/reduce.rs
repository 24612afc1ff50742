//! Boards over 5×5 (up to 8×8): solve the top row or the left column of what is left, one
//! line at a time, until a 5×5 block remains, and finish that block with the 5×5
//! solver. Works in the blank-last convention (solved lines are the top and left ones, and
//! the 5×5 block is the bottom-right corner, whose goal is again blank-last).
//!
//! A line is placed, 5 tiles at a time (`LINE_CHUNK`), by weighted A* over an abstraction
//! in which only the line's tiles and the blank are told apart (every other free tile is
//! interchangeable), with the admissible estimate "Manhattan distance of the line's
//! misplaced tiles, plus the blank's distance to the nearest of them, less one". Placing
//! the line's tiles jointly, not one by one as the row-and-column reduction (`fast`) does,
//! is what saves its moves: the reduction re-disturbs the tiles it has not locked yet, and
//! stages the line's last two tiles by a fixed manoeuvre.

use super::fast::ReduceError;
use super::puzzle::{step, Dir, Puzzle};
use super::wastar::Seen;
use std::collections::hash_map::Entry;

type Result<T> = std::result::Result<T, ReduceError>;

/// Weights of a line search and the expansions each may take, tried in turn. Measured
/// with `LINE_CHUNK` 5 on 20 random boards of each size (both goals): 3.0 gave 6×6 / 7×7 /
/// 8×8 solutions 40.6 / 35.7 / 32.0 % shorter than the row-and-column reduction; 2.5 was
/// about as short (−42.7 / −35.7 %) but up to 7 s on a board, and gave up on a 7×7 line;
/// 4.0 was faster and ~10 % longer. One 7×7 board in 100 needed more than 2M expansions
/// (~2 s) at 3.0; the larger weight finishes such a line instead.
pub const LINE_STEPS: [(f64, u64); 2] = [(3.0, 400_000), (6.0, 400_000)];

/// Tiles added to a line's search at a time: the search for the first `m` tiles starts
/// where the previous one left the first `m − 5`, which it may move again. Whole lines
/// (8 tiles) ran out of nodes on 8×8 at weight 2–3; chunks of 2, 3, 4 and 5 gave 8×8
/// boards of 816, 758, 746 and 733 moves on average (6 boards, weight 3).
pub const LINE_CHUNK: usize = 5;

/// Side of the block the lines reduce a board to.
pub const BLOCK: usize = 5;

/// Moves that bring a solvable blank-last board of more than 5 rows or columns down to its
/// bottom-right 5×5 block (lines of the remaining part, longest first), played on `board`,
/// and the number of rows and columns solved above and left of that block. `None` when a
/// line search ran out of nodes at every weight of `LINE_STEPS` (the caller then falls back
/// to the row-and-column reduction).
pub fn reduce_to_block(board: &mut Puzzle) -> Result<Option<(Vec<Dir>, usize, usize)>> {
    let (w, h) = (board.width(), board.height());
    let (mut top, mut left) = (0, 0);
    let mut locked = 0u64;
    let mut moves = Vec::new();
    while h - top > BLOCK || w - left > BLOCK {
        let (rows, cols) = (h - top, w - left);
        let line: Vec<usize> = if rows >= cols {
            (left..w).map(|c| top * w + c).collect()
        } else {
            (top..h).map(|r| r * w + left).collect()
        };
        let mut m = 0;
        while m < line.len() {
            m = (m + LINE_CHUNK).min(line.len());
            if line.len() - m == 1 {
                m += 1; // never leave the line's last tile alone: it needs its neighbour
            }
            let mut found = None;
            for (weight, budget) in LINE_STEPS {
                found = place_line(board, &line[..m], locked, weight, budget)?;
                if found.is_some() {
                    break;
                }
            }
            let Some(path) = found else {
                return Ok(None);
            };
            board
                .apply_all(&path)
                .map_err(ReduceError::ImpossibleMove)?;
            moves.extend(path);
        }
        for &c in &line {
            locked |= 1 << c;
        }
        if rows >= cols {
            top += 1;
        } else {
            left += 1;
        }
    }
    Ok(Some((moves, top, left)))
}

/// The bottom-right `BLOCK`×`BLOCK` block of a blank-last board whose other cells are
/// solved, relabelled as a 5×5 blank-last board (tile `t` of the big board, which belongs at
/// cell `t − 1`, becomes the block's tile for that cell).
pub fn block_of(board: &Puzzle, top: usize, left: usize) -> Result<Puzzle> {
    let w = board.width();
    let (bw, bh) = (board.width() - left, board.height() - top);
    let mut tiles = Vec::with_capacity(bw * bh);
    for r in top..board.height() {
        for c in left..w {
            let t = board.tiles()[r * w + c] as usize;
            if t == 0 {
                tiles.push(0);
                continue;
            }
            let (gr, gc) = ((t - 1) / w, (t - 1) % w);
            if gr < top || gc < left {
                return Err(ReduceError::OutsideBlock(t as u8));
            }
            tiles.push(((gr - top) * bw + (gc - left) + 1) as u8);
        }
    }
    Ok(Puzzle::new(bw, bh, tiles)?)
}

/// Estimate of the line search: the Manhattan distance of the line's tiles to their cells,
/// plus the blank's distance to the nearest misplaced one less one (every move before the
/// blank reaches a misplaced tile either moves no line tile or moves a placed one away).
fn line_estimate(blank: usize, pos: &[usize], goal: &[usize], w: usize) -> u32 {
    let md = |a: usize, b: usize| ((a / w).abs_diff(b / w) + (a % w).abs_diff(b % w)) as u32;
    let mut sum = 0;
    let mut near = u32::MAX;
    for (&p, &g) in pos.iter().zip(goal) {
        if p != g {
            sum += md(p, g);
            near = near.min(md(blank, p));
        }
    }
    if near == u32::MAX {
        0
    } else {
        sum + near - 1
    }
}

/// A node of the line search: the blank's cell and the line tiles' cells, 6 bits each.
struct LineNode {
    key: u64,
    parent: u32,
    g: u16,
    dir: u8,
    closed: bool,
}

fn pack(blank: usize, pos: &[usize]) -> u64 {
    pos.iter()
        .enumerate()
        .fold(blank as u64, |k, (j, &p)| k | (p as u64) << (6 * (j + 1)))
}

/// Moves that bring the tiles of the blank-last goal's `cells` (tile `c + 1` for cell `c`)
/// home without moving a `locked` cell: weighted A* over (blank, line tiles) with the
/// weight `weight`. `None` when `max_nodes` expansions were not enough.
pub fn place_line(
    board: &Puzzle,
    cells: &[usize],
    locked: u64,
    weight: f64,
    max_nodes: u64,
) -> Result<Option<Vec<Dir>>> {
    let (w, h) = (board.width(), board.height());
    let k = cells.len();
    if k > 9 {
        return Err(ReduceError::LineTooLong(k));
    }
    let mut start = Vec::with_capacity(k);
    for &c in cells {
        let t = (c + 1) as u8;
        let at = board.tiles().iter().position(|&x| x == t);
        start.push(at.ok_or(ReduceError::TileMissing(t))?);
    }
    let wn = (weight * 16.0).floor().max(16.0) as usize;
    let prio = |g: u16, h: u32| 16 * g as usize + wn * h as usize;
    let mut nodes = vec![LineNode {
        key: pack(board.blank(), &start),
        parent: u32::MAX,
        g: 0,
        dir: 4,
        closed: false,
    }];
    let mut seen = Seen::<u64>::default();
    seen.insert(nodes[0].key, 0);
    let mut open: Vec<Vec<u32>> = Vec::new();
    let push = |open: &mut Vec<Vec<u32>>, f: usize, i: u32| {
        if open.len() <= f {
            open.resize_with(f + 1, Vec::new);
        }
        open[f].push(i);
    };
    let h0 = line_estimate(board.blank(), &start, cells, w);
    push(&mut open, prio(0, h0), 0);
    let mut lowest = prio(0, h0);
    let mut expanded = 0u64;
    let mut pos = vec![0usize; k];
    let unpack = |key: u64, pos: &mut [usize]| {
        for (j, p) in pos.iter_mut().enumerate() {
            *p = ((key >> (6 * (j + 1))) & 63) as usize;
        }
        (key & 63) as usize
    };
    loop {
        while lowest < open.len() && open[lowest].is_empty() {
            lowest += 1;
        }
        let Some(i) = open.get_mut(lowest).and_then(|b| b.pop()) else {
            return Err(ReduceError::LineUnplaceable(cells.to_vec()));
        };
        let i = i as usize;
        if nodes[i].closed {
            continue;
        }
        let (key, g) = (nodes[i].key, nodes[i].g);
        let blank = unpack(key, &mut pos);
        let hv = line_estimate(blank, &pos, cells, w);
        if prio(g, hv) != lowest {
            continue; // stale entry of a node since reached by a shorter path
        }
        if hv == 0 {
            let mut moves = Vec::new();
            let mut j = i;
            while nodes[j].parent != u32::MAX {
                moves.push(Dir::ALL[nodes[j].dir as usize]);
                j = nodes[j].parent as usize;
            }
            moves.reverse();
            return Ok(Some(moves));
        }
        expanded += 1;
        if expanded > max_nodes {
            return Ok(None);
        }
        nodes[i].closed = true;
        let back = 3u8.wrapping_sub(nodes[i].dir);
        for (d, &dir) in Dir::ALL.iter().enumerate() {
            let d = d as u8;
            let Some(q) = step(blank, dir, w, h) else {
                continue;
            };
            if d == back || locked & (1 << q) != 0 {
                continue;
            }
            let mut np = [0usize; 9];
            np[..k].copy_from_slice(&pos);
            if let Some(j) = pos.iter().position(|&p| p == q) {
                np[j] = blank;
            }
            let ck = pack(q, &np[..k]);
            let cg = g + 1;
            let f = prio(cg, line_estimate(q, &np[..k], cells, w));
            match seen.entry(ck) {
                Entry::Vacant(e) => {
                    e.insert(nodes.len() as u32);
                    push(&mut open, f, nodes.len() as u32);
                    nodes.push(LineNode {
                        key: ck,
                        parent: i as u32,
                        g: cg,
                        dir: d,
                        closed: false,
                    });
                }
                Entry::Occupied(e) => {
                    let j = *e.get() as usize;
                    if nodes[j].closed || nodes[j].g <= cg {
                        continue;
                    }
                    nodes[j].g = cg;
                    nodes[j].parent = i as u32;
                    nodes[j].dir = d;
                    push(&mut open, f, j as u32);
                }
            }
            lowest = lowest.min(f);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slide::puzzle::Goal;

    /// Each line search leaves its line solved and the locked cells untouched, and the
    /// block left is a solvable 5×5 blank-last board whose solution finishes the big one.
    #[test]
    fn lines_reduce_big_boards_to_a_solvable_block() {
        for (w, h) in [(6, 6), (8, 7), (6, 8)] {
            for seed in 0..3 {
                let start = Puzzle::random(w, h, Goal::BlankLast, seed).unwrap();
                let mut board = start.clone();
                let (moves, top, left) = reduce_to_block(&mut board).unwrap().unwrap();
                assert_eq!((h - top, w - left), (BLOCK, BLOCK), "{h}x{w}");
                let mut replay = start.clone();
                replay.apply_all(&moves).unwrap();
                assert_eq!(replay, board);
                for r in 0..h {
                    for c in 0..w {
                        if r < top || c < left {
                            assert_eq!(board.tiles()[r * w + c] as usize, r * w + c + 1);
                        }
                    }
                }
                let block = block_of(&board, top, left).unwrap();
                assert!(block.is_solvable(Goal::BlankLast), "{h}x{w} seed {seed}");
            }
        }
    }

    /// A line whose tiles are already home needs no move; a locked cell is never entered.
    #[test]
    fn a_solved_line_needs_nothing_and_locked_cells_stay() {
        let p = Puzzle::solved(6, 6, Goal::BlankLast).unwrap();
        let top: Vec<usize> = (0..6).collect();
        assert_eq!(place_line(&p, &top, 0, 2.0, 1000).unwrap(), Some(vec![]));
        let q = Puzzle::random(6, 6, Goal::BlankLast, 9).unwrap();
        let moves = place_line(&q, &top, 0, 2.0, u64::MAX).unwrap().unwrap();
        let mut r = q.clone();
        r.apply_all(&moves).unwrap();
        assert!((0..6).all(|c| r.tiles()[c] as usize == c + 1));
        let col: Vec<usize> = (1..6).map(|row| row * 6).collect();
        let moves = place_line(&r, &col, 0b111111, 2.0, u64::MAX)
            .unwrap()
            .unwrap();
        let mut s = r.clone();
        s.apply_all(&moves).unwrap();
        assert_eq!(&s.tiles()[..6], &r.tiles()[..6]);
        assert!(col.iter().all(|&c| s.tiles()[c] as usize == c + 1));
    }
}
