//! The types that cross to the device: scalars, arrays and `#[derive(DeviceCopy)]` structs
//! ([`DeviceType`]), `Dim3`, CUDA's vector types and the paired half types. Users see them
//! through `api` (and `prelude`), with the device functions.

use kernel_ir::ast::{self, FloatTy, IntTy, StructDef, Type};

pub(crate) mod fragment;
mod half_pair;
mod vector;
pub use half_pair::*;
pub use vector::*;

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
