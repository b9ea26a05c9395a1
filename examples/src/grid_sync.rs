//! Cooperative launch and `grid_sync()` (CUDA's `this_grid().sync()`): a single-launch
//! reduction (each block reduces its share, the grid meets, block 0 adds the partials) and a
//! kernel that meets the grid barrier once per round of a loop, each round reading what other
//! blocks wrote in the round before. Both checked against the CPU.
//!
//! A kernel that calls `grid_sync()` must be launched with `LaunchConfig::cooperative()` and a
//! grid the device holds at once; the simulator runs all of its blocks together.

use ferrocuda::prelude::*;

use crate::util::check_equal;

/// Threads per block of both kernels.
pub const BLOCK: usize = 256;

/// Sums `x` into `out[0]` in one launch: a grid-stride loop per thread, a shared-memory tree per
/// block into `partial[block]`, then after the grid barrier block 0 adds the partials.
#[kernel(launch_bounds(max_threads = 256))]
pub fn grid_reduce(x: &[u32], partial: &mut [u32], out: &mut [u32]) {
    let s = shared_array::<[u32; BLOCK]>();
    let t = thread_idx().x as usize;
    let b = block_idx().x as usize;
    let stride = grid_num_threads() as usize;
    let mut i = grid_thread_rank() as usize;
    let mut acc = 0u32;
    while i < x.len() {
        acc += x[i];
        i += stride;
    }
    s[t] = acc;
    sync_threads();
    let mut half = BLOCK / 2;
    while half > 0 {
        if t < half {
            s[t] += s[t + half];
        }
        sync_threads();
        half /= 2;
    }
    if t == 0 {
        partial[b] = s[0];
    }
    // Every block's partial is written and visible once the whole grid is here.
    grid_sync();
    if b == 0 && t == 0 {
        let mut sum = 0u32;
        for p in 0..grid_dim().x as usize {
            sum += partial[p];
        }
        out[0] = sum;
    }
}

/// `rounds` rounds over one element per thread, double-buffered in `buf` (two halves of the
/// grid's thread count): each round, element `i` becomes its right neighbour's value of the last
/// round plus one, so after `rounds` rounds it is `start[(i + rounds) % n] + rounds`. The
/// neighbour of a block's last thread is in the next block: without the barrier each round the
/// values would be stale.
#[kernel(launch_bounds(max_threads = 256))]
pub fn grid_rounds(buf: &mut [u32], rounds: u32) {
    let n = grid_num_threads() as usize;
    let i = grid_thread_rank() as usize;
    let mut r = 0u32;
    while r < rounds {
        let (src, dst) = if r % 2 == 0 { (0, n) } else { (n, 0) };
        let v = buf[src + (i + 1) % n];
        buf[dst + i] = v + 1;
        grid_sync();
        r += 1;
    }
}

/// The sum `grid_reduce` computes.
pub fn reference_sum(x: &[u32]) -> u32 {
    x.iter().fold(0u32, |a, &v| a.wrapping_add(v))
}

/// What `grid_rounds` leaves in the half it wrote last.
pub fn reference_rounds(start: &[u32], rounds: u32) -> Vec<u32> {
    let n = start.len();
    (0..n)
        .map(|i| start[(i + rounds as usize) % n] + rounds)
        .collect()
}

/// A cooperative launch of `blocks` blocks of [`BLOCK`] threads.
pub fn config(blocks: u32) -> LaunchConfig {
    LaunchConfig {
        grid: Dim3::new(blocks, 1, 1),
        block: Dim3::new(BLOCK as u32, 1, 1),
        shared_mem_bytes: 0,
        attrs: Default::default(),
    }
    .cooperative()
}

/// `grid_reduce` over `n` elements with `blocks` blocks, on `dev`.
pub fn check_reduce(dev: &Device, n: usize, blocks: u32) -> Result<(), String> {
    let x: Vec<u32> = (0..n).map(|i| (i * 7919 % 1000) as u32).collect();
    let run = || -> ferrocuda::host_runtime::Result<Vec<u32>> {
        let s = dev.new_stream()?;
        let dx = dev.upload(&x)?;
        let mut got = Vec::new();
        // Twice on the same stream (the barrier words are left ready for the next launch),
        // each time with poisoned partials, so a block 0 that did not wait reads garbage.
        for _ in 0..2 {
            let mut partial = dev.upload(&vec![0xdead_beef_u32; blocks as usize])?;
            let mut out = dev.upload(&[0xdead_beef_u32])?;
            grid_reduce::launch(&s, config(blocks), &dx, &mut partial, &mut out)?;
            got.extend(out.to_vec()?);
        }
        Ok(got)
    };
    let got = run().map_err(|e| e.to_string())?;
    check_equal("grid_reduce", &got, &[reference_sum(&x); 2])
}

/// `grid_rounds` with `blocks` blocks and `rounds` rounds, on `dev`.
pub fn check_rounds(dev: &Device, blocks: u32, rounds: u32) -> Result<(), String> {
    let n = blocks as usize * BLOCK;
    let start: Vec<u32> = (0..n).map(|i| (i * 31 % 977) as u32).collect();
    let run = || -> ferrocuda::host_runtime::Result<Vec<u32>> {
        let s = dev.new_stream()?;
        let mut init = start.clone();
        init.extend(std::iter::repeat_n(0, n));
        let mut buf = dev.upload(&init)?;
        grid_rounds::launch(&s, config(blocks), &mut buf, rounds)?;
        buf.to_vec()
    };
    let got = run().map_err(|e| e.to_string())?;
    let last = if rounds % 2 == 1 {
        &got[n..]
    } else {
        &got[..n]
    };
    check_equal("grid_rounds", last, &reference_rounds(&start, rounds))
}

/// Blocks a cooperative launch of these kernels can use on `dev`: `per_sm` per multiprocessor
/// (at most what fits: 256 threads of a small kernel fit 4 times on every supported GPU and
/// on the simulator's one multiprocessor).
pub fn blocks_for(dev: &Device, per_sm: u32) -> u32 {
    dev.properties().multiprocessor_count * per_sm
}

/// Both kernels at the size `dev` holds: 4 blocks per multiprocessor.
pub fn check_all(dev: &Device) -> Result<(), String> {
    let blocks = blocks_for(dev, 4);
    check_reduce(dev, 100_000, blocks)?;
    check_reduce(dev, 1000, blocks)?;
    check_rounds(dev, blocks, 1)?;
    check_rounds(dev, blocks, 10)
}
