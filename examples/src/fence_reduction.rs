//! threadFenceReduction: a sum in one launch. Every block reduces its slice and stores the
//! partial sum; `thread_fence()` makes the store visible device-wide before the block takes a
//! ticket from an atomic counter; the block that draws the last ticket knows every partial sum is
//! in place, adds them up and resets the counter for the next launch.

use ferrocuda::prelude::*;

use crate::util::{check_equal, Rng};

pub const BLOCK: u32 = 256;
const WARPS: usize = BLOCK as usize / 32;
const FULL: u32 = 0xffff_ffff;

/// The block's sum of `values[block's grid-stride elements]`, valid in thread 0.
#[device]
fn block_sum(values: &[f32], first: usize, stride: usize) -> f32 {
    let warp_sums = shared_array::<[f32; WARPS]>();
    let t = thread_idx().x as usize;
    let mut i = first;
    let mut s = 0.0f32;
    while i < values.len() {
        s += values[i];
        i += stride;
    }
    s += shfl_xor_sync(FULL, s, 16, 32);
    s += shfl_xor_sync(FULL, s, 8, 32);
    s += shfl_xor_sync(FULL, s, 4, 32);
    s += shfl_xor_sync(FULL, s, 2, 32);
    s += shfl_xor_sync(FULL, s, 1, 32);
    if lane_id() == 0 {
        warp_sums[t / 32] = s;
    }
    sync_threads();
    let mut total = 0.0f32;
    if t == 0 {
        for w in warp_sums.iter() {
            total += *w;
        }
    }
    sync_threads();
    total
}

#[kernel(launch_bounds(max_threads = 256))]
pub fn fence_reduce(input: &[f32], partial: &mut [f32], count: &mut [u32], out: &mut [f32]) {
    let t = thread_idx().x as usize;
    let blocks = grid_dim().x;
    let first = (block_idx().x * block_dim().x) as usize + t;
    let s = block_sum(input, first, (blocks * block_dim().x) as usize);
    let mut last = false;
    if t == 0 {
        partial[block_idx().x as usize] = s;
        thread_fence();
        let ticket = atomic_inc(&mut count[0], blocks);
        last = ticket == blocks - 1;
    }
    // Thread 0's verdict, for the whole block.
    if sync_threads_or(last) {
        thread_fence();
        let total = block_sum(partial, t, BLOCK as usize);
        if t == 0 {
            out[0] = total;
            count[0] = 0;
        }
    }
}

/// The kernel's summation order: per thread a grid-stride sum, then a butterfly over the warp
/// (which reproduces the same pairwise order on every lane), warps in order; then the same over
/// the block sums.
pub fn reference(input: &[f32], blocks: usize) -> f32 {
    let block_of = |values: &[f32], b: usize, stride: usize| -> f32 {
        let mut lanes: Vec<f32> = (0..BLOCK as usize)
            .map(|t| {
                let mut s = 0.0f32;
                let mut i = b * BLOCK as usize + t;
                while i < values.len() {
                    s += values[i];
                    i += stride;
                }
                s
            })
            .collect();
        for off in [16usize, 8, 4, 2, 1] {
            let prev = lanes.clone();
            for (l, v) in lanes.iter_mut().enumerate() {
                *v = prev[l] + prev[l ^ off];
            }
        }
        (0..WARPS).fold(0.0f32, |a, w| a + lanes[w * 32])
    };
    let partial: Vec<f32> = (0..blocks)
        .map(|b| block_of(input, b, blocks * BLOCK as usize))
        .collect();
    block_of(&partial, 0, BLOCK as usize)
}

/// Two launches in a row over `n` values (the second checks the counter was reset).
pub fn check(dev: &Device, n: usize, blocks: u32) -> Result<(), String> {
    let input = Rng::new(31).vec_f32(n);
    let run = || -> ferrocuda::host_runtime::Result<(Vec<f32>, Vec<f32>)> {
        let stream = dev.new_stream()?;
        let din = dev.upload(&input)?;
        let mut partial = dev.upload(&vec![0.0f32; blocks as usize])?;
        let mut count = dev.upload(&[0u32])?;
        let mut out = dev.upload(&[f32::NAN])?;
        let cfg = LaunchConfig::for_elements(blocks as usize * BLOCK as usize, BLOCK);
        fence_reduce::launch(&stream, cfg, &din, &mut partial, &mut count, &mut out)?;
        let first = out.to_vec()?;
        let mut out2 = dev.upload(&[f32::NAN])?;
        fence_reduce::launch(&stream, cfg, &din, &mut partial, &mut count, &mut out2)?;
        Ok((first, out2.to_vec()?))
    };
    let (a, b) = run().map_err(|e| e.to_string())?;
    let want = reference(&input, blocks as usize);
    check_equal("fence_reduce", &a, &[want])?;
    check_equal("fence_reduce (second launch)", &b, &[want])
}
