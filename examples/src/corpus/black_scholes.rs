//! Black-Scholes European option prices (the CUDA sample's formula): the polynomial
//! approximation of the normal CDF, `exp`, `ln`, `sqrt` in f32, one option per thread.

use ferrocuda::host_runtime::Function;
use ferrocuda::prelude::*;

use super::harness::{
    close, down, grid_1d, poisoned, sample, uniform, up, Args, Case, Instance, RtResult, Side,
    Size, Work,
};
use crate::util::Rng;

const A1: f32 = 0.319_381_53;
const A2: f32 = -0.356_563_78;
const A3: f32 = 1.781_477_9;
const A4: f32 = -1.821_256;
const A5: f32 = 1.330_274_5;
const RSQRT2PI: f32 = 0.398_942_3;

#[device]
fn cnd(d: f32) -> f32 {
    let k = 1.0 / (1.0 + 0.231_641_9 * d.abs());
    let c = RSQRT2PI * (-0.5 * d * d).exp() * (k * (A1 + k * (A2 + k * (A3 + k * (A4 + k * A5)))));
    if d > 0.0 {
        1.0 - c
    } else {
        c
    }
}

#[kernel]
#[allow(clippy::too_many_arguments)]
pub fn black_scholes(
    call: &mut [f32],
    put: &mut [f32],
    price: &[f32],
    strike: &[f32],
    years: &[f32],
    r: f32,
    v: f32,
    n: i32,
) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < n as usize {
        let s = price[i];
        let x = strike[i];
        let t = years[i];
        let sqrt_t = t.sqrt();
        let d1 = ((s / x).ln() + (r + 0.5 * v * v) * t) / (v * sqrt_t);
        let d2 = d1 - v * sqrt_t;
        let cnd1 = cnd(d1);
        let cnd2 = cnd(d2);
        let exp_rt = (-r * t).exp();
        call[i] = s * cnd1 - x * exp_rt * cnd2;
        put[i] = x * exp_rt * (1.0 - cnd2) - s * (1.0 - cnd1);
    }
}

const RATE: f32 = 0.02;
const VOL: f32 = 0.30;

fn cnd64(d: f64) -> f64 {
    let k = 1.0 / (1.0 + 0.2316419 * d.abs());
    let p = k * (A1 as f64 + k * (A2 as f64 + k * (A3 as f64 + k * (A4 as f64 + k * A5 as f64))));
    let c = RSQRT2PI as f64 * (-0.5 * d * d).exp() * p;
    if d > 0.0 {
        1.0 - c
    } else {
        c
    }
}

struct BlackScholes {
    n: usize,
    inputs: [Vec<f32>; 3],
    d: [DeviceBuffer<f32>; 3],
    call: [DeviceBuffer<f32>; 2],
    put: [DeviceBuffer<f32>; 2],
    size: Size,
}

fn setup(dev: &Device, size: Size) -> Result<Box<dyn Instance>, String> {
    let n = size.pick(5000, 1 << 25);
    let mut rng = Rng::new(1301);
    let inputs = [
        uniform(&mut rng, n, 5.0, 30.0),
        uniform(&mut rng, n, 1.0, 100.0),
        uniform(&mut rng, n, 0.25, 10.0),
    ];
    Ok(Box::new(BlackScholes {
        n,
        d: [
            up(dev, &inputs[0])?,
            up(dev, &inputs[1])?,
            up(dev, &inputs[2])?,
        ],
        inputs,
        call: poisoned(dev, n)?,
        put: poisoned(dev, n)?,
        size,
    }))
}

impl Instance for BlackScholes {
    fn label(&self) -> String {
        format!("Black-Scholes ({} options)", self.n)
    }
    fn work(&self) -> Work {
        Work::Bytes(20.0 * self.n as f64)
    }
    fn run_ours(&mut self, s: &Stream) -> RtResult<()> {
        let [p, k, t] = &self.d;
        let (c, q) = (&mut self.call[0], &mut self.put[0]);
        let cfg = grid_1d(self.n, 256);
        black_scholes::launch(s, cfg, c, q, p, k, t, RATE, VOL, self.n as i32)
    }
    fn run_twin(&mut self, s: &Stream, f: &[Function]) -> RtResult<()> {
        Args::new()
            .buf(&self.call[1])
            .buf(&self.put[1])
            .buf(&self.d[0])
            .buf(&self.d[1])
            .buf(&self.d[2])
            .f32(RATE)
            .f32(VOL)
            .i32(self.n as i32)
            .launch(&f[0], s, grid_1d(self.n, 256))
    }
    fn check(&self, side: Side) -> Result<(), String> {
        let call = down(&self.call[side.ix()])?;
        let put = down(&self.put[side.ix()])?;
        let price = |i: usize| {
            let [s, x, t] = [0, 1, 2].map(|k| self.inputs[k][i] as f64);
            let (r, v) = (RATE as f64, VOL as f64);
            let d1 = ((s / x).ln() + (r + 0.5 * v * v) * t) / (v * t.sqrt());
            let d2 = d1 - v * t.sqrt();
            let e = (-r * t).exp();
            (
                s * cnd64(d1) - x * e * cnd64(d2),
                x * e * (1.0 - cnd64(d2)) - s * (1.0 - cnd64(d1)),
            )
        };
        let idx = sample(self.n, self.size);
        close("call", &call, &idx, |i| price(i).0, 1e-4, 2e-3)?;
        close("put", &put, &idx, |i| price(i).1, 1e-4, 2e-3)
    }
}

pub const CASES: &[Case] = &[Case {
    name: "black_scholes",
    twin_file: "black_scholes",
    twin_entries: &["black_scholes"],
    setup,
}];
