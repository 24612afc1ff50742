//! Selections drawn as a stipple over a tile (a dotted veil that hides its face): the
//! stippled cells are found by their texture, read through the stipple, and paired with the
//! type their face still shows.

use super::look::Seen;
use crate::vision::config::ReaderConfig;
use crate::vision::pictures::Picture;
use crate::vision::stipple;
use image::RgbaImage;

/// Cells inside the board read as ground or as lone pictures that a stipple covers
/// ([`stipple::stipple_in`]: a selection drawn through a checkerboard) take the type whose
/// tiles' pixels match the pixels the stipple leaves, within
/// [`ReaderConfig::different_ceiling`] and [`ReaderConfig::stipple_join_ratio`] times
/// nearer than any other type's; else one that is of the last two of its type pairs with
/// the other ([`pair_stippled`]). A stippled cell that joins nothing is a lone picture,
/// never ground: a stipple is drawn over a tile. Returns the cells that joined a type and
/// the stippled pairs that paired as pictures do: selected tiles.
pub(super) fn read_stipples(
    frame: &RgbaImage,
    pics: &[Option<Picture>],
    cols: usize,
    rect: &impl Fn(usize, usize) -> (f32, f32, f32, f32),
    seen: &mut [Seen],
    inside: impl Fn(usize) -> bool,
    cfg: &ReaderConfig,
) -> Vec<usize> {
    let at = |i: usize| rect(i / cols, i % cols);
    // A stipple halves a face's contrast at most: a flat cell holds no stippled picture.
    let stipple_at = |i: usize| {
        pics[i]
            .as_ref()
            .filter(|p| p.spread > cfg.flat_spread)
            .and_then(|_| stipple::stipple_in(frame, at(i), cfg))
    };
    let mut groups = std::collections::BTreeMap::<usize, Vec<usize>>::new();
    for i in (0..seen.len()).filter(|&i| inside(i)) {
        if let Seen::Paired(g) = seen[i] {
            groups.entry(g).or_default().push(i);
        }
    }
    // The last two of a type both stippled match each other pixel for pixel and pair as
    // pictures do: both selected.
    let both_selected: Vec<usize> = groups
        .values()
        .filter(|m| m.len() == 2 && m.iter().all(|&i| stipple_at(i).is_some()))
        .flatten()
        .copied()
        .collect();
    let found: Vec<(usize, stipple::Stipple)> = (0..seen.len())
        .filter(|&i| inside(i) && matches!(seen[i], Seen::Ground | Seen::Lone))
        .filter_map(|i| stipple_at(i).map(|s| (i, s)))
        .collect();
    if found.is_empty() {
        return both_selected;
    }
    // Each type's tiles' pixels on either parity, taken once for all the stippled cells.
    let members: Vec<(usize, Vec<Vec<Vec<f32>>>)> = groups
        .iter()
        .map(|(&g, m)| {
            let parities = m
                .iter()
                .map(|&i| stipple::both_parities(frame, at(i), cfg))
                .collect();
            (g, parities)
        })
        .collect();
    let mut joined = both_selected;
    // Stippled cells that joined no type: each with its kept pixels and the distance to the
    // nearest type.
    let mut left: Vec<(usize, Vec<f32>, f32)> = Vec::new();
    for (i, st) in found {
        let Some(kept) = stipple::parity_blocks(frame, at(i), 1 - st.covered, cfg) else {
            continue;
        };
        let mut ranked: Vec<(f32, usize)> = members
            .iter()
            .map(|&(g, ref m)| {
                let d = m
                    .iter()
                    .map(|parities| stipple::kept_distance(&kept, parities))
                    .fold(f32::INFINITY, f32::min);
                (d, g)
            })
            .collect();
        ranked.sort_by(|a, b| a.0.total_cmp(&b.0));
        let nearest = ranked.first().map_or(f32::INFINITY, |r| r.0);
        match ranked[..] {
            [(d1, g), (d2, _), ..]
                if d1 <= cfg.different_ceiling && d1 * cfg.stipple_join_ratio < d2 =>
            {
                seen[i] = Seen::Paired(g);
                joined.push(i);
            }
            _ => left.push((i, kept, nearest)),
        }
    }
    joined.extend(pair_stippled(frame, &left, &at, seen, &inside, cfg));
    // A stipple is drawn over a tile: a stippled cell that joined no type is a picture the
    // reading cannot place, never bare ground.
    for (i, _, _) in &left {
        if seen[*i] == Seen::Ground {
            seen[*i] = Seen::Lone;
        }
    }
    joined
}

/// The stippled cells of `left` (cell, kept pixels, distance to the nearest type) that
/// are one of the last two of their type: the other is a lone picture inside the board,
/// stippled too (both selected) or plain. The two must be mutual nearest by the stippled
/// cell's kept pixels ([`stipple::kept_distance`]), within
/// [`ReaderConfig::different_ceiling`] and [`ReaderConfig::stipple_join_ratio`] times
/// nearer each other than the stippled cells are to any type. Each such pair becomes a
/// type of its own; returns its stippled cells (selected tiles).
pub(super) fn pair_stippled(
    frame: &RgbaImage,
    left: &[(usize, Vec<f32>, f32)],
    at: &impl Fn(usize) -> (f32, f32, f32, f32),
    seen: &mut [Seen],
    inside: impl Fn(usize) -> bool,
    cfg: &ReaderConfig,
) -> Vec<usize> {
    // Candidates: the stippled cells (first, as in `left`), then the plain lone pictures.
    let n = left.len();
    let cands: Vec<usize> = left
        .iter()
        .map(|l| l.0)
        .chain(
            (0..seen.len())
                .filter(|&i| inside(i) && seen[i] == Seen::Lone && !left.iter().any(|l| l.0 == i)),
        )
        .collect();
    let parities: Vec<Vec<Vec<f32>>> = cands
        .iter()
        .map(|&i| stipple::both_parities(frame, at(i), cfg))
        .collect();
    let dist = |a: usize, k: usize| stipple::kept_distance(&left[a].1, &parities[k]);
    let min = |it: &mut dyn Iterator<Item = (f32, usize)>| it.min_by(|x, y| x.0.total_cmp(&y.0));
    // The candidate nearest stippled cell `a`, and the stippled cell nearest candidate `k`.
    let nearest = |a: usize| {
        min(&mut (0..cands.len())
            .filter(|&k| k != a)
            .map(|k| (dist(a, k), k)))
    };
    let nearest_stippled = |k: usize| min(&mut (0..n).filter(|&a| a != k).map(|a| (dist(a, k), a)));
    let mut next = seen
        .iter()
        .filter_map(|s| match s {
            Seen::Paired(g) => Some(g + 1),
            _ => None,
        })
        .max()
        .unwrap_or(0);
    let mut paired = Vec::new();
    let mut taken = vec![false; cands.len()];
    for a in 0..n {
        let Some((d, k)) = nearest(a) else {
            continue;
        };
        let both_stippled = k < n;
        let mutual = if both_stippled {
            nearest(k).is_some_and(|(_, back)| back == a)
        } else {
            nearest_stippled(k).is_some_and(|(_, back)| back == a)
        };
        let nearest_type = if both_stippled {
            left[a].2.min(left[k].2)
        } else {
            left[a].2
        };
        if taken[a] || taken[k] || !mutual || d > cfg.different_ceiling {
            continue;
        }
        if d * cfg.stipple_join_ratio >= nearest_type {
            continue;
        }
        seen[cands[a]] = Seen::Paired(next);
        seen[cands[k]] = Seen::Paired(next);
        taken[a] = true;
        taken[k] = true;
        paired.push(cands[a]);
        if both_stippled {
            paired.push(cands[k]);
        }
        next += 1;
    }
    paired
}
