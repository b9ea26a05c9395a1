//! saxpy: y = a * x + y.

use ferrocuda::prelude::*;

use crate::util::{check_equal, Rng};

#[kernel]
pub fn saxpy(a: f32, x: &[f32], y: &mut [f32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        y[i] = a * x[i] + y[i];
    }
}

/// The CPU reference contracts `a * x + y` into one fused multiply-add, as the compiler does by default.
pub fn reference(a: f32, x: &[f32], y: &[f32]) -> Vec<f32> {
    x.iter().zip(y).map(|(x, y)| a.mul_add(*x, *y)).collect()
}

pub fn check(dev: &Device, n: usize) -> Result<(), String> {
    let mut rng = Rng::new(7 + n as u64);
    let (x, y) = (rng.vec_f32(n), rng.vec_f32(n));
    let a = 1.5f32;
    let run = || -> ferrocuda::host_runtime::Result<Vec<f32>> {
        let stream = dev.new_stream()?;
        let dx = dev.upload(&x)?;
        let mut dy = dev.upload(&y)?;
        saxpy::launch(&stream, LaunchConfig::for_elements(n, 256), a, &dx, &mut dy)?;
        dy.to_vec()
    };
    let got = run().map_err(|e| e.to_string())?;
    check_equal("saxpy", &got, &reference(a, &x, &y))
}
