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
//!         let mut p1 = ::ferrocuda::__private::rt::KernelSlice::launch_arg(x, stream)?;
//!         let mut p2 = ::ferrocuda::__private::rt::KernelSliceMut::launch_arg_mut(y, stream)?;
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
//!
//! Beside `launch`, the macro generates `node` (a kernel node of a `Graph`) and
//! `set_node_params` (new arguments for a node of a `GraphExec`) with the same argument packing,
//! slice parameters taken as `graph::GraphArg` / `graph::GraphArgMut` (borrowed for the graph's
//! lifetime) and checked by `launch_arg` on the stream `graph::graph_node_stream` /
//! `graph::exec_node_stream` hands out; they end in `graph::add_kernel_node` /
//! `graph::set_kernel_node_params`.

use std::any::TypeId;

use kernel_ir::GenericValue;

use crate::{Result, Stream};

/// A slice parameter as the kernel receives it (`.param .align 8 .b8 x[16]`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SliceArg {
    /// Device address (CUDA) or simulator address of element 0.
    pub ptr: u64,
    /// Number of elements.
    pub len: u64,
}

/// Something a kernel's `&[T]` parameter accepts: a `&DeviceBuffer<T>`, a read-only view, a
/// managed or pitched buffer.
///
/// # Safety
/// A safe launch hands what [`KernelSlice::launch_arg`] returns to the kernel, so an implementation
/// must return `Ok` only for `len` elements of `T` that live in memory of `stream`'s device (and
/// its current context), stay allocated while work queued on `stream` may use them, and are not
/// being written by any copy that work is not ordered after. The pointer is a multiple of
/// `align_of::<T>()`, as for any Rust slice: the compiler moves a `float4` element in one
/// 16-byte access on that ground (`kernel_ir::ir::ParamKind::Slice::ptr_align`).
pub unsafe trait KernelSlice<T> {
    /// The `{ ptr, len }` pair, unchecked: for raw argument arrays (`Function::launch_raw`),
    /// where the caller answers for device, lifetime and ordering.
    fn kernel_arg(&self) -> SliceArg;

    /// The pair for a launch on `stream`: `Err(WrongDevice)` for memory of another device,
    /// `Err(ContextLost)` for memory from before a context reset. Records the read on `stream`
    /// so later copies and frees are ordered after it.
    fn launch_arg(&self, stream: &Stream) -> Result<SliceArg>;
}

/// Something a kernel's `&mut [T]` parameter accepts: a `&mut DeviceBuffer<T>` or a mutable view
/// (or a managed or pitched buffer). Taking it by `&mut` is what makes aliasing an input with an
/// output a Rust borrow error.
///
/// # Safety
/// As for [`KernelSlice`], for memory the kernel may also write.
pub unsafe trait KernelSliceMut<T> {
    /// The `{ ptr, len }` pair, unchecked, taken through `&mut` for exclusivity (for raw launches).
    fn kernel_arg_mut(&mut self) -> SliceArg;

    /// The checked pair for a launch on `stream` (see [`KernelSlice::launch_arg`]); records the
    /// write on `stream`.
    fn launch_arg_mut(&mut self, stream: &Stream) -> Result<SliceArg>;
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
