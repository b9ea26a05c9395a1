//! Register-blocked SGEMM in the CUDA style: C = alpha * A * B + beta * C, row-major, 256 threads
//! per 128x128 tile of C, each thread accumulating an 8x8 block in registers (`[[f32; 8]; 8]`),
//! A and B staged through shared memory 8 columns/rows (BK) at a time. `m`, `n` must be multiples
//! of 128 and `k` of 8.

use ferrocuda::prelude::*;

use crate::util::{check_close, Rng};

pub const BM: u32 = 128;
pub const BN: u32 = 128;
pub const BK: u32 = 8;

#[kernel(launch_bounds(max_threads = 256))]
#[allow(clippy::too_many_arguments)]
pub fn sgemm(a: &[f32], b: &[f32], c: &mut [f32], m: u32, n: u32, k: u32, alpha: f32, beta: f32) {
    // a_s is A's tile transposed (a_s[kk][row]) so both inner-loop reads are contiguous rows.
    let a_s = shared_array::<[[f32; 128]; 8]>();
    let b_s = shared_array::<[[f32; 128]; 8]>();
    let tid = thread_idx().x;
    let tx = (tid % 16) as usize;
    let ty = (tid / 16) as usize;
    let row0 = block_idx().y * BM;
    let col0 = block_idx().x * BN;
    let _ = m;

    let mut acc = [[0.0f32; 8]; 8];
    let mut kt = 0u32;
    while kt < k {
        #[unroll]
        for l in 0..4u32 {
            let e = tid + l * 256;
            let (ar, ac) = (e / BK, e % BK);
            a_s[ac as usize][ar as usize] =
                a[(row0 + ar) as usize * k as usize + (kt + ac) as usize];
            let (br, bc) = (e / BN, e % BN);
            b_s[br as usize][bc as usize] =
                b[(kt + br) as usize * n as usize + (col0 + bc) as usize];
        }
        sync_threads();
        #[unroll]
        for kk in 0..8 {
            let mut af = [0.0f32; 8];
            let mut bf = [0.0f32; 8];
            #[unroll]
            for i in 0..8 {
                af[i] = a_s[kk][ty * 8 + i];
            }
            #[unroll]
            for j in 0..8 {
                bf[j] = b_s[kk][tx * 8 + j];
            }
            #[unroll]
            for i in 0..8 {
                #[unroll]
                for j in 0..8 {
                    acc[i][j] += af[i] * bf[j];
                }
            }
        }
        sync_threads();
        kt += BK;
    }
    #[unroll]
    for i in 0..8 {
        #[unroll]
        for j in 0..8 {
            let idx = (row0 as usize + ty * 8 + i) * n as usize + col0 as usize + tx * 8 + j;
            c[idx] = alpha * acc[i][j] + beta * c[idx];
        }
    }
}

/// f64 reference of alpha * A * B + beta * C.
#[allow(clippy::too_many_arguments)]
pub fn reference(
    a: &[f32],
    b: &[f32],
    c: &[f32],
    m: usize,
    n: usize,
    k: usize,
    alpha: f32,
    beta: f32,
) -> Vec<f32> {
    let mut out = vec![0.0f32; m * n];
    for i in 0..m {
        for j in 0..n {
            let mut s = 0.0f64;
            for p in 0..k {
                s += a[i * k + p] as f64 * b[p * n + j] as f64;
            }
            out[i * n + j] = (alpha as f64 * s + beta as f64 * c[i * n + j] as f64) as f32;
        }
    }
    out
}

pub fn config(m: u32, n: u32) -> LaunchConfig {
    LaunchConfig {
        grid: Dim3::new(n / BN, m / BM, 1),
        block: Dim3::new(256, 1, 1),
        shared_mem_bytes: 0,
        attrs: Default::default(),
    }
}

#[allow(clippy::too_many_arguments)]
pub fn check(dev: &Device, m: usize, n: usize, k: usize) -> Result<(), String> {
    let mut rng = Rng::new(5);
    let (a, b, c) = (rng.vec_f32(m * k), rng.vec_f32(k * n), rng.vec_f32(m * n));
    let (alpha, beta) = (1.25f32, -0.5f32);
    let run = || -> ferrocuda::host_runtime::Result<Vec<f32>> {
        let stream = dev.new_stream()?;
        let da = dev.upload(&a)?;
        let db = dev.upload(&b)?;
        let mut dc = dev.upload(&c)?;
        let (m32, n32, k32) = (m as u32, n as u32, k as u32);
        sgemm::launch(
            &stream,
            config(m32, n32),
            &da,
            &db,
            &mut dc,
            m32,
            n32,
            k32,
            alpha,
            beta,
        )?;
        dc.to_vec()
    };
    let got = run().map_err(|e| e.to_string())?;
    check_close(
        "sgemm",
        &got,
        &reference(&a, &b, &c, m, n, k, alpha, beta),
        1e-4 * k as f32,
    )
}
