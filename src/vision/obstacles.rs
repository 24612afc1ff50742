//! Obstacles: which groups of alike pictures are not tiles. Every tile of a game is drawn on
//! one body (the face around the symbol, the frame of border, bevel and 3-D side); stones,
//! crates and locks are drawn without it. Both readers ask this stage about the groups they
//! found.

use super::cells::{self, CellFeatures};
use super::config::ReaderConfig;
use super::pictures::Picture;
use super::pixels::{self, colour_dist};

/// Cells whose frames give the common profile: its per-strip median is stable with this many.
const FRAME_SAMPLE: usize = 32;

/// A cell's frame profile ([`cells::frame_profile`]).
pub(crate) type Frame = [[f32; 3]; 4 * cells::FRAME_STRIPS];

/// Which groups show the frame the board's cells share, when they share one (three in four
/// cells show the common profile, the per-strip median of a sample, within [`ReaderConfig::face_clean`]
/// on average; `None` when they do not), and the one group whose cells lack it when at
/// least two groups mostly show it and exactly one group's cells mostly do not.
///
/// The face-corner patches miss the dark theme's stones when the lattice sits a pixel or
/// two off the tiles (the patches land on the bevel highlight, the "face" mode becomes
/// the highlight, the stones' grey lies near it) or when the pitch is small (32 px: the 13 %
/// patches straddle the 2-px highlight). The frame is the whole band along each side, so
/// an offset the lattice has moves every tile's profile alike. Measured (mean distance to
/// the common profile) on the 200 rendered fixtures, true and found lattices: tiles 0–13.4
/// (13.4 only on a found lattice 3.5 px off), stones and crates 17.2–130 (25.3
/// and more on lattices within 3 px). Real boards whose pictures run to their tiles' edges
/// (QQ full boards, Brown Dust II, Ele.me) share no frame by this measure: 0–44 % of their
/// cells within 16 (Brown Dust II up to 51 %, with 42 stone rabbits alike), so the rule
/// stays out of them; only small late boards come to 61–78 % (QQ's last 14–22 tiles, a
/// board of 8 cells), where their obstacles already read as such, 50 and more off.
fn frameless_group(
    group: &[usize],
    frame_of: &dyn Fn(usize) -> Option<Frame>,
    cfg: &ReaderConfig,
) -> Option<FrameVerdict> {
    let n = group.len();
    if n < 8 {
        return None;
    }
    // The common profile from a sample spread over the board.
    let step = n.div_ceil(FRAME_SAMPLE);
    let sample: Vec<Frame> = (0..n).step_by(step).map(frame_of).collect::<Option<_>>()?;
    let mut common = [[0f32; 3]; 4 * cells::FRAME_STRIPS];
    let mut column = vec![0f32; sample.len()];
    for (k, c) in common.iter_mut().enumerate() {
        for ch in 0..3 {
            for (v, f) in column.iter_mut().zip(&sample) {
                *v = f[k][ch];
            }
            let mid = column.len() / 2;
            c[ch] = *column.select_nth_unstable_by(mid, |a, b| a.total_cmp(b)).1;
        }
    }
    let mean_dist = |f: &Frame| {
        f.iter()
            .zip(&common)
            .map(|(a, b)| colour_dist(*a, *b))
            .sum::<f32>()
            / common.len() as f32
    };
    let off = |f: &Frame| mean_dist(f) > cfg.face_clean;
    if sample.iter().filter(|f| off(f)).count() * 4 > sample.len() {
        return None;
    }
    // Each group by its first cell, and by all of them when that one lacks the frame.
    let ng = group.iter().max().map_or(0, |m| m + 1);
    let mut first = vec![usize::MAX; ng];
    for (k, &g) in group.iter().enumerate().rev() {
        first[g] = k;
    }
    let mut bare = Vec::new();
    let mut framed_types = 0;
    for (g, &k0) in first.iter().enumerate() {
        if k0 == usize::MAX {
            continue;
        }
        let f0 = frame_of(k0)?;
        if !off(&f0) {
            framed_types += 1;
            continue;
        }
        let (mut cells, mut lacking) = (0, 0);
        let mut apart = Vec::new();
        for (k, _) in group.iter().enumerate().filter(|&(_, &h)| h == g) {
            let f = if k == k0 { f0 } else { frame_of(k)? };
            cells += 1;
            lacking += (k == k0 || off(&f)) as usize;
            apart.push(mean_dist(&f));
        }
        if lacking * 2 > cells {
            bare.push((g, pixels::median(apart)));
        }
    }
    // A frame is what different pictures share: cells of one picture share everything.
    let frameless = (bare.len() == 1 && framed_types >= 2).then(|| bare[0].0);
    let framed = (0..ng)
        .map(|g| first[g] != usize::MAX && bare.iter().all(|b| b.0 != g))
        .collect();
    Some(FrameVerdict {
        frameless,
        framed,
        bare,
    })
}

/// What the frame the board's cells share says of its groups ([`frameless_group`]).
struct FrameVerdict {
    /// The one group that lacks it: the obstacles.
    frameless: Option<usize>,
    /// Per group: whether its cells mostly show it.
    framed: Vec<bool>,
    /// The groups whose cells mostly lack it, each with its cells' median distance from it.
    bare: Vec<(usize, f32)>,
}

/// What [`obstacle_groups`] finds of a board's groups.
#[derive(Debug, PartialEq)]
pub(crate) struct ObstacleVerdict {
    /// The groups that are obstacles rather than tiles.
    pub groups: Vec<usize>,
    /// Per cell: whether its face corners miss the face every tile shows.
    pub far: Vec<bool>,
    /// Whether the frame test and the face-corner test each name the one group found,
    /// alone: two looks at the body (the band along its sides, the patches in its
    /// corners) that a tile's picture can fool only one at a time.
    pub agreed: bool,
}

/// Groups that are obstacles rather than tiles. Every tile of a game shares a body (the face
/// around the symbol), seen in at least two face corners (a symbol reaches two at most) and
/// cleanly in one (see [`ReaderConfig::face_clean`]); the body is
/// the most common corner colour of all non-empty cells. A group whose cells show that body in
/// fewer corners is not a tile; if exactly one such group exists it is the obstacles (every crate
/// looks alike), while several such groups are tiles of a game with more than one face
/// colour.
pub(crate) fn obstacle_groups(
    cells: &[&CellFeatures],
    group: &[usize],
    frame_of: &dyn Fn(usize) -> Option<Frame>,
    cfg: &ReaderConfig,
) -> ObstacleVerdict {
    let verdict = |groups: Vec<usize>, far: Vec<bool>, agreed: bool| ObstacleVerdict {
        groups,
        far,
        agreed,
    };
    if cells.is_empty() {
        return verdict(Vec::new(), Vec::new(), false);
    }
    let frame = frameless_group(group, frame_of, cfg);
    // The face colour is the most common corner colour, within 20; at most 240 patches are
    // compared.
    let patches: Vec<[f32; 3]> = cells.iter().flat_map(|x| x.body.iter().copied()).collect();
    let stride = patches.len().div_ceil(240).max(1);
    let sample: Vec<[f32; 3]> = patches.iter().step_by(stride).copied().collect();
    let face = pixels::mode_colour(&sample, 20.0);
    let far = |x: &CellFeatures| {
        let d = x.body.map(|b| colour_dist(b, face));
        d.iter().filter(|&&d| d <= cfg.face_rough).count() < 2
            || d.iter().all(|&d| d > cfg.face_clean)
    };
    let ng = group.iter().max().map_or(0, |m| m + 1);
    let mut votes = vec![(0usize, 0usize); ng];
    for (i, x) in cells.iter().enumerate() {
        let v = &mut votes[group[i]];
        v.0 += 1;
        if far(x) {
            v.1 += 1;
        }
    }
    // A group that shows the frame the board's tiles share is tiles, though a symbol hides
    // its face corners: small dark tiles (28 x 32 px) whose triangle's base
    // covers both bottom corners and whose slope reaches a top one (30.4 off the face, the
    // bound 30).
    let framed = |g: usize| frame.as_ref().is_some_and(|f| f.framed[g]);
    let odd_ones: Vec<usize> = (0..ng)
        .filter(|&g| votes[g].1 * 2 > votes[g].0 && !framed(g))
        .collect();
    let far_cells = cells.iter().map(|x| far(x)).collect();
    if let Some(g) = frame.as_ref().and_then(|f| f.frameless) {
        let agreed = odd_ones == [g];
        return verdict(vec![g], far_cells, agreed);
    }
    if odd_ones.len() == 1 {
        // Where the board's cells share a frame and other groups that show their face
        // lack it too (pictures that run into the band along a small tile's sides), a
        // group whose frame lies no farther off than theirs is a tile whose picture also
        // fills its corners ([`ReaderConfig::covered_face_frame_ratio`]).
        let g = odd_ones[0];
        let spared = frame.as_ref().is_some_and(|f| {
            let own = f.bare.iter().find(|b| b.0 == g).map(|b| b.1);
            let others = f
                .bare
                .iter()
                .filter(|b| b.0 != g)
                .map(|b| b.1)
                .fold(f32::NEG_INFINITY, f32::max);
            own.is_some_and(|d| d <= others * cfg.covered_face_frame_ratio)
        });
        if spared {
            return verdict(Vec::new(), far_cells, false);
        }
        return verdict(odd_ones, far_cells, false);
    }
    // Several faceless groups: Ele.me's food fills its tiles to three corners (every tile
    // within 6 of the face in one corner, no more), but no tile hides its face in
    // all four, and its crates show it in none (60 and more off): a single group that shows
    // it nowhere is the obstacles.
    let mut bare = vec![(0usize, 0usize); ng];
    for (i, x) in cells.iter().enumerate() {
        let v = &mut bare[group[i]];
        v.0 += 1;
        if x.body
            .iter()
            .all(|&b| colour_dist(b, face) > cfg.face_rough)
        {
            v.1 += 1;
        }
    }
    let bare_ones: Vec<usize> = (0..ng).filter(|&g| bare[g].1 * 2 > bare[g].0).collect();
    if odd_ones.len() > 1 && bare_ones.len() == 1 {
        verdict(bare_ones, far_cells, false)
    } else {
        verdict(Vec::new(), far_cells, false)
    }
}

/// Face colours sampled to find the face every tile shows: its mode is stable with this many
/// (and the mode costs the square of it).
const FACE_SAMPLE: usize = 480;

/// Per picture, the share of its inner blocks that show the face: the most common block
/// colour over all `pics`, within `tol`. A tile shows its face between the strokes of its
/// symbol; a stone or a crate is drawn without it.
pub(crate) fn face_shares(pics: &[&Picture], tol: f32) -> Vec<f32> {
    let blocks = |p: &Picture| -> Vec<[f32; 3]> {
        p.blocks
            .chunks_exact(3)
            .map(|c| [c[0], c[1], c[2]])
            .collect()
    };
    let all: Vec<[f32; 3]> = pics.iter().flat_map(|p| blocks(p)).collect();
    let stride = all.len().div_ceil(FACE_SAMPLE).max(1);
    let sample: Vec<[f32; 3]> = all.iter().step_by(stride).copied().collect();
    let face = pixels::mode_colour(&sample, 20.0);
    pics.iter()
        .map(|p| {
            let b = blocks(p);
            let near = b.iter().filter(|&&c| colour_dist(c, face) <= tol).count();
            near as f32 / b.len().max(1) as f32
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Twelve groups of two on a board whose cells share a frame: groups `bare` lack it
    /// (their frames this far off the shared one), and group 11 also hides the face in its
    /// corners.
    fn twelve_groups(bare: &[(usize, f32)]) -> ObstacleVerdict {
        let face = [230.0, 225.0, 210.0];
        let tile = CellFeatures::with_body([face, face, [40.0, 120.0, 60.0], face]);
        let covered = CellFeatures::with_body([
            [40.0, 120.0, 60.0],
            [200.0, 60.0, 40.0],
            [200.0, 60.0, 40.0],
            [40.0, 120.0, 60.0],
        ]);
        let group: Vec<usize> = (0..24).map(|k| k / 2).collect();
        let cells: Vec<&CellFeatures> = group
            .iter()
            .map(|&g| if g == 11 { &covered } else { &tile })
            .collect();
        let shared: Frame = [[120.0, 110.0, 90.0]; 4 * cells::FRAME_STRIPS];
        let frame_of = |k: usize| {
            Some(match bare.iter().find(|b| b.0 == group[k]) {
                Some(&(_, d)) => [[120.0 + d, 110.0 + d, 90.0 + d]; 4 * cells::FRAME_STRIPS],
                None => shared,
            })
        };
        obstacle_groups(&cells, &group, &frame_of, &ReaderConfig::default())
    }

    #[test]
    fn a_picture_that_fills_its_corners_is_no_obstacle_where_other_tiles_lack_the_frame_too() {
        // Two groups lack the frame, one of them shows its face in its corners: pictures
        // running into the band along the sides, so the other one is a tile as well.
        assert_eq!(
            twelve_groups(&[(10, 25.0), (11, 26.0)]).groups,
            Vec::<usize>::new()
        );
        // Far barer than the other: a stone's body, not a picture in the band.
        assert_eq!(twelve_groups(&[(10, 18.0), (11, 27.0)]).groups, vec![11]);
        // The corner-covering group alone lacks the frame: both tests name it.
        let v = twelve_groups(&[(11, 26.0)]);
        assert_eq!(v.groups, vec![11]);
        assert!(v.agreed);
        // No frame shared (most cells lack the common one): the corners alone name it.
        let many = [(0, 25.0), (1, 25.0), (2, 25.0), (11, 25.0)];
        assert_eq!(twelve_groups(&many).groups, vec![11]);
    }

    /// The dark theme's case: grey stones come within 24–30 of the grey-blue face in two
    /// corners (the rough test alone passes them as tiles) but nowhere within 16, while a
    /// tile with its symbol in two corners and a third corner on its rounded edge still shows
    /// the face cleanly in one.
    #[test]
    fn stones_near_the_face_colour_are_obstacles() {
        let face = [76.0, 82.0, 95.0];
        let off = |d: f32| [face[0] + d, face[1] + d, face[2] + d];
        let tile = CellFeatures::with_body([face, off(4.0), off(120.0), off(-70.0)]);
        let edge_tile = CellFeatures::with_body([off(60.0), off(3.0), off(-20.0), off(120.0)]);
        let stone = CellFeatures::with_body([off(62.0), off(29.0), off(-23.5), off(95.0)]);
        let cells = [&tile, &tile, &edge_tile, &edge_tile, &stone, &stone];
        let v = obstacle_groups(
            &cells,
            &[0, 0, 1, 1, 2, 2],
            &|_| None,
            &ReaderConfig::default(),
        );
        assert_eq!(v.far, vec![false, false, false, false, true, true]);
        assert_eq!(v.groups, vec![2]);
        // No frame to look at: the corners alone speak.
        assert!(!v.agreed);
    }
}
