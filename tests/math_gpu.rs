//! The math-library accuracy measurement of `math_ulp.rs` on CUDA device 0: prints the table in
//! the format of `docs/math-ulp.md` and fails on any function over CUDA's bound. Skips without a
//! GPU unless `FERROCUDA_REQUIRE_GPU=1`. Run with `cargo test --test math_gpu -- --ignored --nocapture`.

mod math_common;

use ferrocuda::prelude::*;
use math_common::*;

fn gpu() -> Option<Device> {
    match Device::cuda(0) {
        Ok(d) => Some(d),
        Err(e) => {
            if std::env::var("FERROCUDA_REQUIRE_GPU").as_deref() == Ok("1") {
                panic!("FERROCUDA_REQUIRE_GPU=1 but no GPU is usable: {e}");
            }
            eprintln!("skipping GPU test: {e}");
            None
        }
    }
}

#[test]
#[ignore = "needs a GPU"]
fn math_functions_within_cuda_bounds_on_the_gpu() {
    let Some(dev) = gpu() else { return };
    let mut rows = measure_f32(&dev, n_inputs());
    rows.extend(measure_f64(&dev, n_inputs()));
    rows.extend(measure_fast(&dev, n_inputs()));
    println!("{}", table(&rows, "GPU"));
    let bad: Vec<_> = rows.iter().filter(|r| !r.ok()).collect();
    assert!(bad.is_empty(), "over CUDA's bound: {bad:#?}");
}

/// The simulator computes every f64 math function with the GPU's bits: the same inlined IR, and
/// PTX's f64 add/mul/fma/div/sqrt are correctly rounded on both.
#[test]
#[ignore = "needs a GPU"]
fn f64_math_on_the_gpu_matches_the_simulator_bit_for_bit() {
    let Some(dev) = gpu() else { return };
    let n = 1 << 16;
    let mut gpu_out = outputs_f64(&dev, n);
    let mut sim_out = outputs_f64(&Device::simulator(), n);
    // erfcx, normcdf and the f64 inverse error functions.
    gpu_out.extend(math_common::normal::outputs_f64(&dev, n));
    sim_out.extend(math_common::normal::outputs_f64(&Device::simulator(), n));
    gpu_out.extend(math_common::ints::outputs_f64(&dev, n));
    sim_out.extend(math_common::ints::outputs_f64(&Device::simulator(), n));
    gpu_out.extend(math_common::bessel_i::outputs_f64(&dev, n));
    sim_out.extend(math_common::bessel_i::outputs_f64(&Device::simulator(), n));
    let mut differ = Vec::new();
    for ((name, xs, zs, g), (_, _, _, s)) in gpu_out.iter().zip(&sim_out) {
        let bad = g
            .iter()
            .zip(s)
            .position(|(a, b)| a.to_bits() != b.to_bits() && !(a.is_nan() && b.is_nan()));
        if let Some(i) = bad {
            let z = zs.get(i).copied().unwrap_or(0.0);
            differ.push(format!(
                "{name}({:e}, {z:e}): GPU {:e}, simulator {:e}",
                xs[i], g[i], s[i]
            ));
        }
    }
    // The three- and four-argument functions (`norm3d` ...).
    let gpu_more = math_common::more::outputs_f64(&dev, n);
    let sim_more = math_common::more::outputs_f64(&Device::simulator(), n);
    for ((name, cols, g), (_, _, s)) in gpu_more.iter().zip(&sim_more) {
        let bad = g
            .iter()
            .zip(s)
            .position(|(a, b)| a.to_bits() != b.to_bits() && !(a.is_nan() && b.is_nan()));
        if let Some(i) = bad {
            let args: Vec<f64> = cols.iter().map(|c| c[i]).collect();
            differ.push(format!(
                "{name}{args:?}: GPU {:e}, simulator {:e}",
                g[i], s[i]
            ));
        }
    }
    assert!(
        differ.is_empty(),
        "GPU and simulator differ:\n{}",
        differ.join("\n")
    );
}
