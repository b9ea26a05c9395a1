//! The filetest harness: every `kernel-compiler/tests/filetests/<pass>/*.ir` file is a kernel
//! in IR text, the pass (or passes, or the whole `pipeline`) to run over it, and the kernel the
//! pass must leave, all as `kernel_ir::print` writes them:
//!
//! ```text
//! ; What the test shows (any `;` line before `; expect:` is a comment or a directive).
//! ; pass: unroll, const_fold
//! ; options: checks=off fma=off sm=90
//! ; run: v0=64u64 v1=3u32
//! kernel t (tests::t)
//!   ...
//! {
//!   ...
//! }
//! ; expect:
//! kernel t (tests::t)
//!   ...
//! ```
//!
//! `; pass:` names passes as the pipeline does (`cargo xtask ptx --print-after` lists them),
//! or `pipeline` for all of them, or `remove_dead_values` / `coalesce_moves` (parts of `dce`).
//! Each `; run:` line runs the input and the output in the passes' test interpreter with those
//! parameter values and requires the same stores and panic. `FILETESTS_BLESS=1 cargo test -p
//! kernel-compiler filetests` rewrites every `; expect:` section with what the passes give.

use std::path::{Path, PathBuf};

use super::testkit::run;
use super::{dce, pipeline};
use crate::options::CompileOptions;
use crate::parse_ir;
use kernel_ir::ir::{Const, Kernel, Var};

const EXPECT: &str = "; expect:\n";

/// One filetest, read from its file.
struct FileTest {
    passes: Vec<String>,
    opts: CompileOptions,
    runs: Vec<Vec<(Var, Const)>>,
    input: Kernel,
    /// The file up to and including the `; expect:` line.
    head: String,
    expected: String,
}

fn read(path: &Path) -> Result<FileTest, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let (input_text, expected) = match text.split_once(EXPECT) {
        Some((i, e)) => (i, e.to_string()),
        None => (text.as_str(), String::new()),
    };
    let input = parse_ir(input_text).map_err(|e| format!("input: {e}"))?;
    let mut t = FileTest {
        passes: Vec::new(),
        opts: CompileOptions::default(),
        runs: Vec::new(),
        head: format!("{}\n{EXPECT}", input_text.trim_end()),
        expected,
        input,
    };
    for line in input_text.lines() {
        let Some(d) = line.strip_prefix("; ") else {
            continue;
        };
        if let Some(p) = d.strip_prefix("pass:") {
            t.passes = p.split(',').map(|s| s.trim().to_string()).collect();
        } else if let Some(o) = d.strip_prefix("options:") {
            for w in o.split_whitespace() {
                match w {
                    "checks=off" => t.opts.bounds_checks = false,
                    "fma=off" => t.opts.fma_contraction = false,
                    "markers=off" => t.opts.source_markers = false,
                    w => match w.strip_prefix("sm=").and_then(|n| n.parse().ok()) {
                        Some(sm) => t.opts.sm = sm,
                        None => return Err(format!("unknown option `{w}`")),
                    },
                }
            }
        } else if let Some(r) = d.strip_prefix("run:") {
            let mut args = Vec::new();
            for a in r.split_whitespace() {
                let (v, c) = a
                    .split_once('=')
                    .ok_or(format!("expected `vN=CONST`: {a}"))?;
                let v = Var(v
                    .strip_prefix('v')
                    .and_then(|n| n.parse().ok())
                    .ok_or(format!("expected `vN=CONST`: {a}"))?);
                args.push((v, kernel_ir::parse::constant(c)?));
            }
            t.runs.push(args);
        }
    }
    if t.passes.is_empty() {
        return Err("no `; pass:` line".into());
    }
    Ok(t)
}

/// Runs the named passes over `k`.
fn apply(passes: &[String], k: &mut Kernel, opts: &CompileOptions) -> Result<(), String> {
    for name in passes {
        match name.as_str() {
            "pipeline" => super::optimize(k, opts),
            "remove_dead_values" => {
                dce::remove_dead_values(k);
            }
            "coalesce_moves" => {
                dce::coalesce_moves(k);
            }
            n => {
                let pass = pipeline::pass_named(n).ok_or(format!("no pass named `{n}`"))?;
                pass.run(k, opts);
            }
        }
    }
    Ok(())
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|e| e == "ir") {
            out.push(p);
        }
    }
}

#[test]
fn filetests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/filetests");
    let bless = std::env::var_os("FILETESTS_BLESS").is_some_and(|v| v == "1");
    let mut paths = Vec::new();
    files(&root, &mut paths);
    assert!(!paths.is_empty(), "no filetests under {}", root.display());
    let mut failures = Vec::new();
    for path in &paths {
        let name = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .display()
            .to_string();
        let t = match read(path) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let mut k = t.input.clone();
        if let Err(e) = apply(&t.passes, &mut k, &t.opts) {
            failures.push(format!("{name}: {e}"));
            continue;
        }
        let got = k.to_string();
        for args in &t.runs {
            let (before, after) = (run(&t.input, args), run(&k, args));
            if !before.same_effects(&after) {
                failures.push(format!(
                    "{name}: with {args:?} the passes changed what the kernel does:\n\
                     before {before:?}\nafter  {after:?}"
                ));
            }
        }
        if got == t.expected {
            continue;
        }
        if bless {
            std::fs::write(path, format!("{}{got}", t.head)).expect("write blessed filetest");
        } else {
            failures.push(format!(
                "{name}: output differs (FILETESTS_BLESS=1 to accept it)\n--- got ---\n{got}\
                 --- expected ---\n{}",
                t.expected
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} filetests failed:\n\n{}",
        failures.len(),
        paths.len(),
        failures.join("\n\n")
    );
}
