//! `cargo xtask compile-budget`: the compiler's cost per example kernel in instructions executed,
//! counted by valgrind's callgrind, against a committed budget. Instruction counts of one binary
//! are the same on every run and machine (wall time on a shared CI machine varies by 2x), so
//! this check can fail a change that makes the compiler slower, and passes the ones that trade
//! a little speed for clearer code within the headroom.
//!
//! Each kernel is compiled in a child process under callgrind, as a launch on a GPU compiles
//! it (sm_90, bounds checks on, no source markers): once to warm up (the intrinsic table and
//! other one-time work), then once more inside [`measured_compile`], the only function whose
//! instructions are collected. Needs a release build (`cargo run --release -p xtask --
//! compile-budget`) and `valgrind` on the `PATH`.

use std::process::Command;

use ferrocuda::kernel_compiler::{compile, CompileOptions};
use ferrocuda_examples::registry;

/// Instructions allowed per compile of the register-blocked SGEMM, the largest example kernel.
const SGEMM_BUDGET: u64 = 30_000_000;
/// Instructions allowed per compile of every other example kernel.
const OTHER_BUDGET: u64 = 10_000_000;

pub fn run(args: &[String]) -> Result<(), String> {
    if cfg!(debug_assertions) {
        return Err(
            "compile-budget counts a release build's instructions: run it as \
                    `cargo run --release -p xtask -- compile-budget`"
                .into(),
        );
    }
    let names: Vec<&str> = if args.is_empty() {
        registry::KERNELS.iter().map(|k| k.name).collect()
    } else {
        args.iter().map(String::as_str).collect()
    };
    let exe = std::env::current_exe().map_err(|e| format!("this executable: {e}"))?;
    println!("{:<20} {:>14} {:>14}", "kernel", "instructions", "budget");
    let mut over = Vec::new();
    for name in names {
        registry::find(name).ok_or_else(|| format!("no kernel named `{name}`"))?;
        let out = Command::new("valgrind")
            .args([
                "--tool=callgrind",
                "--callgrind-out-file=/dev/null",
                "--collect-atstart=no",
                "--toggle-collect=*measured_compile*",
            ])
            .arg(&exe)
            .args(["compile-once", name])
            .output()
            .map_err(|e| format!("valgrind: {e} (install it: `apt-get install valgrind`)"))?;
        let log = String::from_utf8_lossy(&out.stderr);
        if !out.status.success() {
            return Err(format!("valgrind on `{name}` failed:\n{log}"));
        }
        let count = collected(&log)
            .ok_or_else(|| format!("no instruction count in valgrind's output:\n{log}"))?;
        let budget = if name == "sgemm" {
            SGEMM_BUDGET
        } else {
            OTHER_BUDGET
        };
        println!("{name:<20} {count:>14} {budget:>14}");
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

/// The `Collected : N` line of callgrind's summary.
fn collected(log: &str) -> Option<u64> {
    log.lines()
        .find_map(|l| l.split("Collected :").nth(1))
        .and_then(|n| n.trim().parse().ok())
}

/// `xtask compile-once KERNEL`: what [`run`] runs under callgrind.
pub fn compile_once(args: &[String]) -> Result<(), String> {
    let name = args.first().ok_or("compile-once needs a kernel name")?;
    let entry = registry::find(name).ok_or_else(|| format!("no kernel named `{name}`"))?;
    let opts = CompileOptions {
        sm: 90,
        source_markers: false,
        ..CompileOptions::default()
    };
    let (def, generics) = ((entry.def)(), (entry.generics)());
    compile(def, &generics, &opts).map_err(|e| e.to_string())?;
    let ptx = measured_compile(def, &generics, &opts)?;
    std::hint::black_box(ptx);
    Ok(())
}

/// One compile, the only code callgrind counts (by this function's name).
#[inline(never)]
fn measured_compile(
    def: &'static ferrocuda::kernel_ir::ast::FnDef,
    generics: &[ferrocuda::kernel_ir::GenericValue],
    opts: &CompileOptions,
) -> Result<String, String> {
    compile(def, generics, opts)
        .map(|c| c.ptx)
        .map_err(|e| e.to_string())
}
