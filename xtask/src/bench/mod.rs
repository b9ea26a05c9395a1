//! `cargo xtask bench [names...]`: Ferrocuda kernels against nvcc builds of their CUDA C twins
//! (`benches/reference/*.cu`), timed side by side in one run on one GPU.
//!
//! Method: inputs random (never zeros), outputs checked against a CPU reference before timing,
//! warm-up launches, then CUDA events around each launch; median and spread of `RUNS` runs;
//! buffers several times larger than L2 for the memory-bound workloads.
//!
//! `cargo xtask bench corpus [CASES...] [--peers]` runs the porting corpus alone (see `corpus.rs`).

mod async_matmul;
mod chart;
mod checks;
mod corpus;
mod cublas;
mod graphs;
mod math;
mod peers;
mod report;
mod timing;
mod tma;
mod twins;
mod workloads;
mod workloads_cluster;
mod workloads_intrinsics;
mod workloads_l2;

use std::time::Instant;

use ferrocuda::host_runtime::Device;

use crate::progress::Progress;

pub use math::kernel_def as math_kernel_def;
pub use report::Row;

/// `cargo xtask bench [WORKLOADS...]` or `cargo xtask bench corpus [CASES...] [--peers]`.
#[derive(clap::Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    /// Workloads to run, by name prefix (default: all): copy, saxpy, transpose, sgemm, cublas,
    /// launch, compile, bounds, reduction, histogram, pdl, dsmem-histogram, l2-persist,
    /// math-functions, math-kernels, corpus.
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
    /// Redraw bench.svg and bench.png from a bench.json (no GPU needed).
    Chart {
        /// The report to draw.
        #[arg(default_value = "docs/bench/bench.json")]
        json: std::path::PathBuf,
        /// Where to write the charts (default: the report's folder).
        #[arg(long, value_name = "DIR")]
        out: Option<std::path::PathBuf>,
    },
}

pub fn run(args: &Args) -> Result<(), String> {
    if let Some(Mode::Chart { json, out }) = &args.mode {
        return redraw(json, out.as_deref());
    }
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
    let selected: Vec<_> = workloads::ALL
        .iter()
        .filter(|w| wanted.is_empty() || wanted.iter().any(|n| w.name.starts_with(n)))
        .collect();
    let progress = Progress::items("bench", selected.len() as u64);
    let mut rows = Vec::new();
    for w in selected {
        progress.start(w.name);
        match (w.run)(&dev, &twins) {
            Ok(mut r) => rows.append(&mut r),
            Err(e) => {
                progress.println(&format!("  {} failed: {e}", w.name));
                rows.push(Row::failed(w.name, &e));
            }
        }
        progress.inc();
    }
    progress.finish(&format!("{} rows", rows.len()));
    report::print_table(&header, &rows);
    let out_dir = std::env::var("OUT").unwrap_or_else(|_| ".".into());
    let json = format!("{out_dir}/bench.json");
    report::write_json(&json, &header, &rows)?;
    let report = report::Report::new(&header, &rows);
    let (charts, note) = chart::write(std::path::Path::new(&out_dir), &report)?;
    if let Some(note) = note {
        eprintln!("{note}");
    }
    let charts: Vec<String> = charts.iter().map(|p| p.display().to_string()).collect();
    eprintln!(
        "bench done in {:.1}s; wrote {json}, {}",
        started.elapsed().as_secs_f32(),
        charts.join(", ")
    );
    Ok(())
}

/// `bench chart`: the charts of a report written earlier, from its own numbers.
fn redraw(json: &std::path::Path, out: Option<&std::path::Path>) -> Result<(), String> {
    let text = std::fs::read_to_string(json).map_err(|e| format!("{}: {e}", json.display()))?;
    let report: report::Report =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", json.display()))?;
    let dir = out
        .or_else(|| json.parent().filter(|p| !p.as_os_str().is_empty()))
        .unwrap_or(std::path::Path::new("."));
    let (written, note) = chart::write(dir, &report)?;
    if let Some(note) = note {
        eprintln!("{note}");
    }
    for p in written {
        eprintln!("wrote {}", p.display());
    }
    Ok(())
}
