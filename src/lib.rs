//! Ferrocuda: CUDA kernels as plain Rust functions.
//!
//! ```ignore
//! use ferrocuda::prelude::*;
//! ```

pub use host_runtime as runtime;
pub use kernel_macros::{device, kernel, DeviceCopy};
pub use kernel_std as device_std;
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
