use llk::render::{Background, RenderSpec, Renderer, Theme};
use rand::SeedableRng;
#[test]
fn scratch() {
    if std::env::var_os("LLK_SCRATCH").is_none() {
        return;
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let board = llk::render::fixtures::random_board(11, 19, 30, 1.0, 0, &mut rng);
    let spec = RenderSpec {
        theme: Theme::Classic,
        background: Background::Plain,
        canvas: Some((1920, 1080)),
        origin: Some((500, 300)),
        ..RenderSpec::default()
    };
    let f = Renderer::new(&spec, 11, 19).draw(&board, &[], &[]);
    println!("truth {:?}", f.grid);
    println!(
        "found {:?}",
        llk::vision::grid::find_grid(&f.image, &Default::default())
    );
    f.image.save("/tmp/vis/bench.png").unwrap();
}

#[test]
fn timing() {
    if std::env::var_os("LLK_SCRATCH").is_none() {
        return;
    }
    use llk::vision::cells::{features, integral_for};
    use std::time::Instant;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let board = llk::render::fixtures::random_board(11, 19, 30, 1.0, 0, &mut rng);
    let spec = RenderSpec {
        theme: Theme::Classic,
        background: Background::Plain,
        canvas: Some((1920, 1080)),
        origin: Some((500, 300)),
        ..RenderSpec::default()
    };
    let f = Renderer::new(&spec, 11, 19).draw(&board, &[], &[]);
    let g = f.grid;
    for _ in 0..3 {
        let t = Instant::now();
        let _ = llk::vision::animation::find_link_line(&f.image, &g);
        let a = t.elapsed();
        let t = Instant::now();
        let integral = integral_for(&f.image, &g);
        let b = t.elapsed();
        let t = Instant::now();
        let feats: Vec<_> = board
            .positions()
            .map(|p| {
                features(
                    &integral,
                    &g,
                    p.row as i32,
                    p.col as i32,
                    f.image.dimensions(),
                )
                .unwrap()
            })
            .collect();
        let c = t.elapsed();
        let t = Instant::now();
        let refs: Vec<_> = feats.iter().collect();
        let _ = llk::vision::types::group(&refs, 7.0, &|_| None);
        let d = t.elapsed();
        let t = Instant::now();
        let _ = llk::vision::grid::find_grid(&f.image, &Default::default());
        let e = t.elapsed();
        println!("anim {a:?} integral {b:?} features {c:?} group {d:?} find_grid {e:?}");
    }
}

#[test]
fn timing_read() {
    if std::env::var_os("LLK_SCRATCH").is_none() {
        return;
    }
    use std::time::Instant;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let board = llk::render::fixtures::random_board(11, 19, 30, 1.0, 0, &mut rng);
    let spec = RenderSpec {
        theme: Theme::Classic,
        background: Background::Plain,
        canvas: Some((1920, 1080)),
        origin: Some((500, 300)),
        ..RenderSpec::default()
    };
    let f = Renderer::new(&spec, 11, 19).draw(&board, &[], &[]);
    let win = (0, 0, 1920, 1080);
    for _ in 0..5 {
        let t = Instant::now();
        let p = llk::vision::profile::edge_profiles(&f.image, (480, 280, 680, 460));
        let a = t.elapsed();
        let t = Instant::now();
        let ac = llk::vision::profile::autocorrelation(&p.cols, 0, 340);
        let b = t.elapsed();
        let t = Instant::now();
        let c = llk::vision::profile::comb_fit(&p.cols, 31.0, 1.2);
        let cc = t.elapsed();
        let t = Instant::now();
        let _ = llk::vision::grid::find_grid(&f.image, &Default::default());
        let d = t.elapsed();
        let t = Instant::now();
        let _ = llk::vision::read(&f.image, &Default::default());
        let e = t.elapsed();
        println!(
            "profiles {a:?} autocorr {b:?} comb {cc:?} find_grid {d:?} read {e:?} {} {:?} {:?}",
            ac.len(),
            c,
            win
        );
    }
}
