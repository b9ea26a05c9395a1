//! The compile-fail harness: builds every `tests/ui/*.rs` case as a binary of one scratch package
//! (`cargo check --message-format=json`), and compares, per case, what we own in its errors with
//! `tests/ui/NAME.expected`:
//!
//! * the level and rustc's error code (`error[E0277]`),
//! * the message (ours: from the macros' `syn::Error`s and `#[diagnostic::on_unimplemented]`),
//! * where it points (`--> tests/ui/NAME.rs:LINE:COL`),
//! * labels, notes and helps whose text is ours (it occurs in `kernel-macros/src` or
//!   `kernel-std/src`).
//!
//! rustc's own prose (its help and notes, the "required by a bound" chain, the rendering of
//! source excerpts), the order and repetition of its errors, and warnings are not compared, so
//! a new stable rustc that rewords them cannot fail the suite. `FERROCUDA_UI_BLESS=1` rewrites the `.expected` files from the current output.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value as Json;

/// One error as the harness compares it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diag {
    /// `error` or `error[E0277]`.
    pub head: String,
    pub message: String,
    /// `tests/ui/NAME.rs:LINE:COL`.
    pub at: String,
    /// `label: ...`, `note: ...`, `help: ...` whose text is ours.
    pub ours: Vec<String>,
}

impl std::fmt::Display for Diag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{}: {}", self.head, self.message)?;
        writeln!(f, " --> {}", self.at)?;
        for o in &self.ours {
            writeln!(f, "  = {o}")?;
        }
        Ok(())
    }
}

/// The text of every diagnostic we write: the sources of the macros and of the device standard
/// library, with Rust's string continuations (`\` at the end of a line) and `\"` undone, so a
/// message split over source lines is found whole.
fn our_texts(crate_dir: &Path) -> String {
    fn walk(dir: &Path, out: &mut String) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push_str(&std::fs::read_to_string(&p).unwrap());
            }
        }
    }
    let mut raw = String::new();
    walk(&crate_dir.join("src"), &mut raw);
    walk(&crate_dir.join("../kernel-std/src"), &mut raw);
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.peek() {
                Some('\n') => {
                    while chars.peek().is_some_and(|c| c.is_whitespace()) {
                        chars.next();
                    }
                    continue;
                }
                Some('"') => {
                    out.push('"');
                    chars.next();
                    continue;
                }
                _ => {}
            }
        }
        out.push(c);
    }
    out
}

/// The primary span of a diagnostic, followed out of macro expansions to the case's own file.
fn primary_at(msg: &Json, case_file: &Path) -> Option<String> {
    let span = msg["spans"]
        .as_array()
        .map_or(&[][..], |a| a)
        .iter()
        .find(|s| s["is_primary"].as_bool() == Some(true))?;
    let mut s = span;
    loop {
        let file = PathBuf::from(s["file_name"].as_str()?);
        if file.ends_with(case_file.file_name()?) || s["expansion"].is_null() {
            let line = s["line_start"].as_u64()?;
            let col = s["column_start"].as_u64()?;
            let name = case_file.file_name()?.to_string_lossy();
            let shown = if file.ends_with(&*name) {
                format!("tests/ui/{name}")
            } else {
                file.display().to_string()
            };
            return Some(format!("{shown}:{line}:{col}"));
        }
        s = &s["expansion"]["span"];
    }
}

pub fn diag(msg: &Json, case_file: &Path, ours: &str) -> Option<Diag> {
    if msg["level"].as_str()? != "error" {
        return None;
    }
    // "aborting due to N previous errors" and the like carry no span.
    let at = primary_at(msg, case_file)?;
    let head = match msg["code"]["code"].as_str() {
        Some(code) => format!("error[{code}]"),
        None => "error".to_string(),
    };
    let mut own = Vec::new();
    for s in msg["spans"].as_array().map_or(&[][..], |a| a) {
        if let (true, Some(label)) = (s["is_primary"].as_bool() == Some(true), s["label"].as_str())
        {
            if ours.contains(label) {
                own.push(format!("label: {label}"));
            }
        }
    }
    for c in msg["children"].as_array().map_or(&[][..], |a| a) {
        let (Some(level), Some(text)) = (c["level"].as_str(), c["message"].as_str()) else {
            continue;
        };
        if !text.is_empty() && ours.contains(text) {
            own.push(format!("{level}: {text}"));
        }
    }
    Some(Diag {
        head,
        message: msg["message"].as_str()?.to_string(),
        at,
        ours: own,
    })
}

/// Builds every case of `crate_dir/tests/ui` and returns its errors, by case name.
pub fn build_cases(crate_dir: &Path, scratch: &Path) -> BTreeMap<String, Vec<Diag>> {
    let ui = crate_dir.join("tests/ui");
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&ui)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    cases.sort();
    assert!(!cases.is_empty(), "no ui cases in {}", ui.display());
    let workspace = crate_dir.parent().unwrap().canonicalize().unwrap();

    std::fs::create_dir_all(scratch).unwrap();
    let mut toml = format!(
        "[package]\nname = \"kernel-macros-ui\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
         publish = false\n\n[dependencies]\nferrocuda = {{ path = {:?} }}\n\n[workspace]\n",
        workspace.display().to_string()
    );
    let mut by_bin = BTreeMap::new();
    for c in &cases {
        let name = c.file_stem().unwrap().to_string_lossy().into_owned();
        let bin = format!("ui_{name}");
        toml += &format!(
            "\n[[bin]]\nname = {bin:?}\npath = {:?}\ntest = false\ndoc = false\n",
            c.canonicalize().unwrap().display().to_string()
        );
        by_bin.insert(bin, (name, c.clone()));
    }
    std::fs::write(scratch.join("Cargo.toml"), toml).unwrap();
    // The workspace's lock file: the same dependency versions, and no resolution step.
    std::fs::copy(workspace.join("Cargo.lock"), scratch.join("Cargo.lock")).unwrap();

    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(scratch)
        .args([
            "check",
            "--bins",
            "--keep-going",
            "--message-format=json",
            "--quiet",
        ])
        .arg("--target-dir")
        .arg(scratch.join("target"))
        .env_remove("CARGO_TARGET_DIR")
        .output()
        .expect("running cargo");
    let stdout = String::from_utf8_lossy(&out.stdout);

    let ours = our_texts(crate_dir);
    let mut result: BTreeMap<String, Vec<Diag>> = by_bin
        .values()
        .map(|(n, _)| (n.clone(), Vec::new()))
        .collect();
    let mut elsewhere = Vec::new();
    for line in stdout.lines().filter(|l| l.starts_with('{')) {
        let v = serde_json::from_str::<Json>(line)
            .unwrap_or_else(|e| panic!("cargo's JSON: {e}: {line}"));
        if v["reason"].as_str() != Some("compiler-message") {
            continue;
        }
        let target = v["target"]["name"].as_str().unwrap_or_default();
        let msg = &v["message"];
        match by_bin.get(target) {
            Some((name, file)) => {
                if let Some(d) = diag(msg, file, &ours) {
                    result.get_mut(name).unwrap().push(d);
                }
            }
            None if msg["level"].as_str() == Some("error") => {
                elsewhere.push(msg["rendered"].as_str().unwrap_or_default().to_string())
            }
            None => {}
        }
    }
    assert!(
        elsewhere.is_empty(),
        "errors outside the ui cases (the crates themselves do not build):\n{}\n{}",
        elsewhere.join("\n"),
        String::from_utf8_lossy(&out.stderr)
    );
    result
}

/// `FILE:LINE:COL` as a key that orders lines and columns as numbers.
fn at_key(at: &str) -> (String, u64, u64) {
    let mut parts = at.rsplitn(3, ':');
    let col = parts.next().and_then(|c| c.parse().ok()).unwrap_or(0);
    let line = parts.next().and_then(|l| l.parse().ok()).unwrap_or(0);
    (parts.next().unwrap_or_default().to_string(), line, col)
}

/// Compares every case with its `.expected` file (or rewrites them under `FERROCUDA_UI_BLESS=1`).
pub fn check(crate_dir: &Path, scratch: &Path) {
    let bless = std::env::var("FERROCUDA_UI_BLESS").is_ok_and(|v| v == "1");
    let results = build_cases(crate_dir, scratch);
    let mut failures = Vec::new();
    for (name, diags) in &results {
        let path = crate_dir.join("tests/ui").join(format!("{name}.expected"));
        // rustc may report one unsatisfied bound once or twice, and in an order of its own
        // from build to build (trait errors of one item in particular): the comparison is over
        // the set of our diagnostics, in source order.
        let mut diags = diags.clone();
        diags.sort_by_key(|d| {
            (
                at_key(&d.at),
                d.head.clone(),
                d.message.clone(),
                d.ours.clone(),
            )
        });
        diags.dedup();
        let got: String = diags
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join("\n");
        if diags.is_empty() {
            failures.push(format!(
                "{name}: compiled without errors; a ui case must be rejected"
            ));
            continue;
        }
        if bless {
            std::fs::write(&path, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        if want.trim_end() != got.trim_end() {
            failures.push(format!(
                "{name}: expected ({}):\n{want}\ngot:\n{got}",
                path.display()
            ));
        }
    }
    println!("{} ui cases", results.len());
    assert!(
        failures.is_empty(),
        "{} of {} ui cases differ (FERROCUDA_UI_BLESS=1 rewrites the .expected files):\n\n{}",
        failures.len(),
        results.len(),
        failures.join("\n\n")
    );
}
