//! Programmatic dependent launch (sm_90): a primary kernel squares its input and signals
//! `trigger_programmatic_launch_completion()`; the secondary, launched with
//! `.programmatic_stream_serialization()`, does its independent set-up, waits in
//! `grid_dependency_sync()` for the primary's memory, then reads elements other blocks of the
//! primary wrote. Checked against the CPU.
//!
//! On the simulator launches run in stream order, so the primary has completed before the
//! secondary starts: the wait returns at once and the result is the same.

use ferrocuda::prelude::*;

use crate::util::check_equal;

/// `y[i] = x[i]^2`, then lets the secondary start.
#[kernel]
pub fn pdl_primary(x: &[i32], y: &mut [i32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        y[i] = x[i].wrapping_mul(x[i]);
    }
    trigger_programmatic_launch_completion();
}

/// `z[i] = y[i] + y[n - 1 - i] + i`: the index term is set-up that needs no primary result.
#[kernel]
pub fn pdl_secondary(y: &[i32], z: &mut [i32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let own = i as i32;
    grid_dependency_sync();
    let n = z.len();
    if i < n {
        z[i] = y[i].wrapping_add(y[n - 1 - i]).wrapping_add(own);
    }
}

pub fn reference(x: &[i32]) -> Vec<i32> {
    let y: Vec<i32> = x.iter().map(|v| v.wrapping_mul(*v)).collect();
    let n = y.len();
    (0..n)
        .map(|i| y[i].wrapping_add(y[n - 1 - i]).wrapping_add(i as i32))
        .collect()
}

pub fn check(dev: &Device, n: usize) -> Result<(), String> {
    let x: Vec<i32> = (0..n as i32).map(|i| i % 4001 - 2000).collect();
    let run = || -> ferrocuda::host_runtime::Result<Vec<i32>> {
        let s = dev.new_stream()?;
        let dx = dev.upload(&x)?;
        let mut y = dev.alloc_zeroed::<i32>(n)?;
        let mut z = dev.alloc_zeroed::<i32>(n)?;
        let cfg = LaunchConfig::for_elements(n, 256);
        pdl_primary::launch(&s, cfg, &dx, &mut y)?;
        pdl_secondary::launch(&s, cfg.programmatic_stream_serialization(), &y, &mut z)?;
        z.to_vec()
    };
    let got = run().map_err(|e| e.to_string())?;
    check_equal("pdl_pair", &got, &reference(&x))
}

/// One link of a chain of dependent kernels: `y[i] = x[i] * 0.5 + 1`, waiting for the kernel
/// before it only where it reads its output, and letting the next one start once its own
/// stores are issued.
#[kernel]
pub fn pdl_chain_step(x: &[f32], y: &mut [f32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    grid_dependency_sync();
    if i < y.len() {
        y[i] = x[i] * 0.5 + 1.0;
    }
    trigger_programmatic_launch_completion();
}

/// Enqueues `steps` links on `s`, ping-ponging between `a` and `b` (the result is in `a` for an
/// even count), each a programmatic dependent launch of the previous one when `pdl`.
pub fn chain(
    s: &Stream,
    a: &mut DeviceBuffer<f32>,
    b: &mut DeviceBuffer<f32>,
    steps: usize,
    pdl: bool,
) -> ferrocuda::host_runtime::Result<()> {
    let mut cfg = LaunchConfig::for_elements(a.len(), 256);
    if pdl {
        cfg = cfg.programmatic_stream_serialization();
    }
    for i in 0..steps {
        if i % 2 == 0 {
            pdl_chain_step::launch(s, cfg, &*a, b)?;
        } else {
            pdl_chain_step::launch(s, cfg, &*b, a)?;
        }
    }
    Ok(())
}

/// What `steps` links make of `x`.
pub fn chain_reference(x: &[f32], steps: usize) -> Vec<f32> {
    x.iter()
        .map(|&v| (0..steps).fold(v, |v, _| v * 0.5 + 1.0))
        .collect()
}

/// A chain of `steps` (even) links on `n` elements, with and without PDL, against the CPU.
pub fn check_chain(dev: &Device, n: usize, steps: usize) -> Result<(), String> {
    let x: Vec<f32> = (0..n).map(|i| (i % 97) as f32).collect();
    for pdl in [false, true] {
        let run = || -> ferrocuda::host_runtime::Result<Vec<f32>> {
            let s = dev.new_stream()?;
            let mut a = dev.upload(&x)?;
            let mut b = dev.alloc_zeroed::<f32>(n)?;
            chain(&s, &mut a, &mut b, steps, pdl)?;
            a.to_vec()
        };
        let got = run().map_err(|e| e.to_string())?;
        check_equal(
            &format!("pdl chain (pdl: {pdl})"),
            &got,
            &chain_reference(&x, steps),
        )?;
    }
    Ok(())
}
