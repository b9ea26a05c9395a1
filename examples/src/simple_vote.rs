//! simpleVoteIntrinsics: `any_sync`, `all_sync` and `ballot_sync` over the full warp and over half
//! a warp, plus `match_any_sync` / `match_all_sync` and `activemask`, checked per thread against a
//! CPU model of each warp. Some warps hold only odd or only even inputs so `all` is true somewhere.

use ferrocuda::prelude::*;

use crate::util::{check_equal, Rng};

pub const BLOCK: u32 = 128;
const FULL: u32 = 0xffff_ffff;

/// Per thread `i`, `out[8 * i + k]` holds the k-th result (see `reference`).
#[kernel]
pub fn vote(input: &[u32], out: &mut [u32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let lane = lane_id();
    let pred = input[i] & 1 == 1;
    out[8 * i] = any_sync(FULL, pred) as u32;
    out[8 * i + 1] = all_sync(FULL, pred) as u32;
    out[8 * i + 2] = ballot_sync(FULL, pred);
    if lane < 16 {
        out[8 * i + 3] = ballot_sync(0xffff, pred);
        out[8 * i + 4] = all_sync(0xffff, pred) as u32;
    } else {
        // The upper half meets first, so all sixteen lanes are active together.
        sync_warp(0xffff_0000);
        out[8 * i + 3] = activemask();
        out[8 * i + 4] = any_sync(0xffff_0000, pred) as u32;
    }
    out[8 * i + 5] = match_any_sync(FULL, input[i] % 4);
    let (m, all) = match_all_sync(FULL, input[i] & 1);
    out[8 * i + 6] = m;
    out[8 * i + 7] = all as u32;
}

/// The warp-level model of `vote`.
pub fn reference(input: &[u32]) -> Vec<u32> {
    let mut out = vec![0u32; input.len() * 8];
    for (w, warp) in input.chunks(32).enumerate() {
        let bit = |l: usize| warp[l] & 1 == 1;
        let ballot = (0..32).filter(|&l| bit(l)).fold(0u32, |b, l| b | 1 << l);
        let parity_same = (0..32).all(|l| warp[l] & 1 == warp[0] & 1);
        for lane in 0..32 {
            let o = &mut out[(w * 32 + lane) * 8..][..8];
            o[0] = (ballot != 0) as u32;
            o[1] = (ballot == FULL) as u32;
            o[2] = ballot;
            if lane < 16 {
                o[3] = ballot & 0xffff;
                o[4] = (ballot & 0xffff == 0xffff) as u32;
            } else {
                o[3] = 0xffff_0000;
                o[4] = (ballot & 0xffff_0000 != 0) as u32;
            }
            o[5] = (0..32)
                .filter(|&l| warp[l] % 4 == warp[lane] % 4)
                .fold(0u32, |b, l| b | 1 << l);
            o[6] = if parity_same { FULL } else { 0 };
            o[7] = parity_same as u32;
        }
    }
    out
}

/// Inputs where warp `w % 3 == 0` is all odd, `w % 3 == 1` all even, the rest random.
pub fn inputs(n: usize, seed: u64) -> Vec<u32> {
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|i| {
            let r = rng.next_u32();
            match (i / 32) % 3 {
                0 => r | 1,
                1 => r & !1,
                _ => r,
            }
        })
        .collect()
}

/// `blocks` blocks of 128 threads.
pub fn check(dev: &Device, blocks: usize) -> Result<(), String> {
    let n = blocks * BLOCK as usize;
    let input = inputs(n, 11);
    let run = || -> ferrocuda::host_runtime::Result<Vec<u32>> {
        let stream = dev.new_stream()?;
        let din = dev.upload(&input)?;
        let mut dout = dev.upload(&vec![0xdead_beefu32; 8 * n])?;
        vote::launch(
            &stream,
            LaunchConfig::for_elements(n, BLOCK),
            &din,
            &mut dout,
        )?;
        dout.to_vec()
    };
    let got = run().map_err(|e| e.to_string())?;
    check_equal("vote", &got, &reference(&input))
}
