//! What the live end-to-end tests share: a kill-on-drop guard for child processes, the
//! `llk` command with Wayland variables removed, the "does a display with a window manager
//! answer" check and a wait with a hard limit. Each live test binary includes this module.

#![allow(dead_code)] // each test binary uses a different part

use std::path::PathBuf;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

pub const LLK: &str = env!("CARGO_BIN_EXE_llk");

/// Kills the child on drop, whatever happened.
pub struct Guard(pub Child, pub &'static str);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `llk ARGS` with Wayland variables removed and a configuration folder private to this
/// test process: the game profiles `llk play` saves carry from one case to the next, as
/// they do for a user, and never touch the user's own.
pub fn command(args: &[String]) -> Command {
    let mut c = Command::new(LLK);
    let config = std::env::temp_dir().join(format!("llk-test-config-{}", std::process::id()));
    c.args(args)
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("XDG_SESSION_TYPE")
        .env("XDG_CONFIG_HOME", config);
    c
}

/// Whether a display with a window manager answers: `llk windows` lists windows only then.
pub fn display_answers() -> Result<(), String> {
    if std::env::var_os("DISPLAY").is_none() {
        return Err("DISPLAY is not set".into());
    }
    let out = command(&["windows".to_string()])
        .output()
        .map_err(|e| format!("running llk windows: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
    }
}

/// Waits for a child with a hard limit; kills it when the limit passes.
pub fn wait_for(g: &mut Guard, limit: Duration) -> Result<std::process::ExitStatus, String> {
    let t0 = Instant::now();
    loop {
        if let Some(s) = g.0.try_wait().map_err(|e| e.to_string())? {
            return Ok(s);
        }
        if t0.elapsed() > limit {
            let _ = g.0.kill();
            return Err(format!("{} did not finish within {limit:?}", g.1));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Runs one live step, timing it, printing `ok`/`FAILED` as it goes (a long run shows
/// progress) and adding a failure to `failures`, so one broken case does not hide the rest.
pub fn check(
    name: &str,
    failures: &mut Vec<String>,
    step: impl FnOnce() -> Result<String, String>,
) {
    let t0 = Instant::now();
    match step() {
        Ok(v) => eprintln!("ok {name} ({:.1} s) {v}", t0.elapsed().as_secs_f64()),
        Err(e) => {
            eprintln!("FAILED {name}: {e}");
            failures.push(format!("{name}: {e}"));
        }
    }
}

/// Where the team's read-only data lives (real screenshots with truth, sliding benchmark
/// sets): `$LLK_SHARED` when set, else `../shared` beside the project root, as in CI.
pub fn shared_dir() -> PathBuf {
    match std::env::var_os("LLK_SHARED") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared"),
    }
}

/// `part` of the team's data ([`shared_dir`]), or `None` with a notice when it is absent;
/// under `CI=true`, where the data is always there, an absent part fails the test instead
/// of skipping it.
pub fn shared(part: &str) -> Option<PathBuf> {
    let p = shared_dir().join(part);
    if p.exists() {
        return Some(p);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!(
            "{} is absent under CI=true: the team's data must be beside the project",
            p.display()
        );
    }
    println!("SKIP: {} is absent (team data)", p.display());
    None
}
