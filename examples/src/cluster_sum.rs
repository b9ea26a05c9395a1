//! Thread block clusters (sm_90): each block reduces its 128 elements in shared memory and
//! publishes the partial sum; after `cluster_sync()` (release/acquire at cluster scope) the
//! cluster's rank-0 block adds its cluster's partials. Run-time cluster shapes
//! (`LaunchConfig::cluster_dim`) and a compile-time one (`#[kernel(cluster_dims(4))]`), checked
//! against the CPU.
//!
//! Runs on an sm_90 GPU and on the simulator as sm_90 (`FERROCUDA_SIM_ARCH=90`), which runs a
//! cluster's blocks together.

use ferrocuda::prelude::*;

use crate::util::check_equal;

pub const BLOCK: usize = 128;

/// The body both kernels share.
#[device]
pub fn cluster_sum_body(x: &[u32], partial: &mut [u32], out: &mut [u32]) {
    let s = shared_array::<[u32; BLOCK]>();
    let t = thread_idx().x as usize;
    let b = block_idx().x as usize;
    let i = b * BLOCK + t;
    s[t] = if i < x.len() { x[i] } else { 0 };
    sync_threads();
    let mut stride = BLOCK / 2;
    while stride > 0 {
        if t < stride {
            s[t] += s[t + stride];
        }
        sync_threads();
        stride /= 2;
    }
    if t == 0 {
        partial[b] = s[0];
    }
    // Every block's partial is visible to the whole cluster after the barrier.
    cluster_sync();
    if t == 0 && cluster_ctarank() == 0 {
        let n = cluster_nctarank() as usize;
        let mut sum = 0u32;
        for r in 0..n {
            sum += partial[b + r];
        }
        out[cluster_id().x as usize] = sum;
    }
}

/// One cluster sum per cluster of the launch's shape (1-D clusters along x).
#[kernel(launch_bounds(max_threads = 128))]
pub fn cluster_sum(x: &[u32], partial: &mut [u32], out: &mut [u32]) {
    cluster_sum_body(x, partial, out);
}

/// The same with the cluster shape fixed at compile time (`__cluster_dims__(4, 1, 1)`): the
/// launch gives no shape and the runtime checks the grid against this one.
#[kernel(cluster_dims(4), launch_bounds(max_threads = 128))]
pub fn cluster_sum_fixed(x: &[u32], partial: &mut [u32], out: &mut [u32]) {
    cluster_sum_body(x, partial, out);
}

/// The sums of consecutive runs of `cluster * BLOCK` elements.
pub fn reference(x: &[u32], cluster: usize) -> Vec<u32> {
    x.chunks(cluster * BLOCK).map(|c| c.iter().sum()).collect()
}

/// `blocks` blocks in clusters of `cluster` (`None`: the compile-time 4), on `dev`.
pub fn check(dev: &Device, blocks: usize, cluster: Option<u32>) -> Result<(), String> {
    let n = blocks * BLOCK;
    let x: Vec<u32> = (0..n).map(|i| (i * 7919 % 1000) as u32).collect();
    let per = cluster.unwrap_or(4) as usize;
    let run = || -> ferrocuda::host_runtime::Result<Vec<u32>> {
        let s = dev.new_stream()?;
        let dx = dev.upload(&x)?;
        let mut partial = dev.alloc_zeroed::<u32>(blocks)?;
        let mut out = dev.alloc_zeroed::<u32>(blocks / per)?;
        let cfg = LaunchConfig::for_elements(n, BLOCK as u32);
        match cluster {
            Some(c) => {
                cluster_sum::launch(&s, cfg.cluster_dim((c, 1, 1)), &dx, &mut partial, &mut out)?
            }
            None => cluster_sum_fixed::launch(&s, cfg, &dx, &mut partial, &mut out)?,
        }
        out.to_vec()
    };
    let got = run().map_err(|e| e.to_string())?;
    check_equal("cluster_sum", &got, &reference(&x, per))
}

/// Clusters of 1, 2 and 4 blocks and the compile-time shape of 4.
pub fn check_all(dev: &Device) -> Result<(), String> {
    check(dev, 64, Some(1))?;
    check(dev, 64, Some(2))?;
    check(dev, 64, Some(4))?;
    check(dev, 64, None)
}
