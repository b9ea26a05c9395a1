//! `cargo xtask <command>`: developer tooling that is easier in Rust than in shell.
//!
//! - `ptx <kernel> [--arch sm_90] [--stage ast|ir|opt|ptx] [--no-checks] [--overflow-checks on|off]
//!   [--print-after PASS[,PASS]]
//!   [--print-after-all] [--time] [--block X,Y,Z]`: dump a pipeline stage (or the IR after chosen
//!   passes) and the ptxas report (`--block`: the variant launch-time specialization compiles for
//!   that block shape; the key is printed first); `--time` prints each stage's compile time (meaningful in a release build). Any
//!   other kernel: `FERROCUDA_PRINT_AFTER=PASS[,PASS]|all` on whatever compiles it.
//! - `compile-time [KERNELS...] [--runs N] [--passes] [--markers] [--dump DIR [--dump-only]] [--arch sm_90]`: our
//!   compiler's time per kernel (run it in release) as a GPU launch compiles it (`--markers`: with
//!   the simulator's source markers), per pass with `--passes`; `--dump` writes every kernel's
//!   PTX and IR (checks on and off) to compare builds byte for byte.
//! - `compile-budget [KERNELS...]`: instructions per compile of every example kernel (callgrind,
//!   release build) against the committed budget; fails above it (CI runs it).
//! - `gpu-bundle [--out DIR]`: release test binaries, examples and this tool in one folder for a GPU
//!   machine without Rust (`run.sh` runs them; `run.sh sanitize` under compute-sanitizer).
//! - `bench [names...]`: the benchmark suite (run on a machine with a GPU); `bench corpus
//!   [cases...] [--peers]`: the porting corpus against its nvcc twins, with Numba-CUDA and Triton.
//! - `cycles`: fails when a module imports a module that imports it back (also a test).

mod bench;
mod bundle;
mod compile_budget;
mod compile_time;
mod cycles;
mod ptx_dump;
mod sanitize;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ptx") => ptx_dump::run(&args[1..]),
        Some("compile-time") => compile_time::run(&args[1..]),
        Some("compile-budget") => compile_budget::run(&args[1..]),
        Some("compile-once") => compile_budget::compile_once(&args[1..]),
        Some("gpu-bundle") => bundle::run(&args[1..]),
        Some("bench") => bench::run(&args[1..]),
        Some("cycles") => cycles::run(&args[1..]),
        Some("list") => {
            for k in ferrocuda_examples::registry::KERNELS {
                println!("{}", k.name);
            }
            Ok(())
        }
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

const USAGE: &str = "usage: cargo xtask <ptx KERNEL [--arch sm_90] [--stage ast|ir|opt|ptx] [--print-after PASS[,PASS]] [--print-after-all] [--time] [--block X,Y,Z] | compile-time [KERNELS...] [--runs N] [--passes] [--markers] [--dump DIR] | compile-budget [KERNELS...] | list | gpu-bundle [--out DIR] | bench [NAMES...] | bench corpus [CASES...] [--peers] | cycles>";
