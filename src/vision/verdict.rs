//! Stage 4, the verdict: is what the cells show a Lianliankan board, and how sure is each
//! cell?
//!
//! Tiles come in pairs. A frame whose pictures mostly have no twin is some other game (a
//! sliding puzzle's numbers, a grid of digits); a board with more lone pictures than a
//! selection explains is being redrawn (a link line crosses it, tiles explode); a frame with
//! hardly any tiles shows no board. Each refusal says what was counted.

use super::config::ReaderConfig;
use super::face;
use super::ground::{describe_beside, GroundTest, SIDES};
use super::pictures::{
    common_frame, describe, distance, frame_distance, single_linkage, spanning_tree, Picture,
};
use super::pixels::{median, Integral};
use super::{ReadError, Reading};
use crate::board::{Cell, Pos};
use crate::geometry::Grid;
use image::RgbaImage;

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
    /// Board rows.
    pub rows: usize,
    /// Board columns.
    pub cols: usize,
    /// Sides (top, bottom, left, right) whose line beside the board holds a cell showing
    /// the frame the tiles share: a line of the board the extent may have left out.
    pub ring_framed: [bool; 4],
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

/// Refuses a board found in the frame whose tiles show fewer than
/// [`ReaderConfig::min_types`] types: a repeated decoration (a frame's carving, a ground's
/// pattern) pairs everywhere with itself as one picture, while a deal holds many.
pub fn judge_types(reading: &Reading, cfg: &ReaderConfig) -> Result<(), ReadError> {
    let types = reading.board.type_counts().len();
    if types < cfg.min_types {
        return Err(ReadError::NoBoard(format!(
            "the {} tiles read in the {}x{} lattice show {types} picture(s) (need {} types): \
             a repeated pattern, not a board",
            reading.board.tile_count(),
            reading.grid.rows,
            reading.grid.cols,
            cfg.min_types
        )));
    }
    Ok(())
}

/// How many looks the obstacle cells of `reading` show: their pictures grouped by single
/// linkage under [`ReaderConfig::obstacle_look_gap`].
pub fn obstacle_looks(frame: &RgbaImage, reading: &Reading, cfg: &ReaderConfig) -> usize {
    let b = &reading.board;
    let cells: Vec<_> = b
        .positions()
        .filter(|&p| b.get(p) == Cell::Obstacle)
        .collect();
    if cells.len() < 2 {
        return cells.len();
    }
    let integral = around(frame, &[&reading.grid]);
    let pics = pictures_at(&integral, &reading.grid, &cells, cfg);
    let mut edges = Vec::new();
    for i in 0..pics.len() {
        for j in i + 1..pics.len() {
            let d = distance(&pics[i], &pics[j]);
            edges.push((i, j, d));
        }
    }
    single_linkage(pics.len(), &edges, cfg.obstacle_look_gap).1
}

/// Marks unsure every tile of a type that holds more than [`ReaderConfig::crowd_share`] of
/// the board's tiles and at least [`ReaderConfig::obstacle_min_count`]: tile types come a
/// few at a time, and such a type is a panel or a flat stretch laid over the lattice (a
/// game's "Game Over" panel read on a locked grid). Returns how many tiles it doubted.
pub fn doubt_crowds(reading: &mut Reading, cfg: &ReaderConfig) -> usize {
    let counts = reading.board.type_counts();
    let tiles: usize = counts.values().sum();
    let crowds: Vec<u8> = counts
        .iter()
        .filter(|&(_, &n)| cfg.crowds_by_share(n, tiles))
        .map(|(&t, _)| t)
        .collect();
    let cells: Vec<Pos> = reading
        .board
        .positions()
        .filter(|&p| matches!(reading.board.get(p), Cell::Tile(t) if crowds.contains(&t)))
        .collect();
    let n = cells.len();
    doubt(reading, cells);
    n
}

/// Marks every obstacle of `reading` unsure when they show more looks than a game draws
/// obstacles with ([`ReaderConfig::max_obstacle_looks`]): they are tiles the reading could
/// not pair, so the board around them cannot be trusted either.
pub fn doubt_mixed_obstacles(frame: &RgbaImage, reading: &mut Reading, cfg: &ReaderConfig) {
    if obstacle_looks(frame, reading, cfg) <= cfg.max_obstacle_looks {
        return;
    }
    let b = &reading.board;
    let obstacles: Vec<Pos> = b
        .positions()
        .filter(|&p| b.get(p) == Cell::Obstacle)
        .collect();
    doubt(reading, obstacles);
}

/// Whether `sure` reads `doubting`'s board on the same lattice, with every cell empty,
/// obstacle or tile alike, and the same types up to renaming everywhere but on the cells
/// `doubting` is unsure of, and differs from it there: the one reader's doubt is the other's
/// confident guess, not a confirmation. (A pair another program marks on screen, a white
/// ring drawn over two tiles, reads to one reader as its type in doubt and to the other as
/// a type of its own.)
pub fn differs_only_where_doubted(doubting: &Reading, sure: &Reading) -> bool {
    let (a, b) = (&doubting.board, &sure.board);
    if doubting.unsure.is_empty()
        || aligned_grids(&doubting.grid, &sure.grid) != Some((0, 0))
        || (a.rows(), a.cols()) != (b.rows(), b.cols())
    {
        return false;
    }
    let alike = a.positions().all(|p| match (a.get(p), b.get(p)) {
        (Cell::Tile(_), Cell::Tile(_)) => true,
        (x, y) => x == y,
    });
    if !alike || a.same_up_to_renaming(b) {
        return false;
    }
    let without_doubts = |board: &crate::board::Board| {
        let mut out = board.clone();
        for &p in &doubting.unsure {
            if p.row < out.rows() && p.col < out.cols() {
                out.set(p, Cell::Empty);
            }
        }
        out
    };
    without_doubts(a).same_up_to_renaming(&without_doubts(b))
}

/// Adds `cells` to `reading`'s unsure cells (each once).
pub fn doubt(reading: &mut Reading, cells: impl IntoIterator<Item = Pos>) {
    for p in cells {
        if !reading.unsure.contains(&p) {
            reading.unsure.push(p);
        }
    }
}

/// Drops the one edge line of `reading` that holds a look found nowhere else on the board:
/// - made wholly of obstacles, and holding every obstacle of the board: games set obstacles
///   among their tiles or wall the board in on every side, so a lone line of one look along
///   one side is the ground or the window's chrome beyond the board, cells alike enough to
///   pair and many enough to pass for obstacles (a row of a textured ground above a board);
/// - made wholly of one tile type that holds more tiles than any other type and has none
///   off the line: games deal their types at random and alike in number, so a whole edge
///   line of one picture, outnumbering every type, is a band of the frame beside the board
///   (a light strip between a status bar and the board), not tiles.
///
/// `rows_fixed` and `cols_fixed` keep the lines of an axis a hint fixed. Returns whether a
/// line was dropped.
pub fn drop_foreign_edge(reading: &mut Reading, rows_fixed: bool, cols_fixed: bool) -> bool {
    let b = &reading.board;
    let (rows, cols) = (b.rows(), b.cols());
    if rows < 3 || cols < 3 {
        return false;
    }
    let obstacles = b.cells().iter().filter(|&&c| c == Cell::Obstacle).count();
    let counts = b.type_counts();
    // Whether the cells of a line are one look found nowhere else, as above.
    let foreign = |cells: &[Cell]| match cells.first() {
        Some(Cell::Obstacle) => {
            cells.iter().all(|&c| c == Cell::Obstacle) && cells.len() == obstacles
        }
        Some(&Cell::Tile(t)) => {
            cells.iter().all(|&c| c == Cell::Tile(t))
                && counts.get(&t) == Some(&cells.len())
                && counts.iter().all(|(&u, &n)| u == t || n < cells.len())
        }
        _ => false,
    };
    // Each edge line an unhinted axis allows, as (its rows, its cols, the rows and cols
    // left without it).
    let mut lines = Vec::new();
    if !rows_fixed {
        lines.push((0..1, 0..cols, 1..rows, 0..cols));
        lines.push((rows - 1..rows, 0..cols, 0..rows - 1, 0..cols));
    }
    if !cols_fixed {
        lines.push((0..rows, 0..1, 0..rows, 1..cols));
        lines.push((0..rows, cols - 1..cols, 0..rows, 0..cols - 1));
    }
    lines.retain(|(rs, cs, _, _)| {
        let cells: Vec<Cell> = rs
            .clone()
            .flat_map(|r| cs.clone().map(move |c| b.get(Pos::new(r, c))))
            .collect();
        foreign(&cells)
    });
    let [(_, _, kept_rows, kept_cols)] = &lines[..] else {
        return false;
    };
    let (kept_rows, kept_cols) = (kept_rows.clone(), kept_cols.clone());
    let mut board = crate::board::Board::new(kept_rows.len(), kept_cols.len());
    for p in board.positions().collect::<Vec<_>>() {
        let from = Pos::new(p.row + kept_rows.start, p.col + kept_cols.start);
        board.set(p, b.get(from));
    }
    reading.grid = reading.grid.sub(kept_rows.clone(), kept_cols.clone());
    reading.board = board;
    let shift = |ps: &mut Vec<Pos>| {
        *ps = ps
            .iter()
            .filter(|p| kept_rows.contains(&p.row) && kept_cols.contains(&p.col))
            .map(|p| Pos::new(p.row - kept_rows.start, p.col - kept_cols.start))
            .collect();
    };
    shift(&mut reading.unsure);
    shift(&mut reading.selected);
    true
}

/// Splits each type of `reading` whose pictures fall into tight groups far apart: tiles of
/// a type are drawn from one sprite, so a type that holds several (a reader that took two
/// colourings of one shape for one type, or merged sprites that differ in a few strokes)
/// is several types. The type's spanning tree (by [`distance`]) is cut at every edge of at
/// least [`ReaderConfig::type_split_gap`] and [`ReaderConfig::type_split_ratio`] times the
/// longest edge kept inside the groups, and every group must be even and of at least
/// [`ReaderConfig::type_split_min_part`] tiles (a game tints one tile for a selection and
/// two for a removal, never four). Where cuts at several jumps qualify, the finest whose
/// groups all pass is taken. Returns how many types were added.
pub fn split_sprite_types(frame: &RgbaImage, reading: &mut Reading, cfg: &ReaderConfig) -> usize {
    let mut by_type: std::collections::BTreeMap<u8, Vec<Pos>> = Default::default();
    for (p, t) in reading.board.tiles() {
        by_type.entry(t).or_default().push(p);
    }
    // New types take the type alphabet's first unused chars.
    let mut unused = crate::board::TYPE_ALPHABET
        .iter()
        .copied()
        .filter(|t| !by_type.contains_key(t))
        .collect::<Vec<u8>>()
        .into_iter();
    let big: Vec<(u8, Vec<Pos>)> = by_type
        .into_iter()
        .filter(|(_, ps)| ps.len() >= 2 * cfg.type_split_min_part)
        .collect();
    if big.is_empty() {
        return 0;
    }
    let integral = around(frame, &[&reading.grid]);
    let mut added = 0;
    for (t, cells) in big {
        let pics = pictures_at(&integral, &reading.grid, &cells, cfg);
        if pics.len() != cells.len() {
            continue;
        }
        let refs: Vec<&Picture> = pics.iter().collect();
        let mut edges = spanning_tree(&refs, f32::INFINITY);
        edges.sort_by(|a, b| a.2.total_cmp(&b.2));
        let Some(group) = sprite_groups(&edges, cells.len(), cfg) else {
            continue;
        };
        // The first cell's group keeps the type; each other group takes a new one.
        let mut names: Vec<Option<u8>> = vec![None; cells.len()];
        names[group[0]] = Some(t);
        for (i, &g) in group.iter().enumerate() {
            if names[g].is_none() {
                names[g] = unused.next();
                if names[g].is_none() {
                    return added;
                }
                added += 1;
            }
            if let Some(t) = names[g] {
                reading.board.set(cells[i], Cell::Tile(t));
            }
        }
    }
    added
}

/// The groups (per item, numbered from 0) that cutting the sorted spanning tree `edges` of
/// `n` items at one of its jumps gives, as [`split_sprite_types`] asks; `None` when no cut
/// qualifies.
fn sprite_groups(
    edges: &[(usize, usize, f32)],
    n: usize,
    cfg: &ReaderConfig,
) -> Option<Vec<usize>> {
    let passes = |k: usize| {
        let d = edges[k].2;
        let within = k.checked_sub(1).map_or(0.0, |i| edges[i].2);
        d >= cfg.type_split_gap && d >= cfg.type_split_ratio * within
    };
    (0..edges.len()).filter(|&k| passes(k)).find_map(|k| {
        let (group, groups) = single_linkage(n, &edges[..k], f32::INFINITY);
        let mut count = vec![0usize; groups];
        for &g in &group {
            count[g] += 1;
        }
        count
            .iter()
            .all(|&c| c.is_multiple_of(2) && c >= cfg.type_split_min_part)
            .then_some(group)
    })
}

/// Whether `other`'s reading of the frame should replace `first`'s, both sure. Only where
/// they share a lattice (pitch within 5 %, origins a whole number of cells apart, extents
/// free to differ by lines both read as empty) and differ in the ways below, which the
/// pictures settle, and in no other:
/// - cells `first` calls obstacles or ground (or leaves off its board) and `other` tiles
///   show the frame the agreed tiles share (the median of their rings' distances from the
///   agreed tiles' per-block median ring, or from the nearest agreed tile whose four
///   neighbours are tiles on the same sides, is at most
///   [`ReaderConfig::obstacle_frame_max`]), or each show the face the agreed tiles share
///   between their strokes where the cells both read as empty do not
///   ([`ReaderConfig::contested_face_share`]): tiles of a set share one frame and one
///   face, obstacles and the ground are drawn without them, and a symbol that runs to the
///   tile's edges moves the frame but leaves the face;
/// - a type of `first` that `other` splits in two holds two sprites: every picture of one
///   part is farther from the other part than from its nearest twin of `other`'s type
///   (which may lie among the cells `first` did not call tiles), and at least
///   [`ReaderConfig::type_split_gap`] from it, as two sprites lie apart;
/// - cells on `first`'s board that it calls empty and `other` obstacles show no ground,
///   by the test below in every view (a stone or crate is drawn over the ground); past
///   `first`'s board, each such obstacle must also be a copy of an obstacle on it
///   ([`ReaderConfig::stray_stone_ratio`]);
/// - cells `first` calls obstacles or tiles and `other` empty (or leaves off its board)
///   show the ground where `other`'s lattice puts them (or, tiles of `first` on lines
///   `other` leaves off, lack the frame the agreed tiles share, as
///   [`padded_with_unframed_tiles`] asks: a window's menu items that pair): each lies as near the cells both
///   read as empty as those lie to one another (within
///   [`ReaderConfig::ground_apart_ratio`] times the 90th percentile of their
///   nearest-neighbour distances, and never less than [`ReaderConfig::same_floor`]),
///   whole or, beside a tile, without the band of [`ReaderConfig::overhang_share`] that
///   the tile's 3-D side and shadow may cover. An obstacle or a tile is drawn over the
///   ground and stands apart from it.
pub fn replaces(first: &Reading, other: &Reading, frame: &RgbaImage, cfg: &ReaderConfig) -> bool {
    let ga = &first.grid;
    let Some((dr, dc)) = aligned(first, other) else {
        return false;
    };
    let (a, b) = (&first.board, &other.board);
    let (r0, r1) = (0.min(dr), (a.rows() as i64).max(b.rows() as i64 + dr));
    let (c0, c1) = (0.min(dc), (a.cols() as i64).max(b.cols() as i64 + dc));
    // Cells of `first`'s lattice (row, column), which may lie outside its board.
    let mut contested: Vec<(i64, i64)> = Vec::new();
    let mut grounded: Vec<(i64, i64)> = Vec::new();
    let mut stoned: Vec<(i64, i64)> = Vec::new();
    let mut stray: Vec<(i64, i64)> = Vec::new();
    let mut stones: Vec<(i64, i64)> = Vec::new();
    let on_first = |r: i64, c: i64| r >= 0 && c >= 0 && r < a.rows() as i64 && c < a.cols() as i64;
    let mut agreed: Vec<TileOfBoth> = Vec::new();
    for r in r0..r1 {
        for c in c0..c1 {
            match (at(a, r, c), at(b, r - dr, c - dc)) {
                (Cell::Obstacle | Cell::Empty, Cell::Tile(_)) => contested.push((r, c)),
                (Cell::Obstacle | Cell::Tile(_), Cell::Empty) => grounded.push((r, c)),
                (Cell::Empty, Cell::Obstacle) if on_first(r, c) => stoned.push((r, c)),
                (Cell::Empty, Cell::Obstacle) => stray.push((r, c)),
                (Cell::Obstacle, Cell::Obstacle) => stones.push((r, c)),
                (Cell::Tile(x), Cell::Tile(y)) => agreed.push(((r, c), x, y)),
                (x, y) if x == y => {}
                _ => return false,
            }
        }
    }
    // Types: `other`'s must nest in `first`'s (never merge two of them).
    let (split, merged) = spread_types(&agreed);
    if !merged.is_empty() {
        return false;
    }
    if [&contested, &grounded, &stoned, &stray]
        .iter()
        .all(|v| v.is_empty())
        && split.is_empty()
    {
        return false;
    }
    if agreed.len() < 4 {
        return false;
    }
    let integral = around(frame, &[ga, &other.grid]);
    // A cell of either lattice, clipped to the frame where it runs past it by under half a
    // pixel (a lattice fitted to a board flush with the window's edge), whole or without
    // the band on one side.
    let (fw, fh) = (frame.width() as f32, frame.height() as f32);
    // `first`'s cell (r, c) on `grid`, whose cell (r - sr, c - sc) it is.
    let cell_on = |grid: Grid, (sr, sc): (i64, i64)| {
        let integral = &integral;
        move |(r, c): (i64, i64), side: Option<usize>| {
            let (x, y, w, h) = grid.cell_rect((r - sr) as i32, (c - sc) as i32);
            let (x1, y1) = ((x + w).min(fw), (y + h).min(fh));
            let (x, y) = (x.max(0.0), y.max(0.0));
            if x1 - x < w - 0.5 || y1 - y < h - 0.5 {
                return None;
            }
            describe_beside(integral, (x, y, x1 - x, y1 - y), side, cfg)
        }
    };
    let trimmed_pic = cell_on(*ga, (0, 0));
    let pic = |cell: (i64, i64)| trimmed_pic(cell, None);
    // The cells both read as empty, over both boards and a ring of one cell around.
    let both_empty = || -> Vec<(i64, i64)> {
        (r0 - 1..r1 + 1)
            .flat_map(|r| (c0 - 1..c1 + 1).map(move |c| (r, c)))
            .filter(|&(r, c)| at(a, r, c) == Cell::Empty && at(b, r - dr, c - dc) == Cell::Empty)
            .collect()
    };
    if !contested.is_empty() {
        let agreed_cells: Vec<(i64, i64)> = agreed.iter().map(|e| e.0).collect();
        let contested_cells = contested.clone();
        // Which of a cell's four neighbours `other` reads as tiles: a tile's ring takes in
        // its neighbours' 3-D sides and shadows, or the ground's where it has none.
        let sides = |(r, c): (i64, i64)| tile_sides(b, r - dr, c - dc);
        let agreed: Vec<(u8, Picture)> = agreed
            .iter()
            .filter_map(|e| pic(e.0).map(|p| (sides(e.0), p)))
            .collect();
        let contested: Vec<(u8, Picture)> = contested
            .iter()
            .filter_map(|&p| pic(p).map(|q| (sides(p), q)))
            .collect();
        if agreed.len() < 4 || contested.is_empty() {
            return false;
        }
        let Some(shared) = common_frame(agreed.iter().map(|p| &p.1)) else {
            return false;
        };
        let stray = median(
            contested
                .iter()
                .map(|p| frame_distance(&p.1, &shared))
                .collect(),
        );
        // The same, against the agreed tiles with the same sides taken: a tile on the
        // board's edge shows the ground's shadow where interior tiles show a neighbour.
        let stray_alike = median(
            contested
                .iter()
                .map(|(k, p)| nearest_alike_frame(p, *k, &agreed))
                .collect(),
        );
        if stray.min(stray_alike) > cfg.obstacle_frame_max
            && !show_the_face(
                frame,
                ga,
                &agreed_cells,
                &contested_cells,
                &both_empty(),
                cfg,
            )
        {
            return false;
        }
    }
    if !grounded.is_empty() || !stoned.is_empty() || !stray.is_empty() {
        let empties = both_empty();
        // Judged where `other` puts those cells: on a lattice a few pixels off the
        // tiles' (within the 0.3 of a cell `aligned` allows), `first`'s cells past the
        // board take in the last tiles' edges and show no ground there.
        let mut ground = GroundTest::new(cell_on(other.grid, (dr, dc)), &empties, cfg);
        let tile_either = |r: i64, c: i64| {
            matches!(at(a, r, c), Cell::Tile(_)) || matches!(at(b, r - dr, c - dc), Cell::Tile(_))
        };
        // A tile's 3-D side and drop shadow fall on the cell next to it: where a
        // neighbour is a tile, the cell is also taken without the band on that side.
        let beside = |r: i64, c: i64| SIDES.map(|(dy, dx)| tile_either(r + dy, c + dx));
        // A tile of `first` on a line `other` leaves off may instead lack the frame the
        // agreed tiles share, as a window's menu items that pair do
        // ([`padded_with_unframed_tiles`]): no ground, and no tile either.
        let off_other = |r: i64, c: i64| {
            let (rr, cc) = (r - dr, c - dc);
            rr < 0 || cc < 0 || rr >= b.rows() as i64 || cc >= b.cols() as i64
        };
        // The agreed tiles' pictures and the frame they share, described only when a
        // cell fails the ground test.
        let framed = std::cell::OnceCell::new();
        let unframed_tile = |(r, c): (i64, i64)| {
            if !matches!(at(a, r, c), Cell::Tile(_)) || !off_other(r, c) {
                return false;
            }
            let (tiles, shared) = framed.get_or_init(|| {
                let tiles: Vec<(u8, Picture)> = agreed
                    .iter()
                    .filter_map(|e| pic(e.0).map(|p| (tile_sides(a, e.0 .0, e.0 .1), p)))
                    .collect();
                let shared = common_frame(tiles.iter().map(|t| &t.1)).filter(|_| tiles.len() >= 4);
                (tiles, shared)
            });
            shared.as_ref().is_some_and(|f| {
                pic((r, c))
                    .is_some_and(|p| lacks_shared_frame(&p, tile_sides(a, r, c), f, tiles, cfg))
            })
        };
        for &(r, c) in &grounded {
            if !ground.shows_ground((r, c), beside(r, c)) && !unframed_tile((r, c)) {
                return false;
            }
        }
        // Obstacles `first` took for ground must stand apart from it in every view, and
        // only a ground model can say so.
        if (!stoned.is_empty() || !stray.is_empty()) && !ground.judges() {
            return false;
        }
        for &(r, c) in stoned.iter().chain(&stray) {
            if ground.shows_ground((r, c), beside(r, c)) {
                return false;
            }
        }
    }
    // Obstacles past `first`'s board (a line of stones along its edge that `first` left
    // off) are stones of this board when each is a copy of one on it: a game draws its
    // stones, as its tiles, from one sprite, while a toolbar or a strip of 3-D sides read
    // as stones is no stone's copy.
    if !stray.is_empty() {
        let inside: Vec<Picture> = stoned
            .iter()
            .chain(&stones)
            .filter_map(|&p| pic(p))
            .collect();
        let tiles: Vec<Picture> = agreed.iter().filter_map(|e| pic(e.0)).collect();
        for &p in &stray {
            let Some(q) = pic(p) else { return false };
            let near = |v: &[Picture]| {
                v.iter()
                    .map(|x| distance(&q, x))
                    .fold(f32::INFINITY, f32::min)
            };
            if near(&inside) * cfg.stray_stone_ratio >= near(&tiles) {
                return false;
            }
        }
    }
    // `other`'s tiles on `first`'s lattice by type, the contested cells among them (a part
    // of a split type may have its twins among the cells `first` did not call tiles), each
    // described once.
    let mut of_other: std::collections::BTreeMap<u8, Vec<CellPicture>> = Default::default();
    if !split.is_empty() {
        let tiles =
            agreed
                .iter()
                .map(|&(cell, _, y)| (cell, y))
                .chain(
                    contested
                        .iter()
                        .filter_map(|&(r, c)| match at(b, r - dr, c - dc) {
                            Cell::Tile(y) => Some(((r, c), y)),
                            _ => None,
                        }),
                );
        for (cell, y) in tiles {
            if let Some(p) = pic(cell) {
                of_other.entry(y).or_default().push((cell, p));
            }
        }
    }
    let first_type: std::collections::HashMap<(i64, i64), u8> =
        agreed.iter().map(|&(cell, x, _)| (cell, x)).collect();
    for x in split {
        // The pictures of `first`'s type `x`, by `other`'s type.
        let members: Vec<(&(i64, i64), u8, &Picture)> = of_other
            .iter()
            .flat_map(|(&y, v)| v.iter().map(move |(cell, p)| (cell, y, p)))
            .filter(|(cell, _, _)| first_type.get(cell) == Some(&x))
            .collect();
        for &(cell, yi, pi) in &members {
            // Nearest twin by `other`'s type (any of its tiles), nearest of the other parts.
            let own = of_other[&yi]
                .iter()
                .filter(|(c, _)| c != cell)
                .map(|(_, q)| distance(pi, q))
                .fold(f32::INFINITY, f32::min);
            let apart = members
                .iter()
                .filter(|m| m.1 != yi)
                .map(|m| distance(pi, m.2))
                .fold(f32::INFINITY, f32::min);
            if own >= apart || apart < cfg.type_split_gap {
                return false;
            }
        }
    }
    true
}

/// Whether every one of `cells` shows the face the `tiles` share, at least
/// [`ReaderConfig::contested_face_share`] of its inner pixels, while the `empties` (in
/// their median, where any lies whole in the frame) show less: cells of `grid` (row,
/// column), which may lie past its board. With fewer than four tiles whole in the frame
/// there is no face to tell.
fn show_the_face(
    frame: &RgbaImage,
    grid: &Grid,
    tiles: &[(i64, i64)],
    cells: &[(i64, i64)],
    empties: &[(i64, i64)],
    cfg: &ReaderConfig,
) -> bool {
    let (fw, fh) = (frame.width() as f32, frame.height() as f32);
    let whole = |&(r, c): &(i64, i64)| {
        let (x, y, w, h) = grid.cell_rect(r as i32, c as i32);
        (x >= 0.0 && y >= 0.0 && x + w <= fw && y + h <= fh).then_some((x, y, w, h))
    };
    let rects: Vec<_> = tiles.iter().filter_map(whole).collect();
    if rects.len() < 4 {
        return false;
    }
    let Some(face) = face::face_colour(frame, &rects, cfg.inset) else {
        return false;
    };
    let share = |rect| face::face_share(frame, rect, cfg.inset, face, cfg.face_pixel_tol);
    let shows = |p: &(i64, i64)| {
        whole(p)
            .and_then(share)
            .is_some_and(|s| s >= cfg.contested_face_share)
    };
    if !cells.iter().all(shows) {
        return false;
    }
    let ground: Vec<f32> = empties.iter().filter_map(whole).filter_map(share).collect();
    ground.is_empty() || median(ground) < cfg.contested_face_share
}

/// Where `other`'s board lies inside `first`'s, a smaller board on the same lattice
/// ([`aligned`]): the offset of `other`'s cell (0, 0) in `first`, and which of `first`'s
/// cells lie on `other`'s board.
fn within(first: &Reading, other: &Reading) -> Option<((i64, i64), impl Fn(Pos) -> bool)> {
    let (dr, dc) = aligned(first, other)?;
    let (a, b) = (&first.board, &other.board);
    let (ar, ac) = (a.rows() as i64, a.cols() as i64);
    let (br, bc) = (b.rows() as i64, b.cols() as i64);
    if dr < 0 || dc < 0 || dr + br > ar || dc + bc > ac || (ar, ac) == (br, bc) {
        return None;
    }
    let inside = move |p: Pos| {
        let (r, c) = (p.row as i64 - dr, p.col as i64 - dc);
        (0..br).contains(&r) && (0..bc).contains(&c)
    };
    Some(((dr, dc), inside))
}

/// Whether `first` reads `other`'s board with lines around it that hold no tile: two
/// readings on one lattice ([`aligned_grids`]), `other`'s board inside `first`'s and the
/// same there (types up to renaming, `other` telling apart types `first` takes for one:
/// [`crate::board::Board::refines`]), no cell of `first` outside it a tile. A board's
/// extent is the cells that hold tiles and the empties between them; a line that holds
/// none is the ground around the board. Obstacles there count as ground too (a line of the
/// tiles' 3-D sides along one edge, a window's menu read as stones above the board), unless
/// they wall `first`'s board in on every side: games set obstacles among their tiles or
/// all around them ([`drop_foreign_edge`]).
pub fn padded_with_tileless_lines(first: &Reading, other: &Reading) -> bool {
    let Some(((dr, dc), inside)) = within(first, other) else {
        return false;
    };
    let (a, b) = (&first.board, &other.board);
    if a.positions().any(|p| !inside(p) && a.get(p).is_tile()) {
        return false;
    }
    // A side is walled by an obstacle along it, its two corners left out: a corner lies on
    // two sides, and a line of stones along the top says nothing of the left side.
    let (last_row, last_col) = (a.rows() - 1, a.cols() - 1);
    let corner = |p: Pos| (p.row == 0 || p.row == last_row) && (p.col == 0 || p.col == last_col);
    let along = |side: &dyn Fn(Pos) -> bool| {
        a.positions()
            .any(|p| side(p) && !corner(p) && a.get(p) == Cell::Obstacle)
    };
    let walled = [
        along(&|p: Pos| p.row == 0),
        along(&|p: Pos| p.row == last_row),
        along(&|p: Pos| p.col == 0),
        along(&|p: Pos| p.col == last_col),
    ];
    if walled.iter().all(|&w| w) {
        return false;
    }
    same_inside(a, b, (dr, dc))
}

/// Whether board `b`, whose cell (r, c) is `a`'s (r + dr, c + dc), reads as `a` does there
/// (types up to renaming, `b` free to tell apart types `a` takes for one:
/// [`crate::board::Board::refines`]).
fn same_inside(a: &crate::board::Board, b: &crate::board::Board, (dr, dc): (i64, i64)) -> bool {
    let mut part = crate::board::Board::new(b.rows(), b.cols());
    for p in b.positions() {
        part.set(p, at(a, p.row as i64 + dr, p.col as i64 + dc));
    }
    b.refines(&part)
}

/// Which of cell (r, c)'s four neighbours ([`SIDES`], one bit each) `board` reads as tiles:
/// a tile's ring takes in its neighbours' 3-D sides and shadows, or the ground's where it
/// has none, so rings compare between tiles with the same sides.
fn tile_sides(board: &crate::board::Board, r: i64, c: i64) -> u8 {
    SIDES.iter().enumerate().fold(0u8, |m, (i, &(dy, dx))| {
        m | ((at(board, r + dy, c + dx).is_tile() as u8) << i)
    })
}

/// The frame distance from `p` (a cell with tiles on `sides`) to the nearest of `tiles`
/// with tiles on the same sides; infinite when none has.
fn nearest_alike_frame(p: &Picture, sides: u8, tiles: &[(u8, Picture)]) -> f32 {
    tiles
        .iter()
        .filter(|t| t.0 == sides)
        .map(|t| frame_distance(p, &t.1))
        .fold(f32::INFINITY, f32::min)
}

/// Whether `first` reads `other`'s board with lines around it whose tiles lack the frame the
/// board's tiles share: two readings on one lattice ([`aligned_grids`]), `other`'s board
/// inside `first`'s and the same there ([`crate::board::Board::refines`]), every cell of
/// `first` outside it empty or a tile, and every such tile's ring farther than
/// [`ReaderConfig::obstacle_frame_max`] from both the per-block median ring of `first`'s
/// tiles inside and the nearest of those tiles with tiles on the same sides. Tiles of a
/// set share one frame; a window's menu or toolbar items that pair (two alike words on a
/// light bar) carry none of it (measured: a KShisen menu pair 58 from its tiles' ring,
/// whose own tiles lie 0.06 at the median and 7.0 at most from it).
pub fn padded_with_unframed_tiles(
    first: &Reading,
    other: &Reading,
    frame: &RgbaImage,
    cfg: &ReaderConfig,
) -> bool {
    let Some(((dr, dc), inside)) = within(first, other) else {
        return false;
    };
    let (a, b) = (&first.board, &other.board);
    let outside: Vec<Pos> = a.positions().filter(|&p| !inside(p)).collect();
    if outside
        .iter()
        .any(|&p| !matches!(a.get(p), Cell::Empty | Cell::Tile(_)))
    {
        return false;
    }
    let extra: Vec<Pos> = outside
        .into_iter()
        .filter(|&p| a.get(p).is_tile())
        .collect();
    if extra.is_empty() {
        return false;
    }
    if !same_inside(a, b, (dr, dc)) {
        return false;
    }
    let tiles: Vec<Pos> = a
        .positions()
        .filter(|&p| inside(p) && a.get(p).is_tile())
        .collect();
    let sides = |p: Pos| tile_sides(a, p.row as i64, p.col as i64);
    let integral = around(frame, &[&first.grid]);
    let described = |ps: &[Pos]| -> Option<Vec<(u8, Picture)>> {
        let pics = pictures_at(&integral, &first.grid, ps, cfg);
        (pics.len() == ps.len()).then(|| ps.iter().map(|&p| sides(p)).zip(pics).collect())
    };
    let (Some(tiles), Some(extra)) = (described(&tiles), described(&extra)) else {
        return false;
    };
    let shared = match common_frame(tiles.iter().map(|t| &t.1)) {
        Some(f) if tiles.len() >= 4 => f,
        _ => return false,
    };
    extra
        .iter()
        .all(|(k, p)| lacks_shared_frame(p, *k, &shared, &tiles, cfg))
}

/// Whether `p` (a cell with tiles on `sides`) lies farther than
/// [`ReaderConfig::obstacle_frame_max`] from both the frame `tiles` share (`shared`) and
/// the nearest of them with tiles on the same sides: it lacks the tiles' frame.
fn lacks_shared_frame(
    p: &Picture,
    sides: u8,
    shared: &Picture,
    tiles: &[(u8, Picture)],
    cfg: &ReaderConfig,
) -> bool {
    frame_distance(p, shared).min(nearest_alike_frame(p, sides, tiles)) > cfg.obstacle_frame_max
}

/// Whether `first` reads `other`'s board with lines around it whose tiles are of types
/// that are no board's: two readings on one lattice ([`aligned_grids`]), `other`'s board
/// inside `first`'s, and every tile of `first` outside it of a type with more tiles than
/// any type of `other`. A line of the tiles' 3-D sides along an edge pairs with itself, and with
/// the same sides beside cells emptied inside: a crowd of one picture, while a board's
/// types are dealt across it a few tiles each, so a line of the board that `other` left
/// out holds types of the board's size. A reading that took such a line for tiles has
/// found something other than the board, and its types inside are drawn up with those
/// crowds among them: `other`'s reading of the board is taken whatever `first` reads
/// inside.
pub fn padded_with_foreign_lines(first: &Reading, other: &Reading) -> bool {
    let Some((_, inside)) = within(first, other) else {
        return false;
    };
    let (a, b) = (&first.board, &other.board);
    let mut count = std::collections::HashMap::<Cell, (usize, usize)>::new();
    for p in a.positions().filter(|&p| a.get(p).is_tile()) {
        let n = count.entry(a.get(p)).or_default();
        if inside(p) {
            n.0 += 1;
        } else {
            n.1 += 1;
        }
    }
    let mut theirs = std::collections::HashMap::<Cell, usize>::new();
    for p in b.positions().filter(|&p| b.get(p).is_tile()) {
        *theirs.entry(b.get(p)).or_default() += 1;
    }
    let largest = theirs.values().copied().max().unwrap_or(0);
    let outside: Vec<(usize, usize)> = count.into_values().filter(|n| n.1 > 0).collect();
    largest > 0 && !outside.is_empty() && outside.iter().all(|&(ins, out)| ins + out > largest)
}

/// A cell of a lattice (row, column) and its picture.
type CellPicture = ((i64, i64), Picture);

/// Whether `first` reads only a fragment of what `other` reads: two sure readings on
/// lattices of one pitch (within 5 %) that do not line up ([`aligned_grids`]), over
/// overlapping parts of the frame, `other` with at least [`FRAGMENT_RATIO`] times
/// `first`'s tiles. Tiles of a type are one sprite wherever they lie, so a lattice laid on
/// the board pairs them across all of it; a reading that pairs a few strips of 3-D sides
/// or chrome beside or over the board while another pairs the whole board's faces has
/// found something that repeats, not the board (a KShisen 30×16 board read as a 2×22
/// strip of tile tops above it). At another pitch the cells themselves differ (a tile
/// read as three cells counts three times), so such readings are not compared this way.
pub fn fragment_of(first: &Reading, other: &Reading) -> bool {
    let (a, b) = (&first.grid, &other.grid);
    let (ax, ay, aw, ah) = a.bounds();
    let (bx, by, bw, bh) = b.bounds();
    let overlap = ax < bx + bw && bx < ax + aw && ay < by + bh && by < ay + ah;
    overlap
        && same_pitch(a, b)
        && aligned_grids(a, b).is_none()
        && other.board.tile_count() as f32 >= FRAGMENT_RATIO * first.board.tile_count() as f32
}

/// How many times the tiles of a reading on another lattice make the first a fragment of
/// it ([`fragment_of`]).
pub const FRAGMENT_RATIO: f32 = 2.0;

/// How `other`'s lattice lies on `first`'s: `other`'s cell (r, c) is `first`'s
/// (r + dr, c + dc), when the pitches agree within 5 % and the origins lie a whole number
/// of cells apart (within 0.3 of a cell); `None` otherwise.
fn aligned(first: &Reading, other: &Reading) -> Option<(i64, i64)> {
    aligned_grids(&first.grid, &other.grid)
}

/// How grid `gb` lies on grid `ga`: `gb`'s cell (r, c) is `ga`'s (r + dr, c + dc), when the
/// pitches agree within 5 % and the origins lie a whole number of cells apart (within 0.3
/// of a cell); `None` otherwise.
pub fn aligned_grids(ga: &Grid, gb: &Grid) -> Option<(i64, i64)> {
    let shift = |oa: f32, ob: f32, p: f32| {
        let k = (ob - oa) / p;
        ((k - k.round()).abs() <= 0.3).then_some(k.round() as i64)
    };
    let dc = shift(ga.origin.0, gb.origin.0, ga.pitch.0)?;
    let dr = shift(ga.origin.1, gb.origin.1, ga.pitch.1)?;
    same_pitch(ga, gb).then_some((dr, dc))
}

/// Whether `gb`'s pitch agrees with `ga`'s within 5 % on both axes.
fn same_pitch(ga: &Grid, gb: &Grid) -> bool {
    (ga.pitch.0 - gb.pitch.0).abs() <= 0.05 * ga.pitch.0
        && (ga.pitch.1 - gb.pitch.1).abs() <= 0.05 * ga.pitch.1
}

/// The cell of `board` at (r, c), which may lie off it (then empty).
fn at(board: &crate::board::Board, r: i64, c: i64) -> Cell {
    if r < 0 || c < 0 || r >= board.rows() as i64 || c >= board.cols() as i64 {
        Cell::Empty
    } else {
        board.get(Pos::new(r as usize, c as usize))
    }
}

/// Which of two sure readings of one lattice to believe where their types cross: each
/// puts together tiles the other keeps apart (where one only splits the other's types,
/// [`replaces`] decides).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CrossingVerdict {
    /// The types do not cross (or the lattices differ).
    No,
    /// `other`'s crossing types each show one sprite, `first`'s do not.
    Other,
    /// `first`'s crossing types each show one sprite, `other`'s do not.
    First,
    /// The pictures do not tell: these cells (on `first`'s board) are in doubt.
    Undecided(Vec<Pos>),
}

/// A tile two readings both read: its cell on the first's lattice, the first's type and
/// the other's.
type TileOfBoth = ((i64, i64), u8, u8);

/// The types whose tiles the other reading deals across two or more of its own: first's
/// types, then other's.
fn spread_types(both: &[TileOfBoth]) -> (Vec<u8>, Vec<u8>) {
    use std::collections::{BTreeMap, BTreeSet};
    let mut of_first: BTreeMap<u8, BTreeSet<u8>> = BTreeMap::new();
    let mut of_other: BTreeMap<u8, BTreeSet<u8>> = BTreeMap::new();
    for &(_, x, y) in both {
        of_first.entry(x).or_default().insert(y);
        of_other.entry(y).or_default().insert(x);
    }
    let spread = |m: &BTreeMap<u8, BTreeSet<u8>>| -> Vec<u8> {
        m.iter().filter(|e| e.1.len() > 1).map(|e| *e.0).collect()
    };
    (spread(&of_first), spread(&of_other))
}

/// Tiles of a type are drawn from one sprite, so where two sure readings' types cross, at
/// most one of them is right. A type shows one sprite when the longest edge of its tiles'
/// spanning tree (by [`distance`]) is at most [`ReaderConfig::one_sprite_edge`]; the
/// crossing types are the types of either reading that hold tiles of two of the other's.
pub fn crossing(
    first: &Reading,
    other: &Reading,
    frame: &RgbaImage,
    cfg: &ReaderConfig,
) -> CrossingVerdict {
    let Some((dr, dc)) = aligned(first, other) else {
        return CrossingVerdict::No;
    };
    let (a, b) = (&first.board, &other.board);
    // Tiles both read, by (first's type, other's type).
    let both: Vec<TileOfBoth> = a
        .positions()
        .filter_map(|p| {
            let (r, c) = (p.row as i64, p.col as i64);
            match (a.get(p), at(b, r - dr, c - dc)) {
                (Cell::Tile(x), Cell::Tile(y)) => Some(((r, c), x, y)),
                _ => None,
            }
        })
        .collect();
    let (wide_first, wide_other) = spread_types(&both);
    if wide_first.is_empty() || wide_other.is_empty() {
        return CrossingVerdict::No;
    }
    let integral = around(frame, &[&first.grid, &other.grid]);
    // Whether every type in `types` (of the reading picked by `pick`) shows one sprite, its
    // tiles described on that reading's own lattice (`grid`, where the first's cell (r, c)
    // is (r - shift.0, c - shift.1)): on the other's lattice a few pixels off, cells take in
    // their neighbours' edges and no type of the other shows one sprite.
    let one_sprite = |types: &[u8], pick: fn(&TileOfBoth) -> u8, grid: &Grid, shift: (i64, i64)| {
        types.iter().all(|&t| {
            let cells: Vec<Pos> = both
                .iter()
                .filter(|e| pick(e) == t)
                .map(|e| Pos::new((e.0 .0 - shift.0) as usize, (e.0 .1 - shift.1) as usize))
                .collect();
            let pics = pictures_at(&integral, grid, &cells, cfg);
            let refs: Vec<&Picture> = pics.iter().collect();
            spanning_tree(&refs, f32::INFINITY)
                .iter()
                .all(|e| e.2 <= cfg.one_sprite_edge)
        })
    };
    match (
        one_sprite(&wide_first, |e| e.1, &first.grid, (0, 0)),
        one_sprite(&wide_other, |e| e.2, &other.grid, (dr, dc)),
    ) {
        (false, true) => CrossingVerdict::Other,
        (true, false) => CrossingVerdict::First,
        _ => CrossingVerdict::Undecided(
            both.iter()
                .filter(|e| wide_first.contains(&e.1) || wide_other.contains(&e.2))
                .map(|e| Pos::new(e.0 .0 as usize, e.0 .1 as usize))
                .collect(),
        ),
    }
}

/// The pictures of `cells` on `grid` (cells that cannot be described are left out).
fn pictures_at(
    integral: &Integral,
    grid: &Grid,
    cells: &[Pos],
    cfg: &ReaderConfig,
) -> Vec<Picture> {
    cells
        .iter()
        .filter_map(|p| describe(integral, grid.cell_rect(p.row as i32, p.col as i32), cfg))
        .collect()
}

/// The summed-area table of the part of `frame` the grids cover, one pitch around: every
/// cell these checks describe lies there (a whole 1080p frame costs milliseconds).
fn around(frame: &RgbaImage, grids: &[&Grid]) -> Integral {
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for g in grids {
        let (x, y, w, h) = g.bounds();
        x0 = x0.min(x - g.pitch.0);
        y0 = y0.min(y - g.pitch.1);
        x1 = x1.max(x + w + g.pitch.0);
        y1 = y1.max(y + h + g.pitch.1);
    }
    let (x0, y0) = (x0.floor() as i64, y0.floor() as i64);
    Integral::new(frame, x0, y0, x1.ceil() as i64 - x0, y1.ceil() as i64 - y0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reading_of(rows: &[&str]) -> Reading {
        let board = crate::board::Board::from_rows(rows).unwrap();
        Reading {
            grid: Grid {
                origin: (10.0, 20.0),
                pitch: (30.0, 40.0),
                rows: board.rows(),
                cols: board.cols(),
            },
            board,
            unsure: vec![Pos::new(2, 1)],
            selected: Vec::new(),
        }
    }

    #[test]
    fn a_doubt_stands_where_the_sure_reading_differs_only_there() {
        // The doubting reading: two marked tiles at (0,0) and (0,2) read as A, in doubt.
        let mut doubting = reading_of(&["ABAC", "DBCD", "....", "EAEF", "GGF."]);
        doubting.unsure = vec![Pos::new(0, 0), Pos::new(0, 2)];
        // The sure one makes the marked pair a type of its own: differs only where doubted.
        let mut split = reading_of(&["XBXC", "DBCD", "....", "EAEF", "GGF."]);
        split.unsure.clear();
        assert!(differs_only_where_doubted(&doubting, &split));
        // The same reading confirms the doubts: nothing stands in its way.
        let mut same = doubting.clone();
        same.unsure.clear();
        assert!(!differs_only_where_doubted(&doubting, &same));
        // A difference on a cell not in doubt: the readings disagree on the board.
        let mut other = reading_of(&["XBXC", "DBCD", "....", "EAEF", "GHF."]);
        other.unsure.clear();
        assert!(!differs_only_where_doubted(&doubting, &other));
        // Obstacles on one where the other reads tiles: not the same cells read.
        let mut stones = reading_of(&["#B#C", "DBCD", "....", "EAEF", "GGF."]);
        stones.unsure.clear();
        assert!(!differs_only_where_doubted(&doubting, &stones));
        // Another lattice (a cell's offset): not the same cells.
        let mut moved = split.clone();
        moved.grid.origin.0 += 15.0;
        assert!(!differs_only_where_doubted(&doubting, &moved));
    }

    #[test]
    fn a_type_holding_most_of_the_tiles_is_doubted() {
        // Twelve of thirty tiles one type: many, but not most.
        let mut r = reading_of(&["AAAAAA", "AAAAAA", "BBCCDD", "EEFFGG", "HHIIJJ"]);
        assert_eq!(doubt_crowds(&mut r, &ReaderConfig::default()), 0);
        // A panel over the lattice: sixteen cells of one picture among twenty-four.
        let mut r = reading_of(&["ABCCCC", "ABCCCC", "ABCCCC", "ABCCCC"]);
        assert_eq!(doubt_crowds(&mut r, &ReaderConfig::default()), 16);
        assert!(r.unsure.contains(&Pos::new(0, 2)) && !r.unsure.contains(&Pos::new(0, 0)));
        // A board near its end: two types, few tiles each.
        let mut r = reading_of(&["A..A", ".BB.", "...."]);
        assert_eq!(doubt_crowds(&mut r, &ReaderConfig::default()), 0);
    }

    #[test]
    fn a_board_read_with_tileless_lines_around_it_is_padded() {
        // The same board one row and two columns in, on the same lattice.
        let mut first = reading_of(&[".....", "..AB.", "..BA."]);
        let mut other = reading_of(&["CD", "DC"]);
        other.grid.origin = (10.0 + 2.0 * 30.0, 20.0 + 40.0);
        assert!(padded_with_tileless_lines(&first, &other));
        // Obstacles on the padded lines are the ground beside the board too (3-D sides
        // along an edge, a menu above it)...
        first.board = Board::from_rows(&["##..#", "..AB.", "..BA."]).unwrap();
        assert!(padded_with_tileless_lines(&first, &other));
        // ...unless they wall the board in on every side.
        let walled = reading_of(&["..#..", "#.AB.", "..BA#", ".#..."]);
        assert!(!padded_with_tileless_lines(&walled, &other));
        // Lines of stones along the top and the bottom reach the left and right sides only
        // at their corners (a window's menu and status bar read as stones).
        let lined = reading_of(&["#####", "..AB.", "..BA.", "#####"]);
        assert!(padded_with_tileless_lines(&lined, &other));
        // Not when a padded line holds a tile, the board inside differs, or the lattices do
        // not line up.
        first.board = Board::from_rows(&["....C", "..AB.", "..BA."]).unwrap();
        assert!(!padded_with_tileless_lines(&first, &other));
        first.board = Board::from_rows(&[".....", "..AA.", "..BB."]).unwrap();
        assert!(!padded_with_tileless_lines(&first, &other));
        first.board = Board::from_rows(&[".....", "..AB.", "..BA."]).unwrap();
        other.grid.origin.0 += 15.0;
        assert!(!padded_with_tileless_lines(&first, &other));
        // Nor the same board on the same cells.
        assert!(!padded_with_tileless_lines(&first, &first));
    }

    #[test]
    fn a_board_read_with_lines_of_one_outsized_type_around_it_is_padded() {
        // The board one row and two columns in, on the same lattice; around it, a line of
        // one picture down the right and along the bottom (3-D sides read as a type),
        // while inside `first` puts two of `other`'s types together.
        let mut other = reading_of(&["CD", "DD"]);
        other.grid.origin = (10.0 + 2.0 * 30.0, 20.0 + 40.0);
        let sided = reading_of(&[".....", "..ABX", "..BAX", "XXXX."]);
        assert!(padded_with_foreign_lines(&sided, &other));
        // The same picture beside cells emptied inside is the same crowd.
        let emptied = reading_of(&[".....", "..AXX", "..BAX", "XXXX."]);
        assert!(padded_with_foreign_lines(&emptied, &other));
        // Not when a type outside is no larger than the other reading's types (a pair in
        // a line the other left out, or a type found inside too), nor with nothing
        // outside.
        let twins = reading_of(&[".....", "..ABA", "..BAB", "....."]);
        assert!(!padded_with_foreign_lines(&twins, &other));
        let pair = reading_of(&[".....", "..ABX", "..BAX", "....."]);
        assert!(!padded_with_foreign_lines(&pair, &other));
        let bare = reading_of(&[".....", "..AB.", "..BA."]);
        assert!(!padded_with_foreign_lines(&bare, &other));
    }

    #[test]
    fn a_lone_edge_line_of_obstacles_is_no_part_of_the_board() {
        let mut r = reading_of(&["####", "AB.C", "CA.B", "..A."]);
        assert!(drop_foreign_edge(&mut r, false, false));
        assert_eq!(r.board.row_strings(), vec!["AB.C", "CA.B", "..A."]);
        assert_eq!((r.grid.origin, r.grid.rows), ((10.0, 60.0), 3));
        assert_eq!(r.unsure, vec![Pos::new(1, 1)]);
        // Not when a hint fixes the rows.
        let mut hinted = reading_of(&["####", "AB.C", "CA.B", "..A."]);
        assert!(!drop_foreign_edge(&mut hinted, true, false));
    }

    #[test]
    fn an_edge_line_of_one_picture_outnumbering_every_type_is_no_part_of_the_board() {
        let mut r = reading_of(&["ABAB", "CDCD", "BA..", "EEEE"]);
        assert!(drop_foreign_edge(&mut r, false, false));
        assert_eq!(r.board.row_strings(), vec!["ABAB", "CDCD", "BA.."]);
        // Not when the picture is also found off the line, when another type holds as
        // many tiles, or when the line has a gap.
        let mut inside = reading_of(&["ABAE", "CDCD", "BA..", "EEEE"]);
        assert!(!drop_foreign_edge(&mut inside, false, false));
        let mut as_many = reading_of(&["ABAB", "CDCA", "BA..", "EEEE"]);
        assert!(!drop_foreign_edge(&mut as_many, false, false));
        let mut gap = reading_of(&["ABAB", "CDCD", "BA..", "EEE."]);
        assert!(!drop_foreign_edge(&mut gap, false, false));
    }

    #[test]
    fn obstacles_among_the_tiles_or_on_every_side_stay() {
        // The line's look also stands inside the board.
        let mut inside = reading_of(&["####", "AB#C", "CA.B", "..A."]);
        assert!(!drop_foreign_edge(&mut inside, false, false));
        // A board walled in on every side.
        let mut ring = reading_of(&["####", "#AB#", "#BA#", "####"]);
        assert!(!drop_foreign_edge(&mut ring, false, false));
        assert_eq!(ring.board.rows(), 4);
    }
    use crate::board::Board;
    use crate::geometry::Grid;
    use image::Rgba;

    /// A 2x4 board of 40 px cells on grey; cell (r, c) gets the sprite `looks[r][c]`: 0 is
    /// ground, others a stripe pattern whose stripe width is the look number.
    fn frame_with(looks: [[u32; 4]; 2]) -> (RgbaImage, Grid) {
        let mut img = RgbaImage::from_pixel(200, 120, Rgba([120, 120, 120, 255]));
        for (r, row) in looks.iter().enumerate() {
            for (c, &k) in row.iter().enumerate() {
                if k == 0 {
                    continue;
                }
                for y in 0..40 {
                    for x in 0..40 {
                        let on = ((x / (2 * k)) + (y / (3 * k))) % 2 == 0;
                        let v: u8 = if on { 230 } else { 30 };
                        let g = v.wrapping_add(40u8.wrapping_mul(k as u8)) % 255;
                        let px = Rgba([v, g, 255 - v, 255]);
                        img.put_pixel(20 + c as u32 * 40 + x, 20 + r as u32 * 40 + y, px);
                    }
                }
            }
        }
        let grid = Grid {
            origin: (20.0, 20.0),
            pitch: (40.0, 40.0),
            rows: 2,
            cols: 4,
        };
        (img, grid)
    }

    fn reading(grid: Grid, rows: &str) -> Reading {
        Reading {
            grid,
            board: Board::parse(rows).unwrap(),
            unsure: vec![],
            selected: vec![],
        }
    }

    /// A 3x4 board of 40 px cells on grey: `0` ground, `9` an obstacle filling its cell (a
    /// dark crate), any other digit a tile: a cream frame 5 px wide around a pattern of
    /// that number.
    fn board_frame(cells: [&str; 3]) -> (RgbaImage, Grid) {
        let mut img = RgbaImage::from_pixel(200, 160, Rgba([120, 120, 120, 255]));
        for (r, row) in cells.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let k = ch.to_digit(10).unwrap();
                if k == 0 {
                    continue;
                }
                for y in 0..40u32 {
                    for x in 0..40u32 {
                        let px = if k == 9 {
                            let plank = (x / 8 + y / 8) % 2 == 0;
                            if plank {
                                Rgba([90, 60, 30, 255])
                            } else {
                                Rgba([60, 40, 20, 255])
                            }
                        } else if x < 5 || y < 5 || x >= 35 || y >= 35 {
                            Rgba([235, 225, 200, 255])
                        } else {
                            let on = ((x / k) + (y / (k + 1))) % 2 == 0;
                            let v: u8 = if on { 220 } else { 40 };
                            Rgba([
                                v,
                                v.wrapping_add(30u8.wrapping_mul(k as u8)) % 255,
                                255 - v,
                                255,
                            ])
                        };
                        img.put_pixel(20 + c as u32 * 40 + x, 20 + r as u32 * 40 + y, px);
                    }
                }
            }
        }
        let grid = Grid {
            origin: (20.0, 20.0),
            pitch: (40.0, 40.0),
            rows: 3,
            cols: 4,
        };
        (img, grid)
    }

    /// A reading on a lattice 11 px left of the tiles' takes the column past the board's
    /// right edge, where the tiles' 3-D side falls, as obstacles: on that lattice each of
    /// its cells holds the last tiles' edge and the side, more than one side's band; where
    /// the other reading puts the column (off its board) it shows the side and the ground.
    #[test]
    fn ground_is_judged_where_the_other_reading_puts_it() {
        let cfg = ReaderConfig::default();
        let (small, grid) = board_frame(["1122", "3344", "5566"]);
        // Room for a ring of ground cells all round, and a 3-D side right of the board.
        let mut img = RgbaImage::from_pixel(280, 240, Rgba([120, 120, 120, 255]));
        image::imageops::replace(&mut img, &small, 40, 40);
        for y in 60..180 {
            for x in 220..234 {
                img.put_pixel(x, y, Rgba([70, 70, 70, 255]));
            }
        }
        let grid = Grid {
            origin: (60.0, 60.0),
            ..grid
        };
        let other = reading(grid, "AABB\nCCDD\nEEFF");
        let off = Grid {
            origin: (49.0, 60.0),
            cols: 5,
            ..grid
        };
        let first = reading(off, "AABB#\nCCDD#\nEEFF#");
        assert!(replaces(&first, &other, &img, &cfg));
    }

    #[test]
    fn framed_cells_called_obstacles_are_tiles() {
        let cfg = ReaderConfig::default();
        let (img, grid) = board_frame(["1122", "3344", "5500"]);
        let first = reading(grid, "AABB\nCCDD\n##..");
        let other = reading(grid, "AABB\nCCDD\nEE..");
        assert!(replaces(&first, &other, &img, &cfg));
        // Frameless crates stay obstacles.
        let (img, _) = board_frame(["1122", "3344", "9900"]);
        assert!(!replaces(&first, &other, &img, &cfg));
    }

    #[test]
    fn framed_cells_called_ground_are_tiles() {
        let cfg = ReaderConfig::default();
        let (img, grid) = board_frame(["1122", "3344", "5500"]);
        let other = reading(grid, "AABB\nCCDD\nEE..");
        let first = reading(grid, "AABB\nCCDD\n....");
        assert!(replaces(&first, &other, &img, &cfg));
        // The same pair on a line outside `first`'s board.
        let short = Grid { rows: 2, ..grid };
        let first = reading(short, "AABB\nCCDD");
        assert!(replaces(&first, &other, &img, &cfg));
        // Ground called tiles stays ground.
        let (img, _) = board_frame(["1122", "3344", "0000"]);
        let first = reading(grid, "AABB\nCCDD\n....");
        assert!(!replaces(&first, &other, &img, &cfg));
    }

    /// `img` on a canvas 40 px wider on each side (its grid moved with it), its flat grey
    /// ground replaced by a wood-like texture: grain across the frame and per-pixel noise,
    /// so that no two ground cells are alike.
    fn textured((small, grid): (RgbaImage, Grid)) -> (RgbaImage, Grid) {
        let mut img = RgbaImage::from_pixel(
            small.width() + 80,
            small.height() + 80,
            Rgba([120, 120, 120, 255]),
        );
        image::imageops::overlay(&mut img, &small, 40, 40);
        for (x, y, px) in img.enumerate_pixels_mut() {
            if px.0 == [120, 120, 120, 255] {
                let grain = 25.0 * ((x as f32 / 7.0).sin() * (y as f32 / 23.0).cos());
                let noise = ((x.wrapping_mul(7919) ^ y.wrapping_mul(104_729)) % 21) as f32 - 10.0;
                let v = (120.0 + grain + noise) as u8;
                *px = Rgba([v, v.saturating_sub(20), v.saturating_sub(50), 255]);
            }
        }
        let origin = (grid.origin.0 + 40.0, grid.origin.1 + 40.0);
        (img, Grid { origin, ..grid })
    }

    #[test]
    fn cells_called_obstacles_that_show_the_ground_are_empty() {
        let cfg = ReaderConfig::default();
        let (img, grid) = textured(board_frame(["1122", "3344", "0000"]));
        let first = reading(grid, "AABB\nCCDD\n##..");
        let other = reading(grid, "AABB\nCCDD\n....");
        assert!(replaces(&first, &other, &img, &cfg));
        // A line of ground beside the board that `other` leaves off.
        let short = Grid { rows: 2, ..grid };
        assert!(replaces(&first, &reading(short, "AABB\nCCDD"), &img, &cfg));
        // Crates drawn over the ground stay obstacles, on textured ground and on flat.
        let (img, _) = textured(board_frame(["1122", "3344", "9900"]));
        assert!(!replaces(&first, &other, &img, &cfg));
        let (img, grid) = board_frame(["1122", "3344", "9900"]);
        let first = reading(grid, "AABB\nCCDD\n##..");
        let other = reading(grid, "AABB\nCCDD\n....");
        assert!(!replaces(&first, &other, &img, &cfg));
    }

    #[test]
    fn crates_called_ground_are_obstacles() {
        let cfg = ReaderConfig::default();
        let (img, grid) = textured(board_frame(["1122", "3344", "9900"]));
        let first = reading(grid, "AABB\nCCDD\n....");
        let other = reading(grid, "AABB\nCCDD\n##..");
        assert!(replaces(&first, &other, &img, &cfg));
        // Ground called obstacles stays ground.
        let (img, _) = textured(board_frame(["1122", "3344", "0000"]));
        assert!(!replaces(&first, &other, &img, &cfg));
    }

    #[test]
    fn obstacles_past_the_board_must_be_copies_of_its_stones() {
        let cfg = ReaderConfig::default();
        let (img, grid) = textured(board_frame(["1190", "2233", "9900"]));
        let short = Grid { rows: 2, ..grid };
        let other = reading(grid, "AA#.\nBBCC\n##..");
        assert!(replaces(&reading(short, "AA#.\nBBCC"), &other, &img, &cfg));
        assert!(replaces(&reading(short, "AA..\nBBCC"), &other, &img, &cfg));
        // No stone on the first board: the line past it may be anything drawn there.
        let (img, grid) = textured(board_frame(["1100", "2233", "9900"]));
        let short = Grid { rows: 2, ..grid };
        let other = reading(grid, "AA..\nBBCC\n##..");
        assert!(!replaces(&reading(short, "AA..\nBBCC"), &other, &img, &cfg));
    }

    /// `img` with a 3-D side under each tile of `grid`'s row `r`: a dark band `depth` px
    /// deep across the top of the cell below, its last quarter fading like a drop shadow.
    fn with_sides(mut img: RgbaImage, grid: &Grid, r: usize, depth: u32) -> RgbaImage {
        let y0 = (grid.origin.1 + (r + 1) as f32 * grid.pitch.1) as u32;
        let (x0, x1) = (
            grid.origin.0 as u32,
            (grid.origin.0 + grid.bounds().2) as u32,
        );
        for y in y0..y0 + depth {
            let fade = (4 * (y - y0)).saturating_sub(3 * depth);
            let v = (20 + 100 * fade / depth) as u8;
            for x in x0..x1 {
                img.put_pixel(x, y, Rgba([v, v, v / 2, 255]));
            }
        }
        img
    }

    #[test]
    fn cells_under_a_tile_side_called_obstacles_or_tiles_are_empty() {
        let cfg = ReaderConfig::default();
        let (img, grid) = textured(board_frame(["1122", "3344", "0000"]));
        // A side and shadow over 30 % of the cell below the second row.
        let sided = with_sides(img.clone(), &grid, 1, 12);
        let other = reading(grid, "AABB\nCCDD\n....");
        for first in ["AABB\nCCDD\n####", "AABB\nCCDD\nEEEE"] {
            assert!(
                replaces(&reading(grid, first), &other, &sided, &cfg),
                "{first}"
            );
        }
        // The same line, which `other` leaves off its board.
        let short = Grid { rows: 2, ..grid };
        let first = reading(grid, "AABB\nCCDD\n####");
        assert!(replaces(
            &first,
            &reading(short, "AABB\nCCDD"),
            &sided,
            &cfg
        ));
        // A band over most of the cell is no tile's side.
        let covered = with_sides(img, &grid, 1, 30);
        assert!(!replaces(&first, &other, &covered, &cfg));
    }

    #[test]
    fn where_types_cross_the_reading_of_one_sprite_types_wins() {
        let cfg = ReaderConfig::default();
        let (img, grid) = board_frame(["1122", "3344", "5566"]);
        let right = reading(grid, "AABB\nCCDD\nEEFF");
        // Sprites 1 and 2 as one type, sprites 3 and 4 dealt across two types: every type
        // even, so sure, but it crosses the right reading's types.
        let wrong = reading(grid, "AAAA\nBCBC\nEEFF");
        assert_eq!(crossing(&wrong, &right, &img, &cfg), CrossingVerdict::Other);
        assert_eq!(crossing(&right, &wrong, &img, &cfg), CrossingVerdict::First);
        // Types that only split the other's are not a crossing (`replaces` decides those).
        let split = reading(grid, "AABB\nCCDD\nEEGG");
        let merged = reading(grid, "AABB\nCCDD\nEEEE");
        assert_eq!(crossing(&merged, &split, &img, &cfg), CrossingVerdict::No);
        // Where the pictures do not tell (here sprites 5 and 6 drawn alike), the crossing
        // tiles are in doubt.
        let (img, _) = board_frame(["1122", "3344", "5555"]);
        let a = reading(grid, "AABB\nCCDD\nEFEF");
        let b = reading(grid, "AABB\nCCDD\nEEFF");
        match crossing(&a, &b, &img, &cfg) {
            CrossingVerdict::Undecided(cells) => assert_eq!(cells.len(), 4),
            other => panic!("{other:?}"),
        }
    }

    /// The crossing reading lies on a lattice a fifth of a cell below the tiles (the same
    /// lattice by [`aligned_grids`]), and no two tiles of a sprite have the same tile below
    /// them: each reading's types are judged on its own lattice, where the right one's
    /// show one sprite; on the shifted lattice neither's would.
    #[test]
    fn crossing_types_are_judged_on_each_readings_own_lattice() {
        let cfg = ReaderConfig::default();
        let (img, grid) = board_frame(["1234", "3412", "5656"]);
        let right = reading(grid, "ABCD\nCDAB\nEFEF");
        let shifted = Grid {
            origin: (20.0, 32.0),
            ..grid
        };
        let wrong = reading(shifted, "AABC\nCBAA\nEFEF");
        assert_eq!(crossing(&wrong, &right, &img, &cfg), CrossingVerdict::Other);
        assert_eq!(crossing(&right, &wrong, &img, &cfg), CrossingVerdict::First);
    }

    #[test]
    fn lines_whose_tiles_lack_the_tiles_frame_are_no_part_of_the_board() {
        let cfg = ReaderConfig::default();
        // Row 0 holds two alike pictures without the tiles' cream frame (a menu's items).
        let (img, grid) = board_frame(["9900", "1122", "3344"]);
        let first = reading(grid, "AA..\nBBCC\nDDEE");
        let inner = Grid {
            origin: (20.0, 60.0),
            rows: 2,
            ..grid
        };
        let other = reading(inner, "FFGG\nHHII");
        assert!(padded_with_unframed_tiles(&first, &other, &img, &cfg));
        // Tiles framed as the board's are: the other reading left a pair of the board out.
        let (img, _) = board_frame(["5500", "1122", "3344"]);
        assert!(!padded_with_unframed_tiles(&first, &other, &img, &cfg));
        // Nor when the boards differ inside.
        let (img, _) = board_frame(["9900", "1122", "3344"]);
        let differ = reading(inner, "FFFF\nHHII");
        assert!(!padded_with_unframed_tiles(&first, &differ, &img, &cfg));
    }

    #[test]
    fn a_type_holding_several_sprites_becomes_as_many_types() {
        let cfg = ReaderConfig::default();
        let (img, grid) = board_frame(["1111", "2222", "3300"]);
        let mut r = reading(grid, "AAAA\nAAAA\nBB..");
        assert_eq!(split_sprite_types(&img, &mut r, &cfg), 1);
        let want = Board::parse("AAAA\nCCCC\nBB..").unwrap();
        assert_eq!(r.board.renaming_mismatches(&want), Some(vec![]));
        // One sprite stays one type.
        let (img, _) = board_frame(["1111", "1111", "3300"]);
        let mut r = reading(grid, "AAAA\nAAAA\nBB..");
        assert_eq!(split_sprite_types(&img, &mut r, &cfg), 0);
        // Three sprites in one type are three types.
        let (img, _) = board_frame(["1111", "2222", "3333"]);
        let mut r = reading(grid, "AAAA\nAAAA\nAAAA");
        assert_eq!(split_sprite_types(&img, &mut r, &cfg), 2);
        let want = Board::parse("AAAA\nBBBB\nCCCC").unwrap();
        assert_eq!(r.board.renaming_mismatches(&want), Some(vec![]));
        // Two tiles unlike the rest are a tint (a removal's pair), not a second type.
        let (img, _) = board_frame(["1111", "1122", "3300"]);
        let mut r = reading(grid, "AAAA\nAAAA\nBB..");
        assert_eq!(split_sprite_types(&img, &mut r, &cfg), 0);
    }

    #[test]
    fn a_split_type_may_find_its_twins_among_cells_called_obstacles() {
        let cfg = ReaderConfig::default();
        // Sprites 3 and 5 each have one tile in the top row and one in the bottom row,
        // which `first` calls obstacles; `first` also puts the top two in one type.
        let (img, grid) = board_frame(["1135", "2244", "3500"]);
        let first = reading(grid, "AACC\nBBDD\n##..");
        let other = reading(grid, "AACE\nBBDD\nCE..");
        assert!(replaces(&first, &other, &img, &cfg));
    }

    #[test]
    fn a_type_of_two_sprites_is_split() {
        let cfg = ReaderConfig::default();
        let (img, grid) = board_frame(["1122", "3344", "5566"]);
        let merged = reading(grid, "AABB\nCCDD\nEEEE");
        let split = reading(grid, "AABB\nCCDD\nEEFF");
        assert!(replaces(&merged, &split, &img, &cfg));
        // Splitting one sprite's tiles, or merging two types, is not taken.
        let (img, _) = board_frame(["1122", "3344", "5555"]);
        assert!(!replaces(&merged, &split, &img, &cfg));
        assert!(!replaces(&split, &merged, &img, &cfg));
        // Nor one sprite's tiles whose halves differ a little (compression noise, a
        // light across part of the board): each twin nearer its own half, but not apart
        // as two sprites are.
        let (mut img, grid) = board_frame(["1122", "3344", "5555"]);
        for y in 100..140 {
            for x in 100..180 {
                for ch in img.get_pixel_mut(x, y).0.iter_mut().take(3) {
                    *ch = ch.saturating_add(8);
                }
            }
        }
        assert!(!replaces(
            &reading(grid, "AABB\nCCDD\nEEEE"),
            &split,
            &img,
            &cfg
        ));
    }

    #[test]
    fn readings_on_other_lattices_are_not_compared() {
        let cfg = ReaderConfig::default();
        let (img, grid) = board_frame(["1122", "3344", "5500"]);
        let first = reading(grid, "AABB\nCCDD\n##..");
        let half = Grid {
            pitch: (40.0, 20.0),
            rows: 6,
            ..grid
        };
        let other = reading(half, "AABB\nAABB\nCCDD\nCCDD\nEE..\nEE..");
        assert!(!replaces(&first, &other, &img, &cfg));
    }

    /// A strip of two rows read on a lattice half a cell off the one another reading lays
    /// over the whole board is a fragment of it; the same strip on the board's own lattice,
    /// a lattice at a third of the pitch (each tile three cells), or a board elsewhere in
    /// the frame is not.
    #[test]
    fn a_strip_beside_a_whole_board_is_a_fragment() {
        let board = Grid {
            origin: (40.0, 100.0),
            pitch: (30.0, 40.0),
            rows: 6,
            cols: 8,
        };
        let whole = reading(
            board,
            "ABCDEFGH\nHGFEDCBA\nIJKLMNOP\nPONMLKJI\nQRSTUVWX\nXWVUTSRQ",
        );
        let strip = |origin: (f32, f32), pitch: (f32, f32)| {
            reading(
                Grid {
                    origin,
                    pitch,
                    rows: 2,
                    cols: 6,
                },
                "ABABAB\nBABABA",
            )
        };
        assert!(fragment_of(&strip((55.0, 80.0), (30.0, 40.0)), &whole));
        assert!(!fragment_of(&strip((40.0, 100.0), (30.0, 40.0)), &whole));
        assert!(!fragment_of(&strip((55.0, 80.0), (30.0, 13.3)), &whole));
        assert!(!fragment_of(&strip((55.0, 400.0), (30.0, 40.0)), &whole));
        assert!(!fragment_of(&whole, &strip((55.0, 80.0), (30.0, 40.0))));
    }

    #[test]
    fn obstacles_of_one_sprite_are_one_look_and_stay_sure() {
        let cfg = ReaderConfig::default();
        let (img, grid) = frame_with([[1, 1, 2, 2], [1, 0, 0, 1]]);
        let mut r = reading(grid, "##AA\n#..#");
        assert_eq!(obstacle_looks(&img, &r, &cfg), 1);
        doubt_mixed_obstacles(&img, &mut r, &cfg);
        assert!(r.unsure.is_empty());
    }

    #[test]
    fn obstacles_of_three_sprites_are_tiles_left_unpaired() {
        let cfg = ReaderConfig::default();
        let (img, grid) = frame_with([[1, 2, 3, 3], [1, 2, 0, 0]]);
        let mut r = reading(grid, "###A\n##..");
        assert_eq!(obstacle_looks(&img, &r, &cfg), 3);
        doubt_mixed_obstacles(&img, &mut r, &cfg);
        assert_eq!(r.unsure.len(), 5, "every obstacle is unsure");
    }

    fn tally(tiles: usize, lone: usize, odd: usize) -> Tally {
        Tally {
            tiles,
            lone,
            odd,
            rows: 6,
            cols: 14,
            ring_framed: [false; 4],
        }
    }

    #[test]
    fn a_paired_board_passes_with_a_selection() {
        let cfg = ReaderConfig::default();
        assert!(judge(&tally(84, 0, 0), &cfg).is_ok());
        assert!(judge(&tally(84, 1, 0), &cfg).is_ok());
    }

    #[test]
    fn a_board_of_one_picture_is_a_pattern_and_two_make_a_board() {
        let cfg = ReaderConfig::default();
        let pattern = reading_of(&["AAAAAA"]);
        assert_eq!(judge_types(&pattern, &cfg).unwrap_err().kind(), "no-board");
        assert!(judge_types(&reading_of(&["AABB#.", "......"]), &cfg).is_ok());
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
