//! Where the ground runs on past the cells the grouping read as ground: emptied cells that
//! carry a neighbour's shadow or 3-D side (no twin, no fixed ground test) are reached from
//! the ground through seamless borders; lone pictures that lie among the ground cells, and
//! a line of tiles' 3-D sides along the board's edge, are settled as ground.

use super::look::{holds_a_shape, nearest_frame, type_shapes, Seen};
use super::seam::edge_seam;
use super::sheet::Ground;
use crate::vision::config::ReaderConfig;
use crate::vision::ground::{describe_beside, GroundTest, SIDES};
use crate::vision::pictures::{common_frame, frame_distance, Picture};
use crate::vision::pixels::{median, Integral};

/// Whether the ground of cell `q` runs on into picture `p` across their shared edge
/// (`p_side` of `p`, `q_side` of `q`, indices into [`SIDES`]): the two rows of edge blocks
/// meet with no seam ([`ReaderConfig::ground_seam`]) and `p`'s blocks away from the sides
/// where a tile stands show `q`'s colour, lit or in shadow
/// ([`ReaderConfig::clear_ground_share`]). A tile's border or bevel makes a seam against
/// the ground beside it, and its face shows its picture.
/// Where `tile_beside` says a tile stands on a side of `p` across the edge's ends, the
/// edge's blocks within [`ReaderConfig::overhang_share`] of that end are left out: the
/// tile's 3-D side and shadow fall there on an emptied cell and not on the ground beyond.
pub(super) fn ground_runs_into(
    p: &Picture,
    q: &Picture,
    (p_side, q_side): (usize, usize),
    tile_beside: [bool; 4],
    cfg: &ReaderConfig,
) -> bool {
    let b = cfg.blocks.max(1);
    let Some(seam) = edge_seam(p, q, (p_side, q_side), tile_beside, cfg) else {
        return false;
    };
    if seam > cfg.ground_seam {
        return false;
    }
    let band = (cfg.overhang_share * b as f32).ceil() as usize;
    let local = Ground {
        colour: median_colour(q),
        colour_tol: 0.0,
        spread_max: 0.0,
    };
    // The blocks away from the bands a neighbouring tile's side and shadow can cover: an
    // emptied cell shows the ground there, a tile its face.
    // (`band` blocks deep, as on the edge: one side's frame blocks are `b` long.)
    let whole = p.blocks.len() != b * b * 3;
    let clear = |r: usize, c: usize| {
        whole
            || !((tile_beside[0] && r < band)
                || (tile_beside[1] && r + band >= b)
                || (tile_beside[2] && c < band)
                || (tile_beside[3] && c + band >= b))
    };
    let (mut n, mut shown) = (0usize, 0usize);
    for (k, v) in p.blocks.chunks_exact(3).enumerate() {
        if clear(k / b, k % b) {
            n += 1;
            shown += local.shows([v[0], v[1], v[2]], cfg) as usize;
        }
    }
    n > 0 && shown as f32 >= cfg.clear_ground_share * n as f32
}

/// The per-channel median of a picture's blocks: the colour most of it shows, which a
/// 3-D side or shadow along one edge does not pull as it pulls the mean.
pub(super) fn median_colour(p: &Picture) -> [f32; 3] {
    if p.blocks.is_empty() {
        return p.mean;
    }
    [0, 1, 2].map(|ch| median(p.blocks.iter().skip(ch).step_by(3).copied().collect()))
}

/// Paired groups and lone pictures that are the ground running on from the cells beside
/// them: cells a game has emptied show the ground with a neighbouring tile's 3-D side and
/// shadow along one edge, alike wherever a tile stands on the same side, so they pair like
/// a tile type (or, where no other cell has the same sides, pair with nothing). The ground
/// spreads from the cells read as ground into each such cell it runs into
/// ([`ground_runs_into`]), and on from there; a lone picture it reaches is ground (when
/// `lone`: on a grid found in the frame, where the link-line check has run), and a
/// group two of whose board cells it reaches, or at least half of whose members it
/// reaches or that lie off the board (the sheet's ring), is ground: a type's tiles lie on
/// the board, while a tile's side and shadow on the ground beside the board pair with the
/// same on an emptied cell. Measured on the KShisen corpus and two held-out sets: of
/// 25 338 tiles beside a cell of ground, none lets it in; of 20 emptied cells paired as a
/// type beside one, 16 do. So two cells reached are no chance: on a textured ground a
/// group of emptied cells under the same 3-D side can pair eight strong and let the ground
/// in at only three (its grain makes a seam elsewhere). The ground never runs into a cell
/// of `tile_framed` (its group shows the tiles' own frame, [`Sight::tile_framed`]): a face
/// in the ground's colour with a small glyph (a white face on a white ground), or a light
/// face whose symbols leave its middle bare, shows no seam against the ground beside it
/// and the ground's colour in shadow inside its border, and the ground would run on
/// through every such face.
///
/// [`Sight::tile_framed`]: super::look::Sight::tile_framed
pub(super) fn ground_runs_on(
    pics: &[Option<Picture>],
    (rows, cols): (usize, usize),
    seen: &mut [Seen],
    tile_framed: &[bool],
    lone: bool,
    cfg: &ReaderConfig,
) {
    let mut reached: Vec<bool> = seen.iter().map(|s| *s == Seen::Ground).collect();
    let mut todo: Vec<usize> = (0..rows * cols).filter(|&i| reached[i]).collect();
    while let Some(j) = todo.pop() {
        let Some(q) = pics[j].as_ref() else { continue };
        let (r, c) = ((j / cols) as i64, (j % cols) as i64);
        // The cell on side `side` of `q` faces it with its opposite side (top and bottom,
        // left and right: `side ^ 1`).
        for (side, &(dr, dc)) in SIDES.iter().enumerate() {
            let (rr, cc) = (r + dr, c + dc);
            if rr < 0 || cc < 0 || rr >= rows as i64 || cc >= cols as i64 {
                continue;
            }
            let i = rr as usize * cols + cc as usize;
            let open = (matches!(seen[i], Seen::Paired(_)) || (lone && seen[i] == Seen::Lone))
                && !tile_framed[i];
            if reached[i] || !open {
                continue;
            }
            // Which sides of cell i hold a tile: a cell of a group other than its own.
            let own = seen[i];
            let tile_beside = SIDES.map(|(dy, dx)| {
                let (y, x) = (rr + dy, cc + dx);
                y >= 0
                    && x >= 0
                    && y < rows as i64
                    && x < cols as i64
                    && matches!(seen[y as usize * cols + x as usize], s @ Seen::Paired(_) if s != own)
            });
            if pics[i]
                .as_ref()
                .is_some_and(|p| ground_runs_into(p, q, (side ^ 1, side), tile_beside, cfg))
            {
                reached[i] = true;
                todo.push(i);
            }
        }
    }
    // Per group: members reached, members reached or off the board, members.
    let mut votes = std::collections::HashMap::<usize, (usize, usize, usize)>::new();
    let off_board = |i: usize| {
        let (r, c) = (i / cols, i % cols);
        r == 0 || c == 0 || r + 1 == rows || c + 1 == cols
    };
    for (i, (s, &hit)) in seen.iter().zip(&reached).enumerate() {
        if let Seen::Paired(g) = *s {
            let v = votes.entry(g).or_default();
            v.0 += (hit && !off_board(i)) as usize;
            v.1 += (hit || off_board(i)) as usize;
            v.2 += 1;
        }
    }
    for (s, &hit) in seen.iter_mut().zip(&reached) {
        if *s == Seen::Lone && hit {
            *s = Seen::Ground;
        }
        if let Seen::Paired(g) = *s {
            let (reached, hit, n) = votes[&g];
            if reached >= 2 || hit * 2 >= n {
                *s = Seen::Ground;
            }
        }
    }
}

/// Cells `look` left lone or paired that show the ground after all, judged against the
/// cells it saw as ground ([`GroundTest`]); `pics` is a board's sheet with a ring of one
/// cell around it (`rows × cols`, the board inside), `rect` gives a cell's rectangle.
///
/// A lone picture that lies as near the ground cells as they lie to one another (whole, or
/// without the band a neighbouring tile's 3-D side and shadow lay over it) is ground: an
/// obstacle is drawn over the ground and stands apart from it, while a textured ground under
/// a tile's side pairs with nothing and matches no test made on colour alone. Not a lone
/// picture that holds a type's shape (a tinted tile).
///
/// Pictures that pair can be ground too: a photo ground under a row of the tiles' 3-D sides
/// and shadows repeats along it, and the line is taken into the board (also on a given grid:
/// the live bot grows its lock over lines beside it). A group that may be such a line
/// ([`lines_of_sides`]) is ground when every member shows the ground (groups inside are left
/// alone: on a photo ground the ground cells lie far apart, and a tile there can fall within
/// their spread), unless `framed` found it tiles by their frames.
pub(super) fn settle_ground(
    integral: &Integral,
    pics: &[Option<Picture>],
    (rows, cols): (usize, usize),
    rect: &dyn Fn(usize, usize) -> (f32, f32, f32, f32),
    seen: &mut [Seen],
    framed: &[bool],
    cfg: &ReaderConfig,
) {
    let inside = |i: usize| {
        let (r, c) = (i / cols, i % cols);
        r >= 1 && c >= 1 && r + 1 < rows && c + 1 < cols
    };
    // (The types' shapes are taken once, on first need.)
    let mut shapes = None;
    let lone: Vec<usize> = (0..rows * cols)
        .filter(|&i| inside(i) && seen[i] == Seen::Lone)
        .filter(|&i| {
            pics[i].as_ref().is_some_and(|p| {
                let shapes = shapes.get_or_insert_with(|| type_shapes(pics, seen));
                !holds_a_shape(p, shapes, cfg)
            })
        })
        .collect();
    let mut groups: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for (i, s) in seen.iter().enumerate() {
        if let (true, Seen::Paired(g)) = (inside(i), s) {
            groups.entry(*g).or_default().push(i);
        }
    }
    let sides = lines_of_sides(&groups, rows, cols);
    let edge_groups: Vec<(usize, Vec<usize>)> = groups
        .into_iter()
        .filter(|(g, m)| sides.contains(g) && m.iter().all(|&i| !framed[i]))
        .collect();
    if lone.is_empty() && edge_groups.is_empty() {
        return;
    }
    let at = |(r, c): (i64, i64)| {
        (r >= 0 && c >= 0 && (r as usize) < rows && (c as usize) < cols)
            .then(|| r as usize * cols + c as usize)
    };
    let cell = |i: usize| ((i / cols) as i64, (i % cols) as i64);
    let picture = |cell: (i64, i64), side: Option<usize>| {
        let i = at(cell)?;
        pics[i].as_ref()?;
        describe_beside(integral, rect(i / cols, i % cols), side, cfg)
    };
    let empties: Vec<(i64, i64)> = (0..rows * cols)
        .filter(|&i| seen[i] == Seen::Ground && pics[i].is_some())
        .map(cell)
        .collect();
    let mut test = GroundTest::new(picture, &empties, cfg);
    // Which sides of cell i hold a tile of another group than `own`.
    let beside = |i: usize, own: Option<usize>, seen: &[Seen]| {
        let (r, c) = cell(i);
        SIDES.map(|(dy, dx)| {
            at((r + dy, c + dx))
                .is_some_and(|j| matches!(seen[j], Seen::Paired(g) if Some(g) != own))
        })
    };
    // A cell whose frame is the frame the tiles share, more than any ground cell's frame, is
    // no ground, whatever its inner part shows: a faint face, or a tinted one, on a photo
    // ground lies within the ground cells' wide spread. `ratio`: how many times nearer the
    // tiles' frame it must lie. A lone picture can be a selected tile, whose tint reaches
    // its frame (KShisen on summerfield: 28 from the tiles' frame, 41 from the ground's),
    // so nearer at all (1) keeps it; emptied cells measure 100–146 from the tiles' frame and
    // 5–10 from the ground's. A group is never tinted: its tiles' frames lie within 0–3 of
    // the shared one, while a line of 3-D sides on a textured ground lies 20 from it and 36
    // from the ground's, so a group must lie [`ReaderConfig::blank_frame_ratio`] times
    // nearer.
    let shared = common_frame(
        (0..rows * cols)
            .filter(|&i| inside(i) && matches!(seen[i], Seen::Paired(_)))
            .filter_map(|i| pics[i].as_ref()),
    );
    let ground_pics: Vec<&Picture> = empties
        .iter()
        .filter_map(|&e| at(e).and_then(|i| pics[i].as_ref()))
        .collect();
    let tile_framed = |i: usize, ratio: f32| {
        let (Some(p), Some(t)) = (pics[i].as_ref(), shared.as_ref()) else {
            return false;
        };
        frame_distance(p, t) * ratio < nearest_frame(p, &ground_pics)
    };
    for i in lone {
        if !tile_framed(i, 1.0) && test.shows_ground(cell(i), beside(i, None, seen)) {
            seen[i] = Seen::Ground;
        }
    }
    for (g, members) in edge_groups {
        if members.iter().all(|&i| {
            !tile_framed(i, cfg.blank_frame_ratio)
                && test.shows_ground(cell(i), beside(i, Some(g), seen))
        }) {
            for i in members {
                seen[i] = Seen::Ground;
            }
        }
    }
}

/// The board's outer lines (top, bottom, left, right) that sheet cells `members` (a board
/// with a ring of one cell around it, `rows × cols`) all lie on.
pub(super) fn outer_lines(members: &[usize], rows: usize, cols: usize) -> [bool; 4] {
    let edges = |i: usize| {
        let (r, c) = (i / cols, i % cols);
        [r == 1, r + 2 == rows, c == 1, c + 2 == cols]
    };
    [0, 1, 2, 3].map(|side| !members.is_empty() && members.iter().all(|&i| edges(i)[side]))
}

/// The picture groups (id → member cells of a board's sheet, `rows × cols` with a ring of one
/// cell) that may be a line of tiles' 3-D sides taken into the board's extent: wholly on one
/// of its outer lines, each member beside a cell of another group on the line inward, and
/// that line holding no member of a group that reaches off it. A tile's 3-D side or shadow is
/// drawn on one side of every tile, so a line of them that pairs into the extent fills an
/// outer line beyond the tiles, each beside the tile it belongs to; a group on two lines (a
/// pair at the top and the bottom) is tiles, and so is a group on a line that holds tiles
/// whose twins lie elsewhere on the board (a pair on the bottom line of a board), and a group
/// with nothing inward of it (the last tiles of a game, all on one line).
pub(super) fn lines_of_sides(
    groups: &std::collections::BTreeMap<usize, Vec<usize>>,
    rows: usize,
    cols: usize,
) -> Vec<usize> {
    // Each group's lines, and the lines holding a member of a group not wholly on them.
    let mut on = Vec::with_capacity(groups.len());
    let mut boarded = [false; 4];
    for (&g, m) in groups {
        let whole = outer_lines(m, rows, cols);
        for &i in m {
            let here = outer_lines(&[i], rows, cols);
            for side in 0..4 {
                boarded[side] |= here[side] && !whole[side];
            }
        }
        on.push((g, whole));
    }
    let group_of: std::collections::HashMap<usize, usize> = groups
        .iter()
        .flat_map(|(&g, m)| m.iter().map(move |&i| (i, g)))
        .collect();
    // The cell one step inward from sheet cell `i` on outer line `side`.
    let inward = |i: usize, side: usize| match side {
        0 => i + cols,
        1 => i - cols,
        2 => i + 1,
        _ => i - 1,
    };
    on.into_iter()
        .filter(|&(g, lines)| {
            (0..4).any(|side| {
                lines[side]
                    && !boarded[side]
                    && groups[&g]
                        .iter()
                        .all(|&i| group_of.get(&inward(i, side)).is_some_and(|&h| h != g))
            })
        })
        .map(|(g, _)| g)
        .collect()
}
