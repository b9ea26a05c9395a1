//! Tiled matrix transpose through shared memory: `TILE`x`TILE` tiles padded by one column to avoid
//! bank conflicts, blocks of `TILE`x8 threads, each moving `TILE / 8` rows.

use ferrocuda::prelude::*;

use crate::util::{check_equal, Rng};

pub const ROWS: u32 = 8;

/// `out` (w x h... transposed: h columns) = transpose of `inp` (h rows of w).
/// `block_dim(32, 8)` states the block shape the tile loops assume (the CUDA C twin assumes it
/// silently): launches with another shape are rejected, and the shared-tile indices need no checks.
#[kernel(block_dim(32, 8), launch_bounds(max_threads = 256, min_blocks = 2))]
pub fn transpose<const TILE: usize>(out: &mut [f32], inp: &[f32], w: u32, h: u32) {
    let tile = shared_array::<[[f32; 33]; 32]>();
    let tile_u = TILE as u32;
    let tx = thread_idx().x;
    let ty = thread_idx().y;
    let x = block_idx().x * tile_u + tx;
    let y = block_idx().y * tile_u + ty;
    #[unroll]
    for r in (0..tile_u).step_by(ROWS as usize) {
        if x < w && y + r < h {
            tile[(ty + r) as usize][tx as usize] = inp[(y + r) as usize * w as usize + x as usize];
        }
    }
    sync_threads();
    let x = block_idx().y * tile_u + tx;
    let y = block_idx().x * tile_u + ty;
    #[unroll]
    for r in (0..tile_u).step_by(ROWS as usize) {
        if x < h && y + r < w {
            out[(y + r) as usize * h as usize + x as usize] = tile[tx as usize][(ty + r) as usize];
        }
    }
}

pub fn reference(inp: &[f32], w: usize, h: usize) -> Vec<f32> {
    let mut out = vec![0.0; w * h];
    for y in 0..h {
        for x in 0..w {
            out[x * h + y] = inp[y * w + x];
        }
    }
    out
}

pub fn config(w: u32, h: u32) -> LaunchConfig {
    LaunchConfig {
        grid: Dim3::new(w.div_ceil(32), h.div_ceil(32), 1),
        block: Dim3::new(32, ROWS, 1),
        shared_mem_bytes: 0,
        attrs: Default::default(),
    }
}

pub fn check(dev: &Device, w: usize, h: usize) -> Result<(), String> {
    let inp = Rng::new(11).vec_f32(w * h);
    let run = || -> ferrocuda::host_runtime::Result<Vec<f32>> {
        let stream = dev.new_stream()?;
        let din = dev.upload(&inp)?;
        let mut dout = dev.upload(&vec![f32::NAN; w * h])?;
        transpose::launch::<32>(
            &stream,
            config(w as u32, h as u32),
            &mut dout,
            &din,
            w as u32,
            h as u32,
        )?;
        dout.to_vec()
    };
    let got = run().map_err(|e| e.to_string())?;
    check_equal("transpose", &got, &reference(&inp, w, h))
}

/// A launch with a block shape other than the kernel's `block_dim(32, 8)` must be refused before
/// the driver, and leave the output untouched.
pub fn check_wrong_block(dev: &Device) -> Result<(), String> {
    let (w, h) = (64u32, 64u32);
    let inp = Rng::new(12).vec_f32((w * h) as usize);
    let stream = dev.new_stream().map_err(|e| e.to_string())?;
    let din = dev.upload(&inp).map_err(|e| e.to_string())?;
    let poison = vec![f32::NAN; (w * h) as usize];
    let mut dout = dev.upload(&poison).map_err(|e| e.to_string())?;
    let cfg = LaunchConfig {
        grid: Dim3::new(2, 2, 1),
        block: Dim3::new(16, 16, 1),
        shared_mem_bytes: 0,
        attrs: Default::default(),
    };
    match transpose::launch::<32>(&stream, cfg, &mut dout, &din, w, h) {
        Err(ferrocuda::host_runtime::Error::InvalidLaunch(
            ferrocuda::host_runtime::LaunchError::BlockShape { block, required },
        )) if block == cfg.block && required == Dim3::new(32, ROWS, 1) => {}
        other => return Err(format!("expected a BlockShape error, got {other:?}")),
    }
    let out = dout.to_vec().map_err(|e| e.to_string())?;
    if out.iter().any(|v| !v.is_nan()) {
        return Err("the refused launch wrote to the output".into());
    }
    Ok(())
}

/// Bounds checks with an input shorter than `w * h`: the head's covering test (`h * w <=
/// inp.len()`) fails, so the precise checks decide. A grid over the first tile row only reads
/// in bounds and must transpose those rows; the full grid must report a failing read of `inp`
/// at the tile load (line 24) with an index one of the reporting thread's rows computes, at or
/// past the length, and no earlier row of that thread failing.
pub fn check_short_input(dev: &Device) -> Result<(), String> {
    let (w, h) = (64usize, 64usize);
    let len = w * h - 5;
    let inp = Rng::new(13).vec_f32(len);
    let stream = dev.new_stream().map_err(|e| e.to_string())?;
    let din = dev.upload(&inp).map_err(|e| e.to_string())?;
    let mut dout = dev
        .upload(&vec![f32::NAN; w * h])
        .map_err(|e| e.to_string())?;
    let first_rows = LaunchConfig {
        grid: Dim3::new(2, 1, 1),
        ..config(w as u32, h as u32)
    };
    transpose::launch::<32>(&stream, first_rows, &mut dout, &din, w as u32, h as u32)
        .and_then(|_| stream.synchronize())
        .map_err(|e| format!("the first tile row reads in bounds, yet: {e}"))?;
    let out = dout.to_vec().map_err(|e| e.to_string())?;
    for y in 0..32 {
        for x in 0..w {
            let (got, want) = (out[x * h + y], inp[y * w + x]);
            if got != want {
                return Err(format!("out[{x}][{y}] = {got}, expected {want}"));
            }
        }
    }
    let full = config(w as u32, h as u32);
    let launched = transpose::launch::<32>(&stream, full, &mut dout, &din, w as u32, h as u32);
    let p = match launched.and_then(|_| stream.synchronize()) {
        Err(ferrocuda::host_runtime::Error::KernelPanic(p)) => p,
        other => return Err(format!("expected a bounds panic, got {other:?}")),
    };
    let (bx, by) = (p.block[0] as usize, p.block[1] as usize);
    let (tx, ty) = (p.thread[0] as usize, p.thread[1] as usize);
    let x = bx * 32 + tx;
    let rows: Vec<usize> = (0..32)
        .step_by(ROWS as usize)
        .map(|r| by * 32 + ty + r)
        .filter(|&y| y < h)
        .collect();
    let first_bad = rows.iter().map(|y| y * w + x).find(|&i| i >= len);
    if p.line != 24 || p.len != len as u64 || first_bad != Some(p.index as usize) {
        return Err(format!(
            "expected the thread's first failing row at line 24 (len {len}, index {first_bad:?}), got {p:?}"
        ));
    }
    Ok(())
}
