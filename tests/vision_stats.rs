//! Separation of tile types by descriptor distance on rendered fixtures (a tuning aid,
//! run with `LLK_STATS=1`).
use llk::board::Cell;
use llk::render::fixtures::{fixture_case, fixture_spec};
use llk::vision::cells::{cell_dist, features, integral_for};

#[test]
fn type_separation() {
    if std::env::var("LLK_STATS").is_err() {
        return;
    }
    let mut worst_same = 0f32;
    let mut best_diff = f32::MAX;
    for i in 0..60u64 {
        let (img, g, truth) = fixture_case(i);
        let integral = integral_for(&img, &g);
        let cells: Vec<_> = truth
            .tiles()
            .map(|(p, t)| {
                (
                    p,
                    t,
                    features(&integral, &g, p.row as i32, p.col as i32, img.dimensions()).unwrap(),
                )
            })
            .collect();
        let (mut ws, mut bd) = (0f32, f32::MAX);
        for a in &cells {
            for b in &cells {
                if a.0 == b.0 {
                    continue;
                }
                let d = cell_dist(&a.2, &b.2, 1000.0);
                if a.1 == b.1 {
                    ws = ws.max(d);
                } else {
                    bd = bd.min(d);
                }
            }
        }
        let empty_spread = truth
            .positions()
            .filter(|&p| truth.get(p) == Cell::Empty)
            .map(|p| {
                features(&integral, &g, p.row as i32, p.col as i32, img.dimensions())
                    .unwrap()
                    .spread
            })
            .fold(0f32, f32::max);
        let tile_spread = cells.iter().map(|c| c.2.spread).fold(f32::MAX, f32::min);
        println!("{:48} same ≤ {ws:5.1}  diff ≥ {bd:5.1}  empty spread ≤ {empty_spread:5.1} tile spread ≥ {tile_spread:5.1}", fixture_spec(i).name);
        worst_same = worst_same.max(ws);
        best_diff = best_diff.min(bd);
    }
    println!("overall same ≤ {worst_same} diff ≥ {best_diff}");
}
