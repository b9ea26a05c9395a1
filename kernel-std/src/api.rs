//! The device API users call inside `#[kernel]` / `#[device]` functions: the types that cross to
//! the device (`DeviceType`, `Dim3`, CUDA's vector types, `half2`) and the device functions, each
//! declared in `intrinsics` with its table entries.
//!
//! The functions' Rust definitions exist so that rustc can type-check the host copy of every
//! kernel body (with the user's spans); they never run. Each has a companion module of the same
//! name whose `__fc_callable` gives the compiler its spec, so `use` renames and paths work.
//!
//! A sum over a whole grid, with the pieces most kernels use: indices, a grid-stride loop, warp
//! shuffles, a `__shared__` array and a barrier, and an atomic:
//!
//! ```
//! use ferrocuda::prelude::*;
//!
//! #[device]
//! fn warp_sum(mut v: u32) -> u32 {
//!     for d in [16, 8, 4, 2, 1] {
//!         v += shfl_down_sync(0xffff_ffff, v, d, 32);
//!     }
//!     v
//! }
//!
//! #[kernel]
//! pub fn sum(x: &[u32], total: &mut [u32]) {
//!     let partial = shared_array::<[u32; 32]>(); // one slot per warp of the block
//!     let (tid, lane, warp) = (thread_idx().x, lane_id(), thread_idx().x / warp_size());
//!     let stride = (grid_dim().x * block_dim().x) as usize;
//!     let mut v = 0;
//!     for i in (((block_idx().x * block_dim().x + tid) as usize)..x.len()).step_by(stride) {
//!         v += x[i];
//!     }
//!     v = warp_sum(v);
//!     if lane == 0 {
//!         partial[warp as usize] = v;
//!     }
//!     sync_threads();
//!     if warp == 0 {
//!         let warps = block_dim().x / warp_size();
//!         v = warp_sum(if lane < warps { partial[lane as usize] } else { 0 });
//!         if lane == 0 {
//!             atomic_add(&mut total[0], v);
//!         }
//!     }
//! }
//!
//! fn main() -> Result<()> {
//!     let dev = Device::simulator();
//!     let s = dev.new_stream()?;
//!     let x = dev.upload(&(1..=10_000).collect::<Vec<u32>>())?;
//!     let mut total = dev.alloc_zeroed::<u32>(1)?;
//!     let cfg = LaunchConfig { grid: Dim3::new(4, 1, 1), block: Dim3::new(256, 1, 1), shared_mem_bytes: 0, attrs: Default::default() };
//!     sum::launch(&s, cfg, &x, &mut total)?;
//!     assert_eq!(total.to_vec()?, [10_000 * 10_001 / 2]);
//!     Ok(())
//! }
//! ```

pub use crate::groups::*;
pub use crate::intrinsics::{
    async_copy::*, atomics::*, barrier_async::*, cluster::*, cvta::*, grid::*, half::*,
    half_div::*, heap::*, integer::*, math::*, memory::*, misc::*, pair_atomics::*, pipeline::*,
    registers::*, shared::*, sync::*, tma::*, warp::*,
};
pub use crate::types::*;

/// `nvcuda::wmma`: warp matrix functions on the tensor cores (guide B.24).
pub mod wmma {
    pub use crate::intrinsics::wmma::*;
}
