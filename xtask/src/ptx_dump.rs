//! `cargo xtask ptx`: print one pipeline stage of a registered kernel, or the IR after chosen
//! passes (`--print-after PASS[,PASS...]`, `--print-after-all`), then ptxas's resource report;
//! `--time` adds each stage's compile time. For a kernel outside the registry (a test's, an
//! example's, your program's), set `FERROCUDA_PRINT_AFTER=PASS[,PASS...]` (or `all`) when
//! running whatever compiles it: every compile then prints its IR after those passes to stderr.
//! `--overflow-checks on|off` forces integer overflow checks (by default the examples' build
//! profile decides: on in a debug build of xtask, off in a release build).
//! `--block X[,Y[,Z]]` compiles the variant a launch with that block shape gets (launch-time
//! specialization: as if the kernel had `#[kernel(block_dim(X, Y, Z))]`, unless it has its own
//! or opts out); without it, the general variant. `--dyn-shared BYTES` compiles the variant a
//! launch with that much dynamic shared memory gets (`dynamic_shared`'s length a constant). The
//! specialization key is printed first.

use ferrocuda::kernel_compiler::{compile, passes, CompileOptions, Specialization};
use ferrocuda_examples::registry;

/// `cargo xtask ptx KERNEL [options]`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A registered kernel (`cargo xtask list`) or a math benchmark kernel (`k_sin`, ...).
    pub kernel: String,
    /// Target architecture.
    #[arg(long, default_value = "sm_90", value_parser = crate::parse_arch)]
    pub arch: u32,
    /// The stage to print (`ptx`: the PTX, then ptxas's report).
    #[arg(long, default_value = "ptx", value_parser = ["ast", "ir", "opt", "ptx"])]
    pub stage: String,
    /// Compile without bounds checks.
    #[arg(long)]
    pub no_checks: bool,
    /// Force integer overflow checks on or off (default: the examples' build profile decides).
    #[arg(long, value_name = "on|off", value_parser = ["on", "off"])]
    pub overflow_checks: Option<String>,
    /// Print the IR after these passes (comma-separated, or `all`).
    #[arg(long, value_name = "PASS[,PASS]")]
    pub print_after: Option<String>,
    /// Print the IR after every pass.
    #[arg(long)]
    pub print_after_all: bool,
    /// Print each stage's compile time (meaningful in a release build).
    #[arg(long)]
    pub time: bool,
    /// Compile the variant a launch with this block shape gets (X, X,Y or X,Y,Z).
    #[arg(long, value_name = "X,Y,Z", value_parser = parse_block)]
    pub block: Option<[u32; 3]>,
    /// Compile the variant a launch with this many bytes of dynamic shared memory gets.
    #[arg(long, value_name = "BYTES")]
    pub dyn_shared: Option<u32>,
}

pub fn run(args: &Args) -> Result<(), String> {
    let name = args.kernel.clone();
    let sm = args.arch;
    let stage = args.stage.clone();
    let bounds_checks = !args.no_checks;
    let overflow_checks = args.overflow_checks.as_deref().map(|v| v == "on");
    let print_after = match (&args.print_after, args.print_after_all) {
        (_, true) => Some(passes::PrintAfter::All),
        (Some(v), false) => Some(passes::PrintAfter::parse(v)?),
        (None, false) => None,
    };
    let time = args.time;
    let block = args.block;
    // The registry's kernels, then the math benchmark's per-function kernels (`k_sin`...).
    let (def, generics) = match registry::find(&name) {
        Some(entry) => ((entry.def)(), (entry.generics)()),
        None => (
            crate::bench::math_kernel_def(&name).ok_or_else(|| {
                format!("no kernel named `{name}` (`cargo xtask list` shows them)")
            })?,
            Vec::new(),
        ),
    };
    let specialization = match block {
        Some(b) => Specialization::for_launch(def, b),
        None => Specialization::GENERAL,
    };
    let specialization = match args.dyn_shared {
        Some(bytes) => specialization.with_dynamic_shared(def, bytes),
        None => specialization,
    };
    eprintln!("// specialization: {specialization}");
    let opts = CompileOptions {
        sm,
        bounds_checks,
        overflow_checks,
        specialization,
        ..CompileOptions::default()
    };
    if let Some(pa) = &print_after {
        let mut k = compile::lower_with(def, &generics, &opts).map_err(|e| e.to_string())?;
        if pa.wants("frontend") {
            println!("// ---- IR after frontend\n{k}");
        }
        passes::optimize_with(&mut k, &opts, &mut |pass: &str, k: &_| {
            if pa.wants(pass) {
                println!("// ---- IR after {pass}\n{k}");
            }
        });
    }
    if time {
        crate::compile_time::print_stages(def, &generics, &opts, 9)?;
    }
    match stage.as_str() {
        "ast" => println!("{def:#?}"),
        "ir" => {
            let k = compile::lower_with(def, &generics, &opts).map_err(|e| e.to_string())?;
            println!("{k}");
        }
        "opt" => {
            let mut k = compile::lower_with(def, &generics, &opts).map_err(|e| e.to_string())?;
            passes::optimize(&mut k, &opts);
            println!("{k}");
        }
        "ptx" => {}
        s => return Err(format!("unknown stage `{s}` (ast|ir|opt|ptx)")),
    }
    let compiled = compile(def, &generics, &opts).map_err(|e| e.to_string())?;
    if specialization.dyn_shared.is_some() && !compiled.kernel.uses_dyn_shared {
        eprintln!(
            "// the kernel uses no dynamic shared memory: its launches get `{}`",
            specialization.without_dynamic_shared()
        );
    }
    if stage == "ptx" {
        println!("{}", compiled.ptx);
    }
    match kernel_testkit::ptxas::find() {
        Some(_) => {
            let report = kernel_testkit::ptxas::assemble(&compiled.ptx, sm)?;
            eprintln!("ptxas sm_{sm}: {report}");
        }
        None => eprintln!("ptxas not found (set PTXAS or `python3 -m pip install nvidia-cuda-nvcc`): no resource report"),
    }
    Ok(())
}

/// `X`, `X,Y` or `X,Y,Z` (missing axes are 1).
fn parse_block(v: &str) -> Result<[u32; 3], String> {
    let bad = || format!("bad --block `{v}`: write X, X,Y or X,Y,Z (positive integers)");
    let axes: Vec<u32> = v
        .split(',')
        .map(|a| a.trim().parse::<u32>().ok().filter(|&n| n > 0))
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    if axes.is_empty() || axes.len() > 3 {
        return Err(bad());
    }
    let mut b = [1; 3];
    b[..axes.len()].copy_from_slice(&axes);
    Ok(b)
}
