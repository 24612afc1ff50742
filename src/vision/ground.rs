//! Whether a cell shows the ground, judged against cells a reading already holds for ground.
//!
//! An obstacle or a tile is drawn over the ground and stands apart from it; a cell of
//! ground lies as near the other ground cells as they lie to one another. Tiles drawn with
//! a 3-D side and a drop shadow lay a band of both over the cell beside them, so a cell next
//! to a tile is also compared with the band on that side left out (of itself and of the
//! reference cells alike).

use super::config::ReaderConfig;
use super::pictures::{describe, distance, nearest_distances, Picture};
use super::pixels::Integral;

/// The four sides of a cell as (row, column) steps: up, down, left, right.
pub(crate) const SIDES: [(i64, i64); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];

/// The rectangle (x, y, w, h) without a band of `share` of its size on side `side` (an
/// index into [`SIDES`]).
fn without_band(rect: (f32, f32, f32, f32), side: usize, share: f32) -> (f32, f32, f32, f32) {
    let (x, y, w, h) = rect;
    let (bw, bh) = (w * share, h * share);
    match SIDES[side] {
        (-1, 0) => (x, y + bh, w, h - bh),
        (1, 0) => (x, y, w, h - bh),
        (0, -1) => (x + bw, y, w - bw, h),
        _ => (x, y, w - bw, h),
    }
}

/// The picture of cell rectangle `rect`, whole (`side` `None`) or without the band of
/// [`ReaderConfig::overhang_share`] on side `Some(i)` of [`SIDES`].
pub(crate) fn describe_beside(
    integral: &Integral,
    rect: (f32, f32, f32, f32),
    side: Option<usize>,
    cfg: &ReaderConfig,
) -> Option<Picture> {
    let rect = side.map_or(rect, |s| without_band(rect, s, cfg.overhang_share));
    describe(integral, rect, cfg)
}

/// The ground's pictures, and how far from the nearest of them a ground cell may lie.
type Model = (Vec<Picture>, f32);

/// The ground test over reference cells `empties` (lattice (row, column) positions).
/// `picture(cell, side)` describes a cell whole (`None`) or without the band on side
/// `Some(i)` of [`SIDES`] ([`ReaderConfig::overhang_share`] deep), or gives `None` where the
/// cell cannot be described (off the frame). Models are built on first use: whole cells,
/// then each side's band left out.
pub(crate) struct GroundTest<'a, F> {
    picture: F,
    empties: &'a [(i64, i64)],
    models: [Option<Option<Model>>; 5],
    cfg: &'a ReaderConfig,
}

impl<'a, F> GroundTest<'a, F>
where
    F: Fn((i64, i64), Option<usize>) -> Option<Picture>,
{
    pub(crate) fn new(picture: F, empties: &'a [(i64, i64)], cfg: &'a ReaderConfig) -> Self {
        GroundTest {
            picture,
            empties,
            models: Default::default(),
            cfg,
        }
    }

    /// The reference pictures on one view (whole or a side's band left out) and how far a
    /// ground cell may lie from them: [`ReaderConfig::ground_apart_ratio`] times the 90th
    /// percentile of the references' nearest-neighbour distances, never under
    /// [`ReaderConfig::same_floor`] (photo and textured grounds differ from cell to cell).
    /// `None` with fewer than four references.
    fn model(&self, side: Option<usize>) -> Option<Model> {
        let refs: Vec<Picture> = self
            .empties
            .iter()
            .filter_map(|&e| (self.picture)(e, side))
            .collect();
        if refs.len() < 4 {
            return None;
        }
        let view: Vec<&Picture> = refs.iter().collect();
        let all: Vec<usize> = (0..view.len()).collect();
        let mut apart = nearest_distances(&view, &all);
        apart.sort_by(f32::total_cmp);
        let spread = apart[(apart.len() - 1) * 9 / 10];
        let limit = (self.cfg.ground_apart_ratio * spread).max(self.cfg.same_floor);
        Some((refs, limit))
    }

    fn like(&mut self, cell: (i64, i64), side: Option<usize>) -> bool {
        let slot = side.unwrap_or(4);
        if self.models[slot].is_none() {
            self.models[slot] = Some(self.model(side));
        }
        let Some(Some((pics, limit))) = &self.models[slot] else {
            return false;
        };
        let Some(p) = (self.picture)(cell, side) else {
            return false;
        };
        let d = pics
            .iter()
            .map(|q| distance(&p, q))
            .fold(f32::INFINITY, f32::min);
        d <= *limit
    }

    /// Whether there are enough reference cells to judge a cell whole.
    pub(crate) fn judges(&mut self) -> bool {
        if self.models[4].is_none() {
            self.models[4] = Some(self.model(None));
        }
        matches!(self.models[4], Some(Some(_)))
    }

    /// Whether `cell` shows the ground: whole, or without the band on a side where
    /// `tile_beside` says a tile lies (its 3-D side and shadow fall on this cell).
    pub(crate) fn shows_ground(&mut self, cell: (i64, i64), tile_beside: [bool; 4]) -> bool {
        self.like(cell, None)
            || (0..SIDES.len()).any(|i| tile_beside[i] && self.like(cell, Some(i)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flat(v: f32, noise: f32) -> Picture {
        let blocks: Vec<f32> = (0..48)
            .map(|i| v + noise * ((i * 7 % 5) as f32 - 2.0))
            .collect();
        Picture {
            mean: [v; 3],
            spread: noise,
            frame: vec![v; 8],
            blocks,
        }
    }

    #[test]
    fn a_band_is_cut_from_the_named_side() {
        let r = (10.0, 20.0, 40.0, 50.0);
        assert_eq!(without_band(r, 0, 0.4), (10.0, 40.0, 40.0, 30.0));
        assert_eq!(without_band(r, 1, 0.4), (10.0, 20.0, 40.0, 30.0));
        assert_eq!(without_band(r, 2, 0.4), (26.0, 20.0, 24.0, 50.0));
        assert_eq!(without_band(r, 3, 0.4), (10.0, 20.0, 24.0, 50.0));
    }

    #[test]
    fn a_cell_is_ground_whole_or_without_the_band_beside_a_tile() {
        let cfg = ReaderConfig::default();
        let empties: Vec<(i64, i64)> = (0..6).map(|c| (0, c)).collect();
        // Row 0 is ground (value 100 with a little texture); (1, 0) is ground with a
        // neighbour's dark side over its left band; (1, 1) is an obstacle.
        let picture = |cell: (i64, i64), side: Option<usize>| -> Option<Picture> {
            Some(match (cell, side) {
                ((0, c), _) => flat(100.0 + c as f32 * 0.2, 1.0),
                ((1, 0), Some(2)) => flat(100.5, 1.0),
                ((1, 0), _) => flat(70.0, 12.0),
                _ => flat(30.0, 20.0),
            })
        };
        let mut test = GroundTest::new(picture, &empties, &cfg);
        assert!(test.shows_ground((0, 3), [false; 4]));
        assert!(
            !test.shows_ground((1, 0), [false; 4]),
            "its band is not left out"
        );
        assert!(
            !test.shows_ground((1, 0), [false, false, false, true]),
            "the tile lies on the other side"
        );
        assert!(test.shows_ground((1, 0), [false, false, true, false]));
        assert!(!test.shows_ground((1, 1), [true; 4]));
    }

    #[test]
    fn too_few_references_show_no_ground() {
        let cfg = ReaderConfig::default();
        let empties = [(0, 0), (0, 1), (0, 2)];
        let mut test = GroundTest::new(|_, _| Some(flat(100.0, 1.0)), &empties, &cfg);
        assert!(!test.shows_ground((5, 5), [true; 4]));
    }
}
