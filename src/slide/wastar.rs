//! Weighted A* (Pohl 1970): best-first on `f = g + W·h` with an admissible, consistent
//! estimate `h`, so the solution found is at most `W` times the optimal length (without
//! re-expanding closed states, as Likhachev, Gordon & Thrun 2003 show for consistent
//! estimates). Blank-first goal; boards of up to 25 cells (a board is one `u128` key, 5 bits
//! a cell).
//!
//! The open list is a bucket queue on the integer `64·g + ⌊64·W⌋·h` (the weight is rounded
//! down to 1/64, which keeps the bound), last in first out within a bucket: among equal
//! priorities the newest, deepest node goes first, which is what makes a weighted search
//! dive. Each stored node keeps its estimate's summary (`Incremental::Acc`), so a child's
//! estimate is one incremental update, as in IDA*.

use super::ida::Incremental;
use super::puzzle::{step, Dir};
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Instant;

/// Hashes a board key by one folded 64×64→128-bit multiply: the std SipHash made the
/// visited map the largest cost of an expansion.
#[derive(Default)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }
    fn write_u64(&mut self, x: u64) {
        let m = ((self.0 ^ x) as u128).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = (m as u64) ^ ((m >> 64) as u64);
    }
    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }
}

/// Visited states (by key) and their node index.
pub type Seen<K = u128> = HashMap<K, u32, BuildHasherDefault<KeyHasher>>;

/// Most cells of a board this search takes (25 cells of 5 bits fill 125 of a key's bits).
pub const MAX_CELLS: usize = 25;

/// What a weighted A* run found and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WastarOutcome {
    /// Blank moves of a solution at most `W` times the optimal length.
    pub moves: Vec<Dir>,
    /// Nodes expanded.
    pub expanded: u64,
    /// Children generated.
    pub generated: u64,
}

/// A stored node: its board, how it was reached, and its estimate's summary.
struct Node<A> {
    key: u128,
    parent: u32,
    g: u16,
    blank: u8,
    /// Direction the blank moved to reach this node (`Dir::ALL` index, whose opposite is
    /// `3 − index`; 4 at the start).
    dir: u8,
    closed: bool,
    acc: A,
}

fn encode(tiles: &[u8]) -> u128 {
    tiles
        .iter()
        .enumerate()
        .fold(0u128, |k, (c, &t)| k | (t as u128) << (5 * c))
}

fn decode(key: u128, tiles: &mut [u8]) {
    for (c, t) in tiles.iter_mut().enumerate() {
        *t = ((key >> (5 * c)) & 31) as u8;
    }
}

/// Scale of the priorities: the weight is used as `⌊64·W⌋ / 64`.
const SCALE: u64 = 64;

/// A solution of a blank-first position (`tiles` row-major, `width` per row) at most
/// `weight` × optimal long (`weight` ≥ 1; 1 is plain A*), or `Err(nodes expanded)` when
/// `max_nodes` expansions or the `deadline` came first. The caller checks solvability (an
/// unsolvable board would fill memory up to `max_nodes`).
///
/// ```
/// use llk::slide::ida::ManhattanH;
/// use llk::slide::wastar::wastar;
/// let tiles = [1, 0, 2, 3, 4, 5, 6, 7, 8];
/// let out = wastar(3, 3, &tiles, &ManhattanH::new(3, 3), 2.0, u64::MAX, None).unwrap();
/// assert_eq!(out.moves.len(), 1);
/// ```
pub fn wastar<H: Incremental>(
    width: usize,
    height: usize,
    tiles: &[u8],
    heur: &H,
    weight: f64,
    max_nodes: u64,
    deadline: Option<Instant>,
) -> Result<WastarOutcome, u64> {
    let cells = width * height;
    if cells > MAX_CELLS || tiles.len() != cells || weight.is_nan() || weight < 1.0 {
        return Err(0);
    }
    let wn = ((weight * SCALE as f64).floor() as u64).max(SCALE);
    let nbrs: Vec<Vec<(u8, usize)>> = (0..cells)
        .map(|c| {
            Dir::ALL
                .iter()
                .enumerate()
                .filter_map(|(i, &d)| step(c, d, width, height).map(|q| (i as u8, q)))
                .collect()
        })
        .collect();
    let goal = encode(&(0..cells as u8).collect::<Vec<u8>>());
    let blank = tiles.iter().position(|&t| t == 0).ok_or(0u64)?;
    let acc = heur.init(tiles);
    let mut nodes: Vec<Node<H::Acc>> = vec![Node {
        key: encode(tiles),
        parent: u32::MAX,
        g: 0,
        blank: blank as u8,
        dir: 4,
        closed: false,
        acc,
    }];
    let mut seen = Seen::default();
    seen.insert(nodes[0].key, 0);
    let prio = |g: u16, h: u32| (SCALE * g as u64 + wn * h as u64) as usize;
    let mut open: Vec<Vec<u32>> = Vec::new();
    let push = |open: &mut Vec<Vec<u32>>, f: usize, i: u32| {
        if open.len() <= f {
            open.resize_with(f + 1, Vec::new);
        }
        open[f].push(i);
    };
    let f0 = prio(0, heur.h(&acc));
    push(&mut open, f0, 0);
    let mut lowest = f0;
    let (mut expanded, mut generated) = (0u64, 1u64);
    let mut board = vec![0u8; cells];
    loop {
        while lowest < open.len() && open[lowest].is_empty() {
            lowest += 1;
        }
        let Some(i) = open.get_mut(lowest).and_then(|b| b.pop()) else {
            return Err(expanded); // open list exhausted: no solution (unsolvable board)
        };
        let i = i as usize;
        let n = &nodes[i];
        // A node pushed again with a smaller g left a stale entry behind.
        if n.closed || prio(n.g, heur.h(&n.acc)) != lowest {
            continue;
        }
        if n.key == goal {
            return Ok(WastarOutcome {
                moves: path(&nodes, i),
                expanded,
                generated,
            });
        }
        expanded += 1;
        if expanded > max_nodes
            || (expanded & 0xfff == 0 && deadline.is_some_and(|d| Instant::now() >= d))
        {
            return Err(expanded);
        }
        nodes[i].closed = true;
        let (key, g, b, back, acc) = {
            let n = &nodes[i];
            (n.key, n.g, n.blank as usize, 3u8.wrapping_sub(n.dir), n.acc)
        };
        decode(key, &mut board);
        for &(d, q) in &nbrs[b] {
            if d == back {
                continue;
            }
            let tile = board[q];
            board[b] = tile;
            board[q] = 0;
            // The child's key: the tile moves from q to b, the blank from b to q.
            let ck = key ^ (tile as u128) << (5 * q) ^ (tile as u128) << (5 * b);
            generated += 1;
            let cg = g + 1;
            let slot = match seen.entry(ck) {
                Entry::Vacant(e) => {
                    e.insert(nodes.len() as u32);
                    None
                }
                Entry::Occupied(e) => Some(*e.get() as usize),
            };
            match slot {
                None => {
                    let cacc = heur.update(&acc, &board, tile, q, b, u32::MAX);
                    let f = prio(cg, heur.h(&cacc));
                    let ci = nodes.len() as u32;
                    nodes.push(Node {
                        key: ck,
                        parent: i as u32,
                        g: cg,
                        blank: q as u8,
                        dir: d,
                        closed: false,
                        acc: cacc,
                    });
                    push(&mut open, f, ci);
                    // With W > 1 a child can rank before its parent.
                    lowest = lowest.min(f);
                }
                Some(j) if !nodes[j].closed && nodes[j].g > cg => {
                    let n = &mut nodes[j];
                    n.g = cg;
                    n.parent = i as u32;
                    n.dir = d;
                    let f = prio(cg, heur.h(&n.acc));
                    push(&mut open, f, j as u32);
                    lowest = lowest.min(f);
                }
                Some(_) => {}
            }
            board[q] = tile;
            board[b] = 0;
        }
    }
}

/// The blank moves from the start to node `i`.
fn path<A>(nodes: &[Node<A>], mut i: usize) -> Vec<Dir> {
    let mut moves = Vec::new();
    while nodes[i].parent != u32::MAX {
        moves.push(Dir::ALL[nodes[i].dir as usize]);
        i = nodes[i].parent as usize;
    }
    moves.reverse();
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::slide::ida::{ida_star, ConflictH, ManhattanH};
    use crate::slide::puzzle::{Goal, Puzzle};

    /// On random 8- and 11-puzzles, the solution reaches the goal and is at most W × the
    /// optimal length that IDA* finds, for several weights; W = 1 is optimal.
    #[test]
    fn solutions_are_valid_and_within_the_bound() {
        for (w, h) in [(3, 3), (4, 3)] {
            let md = ManhattanH::new(w, h);
            let lc = ConflictH::new(w, h);
            for seed in 0..12 {
                let p = Puzzle::random(w, h, Goal::BlankFirst, seed).unwrap();
                let opt = ida_star(w, h, p.tiles(), &lc, u64::MAX)
                    .unwrap()
                    .moves
                    .len();
                for weight in [1.0, 1.2, 1.5, 3.0] {
                    let out = wastar(w, h, p.tiles(), &md, weight, u64::MAX, None).unwrap();
                    let mut q = p.clone();
                    q.apply_all(&out.moves).unwrap();
                    assert!(q.is_goal(Goal::BlankFirst), "{h}x{w} seed {seed}");
                    let len = out.moves.len();
                    assert!(
                        len as f64 <= weight * opt as f64,
                        "{len} > {weight} × {opt}"
                    );
                    if weight == 1.0 {
                        assert_eq!(len, opt);
                    }
                }
            }
        }
    }

    /// The node limit is reported as a give-up, and so is an unsolvable board whose whole
    /// reachable half is searched (2×2: 12 states).
    #[test]
    fn limits_and_exhaustion_give_up() {
        let p = Puzzle::random(4, 3, Goal::BlankFirst, 3).unwrap();
        let md = ManhattanH::new(4, 3);
        assert!(wastar(4, 3, p.tiles(), &md, 1.0, 5, None).is_err());
        let swapped = [0u8, 2, 1, 3];
        assert!(wastar(2, 2, &swapped, &ManhattanH::new(2, 2), 1.0, u64::MAX, None).is_err());
        assert!(wastar(3, 3, &[0; 9], &md, 0.5, u64::MAX, None).is_err());
    }
}
