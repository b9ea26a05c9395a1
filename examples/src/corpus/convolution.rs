//! Separable convolution, radius 8 (17 taps), clamped at the edges, one output per thread
//! straight from global memory: the row pass and the column pass as separate kernels. The tap
//! loop has a constant trip count.

use ferrocuda::host_runtime::Function;
use ferrocuda::prelude::*;

use super::harness::{
    close, down, grid_2d, poisoned, sample, up, Args, Case, Instance, RtResult, Side, Size, Work,
};
use crate::util::Rng;

const R: i32 = 8;
const TAPS: usize = 17;

#[kernel]
pub fn conv_row(inp: &[f32], out: &mut [f32], taps: &[f32], w: i32, h: i32) {
    let x = (block_idx().x * block_dim().x + thread_idx().x) as i32;
    let y = (block_idx().y * block_dim().y + thread_idx().y) as i32;
    if x < w && y < h {
        let mut sum = 0.0f32;
        for j in 0..17 {
            let xx = (x + j - R).max(0).min(w - 1);
            sum += taps[j as usize] * inp[(y * w + xx) as usize];
        }
        out[(y * w + x) as usize] = sum;
    }
}

#[kernel]
pub fn conv_col(inp: &[f32], out: &mut [f32], taps: &[f32], w: i32, h: i32) {
    let x = (block_idx().x * block_dim().x + thread_idx().x) as i32;
    let y = (block_idx().y * block_dim().y + thread_idx().y) as i32;
    if x < w && y < h {
        let mut sum = 0.0f32;
        for j in 0..17 {
            let yy = (y + j - R).max(0).min(h - 1);
            sum += taps[j as usize] * inp[(yy * w + x) as usize];
        }
        out[(y * w + x) as usize] = sum;
    }
}

struct Conv {
    rows: bool,
    w: usize,
    h: usize,
    inp: Vec<f32>,
    taps: Vec<f32>,
    din: DeviceBuffer<f32>,
    dtaps: DeviceBuffer<f32>,
    out: [DeviceBuffer<f32>; 2],
    size: Size,
}

fn setup(dev: &Device, size: Size, rows: bool) -> Result<Box<dyn Instance>, String> {
    let (w, h) = size.pick((75, 40), (8192, 8192));
    let mut rng = Rng::new(801 + rows as u64);
    let inp = rng.vec_f32(w * h);
    let taps = rng.vec_f32(TAPS);
    Ok(Box::new(Conv {
        rows,
        w,
        h,
        din: up(dev, &inp)?,
        dtaps: up(dev, &taps)?,
        inp,
        taps,
        out: poisoned(dev, w * h)?,
        size,
    }))
}

impl Instance for Conv {
    fn label(&self) -> String {
        let pass = if self.rows { "row" } else { "column" };
        format!(
            "convolution, {pass} pass, 17 taps ({}x{} f32)",
            self.w, self.h
        )
    }
    fn work(&self) -> Work {
        Work::Bytes(8.0 * (self.w * self.h) as f64)
    }
    fn run_ours(&mut self, s: &Stream) -> RtResult<()> {
        let cfg = grid_2d(self.w, self.h, 32, 8);
        let (w, h) = (self.w as i32, self.h as i32);
        let (inp, out, taps) = (&self.din, &mut self.out[0], &self.dtaps);
        if self.rows {
            conv_row::launch(s, cfg, inp, out, taps, w, h)
        } else {
            conv_col::launch(s, cfg, inp, out, taps, w, h)
        }
    }
    fn run_twin(&mut self, s: &Stream, f: &[Function]) -> RtResult<()> {
        Args::new()
            .buf(&self.din)
            .buf(&self.out[1])
            .buf(&self.dtaps)
            .i32(self.w as i32)
            .i32(self.h as i32)
            .launch(&f[0], s, grid_2d(self.w, self.h, 32, 8))
    }
    fn check(&self, side: Side) -> Result<(), String> {
        let got = down(&self.out[side.ix()])?;
        let (w, h) = (self.w as i64, self.h as i64);
        let want = |i: usize| {
            let (x, y) = (i as i64 % w, i as i64 / w);
            (0..TAPS as i64)
                .map(|j| {
                    let (xx, yy) = if self.rows {
                        ((x + j - R as i64).clamp(0, w - 1), y)
                    } else {
                        (x, (y + j - R as i64).clamp(0, h - 1))
                    };
                    self.taps[j as usize] as f64 * self.inp[(yy * w + xx) as usize] as f64
                })
                .sum::<f64>()
        };
        close(
            "convolution",
            &got,
            &sample(got.len(), self.size),
            want,
            1e-5,
            1e-5,
        )
    }
}

pub const CASES: &[Case] = &[
    Case {
        name: "conv_row",
        twin_file: "convolution",
        twin_entries: &["conv_row"],
        setup: |d, s| setup(d, s, true),
    },
    Case {
        name: "conv_col",
        twin_file: "convolution",
        twin_entries: &["conv_col"],
        setup: |d, s| setup(d, s, false),
    },
];
