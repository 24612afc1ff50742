//! The seam between neighbouring cells of a sheet: how far the colours along their shared
//! edge lie apart, where the ground running on from one cell into the next shows none.

use crate::vision::config::ReaderConfig;
use crate::vision::ground::SIDES;
use crate::vision::pictures::{frame_side, Picture};
use crate::vision::pixels::colour_dist;

/// The colour gap across the shared edge of pictures `p` and `q` (`p_side` of `p`,
/// `q_side` of `q`, indices into [`SIDES`]): the mean [`colour_dist`] between the two
/// rows of edge blocks, without the blocks within [`ReaderConfig::overhang_share`] of an
/// end where `tile_beside` says a tile stands on that side of `p` (its 3-D side and shadow
/// fall there). `None` when no block is left to compare.
pub(super) fn edge_seam(
    p: &Picture,
    q: &Picture,
    (p_side, q_side): (usize, usize),
    tile_beside: [bool; 4],
    cfg: &ReaderConfig,
) -> Option<f32> {
    let b = cfg.blocks.max(1);
    let (a, c) = (frame_side(p, b, p_side), frame_side(q, b, q_side));
    if a.is_empty() || a.len() != c.len() {
        return None;
    }
    // The edge's blocks run left to right (top, bottom) or top to bottom (left, right):
    // the sides at its first and last ends.
    let (first_end, last_end) = if p_side < 2 { (2, 3) } else { (0, 1) };
    let band = (cfg.overhang_share * a.len() as f32).ceil() as usize;
    let from = if tile_beside[first_end] { band } else { 0 };
    let to = a.len() - if tile_beside[last_end] { band } else { 0 };
    if from >= to {
        return None;
    }
    Some(
        a[from..to]
            .iter()
            .zip(&c[from..to])
            .map(|(x, y)| colour_dist(*x, *y))
            .sum::<f32>()
            / (to - from) as f32,
    )
}

/// The least colour gap ([`edge_seam`]) between cell `i` of a sheet (`rows` x `cols`,
/// `pics`, `ground` and `tile` in sheet order) and a neighbour read as `ground`, the bands
/// along its sides where a neighbour is a `tile` left out; `None` when no ground
/// neighbour's edge measures.
pub(super) fn seam_to_ground(
    i: usize,
    pics: &[Option<Picture>],
    (rows, cols): (usize, usize),
    (ground, tile): (&[bool], &[bool]),
    cfg: &ReaderConfig,
) -> Option<f32> {
    let p = pics[i].as_ref()?;
    let (r, c) = ((i / cols) as i64, (i % cols) as i64);
    let at = |dy: i64, dx: i64| {
        let (y, x) = (r + dy, c + dx);
        (y >= 0 && x >= 0 && y < rows as i64 && x < cols as i64)
            .then(|| y as usize * cols + x as usize)
    };
    let tile_beside = SIDES.map(|(dy, dx)| at(dy, dx).is_some_and(|j| tile[j]));
    SIDES
        .iter()
        .enumerate()
        .filter_map(|(side, &(dy, dx))| {
            let j = at(dy, dx).filter(|&j| ground[j])?;
            edge_seam(p, pics[j].as_ref()?, (side, side ^ 1), tile_beside, cfg)
        })
        .min_by(f32::total_cmp)
}
