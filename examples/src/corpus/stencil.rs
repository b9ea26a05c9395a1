//! Stencils: a 5-point 2-D Jacobi step and a 7-point 3-D one straight from global memory (one
//! point per thread, boundary points copied), and a 5x5 filter that stages a 20x20 tile (16x16
//! block plus a 2-pixel clamped halo) in shared memory and loops 5x5 over it.

use ferrocuda::host_runtime::Function;
use ferrocuda::prelude::*;

use super::harness::{
    close, down, grid_2d, poisoned, sample, up, Args, Case, Instance, RtResult, Side, Size, Work,
};
use crate::util::Rng;

#[kernel]
pub fn stencil2d(inp: &[f32], out: &mut [f32], w: i32, h: i32) {
    let x = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let y = (block_idx().y * block_dim().y + thread_idx().y) as usize;
    let w = w as usize;
    let h = h as usize;
    if x < w && y < h {
        let i = y * w + x;
        if x > 0 && y > 0 && x < w - 1 && y < h - 1 {
            out[i] = 0.25 * (inp[i - 1] + inp[i + 1] + inp[i - w] + inp[i + w]);
        } else {
            out[i] = inp[i];
        }
    }
}

#[kernel]
#[allow(clippy::too_many_arguments)]
pub fn stencil3d(inp: &[f32], out: &mut [f32], nx: i32, ny: i32, nz: i32, c0: f32, c1: f32) {
    let x = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let y = (block_idx().y * block_dim().y + thread_idx().y) as usize;
    let z = (block_idx().z * block_dim().z + thread_idx().z) as usize;
    let nx = nx as usize;
    let ny = ny as usize;
    let nz = nz as usize;
    if x < nx && y < ny && z < nz {
        let i = (z * ny + y) * nx + x;
        if x > 0 && y > 0 && z > 0 && x < nx - 1 && y < ny - 1 && z < nz - 1 {
            let plane = nx * ny;
            out[i] = c0 * inp[i]
                + c1 * (inp[i - 1]
                    + inp[i + 1]
                    + inp[i - nx]
                    + inp[i + nx]
                    + inp[i - plane]
                    + inp[i + plane]);
        } else {
            out[i] = inp[i];
        }
    }
}

/// Blocks of 16x16; `weights` holds the 25 taps row by row.
#[kernel]
pub fn filter5x5(inp: &[f32], out: &mut [f32], weights: &[f32], w: i32, h: i32) {
    let tile = shared_array::<[[f32; 20]; 20]>();
    let tx = thread_idx().x as usize;
    let ty = thread_idx().y as usize;
    let x0 = block_idx().x as i32 * 16 - 2;
    let y0 = block_idx().y as i32 * 16 - 2;
    let mut k = ty * 16 + tx;
    while k < 400 {
        let gx = (x0 + (k % 20) as i32).max(0).min(w - 1);
        let gy = (y0 + (k / 20) as i32).max(0).min(h - 1);
        tile[k / 20][k % 20] = inp[gy as usize * w as usize + gx as usize];
        k += 256;
    }
    sync_threads();
    let x = block_idx().x as usize * 16 + tx;
    let y = block_idx().y as usize * 16 + ty;
    if x < w as usize && y < h as usize {
        let mut sum = 0.0f32;
        for dy in 0..5 {
            for dx in 0..5 {
                sum += weights[dy * 5 + dx] * tile[ty + dy][tx + dx];
            }
        }
        out[y * w as usize + x] = sum;
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Which {
    TwoD,
    ThreeD,
    Filter,
}

struct Stencil {
    which: Which,
    dims: [usize; 3],
    inp: Vec<f32>,
    weights: Vec<f32>,
    din: DeviceBuffer<f32>,
    dweights: DeviceBuffer<f32>,
    out: [DeviceBuffer<f32>; 2],
    size: Size,
}

const C0: f32 = 0.4;
const C1: f32 = 0.1;

fn setup(dev: &Device, size: Size, which: Which) -> Result<Box<dyn Instance>, String> {
    let dims = match which {
        Which::TwoD => size.pick([67, 45, 1], [8192, 8192, 1]),
        Which::ThreeD => size.pick([37, 11, 9], [512, 512, 256]),
        Which::Filter => size.pick([70, 41, 1], [8192, 8192, 1]),
    };
    let n = dims.iter().product();
    let mut rng = Rng::new(701 + which as u64);
    let inp = rng.vec_f32(n);
    let weights = rng.vec_f32(25);
    Ok(Box::new(Stencil {
        which,
        dims,
        din: up(dev, &inp)?,
        dweights: up(dev, &weights)?,
        inp,
        weights,
        out: poisoned(dev, n)?,
        size,
    }))
}

impl Stencil {
    fn cfg(&self) -> LaunchConfig {
        let [nx, ny, nz] = self.dims;
        match self.which {
            Which::TwoD => grid_2d(nx, ny, 32, 8),
            Which::Filter => grid_2d(nx, ny, 16, 16),
            Which::ThreeD => {
                let mut c = grid_2d(nx, ny, 32, 4);
                c.grid.z = nz.div_ceil(4) as u32;
                c.block.z = 4;
                c
            }
        }
    }
    fn reference(&self, i: usize) -> f64 {
        let [nx, ny, nz] = self.dims;
        let at = |x: usize, y: usize, z: usize| self.inp[(z * ny + y) * nx + x] as f64;
        let (x, y, z) = (i % nx, (i / nx) % ny, i / (nx * ny));
        match self.which {
            Which::TwoD => {
                if x > 0 && y > 0 && x < nx - 1 && y < ny - 1 {
                    0.25 * (at(x - 1, y, 0) + at(x + 1, y, 0) + at(x, y - 1, 0) + at(x, y + 1, 0))
                } else {
                    at(x, y, 0)
                }
            }
            Which::ThreeD => {
                let interior = x > 0 && y > 0 && z > 0 && x < nx - 1 && y < ny - 1 && z < nz - 1;
                if interior {
                    C0 as f64 * at(x, y, z)
                        + C1 as f64
                            * (at(x - 1, y, z)
                                + at(x + 1, y, z)
                                + at(x, y - 1, z)
                                + at(x, y + 1, z)
                                + at(x, y, z - 1)
                                + at(x, y, z + 1))
                } else {
                    at(x, y, z)
                }
            }
            Which::Filter => {
                let mut s = 0.0;
                for dy in 0..5 {
                    for dx in 0..5 {
                        let gx = (x as i64 + dx - 2).clamp(0, nx as i64 - 1) as usize;
                        let gy = (y as i64 + dy - 2).clamp(0, ny as i64 - 1) as usize;
                        s += self.weights[(dy * 5 + dx) as usize] as f64 * at(gx, gy, 0);
                    }
                }
                s
            }
        }
    }
}

impl Instance for Stencil {
    fn label(&self) -> String {
        let [nx, ny, nz] = self.dims;
        match self.which {
            Which::TwoD => format!("stencil 2-D, 5-point ({nx}x{ny} f32)"),
            Which::ThreeD => format!("stencil 3-D, 7-point ({nx}x{ny}x{nz} f32)"),
            Which::Filter => format!("filter 5x5, shared tile ({nx}x{ny} f32)"),
        }
    }
    fn work(&self) -> Work {
        Work::Bytes(8.0 * self.dims.iter().product::<usize>() as f64)
    }
    fn run_ours(&mut self, s: &Stream) -> RtResult<()> {
        let cfg = self.cfg();
        let [nx, ny, nz] = self.dims.map(|d| d as i32);
        let (inp, out) = (&self.din, &mut self.out[0]);
        match self.which {
            Which::TwoD => stencil2d::launch(s, cfg, inp, out, nx, ny),
            Which::ThreeD => stencil3d::launch(s, cfg, inp, out, nx, ny, nz, C0, C1),
            Which::Filter => filter5x5::launch(s, cfg, inp, out, &self.dweights, nx, ny),
        }
    }
    fn run_twin(&mut self, s: &Stream, f: &[Function]) -> RtResult<()> {
        let [nx, ny, nz] = self.dims.map(|d| d as i32);
        let args = Args::new().buf(&self.din).buf(&self.out[1]);
        let args = match self.which {
            Which::TwoD => args.i32(nx).i32(ny),
            Which::ThreeD => args.i32(nx).i32(ny).i32(nz).f32(C0).f32(C1),
            Which::Filter => args.buf(&self.dweights).i32(nx).i32(ny),
        };
        args.launch(&f[0], s, self.cfg())
    }
    fn check(&self, side: Side) -> Result<(), String> {
        let got = down(&self.out[side.ix()])?;
        let idx = sample(got.len(), self.size);
        close("stencil", &got, &idx, |i| self.reference(i), 1e-5, 1e-5)
    }
}

pub const CASES: &[Case] = &[
    Case {
        name: "stencil2d",
        twin_file: "stencil",
        twin_entries: &["stencil2d"],
        setup: |d, s| setup(d, s, Which::TwoD),
    },
    Case {
        name: "stencil3d",
        twin_file: "stencil",
        twin_entries: &["stencil3d"],
        setup: |d, s| setup(d, s, Which::ThreeD),
    },
    Case {
        name: "filter5x5",
        twin_file: "stencil",
        twin_entries: &["filter5x5"],
        setup: |d, s| setup(d, s, Which::Filter),
    },
];
