//! The interface between `#[kernel]`-generated launchers and the runtime. Generated code calls only
//! what is here (through `::ferrocuda::__private::rt`), so this file is the contract between the
//! macro crate and the runtime.
//!
//! A generated launcher looks like:
//! ```ignore
//! pub mod saxpy {
//!     use super::*;
//!     static KERNEL: ::ferrocuda::__private::rt::KernelHandle =
//!         ::ferrocuda::__private::rt::KernelHandle::new(__fc_def);
//!     pub fn launch(
//!         stream: &::ferrocuda::__private::rt::Stream,
//!         cfg: impl ::core::convert::Into<::ferrocuda::__private::rt::LaunchConfig>,
//!         a: f32,
//!         x: &impl ::ferrocuda::__private::rt::KernelSlice<f32>,
//!         y: &mut impl ::ferrocuda::__private::rt::KernelSliceMut<f32>,
//!     ) -> ::ferrocuda::__private::rt::Result<()> {
//!         let mut p0 = a;
//!         let mut p1 = ::ferrocuda::__private::rt::KernelSlice::kernel_arg(x);
//!         let mut p2 = ::ferrocuda::__private::rt::KernelSliceMut::kernel_arg_mut(y);
//!         let mut args: [*mut ::core::ffi::c_void; 3] = [
//!             &mut p0 as *mut _ as *mut _, &mut p1 as *mut _ as *mut _, &mut p2 as *mut _ as *mut _,
//!         ];
//!         // generic kernels: InstanceKey::new(&[TypeId::of::<T>()], &[TILE as i128]) and a closure
//!         // building the GenericValues, called only on a cache miss.
//!         ::ferrocuda::__private::rt::launch_kernel(stream, &KERNEL, &InstanceKey::EMPTY,
//!             &|| ::std::vec::Vec::new(), cfg.into(), &mut args)
//!     }
//! }
//! ```

use std::any::TypeId;

use kernel_ir::GenericValue;

/// A slice parameter as the kernel receives it (`.param .align 8 .b8 x[16]`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliceArg {
    /// Device address (CUDA) or simulator address of element 0.
    pub ptr: u64,
    /// Number of elements.
    pub len: u64,
}

/// Something a kernel's `&[T]` parameter accepts: a `&DeviceBuffer<T>` or a read-only view.
pub trait KernelSlice<T> {
    /// The `{ ptr, len }` pair passed to the kernel.
    fn kernel_arg(&self) -> SliceArg;
}

/// Something a kernel's `&mut [T]` parameter accepts: a `&mut DeviceBuffer<T>` or a mutable view.
/// Taking it by `&mut` is what makes aliasing an input with an output a Rust borrow error.
pub trait KernelSliceMut<T> {
    /// The `{ ptr, len }` pair passed to the kernel, taken through `&mut` for exclusivity.
    fn kernel_arg_mut(&mut self) -> SliceArg;
}

/// Identifies one instantiation of a generic kernel without allocating: the `TypeId`s of its type
/// arguments and the values of its const arguments, in declaration order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct InstanceKey<'a> {
    /// `TypeId`s of the type arguments.
    pub types: &'a [TypeId],
    /// Values of the const arguments.
    pub consts: &'a [i128],
}

impl<'a> InstanceKey<'a> {
    /// The key of a non-generic kernel.
    pub const EMPTY: InstanceKey<'static> = InstanceKey {
        types: &[],
        consts: &[],
    };
    /// A key from type and const arguments in declaration order.
    pub const fn new(types: &'a [TypeId], consts: &'a [i128]) -> Self {
        InstanceKey { types, consts }
    }
}

/// Builds the generic arguments of an instantiation on a cache miss.
pub type GenericsFn<'a> = &'a dyn Fn() -> Vec<GenericValue>;
