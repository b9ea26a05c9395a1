//! The CUDA sample globalToShmemAsyncCopy's tiled matrix multiply `C = A * B` in three ways of
//! staging the tiles in shared memory (guide B.26-B.27): through registers with
//! `sync_threads()`, with `memcpy_async` (`cp.async`, no registers in between), and with a
//! multi-stage `cuda::pipeline` whose stages (in dynamic shared memory: 8 stages of 32 x 32
//! tiles are 64 KiB, past the 48 KiB default, which the launcher opts in to) keep the next
//! tiles in flight while the current ones are multiplied. One thread computes one element of
//! `C`; A is M x K, B is K x N, both row-major, every dimension a multiple of the tile.

use ferrocuda::prelude::*;

use crate::util::{check_close, Rng};

/// Synchronous staging: each thread loads one element of each tile into shared memory.
#[kernel]
pub fn matmul_sync<const TILE: usize>(a: &[f32], b: &[f32], c: &mut [f32], k: u32, n: u32) {
    let sa = shared_array::<[[f32; TILE]; TILE]>();
    let sb = shared_array::<[[f32; TILE]; TILE]>();
    let (tx, ty) = (thread_idx().x as usize, thread_idx().y as usize);
    let row = block_idx().y as usize * TILE + ty;
    let col = block_idx().x as usize * TILE + tx;
    let (k, n) = (k as usize, n as usize);
    let mut acc = 0.0f32;
    for t in (0..k).step_by(TILE) {
        sa[ty][tx] = a[row * k + t + tx];
        sb[ty][tx] = b[(t + ty) * n + col];
        sync_threads();
        for i in 0..TILE {
            acc += sa[ty][i] * sb[i][tx];
        }
        sync_threads();
    }
    c[row * n + col] = acc;
}

/// `memcpy_async` staging: the copies go straight from global to shared memory; the thread
/// waits for its own (`cp_async_wait_all`), the block barrier for everyone's.
#[kernel]
pub fn matmul_async<const TILE: usize>(a: &[f32], b: &[f32], c: &mut [f32], k: u32, n: u32) {
    let sa = shared_array::<[[f32; TILE]; TILE]>();
    let sb = shared_array::<[[f32; TILE]; TILE]>();
    let (tx, ty) = (thread_idx().x as usize, thread_idx().y as usize);
    let row = block_idx().y as usize * TILE + ty;
    let col = block_idx().x as usize * TILE + tx;
    let (k, n) = (k as usize, n as usize);
    let mut acc = 0.0f32;
    for t in (0..k).step_by(TILE) {
        memcpy_async(&mut sa[ty][tx], &a[row * k + t + tx]);
        memcpy_async(&mut sb[ty][tx], &b[(t + ty) * n + col]);
        cp_async_wait_all();
        sync_threads();
        for i in 0..TILE {
            acc += sa[ty][i] * sb[i][tx];
        }
        sync_threads();
    }
    c[row * n + col] = acc;
}

/// A `STAGES`-deep block pipeline over dynamic shared memory (`STAGES * 2 * TILE * TILE`
/// floats): stage `s` holds A's tile at `s * 2 * TILE * TILE` and B's right after it.
#[kernel]
pub fn matmul_pipelined<const TILE: usize, const STAGES: usize>(
    a: &[f32],
    b: &[f32],
    c: &mut [f32],
    k: u32,
    n: u32,
) {
    let smem = dynamic_shared::<f32>();
    let (tx, ty) = (thread_idx().x as usize, thread_idx().y as usize);
    let row = block_idx().y as usize * TILE + ty;
    let col = block_idx().x as usize * TILE + tx;
    let (k, n) = (k as usize, n as usize);
    let tiles = k / TILE;
    let mut pipe = make_block_pipeline();
    let mut fetch = 0usize;
    let mut acc = 0.0f32;
    for t in 0..tiles {
        while fetch < tiles && fetch < t + STAGES {
            let s = (fetch % STAGES) * 2 * TILE * TILE;
            producer_acquire(&mut pipe);
            memcpy_async(
                &mut smem[s + ty * TILE + tx],
                &a[row * k + fetch * TILE + tx],
            );
            memcpy_async(
                &mut smem[s + TILE * TILE + ty * TILE + tx],
                &b[(fetch * TILE + ty) * n + col],
            );
            producer_commit(&mut pipe);
            fetch += 1;
        }
        consumer_wait(&mut pipe);
        let s = (t % STAGES) * 2 * TILE * TILE;
        for i in 0..TILE {
            acc += smem[s + ty * TILE + i] * smem[s + TILE * TILE + i * TILE + tx];
        }
        consumer_release(&mut pipe);
    }
    c[row * n + col] = acc;
}

/// Which staging a run uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Staging {
    Sync,
    MemcpyAsync,
    /// The pipeline with this many stages (1..=8).
    Pipeline(usize),
}

/// The dynamic shared memory the pipelined kernel needs for `stages` stages of `tile`.
pub fn pipeline_bytes(tile: usize, stages: usize) -> u32 {
    (stages * 2 * tile * tile * 4) as u32
}

fn reference(a: &[f32], b: &[f32], m: usize, k: usize, n: usize) -> Vec<f32> {
    let mut c = vec![0.0f32; m * n];
    for i in 0..m {
        for j in 0..n {
            c[i * n + j] = (0..k)
                .map(|p| a[i * k + p] as f64 * b[p * n + j] as f64)
                .sum::<f64>() as f32;
        }
    }
    c
}

/// Runs one staging of a TILE = 32 (or 16, `small`) multiply of M x K by K x N on `dev`.
pub fn run(
    dev: &Device,
    how: Staging,
    (m, k, n): (usize, usize, usize),
    a: &[f32],
    b: &[f32],
    small: bool,
) -> ferrocuda::host_runtime::Result<Vec<f32>> {
    let tile = if small { 16 } else { 32 };
    assert!(m % tile == 0 && k % tile == 0 && n % tile == 0);
    let stream = dev.new_stream()?;
    let (da, db) = (dev.upload(a)?, dev.upload(b)?);
    let mut dc = dev.alloc_zeroed::<f32>(m * n)?;
    let mut cfg = LaunchConfig {
        grid: Dim3::new((n / tile) as u32, (m / tile) as u32, 1),
        block: Dim3::new(tile as u32, tile as u32, 1),
        shared_mem_bytes: 0,
        attrs: Default::default(),
    };
    let (kk, nn) = (k as u32, n as u32);
    macro_rules! pipelined {
        ($t:literal, $($s:literal)*) => {
            match how {
                $(Staging::Pipeline($s) => {
                    cfg.shared_mem_bytes = pipeline_bytes($t, $s);
                    matmul_pipelined::launch::<$t, $s>(&stream, cfg, &da, &db, &mut dc, kk, nn)
                })*
                _ => panic!("{how:?} is not a pipeline of 1 to 8 stages"),
            }
        };
    }
    match (how, small) {
        (Staging::Sync, false) => {
            matmul_sync::launch::<32>(&stream, cfg, &da, &db, &mut dc, kk, nn)
        }
        (Staging::Sync, true) => matmul_sync::launch::<16>(&stream, cfg, &da, &db, &mut dc, kk, nn),
        (Staging::MemcpyAsync, false) => {
            matmul_async::launch::<32>(&stream, cfg, &da, &db, &mut dc, kk, nn)
        }
        (Staging::MemcpyAsync, true) => {
            matmul_async::launch::<16>(&stream, cfg, &da, &db, &mut dc, kk, nn)
        }
        (Staging::Pipeline(_), false) => pipelined!(32, 1 2 3 4 8),
        (Staging::Pipeline(_), true) => pipelined!(16, 1 2 3 4 8),
    }?;
    stream.synchronize()?;
    dc.to_vec()
}

/// Every staging against the f64 CPU reference.
pub fn check(dev: &Device, m: usize, k: usize, n: usize, small: bool) -> Result<(), String> {
    let mut rng = Rng::new(11);
    let (a, b) = (rng.vec_f32(m * k), rng.vec_f32(k * n));
    let want = reference(&a, &b, m, k, n);
    for how in [
        Staging::Sync,
        Staging::MemcpyAsync,
        Staging::Pipeline(1),
        Staging::Pipeline(2),
        Staging::Pipeline(4),
        Staging::Pipeline(8),
    ] {
        let got = run(dev, how, (m, k, n), &a, &b, small).map_err(|e| format!("{how:?}: {e}"))?;
        check_close(&format!("async_matmul {how:?}"), &got, &want, 1e-4)?;
    }
    Ok(())
}
