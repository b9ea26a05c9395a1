//! Row-wise kernels, one 256-thread block per row: softmax (max, sum of exponentials, scale;
//! each a strided loop over the row and a shared-memory tree) and layer normalization (sum and
//! sum of squares in one pass, then scale and shift by `gamma`, `beta`).

use ferrocuda::host_runtime::Function;
use ferrocuda::prelude::*;

use super::harness::{
    close, down, grid_1d, poisoned, sample, up, Args, Case, Instance, RtResult, Side, Size, Work,
};
use crate::util::Rng;

#[kernel]
pub fn softmax_rows(inp: &[f32], out: &mut [f32], cols: i32) {
    let red = shared_array::<[f32; 256]>();
    let t = thread_idx().x as usize;
    let bd = block_dim().x as usize;
    let cols = cols as usize;
    let row = block_idx().x as usize * cols;
    let mut m = f32::NEG_INFINITY;
    let mut c = t;
    while c < cols {
        m = m.max(inp[row + c]);
        c += bd;
    }
    red[t] = m;
    sync_threads();
    let mut s = bd / 2;
    while s > 0 {
        if t < s {
            red[t] = red[t].max(red[t + s]);
        }
        sync_threads();
        s /= 2;
    }
    let m = red[0];
    sync_threads();
    let mut sum = 0.0f32;
    c = t;
    while c < cols {
        sum += (inp[row + c] - m).exp();
        c += bd;
    }
    red[t] = sum;
    sync_threads();
    s = bd / 2;
    while s > 0 {
        if t < s {
            red[t] += red[t + s];
        }
        sync_threads();
        s /= 2;
    }
    let sum = red[0];
    c = t;
    while c < cols {
        out[row + c] = (inp[row + c] - m).exp() / sum;
        c += bd;
    }
}

#[kernel]
pub fn layernorm(inp: &[f32], out: &mut [f32], gamma: &[f32], beta: &[f32], cols: i32, eps: f32) {
    let s1 = shared_array::<[f32; 256]>();
    let s2 = shared_array::<[f32; 256]>();
    let t = thread_idx().x as usize;
    let bd = block_dim().x as usize;
    let n = cols as usize;
    let row = block_idx().x as usize * n;
    let mut sum = 0.0f32;
    let mut sq = 0.0f32;
    let mut c = t;
    while c < n {
        let v = inp[row + c];
        sum += v;
        sq += v * v;
        c += bd;
    }
    s1[t] = sum;
    s2[t] = sq;
    sync_threads();
    let mut s = bd / 2;
    while s > 0 {
        if t < s {
            s1[t] += s1[t + s];
            s2[t] += s2[t + s];
        }
        sync_threads();
        s /= 2;
    }
    let mean = s1[0] / cols as f32;
    let var = s2[0] / cols as f32 - mean * mean;
    let rstd = 1.0 / (var + eps).sqrt();
    c = t;
    while c < n {
        out[row + c] = (inp[row + c] - mean) * rstd * gamma[c] + beta[c];
        c += bd;
    }
}

const BLOCK: u32 = 256;
const EPS: f32 = 1e-5;

struct Rows {
    layernorm: bool,
    rows: usize,
    cols: usize,
    x: Vec<f32>,
    gamma: Vec<f32>,
    beta: Vec<f32>,
    dx: DeviceBuffer<f32>,
    dgamma: DeviceBuffer<f32>,
    dbeta: DeviceBuffer<f32>,
    out: [DeviceBuffer<f32>; 2],
    size: Size,
}

fn setup(dev: &Device, size: Size, layernorm: bool) -> Result<Box<dyn Instance>, String> {
    let (rows, cols) = size.pick((7, 300), (32_768, 2048));
    let mut rng = Rng::new(901 + layernorm as u64);
    // Softmax inputs spread over [-4, 4) so the exponentials differ.
    let x: Vec<f32> = rng.vec_f32(rows * cols).iter().map(|v| 4.0 * v).collect();
    let gamma = rng.vec_f32(cols);
    let beta = rng.vec_f32(cols);
    Ok(Box::new(Rows {
        layernorm,
        rows,
        cols,
        dx: up(dev, &x)?,
        dgamma: up(dev, &gamma)?,
        dbeta: up(dev, &beta)?,
        x,
        gamma,
        beta,
        out: poisoned(dev, rows * cols)?,
        size,
    }))
}

impl Rows {
    fn cfg(&self) -> LaunchConfig {
        grid_1d(self.rows * BLOCK as usize, BLOCK)
    }
    /// Per-row statistics in f64: (max, sum of exp(x - max)) or (mean, 1 / std).
    fn stats(&self, r: usize) -> (f64, f64) {
        let row = &self.x[r * self.cols..(r + 1) * self.cols];
        if self.layernorm {
            let n = self.cols as f64;
            let mean = row.iter().map(|&v| v as f64).sum::<f64>() / n;
            let var = row.iter().map(|&v| (v as f64 - mean).powi(2)).sum::<f64>() / n;
            (mean, 1.0 / (var + EPS as f64).sqrt())
        } else {
            let m = row.iter().fold(f64::NEG_INFINITY, |a, &v| a.max(v as f64));
            (m, row.iter().map(|&v| (v as f64 - m).exp()).sum())
        }
    }
}

impl Instance for Rows {
    fn label(&self) -> String {
        let name = if self.layernorm {
            "layernorm"
        } else {
            "softmax"
        };
        format!("{name}, block per row ({}x{} f32)", self.rows, self.cols)
    }
    fn work(&self) -> Work {
        Work::Bytes(8.0 * (self.rows * self.cols) as f64)
    }
    fn run_ours(&mut self, s: &Stream) -> RtResult<()> {
        let (cfg, cols) = (self.cfg(), self.cols as i32);
        let (x, out) = (&self.dx, &mut self.out[0]);
        if self.layernorm {
            layernorm::launch(s, cfg, x, out, &self.dgamma, &self.dbeta, cols, EPS)
        } else {
            softmax_rows::launch(s, cfg, x, out, cols)
        }
    }
    fn run_twin(&mut self, s: &Stream, f: &[Function]) -> RtResult<()> {
        let args = Args::new().buf(&self.dx).buf(&self.out[1]);
        let args = if self.layernorm {
            args.buf(&self.dgamma)
                .buf(&self.dbeta)
                .i32(self.cols as i32)
                .f32(EPS)
        } else {
            args.i32(self.cols as i32)
        };
        args.launch(&f[0], s, self.cfg())
    }
    fn check(&self, side: Side) -> Result<(), String> {
        let got = down(&self.out[side.ix()])?;
        let idx = sample(got.len(), self.size);
        // Statistics of the rows the sample touches, computed once per row.
        let mut stats = std::collections::HashMap::new();
        for &i in &idx {
            let r = i / self.cols;
            stats.entry(r).or_insert_with(|| self.stats(r));
        }
        let want = |i: usize| {
            let (a, b) = stats[&(i / self.cols)];
            let (v, c) = (self.x[i] as f64, i % self.cols);
            if self.layernorm {
                (v - a) * b * self.gamma[c] as f64 + self.beta[c] as f64
            } else {
                (v - a).exp() / b
            }
        };
        let (rel, abs) = if self.layernorm {
            (1e-4, 1e-4)
        } else {
            (1e-4, 1e-9)
        };
        close("row kernel", &got, &idx, want, rel, abs)
    }
}

pub const CASES: &[Case] = &[
    Case {
        name: "softmax",
        twin_file: "rows",
        twin_entries: &["softmax_rows"],
        setup: |d, s| setup(d, s, false),
    },
    Case {
        name: "layernorm",
        twin_file: "rows",
        twin_entries: &["layernorm"],
        setup: |d, s| setup(d, s, true),
    },
];
