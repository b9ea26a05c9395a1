//! Sum of an f32 array, three styles a CUDA programmer writes first:
//! - `reduce_tree`: one element per thread into shared memory, a halving tree, one partial sum
//!   per block written out (the second pass is left to the caller).
//! - `reduce_shfl`: a grid-stride loop, `shfl_down_sync` within each warp, warp sums through
//!   shared memory, the first warp finishes and thread 0 adds the block's sum atomically.
//! - `reduce_warp_atomic`: a grid-stride loop and a warp shuffle, then one atomic per warp.

use ferrocuda::host_runtime::Function;
use ferrocuda::prelude::*;

use super::harness::{close, down, grid_1d, up, Args, Case, Instance, RtResult, Side, Size, Work};
use crate::util::Rng;

const FULL: u32 = 0xffff_ffff;
const BLOCK: u32 = 256;

#[kernel]
pub fn reduce_tree(input: &[f32], partial: &mut [f32], n: i32) {
    let sdata = shared_array::<[f32; 256]>();
    let t = thread_idx().x as usize;
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    sdata[t] = if i < n as usize { input[i] } else { 0.0 };
    sync_threads();
    let mut s = block_dim().x as usize / 2;
    while s > 0 {
        if t < s {
            sdata[t] += sdata[t + s];
        }
        sync_threads();
        s /= 2;
    }
    if t == 0 {
        partial[block_idx().x as usize] = sdata[0];
    }
}

#[kernel]
pub fn reduce_shfl(input: &[f32], out: &mut [f32], n: i32) {
    let warp_sums = shared_array::<[f32; 32]>();
    let t = thread_idx().x as usize;
    let stride = (block_dim().x * grid_dim().x) as usize;
    let mut i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let mut sum = 0.0f32;
    while i < n as usize {
        sum += input[i];
        i += stride;
    }
    let mut offset = 16;
    while offset > 0 {
        sum += shfl_down_sync(FULL, sum, offset, 32);
        offset /= 2;
    }
    if t % 32 == 0 {
        warp_sums[t / 32] = sum;
    }
    sync_threads();
    if t < 32 {
        sum = if t < (block_dim().x / 32) as usize {
            warp_sums[t]
        } else {
            0.0
        };
        let mut offset = 16;
        while offset > 0 {
            sum += shfl_down_sync(FULL, sum, offset, 32);
            offset /= 2;
        }
        if t == 0 {
            atomic_add(&mut out[0], sum);
        }
    }
}

#[kernel]
pub fn reduce_warp_atomic(input: &[f32], out: &mut [f32], n: i32) {
    let stride = (block_dim().x * grid_dim().x) as usize;
    let mut i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let mut sum = 0.0f32;
    while i < n as usize {
        sum += input[i];
        i += stride;
    }
    let mut offset = 16;
    while offset > 0 {
        sum += shfl_down_sync(FULL, sum, offset, 32);
        offset /= 2;
    }
    if thread_idx().x % 32 == 0 {
        atomic_add(&mut out[0], sum);
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Which {
    Tree,
    Shfl,
    WarpAtomic,
}

struct Reduce {
    which: Which,
    n: usize,
    blocks: usize,
    x: Vec<f32>,
    dx: DeviceBuffer<f32>,
    out: [DeviceBuffer<f32>; 2],
}

fn setup(dev: &Device, size: Size, which: Which) -> Result<Box<dyn Instance>, String> {
    let n = size.pick(10_007, 1 << 26);
    let x = Rng::new(401 + which as u64).vec_f32(n);
    // Grid-stride kernels: enough blocks to fill the GPU (8 per multiprocessor).
    let blocks = match (which, size) {
        (Which::Tree, _) => n.div_ceil(BLOCK as usize),
        (_, Size::Sim) => 5,
        (_, Size::Bench) => dev.properties().multiprocessor_count.max(1) as usize * 8,
    };
    let out_len = if which == Which::Tree { blocks } else { 1 };
    let init = if which == Which::Tree { f32::NAN } else { 0.0 };
    let init = vec![init; out_len];
    Ok(Box::new(Reduce {
        which,
        n,
        blocks,
        dx: up(dev, &x)?,
        x,
        out: [up(dev, &init)?, up(dev, &init)?],
    }))
}

impl Instance for Reduce {
    fn label(&self) -> String {
        let name = match self.which {
            Which::Tree => "reduce, shared tree, block partials",
            Which::Shfl => "reduce, grid-stride + shfl + shared + atomic",
            Which::WarpAtomic => "reduce, grid-stride + shfl, atomic per warp",
        };
        format!("{name} ({} f32)", self.n)
    }
    fn work(&self) -> Work {
        Work::Bytes(4.0 * self.n as f64)
    }
    fn run_ours(&mut self, s: &Stream) -> RtResult<()> {
        let cfg = grid_1d(self.blocks * BLOCK as usize, BLOCK);
        let (x, out, n) = (&self.dx, &mut self.out[0], self.n as i32);
        match self.which {
            Which::Tree => reduce_tree::launch(s, cfg, x, out, n),
            Which::Shfl => reduce_shfl::launch(s, cfg, x, out, n),
            Which::WarpAtomic => reduce_warp_atomic::launch(s, cfg, x, out, n),
        }
    }
    fn run_twin(&mut self, s: &Stream, f: &[Function]) -> RtResult<()> {
        let cfg = grid_1d(self.blocks * BLOCK as usize, BLOCK);
        Args::new()
            .buf(&self.dx)
            .buf(&self.out[1])
            .i32(self.n as i32)
            .launch(&f[0], s, cfg)
    }
    fn check(&self, side: Side) -> Result<(), String> {
        let got = down(&self.out[side.ix()])?;
        let b = BLOCK as usize;
        let sum = |r: std::ops::Range<usize>| -> (f64, f64) {
            let r = r.start..r.end.min(self.n);
            let s = self.x[r.clone()].iter().map(|&v| v as f64).sum();
            let a = self.x[r].iter().map(|&v| v.abs() as f64).sum::<f64>();
            (s, a)
        };
        if self.which == Which::Tree {
            for (blk, g) in got.iter().enumerate() {
                let (want, mag) = sum(blk * b..(blk + 1) * b);
                if !(*g as f64 - want).abs().le(&(1e-5 * mag + 1e-6)) {
                    return Err(format!("block {blk}: partial {g}, expected {want}"));
                }
            }
            return Ok(());
        }
        let (want, mag) = sum(0..self.n);
        close("sum", &got, &[0], |_| want, 0.0, 1e-5 * mag)
    }
}

pub const CASES: &[Case] = &[
    Case {
        name: "reduce_tree",
        twin_file: "reduce",
        twin_entries: &["reduce_tree"],
        setup: |d, s| setup(d, s, Which::Tree),
    },
    Case {
        name: "reduce_shfl",
        twin_file: "reduce",
        twin_entries: &["reduce_shfl"],
        setup: |d, s| setup(d, s, Which::Shfl),
    },
    Case {
        name: "reduce_warp_atomic",
        twin_file: "reduce",
        twin_entries: &["reduce_warp_atomic"],
        setup: |d, s| setup(d, s, Which::WarpAtomic),
    },
];
