//! shfl_scan: an inclusive prefix sum. Each warp scans its 32 values with `shfl_up_sync`; warp
//! totals go through shared memory and are scanned by the first warp; a block's total is written
//! out, the block totals are scanned by the same kernel, and a last pass adds each block's prefix.

use ferrocuda::prelude::*;

use crate::util::{check_equal, Rng};

pub const BLOCK: usize = 256;
const WARPS: usize = BLOCK / 32;
const FULL: u32 = 0xffff_ffff;

/// Inclusive scan of 32 values across the warp.
#[device]
fn warp_scan(v: u32) -> u32 {
    let lane = lane_id();
    let mut x = v;
    let mut d = 1u32;
    while d < 32 {
        let y = shfl_up_sync(FULL, x, d, 32);
        if lane >= d {
            x += y;
        }
        d *= 2;
    }
    x
}

/// Scans each block's 256 elements in place (wrapping u32 sums) and writes the block's total to
/// `sums[block]`.
#[kernel(launch_bounds(max_threads = 256))]
pub fn scan_block(data: &mut [u32], sums: &mut [u32]) {
    let warp_tot = shared_array::<[u32; WARPS]>();
    let t = thread_idx().x as usize;
    let i = block_idx().x as usize * BLOCK + t;
    let v = if i < data.len() { data[i] } else { 0 };
    let x = warp_scan(v);
    let lane = lane_id() as usize;
    let warp = t / 32;
    if lane == 31 {
        warp_tot[warp] = x;
    }
    sync_threads();
    if warp == 0 {
        let w = if lane < WARPS { warp_tot[lane] } else { 0 };
        let s = warp_scan(w);
        if lane < WARPS {
            warp_tot[lane] = s;
        }
    }
    sync_threads();
    let total = if warp > 0 { x + warp_tot[warp - 1] } else { x };
    if i < data.len() {
        data[i] = total;
    }
    if t == BLOCK - 1 {
        sums[block_idx().x as usize] = total;
    }
}

/// Adds the scanned total of all earlier blocks to each element.
#[kernel(launch_bounds(max_threads = 256))]
pub fn add_block_prefix(data: &mut [u32], scanned_sums: &[u32]) {
    let b = block_idx().x as usize;
    let i = b * BLOCK + thread_idx().x as usize;
    if b > 0 && i < data.len() {
        data[i] += scanned_sums[b - 1];
    }
}

pub fn reference(input: &[u32]) -> Vec<u32> {
    let mut acc = 0u32;
    input
        .iter()
        .map(|v| {
            acc = acc.wrapping_add(*v);
            acc
        })
        .collect()
}

/// Scans `n` elements (`n <= 256 * 256`: the block totals fit one block).
pub fn scan(
    dev: &Device,
    stream: &Stream,
    data: &mut DeviceBuffer<u32>,
) -> ferrocuda::host_runtime::Result<()> {
    let n = data.len();
    let blocks = n.div_ceil(BLOCK);
    let mut sums = dev.upload(&vec![0u32; blocks])?;
    let mut sums2 = dev.upload(&[0u32])?;
    let cfg = LaunchConfig::for_elements(n, BLOCK as u32);
    scan_block::launch(stream, cfg, data, &mut sums)?;
    let one = LaunchConfig::for_elements(blocks, BLOCK as u32);
    scan_block::launch(stream, one, &mut sums, &mut sums2)?;
    add_block_prefix::launch(stream, cfg, data, &sums)
}

pub fn check(dev: &Device, n: usize) -> Result<(), String> {
    if n > BLOCK * BLOCK {
        return Err(format!(
            "shfl_scan handles up to {} elements",
            BLOCK * BLOCK
        ));
    }
    let mut rng = Rng::new(5);
    let input: Vec<u32> = (0..n).map(|_| rng.next_u32() % 1000).collect();
    let run = || -> ferrocuda::host_runtime::Result<Vec<u32>> {
        let stream = dev.new_stream()?;
        let mut d = dev.upload(&input)?;
        scan(dev, &stream, &mut d)?;
        d.to_vec()
    };
    let got = run().map_err(|e| e.to_string())?;
    check_equal("shfl_scan", &got, &reference(&input))
}
