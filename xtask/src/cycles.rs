//! `cargo xtask cycles`: fails when a module of a workspace crate imports a module that imports it
//! back (directly or around a longer loop). Cargo already forbids cycles between crates; this keeps
//! the files inside each crate layered too, so a stage never reaches up into the code that drives it.
//!
//! The graph is read from the source text, file by file (a file is one module): an arrow A -> B
//! when A names, through `crate::`, `super::` or `self::` paths (in `use` items or inline), an item
//! that B defines. Re-exports are followed to the file that defines the item, so a parent module
//! that hands its children's names on (`pub use child::Name`) is not a link in a loop. Test modules
//! (`#[cfg(test)] mod ... { ... }`) are left out: tests may reach anywhere.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

pub fn run() -> Result<(), String> {
    let root = workspace_root();
    let cycles = find_cycles(&root)?;
    if cycles.is_empty() {
        println!("no import cycles");
        return Ok(());
    }
    for c in &cycles {
        println!("cycle: {}", c.join(" -> "));
    }
    Err(format!("{} import cycle(s)", cycles.len()))
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// Every loop of module imports in the workspace's crates, each as the list of files on it.
pub fn find_cycles(root: &Path) -> Result<Vec<Vec<String>>, String> {
    let mut out = Vec::new();
    for src in crate_sources(root)? {
        let krate = Crate::read(&src)?;
        for comp in krate.strongly_connected() {
            let mut names: Vec<String> = comp
                .iter()
                .map(|m| {
                    let f = &krate.files[m];
                    f.strip_prefix(root).unwrap_or(f).display().to_string()
                })
                .collect();
            names.sort();
            out.push(names);
        }
    }
    Ok(out)
}

/// The `src` folders of the workspace's crates (those with a `Cargo.toml` beside them).
fn crate_sources(root: &Path) -> Result<Vec<PathBuf>, String> {
    let mut v = vec![root.join("src")];
    let entries = std::fs::read_dir(root).map_err(|e| format!("{}: {e}", root.display()))?;
    for e in entries.flatten() {
        let p = e.path();
        if p.join("Cargo.toml").is_file() && p.join("src").is_dir() {
            v.push(p.join("src"));
        }
    }
    v.sort();
    Ok(v)
}

/// A module path inside one crate: `["passes", "util"]`; the root is `[]`.
type ModPath = Vec<String>;

struct Crate {
    /// Module -> its file.
    files: BTreeMap<ModPath, PathBuf>,
    /// Module -> names it defines (items and child modules).
    defs: BTreeMap<ModPath, BTreeSet<String>>,
    /// Module -> re-exported name -> the path it names (`*` entries: the glob re-exports).
    reexports: BTreeMap<ModPath, BTreeMap<String, Vec<String>>>,
    /// Module -> the modules it re-exports whole (`pub use child::*`).
    globs: BTreeMap<ModPath, Vec<Vec<String>>>,
    /// Module -> the `crate`/`super`/`self` paths it mentions, as absolute module-relative paths.
    mentions: BTreeMap<ModPath, Vec<Vec<String>>>,
}

impl Crate {
    fn read(src: &Path) -> Result<Crate, String> {
        let mut c = Crate {
            files: BTreeMap::new(),
            defs: BTreeMap::new(),
            reexports: BTreeMap::new(),
            globs: BTreeMap::new(),
            mentions: BTreeMap::new(),
        };
        let mut texts = Vec::new();
        let mut stack = vec![src.to_path_buf()];
        while let Some(dir) = stack.pop() {
            let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            for e in entries.flatten() {
                let p = e.path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    let m = module_of(src, &p);
                    let text =
                        std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?;
                    c.files.insert(m.clone(), p);
                    texts.push((m, without_test_modules(&strip_comments(&text))));
                }
            }
        }
        // Every module is known before any path is read: `use child::X` names a module.
        for (m, text) in texts {
            c.add(m, &text);
        }
        Ok(c)
    }

    /// Reads the names module `m` defines and the paths it mentions (its file is already known).
    fn add(&mut self, m: ModPath, text: &str) {
        let mut defs = BTreeSet::new();
        let mut reexports = BTreeMap::new();
        let mut globs = Vec::new();
        let mut mentions = Vec::new();
        for stmt in use_statements(text) {
            let public = stmt.starts_with("pub");
            for path in expand_use(stmt.trim_start_matches("pub").trim_start_matches("(crate)")) {
                let (name, path) = match path.iter().position(|s| s == " as ") {
                    Some(i) => (path[i + 1].clone(), path[..i].to_vec()),
                    None => (path.last().cloned().unwrap_or_default(), path),
                };
                if let Some(abs) = absolute(&m, &path, &self.files) {
                    if public && name == "*" {
                        globs.push(abs[..abs.len() - 1].to_vec());
                        continue;
                    }
                    if public && name != "self" {
                        reexports.insert(name, abs.clone());
                    }
                    mentions.push(abs);
                }
            }
        }
        for p in inline_paths(text) {
            if let Some(abs) = absolute(&m, &p, &self.files) {
                mentions.push(abs);
            }
        }
        for name in item_names(text) {
            defs.insert(name);
        }
        self.defs.insert(m.clone(), defs);
        self.reexports.insert(m.clone(), reexports);
        self.globs.insert(m.clone(), globs);
        self.mentions.insert(m, mentions);
    }

    /// The module whose file defines what `path` names (following re-exports), if any.
    fn target(&self, path: &[String], depth: usize) -> Option<ModPath> {
        if depth > 16 {
            return None;
        }
        // The longest prefix that is a module.
        let mut k = path.len();
        while k > 0 && !self.files.contains_key(&path[..k]) {
            k -= 1;
        }
        let module = path[..k].to_vec();
        let Some(name) = path.get(k) else {
            return Some(module);
        };
        if let Some(to) = self.reexports.get(&module).and_then(|r| r.get(name)) {
            let mut to = to.clone();
            to.extend_from_slice(&path[k + 1..]);
            return self.target(&to, depth + 1).or(Some(module));
        }
        if !self.defs.get(&module).is_some_and(|d| d.contains(name)) {
            for g in self.globs.get(&module).into_iter().flatten() {
                if self.defs.get(g).is_some_and(|d| d.contains(name)) {
                    let mut to = g.clone();
                    to.extend_from_slice(&path[k..]);
                    return self.target(&to, depth + 1);
                }
            }
        }
        Some(module)
    }

    fn edges(&self) -> BTreeMap<ModPath, BTreeSet<ModPath>> {
        let mut g: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
        for (m, ms) in &self.mentions {
            let out = g.entry(m.clone()).or_default();
            for p in ms {
                if let Some(t) = self.target(p, 0) {
                    // A module's own children are its parts, not its imports; a child naming
                    // its ancestors' items is the arrow that counts.
                    if &t != m && !t.starts_with(m) {
                        out.insert(t);
                    }
                }
            }
        }
        g
    }

    /// Strongly connected components with more than one module (Tarjan's algorithm).
    fn strongly_connected(&self) -> Vec<Vec<ModPath>> {
        let g = self.edges();
        let nodes: Vec<&ModPath> = g.keys().collect();
        let index_of: BTreeMap<&ModPath, usize> =
            nodes.iter().enumerate().map(|(i, m)| (*m, i)).collect();
        let succ: Vec<Vec<usize>> = nodes
            .iter()
            .map(|m| {
                g[*m]
                    .iter()
                    .filter_map(|t| index_of.get(t).copied())
                    .collect()
            })
            .collect();
        let n = nodes.len();
        let (mut index, mut low, mut on) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
        let (mut stack, mut next, mut comps) = (Vec::new(), 0, Vec::new());
        for start in 0..n {
            if index[start] != usize::MAX {
                continue;
            }
            // Iterative depth-first search: (node, next successor to visit).
            let mut work = vec![(start, 0usize)];
            index[start] = next;
            low[start] = next;
            next += 1;
            stack.push(start);
            on[start] = true;
            while let Some(&mut (v, ref mut i)) = work.last_mut() {
                if let Some(&w) = succ[v].get(*i) {
                    *i += 1;
                    if index[w] == usize::MAX {
                        index[w] = next;
                        low[w] = next;
                        next += 1;
                        stack.push(w);
                        on[w] = true;
                        work.push((w, 0));
                    } else if on[w] {
                        low[v] = low[v].min(index[w]);
                    }
                    continue;
                }
                work.pop();
                if let Some(&(u, _)) = work.last() {
                    low[u] = low[u].min(low[v]);
                }
                if low[v] == index[v] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on[w] = false;
                        comp.push(nodes[w].clone());
                        if w == v {
                            break;
                        }
                    }
                    if comp.len() > 1 {
                        comps.push(comp);
                    }
                }
            }
        }
        comps
    }
}

fn module_of(src: &Path, file: &Path) -> ModPath {
    let rel = file.strip_prefix(src).unwrap_or(file);
    let mut parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    parts
}

/// `path` (as written in module `m`) made absolute from the crate root; `None` for paths into other
/// crates.
fn absolute(
    m: &ModPath,
    path: &[String],
    files: &BTreeMap<ModPath, PathBuf>,
) -> Option<Vec<String>> {
    let mut base: Vec<String>;
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => {
            base = Vec::new();
            rest = &path[1..];
        }
        Some("self") => {
            base = m.clone();
            rest = &path[1..];
        }
        Some("super") => {
            base = m.clone();
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        Some(first) => {
            // A path that starts at a child module of `m` (`use child::Name`).
            let mut child = m.clone();
            child.push(first.to_string());
            if !files.contains_key(&child) {
                return None;
            }
            base = m.clone();
        }
        None => return None,
    }
    base.extend(rest.iter().filter(|s| *s != "self").cloned());
    Some(base)
}

/// Removes comments (`//`, doc and `/* */`) and the contents of string literals (plain, byte and
/// raw, including those that run over several lines), so paths in prose or strings are not read as
/// imports. Line breaks are kept, so the text keeps its line structure.
fn strip_comments(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let ident = |c: Option<&char>| c.is_some_and(|c| c.is_alphanumeric() || *c == '_');
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let ch = chars[i];
        let next = chars.get(i + 1).copied();
        if ch == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        }
        if ch == '/' && next == Some('*') {
            let mut depth = 0usize;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if chars[i] == '\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
            continue;
        }
        // A raw string: `r"..."`, `r#"..."#`, `br"..."` (the `r` starts a token).
        let raw_start = ch == 'r'
            && (!ident(i.checked_sub(1).and_then(|j| chars.get(j)))
                || (chars[i - 1] == 'b' && !ident(i.checked_sub(2).and_then(|j| chars.get(j)))));
        if raw_start {
            let mut j = i + 1;
            while chars.get(j) == Some(&'#') {
                j += 1;
            }
            if chars.get(j) == Some(&'"') {
                let hashes = j - i - 1;
                out.push('"');
                j += 1;
                while j < chars.len() {
                    if chars[j] == '"' && (1..=hashes).all(|k| chars.get(j + k) == Some(&'#')) {
                        j += 1 + hashes;
                        break;
                    }
                    if chars[j] == '\n' {
                        out.push('\n');
                    }
                    j += 1;
                }
                out.push('"');
                i = j;
                continue;
            }
        }
        if ch == '"' {
            out.push('"');
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                // An escape is two characters; a `\` at a line's end continues the string.
                let step = if chars[i] == '\\' { 2 } else { 1 };
                if chars[i..(i + step).min(chars.len())].contains(&'\n') {
                    out.push('\n');
                }
                i += step;
            }
            out.push('"');
            i += 1;
            continue;
        }
        // A character literal (`'"'`, `'\''`, `'{'`); a lifetime (`'a`) is kept as it is.
        if ch == '\'' {
            if next == Some('\\') {
                let mut j = i + 2;
                while j < chars.len() && chars[j] != '\'' {
                    j += 1;
                }
                if chars.get(i + 2) == Some(&'\'') {
                    j = i + 3;
                    while j < chars.len() && chars[j] != '\'' {
                        j += 1;
                    }
                }
                out.push_str("' '");
                i = j + 1;
                continue;
            }
            if chars.get(i + 2) == Some(&'\'') {
                out.push_str("' '");
                i += 3;
                continue;
            }
        }
        out.push(ch);
        i += 1;
    }
    out
}

/// The text without `#[cfg(test)]` (or `#[cfg(all(test, ..))]`) items (test modules, test-only
/// functions).
fn without_test_modules(text: &str) -> String {
    let test_attr = |t: &str| {
        ["#[cfg(test)]", "#[cfg(all(test,"]
            .iter()
            .filter_map(|p| t.find(p))
            .min()
    };
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = test_attr(rest) {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        // Skip to the item's end: its first `;` before any `{`, or its balanced braces.
        let open = after.find('{');
        let semi = after.find(';');
        let end = match (open, semi) {
            (Some(o), Some(s)) if s < o => s + 1,
            (Some(o), _) => {
                let mut depth = 0usize;
                let mut end = after.len();
                for (i, ch) in after[o..].char_indices() {
                    match ch {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = o + i + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            (None, Some(s)) => s + 1,
            (None, None) => after.len(),
        };
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// The text of each `use ...;` item (with its `pub` prefix, if any), on one line.
fn use_statements(text: &str) -> Vec<String> {
    let mut v = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(at) = text[i..].find("use ") {
        let at = i + at;
        let word_start =
            at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
        let Some(end) = text[at..].find(';') else {
            break;
        };
        if word_start {
            let head = text[..at].trim_end();
            let public = head.ends_with("pub") || head.ends_with("pub(crate)");
            let body: String = text[at + 4..at + end]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            v.push(if public { format!("pub {body}") } else { body });
        }
        i = at + end + 1;
    }
    v
}

/// The paths a `use` tree names: `a::{b, c::d as e}` -> `[a, b]`, `[a, c, d, " as ", e]`.
fn expand_use(tree: &str) -> Vec<Vec<String>> {
    fn go(prefix: &[String], tree: &str, out: &mut Vec<Vec<String>>) {
        let tree = tree.trim();
        if tree.is_empty() {
            return;
        }
        if let Some(open) = tree.find('{') {
            let head: Vec<String> = tree[..open]
                .split("::")
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from)
                .collect();
            let mut p = prefix.to_vec();
            p.extend(head);
            // A `}` before the `{` is not a use tree (text that merely reads like `use ...`).
            let close = tree.rfind('}').filter(|&c| c > open).unwrap_or(tree.len());
            let inner = &tree[open + 1..close];
            let mut depth = 0;
            let mut start = 0;
            for (i, ch) in inner.char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        go(&p, &inner[start..i], out);
                        start = i + 1;
                    }
                    _ => {}
                }
            }
            go(&p, &inner[start..], out);
            return;
        }
        let mut p = prefix.to_vec();
        let (path, alias) = match tree.split_once(" as ") {
            Some((a, b)) => (a, Some(b.trim())),
            None => (tree, None),
        };
        p.extend(
            path.split("::")
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(String::from),
        );
        if let Some(a) = alias {
            p.push(" as ".into());
            p.push(a.into());
        }
        out.push(p);
    }
    let mut out = Vec::new();
    go(&[], tree, &mut out);
    out
}

/// `crate::a::b`, `super::c`, `self::d` paths written inline (outside `use` items).
fn inline_paths(text: &str) -> Vec<Vec<String>> {
    let mut v = Vec::new();
    for start in ["crate::", "super::", "self::"] {
        let mut i = 0;
        while let Some(at) = text[i..].find(start) {
            let at = i + at;
            let before = text[..at].chars().next_back();
            i = at + start.len();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$') {
                continue;
            }
            let path: String = text[at..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            v.push(
                path.split("::")
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect(),
            );
        }
    }
    v
}

/// Names of the items a file defines at any depth (functions, types, traits, constants, statics,
/// modules, macros): enough to tell which file a path ends in.
fn item_names(text: &str) -> Vec<String> {
    let mut v = Vec::new();
    let keywords = [
        "fn ",
        "struct ",
        "enum ",
        "trait ",
        "type ",
        "const ",
        "static ",
        "mod ",
        "union ",
        "macro_rules! ",
    ];
    for line in text.lines() {
        let t = line.trim_start();
        for k in keywords {
            if let Some(pos) = t.find(k) {
                let head = &t[..pos];
                if !head.split_whitespace().all(|w| {
                    w.starts_with("pub") || matches!(w, "unsafe" | "const" | "async" | "extern")
                }) {
                    continue;
                }
                let name: String = t[pos + k.len()..]
                    .trim_start_matches("mut ")
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() {
                    v.push(name);
                }
            }
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A loop through a parent's own item is found; one through a name the parent only hands on is
    /// not (it ends in the child that defines it).
    #[test]
    fn finds_loops_and_follows_reexports() {
        let mut c = Crate {
            files: BTreeMap::new(),
            defs: BTreeMap::new(),
            reexports: BTreeMap::new(),
            globs: BTreeMap::new(),
            mentions: BTreeMap::new(),
        };
        let m = |s: &str| -> ModPath {
            s.split('/')
                .filter(|x| !x.is_empty())
                .map(String::from)
                .collect()
        };
        for f in ["", "a", "b"] {
            c.files.insert(m(f), format!("{f}.rs").into());
        }
        c.add(m(""), "pub mod a;\npub mod b;\npub use a::Thing;\n");
        c.add(m("a"), "use crate::b::helper;\npub struct Thing;\n");
        c.add(m("b"), "use crate::Thing;\npub fn helper() {}\n");
        let comps = c.strongly_connected();
        assert_eq!(comps.len(), 1, "{comps:?}");
        let mut got: Vec<String> = comps[0].iter().map(|p| p.join("::")).collect();
        got.sort();
        assert_eq!(got, ["a", "b"]);

        c.add(m("b"), "pub fn helper() {}\n");
        assert!(c.strongly_connected().is_empty());
    }

    /// No crate of the workspace has a loop of module imports (host-runtime's backends sit below
    /// one dispatch point, the compiler's front end below its layout tables, and so on).
    #[test]
    fn the_workspace_has_no_import_cycles() {
        let cycles = find_cycles(&workspace_root()).unwrap();
        assert!(cycles.is_empty(), "{cycles:?}");
    }

    #[test]
    fn use_trees_expand() {
        let got = expand_use("crate::a::{b, c::{d, e as f}, self}");
        let want: Vec<Vec<String>> = vec![
            vec!["crate", "a", "b"],
            vec!["crate", "a", "c", "d"],
            vec!["crate", "a", "c", "e", " as ", "f"],
            vec!["crate", "a", "self"],
        ]
        .into_iter()
        .map(|v| v.into_iter().map(String::from).collect())
        .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn text_that_reads_like_a_use_tree_is_no_panic() {
        // From a message in kernel-macros: "... or use `wrapping_{op}` / `saturating_{op}` ...",
        // where the scan finds a `}` before the `{`.
        let _ = expand_use("op}` / `saturating_{op");
    }

    #[test]
    fn test_modules_and_comments_are_left_out() {
        let t = "use crate::x;\n// use crate::y;\n#[cfg(test)]\nmod tests {\n use crate::z;\n}\n";
        let s = without_test_modules(&strip_comments(t));
        assert!(s.contains("crate::x") && !s.contains("crate::y") && !s.contains("crate::z"));
    }

    /// Strings that run over several lines (a `\` continuation, raw strings) and block comments
    /// are not code: a `use` or a brace inside them is neither an import nor a tree.
    #[test]
    fn strings_over_lines_and_block_comments_are_left_out() {
        let t = concat!(
            "use crate::x;\n",
            "const A: &str = \"one \\\n  use `wrapping_{op}` / \\\n  `saturating_{op}` here\";\n",
            "const B: &str = r#\"use crate::y; \"quoted\" {\n}\"#;\n",
            "/* use crate::z;\n */ const C: char = '\"'; const D: char = '\\'';\n",
            "fn f<'a>(s: &'a str) {}\nuse crate::w;\n",
        );
        let s = strip_comments(t);
        assert_eq!(s.lines().count(), t.lines().count());
        let uses = use_statements(&s);
        assert_eq!(uses, ["crate::x", "crate::w"], "{s}");
        for u in &uses {
            expand_use(u);
        }
        // A use tree whose only brace closes before it opens does not slice backwards.
        assert_eq!(expand_use("a::b} {c"), [vec!["a", "b}", "c"]]);
    }
}
