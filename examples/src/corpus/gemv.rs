//! Dense matrix-vector products, one output per thread: `gemv_rows` (y = A x, each thread walks
//! one row of the row-major A) and `gemv_cols` (y = A^T x, each thread walks one column, so a
//! warp reads consecutive addresses).

use ferrocuda::host_runtime::Function;
use ferrocuda::prelude::*;

use super::harness::{
    close, down, grid_1d, poisoned, sample, up, Args, Case, Instance, RtResult, Side, Size, Work,
};
use crate::util::Rng;

#[kernel]
pub fn gemv_rows(a: &[f32], x: &[f32], y: &mut [f32], m: i32, n: i32) {
    let r = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let n = n as usize;
    if r < m as usize {
        let mut sum = 0.0f32;
        for c in 0..n {
            sum += a[r * n + c] * x[c];
        }
        y[r] = sum;
    }
}

#[kernel]
pub fn gemv_cols(a: &[f32], x: &[f32], y: &mut [f32], m: i32, n: i32) {
    let c = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let n = n as usize;
    if c < n {
        let mut sum = 0.0f32;
        for r in 0..m as usize {
            sum += a[r * n + c] * x[r];
        }
        y[c] = sum;
    }
}

struct Gemv {
    cols: bool,
    m: usize,
    n: usize,
    a: Vec<f32>,
    x: Vec<f32>,
    da: DeviceBuffer<f32>,
    dx: DeviceBuffer<f32>,
    y: [DeviceBuffer<f32>; 2],
    size: Size,
}

fn setup(dev: &Device, size: Size, cols: bool) -> Result<Box<dyn Instance>, String> {
    let (m, n) = match cols {
        false => size.pick((300, 77), (65_536, 1024)),
        true => size.pick((77, 300), (1024, 65_536)),
    };
    let mut rng = Rng::new(1501 + cols as u64);
    let a = rng.vec_f32(m * n);
    let x = rng.vec_f32(if cols { m } else { n });
    let outs = if cols { n } else { m };
    Ok(Box::new(Gemv {
        cols,
        m,
        n,
        da: up(dev, &a)?,
        dx: up(dev, &x)?,
        a,
        x,
        y: poisoned(dev, outs)?,
        size,
    }))
}

impl Gemv {
    fn cfg(&self) -> LaunchConfig {
        grid_1d(if self.cols { self.n } else { self.m }, 256)
    }
}

impl Instance for Gemv {
    fn label(&self) -> String {
        let name = if self.cols {
            "gemv, A^T x, thread per column"
        } else {
            "gemv, A x, thread per row"
        };
        format!("{name} ({}x{} f32)", self.m, self.n)
    }
    fn work(&self) -> Work {
        Work::Bytes(4.0 * (self.m * self.n + self.m + self.n) as f64)
    }
    fn run_ours(&mut self, s: &Stream) -> RtResult<()> {
        let (cfg, m, n) = (self.cfg(), self.m as i32, self.n as i32);
        let (a, x, y) = (&self.da, &self.dx, &mut self.y[0]);
        if self.cols {
            gemv_cols::launch(s, cfg, a, x, y, m, n)
        } else {
            gemv_rows::launch(s, cfg, a, x, y, m, n)
        }
    }
    fn run_twin(&mut self, s: &Stream, f: &[Function]) -> RtResult<()> {
        Args::new()
            .buf(&self.da)
            .buf(&self.dx)
            .buf(&self.y[1])
            .i32(self.m as i32)
            .i32(self.n as i32)
            .launch(&f[0], s, self.cfg())
    }
    fn check(&self, side: Side) -> Result<(), String> {
        let got = down(&self.y[side.ix()])?;
        let (m, n) = (self.m, self.n);
        let want = |i: usize| -> f64 {
            if self.cols {
                (0..m)
                    .map(|r| self.a[r * n + i] as f64 * self.x[r] as f64)
                    .sum()
            } else {
                (0..n)
                    .map(|c| self.a[i * n + c] as f64 * self.x[c] as f64)
                    .sum()
            }
        };
        let idx = sample(got.len(), self.size);
        close("gemv", &got, &idx, want, 1e-4, 1e-4)
    }
}

pub const CASES: &[Case] = &[
    Case {
        name: "gemv_rows",
        twin_file: "gemv",
        twin_entries: &["gemv_rows"],
        setup: |d, s| setup(d, s, false),
    },
    Case {
        name: "gemv_cols",
        twin_file: "gemv",
        twin_entries: &["gemv_cols"],
        setup: |d, s| setup(d, s, true),
    },
];
