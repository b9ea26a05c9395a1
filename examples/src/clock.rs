//! clock: the CUDA sample that times each block with the SM's cycle counter. Every block
//! min-reduces its own `2 * BLOCK` inputs in shared memory while thread 0 reads `clock64()` at
//! the start and at the end; the host checks the minima against the CPU and that each block's
//! end stamp follows its start, and reports the average cycles per block.
//!
//! Stamps from different blocks are not comparable (each SM has its own counter); in the
//! simulator the counter is the block's executed-instruction count.

use ferrocuda::prelude::*;

use crate::util::{check_equal, Rng};

pub const BLOCK: u32 = 256;

/// Block `b` writes the minimum of `input[2 * BLOCK * b..][..2 * BLOCK]` to `output[b]`, its
/// start cycle to `timer[b]` and its end cycle to `timer[b + gridDim.x]`.
#[kernel]
pub fn timed_reduction(input: &[f32], output: &mut [f32], timer: &mut [u64]) {
    let shared = shared_array::<[f32; 512]>();
    let tid = thread_idx().x as usize;
    let bid = block_idx().x as usize;
    let n = block_dim().x as usize;
    if tid == 0 {
        timer[bid] = clock64();
    }
    let base = 2 * n * bid;
    shared[tid] = input[base + tid];
    shared[tid + n] = input[base + tid + n];
    let mut d = n;
    while d > 0 {
        sync_threads();
        if tid < d {
            let (f0, f1) = (shared[tid], shared[tid + d]);
            if f1 < f0 {
                shared[tid] = f1;
            }
        }
        d /= 2;
    }
    if tid == 0 {
        output[bid] = shared[0];
    }
    sync_threads();
    if tid == 0 {
        timer[bid + grid_dim().x as usize] = clock64();
    }
}

/// The per-block minima.
pub fn reference(input: &[f32]) -> Vec<f32> {
    input
        .chunks(2 * BLOCK as usize)
        .map(|c| c.iter().copied().fold(f32::INFINITY, f32::min))
        .collect()
}

/// Runs `blocks` blocks: the minima and the `2 * blocks` timer stamps (starts, then ends).
pub fn run(dev: &Device, blocks: usize) -> ferrocuda::host_runtime::Result<(Vec<f32>, Vec<u64>)> {
    let input = Rng::new(5).vec_f32(2 * BLOCK as usize * blocks);
    let stream = dev.new_stream()?;
    let din = dev.upload(&input)?;
    let mut out = dev.upload(&vec![f32::NAN; blocks])?;
    let mut timer = dev.upload(&vec![0u64; 2 * blocks])?;
    let cfg = LaunchConfig {
        grid: Dim3::new(blocks as u32, 1, 1),
        block: Dim3::new(BLOCK, 1, 1),
        shared_mem_bytes: 0,
        attrs: Default::default(),
    };
    timed_reduction::launch(&stream, cfg, &din, &mut out, &mut timer)?;
    Ok((out.to_vec()?, timer.to_vec()?))
}

/// Checks the minima and the stamps; returns the average cycles per block.
pub fn check(dev: &Device, blocks: usize) -> Result<f64, String> {
    let (got, timer) = run(dev, blocks).map_err(|e| e.to_string())?;
    let input = Rng::new(5).vec_f32(2 * BLOCK as usize * blocks);
    check_equal("timed_reduction minima", &got, &reference(&input))?;
    let (start, end) = timer.split_at(blocks);
    for (b, (s, e)) in start.iter().zip(end).enumerate() {
        if e <= s {
            return Err(format!(
                "block {b}: end stamp {e} does not follow start stamp {s}"
            ));
        }
    }
    let total: u64 = start.iter().zip(end).map(|(s, e)| e - s).sum();
    Ok(total as f64 / blocks as f64)
}
