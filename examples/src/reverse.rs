//! Shared-memory array reverse: each block of 256 threads reverses its 256 elements through
//! shared memory (the guide's classic `__shared__` + `__syncthreads()` example).

use ferrocuda::prelude::*;

use crate::util::{check_equal, Rng};

pub const BLOCK: usize = 256;

#[kernel(launch_bounds(max_threads = 256))]
pub fn reverse_block(input: &[i32], output: &mut [i32]) {
    let s = shared_array::<[i32; BLOCK]>();
    let t = thread_idx().x as usize;
    let base = block_idx().x as usize * BLOCK;
    s[t] = input[base + t];
    sync_threads();
    output[base + t] = s[BLOCK - 1 - t];
}

pub fn reference(input: &[i32]) -> Vec<i32> {
    input
        .chunks(BLOCK)
        .flat_map(|c| c.iter().rev().copied())
        .collect()
}

/// `blocks` blocks of 256 elements.
pub fn check(dev: &Device, blocks: usize) -> Result<(), String> {
    let n = blocks * BLOCK;
    let input = Rng::new(3).vec_i32(n);
    let run = || -> ferrocuda::host_runtime::Result<Vec<i32>> {
        let stream = dev.new_stream()?;
        let din = dev.upload(&input)?;
        let mut dout = dev.upload(&vec![-1i32; n])?;
        let cfg = LaunchConfig::for_elements(n, BLOCK as u32);
        reverse_block::launch(&stream, cfg, &din, &mut dout)?;
        dout.to_vec()
    };
    let got = run().map_err(|e| e.to_string())?;
    check_equal("reverse_block", &got, &reference(&input))
}
