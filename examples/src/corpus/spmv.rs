//! Sparse matrix-vector product y = A x, A in CSR (`row_ptr`, `cols`, `vals` with `i32`
//! indices): the scalar kernel (one thread per row) and the vector kernel (one warp per row,
//! lanes striding over the row, a shuffle reduction).

use ferrocuda::host_runtime::Function;
use ferrocuda::prelude::*;

use super::harness::{
    close, down, grid_1d, poisoned, sample, up, Args, Case, Instance, RtResult, Side, Size, Work,
};
use crate::util::Rng;

#[kernel]
pub fn spmv_csr_scalar(
    row_ptr: &[i32],
    cols: &[i32],
    vals: &[f32],
    x: &[f32],
    y: &mut [f32],
    rows: i32,
) {
    let r = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if r < rows as usize {
        let mut sum = 0.0f32;
        let mut j = row_ptr[r] as usize;
        let end = row_ptr[r + 1] as usize;
        while j < end {
            sum += vals[j] * x[cols[j] as usize];
            j += 1;
        }
        y[r] = sum;
    }
}

#[kernel]
pub fn spmv_csr_vector(
    row_ptr: &[i32],
    cols: &[i32],
    vals: &[f32],
    x: &[f32],
    y: &mut [f32],
    rows: i32,
) {
    let tid = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    let r = tid / 32;
    let lane = tid % 32;
    if r < rows as usize {
        let mut sum = 0.0f32;
        let mut j = row_ptr[r] as usize + lane;
        let end = row_ptr[r + 1] as usize;
        while j < end {
            sum += vals[j] * x[cols[j] as usize];
            j += 32;
        }
        let mut offset = 16;
        while offset > 0 {
            sum += shfl_down_sync(0xffff_ffff, sum, offset, 32);
            offset /= 2;
        }
        if lane == 0 {
            y[r] = sum;
        }
    }
}

const BLOCK: u32 = 256;

struct Spmv {
    vector: bool,
    rows: usize,
    ncols: usize,
    row_ptr: Vec<i32>,
    cols: Vec<i32>,
    vals: Vec<f32>,
    x: Vec<f32>,
    d: [DeviceBuffer<i32>; 2],
    dvals: DeviceBuffer<f32>,
    dx: DeviceBuffer<f32>,
    y: [DeviceBuffer<f32>; 2],
    size: Size,
}

fn setup(dev: &Device, size: Size, vector: bool) -> Result<Box<dyn Instance>, String> {
    let (rows, ncols, lo, hi) = size.pick((500, 700, 0, 40), (1 << 20, 1 << 20, 16, 48));
    let mut rng = Rng::new(1101 + vector as u64);
    let mut row_ptr = vec![0i32];
    let mut cols = Vec::new();
    for _ in 0..rows {
        let len = lo + (rng.next_u32() as usize % (hi - lo + 1));
        let mut c: Vec<i32> = (0..len)
            .map(|_| (rng.next_u32() as usize % ncols) as i32)
            .collect();
        c.sort_unstable();
        cols.extend(c);
        row_ptr.push(cols.len() as i32);
    }
    let vals = rng.vec_f32(cols.len());
    let x = rng.vec_f32(ncols);
    Ok(Box::new(Spmv {
        vector,
        rows,
        ncols,
        d: [up(dev, &row_ptr)?, up(dev, &cols)?],
        dvals: up(dev, &vals)?,
        dx: up(dev, &x)?,
        row_ptr,
        cols,
        vals,
        x,
        y: poisoned(dev, rows)?,
        size,
    }))
}

impl Spmv {
    fn cfg(&self) -> LaunchConfig {
        let threads = if self.vector {
            32 * self.rows
        } else {
            self.rows
        };
        grid_1d(threads, BLOCK)
    }
}

impl Instance for Spmv {
    fn label(&self) -> String {
        let kind = if self.vector {
            "warp per row"
        } else {
            "thread per row"
        };
        format!(
            "spmv CSR, {kind} ({} rows, {} nnz)",
            self.rows,
            self.vals.len()
        )
    }
    fn work(&self) -> Work {
        let (nnz, r) = (self.vals.len() as f64, self.rows as f64);
        Work::Bytes(8.0 * nnz + 8.0 * r + 4.0 * self.ncols as f64)
    }
    fn run_ours(&mut self, s: &Stream) -> RtResult<()> {
        let cfg = self.cfg();
        let [rp, c] = &self.d;
        let (v, x, y, rows) = (&self.dvals, &self.dx, &mut self.y[0], self.rows as i32);
        if self.vector {
            spmv_csr_vector::launch(s, cfg, rp, c, v, x, y, rows)
        } else {
            spmv_csr_scalar::launch(s, cfg, rp, c, v, x, y, rows)
        }
    }
    fn run_twin(&mut self, s: &Stream, f: &[Function]) -> RtResult<()> {
        Args::new()
            .buf(&self.d[0])
            .buf(&self.d[1])
            .buf(&self.dvals)
            .buf(&self.dx)
            .buf(&self.y[1])
            .i32(self.rows as i32)
            .launch(&f[0], s, self.cfg())
    }
    fn check(&self, side: Side) -> Result<(), String> {
        let got = down(&self.y[side.ix()])?;
        let want = |r: usize| {
            (self.row_ptr[r] as usize..self.row_ptr[r + 1] as usize)
                .map(|j| self.vals[j] as f64 * self.x[self.cols[j] as usize] as f64)
                .sum::<f64>()
        };
        close(
            "spmv",
            &got,
            &sample(self.rows, self.size),
            want,
            1e-5,
            1e-5,
        )
    }
}

pub const CASES: &[Case] = &[
    Case {
        name: "spmv_scalar",
        twin_file: "spmv",
        twin_entries: &["spmv_csr_scalar"],
        setup: |d, s| setup(d, s, false),
    },
    Case {
        name: "spmv_vector",
        twin_file: "spmv",
        twin_entries: &["spmv_csr_vector"],
        setup: |d, s| setup(d, s, true),
    },
];
