//! A lattice that cuts every tile in two: the pitch along one axis is half the tiles'.
//!
//! A tile set whose faces carry a strong edge across their middle (a symbol above a plain
//! lower half, a two-tone face) gives the edge profiles as strong a period at half the
//! tile as at the tile. Read at that pitch, each tile is two cells, and the pairs of
//! neighbours (0, 1), (2, 3), … along that axis behave as one picture: wherever the first
//! cell shows a type, the second shows one same other type. On a real board the neighbours
//! of a type's tiles are dealt at random, so for the pairs of the other parity, and for
//! both parities on a lattice at the tiles' own pitch, the partner changes from copy to
//! copy.

use super::config::ReaderConfig;
use super::Reading;
use crate::board::{Board, Cell, Pos};
use crate::geometry::Grid;

/// The parity (0 or 1) of the neighbour pairs along `axis` (0: along a row, 1: down a
/// column) that behave as halves of one tile, when exactly one parity does.
pub fn bound_parity(board: &Board, axis: usize, cfg: &ReaderConfig) -> Option<usize> {
    bound_start(board, axis, 2, false, cfg)
}

/// Where blocks of `parts` neighbours along `axis` (0: along a row, 1: down a column)
/// start when they behave as the parts of one tile: the neighbour pairs inside a block keep
/// their partner wherever its type lies, the pair across two blocks does not. Judged per
/// residue of the pair's first cell modulo `parts`: the block starts just after the one
/// residue that does not keep, when every other residue keeps. With `both_ways` a pair
/// also keeps when its second cell keeps its usual first: a part many tiles share (the
/// plain top third of every face) is followed by many others, but each part it precedes
/// always follows it.
pub fn bound_start(
    board: &Board,
    axis: usize,
    parts: usize,
    both_ways: bool,
    cfg: &ReaderConfig,
) -> Option<usize> {
    let (n_along, n_across) = if axis == 0 {
        (board.cols(), board.rows())
    } else {
        (board.rows(), board.cols())
    };
    let cell = |along: usize, across: usize| {
        if axis == 0 {
            board.get(Pos::new(across, along))
        } else {
            board.get(Pos::new(along, across))
        }
    };
    // Whether the types at the pair starts of residue `k` (their ends, `back`) keep their
    // usual partner, over enough repeated types.
    let keeps = |k: usize, back: bool| -> bool {
        let mut partners = std::collections::BTreeMap::<u8, Vec<Cell>>::new();
        for across in 0..n_across {
            for a in (k..n_along.saturating_sub(1)).step_by(parts) {
                let (from, to) = if back { (a + 1, a) } else { (a, a + 1) };
                if let Cell::Tile(t) = cell(from, across) {
                    partners.entry(t).or_default().push(cell(to, across));
                }
            }
        }
        let Usual {
            types,
            tested,
            kept,
        } = usual(partners.values());
        types >= cfg.halves_min_types && kept as f32 >= cfg.halves_kept * tested as f32
    };
    let mut broken = (0..parts).filter(|&k| !(keeps(k, false) || both_ways && keeps(k, true)));
    match (broken.next(), broken.next()) {
        (Some(f), None) => Some((f + 1) % parts),
        _ => None,
    }
}

/// The grid at twice the pitch along every axis where `board` (read on `grid`) shows tiles
/// cut in two, or `None` where neither does.
pub fn merged(grid: &Grid, board: &Board, cfg: &ReaderConfig) -> Option<Grid> {
    let mut g = *grid;
    for axis in 0..2 {
        let Some(k) = bound_parity(board, axis, cfg) else {
            continue;
        };
        if let Some(merged) = merged_along(&g, axis, 2, k) {
            g = merged;
        }
    }
    (g != *grid).then_some(g)
}

/// `grid` with blocks of `parts` cells along `axis` from cell `start` made one cell, or
/// `None` when fewer than two blocks fit.
fn merged_along(grid: &Grid, axis: usize, parts: usize, start: usize) -> Option<Grid> {
    let mut g = *grid;
    let n = if axis == 0 { g.cols } else { g.rows };
    let blocks = n.saturating_sub(start) / parts;
    if blocks < 2 {
        return None;
    }
    if axis == 0 {
        g.origin.0 += start as f32 * g.pitch.0;
        g.pitch.0 *= parts as f32;
        g.cols = blocks;
    } else {
        g.origin.1 += start as f32 * g.pitch.1;
        g.pitch.1 *= parts as f32;
        g.rows = blocks;
    }
    Some(g)
}

/// [`merged`] for tiles cut into two or up to `max_parts` parts along an axis, each part
/// bound to its neighbours either way ([`bound_start`]): the least number of parts that
/// binds is merged.
pub fn merged_parts(
    grid: &Grid,
    board: &Board,
    max_parts: usize,
    cfg: &ReaderConfig,
) -> Option<Grid> {
    let mut g = *grid;
    for axis in 0..2 {
        let found =
            (2..=max_parts).find_map(|m| bound_start(board, axis, m, true, cfg).map(|k| (m, k)));
        if let Some(merged) = found.and_then(|(m, k)| merged_along(&g, axis, m, k)) {
            g = merged;
        }
    }
    (g != *grid).then_some(g)
}

/// What the groups of [`usual`] show: how many groups repeat, the items in them, and how
/// many of those are their group's commonest item.
struct Usual {
    types: usize,
    tested: usize,
    kept: usize,
}

/// Over the groups of two items or more (what follows each copy of one type: its partner
/// cell, or the block of cells it starts), how often the group's commonest item comes.
fn usual<'a, T: PartialEq + 'a>(groups: impl Iterator<Item = &'a Vec<T>>) -> Usual {
    let mut u = Usual {
        types: 0,
        tested: 0,
        kept: 0,
    };
    for seen in groups.filter(|s| s.len() >= 2) {
        u.types += 1;
        u.tested += seen.len();
        u.kept += seen
            .iter()
            .map(|c| seen.iter().filter(|d| *d == c).count())
            .max()
            .unwrap_or(0);
    }
    u
}

/// How many of `fine`'s cells one cell of `coarse` spans along each axis, when `coarse`'s
/// pitch is a whole multiple of `fine`'s (within 3 %) along both and more than one along
/// at least one. Returns the multiples and `coarse`'s origin as the nearest cell of `fine`
/// (column, row): a lattice averaging blocks of tiles need not lie on the tiles' lines.
pub fn multiple_of(coarse: &Grid, fine: &Grid) -> Option<((usize, usize), (i64, i64))> {
    let axis = |pc: f32, pf: f32, oc: f32, of: f32| {
        let k = pc / pf;
        let kr = k.round();
        let at = (oc - of) / pf;
        (kr >= 1.0 && (k - kr).abs() <= 0.03 * kr).then_some((kr as usize, at.round() as i64))
    };
    let (kx, x0) = axis(coarse.pitch.0, fine.pitch.0, coarse.origin.0, fine.origin.0)?;
    let (ky, y0) = axis(coarse.pitch.1, fine.pitch.1, coarse.origin.1, fine.origin.1)?;
    (kx * ky >= 2).then_some(((kx, ky), (x0, y0)))
}

/// Whether `coarse`, read on a lattice at a whole multiple of `fine`'s pitch, lumps several
/// tiles into each of its cells, judged by `fine`'s board: cells `coarse` calls one type
/// are one sprite, so the blocks of `fine`'s cells they cover must show the same pictures.
/// Where `fine` cuts each tile into parts, they do (a tile's parts go together wherever it
/// lies, [`merged`]'s test on blocks of any size); where `coarse` lumps tiles dealt at
/// random into cells that only look alike at its scale, they differ. Blocks wholly of
/// `fine`'s tiles are tested, per type of `coarse` and place in the block against the
/// type's usual cell there; `coarse` lumps tiles when fewer than
/// [`ReaderConfig::halves_kept`] of those places show it.
/// `None` when the lattices are not multiples or fewer than four blocks tell.
pub fn lumps(coarse: &Reading, fine: &Reading, cfg: &ReaderConfig) -> Option<bool> {
    let ((kx, ky), (x0, y0)) = multiple_of(&coarse.grid, &fine.grid)?;
    let fb = &fine.board;
    let cell = |r: i64, c: i64| {
        (r >= 0 && c >= 0 && (r as usize) < fb.rows() && (c as usize) < fb.cols())
            .then(|| fb.get(Pos::new(r as usize, c as usize)))
    };
    let mut blocks = std::collections::BTreeMap::<u8, Vec<Vec<Cell>>>::new();
    for (p, t) in coarse.board.tiles() {
        let (r0, c0) = (y0 + (p.row * ky) as i64, x0 + (p.col * kx) as i64);
        let block: Option<Vec<Cell>> = (0..ky as i64)
            .flat_map(|dr| (0..kx as i64).map(move |dc| (r0 + dr, c0 + dc)))
            .map(|(r, c)| cell(r, c).filter(|x| x.is_tile()))
            .collect();
        if let Some(block) = block {
            blocks.entry(t).or_default().push(block);
        }
    }
    // Judged place by place in the block: a fine lattice a little off the tiles' lines
    // gives the parts along a tile's edge a strip of its neighbour, so one part of a
    // block can differ where the rest agree (a coarse type's blocks alike in 91 % of
    // their places, 73 % of them whole).
    let mut places = std::collections::BTreeMap::<(u8, usize), Vec<Cell>>::new();
    let block_blocks = blocks.iter().filter(|(_, b)| b.len() >= 2);
    let blocks_tested: usize = block_blocks.clone().map(|(_, b)| b.len()).sum();
    for (&t, members) in block_blocks {
        for block in members {
            for (j, &c) in block.iter().enumerate() {
                places.entry((t, j)).or_default().push(c);
            }
        }
    }
    let Usual { tested, kept, .. } = usual(places.values());
    (blocks_tested >= 4).then_some((kept as f32) < cfg.halves_kept * tested as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lattice_of_three_by_two_tiles_lumps_a_random_deal_and_not_cut_tiles() {
        let cfg = ReaderConfig::default();
        let fine_grid = Grid {
            origin: (10.0, 20.0),
            pitch: (30.0, 40.0),
            rows: 8,
            cols: 12,
        };
        // Three tiles across and two down per cell, a little off the tiles' lines.
        let coarse_grid = Grid {
            origin: (45.0, 95.0),
            pitch: (90.0, 80.0),
            rows: 3,
            cols: 3,
        };
        assert_eq!(
            multiple_of(&coarse_grid, &fine_grid),
            Some(((3, 2), (1, 2)))
        );
        let reading = |grid: Grid, rows: &[String]| Reading {
            grid,
            board: Board::from_rows(rows).unwrap(),
            unsure: Vec::new(),
            selected: Vec::new(),
        };
        let whole = Grid {
            origin: (10.0, 20.0),
            rows: 4,
            cols: 4,
            ..coarse_grid
        };
        // Twelve types, eight tiles each, dealt at random (a fixed shuffle), read as one
        // picture per block of 3 x 2 tiles (all alike at that scale): the blocks differ.
        let mut deal: Vec<u8> = (0..96).map(|i| b'A' + (i % 12) as u8).collect();
        let mut x = 7u32;
        for i in (1..deal.len()).rev() {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            deal.swap(i, (x >> 8) as usize % (i + 1));
        }
        let rows: Vec<String> = deal
            .chunks(12)
            .map(|r| String::from_utf8(r.to_vec()).unwrap())
            .collect();
        let fine = reading(fine_grid, &rows);
        let lumped = reading(whole, &vec!["AAAA".to_string(); 4]);
        assert_eq!(lumps(&lumped, &fine, &cfg), Some(true));
        // Four tiles each cut into 3 x 2 parts by the fine lattice: every block of a tile
        // type holds the same parts.
        let parts = ["ABCabc", "DEFdef", "GHIghi", "JKLjkl"];
        let deal = ["ABCD", "CDAB", "BADC", "DCBA"];
        let mut cut = Vec::new();
        for line in deal {
            let (mut top, mut bottom) = (String::new(), String::new());
            for t in line.bytes() {
                let p = parts[(t - b'A') as usize];
                top.push_str(&p[..3]);
                bottom.push_str(&p[3..]);
            }
            cut.push(top);
            cut.push(bottom);
        }
        let tiles: Vec<String> = deal.iter().map(|s| s.to_string()).collect();
        assert_eq!(
            lumps(&reading(whole, &tiles), &reading(fine_grid, &cut), &cfg),
            Some(false)
        );
        // The same on a fine lattice a little off the tiles' lines: the parts along the
        // board's right edge take in the ground beyond and read as other pictures (x, y),
        // so no type's blocks are all alike, but their places mostly are.
        let edged: Vec<String> = cut
            .iter()
            .enumerate()
            .map(|(i, line)| format!("{}{}", &line[..11], if i % 2 == 0 { 'x' } else { 'y' }))
            .collect();
        assert_eq!(
            lumps(&reading(whole, &tiles), &reading(fine_grid, &edged), &cfg),
            Some(false)
        );
        // A lattice is no multiple of itself.
        assert_eq!(lumps(&fine, &fine, &cfg), None);
    }

    #[test]
    fn tiles_cut_in_two_down_the_columns_merge_by_rows() {
        // A 2×4 board of types A–D read at half the row pitch: each tile's lower half is
        // its own picture (a–d), the tile's upper half above it.
        let b: Board = "ABCDBADC\nabcdbadc\nDCBAACDB\ndcbaacdb".parse().unwrap();
        let cfg = ReaderConfig::default();
        assert_eq!(bound_parity(&b, 1, &cfg), Some(0));
        assert_eq!(bound_parity(&b, 0, &cfg), None);
        let grid = Grid {
            origin: (10.0, 20.0),
            pitch: (40.0, 25.0),
            rows: 4,
            cols: 8,
        };
        let g = merged(&grid, &b, &cfg).unwrap();
        assert_eq!(
            (g.rows, g.cols, g.pitch, g.origin),
            (2, 8, (40.0, 50.0), (10.0, 20.0))
        );
    }

    #[test]
    fn tiles_cut_in_three_with_shared_tops_merge_by_rows() {
        // Types A–H read at a third of the row pitch: a tile's middle and bottom thirds are
        // its own (A–H, a–h), its top third is shared by its family (y over A–D, z over
        // E–H). A shared top precedes many middles, so the pairs starting on it keep
        // nothing forward, but each middle keeps it backward; the pairs across two tiles
        // keep neither way. Dealt from row 1 (row 0 is a ground line, '.').
        let deal = ["ABCDEFGH", "EFGHABCD", "EFGHABCD"];
        let mut rows = vec!["........".to_string()];
        for line in deal {
            let tops = line.chars().map(|c| if c < 'E' { 'y' } else { 'z' });
            rows.push(tops.collect());
            rows.push(line.to_string());
            rows.push(line.to_ascii_lowercase());
        }
        let b = Board::from_rows(&rows).unwrap();
        let cfg = ReaderConfig::default();
        // Forward only, the pairs on the shared tops break too.
        assert_eq!(bound_start(&b, 1, 3, false, &cfg), None);
        assert_eq!(bound_start(&b, 1, 3, true, &cfg), Some(1));
        assert_eq!(bound_start(&b, 1, 2, true, &cfg), None);
        let grid = Grid {
            origin: (10.0, 20.0),
            pitch: (40.0, 15.0),
            rows: 10,
            cols: 8,
        };
        let g = merged_parts(&grid, &b, 3, &cfg).unwrap();
        assert_eq!(
            (g.rows, g.cols, g.pitch, g.origin),
            (3, 8, (40.0, 45.0), (10.0, 35.0))
        );
        // Halves only: no merge.
        assert_eq!(merged(&grid, &b, &cfg), None);
    }

    #[test]
    fn a_board_at_its_own_pitch_does_not_merge() {
        // Neighbours dealt at random: no parity keeps its partners.
        let b: Board = "ABCDEFGH\nCAEBGDHF\nFHAGBECD\nDGHCFABE".parse().unwrap();
        let cfg = ReaderConfig::default();
        assert_eq!(bound_parity(&b, 0, &cfg), None);
        assert_eq!(bound_parity(&b, 1, &cfg), None);
        let grid = Grid {
            origin: (0.0, 0.0),
            pitch: (40.0, 50.0),
            rows: 4,
            cols: 8,
        };
        assert_eq!(merged(&grid, &b, &cfg), None);
    }
}
