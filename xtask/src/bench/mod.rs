//! `cargo xtask bench [names...]`: Ferrocuda kernels against nvcc builds of their CUDA C twins
//! (`benches/reference/*.cu`), timed side by side in one run on one GPU.
//!
//! Method: inputs random (never zeros), outputs checked against a CPU reference before timing,
//! warm-up launches, then CUDA events around each launch; median and spread of `RUNS` runs;
//! buffers several times larger than L2 for the memory-bound workloads.
//!
//! `cargo xtask bench corpus [CASES...] [--peers]` runs the porting corpus alone (see `corpus.rs`).

mod checks;
mod corpus;
mod cublas;
mod math;
mod peers;
mod report;
mod timing;
mod twins;
mod workloads;
mod workloads_intrinsics;

use std::time::Instant;

use ferrocuda::host_runtime::Device;

pub use math::kernel_def as math_kernel_def;
pub use report::Row;

/// `cargo xtask bench [WORKLOADS...]` or `cargo xtask bench corpus [CASES...] [--peers]`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    /// Workloads to run, by name prefix (default: all): copy, saxpy, transpose, sgemm, cublas,
    /// launch, compile, bounds, reduction, histogram, math-functions, math-kernels, corpus.
    pub workloads: Vec<String>,
    #[command(subcommand)]
    pub mode: Option<Mode>,
}

#[derive(clap::Subcommand, Debug)]
pub enum Mode {
    /// The porting corpus alone against its nvcc twins: its own table, summary and corpus.json.
    Corpus {
        /// Cases to run, by short name (default: all).
        cases: Vec<String>,
        /// Also time the Numba-CUDA and Triton peers.
        #[arg(long)]
        peers: bool,
    },
}

pub fn run(args: &Args) -> Result<(), String> {
    let started = Instant::now();
    let dev = Device::new(0).map_err(|e| format!("the benchmark needs a GPU: {e}"))?;
    let props = dev.properties();
    eprintln!(
        "device: {} (sm_{}), driver {}",
        props.name,
        dev.sm(),
        dev.driver_version()
    );
    let twins = twins::Twins::build(dev.sm());
    match &twins.note {
        Some(note) => eprintln!("nvcc twins: {note}"),
        None => eprintln!("nvcc twins: built with {}", twins.nvcc_version),
    }
    let header = format!(
        "{} (sm_{}), driver {}, {}",
        props.name,
        dev.sm(),
        dev.driver_version(),
        twins.nvcc_version
    );
    if let Some(Mode::Corpus { cases, peers }) = &args.mode {
        corpus::run(&dev, &twins, &header, cases, *peers)?;
        eprintln!("corpus done in {:.1}s", started.elapsed().as_secs_f32());
        return Ok(());
    }
    let wanted: Vec<&str> = args.workloads.iter().map(String::as_str).collect();
    let mut rows = Vec::new();
    for w in workloads::ALL {
        if !wanted.is_empty() && !wanted.iter().any(|n| w.name.starts_with(n)) {
            continue;
        }
        eprintln!("[{:>5.1}s] {} ...", started.elapsed().as_secs_f32(), w.name);
        match (w.run)(&dev, &twins) {
            Ok(mut r) => rows.append(&mut r),
            Err(e) => {
                eprintln!("  {} failed: {e}", w.name);
                rows.push(Row::failed(w.name, &e));
            }
        }
    }
    report::print_table(&header, &rows);
    let out_dir = std::env::var("OUT").unwrap_or_else(|_| ".".into());
    report::write_json(&format!("{out_dir}/bench.json"), &header, &rows)?;
    report::write_svg(&format!("{out_dir}/bench.svg"), &header, &rows)?;
    eprintln!(
        "bench done in {:.1}s; wrote {out_dir}/bench.json and {out_dir}/bench.svg",
        started.elapsed().as_secs_f32()
    );
    Ok(())
}
