//! The simpleCooperativeGroups idea: a block split into thread block tiles of several sizes,
//! each tile summing its threads' values (and their ranks), plus the other tile collectives
//! (min/max/bitwise reductions, scans, shuffles, votes), the block's and a coalesced group's
//! ranks and sizes. Every thread writes what it got; the CPU computes the same from the input.

use ferrocuda::prelude::*;

use crate::util::check_equal;

/// Threads per block (two warps) and results per thread.
pub const BLOCK: usize = 64;
pub const PER_THREAD: usize = 20;

/// One row of [`PER_THREAD`] results per thread of `x`.
#[kernel(block_dim(64))]
pub fn cg_tiles(x: &[i32], out: &mut [i32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let v = x[i];
    let o = i * PER_THREAD;
    // Each tile sums its lanes' values, for three tile sizes.
    out[o] = tile_reduce_add::<4, i32>(v);
    out[o + 1] = tile_reduce_add::<16, i32>(v);
    out[o + 2] = tile_reduce_add::<32, i32>(v);
    // ... and its threads' ranks (the sample's check: 0 + 1 + ... + N-1).
    out[o + 3] = tile_reduce_add::<8, u32>(tile_thread_rank::<8>()) as i32;
    out[o + 4] = tile_reduce_min::<8, i32>(v);
    out[o + 5] = tile_reduce_max::<8, i32>(v);
    out[o + 6] = tile_reduce_xor::<2, i32>(v);
    out[o + 7] = tile_reduce_and::<4, i32>(v);
    out[o + 8] = tile_reduce_or::<4, i32>(v);
    out[o + 9] = tile_inclusive_scan_add::<8, i32>(v);
    out[o + 10] = tile_exclusive_scan_add::<8, i32>(v);
    out[o + 11] = tile_shfl_down::<4, i32>(v, 1);
    out[o + 12] = tile_shfl::<16, i32>(v, 3);
    out[o + 13] = tile_ballot::<8>(v > 0) as i32;
    out[o + 14] = tile_any::<4>(v > 90) as i32 + 2 * tile_all::<4>(v > -90) as i32;
    out[o + 15] = (tile_meta_group_rank::<8>() * 100 + tile_meta_group_size::<8>()) as i32;
    out[o + 16] = (block_thread_rank() * 1000 + block_size()) as i32;
    out[o + 17] = tile_reduce_add::<1, i32>(v);
    out[o + 18] = (coalesced_thread_rank() * 100 + coalesced_size()) as i32;
    out[o + 19] = coalesced_shfl::<i32>(v, 5);
    tile_sync::<16>();
    block_sync();
}

/// What `cg_tiles` writes, per thread of `x` (length a multiple of [`BLOCK`]).
pub fn reference(x: &[i32]) -> Vec<i32> {
    let mut out = vec![0; x.len() * PER_THREAD];
    for (i, &v) in x.iter().enumerate() {
        let tile = |n: usize| &x[i / n * n..i / n * n + n];
        let r = |n: usize| i % n;
        let o = &mut out[i * PER_THREAD..(i + 1) * PER_THREAD];
        o[0] = tile(4).iter().sum();
        o[1] = tile(16).iter().sum();
        o[2] = tile(32).iter().sum();
        o[3] = (0..8).sum();
        o[4] = *tile(8).iter().min().unwrap();
        o[5] = *tile(8).iter().max().unwrap();
        o[6] = tile(2).iter().fold(0, |a, b| a ^ b);
        o[7] = tile(4).iter().fold(-1, |a, b| a & b);
        o[8] = tile(4).iter().fold(0, |a, b| a | b);
        o[9] = tile(8)[..=r(8)].iter().sum();
        o[10] = tile(8)[..r(8)].iter().sum();
        o[11] = if r(4) + 1 < 4 { x[i + 1] } else { v };
        o[12] = tile(16)[3];
        o[13] = tile(8)
            .iter()
            .enumerate()
            .map(|(k, &w)| ((w > 0) as i32) << k)
            .sum();
        o[14] =
            tile(4).iter().any(|&w| w > 90) as i32 + 2 * tile(4).iter().all(|&w| w > -90) as i32;
        let t = i % BLOCK;
        o[15] = ((t / 8) * 100 + BLOCK / 8) as i32;
        o[16] = (t * 1000 + BLOCK) as i32;
        o[17] = v;
        // Every lane of a full warp is active there.
        o[18] = ((i % 32) * 100 + 32) as i32;
        o[19] = tile(32)[5];
    }
    out
}

/// `blocks` blocks of [`BLOCK`] threads on `dev`, inputs from `seed`.
pub fn check(dev: &Device, blocks: usize, seed: u64) -> Result<(), String> {
    let n = blocks * BLOCK;
    let mut rng = crate::util::Rng::new(seed);
    let x: Vec<i32> = (0..n)
        .map(|_| (rng.next_u32() % 201) as i32 - 100)
        .collect();
    let run = || -> ferrocuda::host_runtime::Result<Vec<i32>> {
        let s = dev.new_stream()?;
        let dx = dev.upload(&x)?;
        let mut out = dev.upload(&vec![i32::MIN; n * PER_THREAD])?;
        cg_tiles::launch(
            &s,
            LaunchConfig::for_elements(n, BLOCK as u32),
            &dx,
            &mut out,
        )?;
        out.to_vec()
    };
    let got = run().map_err(|e| e.to_string())?;
    check_equal("cg_tiles", &got, &reference(&x))
}

/// Two inputs, 1 and 8 blocks.
pub fn check_all(dev: &Device) -> Result<(), String> {
    check(dev, 1, 1)?;
    check(dev, 8, 2)
}
