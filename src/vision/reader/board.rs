//! The board a sheet shows: paired groups become tile types (crowded ones, and groups drawn
//! without the tiles' body, obstacles), lone pictures join the type whose shape they hold
//! (a tinted, selected tile) or stay unsure obstacles, and a selection's frame is told from
//! the frame every tile shares.

use super::look::{crowd_floor, nearest_frame, Seen};
use crate::board::{type_char, Board, Cell, Pos, TYPE_ALPHABET};
use crate::geometry::Grid;
use crate::vision::cells::{self, features_with, CellFeatures};
use crate::vision::config::ReaderConfig;
use crate::vision::face;
use crate::vision::obstacles::{face_shares, obstacle_groups};
use crate::vision::pictures::{common_frame, frame_distance, on_ring, shape_distance, Picture};
use crate::vision::pixels::Integral;
use crate::vision::verdict::Tally;
use crate::vision::{ReadError, Reading};
use image::RgbaImage;

/// How a refusal for more pictures than a board has names ends: the reader looks for it
/// to try coarser lattices.
pub(super) const TOO_MANY_PICTURES: &str = "more than a board can name";

/// The cell (sheet index) of a tile shown selected by its frame alone, if one type's
/// members part by frame ([`ReaderConfig::selected_frame_gap`]) at least twice as far as any
/// other type's: the member farthest from its twins (in a pair, the one whose frame strays
/// further from the frame every tile shares).
pub(super) fn framed_selection(
    s: &SheetCells,
    cells: &[usize],
    kind: &[Option<usize>],
    common: Option<&Picture>,
    cfg: &ReaderConfig,
) -> Option<usize> {
    let mut members = std::collections::BTreeMap::<usize, Vec<(usize, &Picture)>>::new();
    for (&i, k) in cells.iter().zip(kind) {
        if let (Some(g), Some(p)) = (k, s.pics[i].as_ref()) {
            members.entry(*g).or_default().push((i, p));
        }
    }
    // Per type: each member's frame distance to its nearest twin (with its cell), and the
    // largest of them.
    type Twin<'p> = (f32, usize, &'p Picture);
    let mut parted: Vec<(f32, Vec<Twin>)> = members
        .values()
        .filter(|m| m.len() >= 2)
        .map(|m| {
            let near: Vec<Twin> = m
                .iter()
                .enumerate()
                .map(|(a, &(i, p))| {
                    let d = m
                        .iter()
                        .enumerate()
                        .filter(|&(b, _)| b != a)
                        .map(|(_, (_, q))| frame_distance(p, q))
                        .fold(f32::INFINITY, f32::min);
                    (d, i, p)
                })
                .collect();
            let top = near.iter().map(|n| n.0).fold(0.0, f32::max);
            (top, near)
        })
        .collect();
    parted.sort_by(|a, b| b.0.total_cmp(&a.0));
    let (top, near) = parted.first()?;
    let next = parted.get(1).map_or(0.0, |p| p.0);
    if *top <= cfg.selected_frame_gap || *top < 2.0 * next {
        return None;
    }
    // In a pair both members lie equally far from each other, and only the shared frame
    // tells the tinted one: with no other tile to share it (a game's last pair) none is
    // reported.
    if near.len() == 2 && common.is_none() {
        return None;
    }
    let stray = |p: &Picture| common.map_or(0.0, |c| frame_distance(p, c));
    let pick = near
        .iter()
        .max_by(|a, b| a.0.total_cmp(&b.0).then(stray(a.2).total_cmp(&stray(b.2))))?
        .1;
    // Its frame must also stray from the frame a tile shows in its place: a tile on the
    // board's edge or corner shows ground beyond its sides where its twins show their
    // neighbours' sides, which parts its frame from theirs with no selection at all.
    let mut tiles: Vec<usize> = cells
        .iter()
        .zip(kind)
        .filter(|(_, k)| k.is_some())
        .map(|(&i, _)| i)
        .collect();
    tiles.sort_unstable();
    let in_place = frame_in_place(s, &tiles, pick, cfg.blocks.max(1))?;
    let p = s.pics[pick].as_ref()?;
    (frame_distance(p, &in_place) > cfg.selected_frame_gap).then_some(pick)
}

/// How many cells each type holds.
pub(super) fn type_counts(kind: &[Option<usize>]) -> std::collections::BTreeMap<usize, usize> {
    let mut n = std::collections::BTreeMap::new();
    for g in kind.iter().flatten() {
        *n.entry(*g).or_default() += 1;
    }
    n
}

/// The frame a tile at sheet cell `at` shows when no selection marks it: per ring block,
/// the median over the tiles (`tiles`, sheet indices) that have a tile beside them, or
/// none, on the same sides as `at` on the sides that block lies along (a corner block, two
/// sides). A tile's cell ring takes in what lies beyond its edges (a neighbour's 3-D side
/// and shadow, or bare ground), so a tile on the board's edge or corner shows a frame of
/// its own. Blocks no tile of the same sides shares take the median over all tiles.
pub(super) fn frame_in_place(
    s: &SheetCells,
    tiles: &[usize],
    at: usize,
    b: usize,
) -> Option<Picture> {
    let is_tile = |i: usize| tiles.binary_search(&i).is_ok();
    let beside = |i: usize| {
        let (r, c) = (i / s.cols, i % s.cols);
        [
            r > 0 && is_tile(i - s.cols),
            r + 1 < s.rows && is_tile(i + s.cols),
            c > 0 && is_tile(i - 1),
            c + 1 < s.cols && is_tile(i + 1),
        ]
    };
    let own = beside(at);
    // The sides each ring block lies along.
    let ring: Vec<[bool; 4]> = (0..b)
        .flat_map(|r| (0..b).map(move |c| (r, c)))
        .filter(|&(r, c)| on_ring(r, c, b))
        .map(|(r, c)| [r == 0, r + 1 == b, c == 0, c + 1 == b])
        .collect();
    let frames: Vec<(&Picture, [bool; 4])> = tiles
        .iter()
        .filter(|&&i| i != at)
        .filter_map(|&i| s.pics[i].as_ref().map(|p| (p, beside(i))))
        .filter(|(p, _)| p.frame.len() == ring.len() * 3)
        .collect();
    let everyone = common_frame(frames.iter().map(|f| f.0))?;
    // One shared frame per set of sides (a side's blocks, a corner's), from the tiles alike
    // to `at` there.
    let mut by_sides = std::collections::HashMap::<[bool; 4], Option<Picture>>::new();
    let mut frame = Vec::with_capacity(ring.len() * 3);
    for (j, sides) in ring.iter().enumerate() {
        let alike = by_sides.entry(*sides).or_insert_with(|| {
            common_frame(
                frames
                    .iter()
                    .filter(|(_, t)| (0..4).all(|k| !sides[k] || t[k] == own[k]))
                    .map(|f| f.0),
            )
        });
        let from = alike.as_ref().unwrap_or(&everyone);
        frame.extend_from_slice(&from.frame[j * 3..j * 3 + 3]);
    }
    Some(Picture { frame, ..everyone })
}

/// A sheet's cells without a lattice (the known-grid path builds them from a [`Grid`]).
pub(super) struct SheetCells {
    pub(super) rows: usize,
    pub(super) cols: usize,
    pub(super) pics: Vec<Option<Picture>>,
}

/// The paired groups of a board that are obstacles (stones, crates, locks): those drawn
/// without the body every tile shares ([`obstacle_groups`]: the face in its corners, the
/// frame along its sides), whose face shows nowhere inside either
/// ([`ReaderConfig::obstacle_face_share`]; within [`ReaderConfig::face_exact`] of it where
/// both looks at the body name the group alone,
/// [`ObstacleVerdict::agreed`]), and whose shape is no tile type's once a tint is taken
/// out: a game tints the pair it removes, or the tile the player selected, and the tint
/// hides the face as an obstacle does ([`ReaderConfig::shape_join_ratio`], as a lone
/// tinted picture joins its type). `cells` are the board's cells in sheet order, `kind`
/// their groups, `members` each paired group's pictures.
///
/// [`ObstacleVerdict::agreed`]: crate::vision::obstacles::ObstacleVerdict
#[allow(clippy::too_many_arguments)]
pub(super) fn walls(
    grid: &Grid,
    integral: &Integral,
    frame: &RgbaImage,
    s: &SheetCells,
    cells: &[usize],
    kind: &[Option<usize>],
    members: &std::collections::HashMap<usize, Vec<&Picture>>,
    cfg: &ReaderConfig,
) -> Vec<usize> {
    let frame_size = frame.dimensions();
    let held: Vec<usize> = (0..cells.len()).filter(|&k| kind[k].is_some()).collect();
    let pos = |k: usize| (cells[k] / s.cols - 1, cells[k] % s.cols - 1);
    let feats: Option<Vec<CellFeatures>> = held
        .iter()
        .map(|&k| {
            let (r, c) = pos(k);
            features_with(integral, grid, r as i32, c as i32, frame_size, false)
        })
        .collect();
    let Some(feats) = feats else {
        return Vec::new();
    };
    // Groups renumbered densely, as the tests count them.
    let mut ids: Vec<usize> = held.iter().filter_map(|&k| kind[k]).collect();
    ids.sort_unstable();
    ids.dedup();
    let dense: Vec<usize> = held
        .iter()
        .map(|&k| {
            ids.binary_search(&kind[k].expect("held cells are typed"))
                .expect("listed")
        })
        .collect();
    let refs: Vec<&CellFeatures> = feats.iter().collect();
    let frame_of = |j: usize| {
        let (r, c) = pos(held[j]);
        cells::frame_profile(integral, grid, r as i32, c as i32)
    };
    let found = obstacle_groups(&refs, &dense, &frame_of, cfg);
    if found.groups.is_empty() {
        return Vec::new();
    }
    let pic = |k: usize| s.pics[cells[k]].as_ref().expect("a seen cell is described");
    let pics: Vec<&Picture> = held.iter().map(|&k| pic(k)).collect();
    // Where both looks at the body name the group, its face must show as the face itself:
    // a stone whose grey lies near the face comes within the clean bound in many blocks.
    let tol = match found.agreed {
        true => cfg.face_exact,
        false => cfg.face_clean,
    };
    let shares = face_shares(&pics, tol);
    // The face per pixel: the commonest colour inside the board's pictures, tiles far
    // outnumbering stones.
    let rect = |j: usize| {
        let (r, c) = pos(held[j]);
        grid.cell_rect(r as i32, c as i32)
    };
    let rects: Vec<_> = (0..held.len()).map(rect).collect();
    let face = face::face_colour(frame, &rects, cfg.inset);
    // Where both looks name the group, its pixels must show the face itself, as its
    // blocks must (a stone's grey can lie within the looser bound of a grey face).
    let px_tol = match found.agreed {
        true => cfg.face_exact,
        false => cfg.face_pixel_tol,
    };
    found
        .groups
        .into_iter()
        .map(|d| ids[d])
        .filter(|&g| {
            let mine: Vec<usize> = (0..held.len())
                .filter(|&j| kind[held[j]] == Some(g))
                .collect();
            let mut v: Vec<f32> = mine.iter().map(|&j| shares[j]).collect();
            v.sort_by(|a, b| a.total_cmp(b));
            if v[v.len() / 2] > cfg.obstacle_face_share {
                return false;
            }
            // The face between a symbol's strokes, pixel by pixel: a symbol that runs to
            // the tile's edges leaves no block of clean face, but its pixels still show it
            // ([`ReaderConfig::contested_face_share`]); a stone shows none.
            if let Some(face) = face {
                let mut px: Vec<f32> = mine
                    .iter()
                    .filter_map(|&j| face::face_share(frame, rects[j], cfg.inset, face, px_tol))
                    .collect();
                px.sort_by(|a, b| a.total_cmp(b));
                if px
                    .get(px.len() / 2)
                    .is_some_and(|&m| m >= cfg.contested_face_share)
                {
                    return false;
                }
            }
            // A tinted tile: its shape is one type's far more than any other's.
            let p = pics[mine[0]];
            let mut ranked: Vec<f32> = members
                .iter()
                .filter(|(&h, _)| h != g)
                .filter_map(|(_, m)| {
                    m.iter()
                        .map(|q| shape_distance(p, q))
                        .min_by(|a, b| a.total_cmp(b))
                })
                .collect();
            ranked.sort_by(|a, b| a.total_cmp(b));
            !matches!(ranked.as_slice(), [d1, d2, ..] if d1 * cfg.shape_join_ratio < *d2)
        })
        .collect()
}

/// The one type of odd count as obstacles: tiles come in pairs, so a type dealt an odd
/// number of times is none, while a game deals its stones (one sprite) in any number. Only
/// where nothing else explains the odd count: no picture is left without a type (a
/// missing member would be one), no cell of the group lies off the board (the extent cut
/// a type, and its last member lies beyond), and the group shows the tiles' face nowhere
/// while every other type shows more of it ([`ReaderConfig::odd_wall_face_share`]): a
/// tile read as the ground leaves its type odd, but its twins still show the face.
fn odd_walls(
    s: &SheetCells,
    cells: &[usize],
    kind: &[Option<usize>],
    seen: &[Seen],
    cfg: &ReaderConfig,
) -> Vec<usize> {
    let counts = type_counts(kind);
    let odd: Vec<usize> = counts
        .iter()
        .filter(|(_, &c)| c % 2 == 1)
        .map(|(&g, _)| g)
        .collect();
    let [g] = odd[..] else {
        return Vec::new();
    };
    let off_board = (0..seen.len())
        .filter(|i| cells.binary_search(i).is_err())
        .any(|i| seen[i] == Seen::Paired(g));
    if counts[&g] < 3 || counts.len() < 2 || off_board {
        return Vec::new();
    }
    let held: Vec<usize> = (0..cells.len()).filter(|&k| kind[k].is_some()).collect();
    let pics: Vec<&Picture> = held
        .iter()
        .map(|&k| s.pics[cells[k]].as_ref().expect("a seen cell is described"))
        .collect();
    let shares = face_shares(&pics, cfg.face_exact);
    let mut per = std::collections::BTreeMap::<usize, Vec<f32>>::new();
    for (j, &k) in held.iter().enumerate() {
        per.entry(kind[k].expect("held"))
            .or_default()
            .push(shares[j]);
    }
    let median = |v: &mut Vec<f32>| {
        v.sort_by(|a, b| a.total_cmp(b));
        v[v.len() / 2]
    };
    let mine = median(per.get_mut(&g).expect("the odd type is held"));
    let least = per
        .iter_mut()
        .filter(|(&h, _)| h != g)
        .map(|(_, v)| median(v))
        .fold(f32::INFINITY, f32::min);
    match mine <= cfg.odd_wall_face_share && mine < least {
        true => vec![g],
        false => Vec::new(),
    }
}

/// The board inside a sheet: paired groups become types (crowded ones obstacles), lone
/// pictures join the type they match once a tint is taken out (a selected tile) or stay
/// unsure, and the verdict decides. With `walls_on`, groups drawn without the tiles' body
/// are obstacles ([`walls`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn board_from(
    grid: &Grid,
    integral: &Integral,
    frame: &RgbaImage,
    walls_on: bool,
    s: &SheetCells,
    (seen, stippled): (&[Seen], &[usize]),
    framed_ground: &[bool],
    inside: impl Fn(usize) -> bool,
    cfg: &ReaderConfig,
) -> Result<(Reading, Tally), ReadError> {
    let cells: Vec<usize> = (0..s.rows * s.cols).filter(|&i| inside(i)).collect();
    // Groups present on the board and their counts there.
    let mut count = std::collections::BTreeMap::<usize, usize>::new();
    for &i in &cells {
        if let Seen::Paired(g) = seen[i] {
            *count.entry(g).or_default() += 1;
        }
    }
    // A board group seen once on the board (its twin outside) is a lone picture here.
    let mut kind: Vec<Option<usize>> = cells
        .iter()
        .map(|&i| match seen[i] {
            Seen::Paired(g) if count[&g] >= 2 => Some(g),
            _ => None,
        })
        .collect();
    let lone: Vec<usize> = (0..cells.len())
        .filter(|&k| {
            matches!(seen[cells[k]], Seen::Lone)
                || matches!(seen[cells[k]], Seen::Paired(g) if count[&g] < 2)
        })
        .collect();
    // Stippled tiles, already of their type, are selected ([`read_stipples`]).
    let mut selected: Vec<Pos> = stippled
        .iter()
        .map(|&i| Pos::new(i / s.cols - 1, i % s.cols - 1))
        .collect();
    // A lone picture joins the group whose shape it matches far better than any other's.
    let mut unsure = Vec::new();
    let groups: Vec<usize> = count
        .iter()
        .filter(|(_, &n)| n >= 2)
        .map(|(&g, _)| g)
        .collect();
    let members: std::collections::HashMap<usize, Vec<&Picture>> = groups
        .iter()
        .map(|&g| {
            let m = cells
                .iter()
                .zip(&kind)
                .filter(|(_, k)| **k == Some(g))
                .filter_map(|(&i, _)| s.pics[i].as_ref())
                .collect();
            (g, m)
        })
        .collect();
    for &k in &lone {
        let p = s.pics[cells[k]].as_ref().expect("a seen cell is described");
        // Another lone picture far nearer in shape than any type is its twin (the player
        // selected one of the last two of a type): left to the pairing of lone pictures
        // below, or a type drawn alike in another colour takes both.
        let twin = lone
            .iter()
            .filter(|&&j| j != k)
            .filter_map(|&j| s.pics[cells[j]].as_ref())
            .map(|q| shape_distance(p, q))
            .fold(f32::INFINITY, f32::min);
        let mut ranked: Vec<(f32, usize)> = groups
            .iter()
            .filter_map(|&g| {
                members[&g]
                    .iter()
                    .map(|q| shape_distance(p, q))
                    .min_by(|a, b| a.total_cmp(b))
                    .map(|d| (d, g))
            })
            .collect();
        ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
        let pos = Pos::new(cells[k] / s.cols - 1, cells[k] % s.cols - 1);
        match ranked.as_slice() {
            [(d1, _), ..] if twin * cfg.lone_twin_ratio < *d1 => unsure.push(pos),
            [(d1, g), (d2, _), ..] if *d1 * cfg.shape_join_ratio < *d2 => {
                kind[k] = Some(*g);
                selected.push(pos);
            }
            [(_, g)] => {
                kind[k] = Some(*g);
                unsure.push(pos);
            }
            _ => unsure.push(pos),
        }
    }
    // Two lone pictures that match each other's shape far better than any type's are a
    // pair whose twin is tinted (the player selected one of the last two of a type): the
    // one whose frame strays further from the frame the tiles share is the selected one.
    // Not when either's frame is the ground's far more than the tiles' (cells past the
    // board's edge that hold its 3-D side over a photo ground can match each other so).
    let left: Vec<usize> = lone
        .iter()
        .copied()
        .filter(|&k| kind[k].is_none())
        .collect();
    let mut next_group = count.keys().max().map_or(0, |g| g + 1) + seen.len();
    let common = common_frame(
        cells
            .iter()
            .zip(&kind)
            .filter(|(_, k)| k.is_some())
            .filter_map(|(&i, _)| s.pics[i].as_ref()),
    );
    let nearest_type = |p: &Picture| {
        members
            .values()
            .flatten()
            .map(|q| shape_distance(p, q))
            .fold(f32::INFINITY, f32::min)
    };
    let pic = |k: usize| s.pics[cells[k]].as_ref().expect("a seen cell is described");
    let ground_pics: Vec<&Picture> = (0..s.rows * s.cols)
        .filter(|&i| seen[i] == Seen::Ground)
        .filter_map(|i| s.pics[i].as_ref())
        .collect();
    let ground_framed = |p: &Picture| {
        common.as_ref().is_some_and(|c| {
            nearest_frame(p, &ground_pics) * cfg.ground_frame_ratio < frame_distance(p, c)
        })
    };
    let pos_of = |k: usize| Pos::new(cells[k] / s.cols - 1, cells[k] % s.cols - 1);
    for (ai, &a) in left.iter().enumerate() {
        if kind[a].is_some() {
            continue;
        }
        let mut ranked: Vec<(f32, usize)> = left
            .iter()
            .enumerate()
            .filter(|&(bi, &b)| bi != ai && kind[b].is_none())
            .map(|(_, &b)| (shape_distance(pic(a), pic(b)), b))
            .collect();
        ranked.sort_by(|x, y| x.0.total_cmp(&y.0));
        let Some(&(d, b)) = ranked.first() else {
            continue;
        };
        let second = ranked.get(1).map_or(f32::INFINITY, |r| r.0);
        let rival = nearest_type(pic(a)).min(nearest_type(pic(b))).min(second);
        // b's own best partner must be a, too.
        let b_best = left
            .iter()
            .filter(|&&c| c != b && kind[c].is_none())
            .map(|&c| (shape_distance(pic(b), pic(c)), c))
            .min_by(|x, y| x.0.total_cmp(&y.0))
            .map(|x| x.1);
        if d * cfg.shape_join_ratio >= rival || b_best != Some(a) {
            continue;
        }
        if [a, b].iter().any(|&k| ground_framed(pic(k))) {
            continue;
        }
        kind[a] = Some(next_group);
        kind[b] = Some(next_group);
        next_group += 1;
        // With no type to measure them against (nothing else pairs: a game's last pair, or
        // its cells crossed by the removal's link line with the emptied cells it runs over)
        // two pictures alike are no proof of a pair: they stay unsure.
        if members.is_empty() {
            continue;
        }
        unsure.retain(|p| *p != pos_of(a) && *p != pos_of(b));
        let stray = |k: usize| common.as_ref().map_or(0.0, |c| frame_distance(pic(k), c));
        let sel = if stray(a) >= stray(b) { a } else { b };
        selected.push(pos_of(sel));
    }
    // Tiles come in pairs: one picture left alone while exactly one type holds an odd
    // count is that type's missing member when its shape is among its nearest types (a
    // selection that repaints the face's ground, as a white face behind a red numeral, can
    // leave a look-alike glyph about as near).
    let still: Vec<usize> = lone
        .iter()
        .copied()
        .filter(|&k| kind[k].is_none())
        .collect();
    if let [k] = still[..] {
        let odd: Vec<usize> = type_counts(&kind)
            .iter()
            .filter(|(_, &c)| c % 2 == 1)
            .map(|(&g, _)| g)
            .collect();
        if let [g] = odd[..] {
            let to = |g: usize| {
                members.get(&g).map_or(f32::INFINITY, |m| {
                    m.iter()
                        .map(|q| shape_distance(pic(k), q))
                        .fold(f32::INFINITY, f32::min)
                })
            };
            let best = nearest_type(pic(k));
            if to(g) <= cfg.odd_join_ratio * best {
                kind[k] = Some(g);
                unsure.retain(|p| *p != pos_of(k));
                selected.push(pos_of(k));
            }
        }
    }
    // A game shows one tile selected, or a hinted pair of one type: more joins into one
    // type are no selections, and the cells joined stay in it but unsure.
    let mut joins = std::collections::HashMap::<usize, Vec<Pos>>::new();
    for &k in &lone {
        if let (Some(g), true) = (kind[k], selected.contains(&pos_of(k))) {
            joins.entry(g).or_default().push(pos_of(k));
        }
    }
    for crowd in joins.into_values().filter(|v| v.len() > cfg.max_selected) {
        selected.retain(|p| !crowd.contains(p));
        unsure.extend(crowd);
    }
    // A selection that only frames or tints a tile's border leaves its face alike to its
    // twins', so it stays in its type: find it by the frame instead. Twins are one sprite,
    // so their frames match too (a neighbour's side or shadow touches under half of the
    // ring, and the distance is a median over it); one type whose frames part far more than
    // any other type's holds the selected tile.
    if selected.is_empty() {
        if let Some(sel) = framed_selection(s, &cells, &kind, common.as_ref(), cfg) {
            selected.push(Pos::new(sel / s.cols - 1, sel % s.cols - 1));
        }
    }
    let walls = match walls_on {
        true => walls(grid, integral, frame, s, &cells, &kind, &members, cfg),
        false => Vec::new(),
    };
    let typed = lone.iter().all(|&k| kind[k].is_some());
    let walls = match walls.is_empty() && walls_on && typed {
        true => odd_walls(s, &cells, &kind, seen, cfg),
        false => walls,
    };
    let walled = |k: usize| kind[k].is_some_and(|g| walls.contains(&g));
    unsure.retain(|p| (0..cells.len()).all(|k| pos_of(k) != *p || !walled(k)));
    selected.retain(|p| (0..cells.len()).all(|k| pos_of(k) != *p || !walled(k)));
    // Walls whose pictures mostly show the ground's colour and that were found tiles by
    // their frames alone (`framed_ground`): the frame says a tile's body, the walls test
    // says none, and the face is the ground's. Cells emptied beside tiles give all three
    // (the ground, with a neighbour's 3-D side and shadow along one edge, the way a tile's
    // own side runs along its frame); a reading cannot tell them from stones. Stones drawn
    // in a colour of their own stay sure.
    for k in (0..cells.len()).filter(|&k| walled(k) && framed_ground[cells[k]]) {
        unsure.push(pos_of(k));
    }
    // Types by first appearance; crowded ones are obstacles.
    let final_count = type_counts(&kind);
    let counts: Vec<usize> = final_count.values().copied().collect();
    let tiles: usize = counts.iter().sum();
    let crowd = if counts.len() > 2 {
        crowd_floor(&counts, cfg)
    } else {
        usize::MAX
    };
    let crowded = |g: usize| {
        let n = final_count[&g];
        n >= crowd || cfg.crowds_by_share(n, tiles)
    };
    let mut letters = std::collections::HashMap::<usize, usize>::new();
    let mut board = Board::new(grid.rows, grid.cols);
    let mut lone_unmatched = 0;
    for (k, &i) in cells.iter().enumerate() {
        let pos = Pos::new(i / s.cols - 1, i % s.cols - 1);
        let cell = match kind[k] {
            _ if walled(k) => Cell::Obstacle,
            Some(g) if crowded(g) => {
                if !unsure.contains(&pos) {
                    unsure.push(pos);
                }
                Cell::Obstacle
            }
            Some(g) => {
                let next = letters.len();
                let t = *letters.entry(g).or_insert(next);
                let ch = type_char(t).ok_or_else(|| {
                    // Pictures that pair but outnumber the names a board can give them:
                    // the verdict on pairing (below) is not this one's to make.
                    ReadError::Invalid(format!(
                        "more than {} different tile pictures in the {}x{} grid, \
                         {TOO_MANY_PICTURES}",
                        TYPE_ALPHABET.len(),
                        grid.rows,
                        grid.cols
                    ))
                })?;
                Cell::Tile(ch)
            }
            None if matches!(seen[i], Seen::Ground) => Cell::Empty,
            // A picture like no other and no type's once a tint is taken out: an obstacle
            // for the planner (no link runs through it, no click lands on it) and unsure,
            // since one frame cannot tell a lone obstacle from a tile whose twin is hidden.
            None => {
                lone_unmatched += 1;
                Cell::Obstacle
            }
        };
        board.set(pos, cell);
    }
    // Tiles of odd types are unsure (a twin misread).
    let mut odd = 0;
    for (k, &i) in cells.iter().enumerate() {
        if let Some(g) = kind[k] {
            if !crowded(g) && !walled(k) && final_count[&g] % 2 == 1 {
                odd += 1;
                let pos = Pos::new(i / s.cols - 1, i % s.cols - 1);
                if !unsure.contains(&pos) {
                    unsure.push(pos);
                }
            }
        }
    }
    let tiles = (0..cells.len())
        .filter(|&k| kind[k].is_some() && !walled(k))
        .count()
        + lone_unmatched;
    unsure.sort();
    selected.sort();
    Ok((
        Reading {
            grid: *grid,
            board,
            unsure,
            selected,
        },
        Tally {
            tiles,
            lone: lone_unmatched,
            odd,
            rows: grid.rows,
            cols: grid.cols,
            ring_framed: [false; 4],
        },
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3x4 board of tiles in a 5x6 sheet; each tile's frame (3x3 blocks, a ring of 8)
    /// shows 100 on a side with a tile beside it and 20 on a side facing the ground, plus
    /// `tint` on the tile at (1, 1) of the board.
    #[test]
    fn a_corner_tile_shows_the_frame_of_its_place_and_a_tinted_tile_does_not() {
        let (rows, cols, b) = (5, 6, 3);
        let inside = |i: usize| {
            let (r, c) = (i / cols, i % cols);
            (1..rows - 1).contains(&r) && (1..cols - 1).contains(&c)
        };
        let tiles: Vec<usize> = (0..rows * cols).filter(|&i| inside(i)).collect();
        let tint_at = 2 * cols + 2;
        let pics: Vec<Option<Picture>> = (0..rows * cols)
            .map(|i| {
                if !inside(i) {
                    return None;
                }
                let near = [i - cols, i + cols, i - 1, i + 1].map(inside);
                let mut frame = Vec::new();
                for r in 0..b {
                    for c in 0..b {
                        if !(r == 0 || c == 0 || r + 1 == b || c + 1 == b) {
                            continue;
                        }
                        let sides = [r == 0, r + 1 == b, c == 0, c + 1 == b];
                        let facing_ground = (0..4).any(|k| sides[k] && !near[k]);
                        let v = if facing_ground { 20.0 } else { 100.0 }
                            + if i == tint_at { 40.0 } else { 0.0 };
                        frame.extend([v, v, v]);
                    }
                }
                Some(Picture {
                    blocks: Vec::new(),
                    mean: [0.0; 3],
                    spread: 0.0,
                    frame,
                })
            })
            .collect();
        let s = SheetCells { rows, cols, pics };
        let corner = cols + 1;
        let own = |i: usize| s.pics[i].as_ref().unwrap();
        // The corner parts from the frame every tile shares, not from the frame of its place.
        let shared = common_frame(tiles.iter().map(|&i| own(i))).unwrap();
        assert!(frame_distance(own(corner), &shared) >= 80.0);
        let in_place = frame_in_place(&s, &tiles, corner, b).unwrap();
        assert_eq!(frame_distance(own(corner), &in_place), 0.0);
        let in_place = frame_in_place(&s, &tiles, tint_at, b).unwrap();
        assert_eq!(frame_distance(own(tint_at), &in_place), 40.0);
    }

    /// A 4x16 block picture: the face (grey 100) with a symbol of `ink` in 4 blocks, or,
    /// with `ink` `None`, a stone of greys 130–205 everywhere.
    fn face_or_stone(ink: Option<f32>) -> Picture {
        let blocks: Vec<f32> = (0..16)
            .map(|b| match ink {
                Some(v) if b % 4 == 1 => v,
                Some(_) => 100.0,
                None => 130.0 + (b % 4) as f32 * 25.0,
            })
            .flat_map(|v| [v, v, v])
            .collect();
        Picture::from_blocks(blocks, Vec::new())
    }

    /// The walls [`odd_walls`] finds on a 2x4 board in a 4x6 sheet, each board cell a
    /// face of ink `Some(v)`, a stone (`Some(None)`) or ground (`None`), grouped by
    /// `kind`; `off_board` also puts a cell of group `g` on the ring.
    fn odd_walled(
        board: [Option<Option<f32>>; 8],
        kind: [Option<usize>; 8],
        off_board: Option<usize>,
    ) -> Vec<usize> {
        let cols = 6;
        let cells: Vec<usize> = (0..8).map(|k| (1 + k / 4) * cols + 1 + k % 4).collect();
        let mut pics = vec![None; 4 * cols];
        let mut seen = vec![Seen::Ground; 4 * cols];
        for (k, &i) in cells.iter().enumerate() {
            pics[i] = board[k].map(face_or_stone);
            if let Some(g) = kind[k] {
                seen[i] = Seen::Paired(g);
            }
        }
        if let Some(g) = off_board {
            pics[0] = Some(face_or_stone(None));
            seen[0] = Seen::Paired(g);
        }
        let s = SheetCells {
            rows: 4,
            cols,
            pics,
        };
        odd_walls(&s, &cells, &kind, &seen, &ReaderConfig::default())
    }

    #[test]
    fn the_one_odd_group_that_shows_no_face_is_obstacles() {
        let (a, b, st) = (Some(Some(20.0)), Some(Some(200.0)), Some(None));
        let board = [a, a, b, b, st, st, st, None];
        // Seven cells grouped as listed, the eighth ground.
        let grouped = |g: [usize; 7]| {
            let mut k = [None; 8];
            for (c, g) in k.iter_mut().zip(g) {
                *c = Some(g);
            }
            k
        };
        let kind = grouped([0, 0, 1, 1, 2, 2, 2]);
        assert_eq!(odd_walled(board, kind, None), vec![2]);
        // A stone of the group beyond the board: the extent may have cut a type.
        assert_eq!(odd_walled(board, kind, Some(2)), Vec::<usize>::new());
        // Another type shows no face either (a pair drawn without it): nothing tells the
        // stones from it.
        let board = [st, st, b, b, st, st, st, None];
        assert_eq!(odd_walled(board, kind, None), Vec::<usize>::new());
        // An odd type that shows the face (its fourth tile read as ground) is tiles.
        let board = [a, a, a, b, b, st, st, None];
        let kind = grouped([0, 0, 0, 1, 1, 2, 2]);
        assert_eq!(odd_walled(board, kind, None), Vec::<usize>::new());
    }
}
