//! Matrix transpose, naive (one element per thread, strided writes) and tiled (a 32x33 shared
//! tile, blocks of 32x8 threads each moving four rows), as in the CUDA transpose walkthroughs.
//! No `block_dim` attribute: the tiled kernel assumes the 32x8 block like its twin.

use ferrocuda::host_runtime::Function;
use ferrocuda::prelude::*;

use super::harness::{
    down, equal, grid_2d, poisoned, sample, up, Args, Case, Instance, RtResult, Side, Size, Work,
};
use crate::util::Rng;

const TILE: usize = 32;
const ROWS: usize = 8;

#[kernel]
pub fn transpose_naive(out: &mut [f32], inp: &[f32], w: i32, h: i32) {
    let x = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let y = (block_idx().y * block_dim().y + thread_idx().y) as usize;
    if x < w as usize && y < h as usize {
        out[x * h as usize + y] = inp[y * w as usize + x];
    }
}

#[kernel]
pub fn transpose_tiled(out: &mut [f32], inp: &[f32], w: i32, h: i32) {
    let tile = shared_array::<[[f32; 33]; 32]>();
    let w = w as usize;
    let h = h as usize;
    let tx = thread_idx().x as usize;
    let ty = thread_idx().y as usize;
    let x = block_idx().x as usize * TILE + tx;
    let y = block_idx().y as usize * TILE + ty;
    let mut j = 0;
    while j < TILE {
        if x < w && y + j < h {
            tile[ty + j][tx] = inp[(y + j) * w + x];
        }
        j += ROWS;
    }
    sync_threads();
    let x = block_idx().y as usize * TILE + tx;
    let y = block_idx().x as usize * TILE + ty;
    let mut j = 0;
    while j < TILE {
        if x < h && y + j < w {
            out[(y + j) * h + x] = tile[tx][ty + j];
        }
        j += ROWS;
    }
}

struct Transpose {
    tiled: bool,
    w: usize,
    h: usize,
    inp: Vec<f32>,
    din: DeviceBuffer<f32>,
    out: [DeviceBuffer<f32>; 2],
    size: Size,
}

fn setup(dev: &Device, size: Size, tiled: bool) -> Result<Box<dyn Instance>, String> {
    let (w, h) = size.pick((100, 70), (8192, 8192));
    let inp = Rng::new(201).vec_f32(w * h);
    Ok(Box::new(Transpose {
        tiled,
        w,
        h,
        din: up(dev, &inp)?,
        inp,
        out: poisoned(dev, w * h)?,
        size,
    }))
}

impl Transpose {
    fn cfg(&self) -> LaunchConfig {
        if self.tiled {
            let mut c = grid_2d(self.w, self.h, TILE as u32, ROWS as u32);
            c.grid.y = self.h.div_ceil(TILE) as u32;
            c
        } else {
            grid_2d(self.w, self.h, 32, 8)
        }
    }
}

impl Instance for Transpose {
    fn label(&self) -> String {
        let kind = if self.tiled { "tiled" } else { "naive" };
        format!("transpose, {kind} ({}x{} f32)", self.w, self.h)
    }
    fn work(&self) -> Work {
        Work::Bytes(8.0 * (self.w * self.h) as f64)
    }
    fn run_ours(&mut self, s: &Stream) -> RtResult<()> {
        let (cfg, w, h) = (self.cfg(), self.w as i32, self.h as i32);
        if self.tiled {
            transpose_tiled::launch(s, cfg, &mut self.out[0], &self.din, w, h)
        } else {
            transpose_naive::launch(s, cfg, &mut self.out[0], &self.din, w, h)
        }
    }
    fn run_twin(&mut self, s: &Stream, f: &[Function]) -> RtResult<()> {
        Args::new()
            .buf(&self.out[1])
            .buf(&self.din)
            .i32(self.w as i32)
            .i32(self.h as i32)
            .launch(&f[0], s, self.cfg())
    }
    fn check(&self, side: Side) -> Result<(), String> {
        let got = down(&self.out[side.ix()])?;
        let (w, h) = (self.w, self.h);
        // out[x * h + y] = inp[y * w + x]
        equal("transpose", &got, &sample(w * h, self.size), |i| {
            self.inp[(i % h) * w + i / h]
        })
    }
}

pub const CASES: &[Case] = &[
    Case {
        name: "transpose_naive",
        twin_file: "transpose",
        twin_entries: &["transpose_naive"],
        setup: |d, s| setup(d, s, false),
    },
    Case {
        name: "transpose_tiled",
        twin_file: "transpose",
        twin_entries: &["transpose_tiled"],
        setup: |d, s| setup(d, s, true),
    },
];
