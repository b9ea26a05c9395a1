//! Prefix sums: `scan_block` (a Hillis-Steele inclusive scan of each 256-element block in a
//! double-buffered shared array, block totals written out), the device-wide scan built from it
//! (scan the blocks, scan their totals recursively, add each block's offset), and stream
//! compaction on top (flag, scan the flags, scatter the kept elements to their ranks).

use ferrocuda::host_runtime::Function;
use ferrocuda::prelude::*;

use super::harness::{
    down, equal, grid_1d, poisoned, sample, up, Args, Case, Instance, RtResult, Side, Size, Work,
};
use crate::util::Rng;

const SB: usize = 256;

#[kernel]
pub fn scan_block(input: &[u32], out: &mut [u32], sums: &mut [u32], n: i32) {
    let temp = shared_array::<[[u32; 256]; 2]>();
    let t = thread_idx().x as usize;
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let n = n as usize;
    temp[0][t] = if i < n { input[i] } else { 0 };
    sync_threads();
    let mut pout = 0;
    let mut offset = 1;
    while offset < SB {
        pout = 1 - pout;
        let pin = 1 - pout;
        if t >= offset {
            temp[pout][t] = temp[pin][t] + temp[pin][t - offset];
        } else {
            temp[pout][t] = temp[pin][t];
        }
        sync_threads();
        offset *= 2;
    }
    if i < n {
        out[i] = temp[pout][t];
    }
    if t == SB - 1 {
        sums[block_idx().x as usize] = temp[pout][t];
    }
}

/// Adds the inclusive total of the blocks before this one to each element.
#[kernel]
pub fn add_offsets(data: &mut [u32], scanned_sums: &[u32], n: i32) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let b = block_idx().x as usize;
    if b > 0 && i < n as usize {
        data[i] += scanned_sums[b - 1];
    }
}

#[kernel]
pub fn compact_flags(x: &[f32], flags: &mut [u32], n: i32) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < n as usize {
        flags[i] = if x[i] > 0.0 { 1 } else { 0 };
    }
}

/// `ranks` is the inclusive scan of the flags: a kept element goes to `ranks[i] - 1`.
#[kernel]
pub fn compact_scatter(x: &[f32], ranks: &[u32], out: &mut [f32], n: i32) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < n as usize {
        let v = x[i];
        if v > 0.0 {
            out[(ranks[i] - 1) as usize] = v;
        }
    }
}

/// Who launches: our typed launchers or the twin's entries (in `Case::twin_entries` order:
/// `scan_block`, `add_offsets`, then for compaction `compact_flags`, `compact_scatter`).
#[derive(Clone, Copy)]
enum By<'a> {
    Ours,
    Twin(&'a [Function]),
}

fn cfg(n: usize) -> LaunchConfig {
    grid_1d(n, SB as u32)
}

impl By<'_> {
    fn scan_block(
        self,
        s: &Stream,
        input: &DeviceBuffer<u32>,
        out: &mut DeviceBuffer<u32>,
        sums: &mut DeviceBuffer<u32>,
        n: usize,
    ) -> RtResult<()> {
        match self {
            By::Ours => scan_block::launch(s, cfg(n), input, out, sums, n as i32),
            By::Twin(f) => Args::new()
                .buf(input)
                .buf(out)
                .buf(sums)
                .i32(n as i32)
                .launch(&f[0], s, cfg(n)),
        }
    }
    fn add_offsets(
        self,
        s: &Stream,
        data: &mut DeviceBuffer<u32>,
        sums: &DeviceBuffer<u32>,
        n: usize,
    ) -> RtResult<()> {
        match self {
            By::Ours => add_offsets::launch(s, cfg(n), data, sums, n as i32),
            By::Twin(f) => Args::new()
                .buf(data)
                .buf(sums)
                .i32(n as i32)
                .launch(&f[1], s, cfg(n)),
        }
    }
}

/// One level of the device scan: the scanned values of its input and its block totals (the
/// next level's input).
struct Level {
    count: usize,
    out: DeviceBuffer<u32>,
    sums: DeviceBuffer<u32>,
}

/// The buffers of a device-wide scan of `n` elements: level 0 scans the input, level k+1 the
/// block totals of level k, until one block holds them all.
fn levels(dev: &Device, n: usize) -> Result<Vec<Level>, String> {
    let mut v = Vec::new();
    let mut count = n;
    loop {
        let blocks = count.div_ceil(SB);
        v.push(Level {
            count,
            out: up(dev, &vec![u32::MAX; count])?,
            sums: up(dev, &vec![u32::MAX; blocks])?,
        });
        if blocks == 1 {
            return Ok(v);
        }
        count = blocks;
    }
}

/// Inclusive scan of `input` into `levels[0].out`.
fn scan_device(
    by: By,
    s: &Stream,
    input: &DeviceBuffer<u32>,
    levels: &mut [Level],
) -> RtResult<()> {
    for k in 0..levels.len() {
        let (prev, rest) = levels.split_at_mut(k);
        let l = &mut rest[0];
        let inp = if k == 0 { input } else { &prev[k - 1].sums };
        by.scan_block(s, inp, &mut l.out, &mut l.sums, l.count)?;
    }
    for k in (0..levels.len() - 1).rev() {
        let (lo, hi) = levels.split_at_mut(k + 1);
        let l = &mut lo[k];
        by.add_offsets(s, &mut l.out, &hi[0].out, l.count)?;
    }
    Ok(())
}

fn inclusive_scan(x: &[u32]) -> Vec<u32> {
    x.iter()
        .scan(0u32, |acc, &v| {
            *acc = acc.wrapping_add(v);
            Some(*acc)
        })
        .collect()
}

#[derive(Clone, Copy, PartialEq)]
enum Which {
    Block,
    Device,
}

struct Scan {
    which: Which,
    n: usize,
    x: Vec<u32>,
    dx: DeviceBuffer<u32>,
    sides: [Vec<Level>; 2],
    size: Size,
}

fn setup_scan(dev: &Device, size: Size, which: Which) -> Result<Box<dyn Instance>, String> {
    let n = size.pick(70_001, 1 << 24);
    let mut rng = Rng::new(501);
    // Small values so the total stays far from wrapping.
    let x: Vec<u32> = (0..n).map(|_| rng.next_u32() % 100).collect();
    let mk = || -> Result<Vec<Level>, String> {
        let mut l = levels(dev, n)?;
        if which == Which::Block {
            l.truncate(1);
        }
        Ok(l)
    };
    Ok(Box::new(Scan {
        which,
        n,
        dx: up(dev, &x)?,
        x,
        sides: [mk()?, mk()?],
        size,
    }))
}

impl Scan {
    fn run(&mut self, by: By, s: &Stream, side: Side) -> RtResult<()> {
        let levels = &mut self.sides[side.ix()];
        match self.which {
            Which::Device => scan_device(by, s, &self.dx, levels),
            Which::Block => {
                let l = &mut levels[0];
                by.scan_block(s, &self.dx, &mut l.out, &mut l.sums, self.n)
            }
        }
    }
}

impl Instance for Scan {
    fn label(&self) -> String {
        match self.which {
            Which::Block => format!("scan, per 256-element block ({} u32)", self.n),
            Which::Device => format!(
                "scan, device-wide: {} launches ({} u32)",
                2 * self.sides[0].len() - 1,
                self.n
            ),
        }
    }
    fn work(&self) -> Work {
        Work::Bytes(8.0 * self.n as f64)
    }
    fn run_ours(&mut self, s: &Stream) -> RtResult<()> {
        self.run(By::Ours, s, Side::Ours)
    }
    fn run_twin(&mut self, s: &Stream, f: &[Function]) -> RtResult<()> {
        self.run(By::Twin(f), s, Side::Twin)
    }
    fn check(&self, side: Side) -> Result<(), String> {
        let l = &self.sides[side.ix()][0];
        let got = down(&l.out)?;
        let idx = sample(self.n, self.size);
        match self.which {
            Which::Device => {
                let want = inclusive_scan(&self.x);
                equal("scan", &got, &idx, |i| want[i])
            }
            Which::Block => {
                let want: Vec<u32> = self.x.chunks(SB).flat_map(inclusive_scan).collect();
                equal("block scan", &got, &idx, |i| want[i])?;
                let sums = down(&l.sums)?;
                let want: Vec<u32> = self.x.chunks(SB).map(|c| c.iter().sum::<u32>()).collect();
                equal("block totals", &sums, &sample(sums.len(), self.size), |i| {
                    want[i]
                })
            }
        }
    }
}

struct Compact {
    n: usize,
    x: Vec<f32>,
    dx: DeviceBuffer<f32>,
    flags: [DeviceBuffer<u32>; 2],
    levels: [Vec<Level>; 2],
    out: [DeviceBuffer<f32>; 2],
    size: Size,
}

fn setup_compact(dev: &Device, size: Size) -> Result<Box<dyn Instance>, String> {
    let n = size.pick(70_001, 1 << 24);
    let x = Rng::new(502).vec_f32(n);
    let flags = || up(dev, &vec![u32::MAX; n]);
    Ok(Box::new(Compact {
        n,
        dx: up(dev, &x)?,
        x,
        flags: [flags()?, flags()?],
        levels: [levels(dev, n)?, levels(dev, n)?],
        out: poisoned(dev, n)?,
        size,
    }))
}

impl Compact {
    fn run(&mut self, by: By, s: &Stream, side: Side) -> RtResult<()> {
        let k = side.ix();
        let (flags, out, n) = (&mut self.flags[k], &mut self.out[k], self.n);
        match by {
            By::Ours => compact_flags::launch(s, cfg(n), &self.dx, flags, n as i32)?,
            By::Twin(f) => {
                Args::new()
                    .buf(&self.dx)
                    .buf(flags)
                    .i32(n as i32)
                    .launch(&f[2], s, cfg(n))?
            }
        }
        scan_device(by, s, flags, &mut self.levels[k])?;
        let ranks = &self.levels[k][0].out;
        match by {
            By::Ours => compact_scatter::launch(s, cfg(n), &self.dx, ranks, out, n as i32),
            By::Twin(f) => Args::new()
                .buf(&self.dx)
                .buf(ranks)
                .buf(out)
                .i32(n as i32)
                .launch(&f[3], s, cfg(n)),
        }
    }
}

impl Instance for Compact {
    fn label(&self) -> String {
        format!(
            "stream compaction: flags, {}-launch scan, scatter ({} f32)",
            2 * self.levels[0].len() - 1,
            self.n
        )
    }
    fn work(&self) -> Work {
        // Read the input, write the kept half.
        Work::Bytes(6.0 * self.n as f64)
    }
    fn run_ours(&mut self, s: &Stream) -> RtResult<()> {
        self.run(By::Ours, s, Side::Ours)
    }
    fn run_twin(&mut self, s: &Stream, f: &[Function]) -> RtResult<()> {
        self.run(By::Twin(f), s, Side::Twin)
    }
    fn check(&self, side: Side) -> Result<(), String> {
        let got = down(&self.out[side.ix()])?;
        let kept: Vec<f32> = self.x.iter().copied().filter(|&v| v > 0.0).collect();
        let idx: Vec<usize> = sample(self.n, self.size);
        for &i in &idx {
            let ok = match kept.get(i) {
                Some(&w) => got[i] == w,
                None => got[i].is_nan(),
            };
            if !ok {
                return Err(format!(
                    "compaction: element {i} is {}, expected {:?} ({} kept)",
                    got[i],
                    kept.get(i),
                    kept.len()
                ));
            }
        }
        Ok(())
    }
}

pub const CASES: &[Case] = &[
    Case {
        name: "scan_block",
        twin_file: "scan",
        twin_entries: &["scan_block", "add_offsets"],
        setup: |d, s| setup_scan(d, s, Which::Block),
    },
    Case {
        name: "scan_device",
        twin_file: "scan",
        twin_entries: &["scan_block", "add_offsets"],
        setup: |d, s| setup_scan(d, s, Which::Device),
    },
    Case {
        name: "compact",
        twin_file: "scan",
        twin_entries: &[
            "scan_block",
            "add_offsets",
            "compact_flags",
            "compact_scatter",
        ],
        setup: setup_compact,
    },
];
