//! The GPU bundle's compute-sanitizer sweep (`./run.sh sanitize [TOOL] [BINARY...]`): every GPU
//! test binary (with its `#[ignore]`d GPU tests) and example under
//! `compute-sanitizer --tool TOOL --error-exitcode 1`, one summary line per binary and tool.
//!
//! Errors are classified against [`EXPECTED`]: the driver API errors a test provokes on purpose
//! (a JIT error test loads broken PTX, another asks a module for a function it lacks, the recovery
//! test faults a kernel). The sweep passes when no binary shows an error that is not listed there
//! and every program passes under the tool.

/// `sanitize.sh`, written into the bundle next to `run.sh`.
pub const SCRIPT: &str = r#"#!/usr/bin/env bash
# compute-sanitizer sweep over a gpu-bundle.
#   ./sanitize.sh [memcheck|racecheck|synccheck|initcheck|all] [BINARY...]
# Runs each GPU test binary (--include-ignored) and example (default: all of them) under
#   compute-sanitizer --tool TOOL --error-exitcode 1
# and prints one line per binary and tool: the errors the tool reported, how many of them are
# listed in sanitize-expected.txt (API errors provoked on purpose), and how the program ended.
# Logs: $SANITIZE_LOGS, else $OUT/sanitize-TOOL when OUT is set, else ./sanitize-logs/TOOL.
# SANITIZE_JOBS programs at once (default 4), SANITIZE_TIMEOUT seconds each (default 300).
# Exit status 0 when no program has an unexpected error, fails or times out.
cd "$(dirname "$0")" || exit 2
export FERROCUDA_REQUIRE_GPU=1
# Instrumented code runs 10-100 times slower: the heavy GPU tests take smaller sizes.
export FERROCUDA_DIFF_KERNELS="${FERROCUDA_DIFF_KERNELS:-200}"
export MATH_ULP_N="${MATH_ULP_N:-4096}"
cs="${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}"
if [ ! -x "$cs" ]; then
  echo "sanitize: compute-sanitizer not found (set COMPUTE_SANITIZER)"
  exit 2
fi
tool="${1:-all}"
[ $# -gt 0 ] && shift
case "$tool" in
  all) tools="memcheck racecheck synccheck initcheck" ;;
  memcheck|racecheck|synccheck|initcheck) tools="$tool" ;;
  *) echo "usage: $0 [memcheck|racecheck|synccheck|initcheck|all] [BINARY...]"; exit 2 ;;
esac
bins=()
if [ $# -gt 0 ]; then
  for b in "$@"; do
    if [ -x "$b" ]; then bins+=("$b"); else for m in tests/"$b"-* bin/"$b"; do [ -x "$m" ] && bins+=("$m"); done; fi
  done
else
  for t in tests/*; do
    # trybuild's compile-fail suite needs cargo.
    case "$(basename "$t")" in ui-*) continue ;; esac
    bins+=("$t")
  done
  for e in bin/*; do
    case "$(basename "$e")" in xtask) continue ;; esac
    bins+=("$e")
  done
fi
[ ${#bins[@]} -gt 0 ] || { echo "sanitize: no binaries"; exit 2; }
help="$("$cs" --help 2>&1)"
# Options this compute-sanitizer has (older versions lack some).
has() { grep -q -- "$1" <<<"$help"; }
# Every error printed: the expected ones are recognised line by line.
common=(--error-exitcode 1 --print-limit 100000)
has --require-cuda-init && common+=(--require-cuda-init no)
has --target-processes && common+=(--target-processes all)
echo "sanitize: $("$cs" --version 2>&1 | grep -i version | head -1); tools: $tools; ${#bins[@]} programs"
export cs
export SANITIZE_TIMEOUT="${SANITIZE_TIMEOUT:-300}"
status=0
summary_all=""
for tool in $tools; do
  case "$tool" in
    memcheck) tool_opts=(--leak-check no) ;;
    # Racecheck's analysis report names each hazard once instead of every conflicting pair.
    racecheck) tool_opts=(--racecheck-report analysis) ;;
    *) tool_opts=() ;;
  esac
  logs="${SANITIZE_LOGS:-${OUT:+$OUT/sanitize-$tool}}"
  logs="${logs:-sanitize-logs/$tool}"
  mkdir -p "$logs"
  run_one() {
    local bin="$1" name args log rc t0 errs api exp unexp ended
    name="$(basename "$bin")"
    log="$logs/$name"
    args=()
    case "$bin" in tests/*) args=(--include-ignored --test-threads=1) ;; esac
    t0=$SECONDS
    timeout -k 10 "$SANITIZE_TIMEOUT" "$cs" --tool "$tool" "${common[@]}" "${tool_opts[@]}" \
      --log-file "$log.sanitizer" "./$bin" "${args[@]}" >"$log.out" 2>&1
    rc=$?
    errs=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$log.sanitizer" 2>/dev/null | tail -1)
    race=$(sed -n 's/.*RACECHECK SUMMARY: .*(\([0-9]*\) error.*/\1/p' "$log.sanitizer" 2>/dev/null | tail -1)
    [ -n "$race" ] && errs=$race
    errs=${errs:-0}
    # Each driver API error: "Program hit CUDA_ERROR_X (error N) due to ... on CUDA API call to cuY."
    exp=0
    api=0
    while read -r err call; do
      [ -n "$err" ] || continue
      api=$((api + 1))
      base="${name%-[0-9]*}"
      while read -r pb pt pe pc _; do
        case "$pb" in ''|'#'*) continue ;; esac
        # shellcheck disable=SC2254
        case "$base" in $pb) ;; *) continue ;; esac
        # shellcheck disable=SC2254
        case "$tool" in $pt) ;; *) continue ;; esac
        # shellcheck disable=SC2254
        case "$err" in $pe) ;; *) continue ;; esac
        # shellcheck disable=SC2254
        case "$call" in $pc) exp=$((exp + 1)); break ;; esac
      done <sanitize-expected.txt
    done < <(sed -n 's/.*Program hit \(CUDA_ERROR_[A-Z_]*\).* on CUDA API call to \([A-Za-z0-9_]*\).*/\1 \2/p' "$log.sanitizer" 2>/dev/null)
    # Whole programs whose every error is provoked on purpose (a kernel fault, then recovery).
    while read -r pb pt pe pc _; do
      case "$pb" in ''|'#'*) continue ;; esac
      # shellcheck disable=SC2254
      case "${name%-[0-9]*}" in $pb) ;; *) continue ;; esac
      # shellcheck disable=SC2254
      case "$tool" in $pt) ;; *) continue ;; esac
      [ "$pe" = '*' ] && [ "$pc" = '*' ] && exp=$errs
    done <sanitize-expected.txt
    [ "$exp" -gt "$errs" ] && exp=$errs
    unexp=$((errs - exp))
    # With errors the tool exits 1 whatever the program did; it logs a failing program.
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then ended=TIMEOUT
    elif grep -q "Target application returned an error" "$log.sanitizer" 2>/dev/null; then ended="FAILED(rc=$rc)"
    elif [ $rc -eq 0 ]; then ended=ok
    elif [ $rc -eq 1 ] && [ "$errs" -gt 0 ]; then ended=ok
    else ended="FAILED(rc=$rc)"
    fi
    if [ "$unexp" -gt 0 ] || [ "$ended" != ok ]; then verdict=FAIL; else verdict=pass; fi
    printf '%-9s %-28s %-4s errors=%-4s expected=%-4s unexpected=%-4s api=%-4s program=%s %ss\n' \
      "$tool" "$name" "$verdict" "$errs" "$exp" "$unexp" "$api" "$ended" "$((SECONDS - t0))"
  }
  export -f run_one
  export tool logs
  export common_s="${common[*]}" tool_opts_s="${tool_opts[*]}"
  out=$(printf '%s\n' "${bins[@]}" | xargs -P "${SANITIZE_JOBS:-4}" -I{} bash -c '
    read -r -a common <<<"$common_s"; read -r -a tool_opts <<<"$tool_opts_s"; run_one "$1"' _ {})
  echo "$out" | sort
  summary_all+="$out"$'\n'
  grep -q ' FAIL ' <<<"$out" && status=1
done
total=$(grep -c . <<<"$summary_all")
fails=$(grep -c ' FAIL ' <<<"$summary_all")
echo "sanitize: $total runs, $fails failing (logs in ${SANITIZE_LOGS:-${OUT:-sanitize-logs}})"
[ -n "$OUT" ] && printf '%s' "$summary_all" | sort >"$OUT/sanitize-summary.txt"
exit $status
"#;

/// `sanitize-expected.txt`: errors a program shows on purpose. Fields: binary (glob, without
/// the bundle's `-N` suffix), tool (glob), CUDA error (glob), API call (glob), then why.
/// `* *` in the last two fields: every error of that program is expected.
pub const EXPECTED: &str = "\
# binary      tool  error                    call                   why
gpu_kernels   *     CUDA_ERROR_INVALID_PTX   cuModuleLoadData*      a test loads broken PTX to check the JIT error and its log
gpu_kernels   *     CUDA_ERROR_NOT_FOUND     cuModuleGetFunction    a test asks for a function the module does not have
gpu_recover   *     *                        *                      faults a kernel on purpose, then resets the context
";

#[cfg(all(test, unix))]
mod tests {
    use std::fs;
    use std::os::unix::fs::PermissionsExt;
    use std::path::Path;
    use std::process::Command;

    fn script(path: &Path, text: &str) {
        fs::write(path, text).unwrap();
        fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn runner_scripts_parse() {
        for (name, text) in [
            ("run.sh", crate::bundle::RUNNER),
            ("sanitize.sh", super::SCRIPT),
        ] {
            let out = Command::new("bash")
                .args(["-n", "-c", text])
                .output()
                .expect("bash");
            assert!(
                out.status.success(),
                "{name}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }

    /// The sweep's bookkeeping with a stand-in compute-sanitizer that writes known logs: expected
    /// API errors are recognised per binary, anything else fails the sweep.
    #[test]
    fn sweep_classifies_errors() {
        let dir = std::env::temp_dir().join(format!("ferrocuda-sanitize-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("tests")).unwrap();
        fs::create_dir_all(dir.join("bin")).unwrap();
        fs::create_dir_all(dir.join("out")).unwrap();
        script(&dir.join("sanitize.sh"), super::SCRIPT);
        fs::write(dir.join("sanitize-expected.txt"), super::EXPECTED).unwrap();
        for p in [
            "tests/gpu_kernels-3",
            "tests/gpu_memory-1",
            "tests/gpu_recover-2",
            "bin/vector_add",
        ] {
            script(&dir.join(p), "#!/bin/sh\nexit 0\n");
        }
        // A program whose own tests fail (under an error the tool found, so the tool exits 1).
        script(&dir.join("tests/gpu_e2e-6"), "#!/bin/sh\nexit 101\n");
        script(&dir.join("tests/ui-0"), "#!/bin/sh\nexit 3\n");
        // Logs as compute-sanitizer writes them, chosen by the program's name.
        let fake = r#"#!/usr/bin/env bash
case "$1" in --help) echo "--require-cuda-init --target-processes"; exit 0 ;; --version) echo "Version 0.0 (fake)"; exit 0 ;; esac
while [ $# -gt 0 ]; do
  case "$1" in --log-file) log="$2"; shift 2 ;; --*) shift 2 ;; *) break ;; esac
done
prog="$1"; shift
"$prog" "$@"; rc=$?
api() { echo "========= Program hit $1 (error 1) due to \"x\" on CUDA API call to $2."; echo "=========     Host Frame: f"; }
{
case "$prog" in
  *gpu_kernels*) api CUDA_ERROR_INVALID_PTX cuModuleLoadDataEx; api CUDA_ERROR_NOT_FOUND cuModuleGetFunction; echo "========= ERROR SUMMARY: 2 errors" ;;
  *gpu_memory*) echo "========= Invalid __global__ write of size 4 bytes"; api CUDA_ERROR_NOT_FOUND cuModuleGetFunction; echo "========= ERROR SUMMARY: 2 errors" ;;
  *gpu_recover*) echo "========= Invalid __global__ write of size 4 bytes"; api CUDA_ERROR_ILLEGAL_ADDRESS cuCtxSynchronize; echo "========= ERROR SUMMARY: 2 errors" ;;
  *gpu_e2e*) api CUDA_ERROR_INVALID_PTX cuModuleLoadDataEx; echo "========= Target application returned an error"; echo "========= ERROR SUMMARY: 1 error" ;;
  *) echo "========= ERROR SUMMARY: 0 errors" ;;
esac
} >"$log"
if grep -q "SUMMARY: 0 errors" "$log"; then exit $rc; else exit 1; fi
"#;
        script(&dir.join("fake-sanitizer"), fake);
        let out = Command::new("bash")
            .arg(dir.join("sanitize.sh"))
            .arg("memcheck")
            .env("COMPUTE_SANITIZER", dir.join("fake-sanitizer"))
            .env("OUT", dir.join("out"))
            .output()
            .expect("bash");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let line = |name: &str| {
            text.lines()
                .find(|l| l.contains(name))
                .unwrap_or_else(|| panic!("no line for {name}:\n{text}"))
                .to_string()
        };
        let k = line("gpu_kernels-3");
        assert!(
            k.contains(" pass ") && k.contains("expected=2") && k.contains("unexpected=0"),
            "{k}"
        );
        let m = line("gpu_memory-1");
        assert!(m.contains(" FAIL ") && m.contains("unexpected=2"), "{m}");
        let r = line("gpu_recover-2");
        assert!(r.contains(" pass ") && r.contains("expected=2"), "{r}");
        let e = line("gpu_e2e-6");
        assert!(
            e.contains(" FAIL ")
                && e.contains("program=FAILED(rc=1)")
                && e.contains("unexpected=1"),
            "{e}"
        );
        let v = line("vector_add");
        assert!(v.contains(" pass ") && v.contains("errors=0"), "{v}");
        assert!(!text.contains("ui-0"), "ui tests need cargo:\n{text}");
        assert_eq!(out.status.code(), Some(1), "{text}");
        let summary = fs::read_to_string(dir.join("out/sanitize-summary.txt")).unwrap();
        assert_eq!(summary.lines().count(), 5, "{summary}");
        assert!(dir
            .join("out/sanitize-memcheck/gpu_memory-1.sanitizer")
            .exists());
        let _ = fs::remove_dir_all(&dir);
    }
}
