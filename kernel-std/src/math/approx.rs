//! The hardware's approximate f32 units, callable from the f32 math library's `#[device]`
//! functions (`ex2(x)` in device code lowers to the intrinsic-table entry `approx_ex2.f32`, one
//! `ex2.approx.f32` instruction). CUDA's own f32 library is built on the same instructions.
//! Each function is declared once (`approx!`): its host twin, its table entry and its companion
//! module; `intrinsics` lists them (`SPECS`) in the table. Not user API.
//!
//! On the GPU the results are implementation-defined within the PTX bounds; the simulator (and
//! the host twins below, which run when a math function is called on the host, e.g. by unit
//! tests) compute [`model`]: the correctly rounded value of the same function.

/// The simulator's model of each instruction: the correctly rounded value of the function of the
/// same argument; `ftz` variants read subnormal inputs as zero of the same sign and flush
/// subnormal results.
pub mod model {
    fn flush(x: f32) -> f32 {
        if x.is_subnormal() {
            0.0f32.copysign(x)
        } else {
            x
        }
    }
    /// `ex2.approx.f32` (subnormal results kept).
    pub fn ex2(x: f32) -> f32 {
        super::wobble::ulps(((x as f64).exp2() as f32, 0))
    }
    /// `ex2.approx.ftz.f32`.
    pub fn ex2_ftz(x: f32) -> f32 {
        flush(ex2(flush(x)))
    }
    /// `lg2.approx.ftz.f32`.
    pub fn lg2_ftz(x: f32) -> f32 {
        super::wobble::ulps(((flush(x) as f64).log2() as f32, 1))
    }
    /// `rsqrt.approx.f32`.
    pub fn rsqrt(x: f32) -> f32 {
        super::wobble::ulps(((1.0 / (x as f64).sqrt()) as f32, 2))
    }
    /// `rsqrt.approx.ftz.f32`.
    pub fn rsqrt_ftz(x: f32) -> f32 {
        rsqrt(flush(x))
    }
    /// `rcp.approx.ftz.f32`.
    pub fn rcp_ftz(x: f32) -> f32 {
        flush(super::wobble::ulps(((1.0 / flush(x) as f64) as f32, 3)))
    }
    /// `cvt.rni.f32.f32`: exact (nearest integer, ties to even).
    pub fn rint(x: f32) -> f32 {
        x.round_ties_even()
    }
    /// `add.rz.f32`: exact (the sum rounded toward zero, as the simulator's `add_rz`).
    pub fn fadd_rz(a: f32, b: f32) -> f32 {
        crate::intrinsics::rounding::add32(a, b, 1)
    }
    /// `fma.rm.f32`: exact (the fused result rounded down, as the simulator's `fma_rd`).
    pub fn fma_rd(a: f32, b: f32, c: f32) -> f32 {
        crate::intrinsics::rounding::fma32(a, b, c, 3)
    }
    /// `cvt.rni.s32.f32`: exact (nearest integer, ties to even, saturated to the `i32` range,
    /// NaN to 0), as the bits of the `i32`.
    pub fn f2i_rn(x: f32) -> u32 {
        x.round_ties_even() as i32 as u32
    }
    /// `cvt.rni.f64.f64`: exact (nearest integer, ties to even).
    pub fn rint64(x: f64) -> f64 {
        x.round_ties_even()
    }
    /// `cvt.rni.s64.f32`: exact (nearest integer, ties to even, saturated to the `i64` range).
    /// NaN gives `i64::MIN`, as the H100 does (unlike Rust's `as`, which gives 0).
    pub fn f2ll_rn(x: f32) -> i64 {
        if x.is_nan() {
            i64::MIN
        } else {
            x.round_ties_even() as i64
        }
    }
    /// `cvt.rni.s64.f64`: as `f2ll_rn`.
    pub fn d2ll_rn(x: f64) -> i64 {
        if x.is_nan() {
            i64::MIN
        } else {
            x.round_ties_even() as i64
        }
    }
    /// `selp.f32`: exact.
    pub fn select(c: bool, a: f32, b: f32) -> f32 {
        if c {
            a
        } else {
            b
        }
    }
    /// `selp.b32`: exact.
    pub fn select_u32(c: bool, a: u32, b: u32) -> u32 {
        if c {
            a
        } else {
            b
        }
    }
    /// `fma.rn.sat.f32`: exact; the result clamped to `[0, 1]`, NaN to `+0`.
    pub fn fma_sat(a: f32, b: f32, c: f32) -> f32 {
        let r = a.mul_add(b, c);
        if r.is_nan() {
            0.0
        } else {
            r.clamp(0.0, 1.0) + 0.0
        }
    }
}

/// Unit tests of the math library's host twins: the GPU's approximate units are not correctly
/// rounded, so the tests can move each unit's result by a few ulps (`lg2`: by an absolute
/// error, as PTX states its bound) and check the functions built on them stay within CUDA's
/// bounds. Outside `cfg(test)` (the simulator, every other crate) the model is exact.
pub mod wobble {
    #[cfg(test)]
    thread_local! {
        /// Per unit (ex2, lg2, rsqrt, rcp): ulps added to the result (lg2: multiples of
        /// 2^-22 added).
        pub static SHIFT: core::cell::Cell<[i32; 4]> = const { core::cell::Cell::new([0; 4]) };
    }
    /// `(result, unit)` with the unit's shift applied.
    #[inline]
    pub fn ulps((r, _unit): (f32, usize)) -> f32 {
        #[cfg(test)]
        {
            let k = SHIFT.with(|s| s.get()[_unit]);
            if k != 0 && r.is_finite() && (r != 0.0 || _unit == 1) {
                if _unit == 1 {
                    return r + k as f32 * f32::from_bits(0x3480_0000);
                }
                return f32::from_bits((r.to_bits() as i32 + k) as u32);
            }
        }
        r
    }
}

/// A scalar an approximate-unit entry takes or gives: its IR type and its simulator bits.
pub trait Scalar: Copy {
    const TY: kernel_ir::ir::Ty;
    fn from_bits(b: u64) -> Self;
    fn to_bits(self) -> u64;
}
impl Scalar for f32 {
    const TY: kernel_ir::ir::Ty = kernel_ir::ir::Ty::F32;
    fn from_bits(b: u64) -> Self {
        f32::from_bits(b as u32)
    }
    fn to_bits(self) -> u64 {
        f32::to_bits(self) as u64
    }
}
impl Scalar for f64 {
    const TY: kernel_ir::ir::Ty = kernel_ir::ir::Ty::F64;
    fn from_bits(b: u64) -> Self {
        f64::from_bits(b)
    }
    fn to_bits(self) -> u64 {
        f64::to_bits(self)
    }
}
impl Scalar for i64 {
    const TY: kernel_ir::ir::Ty = kernel_ir::ir::Ty::I64;
    fn from_bits(b: u64) -> Self {
        b as i64
    }
    fn to_bits(self) -> u64 {
        self as u64
    }
}
impl Scalar for u32 {
    const TY: kernel_ir::ir::Ty = kernel_ir::ir::Ty::U32;
    fn from_bits(b: u64) -> Self {
        b as u32
    }
    fn to_bits(self) -> u64 {
        self as u64
    }
}
impl Scalar for bool {
    const TY: kernel_ir::ir::Ty = kernel_ir::ir::Ty::Bool;
    fn from_bits(b: u64) -> Self {
        b != 0
    }
    fn to_bits(self) -> u64 {
        self as u64
    }
}

/// Declares each function once: its host twin (computing [`model`]), its table entry (class
/// `Pure`, sm_70; the simulator computes the model too) and its companion module, whose spec
/// lowers a call to the entry. `name(arg: type, ..) -> type = "entry name", "PTX", model;`
macro_rules! approx {
    ($($(#[$m:meta])* $name:ident($($arg:ident: $t:ty),+) -> $r:ty = $entry:literal, $ptx:literal, $model:path;)*) => {
        $(
            $(#[$m])*
            pub fn $name($($arg: $t),+) -> $r {
                $model($($arg),+)
            }
            #[doc(hidden)]
            pub mod $name {
                #[allow(unused_imports)]
                use super::*;
                use super::Scalar;
                use kernel_ir::ast::{Callable, IntrinsicSpec, Lowering};
                use kernel_ir::intrinsic::{Class, IntrinsicDef, SimEnv};
                /// The table entry.
                pub static ENTRY: IntrinsicDef = IntrinsicDef {
                    name: $entry,
                    args: &[$(<$t as Scalar>::TY),+],
                    rets: &[<$r as Scalar>::TY],
                    min_sm: 70,
                    ptx: $ptx,
                    class: Class::Pure,
                    sim: Some(|_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]| {
                        let mut i = 0;
                        $(let $arg = <$t as Scalar>::from_bits(a[{ i += 1; i - 1 }]);)+
                        let _ = i;
                        o[0] = Scalar::to_bits($model($($arg),+))
                    }),
                    sim_warp: None,
                    reg: None,
                };
                pub static SPEC: IntrinsicSpec = IntrinsicSpec {
                    name: stringify!($name),
                    lowering: Lowering::Scalar(&ENTRY),
                    entries: || core::slice::from_ref(&ENTRY),
                };
                pub fn __fc_callable() -> Callable {
                    Callable::Intrinsic(&SPEC)
                }
            }
        )*
        /// This module's functions, for the intrinsic table.
        pub(crate) static SPECS: &[&kernel_ir::ast::IntrinsicSpec] = &[$(&$name::SPEC),*];
    };
}

approx! {
    /// `2^x`, `ex2.approx.f32`: subnormal results kept (MUFU.EX2 plus the assembler's scaling).
    ex2(x: f32) -> f32 = "approx_ex2.f32", "ex2.approx.f32 {d0}, {a0}", model::ex2;
    /// `2^x`, `ex2.approx.ftz.f32`: one MUFU.EX2; subnormal inputs and results are zero.
    ex2_ftz(x: f32) -> f32 = "approx_ex2_ftz.f32", "ex2.approx.ftz.f32 {d0}, {a0}", model::ex2_ftz;
    /// `log2 x`, `lg2.approx.ftz.f32`: one MUFU.LG2 (absolute error about 2^-22).
    lg2_ftz(x: f32) -> f32 = "approx_lg2_ftz.f32", "lg2.approx.ftz.f32 {d0}, {a0}", model::lg2_ftz;
    /// `1/sqrt(x)`, `rsqrt.approx.f32`: MUFU.RSQ (CUDA's `rsqrtf`), subnormal inputs scaled.
    rsqrt_approx(x: f32) -> f32 = "approx_rsqrt.f32", "rsqrt.approx.f32 {d0}, {a0}", model::rsqrt;
    /// `1/sqrt(x)`, `rsqrt.approx.ftz.f32`: one MUFU.RSQ, subnormal inputs read as zero (for
    /// arguments known to be normal or zero).
    rsqrt_ftz(x: f32) -> f32 = "approx_rsqrt_ftz.f32", "rsqrt.approx.ftz.f32 {d0}, {a0}", model::rsqrt_ftz;
    /// `1/x`, `rcp.approx.ftz.f32`: one MUFU.RCP (about 1 ulp).
    rcp_ftz(x: f32) -> f32 = "approx_rcp_ftz.f32", "rcp.approx.ftz.f32 {d0}, {a0}", model::rcp_ftz;
    /// `a + b` rounded toward zero (`add.rz.f32`, exact; CUDA's `__fadd_rz`): `log1p`'s exponent
    /// of `1 + x`.
    fadd_rz(a: f32, b: f32) -> f32 = "approx_add_rz.f32", "add.rz.f32 {d0}, {a0}, {a1}", model::fadd_rz;
    /// `fma(a, b, c)` rounded down (`fma.rm.f32`, exact; CUDA's `__fmaf_rd`): the exp
    /// family's exponent, as an entry here so that the host twins (unit tests) compute it.
    fmaf_rd(a: f32, b: f32, c: f32) -> f32 = "approx_fma_rd.f32", "fma.rm.f32 {d0}, {a0}, {a1}, {a2}", model::fma_rd;
    /// Nearest integer, ties to even (`cvt.rni.f32.f32`, exact).
    rni_f32(x: f32) -> f32 = "rint.f32", "cvt.rni.f32.f32 {d0}, {a0}", model::rint;
    /// Nearest integer as an `i32` (its bits), ties to even, saturated, NaN to 0:
    /// `cvt.rni.s32.f32` (one F2I; CUDA's `__float2int_rn`). Unlike `as i32`, which adds
    /// a NaN test and a select to give Rust's result, the hardware's own saturation is kept.
    f2i_rn(x: f32) -> u32 = "f2i_rn.f32", "cvt.rni.s32.f32 {d0}, {a0}", model::f2i_rn;
    /// Nearest integer, ties to even (`cvt.rni.f64.f64`, exact): C's `rint`.
    rni_f64(x: f64) -> f64 = "rint.f64", "cvt.rni.f64.f64 {d0}, {a0}", model::rint64;
    /// Nearest integer as an `i64`, ties to even, saturated, NaN to 0: `cvt.rni.s64.f32`
    /// (CUDA's `__float2ll_rn`, C's `llrintf`).
    f2ll_rn(x: f32) -> i64 = "f2ll_rn.f32", "cvt.rni.s64.f32 {d0}, {a0}", model::f2ll_rn;
    /// As `f2ll_rn` from f64: `cvt.rni.s64.f64` (`__double2ll_rn`, C's `llrint`).
    d2ll_rn(x: f64) -> i64 = "d2ll_rn.f64", "cvt.rni.s64.f64 {d0}, {a0}", model::d2ll_rn;
    /// `fma(a, b, c)` clamped to `[0, 1]` (NaN to `+0`): `fma.rn.sat.f32`, exact.
    fma_sat(a: f32, b: f32, c: f32) -> f32 = "fma_sat.f32", "fma.rn.sat.f32 {d0}, {a0}, {a1}, {a2}", model::fma_sat;
    /// `if c { a } else { b }` of two computed values: one `selp.f32` (FSEL), never a branch,
    /// for the math library's branch-free paths (an `if` lowers to a branch).
    select(c: bool, a: f32, b: f32) -> f32 = "select.f32", "selp.f32 {d0}, {a1}, {a2}, {a0}", model::select;
    /// `if c { a } else { b }` for `u32`: one `selp.b32` (SEL).
    select_u32(c: bool, a: u32, b: u32) -> u32 = "select.u32", "selp.b32 {d0}, {a1}, {a2}, {a0}", model::select_u32;
}
