//! The search for gravity-free games, where the only real decision is *who pairs with whom*.
//!
//! Without gravity a removal only frees cells, so a pair that links now links after any
//! other moves as well. Two consequences make this search far smaller than walking move
//! orders:
//!
//! - a type whose tiles can all be paired off by links available now can be removed at once
//!   without losing any solution (a *safe* move);
//! - otherwise the search branches on one available pair (a, b) of some type: either the
//!   solution pairs a with b — then removing them now is safe — or it never does, which is
//!   recorded as a *forbidden* pair. With 4 tiles of a type there are only three pairings
//!   ({ab, cd}, {ac, bd}, {ad, bc}), so each type is decided after at most two branchings.
//!
//! The order in which other types are removed never has to be searched, which the plain
//! move-order search spends most of its states on. Used only when every type has 2 or 4
//! tiles; other boards go to the plain search.

use super::dfs::{informed_dfs_with_table, DfsBudget, DfsOutcome, DfsResult};
use super::padded::{Ctx, Idx, Peel, State};
use super::{restart_noise, PaperScorer};
use std::collections::HashSet;
use std::rc::Rc;

/// A search node: the board and the pairs the current branch has ruled out.
#[derive(Clone)]
struct Node {
    st: State,
    forbid: Vec<(Idx, Idx)>,
    /// XOR of the forbidden pairs' keys, folded into the transposition key.
    fhash: u64,
    /// The order in which the relaxation cleared this board's parent: the hint for this
    /// board's own check.
    peel: Rc<[Peel]>,
}

/// A branch: the pair, and the relaxation order of the board it was chosen on.
#[derive(Clone, PartialEq, Debug)]
enum Step {
    /// Remove the pair.
    Take(Idx, Idx, Rc<[Peel]>),
    /// Rule the pair out for the rest of this branch.
    Forbid(Idx, Idx, Rc<[Peel]>),
}

fn edge(x: Idx, y: Idx) -> (Idx, Idx) {
    (x.min(y), x.max(y))
}

/// A well-spread key for a pair (splitmix64 finaliser).
fn pair_key((a, b): (Idx, Idx)) -> u64 {
    let mut z = ((a as u64) << 32 | b as u64).wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The three ways to split four tiles into two pairs.
fn pairings(g: &[Idx]) -> [((Idx, Idx), (Idx, Idx)); 3] {
    let (a, b, c, d) = (g[0], g[1], g[2], g[3]);
    [
        (edge(a, b), edge(c, d)),
        (edge(a, c), edge(b, d)),
        (edge(a, d), edge(b, c)),
    ]
}

/// Whether every type of the board has 2 or 4 tiles, the case this search handles.
pub(crate) fn applies(ctx: &Ctx, st: &State) -> bool {
    let mut groups = Vec::new();
    ctx.groups(st, &mut groups);
    groups.iter().skip(1).all(|g| matches!(g.len(), 0 | 2 | 4))
}

/// Runs the pairing search once (run `run` of the restart schedule: noise is added to F
/// after run 0); the moves are the removals in order. `dead` is the table of refuted
/// nodes, kept across runs.
pub(crate) fn search(
    ctx: &Ctx,
    start: &State,
    run: u64,
    dead: &mut HashSet<u64>,
    limits: &DfsBudget,
) -> DfsResult<(Idx, Idx)> {
    let (mut groups, mut pairs) = (Vec::new(), Vec::new());
    let root = Node {
        st: start.clone(),
        forbid: Vec::new(),
        fhash: 0,
        peel: Rc::from(Vec::new()),
    };
    let res = informed_dfs_with_table(
        root,
        |n: &Node| successors(ctx, n, run, &mut groups, &mut pairs),
        |n, step| {
            let mut next = n.clone();
            match step {
                Step::Take(a, b, peel) => {
                    ctx.remove(&mut next.st, *a, *b);
                    next.peel = peel.clone();
                }
                Step::Forbid(a, b, peel) => {
                    next.forbid.push((*a, *b));
                    next.fhash ^= pair_key((*a, *b));
                    next.peel = peel.clone();
                }
            }
            next
        },
        // Try "pair them" before "never pair them".
        |_, step| matches!(step, Step::Forbid(..)) as u8,
        |n| n.st.hash ^ n.fhash,
        |n| n.st.tiles == 0,
        dead,
        limits,
    );
    let outcome = match res.outcome {
        DfsOutcome::Found(steps) => DfsOutcome::Found(
            steps
                .into_iter()
                .filter_map(|s| match s {
                    Step::Take(a, b, _) => Some((a, b)),
                    Step::Forbid(..) => None,
                })
                .collect(),
        ),
        DfsOutcome::Exhausted => DfsOutcome::Exhausted,
        DfsOutcome::GaveUp => DfsOutcome::GaveUp,
    };
    DfsResult {
        outcome,
        states: res.states,
    }
}

/// Which partners each tile may still pair with: a pair is allowed when some still-possible
/// pairing of its type uses it. Built once per node, so the relaxation's inner loop asks a
/// table instead of scanning the forbidden pairs (which took a fifth of the search's time).
struct Allowed {
    /// A tile's place in its type's group (row-major), by cell.
    slot: Vec<u8>,
    /// Bit `slot[y]` of `mask[x]`: whether x may pair with y.
    mask: Vec<u8>,
}

impl Allowed {
    /// The table for a board whose types all have 2 or 4 tiles (see [`applies`]).
    fn new(st: &State, groups: &[Vec<Idx>], forbidden: impl Fn((Idx, Idx)) -> bool) -> Self {
        let mut slot = vec![0u8; st.cells.len()];
        let mut mask = vec![0u8; st.cells.len()];
        for g in groups.iter().skip(1) {
            for (i, &x) in g.iter().enumerate() {
                slot[x as usize] = i as u8;
            }
            let mut allow = |(x, y): (Idx, Idx)| {
                mask[x as usize] |= 1 << slot[y as usize];
                mask[y as usize] |= 1 << slot[x as usize];
            };
            if g.len() == 4 {
                for (p, q) in pairings(g) {
                    if !forbidden(p) && !forbidden(q) {
                        allow(p);
                        allow(q);
                    }
                }
            } else if g.len() == 2 && !forbidden(edge(g[0], g[1])) {
                allow(edge(g[0], g[1]));
            }
        }
        Allowed { slot, mask }
    }

    /// Whether the tiles at `x` and `y` (of one type) may pair.
    fn get(&self, x: Idx, y: Idx) -> bool {
        self.mask[x as usize] >> self.slot[y as usize] & 1 == 1
    }
}

/// A safe removal if there is one; else a branching on the best allowed pair; nothing when
/// the branch is dead (a type has no pairing left, or no allowed pair links).
fn successors(
    ctx: &Ctx,
    n: &Node,
    run: u64,
    groups: &mut Vec<Vec<Idx>>,
    pairs: &mut Vec<(Idx, Idx)>,
) -> Vec<Step> {
    let st = &n.st;
    ctx.pairs(st, groups, pairs);
    let forbidden = |e: (Idx, Idx)| n.forbid.contains(&e);
    let linked = |e: (Idx, Idx)| pairs.binary_search(&e).is_ok();
    let mut safe = None;
    for g in groups.iter().skip(1) {
        match g.len() {
            2 => {
                let e = edge(g[0], g[1]);
                if forbidden(e) {
                    return Vec::new();
                }
                if safe.is_none() && linked(e) {
                    safe = Some(e);
                }
            }
            4 => {
                let mut alive = 0;
                for (p, q) in pairings(g) {
                    if !forbidden(p) && !forbidden(q) {
                        alive += 1;
                        if safe.is_none() && linked(p) && linked(q) {
                            safe = Some(p);
                        }
                    }
                }
                if alive == 0 {
                    return Vec::new();
                }
            }
            _ => {}
        }
    }
    if let Some((a, b)) = safe {
        return vec![Step::Take(a, b, n.peel.clone())];
    }
    let allowed = Allowed::new(st, groups, forbidden);
    let allowed = |e: (Idx, Idx)| allowed.get(e.0, e.1);
    let Some(peel) = ctx.relaxed_clearable(st, groups, |x, y| allowed(edge(x, y)), &n.peel) else {
        return Vec::new();
    };
    let peel: Rc<[Peel]> = Rc::from(peel);
    let scorer = PaperScorer::new(ctx, st);
    let best = pairs
        .iter()
        .filter(|&&e| allowed(e))
        .map(|&(a, b)| {
            let f = scorer.score(ctx, st, groups, a, b);
            ((a, b), f + restart_noise(run, a, b))
        })
        .min_by(|x, y| x.1.total_cmp(&y.1));
    match best {
        Some(((a, b), _)) => vec![Step::Take(a, b, peel.clone()), Step::Forbid(a, b, peel)],
        None => Vec::new(),
    }
}
