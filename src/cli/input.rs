//! Inputs named on the command line: a file, or `-` for stdin (`llk read -`, `llk annotate -`,
//! `llk plan -`, `llk pairs -`). Stdin is read whole, up to a bound, then goes through the
//! same checks as a file, and errors call it "stdin".

use anyhow::{anyhow, bail, Context, Result};
use image::RgbaImage;
use std::io::Read;
use std::path::Path;

/// Most bytes of board text read from stdin: a 256×256 board (the planner's limit) is 66 KB
/// of text, so 16 MiB leaves room for any layout of whitespace.
const MAX_BOARD_TEXT: u64 = 16 << 20;

/// Whether `path` is `-`, which stands for stdin.
pub fn is_stdin(path: &Path) -> bool {
    path == Path::new("-")
}

/// How errors name the input: "stdin" for `-`, else the path.
pub fn name(path: &Path) -> String {
    if is_stdin(path) {
        "stdin".to_string()
    } else {
        path.display().to_string()
    }
}

/// All of `input`, refusing more than `limit` bytes (`what` says what it should hold).
fn read_bounded(input: impl Read, limit: u64, what: &str) -> Result<Vec<u8>> {
    let mut buf = Vec::new();
    input
        .take(limit + 1)
        .read_to_end(&mut buf)
        .context("reading stdin")?;
    if buf.len() as u64 > limit {
        bail!(
            "stdin: more than {} MiB, larger than any {what} llk accepts",
            limit >> 20
        );
    }
    Ok(buf)
}

/// The screenshot at `path`, or on stdin for `-`, with the reader's limits
/// ([`llk::vision::load_image`]); stdin may hold at most as many bytes as a decoded image.
pub fn load_image(path: &Path) -> Result<RgbaImage> {
    if !is_stdin(path) {
        return Ok(llk::vision::load_image(path)?);
    }
    let bytes = read_bounded(
        std::io::stdin().lock(),
        llk::vision::load::MAX_ALLOC,
        "image",
    )?;
    Ok(llk::vision::load_image_bytes("stdin", &bytes)?)
}

/// The board text at `path`, or on stdin for `-`; errors start with the input's name.
pub fn read_board_text(path: &Path) -> Result<String> {
    let name = name(path);
    if !is_stdin(path) {
        return std::fs::read_to_string(path).map_err(|e| anyhow!("{name}: cannot read: {e}"));
    }
    let bytes = read_bounded(std::io::stdin().lock(), MAX_BOARD_TEXT, "board")?;
    String::from_utf8(bytes)
        .map_err(|_| anyhow!("{name}: cannot read: stream did not contain valid UTF-8"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stdin_past_its_bound_is_refused() {
        let e = read_bounded(&[0u8; 10][..], 9, "board").unwrap_err();
        assert!(e.to_string().contains("larger than any board"), "{e}");
        assert_eq!(read_bounded(&[1u8; 9][..], 9, "board").unwrap(), [1u8; 9]);
        assert_eq!(name(Path::new("-")), "stdin");
        assert_eq!(name(Path::new("b.txt")), "b.txt");
    }
}
