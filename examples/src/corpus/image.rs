//! RGBA8 image kernels on `[u8; 4]` pixels (the twin's `uchar4`): a gain-and-bias adjustment
//! of the colour channels (alpha kept), and conversion to 8-bit grey.

use ferrocuda::host_runtime::Function;
use ferrocuda::prelude::*;

use super::harness::{down, grid_1d, sample, up, Args, Case, Instance, RtResult, Side, Size, Work};
use crate::util::Rng;

#[kernel]
pub fn rgba_adjust(src: &[[u8; 4]], dst: &mut [[u8; 4]], n: i32, gain: f32, bias: f32) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < n as usize {
        let p = src[i];
        let r = (p[0] as f32 * gain + bias).max(0.0).min(255.0) as u8;
        let g = (p[1] as f32 * gain + bias).max(0.0).min(255.0) as u8;
        let b = (p[2] as f32 * gain + bias).max(0.0).min(255.0) as u8;
        dst[i] = [r, g, b, p[3]];
    }
}

#[kernel]
pub fn rgba_to_gray(src: &[[u8; 4]], gray: &mut [u8], n: i32) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < n as usize {
        let p = src[i];
        let y = 0.299 * p[0] as f32 + 0.587 * p[1] as f32 + 0.114 * p[2] as f32;
        gray[i] = y as u8;
    }
}

const GAIN: f32 = 1.3;
const BIAS: f32 = -20.0;

struct Image {
    gray: bool,
    n: usize,
    px: Vec<[u8; 4]>,
    src: DeviceBuffer<[u8; 4]>,
    rgba: [DeviceBuffer<[u8; 4]>; 2],
    luma: [DeviceBuffer<u8>; 2],
    size: Size,
}

fn setup(dev: &Device, size: Size, gray: bool) -> Result<Box<dyn Instance>, String> {
    let n = size.pick(10_003, 1 << 26);
    let mut rng = Rng::new(1401 + gray as u64);
    let px: Vec<[u8; 4]> = (0..n).map(|_| rng.next_u32().to_le_bytes()).collect();
    let (pr, pg) = (vec![[7u8; 4]; if gray { 1 } else { n }], vec![7u8; n]);
    Ok(Box::new(Image {
        gray,
        n,
        src: up(dev, &px)?,
        px,
        rgba: [up(dev, &pr)?, up(dev, &pr)?],
        luma: [up(dev, &pg)?, up(dev, &pg)?],
        size,
    }))
}

/// Within one of the CPU's value: the device may fuse `x * gain + bias`.
fn near(got: u8, want: f32) -> bool {
    (got as f32 - want.trunc()).abs() <= 1.0
}

impl Instance for Image {
    fn label(&self) -> String {
        let name = if self.gray {
            "RGBA to grey"
        } else {
            "RGBA gain and bias"
        };
        format!("{name}, [u8; 4] pixels ({} pixels)", self.n)
    }
    fn work(&self) -> Work {
        Work::Bytes(if self.gray { 5.0 } else { 8.0 } * self.n as f64)
    }
    fn run_ours(&mut self, s: &Stream) -> RtResult<()> {
        let (cfg, n) = (grid_1d(self.n, 256), self.n as i32);
        if self.gray {
            rgba_to_gray::launch(s, cfg, &self.src, &mut self.luma[0], n)
        } else {
            rgba_adjust::launch(s, cfg, &self.src, &mut self.rgba[0], n, GAIN, BIAS)
        }
    }
    fn run_twin(&mut self, s: &Stream, f: &[Function]) -> RtResult<()> {
        let args = Args::new().buf(&self.src);
        let args = if self.gray {
            args.buf(&self.luma[1]).i32(self.n as i32)
        } else {
            args.buf(&self.rgba[1])
                .i32(self.n as i32)
                .f32(GAIN)
                .f32(BIAS)
        };
        args.launch(&f[0], s, grid_1d(self.n, 256))
    }
    fn check(&self, side: Side) -> Result<(), String> {
        let idx = sample(self.n, self.size);
        if self.gray {
            let got = down(&self.luma[side.ix()])?;
            for &i in &idx {
                let p = self.px[i].map(|c| c as f32);
                let y = 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
                if !near(got[i], y) {
                    return Err(format!("pixel {i}: grey {}, expected {y}", got[i]));
                }
            }
            return Ok(());
        }
        let got = down(&self.rgba[side.ix()])?;
        for &i in &idx {
            let (g, p) = (got[i], self.px[i]);
            let ok = (0..3).all(|c| near(g[c], (p[c] as f32 * GAIN + BIAS).clamp(0.0, 255.0)));
            if !ok || g[3] != p[3] {
                return Err(format!("pixel {i}: {g:?} from {p:?}"));
            }
        }
        Ok(())
    }
}

pub const CASES: &[Case] = &[
    Case {
        name: "rgba_adjust",
        twin_file: "image",
        twin_entries: &["rgba_adjust"],
        setup: |d, s| setup(d, s, false),
    },
    Case {
        name: "rgba_to_gray",
        twin_file: "image",
        twin_entries: &["rgba_to_gray"],
        setup: |d, s| setup(d, s, true),
    },
];
