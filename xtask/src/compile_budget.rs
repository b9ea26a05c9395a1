//! `cargo xtask compile-budget`: the compiler's cost per example kernel (the registry's and the
//! porting corpus's) in instructions executed, counted by valgrind's callgrind, against a
//! committed budget. The count for one binary is the same on every run, whatever else the
//! machine is doing (wall time on a shared 2-core CI machine varies by 2x), so this check can
//! fail a change that makes the compiler slower, and passes the ones that trade a little speed
//! for clearer code within the headroom.
//!
//! Each kernel is compiled in child processes under callgrind, as a launch on a GPU compiles it
//! (sm_90, bounds checks on, no source markers, specialized for the block shape its program
//! launches it with where the registry names one): one process compiles it once, another twice;
//! the difference is one compile without the process's start and one-time work (the intrinsic
//! table), on every thread (a compile runs on a thread of its own). Needs a release build
//! (`cargo run --release -p xtask -- compile-budget`) and `valgrind` on the `PATH`.

use std::process::Command;

use ferrocuda::kernel_compiler::{compile, CompileOptions, Specialization};
use ferrocuda_examples::registry;

/// Instructions allowed per compile of a GEMM (`sgemm`, `corpus_sgemm_regtile`, `wmma_gemm`):
/// register tiles unrolled in full (or eight 8-register `wmma` accumulators moved element by
/// element) make them the largest example kernels. SGEMM counts 30.7 M with `vector_access`,
/// `define_loads` (the ptxas workaround, 0.15 M of it) and the check passes of the plain index
/// style (`version_loops`, `cold_remat`, `narrow_compares`).
const SGEMM_BUDGET: u64 = 32_000_000;
/// Instructions allowed per compile of every other example kernel: a loop `version_loops`
/// copies goes through the later passes twice (the row softmax has three: 10.6 M).
const OTHER_BUDGET: u64 = 12_000_000;

/// `cargo xtask compile-budget [KERNELS...]`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Registered kernels to count (default: every example and corpus kernel).
    pub kernels: Vec<String>,
}

/// `cargo xtask compile-once KERNEL [TIMES]` (what `compile-budget` runs under callgrind).
#[derive(clap::Args, Debug)]
pub struct OnceArgs {
    /// A registered kernel.
    pub kernel: String,
    /// How many times to compile it.
    #[arg(default_value_t = 1)]
    pub times: u32,
}

pub fn run(args: &Args) -> Result<(), String> {
    if cfg!(debug_assertions) {
        return Err(
            "compile-budget counts a release build's instructions: run it as \
                    `cargo run --release -p xtask -- compile-budget`"
                .into(),
        );
    }
    let names: Vec<&str> = if args.kernels.is_empty() {
        registry::KERNELS
            .iter()
            .chain(registry::CORPUS_KERNELS)
            .map(|k| k.name)
            .collect()
    } else {
        args.kernels.iter().map(String::as_str).collect()
    };
    let exe = std::env::current_exe().map_err(|e| format!("this executable: {e}"))?;
    println!("{:<26} {:>12} {:>12}", "kernel", "instructions", "budget");
    let mut over = Vec::new();
    for name in names {
        registry::find(name).ok_or_else(|| format!("no kernel named `{name}`"))?;
        let (once, twice) = (instructions(&exe, name, 1)?, instructions(&exe, name, 2)?);
        let count = twice
            .checked_sub(once)
            .ok_or_else(|| format!("`{name}`: two compiles counted {twice}, one {once}"))?;
        let budget = if name.contains("gemm") {
            SGEMM_BUDGET
        } else {
            OTHER_BUDGET
        };
        println!("{name:<26} {count:>12} {budget:>12}");
        if count > budget {
            over.push(format!("{name}: {count} > {budget}"));
        }
    }
    if over.is_empty() {
        Ok(())
    } else {
        Err(format!("over the compile budget: {}", over.join(", ")))
    }
}

/// Instructions executed (on every thread) by a process that compiles kernel `name` `times`
/// times.
fn instructions(exe: &std::path::Path, name: &str, times: u32) -> Result<u64, String> {
    let out = Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(exe)
        .args(["compile-once", name, &times.to_string()])
        .output()
        .map_err(|e| format!("valgrind: {e} (install it: `apt-get install valgrind`)"))?;
    let log = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        return Err(format!("valgrind on `{name}` failed:\n{log}"));
    }
    collected(&log).ok_or_else(|| format!("no instruction count in valgrind's output:\n{log}"))
}

/// The `Collected : N` line of callgrind's summary.
fn collected(log: &str) -> Option<u64> {
    log.lines()
        .find_map(|l| l.split("Collected :").nth(1))
        .and_then(|n| n.trim().parse().ok())
}

/// `xtask compile-once KERNEL TIMES`: what [`run`] runs under callgrind.
pub fn compile_once(args: &OnceArgs) -> Result<(), String> {
    let (name, times) = (&args.kernel, args.times);
    let entry = registry::find(name).ok_or_else(|| format!("no kernel named `{name}`"))?;
    let (def, generics) = ((entry.def)(), (entry.generics)());
    let opts = CompileOptions {
        sm: 90,
        source_markers: false,
        specialization: entry.launch_block.map_or(Specialization::GENERAL, |b| {
            Specialization::for_launch(def, b)
        }),
        ..CompileOptions::default()
    };
    for _ in 0..times {
        let c = compile(def, &generics, &opts).map_err(|e| e.to_string())?;
        std::hint::black_box(c);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::collected;

    #[test]
    fn reads_the_collected_line_of_callgrinds_summary() {
        let log = "==7== Callgrind, a call-graph generating cache profiler\n\
                   ==7== Events    : Ir\n==7== Collected : 29631939\n==7==\n\
                   ==7== I   refs:      29,631,939\n";
        assert_eq!(collected(log), Some(29_631_939));
        assert_eq!(collected("==7== error: no such file\n"), None);
    }
}
