//! Bitonic sort, one compare-and-swap step per launch (`j` the partner distance, `k` the size
//! of the sequences being merged), in place in global memory, one element per thread. A full
//! sort of `n = 2^p` elements is `p (p + 1) / 2` launches; the timed row is one middle step,
//! its sequence size alternating between `k` and `2k` from run to run so that repeated runs keep
//! swapping (a step applied twice swaps nothing the second time).

use ferrocuda::host_runtime::Function;
use ferrocuda::prelude::*;

use super::harness::{down, equal, grid_1d, up, Args, Case, Instance, RtResult, Side, Size, Work};
use crate::util::Rng;

#[kernel]
pub fn bitonic_step(data: &mut [f32], j: i32, k: i32) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let ixj = i ^ j as usize;
    if ixj > i {
        let a = data[i];
        let b = data[ixj];
        if i & k as usize == 0 {
            if a > b {
                data[i] = b;
                data[ixj] = a;
            }
        } else if a < b {
            data[i] = b;
            data[ixj] = a;
        }
    }
}

const BLOCK: u32 = 256;

/// The step on the CPU.
pub fn reference_step(d: &mut [f32], j: usize, k: usize) {
    for i in 0..d.len() {
        let ixj = i ^ j;
        if ixj > i {
            let (a, b) = (d[i], d[ixj]);
            if (i & k == 0 && a > b) || (i & k != 0 && a < b) {
                d.swap(i, ixj);
            }
        }
    }
}

/// Sorts `n` (a power of two) random floats on `dev` with every step, and checks the order.
pub fn check_full_sort(dev: &Device, n: usize) -> Result<(), String> {
    let mut x = Rng::new(1002).vec_f32(n);
    let s = dev.new_stream().map_err(|e| e.to_string())?;
    let mut d = up(dev, &x)?;
    let mut k = 2;
    while k <= n {
        let mut j = k / 2;
        while j > 0 {
            bitonic_step::launch(&s, grid_1d(n, BLOCK), &mut d, j as i32, k as i32)
                .map_err(|e| e.to_string())?;
            j /= 2;
        }
        k *= 2;
    }
    let got = down(&d)?;
    x.sort_by(f32::total_cmp);
    equal("bitonic sort", &got, &(0..n).collect::<Vec<_>>(), |i| x[i])
}

struct Bitonic {
    n: usize,
    j: usize,
    k: usize,
    want: Vec<f32>,
    data: [DeviceBuffer<f32>; 2],
    runs: [usize; 2],
}

fn setup(dev: &Device, size: Size) -> Result<Box<dyn Instance>, String> {
    let (n, k, j) = size.pick((1 << 12, 1 << 8, 1 << 3), (1 << 24, 1 << 20, 1 << 9));
    let x = Rng::new(1001).vec_f32(n);
    let mut want = x.clone();
    reference_step(&mut want, j, k);
    Ok(Box::new(Bitonic {
        n,
        j,
        k,
        want,
        data: [up(dev, &x)?, up(dev, &x)?],
        runs: [0, 0],
    }))
}

impl Bitonic {
    /// The step's `k` for this side's next run (the first run, which is checked, uses `k`).
    fn next_k(&mut self, side: Side) -> i32 {
        let r = &mut self.runs[side.ix()];
        *r += 1;
        (if *r % 2 == 1 { self.k } else { 2 * self.k }) as i32
    }
}

impl Instance for Bitonic {
    fn label(&self) -> String {
        format!(
            "bitonic sort step (j={}, k={}, {} f32)",
            self.j, self.k, self.n
        )
    }
    fn work(&self) -> Work {
        Work::Bytes(8.0 * self.n as f64)
    }
    fn run_ours(&mut self, s: &Stream) -> RtResult<()> {
        let (cfg, k) = (grid_1d(self.n, BLOCK), self.next_k(Side::Ours));
        bitonic_step::launch(s, cfg, &mut self.data[0], self.j as i32, k)
    }
    fn run_twin(&mut self, s: &Stream, f: &[Function]) -> RtResult<()> {
        let k = self.next_k(Side::Twin);
        Args::new()
            .buf(&self.data[1])
            .i32(self.j as i32)
            .i32(k)
            .launch(&f[0], s, grid_1d(self.n, BLOCK))
    }
    fn check(&self, side: Side) -> Result<(), String> {
        let got = down(&self.data[side.ix()])?;
        // The step is cheap on the CPU: compare every element.
        equal(
            "bitonic step",
            &got,
            &(0..self.n).collect::<Vec<_>>(),
            |i| self.want[i],
        )
    }
}

pub const CASES: &[Case] = &[Case {
    name: "bitonic_step",
    twin_file: "sort",
    twin_entries: &["bitonic_step"],
    setup,
}];
