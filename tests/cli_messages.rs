//! Error messages that named the wrong problem (issue 21 item 13), and `-` for stdin: each
//! run as a user runs it, asserting the status and the words of the message.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn llk(args: &[&str]) -> Output {
    llk_stdin(args, &[])
}

/// Runs llk with `input` on its stdin.
fn llk_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_llk"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run llk");
    let mut stdin = child.stdin.take().unwrap();
    // llk may stop reading early (a bad argument); a closed pipe is no failure here.
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().unwrap()
}

/// A scratch folder unique to this test process and name.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("llk-messages-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Fails with status 1 and one line on stderr; returns it.
fn one_line_error(o: &Output) -> String {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(1), "{e}");
    assert_eq!(e.trim_end().lines().count(), 1, "not one line: {e}");
    e
}

/// A frame of the bundled game (a 5×6 board) from a recorded session.
fn fixture_png() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/sessions/gravity-none-5x6/frame-00000.png")
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

/// A PNG signature, an IHDR chunk with these fields, and empty IDAT and IEND chunks (valid
/// CRCs): a header the decoder reads, with no pixels.
fn png_header(w: u32, h: u32, depth: u8, colour: u8) -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut chunk = b"IHDR".to_vec();
    chunk.extend_from_slice(&w.to_be_bytes());
    chunk.extend_from_slice(&h.to_be_bytes());
    chunk.extend_from_slice(&[depth, colour, 0, 0, 0]);
    png.extend_from_slice(&13u32.to_be_bytes());
    png.extend_from_slice(&chunk);
    png.extend_from_slice(&crc32(&chunk).to_be_bytes());
    for name in [&b"IDAT"[..], &b"IEND"[..]] {
        png.extend_from_slice(&0u32.to_be_bytes());
        png.extend_from_slice(name);
        png.extend_from_slice(&crc32(name).to_be_bytes());
    }
    png
}

/// "100 tiles is not a square board" when 100 tiles are a square board, one past the
/// solver's 8×8: the message names the size limit.
#[test]
fn slide_tiles_past_8x8_name_the_size_limit() {
    let hundred: Vec<String> = (0..100).map(|t| t.to_string()).collect();
    let o = llk(&["slide", "solve", "--tiles", &hundred.join(" ")]);
    let e = one_line_error(&o);
    assert!(
        e.contains("100 tiles make a 10x10 board: boards are at most 8x8 (64 tiles)"),
        "{e}"
    );
    assert!(!e.contains("not a square"), "{e}");
    let seventy: Vec<String> = (0..70).map(|t| t.to_string()).collect();
    let e = one_line_error(&llk(&["slide", "solve", "--tiles", &seventy.join(" ")]));
    assert!(
        e.contains("70 tiles are more than a board holds: boards are at most 8x8"),
        "{e}"
    );
    // Within the limit a count that is not square still asks for --size.
    let e = one_line_error(&llk(&["slide", "solve", "--tiles", "1 2 3 4 5 6 7 0"]));
    assert!(
        e.contains("8 tiles is not a square board; give --size"),
        "{e}"
    );
}

/// An empty session.jsonl said `planner "": expected STRATEGY/MAX_STATES`: it says the log
/// is empty, and a log that does not begin with its start entry says it has no header.
#[test]
fn replay_of_an_empty_or_headless_log_says_so() {
    let dir = scratch("replay");
    let log = dir.join("session.jsonl");
    std::fs::write(&log, "").unwrap();
    let e = one_line_error(&llk(&["replay", s(&dir)]));
    assert!(e.contains("session.jsonl: the session log is empty"), "{e}");
    assert!(!e.contains("planner"), "{e}");
    std::fs::write(
        &log,
        "{\"kind\":\"frame\",\"index\":0,\"file\":\"frame-00000.png\",\"origin\":[41,60],\"t_ms\":1}\n",
    )
    .unwrap();
    let e = one_line_error(&llk(&["replay", s(&dir)]));
    assert!(
        e.contains("the session log has no header: it does not begin with a start entry"),
        "{e}"
    );
    assert!(!e.contains("planner"), "{e}");
}

/// `annotate -o DIR` said "unknown image extension": it says the output is a directory
/// (before reading anything), and so does `render`.
#[test]
fn an_output_directory_is_named_as_such() {
    let dir = scratch("outdir");
    let png = fixture_png();
    let e = one_line_error(&llk(&["annotate", s(&png), "-o", s(&dir)]));
    assert!(
        e.contains("is a directory; give the picture's file name"),
        "{e}"
    );
    assert!(!e.contains("extension"), "{e}");
    let board = dir.join("b.txt");
    std::fs::write(&board, "AB\nBA\n").unwrap();
    let e = one_line_error(&llk(&["render", s(&board), "-o", s(&dir)]));
    assert!(e.contains("is a directory"), "{e}");
    let help = stdout(&llk(&["annotate", "--help"]));
    assert!(help.contains("directory is refused"), "{help}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A broken PNG header printed the decoder's text twice ("…: Invalid bit depth 7.: Invalid
/// bit depth 7."): once now.
#[test]
fn png_header_errors_print_their_text_once() {
    let dir = scratch("header");
    for (name, bytes, text) in [
        ("depth7.png", png_header(5, 5, 7, 6), "Invalid bit depth 7"),
        (
            "zero.png",
            png_header(0, 5, 8, 6),
            "Invalid image dimensions",
        ),
    ] {
        let p = dir.join(name);
        std::fs::write(&p, &bytes).unwrap();
        for cmd in ["read", "annotate"] {
            let out = dir.join("out.png");
            let args = match cmd {
                "read" => vec!["read", s(&p)],
                _ => vec!["annotate", s(&p), "-o", s(&out)],
            };
            let e = one_line_error(&llk(&args));
            assert!(
                e.contains(&format!("{name}: cannot read the image header")),
                "{e}"
            );
            assert_eq!(e.matches(text).count(), 1, "{e}");
        }
        let e = format!("{:#}", llk::vision::load_image(&p).unwrap_err());
        assert_eq!(e.matches(text).count(), 1, "{e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A frame with no board said "no board: no board found: …": "no board" once.
#[test]
fn a_frame_with_no_board_says_no_board_once() {
    let dir = scratch("blank");
    let p = dir.join("blank.png");
    image::RgbaImage::from_pixel(400, 300, image::Rgba([128, 128, 128, 255]))
        .save(&p)
        .unwrap();
    let e = one_line_error(&llk(&["read", s(&p)]));
    assert_eq!(e.matches("no board").count(), 1, "{e}");
    assert!(e.contains("[no-board]"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two windows with one title: the error lists their ids and says `--window-id ID`, which
/// `llk play` took but `llk slide play` refused as an unknown argument. It takes it now.
#[test]
fn slide_play_takes_a_window_id() {
    let help = stdout(&llk(&["slide", "play", "--help"]));
    assert!(help.contains("--window-id"), "{help}");
    // No such window (or no display, or no live feature): an error, not a usage error.
    let o = llk(&["slide", "play", "--window-id", "1", "--dry-run"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        !stderr(&o).contains("unexpected argument"),
        "{}",
        stderr(&o)
    );
    // One of the two is required, and they do not go together.
    let o = llk(&["slide", "play"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--window"), "{}", stderr(&o));
    let o = llk(&["slide", "play", "--window", "x", "--window-id", "1"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// `-` was a file name ("No such file"): `read`, `annotate`, `plan` and `pairs` read it from
/// stdin, with the limits and messages files get ("stdin" in place of the name).
#[test]
fn a_dash_reads_stdin() {
    let png = fixture_png();
    let bytes = std::fs::read(&png).unwrap();
    let from_file = llk(&["read", s(&png), "--json"]);
    assert!(from_file.status.success(), "{}", stderr(&from_file));
    let from_stdin = llk_stdin(&["read", "-", "--json"], &bytes);
    assert!(from_stdin.status.success(), "{}", stderr(&from_stdin));
    assert_eq!(stdout(&from_stdin), stdout(&from_file));
    let v: serde_json::Value = serde_json::from_slice(&from_stdin.stdout).unwrap();
    assert_eq!(
        (v["rows"].as_u64(), v["cols"].as_u64()),
        (Some(5), Some(6)),
        "{v}"
    );

    let dir = scratch("stdin");
    let out = dir.join("ann.png");
    let o = llk_stdin(&["annotate", "-", "-o", s(&out)], &bytes);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("5x6 board"), "{}", stdout(&o));
    // The same picture as from the file.
    let out_file = dir.join("ann-file.png");
    assert!(llk(&["annotate", s(&png), "-o", s(&out_file)])
        .status
        .success());
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(&out_file).unwrap()
    );

    let board = "AB\nAB\n";
    let file = dir.join("b.txt");
    std::fs::write(&file, board).unwrap();
    for cmd in ["plan", "pairs"] {
        let from_file = llk(&[cmd, s(&file), "--json"]);
        let from_stdin = llk_stdin(&[cmd, "-", "--json"], board.as_bytes());
        assert!(
            from_stdin.status.success(),
            "{cmd}: {}",
            stderr(&from_stdin)
        );
        let mut a: serde_json::Value = serde_json::from_slice(&from_stdin.stdout).unwrap();
        let mut b: serde_json::Value = serde_json::from_slice(&from_file.stdout).unwrap();
        // Everything but the time taken.
        for v in [&mut a, &mut b] {
            if let Some(o) = v.as_object_mut() {
                o.remove("micros");
            }
        }
        assert_eq!(a, b, "{cmd}");
    }

    // The checks files get: empty input, a header past the size limit, a bad board.
    let e = one_line_error(&llk_stdin(&["read", "-"], b""));
    assert!(e.contains("stdin: empty (0 bytes), not an image"), "{e}");
    let e = one_line_error(&llk_stdin(&["read", "-"], &png_header(20000, 20000, 8, 6)));
    assert!(
        e.contains("stdin: image is 20000x20000 px, larger than"),
        "{e}"
    );
    let e = one_line_error(&llk_stdin(
        &["annotate", "-", "-o", s(&out)],
        b"not an image",
    ));
    assert!(e.contains("stdin: not a PNG, JPEG or BMP image"), "{e}");
    let e = one_line_error(&llk_stdin(&["plan", "-"], b"AAB\nB.A\n"));
    assert!(e.contains("stdin: ") && e.contains("odd"), "{e}");
    let e = one_line_error(&llk_stdin(&["plan", "-"], &[0xff, 0xfe, 0]));
    assert!(e.contains("stdin: cannot read"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `llk bench truth` classes each frame of a folder against its truth: rendered fixtures
/// read exactly; a truth file whose board is not what the picture shows (two tiles swapped
/// for a third type) is a confident misreading; an empty folder and a broken truth file are
/// named.
#[test]
fn bench_truth_classes_frames_and_names_bad_folders() {
    let dir = scratch("bench-truth");
    let o = llk(&[
        "render",
        "--fixtures",
        s(&dir),
        "--count",
        "3",
        "--seed",
        "5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = llk(&["bench", "truth", s(&dir)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let row = format!("| {} | 3 | 3 | 0 | 0 | 0 | 0 | 0 |", dir.display());
    assert!(stdout(&o).contains(&row), "{}", stdout(&o));

    // Rename one tile of the first fixture's truth to a letter no other tile has: the
    // reading, sure, no longer matches it.
    let first = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".truth.json"))
        .min()
        .unwrap();
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&first).unwrap()).unwrap();
    let rows = v["cells"].as_array_mut().unwrap();
    let row = rows
        .iter_mut()
        .find(|r| r.as_str().unwrap().chars().any(|c| c.is_ascii_alphabetic()))
        .unwrap();
    let text = row.as_str().unwrap();
    let at = text.find(|c: char| c.is_ascii_alphabetic()).unwrap();
    let mut changed = text.to_string();
    changed.replace_range(at..at + 1, "~");
    *row = serde_json::Value::String(changed);
    std::fs::write(&first, serde_json::to_string(&v).unwrap()).unwrap();
    let o = llk(&["bench", "truth", s(&dir), "--list"]);
    let out = stdout(&o);
    assert!(
        out.contains(&format!("| {} | 3 | 2 | 1 |", dir.display())),
        "{out}"
    );
    let name = first
        .file_name()
        .unwrap()
        .to_string_lossy()
        .replace(".truth.json", "");
    assert!(out.contains(&format!("  W {name} read ")), "{out}");

    std::fs::write(&first, "{ not json").unwrap();
    let e = one_line_error(&llk(&["bench", "truth", s(&dir)]));
    assert!(e.contains("is not JSON"), "{e}");
    let empty = scratch("bench-truth-empty");
    let e = one_line_error(&llk(&["bench", "truth", s(&empty)]));
    assert!(e.contains("no *.truth.json files"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&empty);
}
