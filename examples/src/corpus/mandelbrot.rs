//! Mandelbrot escape counts, one pixel per thread, a `while` loop up to `max_iter` in f32.

use ferrocuda::host_runtime::Function;
use ferrocuda::prelude::*;

use super::harness::{down, grid_2d, sample, up, Args, Case, Instance, RtResult, Side, Size, Work};

#[kernel]
#[allow(clippy::too_many_arguments)]
pub fn mandelbrot(
    out: &mut [i32],
    w: i32,
    h: i32,
    x0: f32,
    y0: f32,
    dx: f32,
    dy: f32,
    max_iter: i32,
) {
    let px = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let py = (block_idx().y * block_dim().y + thread_idx().y) as usize;
    if px < w as usize && py < h as usize {
        let cr = x0 + px as f32 * dx;
        let ci = y0 + py as f32 * dy;
        let mut zr = 0.0f32;
        let mut zi = 0.0f32;
        let mut it = 0;
        while it < max_iter && zr * zr + zi * zi < 4.0 {
            let t = zr * zr - zi * zi + cr;
            zi = 2.0 * zr * zi + ci;
            zr = t;
            it += 1;
        }
        out[py * w as usize + px] = it;
    }
}

const MAX_ITER: i32 = 256;

struct Mandelbrot {
    w: usize,
    h: usize,
    out: [DeviceBuffer<i32>; 2],
    size: Size,
}

fn setup(dev: &Device, size: Size) -> Result<Box<dyn Instance>, String> {
    let (w, h) = size.pick((90, 60), (4096, 4096));
    let poison = vec![-1i32; w * h];
    Ok(Box::new(Mandelbrot {
        w,
        h,
        out: [up(dev, &poison)?, up(dev, &poison)?],
        size,
    }))
}

impl Mandelbrot {
    fn view(&self) -> (f32, f32, f32, f32) {
        (-2.0, -1.25, 2.5 / self.w as f32, 2.5 / self.h as f32)
    }
}

impl Instance for Mandelbrot {
    fn label(&self) -> String {
        format!("Mandelbrot, {MAX_ITER} iterations ({}x{})", self.w, self.h)
    }
    fn work(&self) -> Work {
        Work::Time
    }
    fn run_ours(&mut self, s: &Stream) -> RtResult<()> {
        let (x0, y0, dx, dy) = self.view();
        let (w, h) = (self.w as i32, self.h as i32);
        let cfg = grid_2d(self.w, self.h, 32, 8);
        mandelbrot::launch(s, cfg, &mut self.out[0], w, h, x0, y0, dx, dy, MAX_ITER)
    }
    fn run_twin(&mut self, s: &Stream, f: &[Function]) -> RtResult<()> {
        let (x0, y0, dx, dy) = self.view();
        Args::new()
            .buf(&self.out[1])
            .i32(self.w as i32)
            .i32(self.h as i32)
            .f32(x0)
            .f32(y0)
            .f32(dx)
            .f32(dy)
            .i32(MAX_ITER)
            .launch(&f[0], s, grid_2d(self.w, self.h, 32, 8))
    }
    fn check(&self, side: Side) -> Result<(), String> {
        let got = down(&self.out[side.ix()])?;
        let (x0, y0, dx, dy) = self.view();
        // The escape count is chaotic near the set's boundary: a fused multiply-add there can
        // change it. Every pixel must be written, and at most 1% may differ from the CPU.
        let idx = sample(got.len(), self.size);
        let mut differ = 0;
        for &i in &idx {
            let (px, py) = (i % self.w, i / self.w);
            let (cr, ci) = (x0 + px as f32 * dx, y0 + py as f32 * dy);
            let (mut zr, mut zi, mut it) = (0.0f32, 0.0f32, 0);
            while it < MAX_ITER && zr * zr + zi * zi < 4.0 {
                let t = zr * zr - zi * zi + cr;
                zi = 2.0 * zr * zi + ci;
                zr = t;
                it += 1;
            }
            if got[i] < 0 {
                return Err(format!("pixel {i} not written"));
            }
            differ += (got[i] != it) as usize;
        }
        if differ * 100 > idx.len() {
            return Err(format!("{differ} of {} pixels differ", idx.len()));
        }
        Ok(())
    }
}

pub const CASES: &[Case] = &[Case {
    name: "mandelbrot",
    twin_file: "mandelbrot",
    twin_entries: &["mandelbrot"],
    setup,
}];
