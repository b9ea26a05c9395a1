//! Square and rectangular matrix products, row-major: naive (one output per thread, the k loop
//! in global memory), tiled (the programming guide's 16x16 shared tiles) and register-tiled
//! SGEMM (256 threads per 128x128 tile of C, each accumulating 8x8 in registers). Plain loops
//! over constant trip counts, no `#[unroll]`, no launch bounds.

use ferrocuda::host_runtime::Function;
use ferrocuda::prelude::*;

use super::harness::{
    close, down, grid_2d, poisoned, sample, up, Args, Case, Instance, RtResult, Side, Size, Work,
};
use crate::util::Rng;

#[kernel]
pub fn matmul_naive(a: &[f32], b: &[f32], c: &mut [f32], n: i32) {
    let row = (block_idx().y * block_dim().y + thread_idx().y) as usize;
    let col = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let n = n as usize;
    if row < n && col < n {
        let mut sum = 0.0f32;
        for k in 0..n {
            sum += a[row * n + k] * b[k * n + col];
        }
        c[row * n + col] = sum;
    }
}

const T: usize = 16;

/// `n` a multiple of 16, blocks of 16x16.
#[kernel]
pub fn matmul_tiled(a: &[f32], b: &[f32], c: &mut [f32], n: i32) {
    let a_s = shared_array::<[[f32; 16]; 16]>();
    let b_s = shared_array::<[[f32; 16]; 16]>();
    let tx = thread_idx().x as usize;
    let ty = thread_idx().y as usize;
    let row = block_idx().y as usize * T + ty;
    let col = block_idx().x as usize * T + tx;
    let n = n as usize;
    let mut sum = 0.0f32;
    for t in 0..n / T {
        a_s[ty][tx] = a[row * n + t * T + tx];
        b_s[ty][tx] = b[(t * T + ty) * n + col];
        sync_threads();
        for k in 0..T {
            sum += a_s[ty][k] * b_s[k][tx];
        }
        sync_threads();
    }
    c[row * n + col] = sum;
}

/// C = alpha * A * B + beta * C; `m`, `n` multiples of 128, `k` of 8; 256 threads per block.
#[kernel]
#[allow(clippy::too_many_arguments)]
pub fn sgemm_regtile(
    a: &[f32],
    b: &[f32],
    c: &mut [f32],
    m: i32,
    n: i32,
    k: i32,
    alpha: f32,
    beta: f32,
) {
    let a_s = shared_array::<[[f32; 128]; 8]>();
    let b_s = shared_array::<[[f32; 128]; 8]>();
    let _ = m;
    let n = n as usize;
    let k = k as usize;
    let tid = thread_idx().x as usize;
    let tx = tid % 16;
    let ty = tid / 16;
    let row0 = block_idx().y as usize * 128;
    let col0 = block_idx().x as usize * 128;
    let mut acc = [[0.0f32; 8]; 8];
    let mut kt = 0;
    while kt < k {
        for l in 0..4 {
            let e = tid + l * 256;
            let ar = e / 8;
            let ac = e % 8;
            a_s[ac][ar] = a[(row0 + ar) * k + kt + ac];
            let br = e / 128;
            let bc = e % 128;
            b_s[br][bc] = b[(kt + br) * n + col0 + bc];
        }
        sync_threads();
        for kk in 0..8 {
            let mut af = [0.0f32; 8];
            let mut bf = [0.0f32; 8];
            for i in 0..8 {
                af[i] = a_s[kk][ty * 8 + i];
            }
            for j in 0..8 {
                bf[j] = b_s[kk][tx * 8 + j];
            }
            for i in 0..8 {
                for j in 0..8 {
                    acc[i][j] += af[i] * bf[j];
                }
            }
        }
        sync_threads();
        kt += 8;
    }
    for i in 0..8 {
        for j in 0..8 {
            let idx = (row0 + ty * 8 + i) * n + col0 + tx * 8 + j;
            c[idx] = alpha * acc[i][j] + beta * c[idx];
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Which {
    Naive,
    Tiled,
    Regtile,
}

struct Matmul {
    which: Which,
    m: usize,
    n: usize,
    k: usize,
    a: Vec<f32>,
    b: Vec<f32>,
    c0: Vec<f32>,
    da: DeviceBuffer<f32>,
    db: DeviceBuffer<f32>,
    out: [DeviceBuffer<f32>; 2],
    size: Size,
}

const ALPHA: f32 = 1.25;
const BETA: f32 = 0.5;

fn setup(dev: &Device, size: Size, which: Which) -> Result<Box<dyn Instance>, String> {
    let (m, n, k) = match which {
        Which::Naive => size.pick((40, 40, 40), (2048, 2048, 2048)),
        Which::Tiled => size.pick((48, 48, 48), (2048, 2048, 2048)),
        Which::Regtile => size.pick((128, 256, 16), (4096, 4096, 4096)),
    };
    let mut rng = Rng::new(301 + which as u64);
    let a = rng.vec_f32(m * k);
    let b = rng.vec_f32(k * n);
    let (c0, out) = if which == Which::Regtile {
        let c0 = rng.vec_f32(m * n);
        let out = [up(dev, &c0)?, up(dev, &c0)?];
        (c0, out)
    } else {
        (Vec::new(), poisoned(dev, m * n)?)
    };
    Ok(Box::new(Matmul {
        which,
        m,
        n,
        k,
        da: up(dev, &a)?,
        db: up(dev, &b)?,
        a,
        b,
        c0,
        out,
        size,
    }))
}

impl Matmul {
    fn cfg(&self) -> LaunchConfig {
        match self.which {
            Which::Naive | Which::Tiled => grid_2d(self.n, self.m, 16, 16),
            Which::Regtile => {
                let mut c = grid_2d(self.n, self.m, 128, 128);
                c.block = Dim3::new(256, 1, 1);
                c
            }
        }
    }
}

impl Instance for Matmul {
    fn label(&self) -> String {
        let name = match self.which {
            Which::Naive => "matmul, naive",
            Which::Tiled => "matmul, 16x16 shared tiles",
            Which::Regtile => "sgemm, 128x128 tile / 8x8 per thread",
        };
        format!("{name} ({}x{}x{})", self.m, self.n, self.k)
    }
    fn work(&self) -> Work {
        Work::Flops(2.0 * (self.m * self.n * self.k) as f64)
    }
    fn run_ours(&mut self, s: &Stream) -> RtResult<()> {
        let cfg = self.cfg();
        let (m, n, k) = (self.m as i32, self.n as i32, self.k as i32);
        let c = &mut self.out[0];
        match self.which {
            Which::Naive => matmul_naive::launch(s, cfg, &self.da, &self.db, c, n),
            Which::Tiled => matmul_tiled::launch(s, cfg, &self.da, &self.db, c, n),
            Which::Regtile => {
                sgemm_regtile::launch(s, cfg, &self.da, &self.db, c, m, n, k, ALPHA, BETA)
            }
        }
    }
    fn run_twin(&mut self, s: &Stream, f: &[Function]) -> RtResult<()> {
        let args = Args::new().buf(&self.da).buf(&self.db).buf(&self.out[1]);
        let args = match self.which {
            Which::Naive | Which::Tiled => args.i32(self.n as i32),
            Which::Regtile => args
                .i32(self.m as i32)
                .i32(self.n as i32)
                .i32(self.k as i32)
                .f32(ALPHA)
                .f32(BETA),
        };
        args.launch(&f[0], s, self.cfg())
    }
    fn check(&self, side: Side) -> Result<(), String> {
        let got = down(&self.out[side.ix()])?;
        let (n, k) = (self.n, self.k);
        let dot = |i: usize| {
            let (r, c) = (i / n, i % n);
            (0..k)
                .map(|kk| self.a[r * k + kk] as f64 * self.b[kk * n + c] as f64)
                .sum::<f64>()
        };
        let idx = sample(self.m * n, self.size);
        match self.which {
            Which::Regtile => close(
                "sgemm",
                &got,
                &idx,
                |i| ALPHA as f64 * dot(i) + BETA as f64 * self.c0[i] as f64,
                1e-4,
                2e-3,
            ),
            _ => close("matmul", &got, &idx, dot, 1e-4, 1e-3),
        }
    }
}

pub const CASES: &[Case] = &[
    Case {
        name: "matmul_naive",
        twin_file: "matmul",
        twin_entries: &["matmul_naive"],
        setup: |d, s| setup(d, s, Which::Naive),
    },
    Case {
        name: "matmul_tiled",
        twin_file: "matmul",
        twin_entries: &["matmul_tiled"],
        setup: |d, s| setup(d, s, Which::Tiled),
    },
    Case {
        name: "sgemm_regtile",
        twin_file: "matmul",
        twin_entries: &["sgemm_regtile"],
        setup: |d, s| setup(d, s, Which::Regtile),
    },
];
