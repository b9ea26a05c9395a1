//! 256-bin byte histogram over `uint4` loads: each block counts into a shared sub-histogram with
//! shared-memory atomics over a grid-stride loop, then adds it to the global one. Each 16-byte
//! load is split into its four words with a four-trip loop over a local array, as the twin does.

use ferrocuda::host_runtime::Function;
use ferrocuda::prelude::*;

use super::harness::{down, equal, grid_1d, up, Args, Case, Instance, RtResult, Side, Size, Work};
use crate::util::Rng;

#[kernel]
pub fn histogram_uint4(data: &[uint4], hist: &mut [u32], n4: i32) {
    let sub = shared_array::<[u32; 256]>();
    let t = thread_idx().x as usize;
    sub[t] = 0;
    sync_threads();
    let stride = (block_dim().x * grid_dim().x) as usize;
    let mut i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    while i < n4 as usize {
        let v = data[i];
        let words = [v.x, v.y, v.z, v.w];
        for k in 0..4 {
            let w = words[k];
            atomic_add(&mut sub[(w & 0xff) as usize], 1);
            atomic_add(&mut sub[((w >> 8) & 0xff) as usize], 1);
            atomic_add(&mut sub[((w >> 16) & 0xff) as usize], 1);
            atomic_add(&mut sub[(w >> 24) as usize], 1);
        }
        i += stride;
    }
    sync_threads();
    if sub[t] > 0 {
        atomic_add(&mut hist[t], sub[t]);
    }
}

const BLOCK: u32 = 256;

struct Histogram {
    n4: usize,
    blocks: usize,
    want: Vec<u32>,
    data: DeviceBuffer<uint4>,
    hist: [DeviceBuffer<u32>; 2],
}

fn setup(dev: &Device, size: Size) -> Result<Box<dyn Instance>, String> {
    let n4 = size.pick(3001, 1 << 24);
    let mut rng = Rng::new(601);
    // A quarter of the words skewed to a few byte values, so bins collide often.
    let mut word = |k: usize| {
        let r = rng.next_u32();
        if k.is_multiple_of(4) {
            r & 0x0707_0707
        } else {
            r
        }
    };
    let data: Vec<uint4> = (0..n4)
        .map(|k| {
            uint4::new(
                word(4 * k),
                word(4 * k + 1),
                word(4 * k + 2),
                word(4 * k + 3),
            )
        })
        .collect();
    let mut want = vec![0u32; 256];
    for v in &data {
        for w in [v.x, v.y, v.z, v.w] {
            for b in w.to_le_bytes() {
                want[b as usize] += 1;
            }
        }
    }
    let blocks = match size {
        Size::Sim => 3,
        Size::Bench => dev.properties().multiprocessor_count.max(1) as usize * 8,
    };
    let zero = vec![0u32; 256];
    Ok(Box::new(Histogram {
        n4,
        blocks,
        want,
        data: up(dev, &data)?,
        hist: [up(dev, &zero)?, up(dev, &zero)?],
    }))
}

impl Instance for Histogram {
    fn label(&self) -> String {
        format!("histogram, 256 bins, uint4 loads ({} MiB)", self.n4 >> 16)
    }
    fn work(&self) -> Work {
        Work::Bytes(16.0 * self.n4 as f64)
    }
    fn run_ours(&mut self, s: &Stream) -> RtResult<()> {
        let cfg = grid_1d(self.blocks * BLOCK as usize, BLOCK);
        histogram_uint4::launch(s, cfg, &self.data, &mut self.hist[0], self.n4 as i32)
    }
    fn run_twin(&mut self, s: &Stream, f: &[Function]) -> RtResult<()> {
        let cfg = grid_1d(self.blocks * BLOCK as usize, BLOCK);
        Args::new()
            .buf(&self.data)
            .buf(&self.hist[1])
            .i32(self.n4 as i32)
            .launch(&f[0], s, cfg)
    }
    fn check(&self, side: Side) -> Result<(), String> {
        let got = down(&self.hist[side.ix()])?;
        let idx: Vec<usize> = (0..256).collect();
        equal("histogram", &got, &idx, |i| self.want[i])
    }
}

pub const CASES: &[Case] = &[Case {
    name: "histogram",
    twin_file: "histogram",
    twin_entries: &["histogram_uint4"],
    setup,
}];
