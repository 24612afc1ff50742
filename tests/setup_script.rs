//! scripts/lib.sh's install and build steps (issue 21 item 14): one line a step on the
//! terminal, the whole apt/dpkg/cargo output in a log file, and on failure the log's path
//! and its last 30 lines. Run in bash against fake `apt-get`, `sudo`, `dpkg-query` and
//! `cargo` first on PATH, which print 500 lines each and record their arguments: nothing
//! here can install anything or build for real.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A scratch folder with the fakes in `bin/`, a log folder `tmp/` (the scripts' TMPDIR) and
/// `calls`, where every fake writes its name and arguments.
struct Sandbox {
    dir: PathBuf,
}

impl Sandbox {
    fn new(name: &str) -> Sandbox {
        let dir = std::env::temp_dir().join(format!("llk-setup-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for sub in ["bin", "tmp", "home"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        let fake = |name: &str, body: &str| {
            let p = dir.join("bin").join(name);
            std::fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
            }
        };
        let calls = dir.join("calls");
        let calls = calls.display();
        // 500 lines on stdout and stderr alike, then the status the test asks for.
        let noisy = |tool: &str, rc_var: &str| {
            format!(
                "echo \"{tool} $*\" >> \"{calls}\"\n\
                 i=1; while [ $i -le 500 ]; do echo \"{tool} line $i\"; i=$((i + 1)); done\n\
                 echo \"{tool} on stderr\" >&2\n\
                 exit ${{{rc_var}:-0}}"
            )
        };
        fake("apt-get", &noisy("apt-get", "FAKE_APT_RC"));
        fake("cargo", &noisy("cargo", "FAKE_CARGO_RC"));
        fake(
            "sudo",
            &format!("echo \"sudo $*\" >> \"{calls}\"\nexec \"$@\""),
        );
        // Installed: the packages named in FAKE_INSTALLED.
        fake(
            "dpkg-query",
            "for last; do :; done\n\
             case \" $FAKE_INSTALLED \" in *\" $last \"*) printf 'install ok installed';; *) exit 1;; esac",
        );
        Sandbox { dir }
    }

    /// Runs `script` in bash after sourcing scripts/lib.sh, with the fakes first on PATH.
    fn run(&self, script: &str, env: &[(&str, &str)]) -> Output {
        let lib = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/lib.sh");
        let path = format!("{}:/usr/bin:/bin", self.dir.join("bin").display());
        let mut cmd = Command::new("bash");
        cmd.arg("-c")
            .arg(format!(". '{}'\n{script}", lib.display()))
            .env_clear()
            .env("PATH", path)
            .env("HOME", self.dir.join("home"))
            .env("TMPDIR", self.dir.join("tmp"));
        for (k, v) in env {
            cmd.env(k, v);
        }
        cmd.output().expect("run bash")
    }

    fn calls(&self) -> String {
        std::fs::read_to_string(self.dir.join("calls")).unwrap_or_default()
    }

    /// The log files the steps wrote.
    fn logs(&self) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(self.dir.join("tmp"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| {
                let n = p.file_name().unwrap().to_string_lossy();
                n.starts_with("llk-setup.") && n.ends_with(".log")
            })
            .collect();
        v.sort();
        v
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// stdout and stderr together.
fn said(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

#[test]
fn installing_prints_one_line_and_logs_the_rest() {
    let sb = Sandbox::new("install");
    let o = sb.run(
        "llk_apt_ensure llk-fake-a llk-fake-b llk-fake-c",
        &[("FAKE_INSTALLED", "llk-fake-b")],
    );
    let text = said(&o);
    assert!(o.status.success(), "{text}");
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        text.starts_with("llk: installing 2 system packages: llk-fake-a llk-fake-c (log: "),
        "{text}"
    );
    // The fakes ran (not apt): update, then install of the two missing packages.
    let calls = sb.calls();
    assert!(calls.contains("apt-get update -qq"), "{calls}");
    assert!(
        calls.contains("apt-get install -y -qq --no-install-recommends llk-fake-a llk-fake-c"),
        "{calls}"
    );
    let logs = sb.logs();
    assert_eq!(logs.len(), 1, "{logs:?}");
    assert!(text.contains(&logs[0].display().to_string()), "{text}");
    let log = std::fs::read_to_string(&logs[0]).unwrap();
    assert_eq!(
        log.matches("apt-get line ").count(),
        1000,
        "two runs of 500"
    );
    assert!(log.contains("apt-get line 500") && log.contains("apt-get on stderr"));
}

#[test]
fn nothing_to_install_runs_and_prints_nothing() {
    let sb = Sandbox::new("none");
    let o = sb.run(
        "llk_apt_ensure llk-fake-a llk-fake-b",
        &[("FAKE_INSTALLED", "llk-fake-a llk-fake-b")],
    );
    assert!(o.status.success(), "{}", said(&o));
    assert_eq!(said(&o), "");
    assert_eq!(sb.calls(), "");
    assert!(sb.logs().is_empty());
}

#[test]
fn a_failed_install_shows_the_log_path_and_its_last_30_lines() {
    let sb = Sandbox::new("fail");
    let o = sb.run(
        "llk_apt_ensure llk-fake-a; echo \"status $?\"",
        &[("FAKE_APT_RC", "100")],
    );
    let text = said(&o);
    assert!(text.contains("status 100"), "{text}");
    let logs = sb.logs();
    assert_eq!(logs.len(), 1, "{logs:?}");
    let log = logs[0].display().to_string();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!("failed (exit 100): installing 1 system packages: llk-fake-a; the last 30 lines of {log}")),
        "{err}"
    );
    assert!(err.contains(&format!("the whole log: {log}")), "{err}");
    // apt-get update failed: its last 30 lines are shown (470 to 500 and the stderr line),
    // and install never ran.
    assert!(
        err.contains("apt-get line 500") && err.contains("apt-get line 472"),
        "{err}"
    );
    assert!(!err.contains("apt-get line 471\n"), "{err}");
    assert!(text.lines().count() < 40, "{text}");
    assert!(!sb.calls().contains("install"), "{}", sb.calls());
}

/// What scripts/demo runs, under its `set -euo pipefail`: llk_install and llk_build print a
/// line each; a failed build stops the script after its log tail.
#[test]
fn the_demo_steps_print_a_line_each() {
    let sb = Sandbox::new("demo");
    let script = "set -euo pipefail\nllk_install\nllk_build\necho after";
    let o = sb.run(script, &[]);
    let text = said(&o);
    assert!(o.status.success(), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[0].starts_with("llk: installing ")
            && lines[0].contains(" system packages: pkg-config gcc "),
        "{text}"
    );
    assert!(lines[1].starts_with("llk: building llk"), "{text}");
    assert_eq!(lines[2], "after");
    assert!(
        sb.calls().contains("cargo build --release --locked"),
        "{}",
        sb.calls()
    );
    // One log for the run, holding all of it.
    let logs = sb.logs();
    assert_eq!(logs.len(), 1, "{logs:?}");
    let log = std::fs::read_to_string(&logs[0]).unwrap();
    assert_eq!(log.matches("cargo line ").count(), 500);
    assert_eq!(log.matches("apt-get line ").count(), 1000);

    let sb = Sandbox::new("demo-fail");
    // Every package installed already: no apt step.
    let installed = format!("export FAKE_INSTALLED=\"$(echo $LLK_PACKAGES)\"\n{script}");
    let o = sb.run(&installed, &[("FAKE_CARGO_RC", "101")]);
    let text = said(&o);
    assert_eq!(o.status.code(), Some(101), "{text}");
    assert!(!text.contains("after"), "{text}");
    assert!(!sb.calls().contains("apt-get"), "{}", sb.calls());
    assert!(text.contains("failed (exit 101): building llk"), "{text}");
    assert!(text.contains("cargo line 500"), "{text}");
    assert!(text.lines().count() < 40, "{text}");
}
