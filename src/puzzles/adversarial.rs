//! One small API for two-player, zero-sum, turn-taking games: a [`TwoPlayerGame`] states its legal
//! moves, the result of a move, when the game is over and a heuristic value for positions the
//! search cannot see to the end; [`minimax`], [`alphabeta`] and [`negamax`] play any of them.
//!
//! Every score is from the point of view of the side to move in the searched position: a win
//! in `n` plies scores `G::WIN - n`, a loss in `n` plies `-(G::WIN - n)`, a draw 0, so the
//! search prefers quick wins and slow losses, and the three searches give the same score.

use std::fmt::Debug;
use std::time::Instant;

/// How a finished game ended, seen by the side that would move next (in a game where the
/// last mover is the only one who can have just won, the side to move can only have lost).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terminal {
    /// The previous move won: the side to move has lost.
    Lost,
    /// Nobody can move and nobody won.
    Drawn,
}

/// A two-player game where the players alternate, in the shape the searches need.
pub trait TwoPlayerGame {
    /// A whole position, including whose turn it is.
    type State: Clone;
    /// One move; small and copyable so search results and human input can carry it.
    type Move: Copy + Eq + Debug;
    /// The score of a win on the spot; heuristic values must stay well below it (under half)
    /// so a found win always outranks a good-looking position.
    const WIN: i32;

    /// The legal moves, best-guess first (good ordering is what makes alpha-beta prune);
    /// empty once the game is over.
    fn moves(&self, state: &Self::State) -> Vec<Self::Move>;
    /// The position after `mv`, which must be one of [`TwoPlayerGame::moves`].
    fn play(&self, state: &Self::State, mv: Self::Move) -> Self::State;
    /// `Some` once the game is over.
    fn terminal(&self, state: &Self::State) -> Option<Terminal>;
    /// A guess at how good an unfinished `state` is for the side to move, used where the
    /// depth limit stops the search.
    fn evaluate(&self, state: &Self::State) -> i32;
}

/// What a search found: the move to play, its score for the side to move, and the number of
/// positions visited (the figure that shows what pruning saves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The best move, the first one in move order among equals; `None` when the game is over.
    pub best: Option<M>,
    /// The value of the position for the side to move (see the module notes).
    pub score: i32,
    /// Positions visited, the root included.
    pub nodes: u64,
}

/// Larger than any score, and safe to negate.
const INF: i32 = i32::MAX - 1;

/// Positions visited, and the deadline that stops a search: checked every 4096 positions
/// (connect-four minimax measured 1.2 µs a position on a loaded 2-core machine, so a stop
/// comes within milliseconds of the deadline). Once stopped, every level returns at once with a
/// meaningless value that the root throws away.
struct Count {
    n: u64,
    deadline: Option<Instant>,
    stopped: bool,
}

impl Count {
    fn new(deadline: Option<Instant>) -> Count {
        Count {
            n: 1,
            deadline,
            stopped: false,
        }
    }

    /// Counts one position; true when the search must stop.
    fn visit(&mut self) -> bool {
        self.n += 1;
        if self.n & 0xfff == 0 {
            if let Some(d) = self.deadline {
                self.stopped |= Instant::now() >= d;
            }
        }
        self.stopped
    }
}

/// The value of a finished game at `ply` plies below the root, for the side to move there.
fn terminal_value<G: TwoPlayerGame>(t: Terminal, ply: u32) -> i32 {
    match t {
        Terminal::Lost => -(G::WIN - ply as i32),
        Terminal::Drawn => 0,
    }
}

/// Plain minimax, without pruning: every position up to `depth` plies (at least one) is
/// visited, which makes its node count the baseline that the pruning searches are measured
/// against.
///
/// # Example
///
/// Nim with one heap of 5 and takes of 1 or 2: taking 2 leaves a multiple of 3 and wins.
///
/// ```
/// use llk::puzzles::adversarial::{minimax, Terminal, TwoPlayerGame};
///
/// struct Nim;
/// impl TwoPlayerGame for Nim {
///     type State = u32;
///     type Move = u32;
///     const WIN: i32 = 100;
///     fn moves(&self, s: &u32) -> Vec<u32> { (1..=2).filter(|t| t <= s).collect() }
///     fn play(&self, s: &u32, t: u32) -> u32 { s - t }
///     // Whoever takes the last stone wins, so the side facing an empty heap has lost.
///     fn terminal(&self, s: &u32) -> Option<Terminal> { (*s == 0).then_some(Terminal::Lost) }
///     fn evaluate(&self, _: &u32) -> i32 { 0 }
/// }
///
/// let r = minimax(&Nim, &5, 10);
/// assert_eq!(r.best, Some(2));
/// assert!(r.score > 0);
/// ```
pub fn minimax<G: TwoPlayerGame>(game: &G, state: &G::State, depth: u32) -> SearchResult<G::Move> {
    minimax_until(game, state, depth, &mut Count::new(None)).expect("no deadline")
}

fn minimax_until<G: TwoPlayerGame>(
    game: &G,
    state: &G::State,
    depth: u32,
    nodes: &mut Count,
) -> Option<SearchResult<G::Move>> {
    let depth = depth.max(1);
    if let Some(t) = game.terminal(state) {
        return Some(leaf::<G>(terminal_value::<G>(t, 0), nodes.n));
    }
    let mut best = None;
    let mut best_score = -INF;
    for mv in game.moves(state) {
        let child = game.play(state, mv);
        let v = minimax_value(game, &child, depth - 1, 1, false, nodes);
        if v > best_score {
            best_score = v;
            best = Some(mv);
        }
    }
    (!nodes.stopped).then(|| finish::<G>(game, state, best, best_score, nodes.n))
}

/// The root's answer when there is nothing to search.
fn leaf<G: TwoPlayerGame>(score: i32, nodes: u64) -> SearchResult<G::Move> {
    SearchResult {
        best: None,
        score,
        nodes,
    }
}

/// The root's answer after its moves were searched; a game without moves that does not call
/// itself over is scored by its heuristic rather than by `-INF`.
fn finish<G: TwoPlayerGame>(
    game: &G,
    state: &G::State,
    best: Option<G::Move>,
    score: i32,
    nodes: u64,
) -> SearchResult<G::Move> {
    match best {
        Some(_) => SearchResult { best, score, nodes },
        None => leaf::<G>(game.evaluate(state), nodes),
    }
}

/// Minimax value of `state` for the root player; `maximizing` says whether the root player is
/// the one to move here.
fn minimax_value<G: TwoPlayerGame>(
    game: &G,
    state: &G::State,
    depth: u32,
    ply: u32,
    maximizing: bool,
    nodes: &mut Count,
) -> i32 {
    if nodes.visit() {
        return 0;
    }
    let sign = if maximizing { 1 } else { -1 };
    if let Some(t) = game.terminal(state) {
        return sign * terminal_value::<G>(t, ply);
    }
    let moves = game.moves(state);
    if depth == 0 || moves.is_empty() {
        return sign * game.evaluate(state);
    }
    let children = moves.into_iter().map(|mv| {
        let child = game.play(state, mv);
        minimax_value(game, &child, depth - 1, ply + 1, !maximizing, nodes)
    });
    if maximizing {
        children.fold(-INF, i32::max)
    } else {
        children.fold(INF, i32::min)
    }
}

/// Minimax with alpha-beta pruning, written with explicit max and min levels: the same move
/// and score as [`minimax`], with branches that cannot change the answer skipped.
///
/// # Example
///
/// The same Nim as in [`minimax`], searched with fewer nodes:
///
/// ```
/// use llk::puzzles::adversarial::{alphabeta, minimax, Terminal, TwoPlayerGame};
///
/// struct Nim;
/// impl TwoPlayerGame for Nim {
///     type State = u32;
///     type Move = u32;
///     const WIN: i32 = 100;
///     fn moves(&self, s: &u32) -> Vec<u32> { (1..=2).filter(|t| t <= s).collect() }
///     fn play(&self, s: &u32, t: u32) -> u32 { s - t }
///     fn terminal(&self, s: &u32) -> Option<Terminal> { (*s == 0).then_some(Terminal::Lost) }
///     fn evaluate(&self, _: &u32) -> i32 { 0 }
/// }
///
/// let full = minimax(&Nim, &10, 20);
/// let pruned = alphabeta(&Nim, &10, 20);
/// assert_eq!((pruned.best, pruned.score), (full.best, full.score));
/// assert!(pruned.nodes < full.nodes);
/// ```
pub fn alphabeta<G: TwoPlayerGame>(
    game: &G,
    state: &G::State,
    depth: u32,
) -> SearchResult<G::Move> {
    alphabeta_until(game, state, depth, &mut Count::new(None)).expect("no deadline")
}

fn alphabeta_until<G: TwoPlayerGame>(
    game: &G,
    state: &G::State,
    depth: u32,
    nodes: &mut Count,
) -> Option<SearchResult<G::Move>> {
    let depth = depth.max(1);
    if let Some(t) = game.terminal(state) {
        return Some(leaf::<G>(terminal_value::<G>(t, 0), nodes.n));
    }
    let mut best = None;
    let mut alpha = -INF;
    for mv in game.moves(state) {
        let child = game.play(state, mv);
        let v = alphabeta_value(game, &child, depth - 1, 1, alpha, INF, false, nodes);
        if v > alpha {
            alpha = v;
            best = Some(mv);
        }
    }
    (!nodes.stopped).then(|| finish::<G>(game, state, best, alpha, nodes.n))
}

/// Alpha-beta value of `state` for the root player, within the window `alpha..beta`.
#[allow(clippy::too_many_arguments)]
fn alphabeta_value<G: TwoPlayerGame>(
    game: &G,
    state: &G::State,
    depth: u32,
    ply: u32,
    mut alpha: i32,
    mut beta: i32,
    maximizing: bool,
    nodes: &mut Count,
) -> i32 {
    if nodes.visit() {
        return 0;
    }
    let sign = if maximizing { 1 } else { -1 };
    if let Some(t) = game.terminal(state) {
        return sign * terminal_value::<G>(t, ply);
    }
    let moves = game.moves(state);
    if depth == 0 || moves.is_empty() {
        return sign * game.evaluate(state);
    }
    if maximizing {
        let mut best = -INF;
        for mv in moves {
            let child = game.play(state, mv);
            let v = alphabeta_value(game, &child, depth - 1, ply + 1, alpha, beta, false, nodes);
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        best
    } else {
        let mut best = INF;
        for mv in moves {
            let child = game.play(state, mv);
            let v = alphabeta_value(game, &child, depth - 1, ply + 1, alpha, beta, true, nodes);
            best = best.min(v);
            beta = beta.min(v);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

/// Negamax with alpha-beta pruning: one level type instead of max and min levels, using
/// `max(a, b) = -min(-a, -b)`; visits the same nodes as [`alphabeta`] and gives the same
/// answer, in half the code — the form the connect-four player uses.
///
/// # Example
///
/// ```
/// use llk::puzzles::adversarial::{alphabeta, negamax, Terminal, TwoPlayerGame};
///
/// struct Nim;
/// impl TwoPlayerGame for Nim {
///     type State = u32;
///     type Move = u32;
///     const WIN: i32 = 100;
///     fn moves(&self, s: &u32) -> Vec<u32> { (1..=3).filter(|t| t <= s).collect() }
///     fn play(&self, s: &u32, t: u32) -> u32 { s - t }
///     fn terminal(&self, s: &u32) -> Option<Terminal> { (*s == 0).then_some(Terminal::Lost) }
///     fn evaluate(&self, _: &u32) -> i32 { 0 }
/// }
///
/// // A heap of 8 with takes of 1..=3 is lost for the side to move: 8 is a multiple of 4.
/// let r = negamax(&Nim, &8, 20);
/// assert!(r.score < 0);
/// assert_eq!(r, alphabeta(&Nim, &8, 20));
/// ```
pub fn negamax<G: TwoPlayerGame>(game: &G, state: &G::State, depth: u32) -> SearchResult<G::Move> {
    negamax_until(game, state, depth, &mut Count::new(None)).expect("no deadline")
}

fn negamax_until<G: TwoPlayerGame>(
    game: &G,
    state: &G::State,
    depth: u32,
    nodes: &mut Count,
) -> Option<SearchResult<G::Move>> {
    let depth = depth.max(1);
    if let Some(t) = game.terminal(state) {
        return Some(leaf::<G>(terminal_value::<G>(t, 0), nodes.n));
    }
    let mut best = None;
    let mut alpha = -INF;
    for mv in game.moves(state) {
        let child = game.play(state, mv);
        let v = -negamax_value(game, &child, depth - 1, 1, -INF, -alpha, nodes);
        if v > alpha {
            alpha = v;
            best = Some(mv);
        }
    }
    (!nodes.stopped).then(|| finish::<G>(game, state, best, alpha, nodes.n))
}

/// Negamax value of `state` for its side to move, within the window `alpha..beta`.
fn negamax_value<G: TwoPlayerGame>(
    game: &G,
    state: &G::State,
    depth: u32,
    ply: u32,
    mut alpha: i32,
    beta: i32,
    nodes: &mut Count,
) -> i32 {
    if nodes.visit() {
        return 0;
    }
    if let Some(t) = game.terminal(state) {
        return terminal_value::<G>(t, ply);
    }
    let moves = game.moves(state);
    if depth == 0 || moves.is_empty() {
        return game.evaluate(state);
    }
    let mut best = -INF;
    for mv in moves {
        let child = game.play(state, mv);
        let v = -negamax_value(game, &child, depth - 1, ply + 1, -beta, -alpha, nodes);
        best = best.max(v);
        alpha = alpha.max(v);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The searches by name, so command lines and tests can pick one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameTreeSearch {
    /// [`minimax`]: no pruning.
    Minimax,
    /// [`alphabeta`]: minimax with pruning.
    AlphaBeta,
    /// [`negamax`]: the negamax form of alpha-beta.
    Negamax,
}

impl GameTreeSearch {
    /// Every search, in the order tables list them.
    pub const ALL: [GameTreeSearch; 3] = [
        GameTreeSearch::Minimax,
        GameTreeSearch::AlphaBeta,
        GameTreeSearch::Negamax,
    ];

    /// Runs this search.
    pub fn search<G: TwoPlayerGame>(
        self,
        game: &G,
        state: &G::State,
        depth: u32,
    ) -> SearchResult<G::Move> {
        match self {
            GameTreeSearch::Minimax => minimax(game, state, depth),
            GameTreeSearch::AlphaBeta => alphabeta(game, state, depth),
            GameTreeSearch::Negamax => negamax(game, state, depth),
        }
    }

    /// Runs this search until `deadline`: `None` when the deadline came first.
    pub fn search_until<G: TwoPlayerGame>(
        self,
        game: &G,
        state: &G::State,
        depth: u32,
        deadline: Instant,
    ) -> Option<SearchResult<G::Move>> {
        let nodes = &mut Count::new(Some(deadline));
        match self {
            GameTreeSearch::Minimax => minimax_until(game, state, depth, nodes),
            GameTreeSearch::AlphaBeta => alphabeta_until(game, state, depth, nodes),
            GameTreeSearch::Negamax => negamax_until(game, state, depth, nodes),
        }
    }

    /// The name used on the command line and in tables.
    pub fn name(self) -> &'static str {
        match self {
            GameTreeSearch::Minimax => "minimax",
            GameTreeSearch::AlphaBeta => "alphabeta",
            GameTreeSearch::Negamax => "negamax",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A search that reaches its deadline returns `None`; one within it returns what the
    /// unbounded search does.
    #[test]
    fn search_until_stops_at_the_deadline() {
        use crate::puzzles::c4::{ConnectFour, Position};
        let p = Position::new(6).unwrap();
        for algo in GameTreeSearch::ALL {
            let far = Instant::now() + std::time::Duration::from_secs(3600);
            assert_eq!(
                algo.search_until(&ConnectFour, &p, 5, far),
                Some(algo.search(&ConnectFour, &p, 5))
            );
            // Depth 12 takes minutes (minimax: 7^12 positions); a deadline already passed
            // stops it at the first check, 4096 positions in.
            let t = Instant::now();
            assert_eq!(algo.search_until(&ConnectFour, &p, 12, t), None);
            assert!(t.elapsed().as_secs() < 2, "{algo:?} did not stop");
        }
    }

    /// Nim: one heap, takes of 1..=k, taking the last stone wins.
    struct Nim(u32);
    impl TwoPlayerGame for Nim {
        type State = u32;
        type Move = u32;
        const WIN: i32 = 1000;
        fn moves(&self, s: &u32) -> Vec<u32> {
            (1..=self.0).filter(|t| t <= s).collect()
        }
        fn play(&self, s: &u32, t: u32) -> u32 {
            s - t
        }
        fn terminal(&self, s: &u32) -> Option<Terminal> {
            (*s == 0).then_some(Terminal::Lost)
        }
        fn evaluate(&self, _: &u32) -> i32 {
            0
        }
    }

    #[test]
    fn nim_theory_holds_for_every_search() {
        // With takes 1..=3 the side to move wins exactly when the heap is not a multiple of 4,
        // by leaving a multiple of 4; the win comes in as few plies as possible.
        for heap in 1..=14u32 {
            for algo in GameTreeSearch::ALL {
                let r = algo.search(&Nim(3), &heap, 30);
                if heap % 4 == 0 {
                    assert!(r.score < 0, "{algo:?} heap {heap}: {r:?}");
                } else {
                    assert_eq!(r.best, Some(heap % 4), "{algo:?} heap {heap}");
                    assert!(r.score > 0);
                }
            }
        }
        // Win on the spot: heap 2 with takes 1..=3 scores WIN - 1.
        assert_eq!(negamax(&Nim(3), &2, 5).score, 999);
    }

    #[test]
    fn pruning_agrees_and_saves_nodes() {
        for heap in 4..=12u32 {
            let m = minimax(&Nim(3), &heap, 30);
            let a = alphabeta(&Nim(3), &heap, 30);
            let n = negamax(&Nim(3), &heap, 30);
            assert_eq!((m.best, m.score), (a.best, a.score));
            assert_eq!(a, n, "alpha-beta and negamax visit the same nodes");
            assert!(
                a.nodes <= m.nodes,
                "heap {heap}: {} vs {}",
                a.nodes,
                m.nodes
            );
        }
        // A small lost heap leaves nothing to cut; a big one leaves plenty.
        let (m, a) = (minimax(&Nim(3), &13, 30), alphabeta(&Nim(3), &13, 30));
        assert!(a.nodes * 2 < m.nodes, "{} vs {}", a.nodes, m.nodes);
    }

    #[test]
    fn a_finished_game_has_no_move() {
        let r = minimax(&Nim(3), &0, 4);
        assert_eq!(r.best, None);
        assert_eq!(r.score, -1000);
        assert_eq!(r.nodes, 1);
    }

    #[test]
    fn depth_limits_the_search() {
        // Heap 3, takes 1..=2: minimax at depth 1 visits the root and its two children only.
        assert_eq!(minimax(&Nim(2), &3, 1).nodes, 3);
        assert_eq!(
            minimax(&Nim(2), &3, 0).nodes,
            3,
            "depth 0 searches one ply anyway"
        );
    }
}
