//! Bad input never panics: corrupt, truncated, empty, 1×1 and huge images give a clear
//! one-line error (naming the file) or a bounded-memory result; odd frames and grids given
//! to `read`/`read_cells` give a `ReadError`, never a panic.

use image::{Rgba, RgbaImage};
use llk::geometry::Grid;
use llk::vision::{load_image, read, read_cells, Hints, ReadError};
use std::path::PathBuf;

fn tmp(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("llk-vision-inputs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn png_bytes(img: &RgbaImage) -> Vec<u8> {
    let mut buf = std::io::Cursor::new(Vec::new());
    img.write_to(&mut buf, image::ImageFormat::Png).unwrap();
    buf.into_inner()
}

#[test]
fn zero_byte_file_is_refused_by_name() {
    let p = tmp("empty.png", b"");
    let e = format!("{:#}", load_image(&p).unwrap_err());
    assert!(e.contains("empty.png") && e.contains("0 bytes"), "{e}");
}

#[test]
fn corrupt_and_truncated_files_are_refused() {
    let p = tmp("garbage.png", b"this is not an image at all");
    let e = format!("{:#}", load_image(&p).unwrap_err());
    assert!(e.contains("garbage.png") && e.contains("not a PNG"), "{e}");
    let good = png_bytes(&RgbaImage::from_pixel(64, 64, Rgba([10, 20, 30, 255])));
    let p = tmp("truncated.png", &good[..good.len() / 2]);
    let e = format!("{:#}", load_image(&p).unwrap_err());
    assert!(e.contains("truncated.png"), "{e}");
    let mut flipped = good.clone();
    for b in flipped[40..80].iter_mut() {
        *b ^= 0x5a;
    }
    let p = tmp("corrupt.png", &flipped);
    let e = format!("{:#}", load_image(&p).unwrap_err());
    assert!(e.contains("corrupt.png"), "{e}");
    let e = format!(
        "{:#}",
        load_image(&PathBuf::from("/no/such/file.png")).unwrap_err()
    );
    assert!(e.contains("/no/such/file.png"), "{e}");
}

#[test]
fn huge_header_is_refused_before_decoding() {
    // A valid PNG header claiming 20000×20000: refused from the header, no 1.6 GB allocation.
    let mut png = Vec::new();
    png.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&20000u32.to_be_bytes());
    ihdr.extend_from_slice(&20000u32.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    png.extend_from_slice(&(ihdr.len() as u32).to_be_bytes());
    let mut chunk = b"IHDR".to_vec();
    chunk.extend_from_slice(&ihdr);
    png.extend_from_slice(&chunk);
    png.extend_from_slice(&crc32(&chunk).to_be_bytes());
    for name in [&b"IDAT"[..], &b"IEND"[..]] {
        png.extend_from_slice(&0u32.to_be_bytes());
        png.extend_from_slice(name);
        png.extend_from_slice(&crc32(name).to_be_bytes());
    }
    let p = tmp("huge.png", &png);
    let e = format!("{:#}", load_image(&p).unwrap_err());
    assert!(e.contains("huge.png") && e.contains("20000"), "{e}");
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xFFFF_FFFFu32;
    for &b in data {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[test]
fn tiny_and_blank_frames_have_no_board() {
    let p = tmp(
        "one.png",
        &png_bytes(&RgbaImage::from_pixel(1, 1, Rgba([0, 0, 0, 255]))),
    );
    let img = load_image(&p).unwrap();
    assert_eq!(
        read(&img, &Hints::default()).unwrap_err().kind(),
        "no-board"
    );
    let blank = RgbaImage::from_pixel(800, 600, Rgba([48, 76, 112, 255]));
    let e = read(&blank, &Hints::default()).unwrap_err();
    assert_eq!(e.kind(), "no-board", "{e}");
    let zero = RgbaImage::new(0, 0);
    assert!(read(&zero, &Hints::default()).is_err());
}

#[test]
fn bad_grids_and_regions_are_invalid() {
    let img = RgbaImage::from_pixel(200, 100, Rgba([48, 76, 112, 255]));
    let off = Grid {
        origin: (150.0, 10.0),
        pitch: (31.0, 35.0),
        rows: 2,
        cols: 3,
    };
    assert!(matches!(read_cells(&img, &off), Err(ReadError::Invalid(_))));
    let nan = Grid {
        origin: (f32::NAN, 0.0),
        pitch: (31.0, 35.0),
        rows: 1,
        cols: 1,
    };
    assert!(matches!(read_cells(&img, &nan), Err(ReadError::Invalid(_))));
    let zero = Grid {
        origin: (0.0, 0.0),
        pitch: (0.0, 35.0),
        rows: 1,
        cols: 1,
    };
    assert!(matches!(
        read_cells(&img, &zero),
        Err(ReadError::Invalid(_))
    ));
    let hints = Hints {
        region: Some((150, 50, 100, 100)),
        ..Hints::default()
    };
    assert!(matches!(read(&img, &hints), Err(ReadError::Invalid(_))));
}

#[test]
fn a_clear_board_reads_as_all_empty() {
    let img = RgbaImage::from_pixel(400, 300, Rgba([48, 76, 112, 255]));
    let g = Grid {
        origin: (40.0, 40.0),
        pitch: (31.0, 35.0),
        rows: 5,
        cols: 8,
    };
    let r = read_cells(&img, &g).unwrap();
    assert!(r.board.is_clear() && r.unsure.is_empty());
}

/// The bundled sliding puzzle's windows (numbered tiles, no two alike): the default reader
/// must call them `not-lianliankan`, so `llk play` clicks nothing there.
#[test]
fn sliding_puzzle_windows_are_not_lianliankan() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/windows");
    for name in ["llk-slide-3x3.png", "llk-slide-4x4.png"] {
        let img = load_image(&dir.join(name)).unwrap();
        match read(&img, &Hints::default()) {
            Err(ReadError::NotLianliankan(m)) => assert!(m.contains("no twin"), "{name}: {m}"),
            Err(e) => panic!(
                "{name}: refused as {} ({e}), want not-lianliankan",
                e.kind()
            ),
            Ok(r) => panic!("{name}: read as a board\n{}", r.board),
        }
    }
}
