//! reduction: a u32 array's sum, wrapping as in the CUDA sample (`overflow_checks = false`), three
//! ways. Each thread first sums a grid-stride slice; the block then combines its 256 partial sums
//! with a shared-memory tree (`reduce_shared`), warp shuffles (`reduce_shfl`) or `reduce_add_sync`
//! (sm_80, `reduce_redux`), and one thread per block adds the block's sum to the result atomically.

use ferrocuda::prelude::*;

use crate::util::{check_equal, Rng};

pub const BLOCK: u32 = 256;
const WARPS: usize = BLOCK as usize / 32;
const FULL: u32 = 0xffff_ffff;

/// This thread's grid-stride partial sum.
#[device]
fn thread_sum(input: &[u32]) -> u32 {
    let stride = grid_dim().x as usize * block_dim().x as usize;
    let mut i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let mut s = 0u32;
    while i < input.len() {
        s += input[i];
        i += stride;
    }
    s
}

#[kernel(launch_bounds(max_threads = 256), overflow_checks = false)]
pub fn reduce_shared(input: &[u32], out: &mut [u32]) {
    let buf = shared_array::<[u32; 256]>();
    let t = thread_idx().x as usize;
    buf[t] = thread_sum(input);
    sync_threads();
    let mut half = 128usize;
    while half > 0 {
        if t < half {
            buf[t] += buf[t + half];
        }
        sync_threads();
        half /= 2;
    }
    if t == 0 {
        atomic_add(&mut out[0], buf[0]);
    }
}

/// Sum over the warp with butterfly-free `shfl_down_sync` halving; lane 0 holds the total.
#[device]
fn warp_sum(v: u32) -> u32 {
    let mut s = v;
    s += shfl_down_sync(FULL, s, 16, 32);
    s += shfl_down_sync(FULL, s, 8, 32);
    s += shfl_down_sync(FULL, s, 4, 32);
    s += shfl_down_sync(FULL, s, 2, 32);
    s += shfl_down_sync(FULL, s, 1, 32);
    s
}

#[kernel(launch_bounds(max_threads = 256), overflow_checks = false)]
pub fn reduce_shfl(input: &[u32], out: &mut [u32]) {
    let warp_sums = shared_array::<[u32; WARPS]>();
    let t = thread_idx().x as usize;
    let s = warp_sum(thread_sum(input));
    if lane_id() == 0 {
        warp_sums[t / 32] = s;
    }
    sync_threads();
    if t < 32 {
        let w = if t < WARPS { warp_sums[t] } else { 0 };
        let total = warp_sum(w);
        if t == 0 {
            atomic_add(&mut out[0], total);
        }
    }
}

#[kernel(launch_bounds(max_threads = 256), overflow_checks = false)]
pub fn reduce_redux(input: &[u32], out: &mut [u32]) {
    let warp_sums = shared_array::<[u32; WARPS]>();
    let t = thread_idx().x as usize;
    let s = reduce_add_sync(FULL, thread_sum(input));
    if lane_id() == 0 {
        warp_sums[t / 32] = s;
    }
    sync_threads();
    if t < 32 {
        let w = if t < WARPS { warp_sums[t] } else { 0 };
        let total = reduce_add_sync(FULL, w);
        if t == 0 {
            atomic_add(&mut out[0], total);
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    Shared,
    Shuffle,
    Redux,
}

pub const VARIANTS: [Variant; 3] = [Variant::Shared, Variant::Shuffle, Variant::Redux];

/// Sums `input` into `out[0]` (which the caller zeroes) with `blocks` blocks.
pub fn launch(
    stream: &Stream,
    v: Variant,
    blocks: u32,
    input: &DeviceBuffer<u32>,
    out: &mut DeviceBuffer<u32>,
) -> ferrocuda::host_runtime::Result<()> {
    let cfg = LaunchConfig::for_elements(blocks as usize * BLOCK as usize, BLOCK);
    match v {
        Variant::Shared => reduce_shared::launch(stream, cfg, input, out),
        Variant::Shuffle => reduce_shfl::launch(stream, cfg, input, out),
        Variant::Redux => reduce_redux::launch(stream, cfg, input, out),
    }
}

pub fn reference(input: &[u32]) -> u32 {
    input.iter().fold(0u32, |a, v| a.wrapping_add(*v))
}

/// Every variant over `n` random values with `blocks` blocks.
pub fn check(dev: &Device, n: usize, blocks: u32) -> Result<(), String> {
    let input: Vec<u32> = {
        let mut rng = Rng::new(17 + n as u64);
        (0..n).map(|_| rng.next_u32()).collect()
    };
    let want = reference(&input);
    for v in VARIANTS {
        let run = || -> ferrocuda::host_runtime::Result<Vec<u32>> {
            let stream = dev.new_stream()?;
            let din = dev.upload(&input)?;
            let mut out = dev.upload(&[0u32])?;
            launch(&stream, v, blocks, &din, &mut out)?;
            out.to_vec()
        };
        let got = run().map_err(|e| e.to_string())?;
        check_equal(&format!("reduction {v:?}"), &got, &[want])?;
    }
    Ok(())
}
