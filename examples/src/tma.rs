//! The tensor memory accelerator (TMA, sm_90): a tiled 2-D copy and a transpose whose tiles the
//! copy engine moves, described by host-encoded tensor maps (`TensorMapDesc`), each checked
//! against the CPU.
//!
//! - `tma_copy_2d`: each block loads one 32x32 f32 box of the source into shared memory
//!   (`cp_async_bulk_tensor_2d_global_to_shared`, completing on a barrier that expects the box's
//!   4096 bytes) and stores it back at the same coordinates of the destination
//!   (`cp_async_bulk_tensor_2d_shared_to_global`). Edge boxes read zeros outside the tensor and
//!   the store clips them, so any shape works.
//! - `tma_transpose`: the box is loaded with the 128-byte swizzle (16-byte chunk `c` of row `r`
//!   lands at chunk `c ^ (r % 8)`), so reading a column of the tile touches 8 different chunks
//!   instead of one bank; the threads write the transposed tile, make it visible to the copy
//!   engine (`fence_proxy_async_shared_cta` and a block barrier) and one thread stores it to the
//!   transposed coordinates of the output map.
//!
//! Runs on an sm_90 GPU and on the simulator as sm_90 (`Device::simulator_with_arch(90)`).

use ferrocuda::prelude::*;

use crate::util::{check_equal, Rng};

/// The box edge: 32 f32 = 128 bytes, the 128-byte swizzle's span.
pub const TILE: u32 = 32;
/// Rows of threads per block (each thread moves `TILE / ROWS` elements in the transpose).
pub const ROWS: u32 = 8;
/// Bytes of one box.
pub const TILE_BYTES: u32 = TILE * TILE * 4;

/// A 32x32 f32 tile, aligned as the copy engine needs its shared side.
#[repr(C, align(128))]
#[derive(Clone, Copy, DeviceCopy)]
pub struct Tile {
    pub v: [[f32; 32]; 32],
}

/// `dst = src`, one 32x32 box per block (grid: boxes along x and y).
#[kernel(block_dim(32, 8))]
pub fn tma_copy_2d(src: &TensorMap, dst: &mut TensorMap) {
    let bar = shared_array::<Barrier>();
    let tile = shared_array::<Tile>();
    let x = (block_idx().x * TILE) as i32;
    let y = (block_idx().y * TILE) as i32;
    let first = thread_idx().x == 0 && thread_idx().y == 0;
    // One arrival (the issuing thread's) plus the box's bytes complete phase 0.
    barrier_init_block(bar, 1);
    if first {
        // The barrier's init becomes visible to the copy engine (the async proxy).
        fence_proxy_async_shared_cta();
        prefetch_tensormap(src);
        let _ = barrier_arrive_expect_tx(bar, TILE_BYTES);
        cp_async_bulk_tensor_2d_global_to_shared(tile, src, x, y, bar);
        barrier_wait_parity(bar, 0);
        cp_async_bulk_tensor_2d_shared_to_global(dst, x, y, tile);
        cp_async_bulk_commit_group();
        // The tile must stay until the engine has read it (the block's exit frees it).
        cp_async_bulk_wait_group_read(0);
    }
}

/// `dst` (h rows of w) = transpose of `src` (w rows of h... `src` is h x w: h rows of w
/// columns; `dst` is w rows of h columns).
#[kernel(block_dim(32, 8))]
pub fn tma_transpose(src: &TensorMap, dst: &mut TensorMap) {
    let bar = shared_array::<Barrier>();
    let tile = shared_array::<Tile>();
    let out = shared_array::<Tile>();
    let tx = thread_idx().x;
    let ty = thread_idx().y;
    let x = (block_idx().x * TILE) as i32;
    let y = (block_idx().y * TILE) as i32;
    let first = tx == 0 && ty == 0;
    barrier_init_block(bar, 1);
    if first {
        // The barrier's init becomes visible to the copy engine (the async proxy).
        fence_proxy_async_shared_cta();
        let _ = barrier_arrive_expect_tx(bar, TILE_BYTES);
        cp_async_bulk_tensor_2d_global_to_shared(tile, src, x, y, bar);
    }
    barrier_wait_parity(bar, 0);
    // The swizzle is a function of the shared address: row r's chunks are XORed with
    // bits 7..10 of the row's address (r % 8 when the tile starts on a 1024-byte boundary).
    let phase = cvta_to_shared(tile) >> 7;
    #[unroll]
    for j in (0..TILE).step_by(ROWS as usize) {
        // out[c][r] = in[r][c] with r = tx (a warp reads one column: 8 chunks, not one bank).
        let r = tx;
        let c = ty + j;
        let chunk = (c >> 2) ^ ((phase + r) & 7);
        out.v[c as usize][r as usize] = tile.v[r as usize][(chunk << 2 | (c & 3)) as usize];
    }
    // The threads' writes of `out` become visible to the copy engine, then one thread stores.
    fence_proxy_async_shared_cta();
    sync_threads();
    if first {
        cp_async_bulk_tensor_2d_shared_to_global(dst, y, x, out);
        cp_async_bulk_commit_group();
        cp_async_bulk_wait_group_read(0);
    }
}

/// Boxes covering a `w` x `h` tensor, with the kernels' block shape.
pub fn config(w: u32, h: u32) -> LaunchConfig {
    LaunchConfig {
        grid: Dim3::new(w.div_ceil(TILE), h.div_ceil(TILE), 1),
        block: Dim3::new(TILE, ROWS, 1),
        shared_mem_bytes: 0,
        attrs: Default::default(),
    }
}

/// The tensor maps of `tma_copy_2d` / `tma_transpose` over `w` columns x `h` rows of f32.
pub fn map_desc(w: u32, h: u32, swizzle: TensorMapSwizzle) -> TensorMapDesc {
    TensorMapDesc::tiled(&[w as u64, h as u64], &[TILE, TILE]).swizzle(swizzle)
}

/// `tma_copy_2d` of a `w` x `h` tensor (w a multiple of 4: rows of whole 16 bytes).
pub fn run_copy(
    dev: &Device,
    inp: &[f32],
    w: u32,
    h: u32,
) -> ferrocuda::host_runtime::Result<Vec<f32>> {
    let s = dev.new_stream()?;
    let src = dev.upload(inp)?;
    let mut dst = dev.upload(&vec![f32::NAN; inp.len()])?;
    {
        let sm = map_desc(w, h, TensorMapSwizzle::None).encode(&src)?;
        let mut dm = map_desc(w, h, TensorMapSwizzle::None).encode_mut(&mut dst)?;
        tma_copy_2d::launch(&s, config(w, h), &sm, &mut dm)?;
    }
    s.synchronize()?;
    dst.to_vec()
}

/// `tma_transpose` of `h` rows of `w` (both multiples of 4).
pub fn run_transpose(
    dev: &Device,
    inp: &[f32],
    w: u32,
    h: u32,
) -> ferrocuda::host_runtime::Result<Vec<f32>> {
    let s = dev.new_stream()?;
    let src = dev.upload(inp)?;
    let mut dst = dev.upload(&vec![f32::NAN; inp.len()])?;
    {
        let sm = map_desc(w, h, TensorMapSwizzle::B128).encode(&src)?;
        let mut dm = map_desc(h, w, TensorMapSwizzle::None).encode_mut(&mut dst)?;
        tma_transpose::launch(&s, config(w, h), &sm, &mut dm)?;
    }
    s.synchronize()?;
    dst.to_vec()
}

/// The transpose of `h` rows of `w`.
pub fn reference_transpose(inp: &[f32], w: usize, h: usize) -> Vec<f32> {
    let mut out = vec![0.0; w * h];
    for y in 0..h {
        for x in 0..w {
            out[x * h + y] = inp[y * w + x];
        }
    }
    out
}

/// Both kernels on a `w` x `h` random tensor, against the CPU.
pub fn check(dev: &Device, w: u32, h: u32) -> Result<(), String> {
    let inp = Rng::new(0x7a3a ^ (w as u64) << 20 ^ h as u64).vec_f32((w * h) as usize);
    let got = run_copy(dev, &inp, w, h).map_err(|e| e.to_string())?;
    check_equal("tma_copy_2d", &got, &inp)?;
    let got = run_transpose(dev, &inp, w, h).map_err(|e| e.to_string())?;
    check_equal(
        "tma_transpose",
        &got,
        &reference_transpose(&inp, w as usize, h as usize),
    )
}

/// Whole boxes, ragged edges in both dimensions, a non-square tensor.
pub fn check_all(dev: &Device) -> Result<(), String> {
    for (w, h) in [(64, 64), (100, 36), (32, 96)] {
        check(dev, w, h)?;
    }
    Ok(())
}
