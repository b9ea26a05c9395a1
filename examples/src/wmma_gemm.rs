//! A tensor-core GEMM with `wmma` (the idea of CUDA's cudaTensorCoreGemm sample, written anew):
//! `D = alpha * A * B + beta * C` with A (M x K, row-major) and B (K x N, column-major) in f16,
//! C and D (M x N, row-major) in f32, f32 accumulation.
//!
//! A block of 8 warps computes a 128 x 128 tile of D: for each 64-wide slice of K it stages the
//! block's rows of A and columns of B in shared memory (rows padded by `SKEW` halves so that the
//! warps' fragment loads spread over the banks), then each warp multiplies its 64 x 32 part,
//! four by two `wmma` tiles whose accumulators stay in registers for the whole K loop. The
//! epilogue loads C's tile as an accumulator fragment, whose elements correspond one to one,
//! and stores `alpha * acc + beta * c`.
//!
//! M and N must be multiples of 128 and K of 64 (`check_dims`).

use ferrocuda::prelude::wmma::*;
use ferrocuda::prelude::*;

use std::ops::Not;

use crate::util::Rng;

/// The block's tile of D (rows and columns).
pub const TILE: usize = 128;
/// The slice of K staged in shared memory per step.
pub const CHUNK: usize = 64;
/// Padding of each staged row, in halves: rows 144 bytes apart (a multiple of 16, as `wmma`
/// requires of a leading dimension) spread the warps' loads over the banks.
pub const SKEW: usize = 8;
/// Leading dimension of the staged rows.
pub const LDS: usize = CHUNK + SKEW;

type AFrag = Fragment<MatrixA, 16, 16, 16, f16, RowMajor>;
type BFrag = Fragment<MatrixB, 16, 16, 16, f16, ColMajor>;
type Acc = Fragment<Accumulator, 16, 16, 16, f32>;

/// One block per 128 x 128 tile of D; 256 threads (8 warps as 2 x 4, each 64 x 32 of the tile).
#[allow(clippy::too_many_arguments)]
#[kernel(block_dim(256), launch_bounds(max_threads = 256))]
pub fn wmma_gemm(
    a: &[f16],
    b: &[f16],
    c: &[f32],
    d: &mut [f32],
    m: u32,
    n: u32,
    k: u32,
    alpha: f32,
    beta: f32,
) {
    let sa = shared_array::<[f16; 9216]>();
    let sb = shared_array::<[f16; 9216]>();
    let (n, k) = (n as usize, k as usize);
    let tid = thread_idx().x as usize;
    let warp = tid / 32;
    let (wm, wn) = (warp / 4, warp % 4);
    let row0 = block_idx().y as usize * 128;
    let col0 = block_idx().x as usize * 128;
    let _ = m;
    // The warp's 4 x 2 accumulators (rows `t` of 16, columns `u` of 16): `cTU`.
    let mut c00: Acc = fragment();
    let mut c01: Acc = fragment();
    let mut c10: Acc = fragment();
    let mut c11: Acc = fragment();
    let mut c20: Acc = fragment();
    let mut c21: Acc = fragment();
    let mut c30: Acc = fragment();
    let mut c31: Acc = fragment();
    let a_row = (wm * 64) * LDS;
    let b_col = (wn * 32) * LDS;
    let mut kb = 0usize;
    while kb < k {
        // Stage A's rows row0.. and B's columns col0.. (contiguous in K) for this slice of K.
        let mut i = tid;
        while i < 128 * 64 {
            let (r, kk) = (i / 64, i % 64);
            sa[r * LDS + kk] = a[(row0 + r) * k + kb + kk];
            sb[r * LDS + kk] = b[(col0 + r) * k + kb + kk];
            i += 256;
        }
        sync_threads();
        // Not unrolled: the fragments' indices are constants anyway (they stay in registers),
        // and one copy of the body compiles in a quarter of the time.
        #[no_unroll]
        for kk in 0..4 {
            let mut fb0: BFrag = fragment();
            let mut fb1: BFrag = fragment();
            load_matrix_sync(&mut fb0, sb, b_col + kk * 16, LDS as u32);
            load_matrix_sync(&mut fb1, sb, b_col + 16 * LDS + kk * 16, LDS as u32);
            let mut fa: AFrag = fragment();
            load_matrix_sync(&mut fa, sa, a_row + kk * 16, LDS as u32);
            c00 = mma_sync(&fa, &fb0, &c00);
            c01 = mma_sync(&fa, &fb1, &c01);
            load_matrix_sync(&mut fa, sa, a_row + 16 * LDS + kk * 16, LDS as u32);
            c10 = mma_sync(&fa, &fb0, &c10);
            c11 = mma_sync(&fa, &fb1, &c11);
            load_matrix_sync(&mut fa, sa, a_row + 32 * LDS + kk * 16, LDS as u32);
            c20 = mma_sync(&fa, &fb0, &c20);
            c21 = mma_sync(&fa, &fb1, &c21);
            load_matrix_sync(&mut fa, sa, a_row + 48 * LDS + kk * 16, LDS as u32);
            c30 = mma_sync(&fa, &fb0, &c30);
            c31 = mma_sync(&fa, &fb1, &c31);
        }
        sync_threads();
        kb += 64;
    }
    let r = row0 + wm * 64;
    let col = col0 + wn * 32;
    epilogue(&c00, c, d, r * n + col, n, alpha, beta);
    epilogue(&c01, c, d, r * n + col + 16, n, alpha, beta);
    epilogue(&c10, c, d, (r + 16) * n + col, n, alpha, beta);
    epilogue(&c11, c, d, (r + 16) * n + col + 16, n, alpha, beta);
    epilogue(&c20, c, d, (r + 32) * n + col, n, alpha, beta);
    epilogue(&c21, c, d, (r + 32) * n + col + 16, n, alpha, beta);
    epilogue(&c30, c, d, (r + 48) * n + col, n, alpha, beta);
    epilogue(&c31, c, d, (r + 48) * n + col + 16, n, alpha, beta);
}

/// `D = alpha * acc + beta * C` for the 16 x 16 tile at `at` (row-major, `n` per row): C's tile
/// loaded as an accumulator has its elements where `acc` has them.
#[device]
pub fn epilogue(acc: &Acc, c: &[f32], d: &mut [f32], at: usize, n: usize, alpha: f32, beta: f32) {
    let mut cf: Acc = fragment();
    load_accumulator_sync(&mut cf, c, at, n as u32, MEM_ROW_MAJOR);
    for e in 0..cf.x.len() {
        cf.x[e] = alpha * acc.x[e] + beta * cf.x[e];
    }
    store_matrix_sync(d, at, &cf, n as u32, MEM_ROW_MAJOR);
}

/// Whether the kernel takes these sizes.
pub fn check_dims(m: usize, n: usize, k: usize) -> Result<(), String> {
    if m == 0
        || n == 0
        || k == 0
        || !m.is_multiple_of(TILE)
        || !n.is_multiple_of(TILE)
        || !k.is_multiple_of(CHUNK)
    {
        return Err(format!(
            "wmma_gemm needs M and N multiples of {TILE} and K of {CHUNK}, got {m} x {n} x {k}"
        ));
    }
    Ok(())
}

pub fn config(m: usize, n: usize) -> LaunchConfig {
    LaunchConfig {
        grid: Dim3::new((n / TILE) as u32, (m / TILE) as u32, 1),
        block: Dim3::new(256, 1, 1),
        shared_mem_bytes: 0,
        attrs: Default::default(),
    }
}

/// The f64 reference and, per element, a bound on f32 accumulation error:
/// `K * 2^-23 * sum |a b|` (scaled by alpha) plus the rounding of the result.
#[allow(clippy::too_many_arguments)]
pub fn reference(
    a: &[f16],
    b: &[f16],
    c: &[f32],
    (m, n, k): (usize, usize, usize),
    alpha: f32,
    beta: f32,
) -> (Vec<f64>, Vec<f64>) {
    let mut want = vec![0.0; m * n];
    let mut tol = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            let (mut s, mut abs) = (0.0f64, 0.0f64);
            for kk in 0..k {
                let p = a[i * k + kk].to_f64() * b[j * k + kk].to_f64();
                s += p;
                abs += p.abs();
            }
            let cv = c[i * n + j] as f64;
            let v = alpha as f64 * s + beta as f64 * cv;
            want[i * n + j] = v;
            let eps = f32::EPSILON as f64;
            tol[i * n + j] = (k as f64 * eps * abs * (alpha as f64).abs())
                + 4.0 * eps * (v.abs() + (beta as f64 * cv).abs())
                + 1e-30;
        }
    }
    (want, tol)
}

/// Runs `wmma_gemm` on random inputs and checks D against the f64 reference.
pub fn check(dev: &Device, m: usize, n: usize, k: usize) -> Result<(), String> {
    check_dims(m, n, k)?;
    let mut rng = Rng::new(1234 + (m * 31 + n * 7 + k) as u64);
    let a: Vec<f16> = (0..m * k).map(|_| f16::from_f32(rng.f32())).collect();
    let b: Vec<f16> = (0..k * n).map(|_| f16::from_f32(rng.f32())).collect();
    let c = rng.vec_f32(m * n);
    let (alpha, beta) = (1.5f32, -0.75f32);
    let run = || -> ferrocuda::host_runtime::Result<Vec<f32>> {
        let s = dev.new_stream()?;
        let (da, db, dc) = (dev.upload(&a)?, dev.upload(&b)?, dev.upload(&c)?);
        let mut dd = dev.upload(&vec![f32::NAN; m * n])?;
        wmma_gemm::launch(
            &s,
            config(m, n),
            &da,
            &db,
            &dc,
            &mut dd,
            m as u32,
            n as u32,
            k as u32,
            alpha,
            beta,
        )?;
        dd.to_vec()
    };
    let got = run().map_err(|e| e.to_string())?;
    let (want, tol) = reference(&a, &b, &c, (m, n, k), alpha, beta);
    for (i, ((g, w), t)) in got.iter().zip(&want).zip(&tol).enumerate() {
        // NaN (an element never written) fails too.
        if (*g as f64 - w).abs().le(t).not() {
            return Err(format!(
                "wmma_gemm {m}x{n}x{k}: D[{}][{}] is {g}, expected {w} (tolerance {t:e})",
                i / n,
                i % n
            ));
        }
    }
    Ok(())
}
