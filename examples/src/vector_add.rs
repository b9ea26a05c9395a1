//! vectorAdd: c = a + b, one element per thread.

use ferrocuda::prelude::*;

use crate::util::{check_equal, Rng};

#[kernel]
pub fn vector_add(a: &[f32], b: &[f32], c: &mut [f32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < c.len() {
        c[i] = a[i] + b[i];
    }
}

pub fn reference(a: &[f32], b: &[f32]) -> Vec<f32> {
    a.iter().zip(b).map(|(x, y)| x + y).collect()
}

/// Runs `n` elements on `dev` and compares with the CPU (addition is exact to compare bitwise).
pub fn check(dev: &Device, n: usize) -> Result<(), String> {
    let mut rng = Rng::new(n as u64);
    let (a, b) = (rng.vec_f32(n), rng.vec_f32(n));
    let run = || -> ferrocuda::host_runtime::Result<Vec<f32>> {
        let stream = dev.new_stream()?;
        let da = dev.upload(&a)?;
        let db = dev.upload(&b)?;
        let mut dc = dev.upload(&vec![f32::NAN; n])?;
        vector_add::launch(
            &stream,
            LaunchConfig::for_elements(n, 256),
            &da,
            &db,
            &mut dc,
        )?;
        dc.to_vec()
    };
    let got = run().map_err(|e| e.to_string())?;
    check_equal("vector_add", &got, &reference(&a, &b))
}
