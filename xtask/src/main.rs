//! `cargo xtask <command>`: developer tooling that is easier in Rust than in shell.
//!
//! Commands: `ptx`, `compile-time`, `compile-budget`, `gpu-bundle`, `bench` (and `bench corpus`,
//! `bench chart`), `cycles`, `list`. Their arguments are declared once, with clap's derive API,
//! next to the code that uses them (each module's `Args`); `cargo xtask <command> --help` prints
//! them. A hand-written parser had drifted from its usage text and ran a benchmark on
//! `bench --help`.

mod bench;
mod bundle;
mod compile_budget;
mod compile_time;
mod cycles;
mod progress;
mod ptx_dump;
mod sanitize;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser, Debug)]
#[command(
    name = "cargo xtask",
    bin_name = "cargo xtask",
    about = "Ferrocuda's developer tooling"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Print one pipeline stage of a registered kernel (or the IR after chosen passes), then
    /// ptxas's resource report.
    Ptx(ptx_dump::Args),
    /// Our compiler's time per registered kernel (run it in release), optionally per pass, or
    /// every kernel's PTX and IR written to a folder.
    CompileTime(compile_time::Args),
    /// Instructions per compile of every example kernel (callgrind, release build) against the
    /// committed budget; fails above it.
    CompileBudget(compile_budget::Args),
    /// Compile one kernel TIMES times (what compile-budget runs under callgrind).
    #[command(hide = true)]
    CompileOnce(compile_budget::OnceArgs),
    /// Release test binaries, examples and this tool in one folder for a GPU machine without
    /// Rust (`run.sh` runs them; `run.sh sanitize` under compute-sanitizer).
    GpuBundle(bundle::Args),
    /// The benchmark suite against nvcc builds of the CUDA C twins (needs a GPU).
    Bench(bench::Args),
    /// Fail when a module imports a module that imports it back.
    Cycles,
    /// The registered kernels' names.
    List,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Ptx(a) => ptx_dump::run(a),
        Command::CompileTime(a) => compile_time::run(a),
        Command::CompileBudget(a) => compile_budget::run(a),
        Command::CompileOnce(a) => compile_budget::compile_once(a),
        Command::GpuBundle(a) => bundle::run(a),
        Command::Bench(a) => bench::run(a),
        Command::Cycles => cycles::run(),
        Command::List => {
            for k in ferrocuda_examples::registry::KERNELS {
                println!("{}", k.name);
            }
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `sm_90` or `90`.
fn parse_arch(v: &str) -> Result<u32, String> {
    v.trim_start_matches("sm_")
        .parse()
        .map_err(|_| format!("bad --arch `{v}`: write sm_90 (or 90)"))
}

#[cfg(test)]
mod cli_tests {
    use clap::error::ErrorKind;
    use clap::{CommandFactory, Parser};

    use super::{bench, Cli, Command};

    fn parse(line: &str) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("cargo-xtask").chain(line.split_whitespace()))
    }

    /// Every subcommand (and `bench corpus`) answers `--help` with help, never by running.
    #[test]
    fn every_subcommand_prints_help() {
        let cmd = Cli::command();
        let mut lines: Vec<String> = cmd
            .get_subcommands()
            .map(|c| format!("{} --help", c.get_name()))
            .collect();
        lines.push("bench corpus --help".into());
        lines.push("bench chart --help".into());
        for must in [
            "ptx",
            "gpu-bundle",
            "bench",
            "compile-budget",
            "compile-time",
            "cycles",
        ] {
            assert!(
                lines.iter().any(|l| l.starts_with(&format!("{must} "))),
                "no `{must}` subcommand"
            );
        }
        for line in &lines {
            match parse(line) {
                Err(e) if e.kind() == ErrorKind::DisplayHelp => {
                    assert!(e.to_string().contains("Usage:"), "{line}: {e}");
                }
                other => panic!("`{line}` did not print help: {other:?}"),
            }
        }
    }

    #[test]
    fn the_parser_is_consistent() {
        Cli::command().debug_assert();
    }

    /// The spellings the docs, CI and the bundle's `run.sh` use keep working.
    #[test]
    fn existing_spellings_parse() {
        let cli = parse("ptx sgemm --arch sm_80 --stage opt --no-checks --overflow-checks off --print-after unroll,cse --time --block 32,8").unwrap();
        let Command::Ptx(a) = cli.command else {
            panic!()
        };
        assert_eq!(
            (a.kernel.as_str(), a.arch, a.stage.as_str(), a.no_checks),
            ("sgemm", 80, "opt", true)
        );
        assert_eq!(a.overflow_checks.as_deref(), Some("off"));
        assert_eq!(a.print_after.as_deref(), Some("unroll,cse"));
        assert_eq!(a.block, Some([32, 8, 1]));
        assert!(a.time);
        assert!(parse("ptx sgemm --print-after-all").is_ok());
        assert!(parse("ptx sgemm --block 0").is_err());
        assert!(parse("ptx sgemm --stage bogus").is_err());

        let Command::CompileTime(a) = parse(
            "compile-time sgemm saxpy --runs 3 --passes --markers --dump d --dump-only --arch 90",
        )
        .unwrap()
        .command
        else {
            panic!()
        };
        assert_eq!(a.kernels, ["sgemm", "saxpy"]);
        assert_eq!(
            (a.runs, a.passes, a.markers, a.dump_only, a.arch),
            (3, true, true, true, 90)
        );

        let Command::CompileBudget(a) = parse("compile-budget sgemm").unwrap().command else {
            panic!()
        };
        assert_eq!(a.kernels, ["sgemm"]);
        let Command::CompileOnce(a) = parse("compile-once sgemm 2").unwrap().command else {
            panic!()
        };
        assert_eq!((a.kernel.as_str(), a.times), ("sgemm", 2));

        let Command::GpuBundle(a) = parse("gpu-bundle --out /tmp/b").unwrap().command else {
            panic!()
        };
        assert_eq!(a.out, std::path::Path::new("/tmp/b"));
        assert!(matches!(parse("cycles").unwrap().command, Command::Cycles));
        assert!(parse("cycles extra").is_err());
        assert!(matches!(parse("list").unwrap().command, Command::List));
    }

    #[test]
    fn bench_takes_workloads_or_the_corpus_mode() {
        let bench = |line: &str| match parse(line).unwrap().command {
            Command::Bench(a) => a,
            other => panic!("{other:?}"),
        };
        let a = bench("bench");
        assert!(a.workloads.is_empty() && a.mode.is_none());
        let a = bench("bench saxpy sgemm");
        assert_eq!(a.workloads, ["saxpy", "sgemm"]);
        assert!(a.mode.is_none());
        match bench("bench corpus transpose --peers").mode {
            Some(bench::Mode::Corpus { cases, peers }) => {
                assert_eq!(cases, ["transpose"]);
                assert!(peers);
            }
            other => panic!("no corpus mode: {other:?}"),
        }
        match bench("bench corpus").mode {
            Some(bench::Mode::Corpus { cases, peers }) => assert!(cases.is_empty() && !peers),
            other => panic!("no corpus mode: {other:?}"),
        }
        match bench("bench chart").mode {
            Some(bench::Mode::Chart { json, out }) => {
                assert_eq!(json, std::path::Path::new("docs/bench/bench.json"));
                assert!(out.is_none());
            }
            other => panic!("no chart mode: {other:?}"),
        }
        match bench("bench chart r.json --out o").mode {
            Some(bench::Mode::Chart { json, out }) => {
                assert_eq!(json, std::path::Path::new("r.json"));
                assert_eq!(out.as_deref(), Some(std::path::Path::new("o")));
            }
            other => panic!("no chart mode: {other:?}"),
        }
        // The full suite's corpus workload, after others, stays a workload name.
        let a = bench("bench saxpy corpus");
        assert_eq!(a.workloads, ["saxpy", "corpus"]);
        assert!(a.mode.is_none());
    }
}
