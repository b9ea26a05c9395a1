//! The device API users call inside `#[kernel]` / `#[device]` functions.
//!
//! These Rust definitions exist so that rustc can type-check the host copy of every kernel body
//! (with the user's spans); they never run. Each callable has a companion module of the same name
//! whose `__fc_callable` tells the compiler which intrinsic it is, so `use` renames and paths work.

use kernel_ir::ast::{self, FloatTy, IntTy, StructDef, Type};

#[cold]
#[track_caller]
fn device_only(name: &str) -> ! {
    panic!("`{name}` is a device function: call it inside a #[kernel] or #[device] function, which run on the GPU or the simulator")
}

/// Declares a device intrinsic: a host stub for type checking plus its companion module.
#[allow(unused_macros)]
macro_rules! device_intrinsic {
    ($(#[$m:meta])* pub fn $name:ident $(<$($g:ident $(: $b:path)?),*>)? ($($arg:ident : $ty:ty),*) $(-> $ret:ty)?) => {
        $(#[$m])*
        #[allow(unused_variables)]
        pub fn $name $(<$($g $(: $b)?),*>)? ($($arg: $ty),*) $(-> $ret)? {
            device_only(stringify!($name))
        }
        #[doc(hidden)]
        pub mod $name {
            pub fn __fc_callable() -> ::kernel_ir::ast::Callable {
                ::kernel_ir::ast::Callable::Intrinsic(stringify!($name))
            }
        }
    };
}

mod atomics;
mod fp16;
mod fp16_div;
mod integer;
mod math;
mod memory;
mod misc;
mod pair_atomics;
mod sync;
mod vector;
mod warp;
#[allow(unused_imports)]
pub use atomics::*;
#[allow(unused_imports)]
pub use fp16::*;
#[allow(unused_imports)]
pub use fp16_div::*;
#[allow(unused_imports)]
pub use integer::*;
#[allow(unused_imports)]
pub use math::*;
#[allow(unused_imports)]
pub use memory::*;
#[allow(unused_imports)]
pub use misc::*;
#[allow(unused_imports)]
pub use pair_atomics::*;
#[allow(unused_imports)]
pub use sync::*;
#[allow(unused_imports)]
pub use vector::*;
#[allow(unused_imports)]
pub use warp::*;

/// CUDA's `dim3` / `uint3`: the value of `threadIdx`, `blockIdx`, `blockDim` and `gridDim`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Dim3 {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

impl Dim3 {
    pub const fn new(x: u32, y: u32, z: u32) -> Self {
        Dim3 { x, y, z }
    }
    /// Total number of threads (or blocks) this extent describes.
    pub const fn volume(&self) -> u64 {
        self.x as u64 * self.y as u64 * self.z as u64
    }
}

impl From<u32> for Dim3 {
    fn from(x: u32) -> Self {
        Dim3 { x, y: 1, z: 1 }
    }
}
impl From<(u32, u32)> for Dim3 {
    fn from((x, y): (u32, u32)) -> Self {
        Dim3 { x, y, z: 1 }
    }
}
impl From<(u32, u32, u32)> for Dim3 {
    fn from((x, y, z): (u32, u32, u32)) -> Self {
        Dim3 { x, y, z }
    }
}

device_intrinsic!(
    /// `threadIdx`
    pub fn thread_idx() -> Dim3
);
device_intrinsic!(
    /// `blockIdx`
    pub fn block_idx() -> Dim3
);
device_intrinsic!(
    /// `blockDim`
    pub fn block_dim() -> Dim3
);
device_intrinsic!(
    /// `gridDim`
    pub fn grid_dim() -> Dim3
);
device_intrinsic!(
    /// `warpSize` (always 32 on the GPUs we target).
    pub fn warp_size() -> u32
);
device_intrinsic!(
    /// The thread's lane within its warp (`%laneid`).
    pub fn lane_id() -> u32
);
device_intrinsic!(
    /// `__syncthreads()`: waits until every thread of the block arrives; orders shared and global
    /// memory accesses of the block around it.
    pub fn sync_threads()
);
device_intrinsic!(
    /// `clock()`: the multiprocessor's 32-bit cycle counter.
    pub fn clock() -> u32
);
device_intrinsic!(
    /// `clock64()`: the multiprocessor's 64-bit cycle counter.
    pub fn clock64() -> u64
);
device_intrinsic!(
    /// A statically sized `__shared__` array: every call site is one allocation per block, shared by
    /// all threads of the block. `T` is an array type such as `[[f32; 33]; 32]`. Starts uninitialised.
    pub fn shared_array<T: DeviceType>() -> &'static mut T
);
device_intrinsic!(
    /// `extern __shared__ T buf[]`: the dynamic shared memory sized by the launch's
    /// `shared_mem_bytes`, viewed as a slice of `T` (length = bytes / `size_of::<T>()`).
    pub fn dynamic_shared<T: DeviceType>() -> &'static mut [T]
);

/// A type that can cross to the device: scalars, arrays of them, and `#[derive(DeviceCopy)]` structs.
/// Gives the compiler the type's description for generic kernel instantiation.
///
/// # Safety
/// The type must be `#[repr(C)]` (or a scalar/array of such), contain no pointers or references,
/// and be valid for every bit pattern the device may write.
pub unsafe trait DeviceType: Copy + 'static {
    fn ast_type() -> Type;
}

/// A `#[repr(C)]` struct usable in kernels, implemented by `#[derive(DeviceCopy)]`.
///
/// # Safety
/// As [`DeviceType`]; the derive checks the representation.
pub unsafe trait DeviceCopy: DeviceType {
    fn struct_def() -> &'static StructDef;
}

macro_rules! scalar_device_type {
    ($($t:ty => $e:expr),*) => {$(
        unsafe impl DeviceType for $t {
            fn ast_type() -> Type { $e }
        }
    )*};
}
scalar_device_type!(
    bool => Type::Bool,
    i8 => Type::Int(IntTy::I8), i16 => Type::Int(IntTy::I16), i32 => Type::Int(IntTy::I32),
    i64 => Type::Int(IntTy::I64), isize => Type::Int(IntTy::Isize),
    u8 => Type::Int(IntTy::U8), u16 => Type::Int(IntTy::U16), u32 => Type::Int(IntTy::U32),
    u64 => Type::Int(IntTy::U64), usize => Type::Int(IntTy::Usize),
    half::f16 => Type::Float(FloatTy::F16), half::bf16 => Type::Float(FloatTy::BF16),
    f32 => Type::Float(FloatTy::F32), f64 => Type::Float(FloatTy::F64)
);

unsafe impl<T: DeviceType, const N: usize> DeviceType for [T; N] {
    fn ast_type() -> Type {
        Type::Array(
            Box::new(T::ast_type()),
            Box::new(ast::build::e(
                ast::ExprKind::Lit(ast::Lit::Int(N as u128, Some(IntTy::Usize))),
                0,
                0,
            )),
        )
    }
}

unsafe impl DeviceType for Dim3 {
    fn ast_type() -> Type {
        Type::Struct(ast::StructRef {
            name: "Dim3",
            def: <Dim3 as DeviceCopy>::struct_def,
        })
    }
}
unsafe impl DeviceCopy for Dim3 {
    fn struct_def() -> &'static StructDef {
        static DEF: std::sync::OnceLock<StructDef> = std::sync::OnceLock::new();
        DEF.get_or_init(|| StructDef {
            name: "Dim3",
            size: std::mem::size_of::<Dim3>(),
            align: std::mem::align_of::<Dim3>(),
            fields: ["x", "y", "z"]
                .iter()
                .map(|f| (f.to_string(), Type::Int(IntTy::U32)))
                .collect(),
        })
    }
}

/// Floating-point scalars (`f32`, `f64`, `f16`, `bf16`) for generic device code.
/// The compiler knows these methods on every float type; the trait exists for the host type check.
/// The formatting traits let generic code print with `gpu_println!("{} {:e}", x, x)`.
pub trait Float:
    DeviceType
    + std::fmt::Display
    + std::fmt::Debug
    + std::fmt::LowerExp
    + std::fmt::UpperExp
    + PartialOrd
    + std::ops::Add<Output = Self>
    + std::ops::Sub<Output = Self>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
    + std::ops::Neg<Output = Self>
    + std::ops::AddAssign
    + std::ops::SubAssign
    + std::ops::MulAssign
    + std::ops::DivAssign
{
    const ZERO: Self;
    const ONE: Self;
    fn min(self, other: Self) -> Self;
    fn max(self, other: Self) -> Self;
    fn abs(self) -> Self;
    fn sqrt(self) -> Self;
    fn mul_add(self, a: Self, b: Self) -> Self;
}

macro_rules! impl_float {
    ($($t:ty: $zero:expr, $one:expr);*) => {$(
        impl Float for $t {
            const ZERO: Self = $zero;
            const ONE: Self = $one;
            fn min(self, other: Self) -> Self { <$t>::min(self, other) }
            fn max(self, other: Self) -> Self { <$t>::max(self, other) }
            fn abs(self) -> Self { <$t>::abs(self) }
            fn sqrt(self) -> Self { <$t>::sqrt(self) }
            fn mul_add(self, a: Self, b: Self) -> Self { <$t>::mul_add(self, a, b) }
        }
    )*};
}
impl_float!(f32: 0.0, 1.0; f64: 0.0, 1.0);
