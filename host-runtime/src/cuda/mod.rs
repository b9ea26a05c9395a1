//! The CUDA backend: the driver API through cudarc's raw bindings, loaded at run time.
//!
//! Layered like cudarc: `result` wraps each raw call the runtime makes into a `Result` naming the
//! call and its `CUresult`; the rest of this folder is written against it and implements the
//! backend traits (`crate::backend`) for devices, streams, events and loaded kernels. The safe
//! public types above never call the driver themselves.

mod context;
mod core;
mod device;
pub(crate) mod error_codes;
mod event;
mod graph;
mod internal;
mod jit;
mod launch;
mod launch_ex;
pub(crate) mod library;
mod memory;
mod module;
mod panic_slots;
mod properties;
pub(crate) mod result;
mod stream;

pub(crate) use self::core::Core;
pub(crate) use device::CudaDevice;
pub(crate) use module::{load_compiled, CudaFunction, CudaModule};
