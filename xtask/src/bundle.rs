//! `cargo xtask gpu-bundle`: everything the GPU suite needs, for a machine with a GPU and no Rust.
//!
//! Builds the workspace's test binaries, examples and this tool in release mode, copies the
//! executables (stripped) plus the CUDA C twins (the porting corpus's among them) and the peers'
//! Python scripts into one folder, and writes `run.sh`, which runs every test binary including the
//! `#[ignore]`d GPU tests and then the examples, and `sanitize.sh`, the same programs under
//! compute-sanitizer (`crate::sanitize`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

pub fn run(args: &[String]) -> Result<(), String> {
    let mut out = PathBuf::from(".gpu-bundle");
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--out" => out = PathBuf::from(it.next().ok_or("--out needs a directory")?),
            s => return Err(format!("unexpected argument `{s}`")),
        }
    }
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(&cargo)
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
        .output()
        .map_err(|e| format!("cannot run cargo: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "cargo build failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    if out.exists() {
        fs::remove_dir_all(&out).map_err(|e| format!("cannot clear {}: {e}", out.display()))?;
    }
    let bin_dir = out.join("bin");
    let test_dir = out.join("tests");
    fs::create_dir_all(&bin_dir).map_err(|e| e.to_string())?;
    fs::create_dir_all(&test_dir).map_err(|e| e.to_string())?;

    let mut tests = Vec::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Some((exe, is_test, name)) = parse_artifact(line) else {
            continue;
        };
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
    if !line.contains("\"reason\":\"compiler-artifact\"") {
        return None;
    }
    // Unit tests of a proc-macro crate link libstd dynamically and cannot run without a toolchain.
    if line.contains("\"proc-macro\"") {
        return None;
    }
    let exe = json_str(line, "\"executable\":\"")?;
    // The target object also has a "test" key (whether `cargo test` builds it); the profile's
    // says whether this artifact is a test harness.
    let profile = &line[line.find("\"profile\":{")?..];
    let profile = &profile[..profile.find('}')?];
    let is_test = profile.contains("\"test\":true");
    let name = json_str(line, "\"name\":\"")?;
    Some((exe, is_test, name))
}

/// The string value after `key` (cargo's JSON escapes nothing in paths on Linux but backslashes and quotes).
fn json_str(line: &str, key: &str) -> Option<String> {
    let start = line.find(key)? + key.len();
    let rest = &line[start..];
    let end = rest.find('"')?;
    Some(rest[..end].replace("\\\\", "\\"))
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
