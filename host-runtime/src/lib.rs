//! Safe host layer over the CUDA driver API and the Ferrocuda simulator.
//!
//! Layering follows cudarc's, with two backends under one dispatch point:
//! - `cuda/`: the CUDA backend. Its `result` layer wraps each raw driver call (cudarc's `sys`
//!   bindings, loaded dynamically, so nothing CUDA is needed to build and a machine without a
//!   driver gets [`Error::NoDriver`] instead of a panic) into a `Result` naming the call and its
//!   `CUresult`; the rest of the folder is written against it.
//! - `sim/`: the CPU simulator backend.
//! - `backend`: the traits both implement (device, stream, event, loaded kernel): the one place the
//!   safe types meet a backend.
//! - The safe types on top, written once for both: [`Device`], [`Stream`], [`Event`], memory
//!   ([`DeviceBuffer`], [`PinnedBuffer`], [`ManagedBuffer`], [`PitchedBuffer`], [`MemPool`]),
//!   modules and functions, launches (validation in [`launch`]), occupancy and kernel panics.
//!   Generated `#[kernel]` launchers call [`launch_kernel`] (see [`launch_api`]).

#![doc = include_str!("../README.md")]
#![warn(missing_docs)]

pub mod access_policy;
mod access_window;
mod backend;
mod callback;
mod cuda;
pub mod device;
pub mod disk_cache;
pub mod driver;
pub mod error;
pub mod event;
pub mod graph;
pub mod kernel_cache;
pub mod kernel_handle;
pub mod launch;
pub mod launch_api;
pub mod launch_attrs;
mod launch_cluster;
pub mod launch_config;
mod launch_cooperative;
mod launch_error;
pub mod managed;
pub mod memory;
mod memory_ops;
pub mod module;
pub mod occupancy;
mod options;
pub mod panic;
pub mod pinned;
pub mod pitched;
pub mod pool;
mod printf_fifo;
pub mod properties;
mod sim;
pub mod stream;
pub mod tensor_map;
mod tensor_map_error;
mod uses;

pub use access_policy::{AccessPolicyError, AccessPolicyWindow, AccessProperty};
pub use device::{BackendKind, Device};
pub use error::{Error, Result};
pub use event::{Event, EventFlags};
pub use graph::{CaptureMode, Graph, GraphError, GraphExec, GraphNode, UpdateFailure};
pub use kernel_handle::{
    compiled_kernel, kernel_function, launch_kernel, param_bytes, KernelHandle,
};
pub use launch::LaunchError;
pub use launch_api::{InstanceKey, KernelSlice, KernelSliceMut, SliceArg};
pub use launch_attrs::LaunchAttrs;
pub use launch_config::LaunchConfig;
pub use managed::{Advice, Location, ManagedBuffer};
pub use memory::{DeviceBuffer, DeviceView, DeviceViewMut};
pub use module::{Function, FunctionAttributes, Module};
pub use panic::KernelPanic;
pub use pinned::{PinnedBuffer, PinnedFlags, RegisteredHost};
pub use pitched::PitchedBuffer;
pub use pool::MemPool;
pub use properties::DeviceProperties;
pub use stream::{Stream, StreamOptions};
pub use tensor_map::{
    HostTensorMap, HostTensorMapMut, KernelTensorMap, KernelTensorMapMut, TensorDataType,
    TensorMapDesc, TensorMapError, TensorMapInterleave, TensorMapL2Promotion, TensorMapOobFill,
    TensorMapSwizzle,
};

/// The names most programs need.
pub mod prelude {
    pub use crate::{AccessPolicyWindow, AccessProperty};
    pub use crate::{
        CaptureMode, Device, DeviceBuffer, Error, Event, EventFlags, Graph, GraphExec, GraphNode,
        LaunchConfig, Result, Stream,
    };
    pub use crate::{
        HostTensorMap, HostTensorMapMut, TensorDataType, TensorMapDesc, TensorMapInterleave,
        TensorMapL2Promotion, TensorMapOobFill, TensorMapSwizzle,
    };
    pub use kernel_std::api::Dim3;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn send_sync<T: Send + Sync>() {}

    #[test]
    fn handles_cross_threads() {
        send_sync::<Device>();
        send_sync::<Stream>();
        send_sync::<Event>();
        send_sync::<Module>();
        send_sync::<Function>();
        send_sync::<DeviceBuffer<f32>>();
        send_sync::<ManagedBuffer<u8>>();
        send_sync::<PitchedBuffer<u16>>();
        send_sync::<PinnedBuffer<f64>>();
        send_sync::<MemPool>();
        send_sync::<KernelHandle>();
        send_sync::<Error>();
    }
}
