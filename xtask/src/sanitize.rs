//! The GPU bundle's compute-sanitizer sweep (`./run.sh sanitize [TOOL] [BINARY...]`): every GPU
//! test binary (with its `#[ignore]`d GPU tests) and example under
//! `compute-sanitizer --tool TOOL --error-exitcode 1`, one summary line per binary and tool.
//!
//! Errors are classified against [`EXPECTED`], per program and tool: the driver API errors a test
//! provokes on purpose (a JIT error test loads broken PTX, another asks a module for a function it
//! lacks, the recovery test faults a kernel). The sweep passes when no binary shows an error that
//! is not listed there and every program passes under the tool. `all` runs the four tools and
//! ends with one table, program by tool.
//!
//! What the programs do differently under the sweep, which sets `FERROCUDA_UNDER_SANITIZER` to
//! the tool's name (`kernel_testkit::sanitizer`); the tools serialize launches and copies and slow
//! every instruction 10-100 times, so:
//! - wall-time assertions are skipped, ordering and results still checked:
//!   `gpu_ordering`'s `reads_and_disjoint_writes_on_two_streams_overlap` and
//!   `dropping_a_buffer_neither_waits_nor_frees_early`, `gpu_streams`'
//!   `copy_overlaps_kernel_on_another_stream` (each says so on stderr);
//! - the launch-overhead loops of `gpu_kernels::raw_launches_succeed_and_their_overhead_is_reported`
//!   and `gpu_e2e::typed_launches_succeed_and_their_overhead_is_reported` run 10 launches, not
//!   60,000 (racecheck ran out of time on them);
//! - `differential_random::random_kernels_on_the_gpu` runs on one thread with the driver's JIT
//!   (sixteen threads loading modules and forking ptxas crashed the sanitizer, SIGSEGV, every
//!   tool) and `FERROCUDA_DIFF_KERNELS` kernels (100 here); `math_gpu` takes `MATH_ULP_N=4096`.
//!
//! Tests that cannot run under a tool at all are listed in [`SKIP`] (passed to the test binary as
//! `--skip NAME`, and counted in the summary).

/// `sanitize.sh`, written into the bundle next to `run.sh`.
pub const SCRIPT: &str = r#"#!/usr/bin/env bash
# compute-sanitizer sweep over a gpu-bundle.
#   ./sanitize.sh [memcheck|racecheck|synccheck|initcheck|all] [BINARY...]
# Runs each GPU test binary (--include-ignored) and example (default: all of them) under
#   compute-sanitizer --tool TOOL --error-exitcode 1
# and prints one line per binary and tool: the errors the tool reported, how many of them are
# listed in sanitize-expected.txt (API errors provoked on purpose), and how the program ended.
# Tests listed in sanitize-skip.txt for a tool are left out (--skip NAME).
# Logs: $SANITIZE_LOGS, else $OUT/sanitize-TOOL when OUT is set, else ./sanitize-logs/TOOL.
# SANITIZE_JOBS programs at once (default 4), SANITIZE_TIMEOUT seconds each (default 300).
# Ends with a table, program by tool: errors/expected/unexpected and how the program ended.
# Exit status 0 when no program has an unexpected error, fails or times out.
cd "$(dirname "$0")" || exit 2
export FERROCUDA_REQUIRE_GPU=1
# Instrumented code runs 10-100 times slower: the heavy GPU tests take smaller sizes. The
# programs see FERROCUDA_UNDER_SANITIZER=TOOL (set per tool below) and skip wall-time assertions.
export FERROCUDA_DIFF_KERNELS="${FERROCUDA_DIFF_KERNELS:-100}"
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
    local bin="$1" name args log rc t0 errs api exp unexp ended skipped=0
    name="$(basename "$bin")"
    log="$logs/$name"
    args=()
    : >"$log.out"
    case "$bin" in
      tests/*)
        args=(--include-ignored --test-threads=1)
        # Tests that cannot run under this tool: binary (glob), tool (glob), test name, why.
        while read -r sb st sn why; do
          case "$sb" in ''|'#'*) continue ;; esac
          # shellcheck disable=SC2254
          case "${name%-[0-9]*}" in $sb) ;; *) continue ;; esac
          # shellcheck disable=SC2254
          case "$tool" in $st) ;; *) continue ;; esac
          args+=(--skip "$sn")
          skipped=$((skipped + 1))
          echo "sanitize: skipped $sn under $tool: $why" >>"$log.out"
        done < <(cat sanitize-skip.txt 2>/dev/null)
        ;;
    esac
    t0=$SECONDS
    FERROCUDA_UNDER_SANITIZER="$tool" timeout -k 10 "$SANITIZE_TIMEOUT" "$cs" --tool "$tool" \
      "${common[@]}" "${tool_opts[@]}" --log-file "$log.sanitizer" "./$bin" "${args[@]}" >>"$log.out" 2>&1
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
    printf '%-9s %-28s %-4s errors=%-4s expected=%-4s unexpected=%-4s api=%-4s skipped=%-2s program=%s %ss\n' \
      "$tool" "$name" "$verdict" "$errs" "$exp" "$unexp" "$api" "$skipped" "$ended" "$((SECONDS - t0))"
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
# Program by tool: errors/expected/unexpected, then `ok` or how the program ended.
table=$(awk -v tools="$tools" '
  NF { split($4, e, "="); split($5, x, "="); split($6, u, "="); p = $9; sub(/^program=/, "", p)
       cell[$2, $1] = e[2] "/" x[2] "/" u[2] " " ($3 == "pass" ? "ok" : p == "ok" ? "FAIL" : p)
       if (!($2 in seen)) { seen[$2] = 1; names[++n] = $2 } }
  END {
    nt = split(tools, t, " ")
    printf "%-28s", "program"
    for (j = 1; j <= nt; j++) printf " %-20s", t[j]
    printf "\n"
    # Sorted by name (insertion sort: a few dozen programs).
    for (i = 2; i <= n; i++) { v = names[i]; for (k = i - 1; k >= 1 && names[k] > v; k--) names[k + 1] = names[k]; names[k + 1] = v }
    for (i = 1; i <= n; i++) {
      printf "%-28s", names[i]
      for (j = 1; j <= nt; j++) printf " %-20s", ((names[i], t[j]) in cell ? cell[names[i], t[j]] : "-")
      printf "\n"
    }
  }' <<<"$summary_all")
echo
echo "sanitize: errors/expected/unexpected per program and tool; ok, FAIL (unexpected errors) or how the program ended"
echo "$table"
[ -n "$OUT" ] && printf '%s\n' "$table" >"$OUT/sanitize-table.txt"
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

/// `sanitize-skip.txt`: tests that cannot run under a tool, left out with `--skip NAME`. Fields:
/// binary (glob, without the bundle's `-N` suffix), tool (glob), test name, then why. Wall-time
/// assertions are not listed here: those tests run and skip only the assertions (see the module
/// documentation).
pub const SKIP: &str = "\
# binary      tool       test                                      why
gpu_recover   initcheck  device_recovers_after_an_illegal_address  initcheck lets the store to address 8 through without a fault (H100, 2025.3.1), so there is nothing to recover from
gpu_recover   synccheck  device_recovers_after_an_illegal_address  the process dies with SIGSEGV under synccheck after the deliberate fault, 0 sanitizer errors (H100, 2025.3.1)
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
    /// API errors are recognised per binary, anything else fails the sweep; each program sees
    /// the tool in `FERROCUDA_UNDER_SANITIZER` and gets `--skip` for its listed tests; `all`
    /// ends with the program-by-tool table.
    #[test]
    fn sweep_classifies_errors() {
        let dir = std::env::temp_dir().join(format!("ferrocuda-sanitize-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("tests")).unwrap();
        fs::create_dir_all(dir.join("bin")).unwrap();
        fs::create_dir_all(dir.join("out")).unwrap();
        script(&dir.join("sanitize.sh"), super::SCRIPT);
        fs::write(dir.join("sanitize-expected.txt"), super::EXPECTED).unwrap();
        fs::write(dir.join("sanitize-skip.txt"), super::SKIP).unwrap();
        // Each program says which tool it was told about and what it was asked to run.
        let says = "#!/bin/sh\necho \"under=$FERROCUDA_UNDER_SANITIZER args=$*\"\n";
        for p in [
            "tests/gpu_kernels-3",
            "tests/gpu_memory-1",
            "tests/gpu_recover-2",
            "bin/vector_add",
        ] {
            script(&dir.join(p), &format!("{says}exit 0\n"));
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
            .arg("all")
            .env("COMPUTE_SANITIZER", dir.join("fake-sanitizer"))
            .env("OUT", dir.join("out"))
            .env_remove("FERROCUDA_UNDER_SANITIZER")
            .output()
            .expect("bash");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let line = |tool: &str, name: &str| {
            text.lines()
                .find(|l| l.starts_with(tool) && l.contains(name))
                .unwrap_or_else(|| panic!("no {tool} line for {name}:\n{text}"))
                .to_string()
        };
        for tool in ["memcheck", "racecheck", "synccheck", "initcheck"] {
            let k = line(tool, "gpu_kernels-3");
            assert!(
                k.contains(" pass ") && k.contains("expected=2") && k.contains("unexpected=0"),
                "{k}"
            );
            let m = line(tool, "gpu_memory-1");
            assert!(m.contains(" FAIL ") && m.contains("unexpected=2"), "{m}");
            let r = line(tool, "gpu_recover-2");
            assert!(r.contains(" pass ") && r.contains("expected=2"), "{r}");
            let e = line(tool, "gpu_e2e-6");
            assert!(
                e.contains(" FAIL ")
                    && e.contains("program=FAILED(rc=1)")
                    && e.contains("unexpected=1"),
                "{e}"
            );
            let v = line(tool, "vector_add");
            assert!(v.contains(" pass ") && v.contains("errors=0"), "{v}");
            // The program is told the tool; examples get no test arguments.
            let said = fs::read_to_string(dir.join(format!("out/sanitize-{tool}/vector_add.out")))
                .unwrap();
            assert!(said.contains(&format!("under={tool} args=\n")), "{said}");
            let said =
                fs::read_to_string(dir.join(format!("out/sanitize-{tool}/gpu_recover-2.out")))
                    .unwrap();
            let skips = said.contains("--skip device_recovers_after_an_illegal_address");
            let skipped_here = matches!(tool, "initcheck" | "synccheck");
            assert_eq!(skips, skipped_here, "{tool}: {said}");
            assert!(
                said.contains(&format!(
                    "under={tool} args=--include-ignored --test-threads=1"
                )),
                "{said}"
            );
            assert_eq!(r.contains("skipped=1 "), skipped_here, "{r}");
        }
        assert!(!text.contains("ui-0"), "ui tests need cargo:\n{text}");
        assert_eq!(out.status.code(), Some(1), "{text}");
        let summary = fs::read_to_string(dir.join("out/sanitize-summary.txt")).unwrap();
        assert_eq!(summary.lines().count(), 20, "{summary}");
        assert!(dir
            .join("out/sanitize-memcheck/gpu_memory-1.sanitizer")
            .exists());
        // The table: a header with the four tools, one row per program.
        let table = fs::read_to_string(dir.join("out/sanitize-table.txt")).unwrap();
        let rows: Vec<Vec<&str>> = table
            .lines()
            .map(|l| l.split_whitespace().collect())
            .collect();
        assert_eq!(
            rows[0],
            ["program", "memcheck", "racecheck", "synccheck", "initcheck"],
            "{table}"
        );
        assert_eq!(rows.len(), 6, "{table}");
        let row = |name: &str| {
            rows.iter()
                .find(|r| r[0] == name)
                .unwrap_or_else(|| panic!("no row {name}:\n{table}"))
                .clone()
        };
        assert_eq!(row("gpu_kernels-3")[1..3], ["2/2/0", "ok"], "{table}");
        assert_eq!(row("gpu_memory-1")[1..3], ["2/0/2", "FAIL"], "{table}");
        assert_eq!(row("gpu_e2e-6")[1..3], ["1/0/1", "FAILED(rc=1)"], "{table}");
        assert_eq!(row("vector_add")[7..9], ["0/0/0", "ok"], "{table}");
        assert!(text.contains(&table), "the table is printed:\n{text}");
        let _ = fs::remove_dir_all(&dir);
    }
}
