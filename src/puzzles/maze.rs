//! Grid mazes on the [`Problem`] API: parsing the text form (`S` start, `G` goal, `#` wall,
//! `.` free), moving in four directions, two admissible heuristics, and drawing the path.

use crate::search::{self, ActionPath, Problem};

/// A cell as (row, column), 0-based.
pub type Cell = (usize, usize);

/// A parsed maze.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Maze {
    /// Rows in the grid.
    pub rows: usize,
    /// Columns in the grid.
    pub cols: usize,
    /// `walls[r * cols + c]` is true for a wall.
    pub walls: Vec<bool>,
    /// Where the path begins.
    pub start: Cell,
    /// Where the path ends.
    pub goal: Cell,
}

/// A maze text [`Maze::parse`] cannot read: the file's name and what is wrong, with the
/// 1-based line and column where there is one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{name}: {fault}")]
pub struct MazeError {
    /// The file (or "stdin") the text came from.
    pub name: String,
    /// What is wrong with it.
    pub fault: MazeFault,
}

/// What is wrong with a maze text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MazeFault {
    /// No non-blank line.
    #[error("the maze is empty (expected rows of S, G, # and .)")]
    Empty,
    /// A row of another width than the first.
    #[error("line {line} has {width} cells, expected {cols} like the first row")]
    Width {
        /// The row's line, from 1.
        line: usize,
        /// Its width.
        width: usize,
        /// The first row's width.
        cols: usize,
    },
    /// A second start or goal.
    #[error("line {line}, column {col}: a second {ch} (the first is at line {}, column {})", first.0, first.1)]
    Second {
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        col: usize,
        /// 'S' or 'G'.
        ch: char,
        /// Line and column of the first one.
        first: (usize, usize),
    },
    /// A char that is not S, G, # or '.'.
    #[error("line {line}, column {col}: unknown cell {ch:?} (expected S, G, # or .)")]
    UnknownCell {
        /// Line, from 1.
        line: usize,
        /// Column, from 1.
        col: usize,
        /// The char found.
        ch: char,
    },
    /// No S.
    #[error("no start: the maze needs one S")]
    NoStart,
    /// No G.
    #[error("no goal: the maze needs one G")]
    NoGoal,
}

impl Maze {
    /// Reads a maze: one text line per row, every row the same width, blank lines before and
    /// after ignored, trailing spaces and `\r` ignored. `name` (the file) prefixes the error
    /// messages, which give the 1-based line and column of the problem.
    pub fn parse(name: &str, text: &str) -> Result<Maze, MazeError> {
        let bad = |fault| MazeError {
            name: name.to_string(),
            fault,
        };
        let lines: Vec<&str> = text.lines().map(|l| l.trim_end()).collect();
        let first = lines.iter().position(|l| !l.is_empty());
        let last = lines.iter().rposition(|l| !l.is_empty());
        let (Some(first), Some(last)) = (first, last) else {
            return Err(bad(MazeFault::Empty));
        };
        let cols = lines[first].chars().count();
        let mut walls = Vec::new();
        let (mut start, mut goal) = (None::<Cell>, None::<Cell>);
        for (r, line) in lines[first..=last].iter().enumerate() {
            let line_no = first + r + 1;
            let width = line.chars().count();
            if width != cols {
                return Err(bad(MazeFault::Width {
                    line: line_no,
                    width,
                    cols,
                }));
            }
            for (c, ch) in line.chars().enumerate() {
                walls.push(ch == '#');
                match ch {
                    '#' | '.' => {}
                    'S' | 'G' => {
                        let slot = if ch == 'S' { &mut start } else { &mut goal };
                        if let Some((pr, pc)) = *slot {
                            return Err(bad(MazeFault::Second {
                                line: line_no,
                                col: c + 1,
                                ch,
                                first: (pr + first + 1, pc + 1),
                            }));
                        }
                        *slot = Some((r, c));
                    }
                    _ => {
                        return Err(bad(MazeFault::UnknownCell {
                            line: line_no,
                            col: c + 1,
                            ch,
                        }))
                    }
                }
            }
        }
        let Some(start) = start else {
            return Err(bad(MazeFault::NoStart));
        };
        let Some(goal) = goal else {
            return Err(bad(MazeFault::NoGoal));
        };
        Ok(Maze {
            rows: last - first + 1,
            cols,
            walls,
            start,
            goal,
        })
    }

    /// Whether `cell` is inside the grid and not a wall.
    pub fn is_free(&self, (r, c): Cell) -> bool {
        r < self.rows && c < self.cols && !self.walls[r * self.cols + c]
    }

    /// The maze as text with `path` drawn in `*` (start and goal keep their letters).
    pub fn draw(&self, path: &[Cell]) -> String {
        let mut grid: Vec<Vec<char>> = (0..self.rows)
            .map(|r| {
                (0..self.cols)
                    .map(|c| if self.is_free((r, c)) { '.' } else { '#' })
                    .collect()
            })
            .collect();
        for &(r, c) in path {
            grid[r][c] = '*';
        }
        grid[self.start.0][self.start.1] = 'S';
        grid[self.goal.0][self.goal.1] = 'G';
        grid.into_iter()
            .map(|row| row.into_iter().collect::<String>() + "\n")
            .collect()
    }
}

/// A step between neighbouring cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// One row up.
    Up,
    /// One row down.
    Down,
    /// One column left.
    Left,
    /// One column right.
    Right,
}

/// The estimates A* can use; both never overestimate a 4-connected walk, so A* stays optimal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MazeHeuristic {
    /// |Δrow| + |Δcol|: exact on an empty grid, the tightest bound for 4-way moves.
    Manhattan,
    /// The straight-line distance, rounded down to keep costs integral (still a lower bound,
    /// and still consistent); looser than Manhattan, so A* expands more.
    Euclid,
    /// No estimate: A* becomes Dijkstra.
    Zero,
}

impl MazeHeuristic {
    /// The estimate from `a` to `b`.
    pub fn estimate(self, a: Cell, b: Cell) -> u64 {
        let dr = a.0.abs_diff(b.0) as u64;
        let dc = a.1.abs_diff(b.1) as u64;
        match self {
            MazeHeuristic::Manhattan => dr + dc,
            MazeHeuristic::Euclid => (dr * dr + dc * dc).isqrt(),
            MazeHeuristic::Zero => 0,
        }
    }
}

/// A maze as a search problem: the state is the current cell.
#[derive(Clone, Copy, Debug)]
pub struct MazeProblem<'a> {
    /// The maze to walk.
    pub maze: &'a Maze,
    /// The estimate A* uses.
    pub heuristic: MazeHeuristic,
}

impl Problem for MazeProblem<'_> {
    type State = Cell;
    type Action = Step;

    fn start(&self) -> Cell {
        self.maze.start
    }

    fn actions(&self, &(r, c): &Cell) -> Vec<Step> {
        [Step::Up, Step::Down, Step::Left, Step::Right]
            .into_iter()
            .filter(|s| {
                let n = match s {
                    Step::Up if r > 0 => (r - 1, c),
                    Step::Left if c > 0 => (r, c - 1),
                    Step::Down => (r + 1, c),
                    Step::Right => (r, c + 1),
                    _ => return false,
                };
                self.maze.is_free(n)
            })
            .collect()
    }

    fn result(&self, &(r, c): &Cell, step: &Step) -> Cell {
        match step {
            Step::Up => (r - 1, c),
            Step::Down => (r + 1, c),
            Step::Left => (r, c - 1),
            Step::Right => (r, c + 1),
        }
    }

    fn is_goal(&self, cell: &Cell) -> bool {
        *cell == self.maze.goal
    }

    fn heuristic(&self, cell: &Cell) -> u64 {
        self.heuristic.estimate(*cell, self.maze.goal)
    }
}

/// The generic searches a maze can be solved with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MazeAlgo {
    /// A* with the chosen heuristic.
    AStar,
    /// Breadth-first: shortest because every step costs 1.
    Bfs,
    /// Uniform cost, no heuristic.
    Dijkstra,
}

/// The shortest path from `S` to `G` by `algo` (the heuristic only matters to A*), or `None`
/// when walls cut the goal off.
pub fn solve(
    maze: &Maze,
    algo: MazeAlgo,
    heuristic: MazeHeuristic,
) -> Option<ActionPath<Cell, Step>> {
    let p = MazeProblem { maze, heuristic };
    match algo {
        MazeAlgo::AStar => search::astar(&p),
        MazeAlgo::Bfs => search::bfs(&p),
        MazeAlgo::Dijkstra => search::dijkstra(&p),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The classic 7×9 example (also in fixtures/puzzles/classic.txt).
    pub(crate) const CLASSIC: &str = "\
.........
.........
...#####.
....#....
..S.#.#.#
.####.#.G
......#..
";

    #[test]
    fn classic_maze_is_15_steps_by_every_search() {
        let m = Maze::parse("classic", CLASSIC).unwrap();
        assert_eq!((m.rows, m.cols, m.start, m.goal), (7, 9, (4, 2), (5, 8)));
        let mut expanded = Vec::new();
        for (algo, h) in [
            (MazeAlgo::AStar, MazeHeuristic::Manhattan),
            (MazeAlgo::AStar, MazeHeuristic::Euclid),
            (MazeAlgo::Bfs, MazeHeuristic::Zero),
            (MazeAlgo::Dijkstra, MazeHeuristic::Zero),
        ] {
            let s = solve(&m, algo, h).unwrap();
            assert_eq!(s.cost, 15, "{algo:?} {h:?}");
            assert_eq!(s.states.len(), 16);
            assert_eq!(s.states[0], m.start);
            assert_eq!(*s.states.last().unwrap(), m.goal);
            for w in s.states.windows(2) {
                assert!(m.is_free(w[1]));
                assert_eq!(w[0].0.abs_diff(w[1].0) + w[0].1.abs_diff(w[1].1), 1);
            }
            expanded.push(s.expanded);
        }
        // Manhattan is the tighter estimate, so A* with it expands no more than the rest.
        assert!(
            expanded[0] <= expanded[1] && expanded[0] <= expanded[3],
            "{expanded:?}"
        );
    }

    #[test]
    fn drawing_marks_the_path() {
        let m = Maze::parse("m", "S.#\n..G\n").unwrap();
        let s = solve(&m, MazeAlgo::Bfs, MazeHeuristic::Zero).unwrap();
        assert_eq!(s.cost, 3);
        let drawn = m.draw(&s.states);
        assert_eq!(drawn.matches('*').count(), 2);
        assert!(drawn.starts_with('S') && drawn.contains('G'));
    }

    #[test]
    fn bad_mazes_say_what_is_wrong() {
        let err = |t: &str| Maze::parse("m.txt", t).unwrap_err().to_string();
        assert!(err("S.x\n..G").contains("m.txt: line 1, column 3: unknown cell 'x'"));
        assert!(err("...\n..G").contains("no start"));
        assert!(err("S..\n...").contains("no goal"));
        assert!(err("S.S\n..G").contains("a second S (the first is at line 1, column 1)"));
        assert!(err("S..\n.G").contains("line 2 has 2 cells, expected 3"));
        assert!(err("\n  \n").contains("empty"));
        // Blank lines around the maze and Windows line ends are fine.
        let m = Maze::parse("m", "\nS.\r\n.G\r\n\n").unwrap();
        assert_eq!((m.rows, m.start, m.goal), (2, (0, 0), (1, 1)));
    }

    #[test]
    fn walled_off_goal_has_no_path() {
        let m = Maze::parse("m", "S#.\n##G").unwrap();
        for algo in [MazeAlgo::AStar, MazeAlgo::Bfs, MazeAlgo::Dijkstra] {
            assert!(solve(&m, algo, MazeHeuristic::Manhattan).is_none());
        }
    }

    #[test]
    fn euclid_never_exceeds_manhattan() {
        for a in 0..6 {
            for b in 0..6 {
                let (p, q) = ((a, b), (5 - b, a));
                assert!(
                    MazeHeuristic::Euclid.estimate(p, q) <= MazeHeuristic::Manhattan.estimate(p, q)
                );
            }
        }
    }
}
