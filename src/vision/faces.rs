//! Stage 3, obstacles by the face tiles share: every tile of a game is drawn on one body
//! (a face of one colour around the symbol), and a symbol leaves that face showing in at
//! least two of the face's corners. Obstacles (crates, stones, locks) are drawn without it.
//! A group of identical pictures that comes in a pair is not thereby a tile type: if exactly
//! one group lacks the face the other groups share, it is the obstacles.

use super::config::ReaderConfig;
use super::pictures::Picture;
use super::pixels::{colour_dist, mode_colour};

/// Most corner colours sampled to find the common face colour.
const FACE_SAMPLE: usize = 240;

/// The four corner blocks (RGB) of a picture's inner part.
pub fn corners(p: &Picture, blocks: usize) -> Option<[[f32; 3]; 4]> {
    let b = blocks;
    let at = |r: usize, c: usize| -> Option<[f32; 3]> {
        let i = (r * b + c) * 3;
        let v = p.blocks.get(i..i + 3)?;
        Some([v[0], v[1], v[2]])
    };
    Some([at(0, 0)?, at(0, b - 1)?, at(b - 1, 0)?, at(b - 1, b - 1)?])
}

/// The group among `groups` (each a list of its cells' pictures) that lacks the face the
/// others share, if exactly one does and at least `cfg.face_min_types` groups, and most
/// cells, show it.
///
/// The face is, per corner, the commonest colour of that corner over all cells. A cell
/// lacks it when fewer than two of its corners lie within `cfg.face_clean` of the face's;
/// a group lacks it when most of its cells do. When several groups lack it there is no
/// verdict: a tile set can draw ornaments into some types' corners (one mahjong set
/// measured leaves five of its types without the face the others share).
///
/// ```
/// use llk::vision::faces::faceless_group;
/// use llk::vision::pictures::Picture;
/// use llk::vision::ReaderConfig;
///
/// let cfg = ReaderConfig { blocks: 2, ..ReaderConfig::default() };
/// // A 2×2-block picture: its four blocks are its four corners.
/// let pic = |c: [f32; 3]| Picture {
///     blocks: c.iter().copied().cycle().take(12).collect(),
///     mean: c,
///     spread: 0.0,
///     frame: Vec::new(),
/// };
/// let cream = pic([240.0, 230.0, 200.0]);
/// let wood = pic([150.0, 100.0, 50.0]);
/// let groups = vec![
///     vec![&cream, &cream],
///     vec![&cream, &cream],
///     vec![&wood, &wood],
/// ];
/// assert_eq!(faceless_group(&groups, &cfg), Some(2));
/// ```
pub fn faceless_group(groups: &[Vec<&Picture>], cfg: &ReaderConfig) -> Option<usize> {
    let corners_of: Vec<Vec<[[f32; 3]; 4]>> = groups
        .iter()
        .map(|g| g.iter().filter_map(|p| corners(p, cfg.blocks)).collect())
        .collect();
    // The face per corner: a bevel or a light from one side shades each corner of a
    // tile's body its own way, the same way on every tile.
    let all: Vec<&[[f32; 3]; 4]> = corners_of.iter().flatten().collect();
    if all.is_empty() {
        return None;
    }
    let stride = all.len().div_ceil(FACE_SAMPLE).max(1);
    let face: [[f32; 3]; 4] = std::array::from_fn(|k| {
        let sample: Vec<[f32; 3]> = all.iter().step_by(stride).map(|c| c[k]).collect();
        mode_colour(&sample, cfg.face_tol)
    });
    let off =
        |c: &[[f32; 3]; 4]| -> [f32; 4] { std::array::from_fn(|k| colour_dist(c[k], face[k])) };
    let lacks = |c: &[[f32; 3]; 4]| off(c).iter().filter(|&&d| d <= cfg.face_clean).count() < 2;
    let most = |g: &[[[f32; 3]; 4]], f: &dyn Fn(&[[f32; 3]; 4]) -> bool| {
        !g.is_empty() && g.iter().filter(|c| f(c)).count() * 2 > g.len()
    };
    let faceless: Vec<usize> = (0..groups.len())
        .filter(|&g| most(&corners_of[g], &lacks))
        .collect();
    // The face is the tiles' only when most cells show it: pictures that fill their cells
    // (no common face) leave most cells without it.
    let cells = all.len();
    let lacking = corners_of.iter().flatten().filter(|c| lacks(c)).count();
    let with_face = groups.len() - faceless.len();
    if with_face < cfg.face_min_types || lacking * 2 >= cells {
        return None;
    }
    match faceless[..] {
        [g] => Some(g),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg() -> ReaderConfig {
        ReaderConfig {
            blocks: 3,
            ..ReaderConfig::default()
        }
    }

    /// A 3×3-block picture: `face` in the corners named by `show` (top-left, top-right,
    /// bottom-left, bottom-right), `ink` everywhere else.
    fn pic(face: [f32; 3], ink: [f32; 3], show: [bool; 4]) -> Picture {
        let mut blocks = Vec::new();
        for r in 0..3 {
            for c in 0..3 {
                let k = match (r, c) {
                    (0, 0) => Some(0),
                    (0, 2) => Some(1),
                    (2, 0) => Some(2),
                    (2, 2) => Some(3),
                    _ => None,
                };
                let v = if k.is_some_and(|k| show[k]) {
                    face
                } else {
                    ink
                };
                blocks.extend(v);
            }
        }
        Picture {
            blocks,
            mean: ink,
            spread: 0.0,
            frame: Vec::new(),
        }
    }

    const CREAM: [f32; 3] = [240.0, 232.0, 200.0];
    const RED: [f32; 3] = [200.0, 30.0, 30.0];
    const BLUE: [f32; 3] = [30.0, 40.0, 200.0];
    const GREY: [f32; 3] = [110.0, 110.0, 115.0];

    #[test]
    fn the_one_group_without_the_face_is_the_obstacles() {
        let a = pic(CREAM, RED, [true; 4]);
        let b = pic(CREAM, BLUE, [true, true, false, true]);
        let stone = pic(GREY, GREY, [true; 4]);
        let groups = vec![vec![&a, &a], vec![&b, &b], vec![&stone, &stone]];
        assert_eq!(faceless_group(&groups, &cfg()), Some(2));
    }

    /// A symbol reaching two corners still leaves the face in the other two.
    #[test]
    fn a_symbol_over_two_corners_is_still_a_tile() {
        let a = pic(CREAM, RED, [true; 4]);
        let b = pic(CREAM, BLUE, [false, true, false, true]);
        let c = pic(CREAM, GREY, [true; 4]);
        let groups = vec![vec![&a, &a], vec![&b, &b], vec![&c, &c]];
        assert_eq!(faceless_group(&groups, &cfg()), None);
    }

    /// Too few types show a face to call it the tiles' face.
    #[test]
    fn no_verdict_without_enough_faced_types() {
        let a = pic(CREAM, RED, [true; 4]);
        let stone = pic(GREY, GREY, [true; 4]);
        let groups = vec![vec![&a, &a], vec![&stone, &stone]];
        assert_eq!(faceless_group(&groups, &cfg()), None);
    }

    /// Several groups without the face: ornaments in some types' corners, or a game with
    /// more than one face colour; no verdict.
    #[test]
    fn several_bare_groups_are_left_as_tiles() {
        let a = pic(CREAM, RED, [true; 4]);
        let b = pic(CREAM, BLUE, [true; 4]);
        let g1 = pic(GREY, GREY, [true; 4]);
        let g2 = pic(BLUE, BLUE, [true; 4]);
        let groups = vec![vec![&a, &a], vec![&b, &b], vec![&g1, &g1], vec![&g2, &g2]];
        assert_eq!(faceless_group(&groups, &cfg()), None);
    }
}
