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
