//! The bundled Lianliankan game's rules as a pure state machine: a board, the selected tile,
//! a pending removal, and a seeded shuffler.
//!
//! The window (`game::window`, with the `live` feature) only turns mouse presses into
//! [`Game::click`] calls and time into [`Game::tick`] calls; everything the game decides
//! comes back as [`Event`]s. That split is what lets the unit tests play whole games
//! without a display, and what makes the event log (the end-to-end tests' judge) say
//! exactly what the game saw.

use crate::board::{find_link, removable_pairs, Board, Cell, Link, Pos, Rules};
use crate::plan::generate::random_board;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// What decides a game: its size, tile types, rules, randomness and the obstacles it puts
/// in the bot's way.
#[derive(Clone, Debug, PartialEq)]
pub struct GameConfig {
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// Number of distinct tile pictures; pairs are spread evenly over them.
    pub types: usize,
    /// Gravity and whether links may run outside the board.
    pub rules: Rules,
    /// Seeds the board and every reshuffle, so a game can be replayed exactly.
    pub seed: u64,
    /// How long a matched pair stays on screen with its link drawn before it disappears.
    /// Clicks during that time are ignored, as in many real games.
    pub animation_ms: u64,
    /// Forces a reshuffle after every N removals (a bot that does not re-read the board
    /// after a surprise fails here).
    pub shuffle_every: Option<u32>,
}

impl Default for GameConfig {
    fn default() -> Self {
        GameConfig {
            rows: 8,
            cols: 12,
            types: 16,
            rules: Rules::default(),
            seed: 1,
            animation_ms: 150,
            shuffle_every: None,
        }
    }
}

impl GameConfig {
    /// Checks the game can be dealt: a board with an even number of cells (tiles come in
    /// pairs), at least one type, and a size the renderer and a screen can hold.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let (rows, cols) = (self.rows, self.cols);
        if !(1..=40).contains(&rows) || !(1..=40).contains(&cols) {
            return Err(ConfigError::Size { rows, cols });
        }
        if !(rows * cols).is_multiple_of(2) {
            return Err(ConfigError::OddCells { rows, cols });
        }
        if !(1..=crate::board::TYPE_ALPHABET.len()).contains(&self.types) {
            return Err(ConfigError::Types(self.types));
        }
        if self.shuffle_every == Some(0) {
            return Err(ConfigError::ShuffleEveryZero);
        }
        Ok(())
    }
}

/// Why a [`GameConfig`] cannot be dealt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A side outside 1..=40.
    #[error("board {rows}x{cols}: rows and cols must each be 1..=40")]
    Size {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// An odd number of cells.
    #[error("board {rows}x{cols} has {n} cells, an odd number: tiles come in pairs", n = rows * cols)]
    OddCells {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// A type count outside 1..=[`crate::board::TYPE_ALPHABET`]'s length.
    #[error("{0} tile types: must be 1..={max}", max = crate::board::TYPE_ALPHABET.len())]
    Types(usize),
    /// No reshuffle of the deal left a removable pair.
    #[error("no deal of a {rows}x{cols} board with {types} types has a removable pair")]
    NoMove {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
        /// Tile types asked for.
        types: usize,
    },
    /// A reshuffle after every 0 removals.
    #[error("--shuffle-every 0: must be at least 1 removal")]
    ShuffleEveryZero,
}

/// Why the board was reshuffled.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ShuffleReason {
    /// No pair could be removed.
    Stuck,
    /// The `shuffle_every` fault injection.
    Forced,
}

/// Everything the game decides, in order; one JSON line each in the event log.
#[derive(Clone, PartialEq, Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A press of the left button at window pixel (x, y), and the board cell under it
    /// (`None`: outside the board, which a bot must never do).
    Click {
        /// Window x, pixels.
        x: f32,
        /// Window y, pixels.
        y: f32,
        /// The cell under the press.
        cell: Option<Pos>,
    },
    /// A press while a removal was still animating: ignored.
    Busy {
        /// The cell under the press.
        cell: Option<Pos>,
    },
    /// A press on an empty or obstacle cell: drops the selection.
    EmptyCell {
        /// The cell pressed.
        cell: Pos,
    },
    /// A tile selected, with none selected before.
    Select {
        /// The tile.
        cell: Pos,
    },
    /// The selected tile pressed again: no tile selected now.
    Deselect {
        /// The tile.
        cell: Pos,
    },
    /// Two tiles that cannot be removed together; the second becomes the selection.
    Illegal {
        /// The tile selected before.
        a: Pos,
        /// The tile pressed.
        b: Pos,
        /// Why they cannot be removed.
        reason: String,
    },
    /// A legal pair: its link is shown until the removal.
    Matched {
        /// The pair and its path.
        link: Link,
    },
    /// The pair is gone and gravity has been applied; `board` is what is left.
    Removed {
        /// The first tile removed.
        a: Pos,
        /// The second tile removed.
        b: Pos,
        /// The board's rows in text form.
        board: Vec<String>,
    },
    /// The tiles were reshuffled.
    Shuffle {
        /// Why.
        reason: ShuffleReason,
        /// The board's rows after the shuffle, in text form.
        board: Vec<String>,
    },
    /// A reshuffle found no arrangement with a removable pair (tiny, blocked boards).
    Stuck {
        /// The board's rows in text form.
        board: Vec<String>,
    },
    /// The last pair is gone.
    Cleared,
}

/// Running totals, for the log's final line and the tests' verdict.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize)]
pub struct Stats {
    /// Presses of the left button.
    pub clicks: u32,
    /// Presses outside the board.
    pub outside: u32,
    /// Presses on empty or obstacle cells.
    pub empty: u32,
    /// Presses while a removal was animating.
    pub busy: u32,
    /// Pairs pressed that cannot be removed together.
    pub illegal: u32,
    /// Pairs removed.
    pub removed: u32,
    /// Reshuffles.
    pub shuffles: u32,
}

/// One game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    rules: Rules,
    selected: Option<Pos>,
    /// The matched pair on show and the time (ms) it disappears.
    pending: Option<(Link, u64)>,
    rng: ChaCha8Rng,
    animation_ms: u64,
    shuffle_every: Option<u32>,
    stats: Stats,
}

/// Reshuffles tried before a board is declared stuck.
const SHUFFLE_TRIES: usize = 2000;

impl Game {
    /// Deals a full board of `config.types` types in pairs, reshuffled until some pair is
    /// removable (a game that starts stuck is no game).
    pub fn new(config: &GameConfig) -> Result<Game, ConfigError> {
        config.validate()?;
        let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
        let board = random_board(config.rows, config.cols, config.types, 1.0, 0, &mut rng);
        let mut game = Game {
            board,
            rules: config.rules,
            selected: None,
            pending: None,
            rng,
            animation_ms: config.animation_ms,
            shuffle_every: config.shuffle_every,
            stats: Stats::default(),
        };
        if removable_pairs(&game.board, &game.rules).is_empty() && !game.shuffle_until_movable() {
            return Err(ConfigError::NoMove {
                rows: config.rows,
                cols: config.cols,
                types: config.types,
            });
        }
        Ok(game)
    }

    /// A game on a given board (tests, replays of a logged deal).
    pub fn from_board(board: Board, rules: Rules, seed: u64, animation_ms: u64) -> Game {
        Game {
            board,
            rules,
            selected: None,
            pending: None,
            rng: ChaCha8Rng::seed_from_u64(seed),
            animation_ms,
            shuffle_every: None,
            stats: Stats::default(),
        }
    }

    /// The board as shown (a matched pair stays on it until its animation ends).
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The rules the game judges clicks by.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The tile drawn highlighted.
    pub fn selected(&self) -> Option<Pos> {
        self.selected
    }

    /// The link drawn while a matched pair waits to disappear.
    pub fn showing(&self) -> Option<&Link> {
        self.pending.as_ref().map(|(l, _)| l)
    }

    /// The running totals so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// Whether the game is over: no tile left and nothing animating.
    pub fn is_cleared(&self) -> bool {
        self.pending.is_none() && self.board.is_clear()
    }

    /// A left-button press at window pixel `(x, y)` over board cell `cell` (the window
    /// knows the grid), at time `now_ms`. A pending removal whose time has come is finished
    /// first, so the outcome never depends on how often the window ticks.
    pub fn click(&mut self, x: f32, y: f32, cell: Option<Pos>, now_ms: u64) -> Vec<Event> {
        let mut events = self.tick(now_ms);
        self.stats.clicks += 1;
        events.push(Event::Click { x, y, cell });
        if self.pending.is_some() {
            self.stats.busy += 1;
            events.push(Event::Busy { cell });
            return events;
        }
        let Some(p) = cell else {
            self.stats.outside += 1;
            return events;
        };
        let t = match self.board.get(p) {
            Cell::Tile(t) => t,
            _ => {
                self.stats.empty += 1;
                self.selected = None;
                events.push(Event::EmptyCell { cell: p });
                return events;
            }
        };
        match self.selected {
            None => {
                self.selected = Some(p);
                events.push(Event::Select { cell: p });
            }
            Some(s) if s == p => {
                self.selected = None;
                events.push(Event::Deselect { cell: p });
            }
            Some(s) => {
                let reason = if self.board.get(s) != Cell::Tile(t) {
                    Some("different pictures".to_string())
                } else {
                    match find_link(&self.board, &self.rules, s, p) {
                        Some(link) => {
                            self.selected = None;
                            events.push(Event::Matched { link: link.clone() });
                            self.pending = Some((link, now_ms + self.animation_ms));
                            None
                        }
                        None => Some("no path with at most two turns".to_string()),
                    }
                };
                if let Some(reason) = reason {
                    self.stats.illegal += 1;
                    self.selected = Some(p);
                    events.push(Event::Illegal { a: s, b: p, reason });
                }
                events.extend(self.tick(now_ms));
            }
        }
        events
    }

    /// Advances time: removes a matched pair whose animation is over, applies gravity, and
    /// reshuffles when the rules say so.
    pub fn tick(&mut self, now_ms: u64) -> Vec<Event> {
        let mut events = Vec::new();
        let Some((link, due)) = &self.pending else {
            return events;
        };
        if now_ms < *due {
            return events;
        }
        let (a, b) = (link.a, link.b);
        self.pending = None;
        self.board.remove_pair(a, b, self.rules.gravity);
        self.stats.removed += 1;
        events.push(Event::Removed {
            a,
            b,
            board: self.board.row_strings(),
        });
        if self.board.is_clear() {
            events.push(Event::Cleared);
            return events;
        }
        let forced = self
            .shuffle_every
            .is_some_and(|n| self.stats.removed.is_multiple_of(n));
        let stuck = removable_pairs(&self.board, &self.rules).is_empty();
        if forced || stuck {
            let reason = if stuck {
                ShuffleReason::Stuck
            } else {
                ShuffleReason::Forced
            };
            if self.shuffle_until_movable() {
                self.stats.shuffles += 1;
                events.push(Event::Shuffle {
                    reason,
                    board: self.board.row_strings(),
                });
            } else {
                events.push(Event::Stuck {
                    board: self.board.row_strings(),
                });
            }
        }
        events
    }

    /// Permutes the tiles over the cells they occupy until some pair is removable (and, for
    /// a forced shuffle, the board actually changed when it can). Returns false when no try
    /// gave a movable board.
    fn shuffle_until_movable(&mut self) -> bool {
        let cells: Vec<Pos> = self.board.tiles().map(|(p, _)| p).collect();
        let mut kinds: Vec<Cell> = cells.iter().map(|&p| self.board.get(p)).collect();
        let before = self.board.clone();
        let mut fallback = None;
        for _ in 0..SHUFFLE_TRIES {
            kinds.shuffle(&mut self.rng);
            for (&p, &k) in cells.iter().zip(&kinds) {
                self.board.set(p, k);
            }
            if !removable_pairs(&self.board, &self.rules).is_empty() {
                if self.board != before {
                    return true;
                }
                fallback = Some(self.board.clone());
            }
        }
        match fallback {
            Some(b) => {
                self.board = b;
                true
            }
            None => {
                self.board = before;
                false
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Gravity;

    fn game(text: &str, animation_ms: u64) -> Game {
        Game::from_board(
            Board::parse(text).unwrap(),
            Rules::default(),
            7,
            animation_ms,
        )
    }

    fn at(r: usize, c: usize) -> Option<Pos> {
        Some(Pos::new(r, c))
    }

    #[test]
    fn matching_pair_is_removed_after_the_animation() {
        let mut g = game("AB\nAB", 100);
        let ev = g.click(1.0, 1.0, at(0, 0), 0);
        assert!(matches!(ev.last(), Some(Event::Select { .. })));
        let ev = g.click(1.0, 1.0, at(1, 0), 10);
        assert!(ev.iter().any(|e| matches!(e, Event::Matched { .. })));
        assert_eq!(
            g.board().tile_count(),
            4,
            "still on show during the animation"
        );
        let ev = g.click(1.0, 1.0, at(0, 1), 50);
        assert!(matches!(ev.last(), Some(Event::Busy { .. })));
        let ev = g.tick(110);
        assert!(matches!(ev[0], Event::Removed { .. }));
        assert_eq!(g.board().tile_count(), 2);
        assert_eq!(g.stats().busy, 1);
    }

    #[test]
    fn wrong_pairs_are_illegal_and_counted() {
        let mut g = game("AB\nBA", 0);
        g.click(0.0, 0.0, at(0, 0), 0);
        let ev = g.click(0.0, 0.0, at(0, 1), 0);
        assert!(matches!(ev.last(), Some(Event::Illegal { .. })));
        assert_eq!(
            g.selected(),
            at(0, 1),
            "the second tile becomes the selection"
        );
        assert_eq!(g.stats().illegal, 1);
        // Same picture, but walled in with the outside ring off.
        let mut g = Game::from_board(
            Board::parse("A#A").unwrap(),
            Rules {
                outside: false,
                gravity: Gravity::None,
            },
            1,
            0,
        );
        g.click(0.0, 0.0, at(0, 0), 0);
        let ev = g.click(0.0, 0.0, at(0, 2), 0);
        match ev.last() {
            Some(Event::Illegal { reason, .. }) => assert!(reason.contains("path")),
            e => panic!("expected illegal, got {e:?}"),
        }
    }

    #[test]
    fn outside_empty_and_repeat_clicks() {
        let mut g = game("AA..", 0);
        g.click(500.0, 500.0, None, 0);
        assert_eq!(g.stats().outside, 1);
        g.click(0.0, 0.0, at(0, 0), 0);
        g.click(0.0, 0.0, at(0, 0), 0);
        assert_eq!(g.selected(), None, "a second click deselects");
        g.click(0.0, 0.0, at(0, 0), 0);
        g.click(0.0, 0.0, at(0, 3), 0);
        assert_eq!(g.selected(), None, "an empty cell drops the selection");
        assert_eq!(g.stats().empty, 1);
        g.click(0.0, 0.0, at(0, 0), 0);
        let ev = g.click(0.0, 0.0, at(0, 1), 0);
        assert!(ev.contains(&Event::Cleared));
        assert!(g.is_cleared());
    }

    #[test]
    fn gravity_applies_after_removal() {
        let mut g = Game::from_board(
            Board::parse("B.\nAA\nBC\nCD\nD.").unwrap(),
            Rules {
                outside: true,
                gravity: Gravity::Down,
            },
            1,
            0,
        );
        g.click(0.0, 0.0, at(1, 0), 0);
        g.click(0.0, 0.0, at(1, 1), 0);
        assert_eq!(g.board().to_text(), "..\nB.\nB.\nCC\nDD");
    }

    #[test]
    fn forced_shuffle_changes_the_board_and_keeps_the_tiles() {
        let config = GameConfig {
            rows: 4,
            cols: 6,
            types: 6,
            shuffle_every: Some(1),
            animation_ms: 0,
            ..GameConfig::default()
        };
        let mut g = Game::new(&config).unwrap();
        let link = removable_pairs(g.board(), g.rules())[0].clone();
        let mut after = g.board().clone();
        after.remove_pair(link.a, link.b, Gravity::None);
        g.click(0.0, 0.0, Some(link.a), 0);
        let ev = g.click(0.0, 0.0, Some(link.b), 0);
        assert!(ev.iter().any(|e| matches!(
            e,
            Event::Shuffle {
                reason: ShuffleReason::Forced,
                ..
            }
        )));
        assert_ne!(g.board(), &after);
        assert_eq!(g.board().type_counts(), after.type_counts());
        assert!(!removable_pairs(g.board(), g.rules()).is_empty());
    }

    #[test]
    fn stuck_board_is_reshuffled() {
        // After removing the E pair, "AB/BA" with no outside ring has no removable pair.
        let rules = Rules {
            outside: false,
            gravity: Gravity::None,
        };
        let mut g = Game::from_board(Board::parse("ABEE\nBA##").unwrap(), rules, 3, 0);
        g.click(0.0, 0.0, at(0, 2), 0);
        let ev = g.click(0.0, 0.0, at(0, 3), 0);
        assert!(ev.iter().any(|e| matches!(
            e,
            Event::Shuffle {
                reason: ShuffleReason::Stuck,
                ..
            }
        )));
        assert!(!removable_pairs(g.board(), &rules).is_empty());
    }

    #[test]
    fn same_seed_same_deal_and_bad_configs_fail() {
        let c = GameConfig::default();
        assert_eq!(
            Game::new(&c).unwrap().board(),
            Game::new(&c).unwrap().board()
        );
        let odd = GameConfig {
            rows: 3,
            cols: 5,
            ..c.clone()
        };
        assert!(Game::new(&odd).unwrap_err().to_string().contains("odd"));
        let zero = GameConfig { types: 0, ..c };
        assert_eq!(Game::new(&zero).unwrap_err(), ConfigError::Types(0));
        assert!(Game::new(&zero).unwrap_err().to_string().contains("types"));
    }

    #[test]
    fn a_greedy_player_clears_every_gravity_mode() {
        for gravity in Gravity::ALL {
            let config = GameConfig {
                rows: 6,
                cols: 8,
                types: 8,
                rules: Rules {
                    outside: true,
                    gravity,
                },
                animation_ms: 0,
                seed: 11,
                shuffle_every: None,
            };
            let mut g = Game::new(&config).unwrap();
            for _ in 0..200 {
                if g.is_cleared() {
                    break;
                }
                let link = removable_pairs(g.board(), g.rules())[0].clone();
                g.click(0.0, 0.0, Some(link.a), 0);
                g.click(0.0, 0.0, Some(link.b), 0);
            }
            assert!(g.is_cleared(), "{gravity}: not cleared");
            assert_eq!(g.stats().removed, 24);
            assert_eq!(g.stats().illegal, 0);
        }
    }
}
