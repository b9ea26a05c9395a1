//! One element per thread: vector add, saxpy, GELU (tanh form). The `n` parameter is an `i32`
//! as in the CUDA C twin; the index is `usize`.

use ferrocuda::host_runtime::Function;
use ferrocuda::prelude::*;

use super::harness::{
    close, down, grid_1d, poisoned, sample, up, Args, Case, Instance, RtResult, Side, Size, Work,
};
use crate::util::Rng;

#[kernel]
pub fn vector_add(a: &[f32], b: &[f32], c: &mut [f32], n: i32) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < n as usize {
        c[i] = a[i] + b[i];
    }
}

#[kernel]
pub fn saxpy(n: i32, a: f32, x: &[f32], y: &mut [f32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < n as usize {
        y[i] = a * x[i] + y[i];
    }
}

#[kernel]
pub fn gelu(x: &[f32], y: &mut [f32], n: i32) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < n as usize {
        let v = x[i];
        let inner = 0.797_884_6 * (v + 0.044715 * v * v * v);
        y[i] = 0.5 * v * (1.0 + inner.tanh());
    }
}

const BLOCK: u32 = 256;

fn elems(size: Size) -> usize {
    size.pick(10_001, 1 << 26)
}

/// The binary and unary cases share their buffers: `a`, `b` inputs, `out` per side.
struct Elementwise {
    which: Which,
    n: usize,
    a: Vec<f32>,
    b: Vec<f32>,
    da: DeviceBuffer<f32>,
    db: DeviceBuffer<f32>,
    out: [DeviceBuffer<f32>; 2],
    size: Size,
}

#[derive(Clone, Copy, PartialEq)]
enum Which {
    Add,
    Saxpy,
    Gelu,
}

const SAXPY_A: f32 = 1.5;

fn setup(dev: &Device, size: Size, which: Which) -> Result<Box<dyn Instance>, String> {
    let n = elems(size);
    let mut rng = Rng::new(101 + which as u64);
    let (a, b) = (rng.vec_f32(n), rng.vec_f32(n));
    let out = match which {
        // saxpy updates y in place: each side starts from its own copy of y.
        Which::Saxpy => [up(dev, &b)?, up(dev, &b)?],
        _ => poisoned(dev, n)?,
    };
    Ok(Box::new(Elementwise {
        which,
        n,
        da: up(dev, &a)?,
        db: up(dev, &b)?,
        a,
        b,
        out,
        size,
    }))
}

impl Instance for Elementwise {
    fn label(&self) -> String {
        let name = match self.which {
            Which::Add => "vector add",
            Which::Saxpy => "saxpy",
            Which::Gelu => "gelu (tanh)",
        };
        format!("{name} ({} f32)", self.n)
    }
    fn work(&self) -> Work {
        let arrays = match self.which {
            Which::Add | Which::Saxpy => 3.0,
            Which::Gelu => 2.0,
        };
        Work::Bytes(arrays * 4.0 * self.n as f64)
    }
    fn run_ours(&mut self, s: &Stream) -> RtResult<()> {
        let cfg = grid_1d(self.n, BLOCK);
        let n = self.n as i32;
        let out = &mut self.out[0];
        match self.which {
            Which::Add => vector_add::launch(s, cfg, &self.da, &self.db, out, n),
            Which::Saxpy => saxpy::launch(s, cfg, n, SAXPY_A, &self.da, out),
            Which::Gelu => gelu::launch(s, cfg, &self.da, out, n),
        }
    }
    fn run_twin(&mut self, s: &Stream, f: &[Function]) -> RtResult<()> {
        let cfg = grid_1d(self.n, BLOCK);
        let n = self.n as i32;
        let args = match self.which {
            Which::Add => Args::new()
                .buf(&self.da)
                .buf(&self.db)
                .buf(&self.out[1])
                .i32(n),
            Which::Saxpy => Args::new()
                .i32(n)
                .f32(SAXPY_A)
                .buf(&self.da)
                .buf(&self.out[1]),
            Which::Gelu => Args::new().buf(&self.da).buf(&self.out[1]).i32(n),
        };
        args.launch(&f[0], s, cfg)
    }
    fn check(&self, side: Side) -> Result<(), String> {
        let got = down(&self.out[side.ix()])?;
        let idx = sample(self.n, self.size);
        let (a, b) = (&self.a, &self.b);
        match self.which {
            Which::Add => close("vector_add", &got, &idx, |i| (a[i] + b[i]) as f64, 0.0, 0.0),
            Which::Saxpy => close(
                "saxpy",
                &got,
                &idx,
                |i| SAXPY_A as f64 * a[i] as f64 + b[i] as f64,
                1e-6,
                1e-6,
            ),
            Which::Gelu => close(
                "gelu",
                &got,
                &idx,
                |i| {
                    let v = a[i] as f64;
                    0.5 * v * (1.0 + (0.797_884_560_8 * (v + 0.044715 * v * v * v)).tanh())
                },
                1e-5,
                1e-6,
            ),
        }
    }
}

pub const CASES: &[Case] = &[
    Case {
        name: "vector_add",
        twin_file: "elementwise",
        twin_entries: &["vector_add"],
        setup: |d, s| setup(d, s, Which::Add),
    },
    Case {
        name: "saxpy",
        twin_file: "elementwise",
        twin_entries: &["saxpy"],
        setup: |d, s| setup(d, s, Which::Saxpy),
    },
    Case {
        name: "gelu",
        twin_file: "elementwise",
        twin_entries: &["gelu"],
        setup: |d, s| setup(d, s, Which::Gelu),
    },
];
