//! All-pairs n-body accelerations (GPU Gems 3, ch. 31): positions and masses as `float4`
//! (x, y, z, mass), tiles of 256 bodies staged through shared memory, softened inverse cube
//! distance with `rsqrt`. `n` a multiple of 256.

use ferrocuda::host_runtime::Function;
use ferrocuda::prelude::*;

use super::harness::{
    close, down, grid_1d, sample, up, Args, Case, Instance, RtResult, Side, Size, Work,
};
use crate::util::Rng;

#[kernel]
pub fn nbody_forces(pos: &[float4], acc: &mut [float4], n: i32, eps2: f32) {
    let sh = shared_array::<[float4; 256]>();
    let t = thread_idx().x as usize;
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let n = n as usize;
    let me = pos[i];
    let mut ax = 0.0f32;
    let mut ay = 0.0f32;
    let mut az = 0.0f32;
    let mut tile = 0;
    while tile < n {
        sh[t] = pos[tile + t];
        sync_threads();
        for j in 0..256 {
            let p = sh[j];
            let dx = p.x - me.x;
            let dy = p.y - me.y;
            let dz = p.z - me.z;
            let d2 = dx * dx + dy * dy + dz * dz + eps2;
            let inv = rsqrt(d2);
            let s = p.w * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        sync_threads();
        tile += 256;
    }
    acc[i] = make_float4(ax, ay, az, 0.0);
}

const BLOCK: u32 = 256;
const EPS2: f32 = 0.01;

struct Nbody {
    n: usize,
    pos: Vec<float4>,
    dpos: DeviceBuffer<float4>,
    acc: [DeviceBuffer<float4>; 2],
    size: Size,
}

fn setup(dev: &Device, size: Size) -> Result<Box<dyn Instance>, String> {
    let n = size.pick(512, 1 << 16);
    let mut rng = Rng::new(1201);
    let pos: Vec<float4> = (0..n)
        .map(|_| {
            let (x, y, z) = (rng.f32(), rng.f32(), rng.f32());
            float4::new(x, y, z, 0.5 + 0.5 * rng.f32().abs())
        })
        .collect();
    let nan = vec![float4::new(f32::NAN, f32::NAN, f32::NAN, f32::NAN); n];
    Ok(Box::new(Nbody {
        n,
        dpos: up(dev, &pos)?,
        pos,
        acc: [up(dev, &nan)?, up(dev, &nan)?],
        size,
    }))
}

impl Instance for Nbody {
    fn label(&self) -> String {
        format!("n-body, shared tiles of 256 ({} bodies)", self.n)
    }
    fn work(&self) -> Work {
        // 20 flops per interaction, the usual count.
        Work::Flops(20.0 * (self.n as f64).powi(2))
    }
    fn run_ours(&mut self, s: &Stream) -> RtResult<()> {
        let cfg = grid_1d(self.n, BLOCK);
        nbody_forces::launch(s, cfg, &self.dpos, &mut self.acc[0], self.n as i32, EPS2)
    }
    fn run_twin(&mut self, s: &Stream, f: &[Function]) -> RtResult<()> {
        Args::new()
            .buf(&self.dpos)
            .buf(&self.acc[1])
            .i32(self.n as i32)
            .f32(EPS2)
            .launch(&f[0], s, grid_1d(self.n, BLOCK))
    }
    fn check(&self, side: Side) -> Result<(), String> {
        let got = down(&self.acc[side.ix()])?;
        // Bodies to check: all of them on the simulator, 128 spread ones at the timed size.
        let idx: Vec<usize> = match self.size {
            Size::Sim => sample(self.n, self.size),
            Size::Bench => (0..128).map(|k| k * (self.n / 128) + k % 7).collect(),
        };
        let accel = |i: usize| {
            let me = self.pos[i];
            let mut a = [0.0f64; 3];
            for p in &self.pos {
                let d = [
                    (p.x - me.x) as f64,
                    (p.y - me.y) as f64,
                    (p.z - me.z) as f64,
                ];
                let d2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + EPS2 as f64;
                let s = p.w as f64 / (d2 * d2.sqrt());
                for k in 0..3 {
                    a[k] += d[k] * s;
                }
            }
            a
        };
        let mut flat = Vec::with_capacity(3 * idx.len());
        let mut want = Vec::with_capacity(3 * idx.len());
        for &i in &idx {
            let (g, a) = (got[i], accel(i));
            if g.w != 0.0 {
                return Err(format!("body {i}: w = {}, expected 0", g.w));
            }
            flat.extend([g.x, g.y, g.z]);
            want.extend(a);
        }
        // rsqrt is approximate (2 ulp); sums of 2^16 terms of magnitude up to ~100.
        let all: Vec<usize> = (0..flat.len()).collect();
        let scale = want.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        close("n-body", &flat, &all, |k| want[k], 1e-4, 1e-4 * scale)
    }
}

pub const CASES: &[Case] = &[Case {
    name: "nbody",
    twin_file: "nbody",
    twin_entries: &["nbody_forces"],
    setup,
}];
