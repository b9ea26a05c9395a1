//! `cargo xtask gpu-bundle`: everything the GPU suite needs, for a machine with a GPU and no Rust.
//!
//! Builds the workspace's test binaries, examples and this tool in release mode, copies the
//! executables (stripped) plus the CUDA C twins (the porting corpus's among them) and the peers'
//! Python scripts into one folder, and writes `run.sh`, which runs every test binary including the
//! `#[ignore]`d GPU tests and then the examples, and `sanitize.sh`, the same programs under
//! compute-sanitizer (`crate::sanitize`).

use std::fs;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;

use crate::progress::Progress;

/// `cargo xtask gpu-bundle [--out DIR]`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The folder to write (replaced if it exists).
    #[arg(long, value_name = "DIR", default_value = ".gpu-bundle")]
    pub out: PathBuf,
}

pub fn run(args: &Args) -> Result<(), String> {
    let out = args.out.clone();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let artifacts = build(&cargo)?;
    if out.exists() {
        fs::remove_dir_all(&out).map_err(|e| format!("cannot clear {}: {e}", out.display()))?;
    }
    let bin_dir = out.join("bin");
    let test_dir = out.join("tests");
    fs::create_dir_all(&bin_dir).map_err(|e| e.to_string())?;
    fs::create_dir_all(&test_dir).map_err(|e| e.to_string())?;

    let listing = Progress::items("gpu-bundle: selecting executables", artifacts.len() as u64);
    let mut tests = Vec::new();
    for (exe, is_test, name) in artifacts {
        listing.detail(&name);
        let _done = Inc(&listing);
        // The bundle is the GPU suite: test binaries without `#[ignore]`d (GPU) tests run in
        // `cargo test` already and stay out, which keeps the folder well under the 64 MiB limit.
        if is_test && (CPU_ONLY.contains(&name.as_str()) || !has_ignored_tests(&exe)) {
            continue;
        }
        // Every example also runs inside the GPU test binaries (`examples_gpu`,
        // `intrinsics_examples_gpu`); a few example binaries show the backend selection and
        // what the driver prints (simplePrintf) and measures (clock).
        if !is_test && !BINARIES.contains(&name.as_str()) {
            continue;
        }
        let dest = if is_test {
            let n = format!("{name}-{}", tests.len());
            tests.push(n.clone());
            test_dir.join(n)
        } else {
            bin_dir.join(&name)
        };
        fs::copy(&exe, &dest).map_err(|e| format!("copy {exe}: {e}"))?;
    }
    listing.finish(&format!("{} test binaries selected", tests.len()));
    eprintln!("gpu-bundle: copying the CUDA C twins and the peers' scripts, writing run.sh and sanitize.sh");
    copy_dir(Path::new("benches/reference"), &out.join("reference"))?;
    // The porting corpus's peers (Numba-CUDA, Triton), run by `bench corpus --peers`.
    copy_dir(Path::new("benches/peers"), &out.join("peers"))?;
    fs::write(out.join("run.sh"), RUNNER).map_err(|e| e.to_string())?;
    set_executable(&out.join("run.sh"))?;
    fs::write(out.join("sanitize.sh"), crate::sanitize::SCRIPT).map_err(|e| e.to_string())?;
    set_executable(&out.join("sanitize.sh"))?;
    fs::write(out.join("sanitize-expected.txt"), crate::sanitize::EXPECTED)
        .map_err(|e| e.to_string())?;
    fs::write(out.join("sanitize-skip.txt"), crate::sanitize::SKIP).map_err(|e| e.to_string())?;
    let size = dir_size(&out);
    println!(
        "gpu bundle at {}: {} test binaries, {:.1} MiB",
        out.display(),
        tests.len(),
        size as f64 / (1024.0 * 1024.0)
    );
    Ok(())
}

/// (executable path, is a test harness, target name).
type Artifact = (String, bool, String);

/// Builds the workspace's tests, examples and binaries in release, with a spinner (plain lines
/// off a terminal) saying how many units are done and what cargo compiles now: a release build
/// of the compiler takes minutes without a line of output otherwise. cargo's stdout is the JSON
/// stream of artifacts, read as it comes; its stderr ("Compiling x", diagnostics) is read by a
/// second thread, which shows the crate being compiled and passes every other line through.
fn build(cargo: &str) -> Result<Vec<Artifact>, String> {
    let progress = Progress::spinner("gpu-bundle: release build");
    progress.start("starting cargo build --release (tests, examples, binaries)");
    let mut child = Command::new(cargo)
        .args([
            "build",
            "--release",
            "--workspace",
            "--tests",
            "--examples",
            "--bins",
            "--message-format=json-render-diagnostics",
        ])
        .env("CARGO_PROFILE_RELEASE_STRIP", "symbols")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    let stdout = child.stdout.take().ok_or("cargo's stdout")?;
    let stderr = child.stderr.take().ok_or("cargo's stderr")?;
    let state = Mutex::new(BuildState::default());
    let artifacts = std::thread::scope(|scope| {
        scope.spawn(|| {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                match line.trim_start().strip_prefix("Compiling ") {
                    Some(what) => {
                        let mut st = state.lock().unwrap();
                        st.compiling = what.split(' ').next().unwrap_or(what).to_string();
                        progress.detail(&st.describe());
                    }
                    None => progress.println(&line),
                }
            }
        });
        let mut artifacts = Vec::new();
        for line in BufReader::new(stdout).lines() {
            let line = line.map_err(|e| format!("reading cargo's output: {e}"))?;
            if !line.contains("\"compiler-artifact\"") {
                continue;
            }
            let mut st = state.lock().unwrap();
            st.units += 1;
            if let Some(a) = parse_artifact(&line) {
                artifacts.push(a);
                st.executables += 1;
            }
            progress.detail(&st.describe());
        }
        Ok::<_, String>(artifacts)
    })?;
    let status = child.wait().map_err(|e| format!("cargo: {e}"))?;
    if !status.success() {
        return Err(format!(
            "cargo build failed ({status}); its errors are above"
        ));
    }
    progress.finish(&format!("built {} executables", artifacts.len()));
    Ok(artifacts)
}

/// What the build has done so far.
#[derive(Default)]
struct BuildState {
    units: usize,
    executables: usize,
    compiling: String,
}

impl BuildState {
    fn describe(&self) -> String {
        let mut s = format!(
            "{} units built ({} executables)",
            self.units, self.executables
        );
        if !self.compiling.is_empty() {
            s += &format!("; compiling {}", self.compiling);
        }
        s
    }
}

/// Counts an item done when dropped, on every path out of a loop body.
struct Inc<'a>(&'a Progress);

impl Drop for Inc<'_> {
    fn drop(&mut self) {
        self.0.inc();
    }
}

/// Returns (executable path, is a test harness, target name) for a compiler-artifact line with an executable.
fn parse_artifact(line: &str) -> Option<Artifact> {
    let v: serde_json::Value = serde_json::from_str(line).ok()?;
    if v["reason"] != "compiler-artifact" {
        return None;
    }
    // Unit tests of a proc-macro crate link libstd dynamically and cannot run without a toolchain.
    let kinds = v["target"]["kind"].as_array()?;
    if kinds.iter().any(|k| k == "proc-macro") {
        return None;
    }
    let exe = v["executable"].as_str()?;
    // The target object also has a "test" key (whether `cargo test` builds it); the profile's
    // says whether this artifact is a test harness.
    let is_test = v["profile"]["test"].as_bool()?;
    let name = v["target"]["name"].as_str()?;
    Some((exe.into(), is_test, name.into()))
}

/// Test binaries whose ignored tests are CPU benchmarks, not GPU tests.
const CPU_ONLY: &[&str] = &["sim_bench"];

/// The executables besides tests that go into the bundle.
const BINARIES: &[&str] = &["xtask", "vector_add", "simple_printf", "clock"];

/// Whether a libtest binary lists any ignored test (our GPU tests are `#[ignore]`).
fn has_ignored_tests(exe: &str) -> bool {
    Command::new(exe)
        .args(["--list", "--ignored", "--format", "terse"])
        .output()
        .map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .any(|l| l.ends_with(": test"))
        })
        .unwrap_or(true)
}

fn copy_dir(from: &Path, to: &Path) -> Result<(), String> {
    fs::create_dir_all(to).map_err(|e| e.to_string())?;
    for entry in fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))? {
        let entry = entry.map_err(|e| e.to_string())?;
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &to.join(entry.file_name()))?;
        } else {
            fs::copy(entry.path(), to.join(entry.file_name())).map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

fn dir_size(p: &Path) -> u64 {
    fs::read_dir(p)
        .map(|rd| {
            rd.flatten()
                .map(|e| {
                    let m = e.metadata();
                    match m {
                        Ok(m) if m.is_dir() => dir_size(&e.path()),
                        Ok(m) => m.len(),
                        Err(_) => 0,
                    }
                })
                .sum()
        })
        .unwrap_or(0)
}

#[cfg(unix)]
fn set_executable(p: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(p, fs::Permissions::from_mode(0o755)).map_err(|e| e.to_string())
}
#[cfg(not(unix))]
fn set_executable(_: &Path) -> Result<(), String> {
    Ok(())
}

pub(crate) const RUNNER: &str = r#"#!/usr/bin/env bash
# Runs the GPU suite from a gpu-bundle: every test binary with its #[ignore]d GPU tests included,
# then the examples. Usage: ./run.sh [tests|examples|bench ARGS...|sanitize [TOOL] [BINARY...]].
# `./run.sh bench corpus --peers` runs the porting corpus against its nvcc twins, Numba-CUDA and
# Triton; `sanitize` runs the tests and examples under compute-sanitizer (sanitize.sh). Logs go to
# $OUT when set.
cd "$(dirname "$0")"
export FERROCUDA_REQUIRE_GPU=1
what="${1:-all}"
if [ "$what" = sanitize ]; then
  shift
  exec ./sanitize.sh "$@"
fi
fail=0
if [ "$what" = all ] || [ "$what" = tests ]; then
  for t in tests/*; do
    # The compile-fail (ui) suite needs cargo, which a GPU machine need not have.
    case "$(basename "$t")" in ui-*) continue ;; esac
    echo "== $t"
    "./$t" --include-ignored --test-threads=1 --nocapture || fail=1
  done
fi
if [ "$what" = all ] || [ "$what" = examples ]; then
  for e in bin/*; do
    case "$(basename "$e")" in xtask) continue ;; esac
    echo "== $e"
    "./$e" || fail=1
  done
fi
if [ "$what" = bench ]; then
  shift
  # cuBLAS (reference row) is loaded at run time: look in the toolkit and in the pip wheel.
  cublas_dir=$(python3 -c 'import nvidia.cublas, os; print(os.path.join(list(nvidia.cublas.__path__)[0], "lib"))' 2>/dev/null)
  export LD_LIBRARY_PATH="/usr/local/cuda/lib64:${cublas_dir}:${LD_LIBRARY_PATH:-}"
  # First-launch compile rows must measure a cold driver JIT, not the driver's own PTX cache.
  export CUDA_CACHE_DISABLE=1
  ./bin/xtask bench "$@" || fail=1
fi
exit $fail
"#;

#[cfg(test)]
mod tests {
    use super::{build, parse_artifact};

    /// The build reads cargo's two streams as they come: artifacts from stdout (libraries are
    /// counted, executables kept), progress and diagnostics from stderr; cargo's failure is ours.
    #[cfg(unix)]
    #[test]
    fn build_collects_executables_from_a_running_cargo() {
        let dir = std::env::temp_dir().join(format!("xtask-fake-cargo-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let fake = dir.join("cargo");
        let lib = r#"{"reason":"compiler-artifact","target":{"kind":["lib"],"name":"kernel_ir"},"profile":{"test":false},"executable":null}"#;
        let exe = r#"{"reason":"compiler-artifact","target":{"kind":["test"],"name":"gpu_e2e"},"profile":{"test":true},"executable":"/w/gpu_e2e-1"}"#;
        let script = format!(
            "#!/bin/sh\necho '   Compiling kernel-ir v0.1.0' >&2\necho '{lib}'\necho 'warning: unused' >&2\necho '{exe}'\necho '{{\"reason\":\"build-finished\",\"success\":true}}'\n"
        );
        std::fs::write(&fake, script).unwrap();
        super::set_executable(&fake).unwrap();
        let got = build(fake.to_str().unwrap()).unwrap();
        assert_eq!(
            got,
            [("/w/gpu_e2e-1".to_string(), true, "gpu_e2e".to_string())]
        );
        let failing = dir.join("failing-cargo");
        std::fs::write(&failing, "#!/bin/sh\necho 'error: nope' >&2\nexit 101\n").unwrap();
        super::set_executable(&failing).unwrap();
        let err = build(failing.to_str().unwrap()).unwrap_err();
        assert!(err.contains("cargo build failed"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn artifacts_are_read_from_cargo_json() {
        let test = r#"{"reason":"compiler-artifact","package_id":"x","target":{"kind":["test"],"crate_types":["bin"],"name":"gpu_e2e","src_path":"/w/tests/gpu_e2e.rs","test":true},"profile":{"opt_level":"3","debuginfo":0,"test":true},"features":[],"filenames":["/w/target/release/deps/gpu_e2e-1"],"executable":"/w/target/release/deps/gpu_e2e-1","fresh":false}"#;
        assert_eq!(
            parse_artifact(test),
            Some((
                "/w/target/release/deps/gpu_e2e-1".into(),
                true,
                "gpu_e2e".into()
            ))
        );
        let bin = test
            .replace(r#""kind":["test"]"#, r#""kind":["bin"]"#)
            .replace(
                r#""opt_level":"3","debuginfo":0,"test":true"#,
                r#""opt_level":"3","debuginfo":0,"test":false"#,
            )
            .replace("gpu_e2e", "xtask");
        assert_eq!(
            parse_artifact(&bin),
            Some((
                "/w/target/release/deps/xtask-1".into(),
                false,
                "xtask".into()
            ))
        );
        let lib = r#"{"reason":"compiler-artifact","target":{"kind":["lib"],"name":"kernel_ir"},"profile":{"test":false},"executable":null}"#;
        assert_eq!(parse_artifact(lib), None);
        let pm = test.replace(r#""kind":["test"]"#, r#""kind":["proc-macro"]"#);
        assert_eq!(parse_artifact(&pm), None);
        assert_eq!(
            parse_artifact(r#"{"reason":"build-finished","success":true}"#),
            None
        );
        assert_eq!(parse_artifact("not json"), None);
    }
}
