//! Picking the game window from the list of windows: by part of its title or of its
//! application (class) name, or by its id.
//!
//! Pure: it works on [`WindowInfo`] rows, so the rules are tested without a display.

use super::WindowInfo;
use std::fmt;

/// Which window the user asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WindowQuery {
    /// Part of the title or of the application name, case-insensitive.
    Name(String),
    /// The window id as `llk windows` lists it.
    Id(u32),
}

impl fmt::Display for WindowQuery {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WindowQuery::Name(n) => write!(f, "{n:?}"),
            WindowQuery::Id(id) => write!(f, "id {id}"),
        }
    }
}

/// Why no single window was chosen. Each variant keeps the windows it is about, so the
/// message can list them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChooseError {
    /// No visible window matches; `windows` are all the visible ones.
    NoMatch {
        /// What was asked for.
        query: WindowQuery,
        /// Every visible window.
        windows: Vec<WindowInfo>,
    },
    /// Several windows match equally well.
    Several {
        /// What was asked for.
        query: WindowQuery,
        /// The windows that match equally well.
        matches: Vec<WindowInfo>,
    },
    /// The window with this id is minimized: nothing of it can be captured.
    Minimized(WindowInfo),
}

/// One window as a line of a list: id, title and application.
fn line(w: &WindowInfo) -> String {
    format!("  {:>10}  {:?} (app {:?})", w.id, w.title, w.app)
}

impl fmt::Display for ChooseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChooseError::NoMatch { query, windows } => {
                match query {
                    WindowQuery::Name(_) => {
                        write!(f, "no window's title or application name contains {query}")?
                    }
                    WindowQuery::Id(_) => write!(f, "no visible window has {query}")?,
                }
                if windows.is_empty() {
                    write!(f, "; no windows are visible")
                } else {
                    write!(f, "; windows:")?;
                    windows.iter().try_for_each(|w| write!(f, "\n{}", line(w)))
                }
            }
            ChooseError::Several { query, matches } => {
                write!(f, "{} windows match {query}:", matches.len())?;
                matches
                    .iter()
                    .try_for_each(|w| write!(f, "\n{}", line(w)))?;
                write!(f, "\npick one with --window-id ID")
            }
            ChooseError::Minimized(w) => write!(
                f,
                "window {} {:?} is minimized; restore it first",
                w.id, w.title
            ),
        }
    }
}

impl std::error::Error for ChooseError {}

/// Whether `w` matches a name query: its title or its application name contains `needle`
/// (already lower-case).
fn matches_name(w: &WindowInfo, needle: &str) -> bool {
    w.title.to_lowercase().contains(needle) || w.app.to_lowercase().contains(needle)
}

/// Whether `w`'s title or application name is `needle` exactly (ignoring case).
fn equals_name(w: &WindowInfo, needle: &str) -> bool {
    w.title.to_lowercase() == needle || w.app.to_lowercase() == needle
}

/// Chooses the one window `query` names among `windows`. Minimized windows are skipped by a
/// name; of several name matches, the only one whose title or application name equals the
/// query wins; otherwise all the matches are returned in the error, with their ids.
pub fn choose<'w>(
    windows: &'w [WindowInfo],
    query: &WindowQuery,
) -> Result<&'w WindowInfo, ChooseError> {
    let visible: Vec<&WindowInfo> = windows.iter().filter(|w| !w.minimized).collect();
    let no_match = || ChooseError::NoMatch {
        query: query.clone(),
        windows: visible.iter().map(|w| (*w).clone()).collect(),
    };
    match query {
        WindowQuery::Id(id) => match windows.iter().find(|w| w.id == *id) {
            Some(w) if w.minimized => Err(ChooseError::Minimized(w.clone())),
            Some(w) => Ok(w),
            None => Err(no_match()),
        },
        WindowQuery::Name(name) => {
            let needle = name.to_lowercase();
            let hits: Vec<&WindowInfo> = visible
                .iter()
                .copied()
                .filter(|w| matches_name(w, &needle))
                .collect();
            let exact: Vec<&WindowInfo> = hits
                .iter()
                .copied()
                .filter(|w| equals_name(w, &needle))
                .collect();
            match (hits.as_slice(), exact.as_slice()) {
                ([], _) => Err(no_match()),
                ([one], _) | (_, [one]) => Ok(one),
                (many, _) => Err(ChooseError::Several {
                    query: query.clone(),
                    matches: many.iter().map(|w| (*w).clone()).collect(),
                }),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn win(id: u32, title: &str, app: &str) -> WindowInfo {
        WindowInfo {
            id,
            pid: 100 + id,
            title: title.into(),
            app: app.into(),
            x: 0,
            y: 0,
            width: 640,
            height: 480,
            minimized: false,
        }
    }

    fn name(s: &str) -> WindowQuery {
        WindowQuery::Name(s.into())
    }

    #[test]
    fn a_window_with_an_empty_title_is_found_by_its_application_name() {
        let list = [win(1, "Terminal", "xterm"), win(2, "", "XLogo")];
        assert_eq!(choose(&list, &name("xlogo")).unwrap().id, 2);
        assert_eq!(choose(&list, &name("logo")).unwrap().id, 2);
    }

    #[test]
    fn the_title_still_matches_in_any_case() {
        let list = [win(1, "Shisen-Sho", "kshisen"), win(2, "Terminal", "xterm")];
        assert_eq!(choose(&list, &name("shisen-SHO")).unwrap().id, 1);
        assert_eq!(choose(&list, &name("KShisen")).unwrap().id, 1);
    }

    #[test]
    fn several_matches_are_listed_with_their_ids() {
        let list = [
            win(11, "LLK practice", "llk"),
            win(12, "LLK practice 2", "llk"),
            win(13, "Editor", "gedit"),
        ];
        let err = choose(&list, &name("practice")).unwrap_err();
        let ChooseError::Several { matches, .. } = &err else {
            panic!("{err:?}");
        };
        assert_eq!(matches.iter().map(|w| w.id).collect::<Vec<_>>(), [11, 12]);
        let text = err.to_string();
        assert!(text.contains("2 windows match"), "{text}");
        assert!(text.contains("11") && text.contains("12"), "{text}");
        assert!(text.contains("--window-id"), "{text}");
    }

    #[test]
    fn two_windows_with_one_title_need_an_id() {
        let list = [
            win(21, "LLK practice", "llk"),
            win(22, "LLK practice", "llk"),
        ];
        let err = choose(&list, &name("LLK practice")).unwrap_err();
        assert!(matches!(err, ChooseError::Several { .. }), "{err:?}");
        // No more of the title can tell them apart: the message lists both ids and the
        // option that takes one (`llk play` and `llk slide play` both have it).
        let text = err.to_string();
        assert!(text.contains("21") && text.contains("22"), "{text}");
        assert!(text.contains("--window-id"), "{text}");
        assert_eq!(choose(&list, &WindowQuery::Id(22)).unwrap().id, 22);
    }

    #[test]
    fn an_exact_title_or_application_name_wins_over_substrings() {
        let list = [
            win(1, "LLK practice", "llk"),
            win(2, "LLK practice 2", "llk"),
        ];
        assert_eq!(choose(&list, &name("llk practice")).unwrap().id, 1);
        let list = [
            win(3, "Mines", "sgt-mines"),
            win(4, "sgt-mines help", "yelp"),
        ];
        assert_eq!(choose(&list, &name("sgt-mines")).unwrap().id, 3);
    }

    #[test]
    fn minimized_windows_are_skipped_by_name_and_refused_by_id() {
        let mut hidden = win(5, "LLK practice", "llk");
        hidden.minimized = true;
        let list = [hidden, win(6, "LLK practice", "llk")];
        assert_eq!(choose(&list, &name("practice")).unwrap().id, 6);
        assert!(matches!(
            choose(&list, &WindowQuery::Id(5)),
            Err(ChooseError::Minimized(_))
        ));
    }

    #[test]
    fn no_match_lists_the_visible_windows() {
        let list = [win(7, "Terminal", "xterm")];
        let err = choose(&list, &name("shisen")).unwrap_err();
        let text = err.to_string();
        assert!(text.contains("title or application name"), "{text}");
        assert!(
            text.contains("Terminal") && text.contains("xterm"),
            "{text}"
        );
        let err = choose(&list, &WindowQuery::Id(99)).unwrap_err().to_string();
        assert!(err.contains("id 99"), "{err}");
        let err = choose(&[], &name("x")).unwrap_err().to_string();
        assert!(err.contains("no windows are visible"), "{err}");
    }
}
