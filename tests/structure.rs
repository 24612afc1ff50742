//! The shape of the code, read from the `use` lines of src/: no cycle between modules, and
//! the code that opens windows (minifb, xcap, enigo at a file's top level, and whatever
//! imports such a file) stays in the few modules meant for it, so the pipeline's stages
//! build and run without a display.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every .rs file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file: src/agent/play.rs → ["agent", "play"]; src/agent/mod.rs and
/// src/lib.rs and src/main.rs name their folder's module. The binary's modules (main.rs,
/// cli/) are a crate of their own: their paths start with "bin".
fn module_of(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix("src").unwrap().with_extension("");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    if parts.first().map(String::as_str) == Some("main") {
        parts = vec!["bin".into()];
    } else if parts.first().map(String::as_str) == Some("cli") {
        parts.insert(0, "bin".into());
    }
    parts
}

/// The source a module's imports are read from: a trailing `#[cfg(test)] mod tests` is left
/// out (test code may use anything).
fn non_test_source(text: &str) -> &str {
    let mut at = text.len();
    let mut from = 0;
    while let Some(i) = text[from..].find("#[cfg(test)]") {
        let i = from + i;
        let rest = text[i + "#[cfg(test)]".len()..].trim_start();
        if rest.starts_with("mod tests") {
            at = i;
            break;
        }
        from = i + 1;
    }
    &text[..at]
}

/// The paths a `use` tree names: "a::{b, c::{d, e}}" → a::b, a::c::d, a::c::e.
fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
    let tree = tree.trim();
    let join = |p: &str, s: &str| {
        if p.is_empty() {
            s.to_string()
        } else {
            format!("{p}::{s}")
        }
    };
    match tree.find('{') {
        None => out.push(join(prefix, tree.trim_end_matches("::"))),
        Some(open) => {
            let head = tree[..open].trim_end_matches("::");
            let base = if head.is_empty() {
                prefix.to_string()
            } else {
                join(prefix, head)
            };
            let inner = &tree[open + 1..tree.rfind('}').unwrap()];
            let (mut depth, mut start) = (0, 0);
            for (i, ch) in inner.char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        expand(&base, &inner[start..i], out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            if !inner[start..].trim().is_empty() {
                expand(&base, &inner[start..], out);
            }
        }
    }
}

/// Paths written inline (`super::slide_play::slide_game(…)`, `crate::vision::read(…)`):
/// each `crate::`, `super::` or `llk::` followed by `::`-joined names, comments left out.
fn inline_paths(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in src.lines() {
        let code = line.split("//").next().unwrap_or("");
        for root in ["crate::", "super::", "llk::"] {
            let mut from = 0;
            while let Some(i) = code[from..].find(root) {
                let i = from + i;
                from = i + root.len();
                let boundary = code[..i]
                    .chars()
                    .next_back()
                    .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == ':'));
                if !boundary {
                    continue;
                }
                let tail: String = code[i..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                    .collect();
                out.push(tail.trim_end_matches(':').to_string());
            }
        }
    }
    out
}

/// Every `use` tree of a source (one per statement, whitespace removed), with whether it
/// sits at the file's top level (not indented).
fn use_trees(src: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut rest = src;
    while let Some(i) = rest.find("use ") {
        let line_start = rest[..i].rfind('\n').map_or(0, |n| n + 1);
        let before = &rest[line_start..i];
        let is_stmt =
            before.trim().is_empty() || before.trim() == "pub" || before.trim().starts_with("pub(");
        let after = &rest[i + 4..];
        let Some(end) = after.find(';') else { break };
        if is_stmt {
            let tree: String = after[..end]
                .chars()
                .filter(|c| !c.is_whitespace())
                .collect();
            out.push((tree, !before.starts_with(' ')));
        }
        rest = &after[end..];
    }
    out
}

struct Graph {
    modules: BTreeSet<Vec<String>>,
    /// Module → modules it imports (the longest module path each import names).
    edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
    /// Modules whose file imports a display crate at its top level.
    display_roots: BTreeSet<Vec<String>>,
}

fn graph() -> Graph {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(f)).collect();
    let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    let mut display_roots = BTreeSet::new();
    for f in &files {
        let m = module_of(f);
        let text = std::fs::read_to_string(f).unwrap();
        // A whole file of tests, declared behind `#[cfg(test)]` by its parent.
        if f.file_name()
            .is_some_and(|n| n.to_string_lossy().ends_with("_tests.rs"))
        {
            continue;
        }
        let crate_root: Vec<String> = if m.first().map(String::as_str) == Some("bin") {
            vec!["bin".into()]
        } else {
            vec![]
        };
        let source = non_test_source(&text);
        let mut written: Vec<(String, bool)> = Vec::new();
        for (tree, top) in use_trees(source) {
            let mut paths = Vec::new();
            expand("", &tree, &mut paths);
            written.extend(paths.into_iter().map(|p| (p, top)));
        }
        written.extend(inline_paths(source).into_iter().map(|p| (p, false)));
        {
            for (p, top) in written {
                let segs: Vec<&str> = p.split("::").collect();
                if top && matches!(segs[0], "minifb" | "xcap" | "enigo") {
                    display_roots.insert(m.clone());
                }
                let mut target: Vec<String> = match segs[0] {
                    "crate" => crate_root.clone(),
                    "llk" => vec![],
                    "super" => {
                        // The parent module (a mod.rs file is its folder's module).
                        let mut base = m.clone();
                        base.pop();
                        base
                    }
                    _ => continue,
                };
                target.extend(segs[1..].iter().map(|s| s.to_string()));
                while !target.is_empty() && !modules.contains(&target) {
                    target.pop();
                }
                // An import of an ancestor or a descendant is a module's own tree.
                if target.is_empty() || target.starts_with(&m) || m.starts_with(&target) {
                    continue;
                }
                edges.entry(m.clone()).or_default().insert(target);
            }
        }
    }
    Graph {
        modules,
        edges,
        display_roots,
    }
}

fn name(m: &[String]) -> String {
    m.join("::")
}

/// The cycles of a directed graph, each as "a → b → a" (one per back edge of a depth-first
/// search, so none when the graph is acyclic).
fn cycles(
    nodes: &BTreeSet<Vec<String>>,
    edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
) -> Vec<String> {
    fn visit(
        u: &Vec<String>,
        edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        state: &mut BTreeMap<Vec<String>, u8>,
        stack: &mut Vec<Vec<String>>,
        cycles: &mut Vec<String>,
    ) {
        state.insert(u.clone(), 1);
        stack.push(u.clone());
        for v in edges.get(u).into_iter().flatten() {
            match state.get(v) {
                Some(1) => {
                    let at = stack.iter().position(|s| s == v).unwrap();
                    let mut c: Vec<String> = stack[at..].iter().map(|m| name(m)).collect();
                    c.push(name(v));
                    cycles.push(c.join(" → "));
                }
                None => visit(v, edges, state, stack, cycles),
                _ => {}
            }
        }
        stack.pop();
        state.insert(u.clone(), 2);
    }
    let mut state = BTreeMap::new();
    let mut found = Vec::new();
    for m in nodes {
        if !state.contains_key(m) {
            visit(m, edges, &mut state, &mut Vec::new(), &mut found);
        }
    }
    found
}

/// No cycle at any level of the module tree: between files (cli::live ↔ cli::slide_play),
/// and between the folders holding them, each folder taken as one node (board::gravity →
/// plan → board is a cycle between `board` and `plan` though no two files import each
/// other). A module importing its own ancestor or descendant is not an edge.
#[test]
fn no_module_imports_itself_through_others() {
    let g = graph();
    assert!(
        g.modules.len() > 60,
        "src/ was not found: run from the project root"
    );
    let deepest = g.modules.iter().map(Vec::len).max().unwrap_or(0);
    let mut found = Vec::new();
    for depth in 1..=deepest {
        let cut = |m: &Vec<String>| m[..m.len().min(depth)].to_vec();
        let nodes: BTreeSet<Vec<String>> = g.modules.iter().map(cut).collect();
        let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
        for (from, targets) in &g.edges {
            for to in targets {
                let (a, b) = (cut(from), cut(to));
                if !a.starts_with(&b) && !b.starts_with(&a) {
                    edges.entry(a).or_default().insert(b);
                }
            }
        }
        for c in cycles(&nodes, &edges) {
            if !found.contains(&c) {
                found.push(c);
            }
        }
    }
    assert!(found.is_empty(), "module cycles: {found:#?}");
}

#[test]
fn only_the_game_windows_and_the_command_line_reach_display_code() {
    let g = graph();
    // Display modules: those importing a display crate, and whatever imports one of them.
    let mut display = g.display_roots.clone();
    loop {
        let more: Vec<Vec<String>> = g
            .edges
            .iter()
            .filter(|(m, targets)| {
                !display.contains(*m) && targets.iter().any(|t| display.contains(t))
            })
            .map(|(m, _)| m.clone())
            .collect();
        if more.is_empty() {
            break;
        }
        display.extend(more);
    }
    let library: Vec<String> = display
        .iter()
        .filter(|m| m.first().map(String::as_str) != Some("bin"))
        .map(|m| name(m))
        .collect();
    assert_eq!(
        library,
        vec!["game::shell", "game::slide_window", "game::window"],
        "library modules that reach display code (minifb, xcap or enigo outside a \
         `live`-gated inner module)"
    );
}

/// Whether `text` holds `word` followed by a space (when `spaced`) and then `digits` or more
/// digits: "case0246", "session 14", "shot 5".
fn names_a_number(text: &str, word: &str, spaced: bool, digits: usize) -> bool {
    let lower = text.to_lowercase();
    lower.match_indices(word).any(|(i, _)| {
        let mut rest = &lower[i + word.len()..];
        if spaced {
            match rest.strip_prefix(' ') {
                Some(r) => rest = r,
                None => return false,
            }
        }
        rest.chars().take_while(|c| c.is_ascii_digit()).count() >= digits
    })
}

/// Source comments state behaviour and measured facts: none names a rendered fixture case
/// (`caseNNNN`), a session or a single screenshot by number (history goes to CHANGELOG.md
/// and to named tests). The fixture generator, which makes those names, is exempt.
#[test]
fn no_comment_names_a_fixture_case_a_session_or_a_shot() {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    let mut found = Vec::new();
    for f in files.iter().filter(|f| !f.ends_with("render/fixtures.rs")) {
        let text = std::fs::read_to_string(f).unwrap();
        for (n, line) in text.lines().enumerate() {
            let Some(at) = line.find("//") else { continue };
            let comment = &line[at..];
            if names_a_number(comment, "case", false, 4)
                || names_a_number(comment, "session", true, 1)
                || names_a_number(comment, "shot", true, 1)
            {
                found.push(format!("{}:{}: {}", f.display(), n + 1, comment.trim()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "comments that narrate history:\n{}",
        found.join("\n")
    );
}
