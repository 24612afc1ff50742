use llk::geometry::Grid;
use llk::vision::reader::read_grid;
use llk::vision::{is_sure, load_image, read_cells_with, ReaderChoice, ReaderConfig};
fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let f: Vec<f32> = a[1..].iter().map(|s| s.parse().unwrap()).collect();
    let g = Grid {
        origin: (f[0], f[1]),
        pitch: (f[2], f[3]),
        rows: f[4] as usize,
        cols: f[5] as usize,
    };
    let img = load_image(std::path::Path::new(&a[0])).unwrap();
    match read_grid(&img, &g, &ReaderConfig::default()) {
        Ok(x) => println!(
            "grid: sure={} sel={:?} unsure={:?}\n{}",
            is_sure(&x),
            x.selected,
            x.unsure,
            x.board
        ),
        Err(e) => println!("grid: err {e}"),
    }
    for (n, c) in [
        ("general", ReaderChoice::General),
        ("legacy", ReaderChoice::Legacy),
        ("auto", ReaderChoice::Auto),
    ] {
        match read_cells_with(c, &img, &g) {
            Ok(x) => println!(
                "{n}: sure={} sel={:?} tiles={} unsure={:?}",
                is_sure(&x),
                x.selected,
                x.board.tile_count(),
                x.unsure
            ),
            Err(e) => println!("{n}: err {e}"),
        }
    }
}
