//! What each cell of a sheet shows: ground, a picture that pairs with others (with its
//! group), or a lone picture; and which cells are tiles by the frame every tile of the set
//! shares (blank faces, faces mostly of the ground's colour).

use super::seam::seam_to_ground;
use super::sheet::{ring_sides, Ground};
use crate::vision::config::ReaderConfig;
use crate::vision::pictures::{
    common_frame, frame_contrast, frame_distance, group, shape_of, shapes_apart, Picture,
};
use crate::vision::pixels::colour_dist;

/// One cell of a sheet, as the stages see it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Seen {
    Ground,
    /// In a group of two or more alike pictures.
    Paired(usize),
    /// A picture alike to no other.
    Lone,
}

/// Reads every described cell (`cells` in sheet order, `ring_idx` the sheet's outer ring):
/// ground, paired (with its group) or lone.
pub(super) fn see(
    cells: &[Option<Picture>],
    cols: usize,
    ground: &Ground,
    ring_idx: &[usize],
    cfg: &ReaderConfig,
) -> Vec<Seen> {
    look(cells, cols, ground, ring_idx, false, cfg).seen
}

/// What [`look`] saw.
pub(super) struct Sight {
    /// Each cell, as [`see`] gives it.
    pub(super) seen: Vec<Seen>,
    /// Cells whose face reads as ground but whose frame is the tiles' frame: blank faces,
    /// tiles by their frame alone.
    pub(super) framed: Vec<bool>,
    /// Cells of a group whose pictures mostly show the ground's colour, lit or in shadow
    /// ([`Ground::covers_most`]).
    pub(super) ground_faced: Vec<bool>,
    /// Cells of a group on the board one of whose members shows the frame the tiles share,
    /// to within [`ReaderConfig::tile_frame_exact`] and [`ReaderConfig::blank_frame_ratio`]
    /// times nearer it than the ground's: tiles, however much of their faces shows the
    /// ground's colour, whether the group is plain (blank faces) or pictured (a few symbols
    /// on a light face on a light ground).
    pub(super) tile_framed: Vec<bool>,
    /// Sides of the sheet (top, bottom, left, right) whose ring holds a cell, not a
    /// corner, that shows the frame the tiles share as [`Sight::tile_framed`] does: a
    /// line of the board the extent may have left out.
    pub(super) ring_framed: [bool; 4],
    /// Lone pictures off the ring that show neither the frame the board's tiles share nor
    /// a type's shape ([`lone_strangers`]): the ground a game laid bare when they show no
    /// face either, since every tile at rest has a twin (a game takes tiles in pairs of a
    /// type), a tinted tile (a selection) keeps its type's shape, and a tile set draws
    /// every tile on one blank, whose frame or face each tile shows (a photo behind the
    /// board shows a different patch in every emptied cell, no two alike and none like
    /// the ground around the board). None where they and the cells inside already read
    /// as ground unlike the ring's are fewer than two: a game lays two cells bare at least.
    pub(super) strangers: Vec<usize>,
}

/// [`see`], and which cells were found tiles by their frames; `given` when the grid is the
/// caller's (its ring is off the board) rather than found in the frame.
pub(super) fn look(
    cells: &[Option<Picture>],
    cols: usize,
    ground: &Ground,
    ring_idx: &[usize],
    given: bool,
    cfg: &ReaderConfig,
) -> Sight {
    let idx: Vec<usize> = (0..cells.len()).filter(|&i| cells[i].is_some()).collect();
    let pics: Vec<&Picture> = idx.iter().map(|&i| cells[i].as_ref().unwrap()).collect();
    let g = group(&pics, cfg);
    let mut size = vec![0usize; g.groups];
    let mut grounded = vec![0usize; g.groups];
    let mut on_ring = vec![0usize; g.groups];
    let mut flat = vec![0usize; g.groups];
    let mut mostly_ground = vec![0usize; g.groups];
    for (k, &i) in idx.iter().enumerate() {
        size[g.group[k]] += 1;
        flat[g.group[k]] += (pics[k].spread <= cfg.flat_spread) as usize;
        grounded[g.group[k]] += ground.holds(pics[k], cfg) as usize;
        mostly_ground[g.group[k]] += ground.covers_most(pics[k], cfg) as usize;
        on_ring[g.group[k]] += ring_idx.binary_search(&i).is_ok() as usize;
    }
    // A board can run flush with the window on a side (a small board scaled to the
    // window's width): that side of the ring then holds tiles, whose twins lie inside.
    // A side counts as ring only when most of its cells show the ground or are flat (a
    // gradient ground; a tile face carries a symbol or a frame), have no twin,
    // pair only with other ring cells (chrome, a ground that repeats), or belong to a
    // crowded group (a line of tiles' 3-D sides, a patterned ground): tile types come a
    // few at a time ([`ReaderConfig::obstacle_crowd`] times the median group).
    let mut sizes: Vec<usize> = size.iter().copied().filter(|&n| n >= 2).collect();
    sizes.sort_unstable();
    let median = sizes.get(sizes.len() / 2).copied().unwrap_or(0);
    let around: Vec<bool> = idx
        .iter()
        .enumerate()
        .map(|(k, _)| {
            let gi = g.group[k];
            ground.holds(pics[k], cfg)
                || pics[k].spread <= cfg.flat_spread
                || size[gi] < 2
                || on_ring[gi] == size[gi]
                || size[gi] as f32 >= cfg.obstacle_crowd * median as f32
        })
        .collect();
    // A crowd, as the types stage counts one: far more alike pictures than a tile type holds.
    let crowd = crowd_floor(&sizes, cfg);
    let crowded = |gi: usize| size[gi] >= crowd;
    let rows = cells.len() / cols.max(1);
    let sides = |i: usize| ring_sides(rows, cols, i);
    let mut side_votes = [(0usize, 0usize); 4];
    for (k, &i) in idx.iter().enumerate() {
        if ring_idx.binary_search(&i).is_ok() {
            for (v, on) in side_votes.iter_mut().zip(sides(i)) {
                if on {
                    v.0 += around[k] as usize;
                    v.1 += 1;
                }
            }
        }
    }
    let quiet = side_votes.map(|(ok, n)| ok * 2 >= n);
    let whole_ring = ring_idx;
    let ring_idx: Vec<usize> = ring_idx
        .iter()
        .copied()
        .filter(|&i| sides(i).iter().zip(quiet).any(|(&on, q)| on && q))
        .collect();
    let ring_idx = &ring_idx[..];
    let mut on_ring = vec![0usize; g.groups];
    for (k, &i) in idx.iter().enumerate() {
        on_ring[g.group[k]] += ring_idx.binary_search(&i).is_ok() as usize;
    }
    // Groups of flat pictures that are neither ground-coloured nor on the ring: blank faces
    // (a tile set's blank tile) or stretches of a gradient ground. Their frames decide: a
    // blank tile's frame matches the frame every paired tile shows, a ground cell's does not.
    let tile_like: Vec<&Picture> = idx
        .iter()
        .enumerate()
        .filter(|&(k, _)| {
            let gi = g.group[k];
            size[gi] >= 2
                && flat[gi] * 2 <= size[gi]
                && mostly_ground[gi] * 2 <= size[gi]
                && grounded[gi] * 2 <= size[gi]
                && on_ring[gi] * 4 <= size[gi].max(4)
        })
        .map(|(k, _)| pics[k])
        .collect();
    // At most 40 of them, spread over all: a late game's few tiles may be the two a
    // selection frames and a link line crosses, whose frames are no other tile's.
    let step = tile_like.len().div_ceil(40).max(1);
    let tile_like: Vec<&Picture> = tile_like.into_iter().step_by(step).collect();
    let ground_like: Vec<&Picture> = idx
        .iter()
        .enumerate()
        .filter(|&(k, &i)| ring_idx.binary_search(&i).is_ok() && ground.holds(pics[k], cfg))
        .map(|(k, _)| pics[k])
        .take(40)
        .collect();
    let mut blank = vec![false; g.groups];
    let mut sure_tile = vec![false; g.groups];
    // Groups one of whose members shows the frame the tiles share ([`Sight::tile_framed`]).
    let mut framed_type = vec![false; g.groups];
    let mut ring_framed = [false; 4];
    if !tile_like.is_empty() {
        let mut votes = vec![0isize; g.groups];
        // The frame most tiles show (per block, the median over the tile-like pictures):
        // one sprite's border where the game draws one.
        let shared = common_frame(tile_like.iter().copied());
        // On a given grid the ring lies wholly off the board, so a plain group reaching it
        // is the ground there: a blank face is told from ground by its frame alone, and
        // beside a board a tile's own side or shadow can give a stretch of ground a tile's
        // frame. On a grid found in the frame the ring can still hold a line of the board
        // not yet in the extent (a quarter of a group may lie on it).
        let off_board = |gi: usize| {
            if given {
                on_ring[gi] > 0
            } else {
                on_ring[gi] * 4 > size[gi].max(4)
            }
        };
        for (k, _) in idx.iter().enumerate() {
            let gi = g.group[k];
            let plain = flat[gi] * 2 > size[gi] || mostly_ground[gi] * 2 > size[gi];
            let grounded_only = !plain && grounded[gi] * 2 > size[gi];
            if size[gi] < 2 || !(plain || grounded_only) || off_board(gi) {
                continue;
            }
            // A group of the ground's colour and texture that is neither flat nor mostly
            // ground (faint faces on a textured ground, or emptied cells with a
            // neighbour's side) must have the tiles' frame by a wide margin.
            let ratio = if grounded_only {
                cfg.blank_frame_ratio
            } else {
                1.0
            };
            let to_tiles = nearest_frame(pics[k], &tile_like);
            let to_ground = nearest_frame(pics[k], &ground_like);
            votes[gi] += if to_tiles * ratio < to_ground { 1 } else { -1 };
            // A frame that is the frame the tiles share, to within what tells sprites apart,
            // is a tile's: its partners are of its type whatever their frames show (a
            // selected tile's tint reaches its frame, and a pair of one selected and one
            // not ties).
            let to_shared = shared
                .as_ref()
                .map_or(f32::INFINITY, |t| frame_distance(pics[k], t));
            sure_tile[gi] |=
                to_shared <= cfg.tile_frame_exact && to_shared * cfg.blank_frame_ratio < to_ground;
        }
        for gi in 0..g.groups {
            blank[gi] = votes[gi] > 0 || sure_tile[gi];
            framed_type[gi] = sure_tile[gi];
        }
        // Pictured groups too: a tile whose face is mostly the ground's colour, lit or in
        // shadow (a few symbols on a light face on a light plain ground), can show no seam
        // against an emptied cell beside it, and the ground must not run on into it.
        // Emptied cells that pair (the same neighbour's 3-D side along one edge) do not
        // show the tiles' frame (measured in [`ReaderConfig::tile_frame_exact`]).
        if let Some(t) = shared.as_ref() {
            // The picture shows the tiles' shared frame, as `sure_tile` asks above.
            let shows_tile_frame = |p: &Picture| shows_tile_frame(p, t, &ground_like, cfg);
            for (k, _) in idx.iter().enumerate() {
                let gi = g.group[k];
                if !framed_type[gi] && size[gi] >= 2 && !off_board(gi) {
                    framed_type[gi] = shows_tile_frame(pics[k]);
                }
            }
            for (k, &i) in idx.iter().enumerate() {
                let on = sides(i);
                let side_cell = on.iter().filter(|&&b| b).count() == 1;
                if side_cell && whole_ring.binary_search(&i).is_ok() && shows_tile_frame(pics[k]) {
                    for (f, o) in ring_framed.iter_mut().zip(on) {
                        *f |= o;
                    }
                }
            }
        }
    } else {
        // No pictured tile left to compare frames with (a game's last pair can be two blank
        // faces): a flat group off the ground's colour whose cells' rings stand out from
        // their faces (a tile's border, bevel and 3-D side) is a blank pair; a stretch of
        // gradient ground runs on to the cell's edge unchanged.
        let mut framed = vec![0usize; g.groups];
        for (k, _) in idx.iter().enumerate() {
            framed[g.group[k]] += (frame_contrast(pics[k]) > cfg.ground_margin) as usize;
        }
        for gi in 0..g.groups {
            blank[gi] = size[gi] >= 2
                && flat[gi] * 2 > size[gi]
                && grounded[gi] * 2 <= size[gi]
                && on_ring[gi] * 4 <= size[gi].max(4)
                && framed[gi] * 2 > size[gi];
        }
    }
    let mut seen = vec![Seen::Ground; cells.len()];
    let mut framed = vec![false; cells.len()];
    let mut ground_faced = vec![false; cells.len()];
    let mut tile_framed = vec![false; cells.len()];
    for (k, &i) in idx.iter().enumerate() {
        let gi = g.group[k];
        // A group of ground cells, or one that reaches the window's edge in numbers (a
        // plain ground is one picture everywhere around the board), or a crowd that
        // reaches it at all: tiles and obstacles lie on the board, inside the ground, and a
        // wide margin of patterned ground can hold ten cells for each one on the window's
        // edge (a small board in a window whose ring is mostly toolbar and status bar,
        // the ground showing only on its left and right sides).
        // Flat pictures that pair are stretches of ground too (a gradient ground pairs
        // neighbouring empty cells): a tile face always carries a symbol or a frame.
        // Mostly-ground pictures that pair (two tiles' drop shadows on the ground beside
        // them) are ground unless their frames are the tiles' frames.
        let mostly = mostly_ground[gi] * 2 > size[gi] && !tile_like.is_empty();
        let ground_group = on_ring[gi] * 4 > size[gi].max(4)
            || (on_ring[gi] > 0 && crowded(gi))
            || ((grounded[gi] * 2 > size[gi] || flat[gi] * 2 > size[gi] || mostly) && !blank[gi]);
        // A lone flat picture on the ring whose border runs on unchanged from its face
        // carries neither symbol nor frame: ground of a gradient (a vignette darkens a
        // textured ground from the middle outwards, so no two of its ring cells alike, and
        // the ring's commonest colour can be the window's toolbar).
        let bare_ring = ring_idx.binary_search(&i).is_ok()
            && pics[k].spread <= cfg.flat_spread
            && frame_contrast(pics[k]) <= cfg.ground_margin;
        framed[i] = blank[gi];
        ground_faced[i] = mostly_ground[gi] * 2 > size[gi];
        tile_framed[i] = framed_type[gi];
        seen[i] = if size[gi] >= 2 && !ground_group {
            Seen::Paired(gi)
        } else if size[gi] >= 2 || ground.holds(pics[k], cfg) || bare_ring {
            Seen::Ground
        } else {
            Seen::Lone
        };
    }
    // A cell read as ground inside the window whose frame stands out from its own face and
    // is the tiles' frame far more than the ground's is a blank face in the ground's own
    // colour: its inner part matched the ground, only the border, bevel and 3-D side show a
    // tile (a cell of ground, even on a gradient, runs on to its edge unchanged). Each such
    // face keeps the picture group it was found in, numbered past the others: a tile set
    // can hold more than one face that reads as ground (a blank face, and a face whose
    // flat symbol is drawn in the ground's colour), and two sprites are never one type.
    if !tile_like.is_empty() && !ground_like.is_empty() {
        // The frame the tiles share, as in the votes above: on a light ground whose every
        // tile group is mostly the ground's colour, few tile-like pictures are left and the
        // nearest of them can lie further from a blank face than the shared frame does.
        let shared = common_frame(tile_like.iter().copied());
        let blanks: Vec<(usize, usize)> = idx
            .iter()
            .enumerate()
            .filter(|&(k, &i)| {
                if seen[i] != Seen::Ground
                    || ring_idx.binary_search(&i).is_ok()
                    || frame_contrast(pics[k]) <= cfg.ground_margin
                {
                    return false;
                }
                let to_ground = nearest_frame(pics[k], &ground_like);
                let to_shared = shared
                    .as_ref()
                    .map_or(f32::INFINITY, |t| frame_distance(pics[k], t));
                nearest_frame(pics[k], &tile_like) * cfg.blank_frame_ratio < to_ground
                    || (to_shared <= cfg.tile_frame_exact
                        && to_shared * cfg.blank_shared_ratio < to_ground)
            })
            .map(|(k, &i)| (i, g.group[k]))
            .collect();
        if blanks.len() >= 2 {
            for (i, gi) in blanks {
                seen[i] = Seen::Paired(g.groups + gi);
                framed[i] = true;
            }
        }
    }
    // A lone picture is ground when, by mean colour and texture, it is nearer the ground
    // cells on the ring than any paired picture (a textured ground never pairs with
    // itself, and the cells a game empties carry its tiles' shadows, so they pass no fixed
    // ground test, but they stay nearer the ground than the tiles), and the ground beside
    // it runs on into it ([`ReaderConfig::lone_ground_seam`]). Only when some
    // pictures pair: with none to compare (a game's last pair, one of it tinted by a
    // selection) every picture is nearer the ground than any tile, and the test would
    // empty the board; [`settle_ground`] still grounds a lone picture that lies among the
    // ground cells.
    let feature_gap =
        |a: &Picture, b: &Picture| colour_dist(a.mean, b.mean) + (a.spread - b.spread).abs();
    let refs: Vec<(&Picture, bool)> = idx
        .iter()
        .enumerate()
        .filter_map(|(k, &i)| match seen[i] {
            Seen::Ground if ring_idx.binary_search(&i).is_ok() => Some((pics[k], true)),
            Seen::Paired(_) => Some((pics[k], false)),
            _ => None,
        })
        .collect();
    // (The types' shapes are taken once, on first need.)
    let mut shapes = None;
    // A picture alone in its group that matched the ground by mean colour and texture
    // alone, its blocks not showing the ground, is a tile when it holds a type's shape: a
    // tile the game tints (a selection) can take on the mean colour of one stretch of a
    // textured ground, whose cells each hold none of the types' shapes.
    for (k, &i) in idx.iter().enumerate() {
        if size[g.group[k]] == 1
            && seen[i] == Seen::Ground
            && ring_idx.binary_search(&i).is_err()
            && !ground.covers_most(pics[k], cfg)
        {
            let shapes = shapes.get_or_insert_with(|| type_shapes(cells, &seen));
            if holds_a_shape(pics[k], shapes, cfg) {
                seen[i] = Seen::Lone;
            }
        }
    }
    if refs.iter().any(|r| r.1) && refs.iter().any(|r| !r.1) {
        // Seams are measured against the ground as it stood before this pass, whatever
        // order the cells come in.
        let bare: Vec<bool> = seen.iter().map(|s| *s == Seen::Ground).collect();
        let tile: Vec<bool> = seen.iter().map(|s| matches!(s, Seen::Paired(_))).collect();
        for (k, &i) in idx.iter().enumerate() {
            if seen[i] != Seen::Lone {
                continue;
            }
            // An object drawn over the ground (a stone, a crate) lies far from it by mean
            // colour or texture and shows it in hardly a block, while a cell the game
            // emptied shows it between the shadows its neighbours throw. Only on a grid
            // found in the frame: where the ring's commonest colour is a toolbar's, the
            // cells emptied on a ground of many shades lie far from it too, and on a
            // given grid the caller knows the obstacles of the board it locked on.
            if !given
                && ground.far(pics[k], cfg)
                && ground.shown_share(pics[k], cfg) < cfg.object_ground_share
            {
                continue;
            }
            let nearest = refs
                .iter()
                .min_by(|a, b| feature_gap(pics[k], a.0).total_cmp(&feature_gap(pics[k], b.0)));
            if nearest.is_some_and(|r| r.1) {
                let shapes = shapes.get_or_insert_with(|| type_shapes(cells, &seen));
                // Ground runs on into a cell the game emptied, however a tile's shadow
                // darkens its face; an object on the board (a crate, a stone) meets the
                // ground beside it with a seam on every side.
                let walled = seam_to_ground(i, cells, (rows, cols), (&bare, &tile), cfg)
                    .is_some_and(|s| s > cfg.lone_ground_seam);
                if !walled && !holds_a_shape(pics[k], shapes, cfg) {
                    seen[i] = Seen::Ground;
                }
            }
        }
    }
    // Lone pictures with neither the tiles' frame nor a type's shape, for the caller to
    // ground where they show no face either ([`Sight::strangers`]). Only on a grid found in
    // the frame: on a given one the caller knows the cells it saw emptied.
    let strangers = if given {
        Vec::new()
    } else {
        lone_strangers(
            ground,
            &pics,
            &idx,
            cells,
            ring_idx,
            &tile_like,
            &ground_like,
            &seen,
            cfg,
        )
    };
    Sight {
        seen,
        framed,
        ground_faced,
        tile_framed,
        ring_framed,
        strangers,
    }
}

/// The lone pictures off the ring (sheet indices) that show neither the frame the
/// `tile_like` pictures share ([`common_frame`]) nor a paired type's shape
/// ([`holds_a_shape`]), where the paired pictures on the board lie near that frame
/// ([`ReaderConfig::lone_frame_ratio`]) and these far from it
/// ([`ReaderConfig::lone_frame_apart`]); none when they and the cells inside read as
/// ground that `ground` does not hold are fewer than two. `pics[k]` is the picture of
/// sheet cell `idx[k]`.
#[allow(clippy::too_many_arguments)]
fn lone_strangers(
    ground: &Ground,
    pics: &[&Picture],
    idx: &[usize],
    cells: &[Option<Picture>],
    ring_idx: &[usize],
    tile_like: &[&Picture],
    ground_like: &[&Picture],
    seen: &[Seen],
    cfg: &ReaderConfig,
) -> Vec<usize> {
    if tile_like.is_empty() || ground_like.is_empty() {
        return Vec::new();
    }
    let Some(shared) = common_frame(tile_like.iter().copied()) else {
        return Vec::new();
    };
    let off_ring = |i: usize| ring_idx.binary_search(&i).is_err();
    let mut paired: Vec<f32> = idx
        .iter()
        .enumerate()
        .filter(|&(_, &i)| matches!(seen[i], Seen::Paired(_)) && off_ring(i))
        .map(|(k, _)| frame_distance(pics[k], &shared))
        .collect();
    if paired.is_empty() {
        return Vec::new();
    }
    paired.sort_by(|a, b| a.total_cmp(b));
    let bar = cfg
        .lone_frame_apart
        .max(cfg.lone_frame_ratio * paired[paired.len() / 2]);
    let shapes = type_shapes(cells, seen);
    let strangers: Vec<usize> = idx
        .iter()
        .enumerate()
        .filter(|&(k, &i)| {
            seen[i] == Seen::Lone
                && off_ring(i)
                && frame_distance(pics[k], &shared) >= bar
                && !shows_tile_frame(pics[k], &shared, ground_like, cfg)
                && !holds_a_shape(pics[k], &shapes, cfg)
        })
        .map(|(_, &i)| i)
        .collect();
    // A game takes tiles in pairs, so it lays two cells bare at least. Where the ground
    // behind the board is one picture (plain, a gradient, a repeating pattern), the cells
    // it laid bare show what the ring shows, and a lone picture that shows neither is
    // more likely a stone a board dealt once (an obstacle drawn near the ground's colour
    // shows neither the tiles' frame, shape nor face). Cells inside the extent already
    // read as ground that the ring's ground does not hold (a photo's patches, grounded by
    // their seams) count with the strangers as cells laid bare.
    let unlike_ring = idx
        .iter()
        .enumerate()
        .filter(|&(k, &i)| seen[i] == Seen::Ground && off_ring(i) && !ground.holds(pics[k], cfg))
        .count();
    match strangers.len() + unlike_ring {
        0 | 1 => Vec::new(),
        _ => strangers,
    }
}

/// Whether `p` shows the frame the tiles share (`shared`, [`common_frame`]), as
/// [`Sight::tile_framed`] tells it: within [`ReaderConfig::tile_frame_exact`] of it, and
/// [`ReaderConfig::blank_frame_ratio`] times nearer it than the nearest ground cell's.
fn shows_tile_frame(
    p: &Picture,
    shared: &Picture,
    ground_like: &[&Picture],
    cfg: &ReaderConfig,
) -> bool {
    let to_shared = frame_distance(p, shared);
    to_shared <= cfg.tile_frame_exact
        && to_shared * cfg.blank_frame_ratio < nearest_frame(p, ground_like)
}

/// The frame distance ([`frame_distance`]) from `p` to the nearest of `refs`; infinite
/// when there are none.
pub(super) fn nearest_frame(p: &Picture, refs: &[&Picture]) -> f32 {
    refs.iter()
        .map(|q| frame_distance(p, q))
        .fold(f32::INFINITY, f32::min)
}

/// The shapes a tile may hold ([`shape_of`]): the pictures of each paired group. (Not lone
/// pictures: two emptied cells with alike shadows hold each other's shape as well as two
/// tiles do.)
pub(super) fn type_shapes(
    cells: &[Option<Picture>],
    seen: &[Seen],
) -> std::collections::BTreeMap<usize, Vec<Vec<f32>>> {
    let mut by_group: std::collections::BTreeMap<usize, Vec<Vec<f32>>> = Default::default();
    for (cell, s) in cells.iter().zip(seen) {
        if let (Some(p), Seen::Paired(gi)) = (cell, s) {
            by_group.entry(*gi).or_default().push(shape_of(p));
        }
    }
    by_group
}

/// Whether picture `p` holds one type's shape ([`shape_distance`], tint taken out)
/// [`ReaderConfig::shape_join_ratio`] times nearer than any other type's: a tile the game
/// tints (a selection can tint a light face towards the ground's colour) keeps its
/// sprite's shape, which no cell of ground shares.
///
/// [`shape_distance`]: crate::vision::pictures::shape_distance
pub(super) fn holds_a_shape(
    p: &Picture,
    shapes: &std::collections::BTreeMap<usize, Vec<Vec<f32>>>,
    cfg: &ReaderConfig,
) -> bool {
    let own = shape_of(p);
    let mut ranked: Vec<f32> = shapes
        .values()
        .map(|m| {
            m.iter()
                .map(|q| shapes_apart(&own, q))
                .fold(f32::INFINITY, f32::min)
        })
        .collect();
    ranked.sort_by(|a, b| a.total_cmp(b));
    matches!(ranked[..], [d1, d2, ..] if d1 * cfg.shape_join_ratio < d2)
}

/// The smallest size of a crowd among groups of the `sizes` given (`usize::MAX` when none
/// is): far more alike pictures than a tile type holds. A crowd holds at least
/// [`ReaderConfig::obstacle_min_count`] pictures and [`ReaderConfig::obstacle_crowd`] times
/// the median group, and stands above the first drop, from the largest group down, of that
/// same ratio: a game deals its types alike, so their counts run down without such a jump
/// however far a game has gone (a late KShisen game on its 26x14 board holds types of
/// 12, 12, 10, 8, ... over a median of 4), while stones, a patterned ground or a row of
/// tiles' 3-D sides stand far above every type.
pub(super) fn crowd_floor(sizes: &[usize], cfg: &ReaderConfig) -> usize {
    let mut sorted: Vec<usize> = sizes.to_vec();
    sorted.sort_unstable();
    let median = sorted.get(sorted.len() / 2).copied().unwrap_or(0);
    let drop = sorted
        .windows(2)
        .rev()
        .find(|w| w[1] as f32 >= cfg.obstacle_crowd * w[0] as f32)
        .map(|w| w[1]);
    match drop {
        Some(d) => d
            .max(cfg.obstacle_min_count)
            .max((cfg.obstacle_crowd * median as f32).ceil() as usize),
        None => usize::MAX,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Block colours for constructed pictures: `len` blocks of colour `c`, each channel
    /// off by up to `grain` either way, from a linear congruential sequence seeded `seed`.
    fn grained(seed: u32) -> impl FnMut(usize, [f32; 3], f32) -> Vec<f32> {
        let mut s = seed;
        let mut rnd = move || {
            s = s.wrapping_mul(1664525).wrapping_add(1013904223);
            (s >> 8) as f32 / (1u32 << 24) as f32
        };
        move |len, c, grain| {
            (0..len * 3)
                .map(|i| c[i % 3] + grain * (2.0 * rnd() - 1.0))
                .collect()
        }
    }

    /// A 4×5 board of eight pairs of light faces with a symbol on a pink ground, its last
    /// row holding a crate (brown, grained) and a cell emptied under a tile whose shadow
    /// darkens its top. By mean colour and texture both lie nearer the ground than any
    /// tile; the emptied cell runs on from the ground beside it, the crate does not.
    #[test]
    fn a_crate_among_emptied_cells_is_no_ground() {
        let cfg = ReaderConfig::default();
        let b = cfg.blocks;
        let ring_len = 4 * b - 4;
        let pink = [225.0f32, 195.0, 205.0];
        let mut plain = grained(11);
        let ground = |plain: &mut dyn FnMut(usize, [f32; 3], f32) -> Vec<f32>| {
            Picture::from_blocks(plain(b * b, pink, 1.0), plain(ring_len, pink, 1.0))
        };
        let (rows, cols) = (6usize, 7usize);
        let mut pics: Vec<Option<Picture>> =
            (0..rows * cols).map(|_| Some(ground(&mut plain))).collect();
        let board: Vec<usize> = (1..rows - 1)
            .flat_map(|r| (1..cols - 1).map(move |c| r * cols + c))
            .collect();
        let cream = [240.0f32, 238.0, 228.0];
        for (k, &i) in board.iter().enumerate().take(16) {
            // Type k / 2: the cream face with a dark symbol of its own colour.
            let mut face = [cream].repeat(b * b).concat();
            let hue = [(k / 2 * 37 % 100) as f32, (k / 2 * 71 % 100) as f32, 40.0];
            for j in (b * b / 3)..(b * b / 3 + 2 * b) {
                face[j * 3..j * 3 + 3].copy_from_slice(&hue);
            }
            pics[i] = Some(Picture::from_blocks(
                face,
                [cream].repeat(ring_len).concat(),
            ));
        }
        // Board row 4: a tile (type 7's twin is board[14..16]), ground, the emptied cell,
        // the crate, ground.
        let (emptied, crate_at) = (board[17], board[18]);
        let mut face = plain(b * b, pink, 1.0);
        let mut frame = plain(ring_len, pink, 1.0);
        // The shadow of the tile above: the top two rows of blocks darkened, and the
        // frame's top side with them.
        for v in face.iter_mut().take(2 * b * 3) {
            *v -= 70.0;
        }
        for v in frame.iter_mut().take(b * 3) {
            *v -= 70.0;
        }
        pics[emptied] = Some(Picture::from_blocks(face, frame));
        let brown = [165.0f32, 115.0, 65.0];
        pics[crate_at] = Some(Picture::from_blocks(
            plain(b * b, brown, 30.0),
            plain(ring_len, brown, 30.0),
        ));
        let ring_idx: Vec<usize> = (0..rows * cols)
            .filter(|&i| ring_sides(rows, cols, i).contains(&true))
            .collect();
        let ring_pics: Vec<&Picture> = ring_idx.iter().filter_map(|&i| pics[i].as_ref()).collect();
        let g = Ground::from_cells(&ring_pics, &cfg).unwrap();
        let crate_pic = pics[crate_at].as_ref().unwrap();
        let tile = pics[board[0]].as_ref().unwrap();
        let gap =
            |a: &Picture, b: &Picture| colour_dist(a.mean, b.mean) + (a.spread - b.spread).abs();
        assert!(gap(crate_pic, ring_pics[0]) < gap(crate_pic, tile));
        assert!(!g.holds(pics[emptied].as_ref().unwrap(), &cfg));
        let seen = see(&pics, cols, &g, &ring_idx, &cfg);
        assert_eq!(seen[crate_at], Seen::Lone);
        assert_eq!(seen[emptied], Seen::Ground);
        for &i in &board[..16] {
            assert!(
                matches!(seen[i], Seen::Paired(_)),
                "cell {i}: {:?}",
                seen[i]
            );
        }
        // Were the crate's sides the ground's, the ground would run on into it; the crate
        // stays apart still where the grid was found in the frame, its face far from the
        // ground and showing it in no block, and becomes ground only on a given grid,
        // where the seam alone decides.
        let mut walled_only = crate_pic.clone();
        walled_only.frame = ground(&mut plain).frame;
        assert!(g.far(&walled_only, &cfg));
        assert!(g.shown_share(&walled_only, &cfg) < cfg.object_ground_share);
        pics[crate_at] = Some(walled_only);
        assert_eq!(see(&pics, cols, &g, &ring_idx, &cfg)[crate_at], Seen::Lone);
        assert_eq!(
            look(&pics, cols, &g, &ring_idx, true, &cfg).seen[crate_at],
            Seen::Ground
        );
    }

    /// A 4×5 board of eight pairs of cream tiles on a pink ground, with two cells a game
    /// emptied over a photo (a different patch of sky and of foliage in each, no frame)
    /// and a tile whose twin is hidden (lone, but drawn on the tiles' blank): the patches
    /// are strangers, the tile is not, on a given grid nothing is, nor is one patch alone
    /// unless a cell inside already reads as ground unlike the ring's.
    #[test]
    fn photo_patches_without_the_tiles_frame_are_strangers() {
        let cfg = ReaderConfig::default();
        let b = cfg.blocks;
        let ring_len = 4 * b - 4;
        let mut plain = grained(5);
        let pink = [225.0f32, 195.0, 205.0];
        let (rows, cols) = (6usize, 7usize);
        let mut pics: Vec<Option<Picture>> = (0..rows * cols)
            .map(|_| {
                Some(Picture::from_blocks(
                    plain(b * b, pink, 1.0),
                    plain(ring_len, pink, 1.0),
                ))
            })
            .collect();
        let board: Vec<usize> = (1..rows - 1)
            .flat_map(|r| (1..cols - 1).map(move |c| r * cols + c))
            .collect();
        let cream = [240.0f32, 238.0, 228.0];
        let tile = |k: usize| {
            let mut face = [cream].repeat(b * b).concat();
            let hue = [(k * 37 % 100) as f32, (k * 71 % 100) as f32, 40.0];
            for j in (b * b / 3)..(b * b / 3 + 2 * b) {
                face[j * 3..j * 3 + 3].copy_from_slice(&hue);
            }
            Picture::from_blocks(face, [cream].repeat(ring_len).concat())
        };
        for (k, &i) in board.iter().enumerate().take(16) {
            pics[i] = Some(tile(k / 2));
        }
        let (sky, leaves, hidden_twin) = (board[16], board[18], board[19]);
        pics[sky] = Some(Picture::from_blocks(
            plain(b * b, [70.0, 130.0, 210.0], 25.0),
            plain(ring_len, [60.0, 120.0, 200.0], 25.0),
        ));
        pics[leaves] = Some(Picture::from_blocks(
            plain(b * b, [200.0, 90.0, 30.0], 40.0),
            plain(ring_len, [190.0, 80.0, 30.0], 40.0),
        ));
        pics[hidden_twin] = Some(tile(11));
        let ring_idx: Vec<usize> = (0..rows * cols)
            .filter(|&i| ring_sides(rows, cols, i).contains(&true))
            .collect();
        let ring_pics: Vec<&Picture> = ring_idx.iter().filter_map(|&i| pics[i].as_ref()).collect();
        let g = Ground::from_cells(&ring_pics, &cfg).unwrap();
        let sight = look(&pics, cols, &g, &ring_idx, false, &cfg);
        for i in [sky, leaves, hidden_twin] {
            assert_eq!(sight.seen[i], Seen::Lone, "cell {i}");
        }
        assert_eq!(sight.strangers, vec![sky, leaves]);
        assert!(look(&pics, cols, &g, &ring_idx, true, &cfg)
            .strangers
            .is_empty());
        // One such picture alone is a stone dealt once as likely as a cell laid bare.
        pics[leaves] = Some(tile(11));
        let one = look(&pics, cols, &g, &ring_idx, false, &cfg);
        assert_eq!(one.seen[sky], Seen::Lone);
        assert!(one.strangers.is_empty());
        // Unless a cell inside already reads as ground the ring's ground does not hold (a
        // patch of the photo grounded by its seams): the ground laid bare shows pictures
        // never seen around the board, and the lone one is one more.
        let bark = board[17];
        pics[bark] = Some(Picture::from_blocks(
            plain(b * b, [110.0, 80.0, 50.0], 30.0),
            plain(ring_len, [100.0, 70.0, 40.0], 30.0),
        ));
        let mut seen = one.seen.clone();
        seen[bark] = Seen::Ground;
        // Every cell holds a picture here, so sheet and picture indices agree.
        let strangers = |pics: &[Option<Picture>]| {
            let idx: Vec<usize> = (0..pics.len()).collect();
            let all: Vec<&Picture> = pics.iter().flatten().collect();
            let tiles: Vec<&Picture> = idx
                .iter()
                .filter(|&&i| matches!(seen[i], Seen::Paired(_)))
                .map(|&i| all[i])
                .collect();
            let grounds: Vec<&Picture> = ring_idx.iter().map(|&i| all[i]).collect();
            lone_strangers(
                &g, &all, &idx, pics, &ring_idx, &tiles, &grounds, &seen, &cfg,
            )
        };
        assert_eq!(strangers(&pics), vec![sky]);
        // A cell inside that the ring's ground holds is no such evidence.
        pics[bark] = Some(Picture::from_blocks(
            plain(b * b, pink, 1.0),
            plain(ring_len, pink, 1.0),
        ));
        assert!(strangers(&pics).is_empty());
    }

    #[test]
    fn a_crowd_stands_above_every_type_not_above_the_median() {
        let cfg = ReaderConfig::default();
        // A late game on a large board: types of 12 left beside types of 2-10, median 4.
        let late = [12, 12, 10, 8, 8, 6, 6, 6, 4, 4, 4, 4, 4, 4, 4, 2, 2, 2];
        assert_eq!(crowd_floor(&late, &cfg), usize::MAX);
        // Forty cells of a patterned ground and eighteen 3-D sides over types of 2-6.
        let crowds = [40, 18, 6, 4, 4, 4, 2, 2, 2, 2];
        assert_eq!(crowd_floor(&crowds, &cfg), 18);
        // A row of a window's chrome taken into the extent above a deal: 34 alike cells over
        // types of 12, 10 and 8, a step of 2.8 (a type's largest step measured is 2.0).
        let chrome = [34, 12, 12, 12, 10, 10, 10, 10, 8, 8, 8];
        assert_eq!(crowd_floor(&chrome, &cfg), 34);
        // Above the jump but under the floor in count: no crowd.
        assert!(crowd_floor(&[9, 2, 2, 2, 2], &cfg) > 9);
        // One picture everywhere is not a crowd among types.
        assert_eq!(crowd_floor(&[50], &cfg), usize::MAX);
        assert_eq!(crowd_floor(&[], &cfg), usize::MAX);
    }
}
