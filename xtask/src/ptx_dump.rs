//! `cargo xtask ptx`: print one pipeline stage of a registered kernel, or the IR after chosen
//! passes (`--print-after PASS[,PASS...]`, `--print-after-all`), then ptxas's resource report;
//! `--time` adds each stage's compile time. For a kernel outside the registry (a test's, an
//! example's, your program's), set `FERROCUDA_PRINT_AFTER=PASS[,PASS...]` (or `all`) when
//! running whatever compiles it: every compile then prints its IR after those passes to stderr.
//! `--overflow-checks on|off` forces integer overflow checks (by default the examples' build
//! profile decides: on in a debug build of xtask, off in a release build).
//! `--block X[,Y[,Z]]` compiles the variant a launch with that block shape gets (launch-time
//! specialization: as if the kernel had `#[kernel(block_dim(X, Y, Z))]`, unless it has its own
//! or opts out); without it, the general variant. The specialization key is printed first.

use ferrocuda::kernel_compiler::{compile, passes, CompileOptions, Specialization};
use ferrocuda_examples::registry;

pub fn run(args: &[String]) -> Result<(), String> {
    let mut name = None;
    let mut sm = 90;
    let mut stage = "ptx".to_string();
    let mut bounds_checks = true;
    let mut overflow_checks = None;
    let mut print_after: Option<passes::PrintAfter> = None;
    let mut time = false;
    let mut block = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--arch" => {
                let v = it.next().ok_or("--arch needs a value such as sm_90")?;
                sm = v
                    .trim_start_matches("sm_")
                    .parse()
                    .map_err(|_| format!("bad --arch `{v}`"))?;
            }
            "--no-checks" => bounds_checks = false,
            "--overflow-checks" => {
                overflow_checks = match it.next().map(String::as_str) {
                    Some("on") => Some(true),
                    Some("off") => Some(false),
                    _ => return Err("--overflow-checks needs `on` or `off`".into()),
                }
            }
            "--print-after-all" => print_after = Some(passes::PrintAfter::All),
            "--print-after" => {
                let v = it
                    .next()
                    .ok_or("--print-after needs pass names (or `all`)")?;
                print_after = Some(passes::PrintAfter::parse(v)?);
            }
            "--time" => time = true,
            "--block" => {
                let v = it.next().ok_or("--block needs a shape such as 32,8")?;
                block = Some(parse_block(v)?);
            }
            "--stage" => stage = it.next().ok_or("--stage needs ast|ir|opt|ptx")?.clone(),
            s if name.is_none() => name = Some(s.to_string()),
            s => return Err(format!("unexpected argument `{s}`")),
        }
    }
    let name = name.ok_or("which kernel? (`cargo xtask list` shows them)")?;
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
