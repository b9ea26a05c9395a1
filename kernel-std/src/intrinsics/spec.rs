//! How the device API is declared: one [`intrinsics!`] block per category file declares each
//! function once, and that declaration gives
//!
//! - the stub users call, with its rustdoc (rustc type-checks the host copy of every kernel
//!   against it; it never runs),
//! - its companion module (same name, type namespace), which the code `#[kernel]` generates
//!   resolves through any `use` (`popc::__fc_callable`), returning the spec itself:
//!   `Callable::Intrinsic(&popc::SPEC)`. No name string ties the pieces together, so a spec
//!   without its stub, or the reverse, does not build,
//! - the [`IntrinsicSpec`]: how the front end types and lowers a call (its [`Lowering`] kind),
//! - the table entries it lowers to (PTX template, simulator semantics, oldest target), owned by
//!   the companion (`popc::ENTRY`, `popc::entries()`) and listed in the category's table.
//!
//! For a scalar intrinsic the entry's argument and result types are those of the stub (through
//! [`IrType`]), so they cannot disagree. The other kinds' entries are written out per type or
//! memory space; the unit tests of `intrinsics` check them against their stubs' shapes.

use kernel_ir::ir::Ty;

/// A Rust scalar type an intrinsic takes or returns, with its IR type.
pub trait IrType {
    const IR: Ty;
}

/// What an intrinsic returns: nothing, a scalar or a tuple of scalars (its entry's `rets`).
pub trait IrRets {
    const IR: &'static [Ty];
}

macro_rules! ir_types {
    ($($t:ty => $ir:ident),*) => {$(
        impl IrType for $t {
            const IR: Ty = Ty::$ir;
        }
        impl IrRets for $t {
            const IR: &'static [Ty] = &[Ty::$ir];
        }
    )*};
}
ir_types!(
    bool => Bool, u8 => U8, i8 => I8, u16 => U16, i16 => I16, u32 => U32, i32 => I32,
    u64 => U64, i64 => I64, half::f16 => F16, half::bf16 => BF16, f32 => F32, f64 => F64
);

impl IrRets for () {
    const IR: &'static [Ty] = &[];
}
impl<A: IrType, B: IrType> IrRets for (A, B) {
    const IR: &'static [Ty] = &[A::IR, B::IR];
}

/// The positions of the `i32`s and `i64`s among `tys` as bits (bit `i`: `tys[i]`), for the math
/// library's functions of integer arguments or results (`MathFn::int_args`, `MathFn::int_rets`).
pub const fn int_mask(tys: &[Ty]) -> u8 {
    let mut m = 0;
    let mut i = 0;
    while i < tys.len() {
        if matches!(tys[i], Ty::I32 | Ty::I64) {
            m |= 1 << i;
        }
        i += 1;
    }
    m
}

/// `MathFn::wide`: the `i64`s among the arguments `args` (bits 0..) and the results `rets`
/// (bits 4..).
pub const fn wide_mask(args: &[Ty], rets: &[Ty]) -> u8 {
    let mut m = 0;
    let mut i = 0;
    while i < args.len() {
        if matches!(args[i], Ty::I64) {
            m |= 1 << i;
        }
        i += 1;
    }
    let mut i = 0;
    while i < rets.len() {
        if matches!(rets[i], Ty::I64) {
            m |= 1 << (4 + i);
        }
        i += 1;
    }
    m
}

/// Declares a category's device functions. Each item is a stub signature, `=`, its kind and the
/// kind's data:
///
/// - `pure(sm, ptx, sim[, reg = R])`, `memory(sm, ptx, sim)`: a scalar entry of class `Pure` /
///   `Memory` named after the function, its types those of the stub; `sim` is a
///   [`SimFn`](super::SimFn); `R` the [`SpecialReg`](super::SpecialReg) it only reads.
/// - `warp(sm, ptx, sim_warp)`, `barrier(sm, ptx[, sim_warp])`: the same for warp collectives and
///   block barriers; `cluster_barrier(sm, ptx)` for a barrier of the thread block cluster;
///   `grid_barrier(sm, ptx)` for one of the whole (cooperatively launched) grid.
/// - `lanes(sm, [args] -> [rets], ptx, sim)`: a `Pure` entry `<name>_lanes` taking the struct
///   arguments' fields (`half2`: two f16) and returning the result's.
/// - `typed(arg, entries = E)`: a family picked by the type of argument `arg`.
/// - `access(writes, by_field, entries = E)` / `access(.., entries() = F)`: memory through the
///   reference argument 0, the entry picked by space and pointee (`F`: built on first use).
/// - `address_of(space)`, `is_in(space)`: the reference's address / whether it points into
///   `space`; no entry.
/// - `dim3(known, axes = [x, y, z])`: a `Dim3` of three register entries.
/// - `math([results = 2,] [entries = E,] f32 = I[, f64 = I])`: a function of the math library
///   ([`MathFn`](super::MathFn)), one float type throughout; `I` is a `#[device]` function of
///   `crate::math` (a path) or `[i]`, entry `i` of `E` (the f32 and f64 entries it owns). Without
///   `f64` it takes `f32` only.
/// - `custom(C[, entries = E])`: the front end's own code ([`Custom`](super::Custom) `C`), with
///   the entries it uses.
///
/// `table NAME;` first names the block's [`Table`](super::Table), which `intrinsics/mod.rs` lists
/// for [`all`](super::all); `table NAME + f;` adds the entries `f()` that no function owns.
macro_rules! intrinsics {
    (
        table $table:ident $(+ $extra:ident)*;
        $(
            $(#[$m:meta])*
            pub fn $name:ident $(<$($g:ident $(: $b:path)?),*>)? ($($arg:ident : $ty:ty),*) $(-> $ret:ty)?
            = $kind:ident ( $($spec:tt)* );
        )*
    ) => {
        $(
            $(#[$m])*
            #[allow(unused_variables)]
            pub fn $name $(<$($g $(: $b)?),*>)? ($($arg: $ty),*) $(-> $ret)? {
                $crate::intrinsics::device_only(stringify!($name))
            }
            #[doc(hidden)]
            pub mod $name {
                #[allow(unused_imports)]
                use super::*;
                intrinsics!(@$kind $name ($($ty),*) ($($ret)?) $($spec)*);
                pub fn __fc_callable() -> ::kernel_ir::ast::Callable {
                    ::kernel_ir::ast::Callable::Intrinsic(&SPEC)
                }
            }
        )*
        /// This block's functions, for the table ([`super::all`]).
        pub(super) static $table: $crate::intrinsics::Table = $crate::intrinsics::Table {
            specs: &[$(&$name::SPEC),*],
            unowned: &[$($extra),*],
        };
    };

    // Scalar kinds: one entry with the stub's types.
    (@pure $name:ident ($($ty:ty),*) ($($ret:ty)?) $sm:expr, $ptx:expr, $sim:expr $(, reg = $reg:ident)? $(,)?) => {
        intrinsics!(@scalar $name ($($ty),*) ($($ret)?) Pure, $sm, $ptx, Some($sim), None,
            intrinsics!(@opt $($crate::intrinsics::SpecialReg::$reg)?));
    };
    (@memory $name:ident ($($ty:ty),*) ($($ret:ty)?) $sm:expr, $ptx:expr, $sim:expr $(,)?) => {
        intrinsics!(@scalar $name ($($ty),*) ($($ret)?) Memory, $sm, $ptx, Some($sim), None, None);
    };
    (@warp $name:ident ($($ty:ty),*) ($($ret:ty)?) $sm:expr, $ptx:expr, $sim:expr $(,)?) => {
        intrinsics!(@scalar $name ($($ty),*) ($($ret)?) Warp, $sm, $ptx, None, Some($sim), None);
    };
    (@barrier $name:ident ($($ty:ty),*) ($($ret:ty)?) $sm:expr, $ptx:expr $(, $sim:expr)? $(,)?) => {
        intrinsics!(@scalar $name ($($ty),*) ($($ret)?) Barrier, $sm, $ptx, None, intrinsics!(@opt $($sim)?), None);
    };
    (@cluster_barrier $name:ident ($($ty:ty),*) ($($ret:ty)?) $sm:expr, $ptx:expr $(,)?) => {
        intrinsics!(@scalar $name ($($ty),*) ($($ret)?) ClusterBarrier, $sm, $ptx, None, None, None);
    };
    (@grid_barrier $name:ident ($($ty:ty),*) ($($ret:ty)?) $sm:expr, $ptx:expr $(,)?) => {
        intrinsics!(@scalar $name ($($ty),*) ($($ret)?) GridBarrier, $sm, $ptx, None, None, None);
    };
    (@scalar $name:ident ($($ty:ty),*) ($($ret:ty)?) $class:ident, $sm:expr, $ptx:expr, $sim:expr, $sim_warp:expr, $reg:expr) => {
        /// The table entry.
        pub static ENTRY: $crate::intrinsics::IntrinsicDef = $crate::intrinsics::IntrinsicDef {
            name: stringify!($name),
            args: &[$(<$ty as $crate::intrinsics::IrType>::IR),*],
            rets: <intrinsics!(@ret $($ret)?) as $crate::intrinsics::IrRets>::IR,
            min_sm: $sm,
            ptx: $ptx,
            class: $crate::intrinsics::Class::$class,
            sim: $sim,
            sim_warp: $sim_warp,
            reg: $reg,
        };
        pub fn entries() -> &'static [$crate::intrinsics::IntrinsicDef] {
            ::core::slice::from_ref(&ENTRY)
        }
        pub static SPEC: $crate::intrinsics::IntrinsicSpec = $crate::intrinsics::IntrinsicSpec {
            name: stringify!($name),
            entries,
            lowering: $crate::intrinsics::Lowering::Scalar(&ENTRY),
        };
    };
    (@lanes $name:ident ($($ty:ty),*) ($($ret:ty)?) $sm:expr, [$($a:expr),*] -> [$($r:expr),*], $ptx:expr, $sim:expr $(,)?) => {
        /// The table entry, on the arguments' and the result's fields.
        pub static ENTRY: $crate::intrinsics::IntrinsicDef = $crate::intrinsics::IntrinsicDef {
            name: concat!(stringify!($name), "_lanes"),
            args: &[$($a),*],
            rets: &[$($r),*],
            min_sm: $sm,
            ptx: $ptx,
            class: $crate::intrinsics::Class::Pure,
            sim: Some($sim),
            sim_warp: None,
            reg: None,
        };
        pub fn entries() -> &'static [$crate::intrinsics::IntrinsicDef] {
            ::core::slice::from_ref(&ENTRY)
        }
        pub static SPEC: $crate::intrinsics::IntrinsicSpec = $crate::intrinsics::IntrinsicSpec {
            name: stringify!($name),
            entries,
            lowering: $crate::intrinsics::Lowering::Lanes {
                entry: &ENTRY,
                params: &[$(<$ty as $crate::types::DeviceType>::ast_type),*],
                ret: <intrinsics!(@ret $($ret)?) as $crate::types::DeviceType>::ast_type,
            },
        };
    };

    // Families.
    (@typed $name:ident ($($ty:ty),*) ($($ret:ty)?) $arg:expr, entries = $entries:expr $(,)?) => {
        /// The family's entries, one per value type.
        pub static ENTRIES: &[$crate::intrinsics::IntrinsicDef] = $entries;
        pub fn entries() -> &'static [$crate::intrinsics::IntrinsicDef] {
            ENTRIES
        }
        pub static SPEC: $crate::intrinsics::IntrinsicSpec = $crate::intrinsics::IntrinsicSpec {
            name: stringify!($name),
            entries,
            lowering: $crate::intrinsics::Lowering::Typed { arg: $arg },
        };
    };
    (@access $name:ident ($($ty:ty),*) ($($ret:ty)?) $writes:expr, $by_field:expr, entries = $entries:expr $(,)?) => {
        /// The family's entries, per pointee type and memory space.
        pub static ENTRIES: &[$crate::intrinsics::IntrinsicDef] = $entries;
        intrinsics!(@access $name ($($ty),*) ($($ret)?) $writes, $by_field, entries() = ENTRIES);
    };
    (@access $name:ident ($($ty:ty),*) ($($ret:ty)?) $writes:expr, $by_field:expr, entries() = $entries:expr $(,)?) => {
        pub fn entries() -> &'static [$crate::intrinsics::IntrinsicDef] {
            $entries
        }
        pub static SPEC: $crate::intrinsics::IntrinsicSpec = $crate::intrinsics::IntrinsicSpec {
            name: stringify!($name),
            entries,
            lowering: $crate::intrinsics::Lowering::Access($crate::intrinsics::Access {
                writes: $writes,
                by_field: $by_field,
            }),
        };
    };
    (@address_of $name:ident ($($ty:ty),*) ($($ret:ty)?) $space:ident $(,)?) => {
        intrinsics!(@spec $name AddressOf(::kernel_ir::ir::Space::$space));
    };
    (@is_in $name:ident ($($ty:ty),*) ($($ret:ty)?) $space:expr $(,)?) => {
        intrinsics!(@spec $name IsIn($space));
    };
    (@dim3 $name:ident ($($ty:ty),*) ($($ret:ty)?) $known:ident, axes = $axes:expr $(,)?) => {
        /// The registers of the three axes.
        pub static AXES: [$crate::intrinsics::IntrinsicDef; 3] = $axes;
        pub fn entries() -> &'static [$crate::intrinsics::IntrinsicDef] {
            &AXES
        }
        pub static SPEC: $crate::intrinsics::IntrinsicSpec = $crate::intrinsics::IntrinsicSpec {
            name: stringify!($name),
            entries,
            lowering: $crate::intrinsics::Lowering::Dim3 {
                axes: &AXES,
                known: $crate::intrinsics::Known::$known,
            },
        };
    };
    (@custom $name:ident ($($ty:ty),*) ($($ret:ty)?) $custom:expr, entries = $entries:expr $(,)?) => {
        /// The entries the front end's code for it uses.
        pub static ENTRIES: &[$crate::intrinsics::IntrinsicDef] = $entries;
        pub fn entries() -> &'static [$crate::intrinsics::IntrinsicDef] {
            ENTRIES
        }
        pub static SPEC: $crate::intrinsics::IntrinsicSpec = $crate::intrinsics::IntrinsicSpec {
            name: stringify!($name),
            entries,
            lowering: $crate::intrinsics::Lowering::Custom($custom),
        };
    };
    (@custom $name:ident ($($ty:ty),*) ($($ret:ty)?) $custom:expr $(,)?) => {
        intrinsics!(@custom $name ($($ty),*) ($($ret)?) $custom, entries = &[]);
    };
    (@spec $name:ident $($lowering:tt)*) => {
        pub fn entries() -> &'static [$crate::intrinsics::IntrinsicDef] {
            &[]
        }
        pub static SPEC: $crate::intrinsics::IntrinsicSpec = $crate::intrinsics::IntrinsicSpec {
            name: stringify!($name),
            entries,
            lowering: $crate::intrinsics::Lowering::$($lowering)*,
        };
    };
    // The math library: one implementation per float type.
    (@math $name:ident ($($ty:ty),*) ($($ret:ty)?) entries = $entries:expr, $($rest:tt)*) => {
        /// The entries its implementations use, f32 first.
        pub static ENTRIES: [$crate::intrinsics::IntrinsicDef; 2] = $entries;
        pub fn entries() -> &'static [$crate::intrinsics::IntrinsicDef] {
            &ENTRIES
        }
        intrinsics!(@math_spec $name ($($ty),*) ($($ret)?) $($rest)*);
    };
    (@math $name:ident ($($ty:ty),*) ($($ret:ty)?) $($rest:tt)*) => {
        pub fn entries() -> &'static [$crate::intrinsics::IntrinsicDef] {
            &[]
        }
        intrinsics!(@math_spec $name ($($ty),*) ($($ret)?) $($rest)*);
    };
    (@math_spec $name:ident ($($ty:ty),*) ($($ret:ty)?) $(results = $n:literal,)? f32 = $f32:tt $(:: $f32p:ident)* $(, f64 = $f64:tt $(:: $f64p:ident)*)? $(,)?) => {
        /// The stub's float type parameter, read as `f32` to tell its `i32` arguments and
        /// results from its float ones (`MathFn::int_args`).
        #[allow(dead_code)]
        type T = f32;
        pub static SPEC: $crate::intrinsics::IntrinsicSpec = $crate::intrinsics::IntrinsicSpec {
            name: stringify!($name),
            entries,
            lowering: $crate::intrinsics::Lowering::Math($crate::intrinsics::MathFn {
                args: [$(stringify!($ty)),*].len(),
                pair: intrinsics!(@or $($n)?; 1) == 2,
                int_args: $crate::intrinsics::spec::int_mask(
                    &[$(<$ty as $crate::intrinsics::IrType>::IR),*]),
                int_rets: $crate::intrinsics::spec::int_mask(
                    <intrinsics!(@ret $($ret)?) as $crate::intrinsics::IrRets>::IR),
                wide: $crate::intrinsics::spec::wide_mask(
                    &[$(<$ty as $crate::intrinsics::IrType>::IR),*],
                    <intrinsics!(@ret $($ret)?) as $crate::intrinsics::IrRets>::IR),
                f32: Some(intrinsics!(@impl $f32 $(:: $f32p)*)),
                f64: intrinsics!(@opt $(intrinsics!(@impl $f64 $(:: $f64p)*))?),
            }),
        };
    };
    (@impl [$i:literal]) => { $crate::intrinsics::MathImpl::Entry(&ENTRIES[$i]) };
    (@impl $($p:ident)::+) => { $crate::intrinsics::MathImpl::Device($($p)::+::__fc_callable) };
    (@or $x:literal; $d:literal) => { $x };
    (@or ; $d:literal) => { $d };
    (@ret) => { () };
    (@ret $ret:ty) => { $ret };
    (@opt) => { None };
    (@opt $sim:expr) => { Some($sim) };
}

/// Implements a family's marker trait (`ShuffleValue`) for its value types and lists their IR
/// types (`$list`), which the unit tests compare with the family's entries.
macro_rules! value_types {
    ($tr:ident, $list:ident: $($t:ty),* $(,)?) => {
        $(impl $tr for $t {})*
        #[cfg(test)]
        pub(super) const $list: &[::kernel_ir::ir::Ty] =
            &[$(<$t as $crate::intrinsics::IrType>::IR),*];
    };
}
