//! The distributed-shared-memory histogram (the CUDA guide's cluster example, sm_90): the bins
//! are spread over the shared memory of a cluster's blocks, `bins / cluster` per block, so a
//! cluster holds a histogram `cluster` times larger than one block could. Each thread counts its
//! inputs into whichever block owns the bin, through `map_shared_rank_mut` and a
//! `.shared::cluster` atomic; after `cluster_sync()` each block adds its slice of bins to the
//! global histogram. Clusters of 2 and 4 (run-time `cluster_dim`) and a compile-time
//! `cluster_dims(4)`, with a global-atomics histogram beside them for comparison, all checked
//! against the CPU. Runs on the simulator as sm_90 and on an sm_90 GPU.

use ferrocuda::prelude::*;

use crate::util::check_equal;

/// Threads per block.
pub const BLOCK: u32 = 256;
/// Bins of the compile-time variant, and its blocks per cluster.
pub const FIXED_BINS: usize = 1024;
pub const FIXED_CLUSTER: usize = 4;

/// Counts `input` (each value clamped to the last bin) into `bins`; each block's dynamic shared
/// memory holds `bins.len() / cluster_nctarank()` of them.
#[kernel(launch_bounds(max_threads = 256))]
pub fn cluster_hist(bins: &mut [u32], input: &[u32]) {
    let local = dynamic_shared::<u32>();
    let per = local.len() as u32;
    let t = thread_idx().x as usize;
    let nt = block_dim().x as usize;
    let mut i = t;
    while i < local.len() {
        local[i] = 0;
        i += nt;
    }
    // Every block of the cluster has started and zeroed its bins.
    cluster_sync();
    let last = bins.len() as u32 - 1;
    let stride = nt * grid_dim().x as usize;
    let mut k = block_idx().x as usize * nt + t;
    while k < input.len() {
        let b = input[k].min(last);
        atomic_add(
            map_shared_rank_mut(&mut local[(b % per) as usize], b / per),
            1,
        );
        k += stride;
    }
    // Every count has landed before any block reads its bins (or exits).
    cluster_sync();
    let base = (cluster_ctarank() * per) as usize;
    let mut i = t;
    while i < local.len() {
        atomic_add(&mut bins[base + i], local[i]);
        i += nt;
    }
}

/// `cluster_hist` with the cluster size and the bins fixed at compile time (static shared memory,
/// `__cluster_dims__(4, 1, 1)`): the launch gives no cluster shape.
#[kernel(cluster_dims(4), launch_bounds(max_threads = 256))]
pub fn cluster_hist_fixed(bins: &mut [u32], input: &[u32]) {
    let local = shared_array::<[u32; FIXED_BINS / FIXED_CLUSTER]>();
    let per = (FIXED_BINS / FIXED_CLUSTER) as u32;
    let t = thread_idx().x as usize;
    let nt = block_dim().x as usize;
    let mut i = t;
    while i < FIXED_BINS / FIXED_CLUSTER {
        local[i] = 0;
        i += nt;
    }
    cluster_sync();
    let stride = nt * grid_dim().x as usize;
    let mut k = block_idx().x as usize * nt + t;
    while k < input.len() {
        let b = input[k].min(FIXED_BINS as u32 - 1);
        let remote = map_shared_rank_mut(local, b / per);
        atomic_add(&mut remote[(b % per) as usize], 1);
        k += stride;
    }
    cluster_sync();
    let base = (cluster_ctarank() * per) as usize;
    let mut i = t;
    while i < FIXED_BINS / FIXED_CLUSTER {
        atomic_add(&mut bins[base + i], local[i]);
        i += nt;
    }
}

/// The baseline: every count a global atomic.
#[kernel(launch_bounds(max_threads = 256))]
pub fn global_hist(bins: &mut [u32], input: &[u32]) {
    let last = bins.len() as u32 - 1;
    let stride = (block_dim().x * grid_dim().x) as usize;
    let mut k = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    while k < input.len() {
        atomic_add(&mut bins[input[k].min(last) as usize], 1);
        k += stride;
    }
}

pub fn reference(input: &[u32], nbins: usize) -> Vec<u32> {
    let mut h = vec![0u32; nbins];
    for &v in input {
        h[(v as usize).min(nbins - 1)] += 1;
    }
    h
}

/// Which kernel a check runs.
#[derive(Clone, Copy, Debug)]
pub enum Variant {
    /// `cluster_hist` in clusters of this many blocks.
    Clusters(u32),
    /// `cluster_hist_fixed`.
    CompileTime,
    /// `global_hist`.
    Global,
}

/// Inputs spread over `nbins + nbins / 8` values (the tail clamps into the last bin).
pub fn input(n: usize, nbins: usize) -> Vec<u32> {
    let mut s = 0x2545_f491_4f6c_dd1du64;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s % (nbins + nbins / 8) as u64) as u32
        })
        .collect()
}

/// `n` inputs into `nbins` bins with `blocks` blocks (a multiple of the cluster size).
pub fn check(dev: &Device, n: usize, nbins: usize, blocks: u32, v: Variant) -> Result<(), String> {
    let data = input(n, nbins);
    let run = || -> ferrocuda::host_runtime::Result<Vec<u32>> {
        let s = dev.new_stream()?;
        let din = dev.upload(&data)?;
        let mut bins = dev.alloc_zeroed::<u32>(nbins)?;
        let cfg = LaunchConfig {
            grid: Dim3::new(blocks, 1, 1),
            block: Dim3::new(BLOCK, 1, 1),
            shared_mem_bytes: 0,
            attrs: Default::default(),
        };
        match v {
            Variant::Clusters(c) => {
                let smem = (nbins / c as usize * 4) as u32;
                let cfg = LaunchConfig {
                    shared_mem_bytes: smem,
                    ..cfg
                };
                cluster_hist::launch(&s, cfg.cluster_dim((c, 1, 1)), &mut bins, &din)?
            }
            Variant::CompileTime => cluster_hist_fixed::launch(&s, cfg, &mut bins, &din)?,
            Variant::Global => global_hist::launch(&s, cfg, &mut bins, &din)?,
        }
        bins.to_vec()
    };
    let got = run().map_err(|e| format!("{v:?}: {e}"))?;
    check_equal(
        &format!("cluster_histogram {v:?}"),
        &got,
        &reference(&data, nbins),
    )
}

/// Clusters of 2 and 4, the compile-time shape and the global baseline, at sizes the simulator
/// runs in a moment (`big` for a GPU).
pub fn check_all(dev: &Device, big: bool) -> Result<(), String> {
    let (n, blocks) = if big { (1 << 24, 1024) } else { (20_000, 8) };
    check(dev, n, 512, blocks, Variant::Clusters(2))?;
    check(dev, n, 2048, blocks, Variant::Clusters(4))?;
    check(dev, n, FIXED_BINS, blocks, Variant::CompileTime)?;
    check(dev, n, 2048, blocks, Variant::Global)
}
