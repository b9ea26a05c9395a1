//! The device API users call inside `#[kernel]` / `#[device]` functions: the types that cross to
//! the device (`DeviceType`, `Dim3`, CUDA's vector types, `half2`) and the device functions, each
//! declared in `intrinsics` with its table entries.
//!
//! The functions' Rust definitions exist so that rustc can type-check the host copy of every
//! kernel body (with the user's spans); they never run. Each has a companion module of the same
//! name whose `__fc_callable` gives the compiler its spec, so `use` renames and paths work.

pub use crate::intrinsics::{
    atomics::*, cvta::*, half::*, half_div::*, heap::*, integer::*, math::*, memory::*, misc::*,
    pair_atomics::*, registers::*, shared::*, sync::*, warp::*,
};
pub use crate::types::*;

/// `nvcuda::wmma`: warp matrix functions on the tensor cores (guide B.24).
pub mod wmma {
    pub use crate::intrinsics::wmma::*;
}
