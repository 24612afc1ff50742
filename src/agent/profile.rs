//! Game profiles: what a session learnt about a game's window, kept for the next one.
//!
//! After a session in which clicks on the locked grid removed pairs (so the grid is known to
//! be right), `llk play` saves the grid in client-area pixels, the window size it was learnt
//! at, the reader that read it and the rules as played (the gravity once found). The next
//! session on a window of the same application starts from them: the grid is tried first
//! (kept only when it reads with confidence and a tile stands on each of its edge lines),
//! the reader is the one that worked, and the saved gravity is the first guess the watch
//! checks. Profiles are JSON files, one per application name, in
//! `$XDG_CONFIG_HOME/llk/profiles` (else `~/.config/llk/profiles`).
//!
//! ```
//! use llk::agent::profile::{Profile, ProfileStore};
//! use llk::geometry::Grid;
//! let dir = std::env::temp_dir().join(format!("llk-doc-profiles-{}", std::process::id()));
//! let store = ProfileStore::at(&dir);
//! let grid = Grid { origin: (41.5, 172.0), pitch: (58.0, 74.0), rows: 6, cols: 14 };
//! let p = Profile {
//!     app: "kshisen".into(),
//!     grid,
//!     window: (900, 754),
//!     reader: "general".into(),
//!     outside: true,
//!     gravity: None,
//! };
//! store.save(&p).unwrap();
//! assert_eq!(store.load("KShisen").unwrap(), Some(p));
//! assert!(store.forget("kshisen").unwrap());
//! assert_eq!(store.list().unwrap(), vec![]);
//! # std::fs::remove_dir_all(&dir).ok();
//! ```

use crate::board::Gravity;
use crate::geometry::Grid;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

/// What the bot learnt about one application's game window.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// The window's application name (`llk windows` shows it): the key.
    pub app: String,
    /// The board's grid in client-area pixels.
    pub grid: Grid,
    /// The client area's size (w, h) the grid was learnt at; the grid is reused only on a
    /// window of this size (games scale their tiles with the window).
    pub window: (u32, u32),
    /// The reader that read the game (`legacy` or `general`).
    pub reader: String,
    /// Whether links ran outside the board.
    pub outside: bool,
    /// The gravity, once found by watching the game or given.
    pub gravity: Option<Gravity>,
}

impl Profile {
    /// One line for `llk profiles`.
    pub fn summary(&self) -> String {
        let g = &self.grid;
        format!(
            "{}: {}x{} board, cells {:.1}x{:.1} px at ({:.1}, {:.1}) in a {}x{} window; reader {}; gravity {}; links {}",
            self.app,
            g.rows,
            g.cols,
            g.pitch.0,
            g.pitch.1,
            g.origin.0,
            g.origin.1,
            self.window.0,
            self.window.1,
            self.reader,
            self.gravity.map_or("not known yet", |m| m.name()),
            if self.outside {
                "may run outside the board"
            } else {
                "stay on the board"
            }
        )
    }
}

/// Why a profile could not be read, written or found.
#[derive(Debug)]
pub enum ProfileError {
    /// No configuration directory: neither `XDG_CONFIG_HOME` nor `HOME` is set.
    NoConfigDir,
    /// An application name that cannot key a profile (empty).
    BadName(String),
    /// A file system error on `path`.
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// A profile file that is not a profile.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What the JSON parser said.
        error: String,
    },
}

impl fmt::Display for ProfileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProfileError::NoConfigDir => {
                write!(f, "no configuration directory: set XDG_CONFIG_HOME or HOME")
            }
            ProfileError::BadName(n) => write!(f, "{n:?} cannot name a profile"),
            ProfileError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            ProfileError::Corrupt { path, error } => {
                write!(
                    f,
                    "{}: not a profile ({error}); forget it and play again",
                    path.display()
                )
            }
        }
    }
}

impl std::error::Error for ProfileError {}

/// The folder of profile files.
#[derive(Clone, Debug)]
pub struct ProfileStore {
    dir: PathBuf,
}

impl ProfileStore {
    /// The user's store: `$XDG_CONFIG_HOME/llk/profiles`, else `$HOME/.config/llk/profiles`
    /// (an empty or relative `XDG_CONFIG_HOME` is ignored, as the XDG spec says).
    pub fn user() -> Result<ProfileStore, ProfileError> {
        let var = |k: &str| {
            std::env::var_os(k)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        let base = var("XDG_CONFIG_HOME")
            .filter(|p| p.is_absolute())
            .or_else(|| var("HOME").map(|h| h.join(".config")))
            .ok_or(ProfileError::NoConfigDir)?;
        Ok(ProfileStore::at(base.join("llk").join("profiles")))
    }

    /// A store in `dir`.
    pub fn at(dir: impl AsRef<Path>) -> ProfileStore {
        ProfileStore {
            dir: dir.as_ref().to_path_buf(),
        }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of `app`'s profile: its name lowercased, characters other than letters,
    /// digits, `-`, `_` and `.` as `_` (application names are matched without case).
    pub fn path(&self, app: &str) -> Result<PathBuf, ProfileError> {
        let name: String = app
            .trim()
            .chars()
            .map(|c| {
                if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') {
                    c.to_lowercase().next().unwrap_or('_')
                } else {
                    '_'
                }
            })
            .collect();
        if name.is_empty() || name.chars().all(|c| c == '.') {
            return Err(ProfileError::BadName(app.to_string()));
        }
        Ok(self.dir.join(format!("{name}.json")))
    }

    /// `app`'s profile, `None` when there is none.
    pub fn load(&self, app: &str) -> Result<Option<Profile>, ProfileError> {
        match read_profile(&self.path(app)?) {
            Err(ProfileError::Io { error, .. }) if error.kind() == std::io::ErrorKind::NotFound => {
                Ok(None)
            }
            r => r.map(Some),
        }
    }

    /// Saves `p` (replacing the application's earlier profile) and returns its file. The
    /// file is written beside and renamed into place, so a killed write leaves the old one.
    pub fn save(&self, p: &Profile) -> Result<PathBuf, ProfileError> {
        let path = self.path(&p.app)?;
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |error| ProfileError::Io { path, error }
        };
        std::fs::create_dir_all(&self.dir).map_err(io(&self.dir))?;
        let tmp = path.with_extension(format!("json.{}.tmp", std::process::id()));
        let text = serde_json::to_string_pretty(p).expect("a profile serialises");
        std::fs::write(&tmp, text + "\n").map_err(io(&tmp))?;
        std::fs::rename(&tmp, &path).map_err(io(&path))?;
        Ok(path)
    }

    /// Every profile, by application name; an unreadable file is an error naming it.
    pub fn list(&self) -> Result<Vec<Profile>, ProfileError> {
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(error) => {
                return Err(ProfileError::Io {
                    path: self.dir.clone(),
                    error,
                })
            }
        };
        let mut out = Vec::new();
        for entry in entries {
            let path = entry
                .map_err(|error| ProfileError::Io {
                    path: self.dir.clone(),
                    error,
                })?
                .path();
            if path.extension().is_some_and(|e| e == "json") {
                out.push(read_profile(&path)?);
            }
        }
        out.sort_by_key(|p| p.app.to_lowercase());
        Ok(out)
    }

    /// Deletes `app`'s profile; `false` when there was none.
    pub fn forget(&self, app: &str) -> Result<bool, ProfileError> {
        let path = self.path(app)?;
        match std::fs::remove_file(&path) {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
            Err(error) => Err(ProfileError::Io { path, error }),
        }
    }
}

/// The profile in the file `path`; an I/O error or a file that is not a profile names it.
fn read_profile(path: &Path) -> Result<Profile, ProfileError> {
    let text = std::fs::read_to_string(path).map_err(|error| ProfileError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    serde_json::from_str(&text).map_err(|e| ProfileError::Corrupt {
        path: path.to_path_buf(),
        error: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp_store(tag: &str) -> ProfileStore {
        let dir = std::env::temp_dir().join(format!("llk-profiles-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        ProfileStore::at(dir)
    }

    fn profile(app: &str) -> Profile {
        Profile {
            app: app.into(),
            grid: Grid {
                origin: (10.0, 20.0),
                pitch: (30.0, 35.0),
                rows: 4,
                cols: 6,
            },
            window: (400, 300),
            reader: "legacy".into(),
            outside: true,
            gravity: Some(Gravity::Down),
        }
    }

    #[test]
    fn saved_profiles_load_list_and_forget_by_application_name() {
        let store = temp_store("roundtrip");
        assert_eq!(store.list().unwrap(), vec![]);
        assert_eq!(store.load("kshisen").unwrap(), None);
        store.save(&profile("llk")).unwrap();
        store.save(&profile("KShisen")).unwrap();
        let mut newer = profile("kshisen");
        newer.gravity = None;
        store.save(&newer).unwrap();
        // One file per application, matched without case; the newer save replaced it.
        let apps: Vec<String> = store.list().unwrap().into_iter().map(|p| p.app).collect();
        assert_eq!(apps, vec!["kshisen", "llk"]);
        assert_eq!(store.load("KSHISEN").unwrap(), Some(newer));
        assert!(store.forget("kshisen").unwrap());
        assert!(!store.forget("kshisen").unwrap());
        assert_eq!(store.list().unwrap().len(), 1);
        std::fs::remove_dir_all(store.dir()).unwrap();
    }

    #[test]
    fn names_become_safe_file_names_and_an_empty_one_is_refused() {
        let store = ProfileStore::at("/p");
        assert_eq!(
            store.path("../Evil Game/1").unwrap(),
            PathBuf::from("/p/.._evil_game_1.json")
        );
        assert!(matches!(store.path("  "), Err(ProfileError::BadName(_))));
        assert!(matches!(store.path(".."), Err(ProfileError::BadName(_))));
    }

    #[test]
    fn a_corrupt_file_is_named_in_the_error() {
        let store = temp_store("corrupt");
        std::fs::create_dir_all(store.dir()).unwrap();
        std::fs::write(store.dir().join("game.json"), "{ not json").unwrap();
        let e = store.load("game").unwrap_err().to_string();
        assert!(
            e.contains("game.json") && e.contains("not a profile"),
            "{e}"
        );
        assert!(store.list().is_err());
        std::fs::remove_dir_all(store.dir()).unwrap();
    }
}
