//! Ferrocuda: CUDA kernels as plain Rust functions.
//!
//! `use ferrocuda::prelude::*` brings what a program needs: the attributes ([`kernel`],
//! [`device`], [`DeviceCopy`]), the device API kernels call (`thread_idx()`, `sync_threads()`,
//! atomics, warp functions, math, [`gpu_println!`]) and the host types (`Device`, `Stream`,
//! `DeviceBuffer`, `LaunchConfig`, ...). The same program runs on a GPU and, without one, on the
//! simulator:
//!
//! ```
//! use ferrocuda::prelude::*;
//!
//! #[kernel]
//! pub fn saxpy(a: f32, x: &[f32], y: &mut [f32]) {
//!     let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
//!     if i < y.len() {
//!         y[i] = a * x[i] + y[i];
//!     }
//! }
//!
//! fn main() -> Result<()> {
//!     let dev = Device::default()?; // CUDA device 0, or the simulator without a GPU
//!     let stream = dev.new_stream()?;
//!     let n = 100_000;
//!     let x = dev.upload(&vec![1.0f32; n])?;
//!     let mut y = dev.upload(&vec![2.0f32; n])?;
//!     saxpy::launch(&stream, LaunchConfig::for_elements(n, 256), 3.0, &x, &mut y)?;
//!     assert!(y.to_vec()?.iter().all(|&v| v == 5.0));
//!     Ok(())
//! }
//! ```
//!
//! Each crate is re-exported under its own name: [`kernel_std`] (what kernels call),
//! [`host_runtime`] (devices, memory, streams, launches), and for tools the stages below them:
//! [`kernel_ir`], [`kernel_compiler`], [`kernel_sim`].

pub use host_runtime;
pub use kernel_compiler;
pub use kernel_ir;
pub use kernel_macros::{device, kernel, DeviceCopy};
pub use kernel_sim;
pub use kernel_std;
pub use kernel_std::{gpu_print, gpu_println};

#[doc(hidden)]
pub mod __private {
    pub use host_runtime as rt;
    pub use kernel_std::__private::*;
}

pub mod prelude {
    pub use host_runtime::prelude::*;
    pub use kernel_macros::{device, kernel, DeviceCopy};
    pub use kernel_std::prelude::*;
}

/// The README and the user guide's chapters, so that `cargo test` runs the Rust examples in them.
/// (mdBook hides a chapter's `# ` lines as rustdoc does; the README shows every line.)
#[cfg(doctest)]
mod book {
    #[doc = include_str!("../README.md")]
    mod readme {}
    #[doc = include_str!("../book/src/introduction.md")]
    mod introduction {}
    #[doc = include_str!("../book/src/getting-started.md")]
    mod getting_started {}
    #[doc = include_str!("../book/src/kernel-language.md")]
    mod kernel_language {}
    #[doc = include_str!("../book/src/fast-kernels.md")]
    mod fast_kernels {}
    #[doc = include_str!("../book/src/simulator.md")]
    mod simulator {}
    #[doc = include_str!("../book/src/host-api.md")]
    mod host_api {}
    #[doc = include_str!("../book/src/benchmarking.md")]
    mod benchmarking {}
    #[doc = include_str!("../book/src/troubleshooting.md")]
    mod troubleshooting {}
    #[doc = include_str!("../docs/porting.md")]
    mod porting {}
}
