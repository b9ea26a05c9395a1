//! Safe host layer over the CUDA driver API and the Ferrocuda simulator.

pub mod error;
pub mod launch_api;
pub mod launch_config;
pub mod stream;
pub mod kernel_handle;

pub use error::{Error, Result};
pub use kernel_handle::{launch_kernel, KernelHandle};
pub use launch_api::{InstanceKey, KernelSlice, KernelSliceMut, SliceArg};
pub use launch_config::LaunchConfig;
pub use stream::Stream;

pub mod prelude {
    pub use crate::{Error, LaunchConfig, Result, Stream};
    pub use kernel_std::api::Dim3;
}
