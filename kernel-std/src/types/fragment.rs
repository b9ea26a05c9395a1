//! `nvcuda::wmma`'s fragment types (guide B.24): `Fragment<Use, M, N, K, T, Layout>`, a warp's
//! share of one matrix tile, held in registers as the array `x` (CUDA's `fragment::x`).
//!
//! Only the combinations the hardware has are types at all: the struct requires
//! `Use: FragmentShape<M, N, K, T, Layout>`, implemented for exactly the guide's table, so a
//! fragment of any other shape, element type or layout is rustc's error at the user's line.
//! The same list ([`FRAGMENT_TYPES`]) gives each type its device description and the table
//! entries of `intrinsics::wmma` their fragments, so the two cannot drift apart.

use half::{bf16, f16};
use kernel_ir::ast::{StructDef, StructRef, Type};

use super::{DeviceCopy, DeviceType};

/// `wmma::matrix_a`: the left operand (M x K).
#[derive(Clone, Copy, Debug, Default)]
pub struct MatrixA;
/// `wmma::matrix_b`: the right operand (K x N).
#[derive(Clone, Copy, Debug, Default)]
pub struct MatrixB;
/// `wmma::accumulator`: C and D (M x N); its memory layout is given at each load and store.
#[derive(Clone, Copy, Debug, Default)]
pub struct Accumulator;
/// `wmma::row_major`.
#[derive(Clone, Copy, Debug, Default)]
pub struct RowMajor;
/// `wmma::col_major`.
#[derive(Clone, Copy, Debug, Default)]
pub struct ColMajor;
/// `wmma::precision::tf32`: matrix elements rounded to TensorFloat-32 (10-bit mantissa) by the
/// tensor core; the fragment holds them as `f32`, loaded from `f32` memory.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tf32;

/// The fragments that exist: `Use` (`MatrixA`, `MatrixB`, `Accumulator`) has one of shape
/// m`M`n`N`k`K`, element type `T` and layout `L` (`()` for accumulators) exactly when it
/// implements this trait; `Elements` is the array each thread holds.
#[diagnostic::on_unimplemented(
    message = "wmma has no fragment `{Self}` of shape m{M}n{N}k{K} with element type `{T}` and layout `{L}`",
    label = "not a fragment of the wmma table (guide B.24)",
    note = "f16: m16n16k16 (f16 or f32 accumulator); bf16: m16n16k16; Tf32: m16n16k8 (f32 accumulator); u8/i8: m16n16k16 (i32 accumulator); f64: m8n8k4; matrix_a/b take RowMajor or ColMajor, accumulators no layout"
)]
pub trait FragmentShape<const M: usize, const N: usize, const K: usize, T, L> {
    /// What one thread holds (`[f16; 16]`...).
    type Elements: Copy + 'static;
}

/// `wmma::fragment<Use, M, N, K, T, Layout>`: one thread's elements of a warp-wide tile, in
/// registers. `x.len()` is CUDA's `num_elements`; which matrix element each `x[i]` holds is
/// unspecified (PTX leaves it to the hardware), so element-wise code must treat all alike
/// (scale, convert, apply an activation) as in CUDA.
#[repr(C)]
pub struct Fragment<U, const M: usize, const N: usize, const K: usize, T, L = ()>
where
    U: FragmentShape<M, N, K, T, L>,
{
    pub x: <U as FragmentShape<M, N, K, T, L>>::Elements,
}

impl<U, const M: usize, const N: usize, const K: usize, T, L> Clone for Fragment<U, M, N, K, T, L>
where
    U: FragmentShape<M, N, K, T, L>,
{
    fn clone(&self) -> Self {
        *self
    }
}
impl<U, const M: usize, const N: usize, const K: usize, T, L> Copy for Fragment<U, M, N, K, T, L> where
    U: FragmentShape<M, N, K, T, L>
{
}

/// Any fragment type: its element type, the matrix element type in memory, and how many
/// elements each thread holds (CUDA's `num_elements`).
pub trait IsFragment: DeviceType {
    /// The type of `x`'s elements.
    type Elem;
    /// The element type of the memory it is loaded from / stored to.
    type Mem;
    /// `num_elements`.
    const NUM_ELEMENTS: usize;
}
/// A `matrix_a` / `matrix_b` fragment: loaded with its type's layout.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a matrix_a / matrix_b fragment",
    note = "accumulators are loaded with `load_accumulator_sync(f, src, offset, ldm, MEM_ROW_MAJOR)`"
)]
pub trait OperandFragment: IsFragment {}
/// An accumulator fragment: loaded and stored with a layout given at the call.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an accumulator fragment",
    note = "matrix_a / matrix_b fragments are loaded with `load_matrix_sync(f, src, offset, ldm)` and cannot be stored"
)]
pub trait AccumulatorFragment: IsFragment {}
/// `D: MmaResult<A, B, C>`: `mma_sync(&mut d, &a, &b, &c)` exists for these fragment types.
#[diagnostic::on_unimplemented(
    message = "wmma has no `mma_sync` giving `{Self}` from `{A}` x `{B}` + `{C}`",
    note = "A and B must share the shape and element type, C and D be accumulators of that shape (f16 inputs: f16 or f32 each)"
)]
pub trait MmaResult<A, B, C> {}

/// What the entry table needs of a fragment type.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FragmentType {
    /// The struct's name, which is how the compiler recognises it.
    pub name: &'static str,
    /// The kind (role, shape, element type): an index of `intrinsics::wmma_kinds::KINDS`.
    pub kind: usize,
    /// `Some(col_major)` for matrix A and B.
    pub col_major: Option<bool>,
}

macro_rules! fragments {
    ($( $kind:literal: $use:ident $m:literal $n:literal $k:literal $t:tt, $l:tt, $col:expr
        => [$e:ty; $cnt:literal] from $mem:ty, $tr:ident; )*) => {
        $(
            impl FragmentShape<$m, $n, $k, $t, $l> for $use {
                type Elements = [$e; $cnt];
            }
            unsafe impl DeviceType for Fragment<$use, $m, $n, $k, $t, $l> {
                fn ast_type() -> Type {
                    Type::Struct(StructRef {
                        name: fragments!(@name $use $m $n $k $t, $l),
                        def: <Self as DeviceCopy>::struct_def,
                    })
                }
            }
            unsafe impl DeviceCopy for Fragment<$use, $m, $n, $k, $t, $l> {
                fn struct_def() -> &'static StructDef {
                    static DEF: std::sync::OnceLock<StructDef> = std::sync::OnceLock::new();
                    DEF.get_or_init(|| StructDef {
                        name: fragments!(@name $use $m $n $k $t, $l),
                        size: std::mem::size_of::<Self>(),
                        align: std::mem::align_of::<Self>(),
                        fields: vec![("x".into(), <[$e; $cnt] as DeviceType>::ast_type())],
                    })
                }
            }
            impl IsFragment for Fragment<$use, $m, $n, $k, $t, $l> {
                type Elem = $e;
                type Mem = $mem;
                const NUM_ELEMENTS: usize = $cnt;
            }
            impl $tr for Fragment<$use, $m, $n, $k, $t, $l> {}
        )*
        /// Every fragment type, for the entry table.
        pub(crate) const FRAGMENT_TYPES: &[FragmentType] = &[$(
            FragmentType {
                name: fragments!(@name $use $m $n $k $t, $l),
                kind: $kind,
                col_major: $col,
            }
        ),*];
    };
    (@name $use:ident $m:literal $n:literal $k:literal $t:tt, ()) => {
        concat!("Fragment<", stringify!($use), ", ", $m, ", ", $n, ", ", $k, ", ", stringify!($t), ">")
    };
    (@name $use:ident $m:literal $n:literal $k:literal $t:tt, $l:tt) => {
        concat!("Fragment<", stringify!($use), ", ", $m, ", ", $n, ", ", $k, ", ", stringify!($t), ", ", stringify!($l), ">")
    };
}

// The kinds' numbers are the indexes of `intrinsics::wmma_kinds::KINDS`.
fragments! {
    0: MatrixA 16 16 16 f16, RowMajor, Some(false) => [f16; 16] from f16, OperandFragment;
    0: MatrixA 16 16 16 f16, ColMajor, Some(true) => [f16; 16] from f16, OperandFragment;
    1: MatrixB 16 16 16 f16, RowMajor, Some(false) => [f16; 16] from f16, OperandFragment;
    1: MatrixB 16 16 16 f16, ColMajor, Some(true) => [f16; 16] from f16, OperandFragment;
    2: Accumulator 16 16 16 f16, (), None => [f16; 8] from f16, AccumulatorFragment;
    3: Accumulator 16 16 16 f32, (), None => [f32; 8] from f32, AccumulatorFragment;
    4: MatrixA 16 16 16 bf16, RowMajor, Some(false) => [bf16; 8] from bf16, OperandFragment;
    4: MatrixA 16 16 16 bf16, ColMajor, Some(true) => [bf16; 8] from bf16, OperandFragment;
    5: MatrixB 16 16 16 bf16, RowMajor, Some(false) => [bf16; 8] from bf16, OperandFragment;
    5: MatrixB 16 16 16 bf16, ColMajor, Some(true) => [bf16; 8] from bf16, OperandFragment;
    6: MatrixA 16 16 8 Tf32, RowMajor, Some(false) => [f32; 4] from f32, OperandFragment;
    6: MatrixA 16 16 8 Tf32, ColMajor, Some(true) => [f32; 4] from f32, OperandFragment;
    7: MatrixB 16 16 8 Tf32, RowMajor, Some(false) => [f32; 4] from f32, OperandFragment;
    7: MatrixB 16 16 8 Tf32, ColMajor, Some(true) => [f32; 4] from f32, OperandFragment;
    8: Accumulator 16 16 8 f32, (), None => [f32; 8] from f32, AccumulatorFragment;
    9: MatrixA 16 16 16 u8, RowMajor, Some(false) => [u8; 8] from u8, OperandFragment;
    9: MatrixA 16 16 16 u8, ColMajor, Some(true) => [u8; 8] from u8, OperandFragment;
    10: MatrixB 16 16 16 u8, RowMajor, Some(false) => [u8; 8] from u8, OperandFragment;
    10: MatrixB 16 16 16 u8, ColMajor, Some(true) => [u8; 8] from u8, OperandFragment;
    11: MatrixA 16 16 16 i8, RowMajor, Some(false) => [i8; 8] from i8, OperandFragment;
    11: MatrixA 16 16 16 i8, ColMajor, Some(true) => [i8; 8] from i8, OperandFragment;
    12: MatrixB 16 16 16 i8, RowMajor, Some(false) => [i8; 8] from i8, OperandFragment;
    12: MatrixB 16 16 16 i8, ColMajor, Some(true) => [i8; 8] from i8, OperandFragment;
    13: Accumulator 16 16 16 i32, (), None => [i32; 8] from i32, AccumulatorFragment;
    14: MatrixA 8 8 4 f64, RowMajor, Some(false) => [f64; 1] from f64, OperandFragment;
    14: MatrixA 8 8 4 f64, ColMajor, Some(true) => [f64; 1] from f64, OperandFragment;
    15: MatrixB 8 8 4 f64, RowMajor, Some(false) => [f64; 1] from f64, OperandFragment;
    15: MatrixB 8 8 4 f64, ColMajor, Some(true) => [f64; 1] from f64, OperandFragment;
    16: Accumulator 8 8 4 f64, (), None => [f64; 2] from f64, AccumulatorFragment;
}

/// `mma_sync`'s valid operand combinations, for rustc (the entry table has the same list).
macro_rules! mma_results {
    ($( ($m:literal $n:literal $k:literal) $t:ty => $($c:ty)|* ; )*) => {$(
        mma_results!(@layouts ($m $n $k) $t; $($c)|*);
    )*};
    (@layouts ($m:literal $n:literal $k:literal) $t:ty; $($c:ty)|*) => {
        mma_results!(@one ($m $n $k) $t, RowMajor, RowMajor; $($c)|*);
        mma_results!(@one ($m $n $k) $t, RowMajor, ColMajor; $($c)|*);
        mma_results!(@one ($m $n $k) $t, ColMajor, RowMajor; $($c)|*);
        mma_results!(@one ($m $n $k) $t, ColMajor, ColMajor; $($c)|*);
    };
    (@one ($m:literal $n:literal $k:literal) $t:ty, $la:ty, $lb:ty; $($c:ty)|*) => {
        mma_results!(@cd ($m $n $k) $t, $la, $lb; [$($c)*] [$($c)*]);
    };
    (@cd ($m:literal $n:literal $k:literal) $t:ty, $la:ty, $lb:ty; [$($d:ty)*] $cs:tt) => {$(
        mma_results!(@c ($m $n $k) $t, $la, $lb, $d; $cs);
    )*};
    (@c ($m:literal $n:literal $k:literal) $t:ty, $la:ty, $lb:ty, $d:ty; [$($c:ty)*]) => {$(
        impl MmaResult<
            Fragment<MatrixA, $m, $n, $k, $t, $la>,
            Fragment<MatrixB, $m, $n, $k, $t, $lb>,
            Fragment<Accumulator, $m, $n, $k, $c>,
        > for Fragment<Accumulator, $m, $n, $k, $d> {}
    )*};
}
mma_results! {
    (16 16 16) f16 => f16 | f32;
    (16 16 16) bf16 => f32;
    (16 16 8) Tf32 => f32;
    (16 16 16) u8 => i32;
    (16 16 16) i8 => i32;
    (8 8 4) f64 => f64;
}
