//! Ferrocuda: CUDA kernels as plain Rust functions.
//!
//! ```ignore
//! use ferrocuda::prelude::*;
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
