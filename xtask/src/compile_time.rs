//! `cargo xtask compile-time`: how long our compiler takes per registered kernel (AST -> PTX
//! text, what the bench's "compile: ours" row measures), optionally split into front end, each
//! pass and PTX emission, and optionally every kernel's PTX and optimized IR written to a folder (to check that a
//! compiler speed-up changed no output byte).
//!
//! Build it in release (`cargo xtask` runs a debug build): `cargo run --release -p xtask --
//! compile-time`.

use std::time::{Duration, Instant};

use ferrocuda::kernel_compiler::{compile, passes, ptx, CompileOptions};
use ferrocuda::kernel_ir::ast::FnDef;
use ferrocuda::kernel_ir::ir::Kernel;
use ferrocuda::kernel_ir::GenericValue;
use ferrocuda_examples::registry::{self, KernelEntry};

/// `cargo xtask compile-time [KERNELS...] [options]`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Registered kernels to time (default: all of them).
    pub kernels: Vec<String>,
    /// Target architecture.
    #[arg(long, default_value = "sm_90", value_parser = crate::parse_arch)]
    pub arch: u32,
    /// Compiles per kernel (the median is reported; at least 1).
    #[arg(long, default_value_t = 15)]
    pub runs: usize,
    /// Split the time into front end, each pass and PTX emission.
    #[arg(long)]
    pub passes: bool,
    /// Compile with the simulator's source markers (a GPU launch compiles without).
    #[arg(long)]
    pub markers: bool,
    /// Write every kernel's PTX and optimized IR (checks on and off) into this folder.
    #[arg(long, value_name = "DIR")]
    pub dump: Option<std::path::PathBuf>,
    /// With `--dump`: write the files and time nothing.
    #[arg(long)]
    pub dump_only: bool,
}

pub fn run(args: &Args) -> Result<(), String> {
    let sm = args.arch;
    let runs = if args.dump_only { 0 } else { args.runs.max(1) };
    let per_pass = args.passes;
    let markers = args.markers;
    let dump = args.dump.clone();
    let names = args.kernels.clone();
    let kernels: Vec<&KernelEntry> = if names.is_empty() {
        registry::KERNELS.iter().collect()
    } else {
        names
            .iter()
            .map(|n| registry::find(n).ok_or_else(|| format!("no kernel named `{n}`")))
            .collect::<Result<_, _>>()?
    };
    if let Some(dir) = &dump {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        for k in &kernels {
            for checks in [true, false] {
                // With markers: the IR as the simulator runs it (the PTX is the same without).
                let opts = options(sm, checks, true);
                // A kernel the target cannot take is written as its error, compared all the same.
                // The optimized IR too: the simulator runs it.
                let (text, ir) = match compile((k.def)(), &(k.generics)(), &opts) {
                    Ok(c) => (c.ptx, c.kernel.to_string()),
                    Err(e) => (format!("error: {e}\n"), String::new()),
                };
                let file = dir.join(format!(
                    "{}.sm_{sm}.{}.ptx",
                    k.name,
                    if checks { "checks" } else { "nochecks" }
                ));
                std::fs::write(&file, text).map_err(|e| format!("{}: {e}", file.display()))?;
                let file = file.with_extension("ir");
                std::fs::write(&file, ir).map_err(|e| format!("{}: {e}", file.display()))?;
            }
        }
        eprintln!(
            "wrote {} PTX and IR files to {}",
            kernels.len() * 2,
            dir.display()
        );
    }
    if runs == 0 {
        return Ok(());
    }
    println!(
        "{:<20} {:>10} {:>10} {:>10}",
        "kernel", "median ms", "min ms", "first ms"
    );
    let mut worst: f64 = 0.0;
    for k in &kernels {
        let opts = options(sm, true, markers);
        let (def, generics) = ((k.def)(), (k.generics)());
        let mut times = Vec::with_capacity(runs);
        let mut first = None;
        // One extra run first: a warm-up, reported apart (the bench compiles each kernel once).
        for _ in 0..=runs {
            let t = Instant::now();
            let c = compile(def, &generics, &opts).map_err(|e| e.to_string())?;
            let d = t.elapsed();
            drop(c);
            if first.is_none() {
                first = Some(d);
            } else {
                times.push(d);
            }
        }
        times.sort();
        let med = ms(times[times.len() / 2]);
        worst = worst.max(med);
        println!(
            "{:<20} {:>10.3} {:>10.3} {:>10.3}",
            k.name,
            med,
            ms(times[0]),
            ms(first.unwrap_or_default())
        );
        if per_pass {
            print_stages((k.def)(), &(k.generics)(), &opts, runs)?;
        }
    }
    println!("max median: {worst:.3} ms");
    Ok(())
}

/// Median time of each stage over `runs` compiles: front end, each pass in pipeline order (a
/// pass that runs several times is reported once per run position), PTX emission.
pub fn print_stages(
    def: &'static FnDef,
    generics: &[GenericValue],
    opts: &CompileOptions,
    runs: usize,
) -> Result<(), String> {
    let mut table: Vec<(String, Vec<Duration>)> = Vec::new();
    // The IR's size after each stage (instructions, variables): what a pass's time scales with.
    let mut sizes: Vec<(usize, usize)> = Vec::new();
    for run in 0..runs {
        let mut row: Vec<(String, Duration)> = Vec::new();
        let t = Instant::now();
        let mut kernel = compile::lower(def, generics).map_err(|e| e.to_string())?;
        if !opts.source_markers {
            passes::util::strip_locs(&mut kernel.body);
        }
        row.push(("frontend".into(), t.elapsed()));
        if run == 0 {
            sizes.push(size(&kernel));
        }
        let mut last = Instant::now();
        passes::optimize_with(&mut kernel, opts, &mut |pass: &str, k: &Kernel| {
            let now = Instant::now();
            row.push((pass.to_string(), now - last));
            if run == 0 {
                sizes.push(size(k));
            }
            last = Instant::now();
        });
        let t = Instant::now();
        let text = ptx::emit(&kernel, opts).map_err(|e| e.to_string())?;
        row.push(("ptx emit".into(), t.elapsed()));
        drop(text);
        if table.is_empty() {
            table = row.into_iter().map(|(n, d)| (n, vec![d])).collect();
        } else {
            for ((_, v), (_, d)) in table.iter_mut().zip(row) {
                v.push(d);
            }
        }
    }
    for (i, (name, mut v)) in table.into_iter().enumerate() {
        v.sort();
        let (insts, vars) = sizes.get(i).copied().unwrap_or((0, 0));
        let size = if i < sizes.len() {
            format!("{insts:>7} insts {vars:>7} vars")
        } else {
            String::new()
        };
        println!("    {:<24} {:>9.3} ms  {size}", name, ms(v[v.len() / 2]));
    }
    Ok(())
}

fn size(k: &Kernel) -> (usize, usize) {
    (passes::util::inst_count(&k.body), k.vars.len())
}

fn options(sm: u32, bounds_checks: bool, source_markers: bool) -> CompileOptions {
    CompileOptions {
        sm,
        bounds_checks,
        source_markers,
        ..CompileOptions::default()
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
