//! Maximum ulp error of every math-library function on the simulator, against CUDA's documented
//! bounds exactly (see `math_common`), on 2^15 inputs per function (special values included;
//! `MATH_ULP_N` for more). The same measurement runs on a GPU in `math_gpu.rs` on 2^20 inputs.

mod math_common;

use ferrocuda::prelude::*;
use math_common::*;

fn check(rows: &[Row], column: &str) {
    println!("{}", table(rows, column));
    let bad: Vec<_> = rows.iter().filter(|r| !r.ok()).collect();
    assert!(bad.is_empty(), "over CUDA's bound: {bad:#?}");
}

#[test]
fn f32_functions_within_cuda_bounds_on_the_simulator() {
    check(&measure_f32(&Device::simulator(), n_inputs_sim()), "sim");
}

/// Every f64 function against the correctly rounded result (MPFR), with CUDA's bounds exactly.
#[test]
fn f64_within_cuda_bounds_on_the_simulator() {
    check(&measure_f64(&Device::simulator(), n_inputs_sim()), "sim");
}

#[test]
fn fast_intrinsics_within_cuda_bounds_on_the_simulator() {
    check(&measure_fast(&Device::simulator(), n_inputs_sim()), "sim");
}
