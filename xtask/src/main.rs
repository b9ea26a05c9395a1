//! `cargo xtask <command>`: developer tooling that is easier in Rust than in shell.
//!
//! - `ptx <kernel> [--arch sm_90] [--stage ast|ir|opt|ptx] [--no-checks]`: dump a pipeline stage and the ptxas report.
//! - `gpu-bundle [--out DIR]`: release test binaries, examples and this tool in one folder for a GPU
//!   machine without Rust.
//! - `bench [names...]`: the benchmark suite (run on a machine with a GPU).

mod bench;
mod bundle;
mod ptx_dump;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("ptx") => ptx_dump::run(&args[1..]),
        Some("gpu-bundle") => bundle::run(&args[1..]),
        Some("bench") => bench::run(&args[1..]),
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

const USAGE: &str = "usage: cargo xtask <ptx KERNEL [--arch sm_90] [--stage ast|ir|opt|ptx] | list | gpu-bundle [--out DIR] | bench [NAMES...]>";
