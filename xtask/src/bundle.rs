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
use std::time::Instant;

/// `cargo xtask gpu-bundle [--out DIR]`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The folder to write (replaced if it exists).
    #[arg(long, value_name = "DIR", default_value = ".gpu-bundle")]
    pub out: PathBuf,
}

pub fn run(args: &Args) -> Result<(), String> {
    let out = args.out.clone();
    let started = Instant::now();
    let step = |what: &str| {
        eprintln!(
            "[{:>6.1}s] gpu-bundle: {what}",
            started.elapsed().as_secs_f32()
        )
    };
    step("building the workspace's tests, examples and binaries in release (cargo's progress follows)");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    // cargo's own progress and diagnostics go straight to our stderr; its stdout is the JSON
    // stream of artifacts, read as it comes so each finished executable is reported.
    let mut child = Command::new(&cargo)
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
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    let mut artifacts = Vec::new();
    let stdout = child.stdout.take().ok_or("cargo's stdout")?;
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| format!("reading cargo's output: {e}"))?;
        if let Some(a) = parse_artifact(&line) {
            artifacts.push(a);
            step(&format!(
                "built {} executable(s), latest {}",
                artifacts.len(),
                artifacts[artifacts.len() - 1].2
            ));
        }
    }
    let status = child.wait().map_err(|e| format!("cargo: {e}"))?;
    if !status.success() {
        return Err(format!(
            "cargo build failed ({status}); its errors are above"
        ));
    }
    if out.exists() {
        fs::remove_dir_all(&out).map_err(|e| format!("cannot clear {}: {e}", out.display()))?;
    }
    let bin_dir = out.join("bin");
    let test_dir = out.join("tests");
    fs::create_dir_all(&bin_dir).map_err(|e| e.to_string())?;
    fs::create_dir_all(&test_dir).map_err(|e| e.to_string())?;

    step(&format!(
        "listing the GPU tests of {} executables and copying the bundle's",
        artifacts.len()
    ));
    let mut tests = Vec::new();
    for (exe, is_test, name) in artifacts {
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
    step("copying the CUDA C twins and the peers' scripts, writing run.sh and sanitize.sh");
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

/// Returns (executable path, is a test harness, target name) for a compiler-artifact line with an executable.
fn parse_artifact(line: &str) -> Option<(String, bool, String)> {
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
    use super::parse_artifact;

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
