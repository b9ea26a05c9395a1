//! `nvcuda::wmma` (guide B.24, "Warp Matrix Functions"): warp-wide matrix multiply-accumulate
//! on the tensor cores. A warp loads tiles of A, B and C into [`Fragment`]s, computes
//! `D = A * B + C` with [`mma_sync`] and stores D; all 32 lanes of the warp must make each call
//! together with the same arguments (pointers, leading dimensions, layouts), as in CUDA.
//!
//! ```
//! use ferrocuda::prelude::wmma::*;
//! use ferrocuda::prelude::*;
//!
//! /// `out = alpha * x * y` for one 16x16x16 tile, computed by one warp: `x` row-major,
//! /// `y` column-major, both f16, accumulated in f32.
//! #[kernel(block_dim(32))]
//! pub fn tile_gemm(x: &[f16], y: &[f16], alpha: f32, out: &mut [f32]) {
//!     let mut a: Fragment<MatrixA, 16, 16, 16, f16, RowMajor> = fragment();
//!     let mut b: Fragment<MatrixB, 16, 16, 16, f16, ColMajor> = fragment();
//!     let mut c: Fragment<Accumulator, 16, 16, 16, f32> = fragment();
//!     fill_fragment(&mut c, 0.0);
//!     load_matrix_sync(&mut a, x, 0, 16); // slice, element offset, leading dimension
//!     load_matrix_sync(&mut b, y, 0, 16);
//!     c = mma_sync(&a, &b, &c);
//!     for i in 0..c.x.len() {
//!         c.x[i] = alpha * c.x[i]; // elements in an order only the warp knows, as in CUDA
//!     }
//!     store_matrix_sync(out, 0, &c, 16, MEM_ROW_MAJOR);
//! }
//!
//! fn main() -> Result<()> {
//!     let dev = Device::simulator(); // sm_80 by default: f16 tensor cores
//!     let s = dev.new_stream()?;
//!     let xs: Vec<f32> = (0..256).map(|v| (v % 7) as f32).collect();
//!     let ys: Vec<f32> = (0..256).map(|v| (v % 5) as f32 - 2.0).collect();
//!     let half = |v: &Vec<f32>| v.iter().map(|&e| f16::from_f32(e)).collect::<Vec<_>>();
//!     let (x, y) = (dev.upload(&half(&xs))?, dev.upload(&half(&ys))?);
//!     let mut out = dev.alloc_zeroed::<f32>(256)?;
//!     tile_gemm::launch(&s, LaunchConfig::for_elements(32, 32), &x, &y, 0.5, &mut out)?;
//!     let got = out.to_vec()?;
//!     for (r, c) in [(0, 0), (5, 11), (15, 15)] {
//!         // Row r of x times column c of y (y is column-major: column c is contiguous).
//!         let dot: f32 = (0..16).map(|k| xs[r * 16 + k] * ys[c * 16 + k]).sum();
//!         assert_eq!(got[r * 16 + c], 0.5 * dot);
//!     }
//!     Ok(())
//! }
//! ```
//!
//! The fragment types are exactly the guide's (f16 m16n16k16 with f16 or f32 accumulators,
//! bf16 m16n16k16, tf32 m16n16k8, u8/i8 m16n16k16 with i32 accumulators, f64 m8n8k4); any other
//! is a compile error. Loads and stores take a slice (global or shared memory), the element
//! offset of the tile's first element and the leading dimension in elements; each call checks
//! once that the whole tile lies inside the slice (a `KernelPanic` naming the call otherwise).
//! The GPU also requires the tile to be 32-byte aligned and the leading dimension a multiple
//! of 16 bytes; the simulator reports a violation as a misaligned address.

use kernel_ir::ast::WmmaOp;

use super::wmma_entries::{entries as wmma_entries, WMMA};
use super::Custom;
pub use crate::types::fragment::{
    Accumulator, AccumulatorFragment, ColMajor, Fragment, FragmentShape, IsFragment, MatrixA,
    MatrixB, MmaResult, OperandFragment, RowMajor, Tf32,
};

/// `wmma::mem_row_major`: an accumulator tile stored row by row (`ldm` between rows).
pub const MEM_ROW_MAJOR: u32 = 0;
/// `wmma::mem_col_major`: an accumulator tile stored column by column (`ldm` between columns).
pub const MEM_COL_MAJOR: u32 = 1;

intrinsics! {
    table TABLE + wmma_entries;

    /// A new fragment (every element zero): `let mut a: Fragment<...> = fragment();` or
    /// `fragment::<Fragment<...>>()`. CUDA declares fragments uninitialised; a fragment that
    /// a load overwrites costs nothing.
    pub fn fragment<F: IsFragment>() -> F = custom(Custom::Wmma(WmmaOp::Fragment, &WMMA));

    /// `wmma::fill_fragment(f, v)`: every element of `f` set to `v`.
    pub fn fill_fragment<F: IsFragment>(f: &mut F, v: F::Elem) =
        custom(Custom::Wmma(WmmaOp::Fill, &WMMA));

    /// `wmma::load_matrix_sync(f, ptr, ldm)` for `matrix_a` / `matrix_b`: the tile whose first
    /// element is `src[offset]`, rows (row-major) or columns (col-major, as the fragment type
    /// says) `ldm` elements apart. `src` is a slice of global or shared memory; the tile must lie
    /// inside it (checked once per call), be 32-byte aligned, and `ldm` a multiple of 16 bytes.
    /// Warp-wide: every lane calls it with the same arguments.
    pub fn load_matrix_sync<F: OperandFragment>(f: &mut F, src: &[F::Mem], offset: usize, ldm: u32) =
        custom(Custom::Wmma(WmmaOp::Load, &WMMA));

    /// `wmma::load_matrix_sync(f, ptr, ldm, layout)` for accumulators: as [`load_matrix_sync`],
    /// with the layout in memory given by `layout` ([`MEM_ROW_MAJOR`] or [`MEM_COL_MAJOR`],
    /// a constant).
    pub fn load_accumulator_sync<F: AccumulatorFragment>(f: &mut F, src: &[F::Mem], offset: usize, ldm: u32, layout: u32) =
        custom(Custom::Wmma(WmmaOp::Load, &WMMA));

    /// `wmma::store_matrix_sync(ptr, f, ldm, layout)`: the accumulator `f` written to the tile
    /// whose first element is `dst[offset]` (as [`load_accumulator_sync`]).
    pub fn store_matrix_sync<F: AccumulatorFragment>(dst: &mut [F::Mem], offset: usize, f: &F, ldm: u32, layout: u32) =
        custom(Custom::Wmma(WmmaOp::Store, &WMMA));

    /// `wmma::mma_sync(d, a, b, c)` as `d = mma_sync(&a, &b, &c)`: `a * b + c` on the tensor
    /// cores, a new fragment of the type the result is given (`c = mma_sync(&a, &b, &c)`
    /// accumulates in place, which Rust's borrows rule out for CUDA's `mma_sync(c, a, b, c)`).
    /// Integer products wrap (CUDA's `satf = false`). Warp-wide: every lane calls it.
    pub fn mma_sync<D: MmaResult<A, B, C>, A, B, C>(a: &A, b: &B, c: &C) -> D =
        custom(Custom::Wmma(WmmaOp::Mma, &WMMA));
}
