//! The one way commands print results on stdout. Every write is flushed and checked, so a
//! stdout that cannot take the text (`llk generate > /dev/full`) ends the command with exit
//! 1 and "writing to stdout: No space left on device" instead of `println!`'s panic (exit
//! 101). A reader that stops early (`| head`) is not an error: `main` restores SIGPIPE's
//! default action, which ends the process quietly; where SIGPIPE is ignored the broken pipe
//! is swallowed here for the same effect.
//!
//! Use `outln!` like `println!` (it returns a `Result`), or `text` for gathered text:
//!
//! ```ignore
//! use super::out::outln;
//! outln!("{} removable pairs", n)?;
//! ```

use anyhow::{Context, Result};
use std::fmt;
use std::io::{self, Write};

/// Writes `args` to stdout and flushes.
pub fn write(args: fmt::Arguments<'_>) -> Result<()> {
    let mut stdout = io::stdout().lock();
    checked(stdout.write_fmt(args).and_then(|()| stdout.flush()))
}

/// Writes `s` to stdout as it is (no newline added) and flushes.
pub fn text(s: &str) -> Result<()> {
    let mut stdout = io::stdout().lock();
    checked(stdout.write_all(s.as_bytes()).and_then(|()| stdout.flush()))
}

/// A failed write becomes "writing to stdout: CAUSE"; a closed pipe is no failure.
fn checked(written: io::Result<()>) -> Result<()> {
    match written {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(e).context("writing to stdout"),
        _ => Ok(()),
    }
}

/// `println!` that returns `anyhow::Result<()>` instead of panicking when stdout fails.
macro_rules! outln {
    () => {
        $crate::cli::out::text("\n")
    };
    ($($arg:tt)*) => {
        $crate::cli::out::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}
pub(crate) use outln;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_write_names_stdout_and_the_cause() {
        let e = checked(Err(io::Error::from_raw_os_error(28))).unwrap_err();
        assert_eq!(
            format!("{e:#}"),
            "writing to stdout: No space left on device (os error 28)"
        );
        assert!(checked(Err(io::ErrorKind::BrokenPipe.into())).is_ok());
        assert!(checked(Ok(())).is_ok());
    }
}
