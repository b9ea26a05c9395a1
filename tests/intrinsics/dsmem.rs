//! Distributed shared memory (sm_90): `map_shared_rank` / `map_shared_rank_mut` reading,
//! writing and atomically updating another block's `shared_array`, against a CPU model on the
//! simulator (which runs a cluster's blocks together) and a GPU (`--ignored`); bounds, rank,
//! lifetime and race errors on the simulator; PTX assembled by ptxas for sm_90.

use crate::intr_common;

use ferrocuda::kernel_compiler::{compile, CompileOptions};
use ferrocuda::prelude::*;
use intr_common::gpu;

const N: usize = 64;

/// Each block fills its shared array with `rank * 1000 + t`; after the cluster barrier each
/// thread reads element `t` of the next rank's array, writes `t` into the previous rank's second
/// array, and every thread of the cluster adds 1 to rank 0's counter; after the second barrier
/// each block reports what it was given.
#[kernel(launch_bounds(max_threads = 64))]
pub fn dsmem_exchange(out: &mut [u32]) {
    let s = shared_array::<[u32; N]>();
    let given = shared_array::<[u32; N]>();
    let counter = shared_array::<[u32; 1]>();
    let t = thread_idx().x as usize;
    let (rank, n) = (cluster_ctarank(), cluster_nctarank());
    s[t] = rank * 1000 + t as u32;
    if t == 0 {
        counter[0] = 0;
    }
    cluster_sync();
    let next = map_shared_rank(s, (rank + 1) % n);
    let from_next = next[t];
    let prev = map_shared_rank_mut(given, (rank + n - 1) % n);
    prev[t] = rank * 1000 + t as u32;
    atomic_add(map_shared_rank_mut(&mut counter[0], 0), 1);
    cluster_sync();
    let b = block_idx().x as usize;
    out[(b * N + t) * 2] = from_next;
    out[(b * N + t) * 2 + 1] = given[t];
    if t == 0 && rank == 0 {
        out[2 * N * grid_dim().x as usize + cluster_id().x as usize] = counter[0];
    }
}

/// The model of `dsmem_exchange` for `blocks` blocks in clusters of `c`.
fn model(blocks: usize, c: usize) -> Vec<u32> {
    let mut out = vec![0u32; 2 * N * blocks + blocks / c];
    for b in 0..blocks {
        let rank = b % c;
        for t in 0..N {
            out[(b * N + t) * 2] = (((rank + 1) % c) * 1000 + t) as u32;
            out[(b * N + t) * 2 + 1] = (((rank + 1) % c) * 1000 + t) as u32;
        }
    }
    for k in 0..blocks / c {
        out[2 * N * blocks + k] = (c * N) as u32;
    }
    out
}

fn run_exchange(dev: &Device, blocks: usize, c: u32) -> Result<Vec<u32>> {
    let s = dev.new_stream()?;
    let mut out = dev.alloc_zeroed::<u32>(2 * N * blocks + blocks / c as usize)?;
    let cfg = LaunchConfig::for_elements(blocks * N, N as u32).cluster_dim((c, 1, 1));
    dsmem_exchange::launch(&s, cfg, &mut out)?;
    s.synchronize()?;
    out.to_vec()
}

#[test]
fn dsmem_exchange_on_the_simulator() {
    let dev = Device::simulator_with_arch(90).unwrap();
    for c in [1u32, 2, 4, 8] {
        assert_eq!(
            run_exchange(&dev, 16, c).unwrap(),
            model(16, c as usize),
            "clusters of {c}"
        );
    }
}

#[test]
#[ignore = "needs an sm_90 GPU"]
fn dsmem_exchange_on_gpu() {
    let Some(dev) = gpu() else { return };
    if dev.properties().sm() < 90 {
        return;
    }
    for c in [1u32, 2, 4, 8] {
        assert_eq!(
            run_exchange(&dev, 256, c).unwrap(),
            model(256, c as usize),
            "clusters of {c}"
        );
    }
}

/// Reads element `i` of rank `r`'s array (after both are written and the cluster met).
#[kernel]
pub fn dsmem_read_at(i: usize, r: u32, out: &mut [u32]) {
    let s = shared_array::<[u32; N]>();
    let t = thread_idx().x as usize;
    s[t] = t as u32;
    cluster_sync();
    if t == 0 {
        out[block_idx().x as usize] = map_shared_rank(s, r)[i];
    }
    cluster_sync();
}

fn read_at(i: usize, r: u32) -> Result<Vec<u32>> {
    let dev = Device::simulator_with_arch(90).unwrap();
    let s = dev.new_stream()?;
    let mut out = dev.alloc_zeroed::<u32>(2)?;
    let cfg = LaunchConfig::for_elements(2 * N, N as u32).cluster_dim((2, 1, 1));
    dsmem_read_at::launch(&s, cfg, i, r, &mut out)?;
    s.synchronize()?;
    out.to_vec()
}

#[test]
fn remote_indexing_and_ranks_are_checked() {
    assert_eq!(read_at(5, 1).unwrap(), [5, 5]);
    match read_at(N, 1) {
        Err(Error::KernelPanic(p)) => {
            assert_eq!(
                p.message,
                format!("index out of bounds: the len is {N} but the index is {N}")
            );
            assert!(p.file.ends_with("intrinsics/dsmem.rs"), "{}", p.file);
        }
        other => panic!("expected a bounds panic, got {other:?}"),
    }
    match read_at(0, 2) {
        Err(Error::KernelPanic(p)) => {
            assert_eq!(
                p.message,
                "index out of bounds: the len is 2 but the index is 2"
            );
            assert!(p.file.ends_with("intrinsics/dsmem.rs"), "{}", p.file);
        }
        other => panic!("expected a rank panic, got {other:?}"),
    }
}

/// Rank 1 writes into rank 0's array while rank 0 reads it, with no barrier between: a race.
/// With `wait`, rank 0 may exit before rank 1 writes: an access to exited memory.
#[kernel]
pub fn dsmem_misuse(wait: bool, out: &mut [u32]) {
    let s = shared_array::<[u32; N]>();
    let t = thread_idx().x as usize;
    s[t] = 0;
    cluster_sync();
    if cluster_ctarank() == 1 {
        map_shared_rank_mut(s, 0)[t] = 7;
    } else if !wait {
        out[t] = s[t];
    }
    if !wait {
        cluster_sync();
    }
}

fn misuse(wait: bool) -> String {
    let dev = Device::simulator_with_arch(90).unwrap();
    let s = dev.new_stream().unwrap();
    let mut out = dev.alloc_zeroed::<u32>(N).unwrap();
    let cfg = LaunchConfig::for_elements(2 * N, N as u32).cluster_dim((2, 1, 1));
    match dsmem_misuse::launch(&s, cfg, wait, &mut out).and_then(|_| s.synchronize()) {
        Err(Error::Simulator(e)) => e.message,
        other => panic!("expected a simulator error, got {other:?}"),
    }
}

#[test]
fn dsmem_races_and_exited_blocks_are_reported() {
    let race = misuse(false);
    assert!(race.contains("races with"), "{race}");
    assert!(race.contains("other thread is in block"), "{race}");
    let gone = misuse(true);
    assert!(gone.contains("which has exited"), "{gone}");
}

/// Only rank 0 reaches the cluster barrier.
#[kernel]
pub fn half_cluster_sync(out: &mut [u32]) {
    if cluster_ctarank() == 0 {
        cluster_sync();
    }
    out[block_idx().x as usize] = 1;
}

#[test]
fn a_cluster_barrier_some_block_skips_is_reported() {
    let dev = Device::simulator_with_arch(90).unwrap();
    let s = dev.new_stream().unwrap();
    let mut out = dev.alloc_zeroed::<u32>(2).unwrap();
    let cfg = LaunchConfig::for_elements(2 * 32, 32).cluster_dim((2, 1, 1));
    match half_cluster_sync::launch(&s, cfg, &mut out).and_then(|_| s.synchronize()) {
        Err(Error::Simulator(e)) => {
            assert!(e.message.contains("will never reach"), "{}", e.message)
        }
        other => panic!("expected a barrier divergence, got {other:?}"),
    }
}

#[test]
fn dsmem_ptx_assembles_for_sm90() {
    let sm90 = CompileOptions {
        sm: 90,
        ..CompileOptions::default()
    };
    let c = compile(dsmem_exchange::ast(), &[], &sm90).unwrap();
    for needle in [
        "mapa.shared::cluster.u32",
        "ld.shared::cluster.u32",
        "st.shared::cluster.u32",
        "atom.shared::cluster.add.u32",
    ] {
        assert!(c.ptx.contains(needle), "{needle}\n{}", c.ptx);
    }
    let sm80 = CompileOptions {
        sm: 80,
        ..CompileOptions::default()
    };
    let e = compile(dsmem_read_at::ast(), &[], &sm80)
        .unwrap_err()
        .to_string();
    assert!(e.contains("needs sm_90"), "{e}");
    if kernel_testkit::ptxas::require_ptxas().is_none() {
        return;
    }
    for def in [
        dsmem_exchange::ast(),
        dsmem_read_at::ast(),
        dsmem_misuse::ast(),
    ] {
        let c = compile(def, &[], &sm90).unwrap();
        kernel_testkit::ptxas::assemble(&c.ptx, 90)
            .unwrap_or_else(|e| panic!("ptxas sm_90 {}: {e}\n{}", def.name, c.ptx));
    }
}

/// Every thread of rank 1 applies the atomics to rank 0's words (and rank 0 to its own, through
/// the same mapping), covering the float compare-and-swap loops and the ordered loads/stores.
#[kernel]
pub fn dsmem_atomics(out: &mut [u32], outf: &mut [f32]) {
    let w = shared_array::<[u32; 4]>();
    let f = shared_array::<[f32; 2]>();
    let d = shared_array::<[u64; 1]>();
    let t = thread_idx().x;
    if t == 0 {
        w[0] = 0;
        w[1] = 0;
        w[2] = u32::MAX;
        w[3] = 0;
        f[0] = 0.0;
        f[1] = 100.0;
        d[0] = u64::MAX;
    }
    cluster_sync();
    let v = t + 32 * cluster_ctarank();
    atomic_add(map_shared_rank_mut(&mut w[0], 0), 1);
    atomic_max(map_shared_rank_mut(&mut w[1], 0), v);
    atomic_min(map_shared_rank_mut(&mut w[2], 0), v);
    atomic_inc(map_shared_rank_mut(&mut w[3], 0), 1000);
    atomic_add(map_shared_rank_mut(&mut f[0], 0), 0.5);
    atomic_min(map_shared_rank_mut(&mut f[1], 0), v as f32);
    atomic_and(map_shared_rank_mut(&mut d[0], 0), !(1u64 << v));
    cluster_sync();
    if cluster_ctarank() == 1 && t == 0 {
        atomic_store_release(map_shared_rank_mut(&mut w[3], 0), 5);
        let r = atomic_load_acquire(map_shared_rank_mut(&mut w[3], 0));
        out[5] = r;
    }
    cluster_sync();
    if cluster_ctarank() == 0 && t == 0 {
        for i in 0..4 {
            out[i] = w[i];
        }
        out[4] = (d[0] >> 32) as u32 ^ d[0] as u32;
        outf[0] = f[0];
        outf[1] = f[1];
    }
}

#[test]
fn dsmem_atomics_on_the_simulator() {
    let dev = Device::simulator_with_arch(90).unwrap();
    let s = dev.new_stream().unwrap();
    let mut out = dev.alloc_zeroed::<u32>(6).unwrap();
    let mut outf = dev.alloc_zeroed::<f32>(2).unwrap();
    let cfg = LaunchConfig::for_elements(64, 32).cluster_dim((2, 1, 1));
    dsmem_atomics::launch(&s, cfg, &mut out, &mut outf).unwrap();
    // 64 threads: values 0..64 cleared bits 0..63 of the u64.
    // w[3] counted to 64 with `atomic_inc`, then rank 1 stored 5 into it.
    assert_eq!(out.to_vec().unwrap(), [64, 63, 0, 5, 0, 5]);
    assert_eq!(outf.to_vec().unwrap(), [32.0, 0.0]);
    if kernel_testkit::ptxas::require_ptxas().is_none() {
        return;
    }
    let sm90 = CompileOptions {
        sm: 90,
        ..CompileOptions::default()
    };
    let c = compile(dsmem_atomics::ast(), &[], &sm90).unwrap();
    assert!(
        c.ptx.contains("ld.volatile.shared::cluster.b32"),
        "{}",
        c.ptx
    );
    kernel_testkit::ptxas::assemble(&c.ptx, 90)
        .unwrap_or_else(|e| panic!("ptxas sm_90: {e}\n{}", c.ptx));
}
