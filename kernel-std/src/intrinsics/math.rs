//! Math (CUDA C Programming Guide B.7 and Appendix E): the free functions of CUDA's names that
//! Rust lacks, and the entries of the operations one PTX instruction computes.
//!
//! Functions Rust's `f32`/`f64` already have are used as methods, with Rust's names and argument
//! order: `x.sin()`, `x.sin_cos()`, `y.atan2(x)`, `x.powf(y)`, `x.powi(n)`, `x.hypot(y)`,
//! `x.exp()`, `x.exp_m1()`, `x.ln()`, `x.ln_1p()`, `x.cbrt()`, `x.copysign(y)`, `x.mul_add(y, z)`,
//! `x % y`... The free functions below take `f32` or `f64` (the math library, `crate::math`,
//! picks the implementation per type), the `fast_*` ones `f32` only. Accuracy: `docs/math-ulp.md`.
//!
//! The entries: floating-point math with a single PTX instruction (B.7, Appendix E.2): `fma`,
//! arithmetic and square root / reciprocal with an explicit rounding mode (`__fadd_rz`...), and
//! CUDA's fast `.approx` intrinsics (`__sinf`, `__expf`, `__logf`, `__fdividef`, `__powf`).
//! Everything else of the math library is written in the kernel DSL (`crate::math`).
//!
//! Simulator semantics: the rounding-mode entries are exact (the round-to-nearest result is
//! nudged one ulp by the sign of the exact residual, computed with `fma`/two-sum, which is exact
//! except when that residual itself underflows). The `.approx` entries are implementation-defined
//! on the GPU (PTX ISA: `sin.approx.f32` max absolute error 2^-20.5 on [-pi, pi], `ex2.approx.f32`
//! and `lg2.approx.f32` about 2 ulp / 2^-22 absolute); the simulator models them by the correctly
//! rounded function of the same argument (the GPU result lies within those bounds of it), so
//! simulator and GPU may differ in the last bits of these six functions only. The same holds
//! for the `approx_*` entries the f32 math library is built on (`ex2`, `lg2`, `rsqrt`, `rcp`,
//! declared in `crate::math::approx`, which the table lists as a block of its own).

use super::rounding::{add32, add64, div32, div64, fma32, fma64, mul32, mul64, sqrt32, sqrt64};
use super::{Class, IntrinsicDef, IntrinsicSpec, Lowering, MathFn, MathImpl, SimEnv};
use crate::math::{f32_all, f32_cr, f64_all};
use crate::types::Float;
use kernel_ir::ir::Ty;

fn f32a(a: &[u64], i: usize) -> f32 {
    f32::from_bits(a[i] as u32)
}
fn f64a(a: &[u64], i: usize) -> f64 {
    f64::from_bits(a[i])
}
fn put32(o: &mut [u64], v: f32) {
    o[0] = v.to_bits() as u64;
}
fn put64(o: &mut [u64], v: f64) {
    o[0] = v.to_bits();
}

// Rust has no identifier concatenation on stable without a crate, so the per-mode functions are
// spelled out through a const-generic helper instead.
fn sim_bin32<const OP: u8, const M: u8>(_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    let (x, y) = (f32a(a, 0), f32a(a, 1));
    put32(
        o,
        match OP {
            0 => add32(x, y, M),
            1 => add32(x, -y, M),
            2 => mul32(x, y, M),
            _ => div32(x, y, M),
        },
    );
}
fn sim_bin64<const OP: u8, const M: u8>(_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    let (x, y) = (f64a(a, 0), f64a(a, 1));
    put64(
        o,
        match OP {
            0 => add64(x, y, M),
            1 => add64(x, -y, M),
            2 => mul64(x, y, M),
            _ => div64(x, y, M),
        },
    );
}
fn sim_un32<const OP: u8, const M: u8>(_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    let x = f32a(a, 0);
    put32(
        o,
        if OP == 0 {
            sqrt32(x, M)
        } else {
            div32(1.0, x, M)
        },
    );
}
fn sim_un64<const OP: u8, const M: u8>(_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    let x = f64a(a, 0);
    put64(
        o,
        if OP == 0 {
            sqrt64(x, M)
        } else {
            div64(1.0, x, M)
        },
    );
}
fn sim_fma32<const M: u8>(_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    put32(o, fma32(f32a(a, 0), f32a(a, 1), f32a(a, 2), M));
}
fn sim_fma64<const M: u8>(_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    put64(o, fma64(f64a(a, 0), f64a(a, 1), f64a(a, 2), M));
}

macro_rules! sims {
    ($($name:ident => |$a:ident, $o:ident| $body:expr;)*) => {$(
        fn $name(_: &mut dyn SimEnv, $a: &[u64], $o: &mut [u64]) { $body }
    )*};
}

sims! {
    sim_fast_sin => |a, o| put32(o, (f32a(a, 0) as f64).sin() as f32);
    sim_fast_cos => |a, o| put32(o, (f32a(a, 0) as f64).cos() as f32);
    sim_fast_exp => |a, o| put32(o, (f32a(a, 0) * std::f32::consts::LOG2_E).exp2());
    sim_fast_log => |a, o| put32(o, ((f32a(a, 0) as f64).log2() as f32) * std::f32::consts::LN_2);
    sim_fast_div => |a, o| put32(o, fdividef(f32a(a, 0), f32a(a, 1)));
    sim_fast_tan => |a, o| {
        let x = f32a(a, 0) as f64;
        put32(o, fdividef(x.sin() as f32, x.cos() as f32))
    };
 sim_fast_sincos => |a, o| {
        let x = f32a(a, 0) as f64;
        o[0] = (x.sin() as f32).to_bits() as u64;
        o[1] = (x.cos() as f32).to_bits() as u64;
    };
    sim_fast_log2 => |a, o| put32(o, (f32a(a, 0) as f64).log2() as f32);
    sim_fast_log10 => |a, o| {
        let l = (f32a(a, 0) as f64).log2() as f32;
        put32(o, l.mul_add(LOG10_2, l * LOG10_2_LO))
    };
    sim_fast_exp10 => |a, o| {
        let x = f32a(a, 0);
        put32(o, (x.mul_add(LOG2_10, x * LOG2_10_LO) as f64).exp2() as f32)
    };
    sim_fast_pow => |a, o| {
        let l = (f32a(a, 0) as f64).log2() as f32;
        put32(o, ((l * f32a(a, 1)) as f64).exp2() as f32)
    };
}

/// `log10(2)` and `log2(10)` rounded to f32: `0f3E9A209B` and `0f40549A78` in the PTX of
/// `fast_log10` and `fast_exp10` (the unit test `fast_constants_are_the_ptx_ones` checks).
const LOG10_2: f32 = std::f32::consts::LOG10_2;
const LOG2_10: f32 = std::f32::consts::LOG2_10;
/// `log10(2) - LOG10_2` (`0fB2760860`): `fast_log10` adds `lg2.approx(x)` times it (the
/// constant's rounding, 2^-24.3 relative, is a fifth of its absolute bound near x = 0.55).
const LOG10_2_LO: f32 = -1.432_098_9e-8;
/// `log2(10) - LOG2_10` (`0f33979A37`): `fast_exp10` adds `x` times it, because the rounding of
/// the constant alone (2^-25.5 relative) takes nvcc's two-instruction `__exp10f` past Table 9's
/// `2 + floor(|2.95 x|)` ulp (60 ulp at `x = -19.567`, allowed 59).
const LOG2_10_LO: f32 = 7.059537e-8;

#[cfg(test)]
#[test]
fn fast_constants_are_the_ptx_ones() {
    assert_eq!(LOG10_2.to_bits(), 0x3E9A_209B);
    assert_eq!(LOG2_10.to_bits(), 0x4054_9A78);
    assert_eq!(LOG2_10_LO.to_bits(), 0x3397_9A37);
    assert_eq!(LOG10_2_LO.to_bits(), 0xB276_0860);
}

/// `__fdividef`: for `2^126 < |y| < 2^128` the GPU's reciprocal flushes to zero (Table 9).
fn fdividef(x: f32, y: f32) -> f32 {
    if y.abs() > 8.507059e37 && y.is_finite() {
        return x * 0.0;
    }
    ((x as f64) / (y as f64)) as f32
}

const F32: Ty = Ty::F32;
const F64: Ty = Ty::F64;

macro_rules! entry {
    ($name:expr, [$($arg:expr),*], $ty:expr, $ptx:expr, $sim:expr) => {
        IntrinsicDef {
            name: $name,
            args: &[$($arg),*],
            rets: &[$ty],
            min_sm: 70,
            ptx: $ptx,
            class: Class::Pure,
            sim: Some($sim),
            sim_warp: None,
            reg: None,
        }
    };
}

/// The f32 and f64 entries (`add_rz.f32`, `add_rz.f64`) of a binary operation (`OP` of
/// `sim_bin32`) in one rounding mode (`M`); `$ptx` is the instruction without its type.
macro_rules! binary {
    ($name:literal, $ptx:literal, $op:expr, $m:expr) => {
        [
            entry!(
                concat!($name, ".f32"),
                [F32, F32],
                F32,
                concat!($ptx, ".f32 {d0}, {a0}, {a1}"),
                sim_bin32::<$op, $m>
            ),
            entry!(
                concat!($name, ".f64"),
                [F64, F64],
                F64,
                concat!($ptx, ".f64 {d0}, {a0}, {a1}"),
                sim_bin64::<$op, $m>
            ),
        ]
    };
}

/// As `binary`, for square root (`OP` 0) and reciprocal (1).
macro_rules! unary {
    ($name:literal, $ptx:literal, $op:expr, $m:expr) => {
        [
            entry!(
                concat!($name, ".f32"),
                [F32],
                F32,
                concat!($ptx, ".f32 {d0}, {a0}"),
                sim_un32::<$op, $m>
            ),
            entry!(
                concat!($name, ".f64"),
                [F64],
                F64,
                concat!($ptx, ".f64 {d0}, {a0}"),
                sim_un64::<$op, $m>
            ),
        ]
    };
}

/// As `binary`, for `fma`.
macro_rules! fused {
    ($name:literal, $ptx:literal, $m:expr) => {
        [
            entry!(
                concat!($name, ".f32"),
                [F32, F32, F32],
                F32,
                concat!($ptx, ".f32 {d0}, {a0}, {a1}, {a2}"),
                sim_fma32::<$m>
            ),
            entry!(
                concat!($name, ".f64"),
                [F64, F64, F64],
                F64,
                concat!($ptx, ".f64 {d0}, {a0}, {a1}, {a2}"),
                sim_fma64::<$m>
            ),
        ]
    };
}

intrinsics! {
    table TABLE;

    /// `rsqrt(x)`: `1 / sqrt(x)`.
    pub fn rsqrt<T: Float>(x: T) -> T = math(f32 = f32_all::rsqrt, f64 = f64_all::rsqrt);
    /// `exp10(x)`: `10^x`.
    pub fn exp10<T: Float>(x: T) -> T = math(f32 = f32_all::exp10, f64 = f64_all::exp10);
    /// `expm1(x)`: `e^x - 1` (also `x.exp_m1()`).
    pub fn expm1<T: Float>(x: T) -> T = math(f32 = f32_all::expm1, f64 = f64_all::expm1);
    /// `log1p(x)`: `ln(1 + x)` (also `x.ln_1p()`).
    pub fn log1p<T: Float>(x: T) -> T = math(f32 = f32_all::ln_1p, f64 = f64_all::ln_1p);
    /// `sinpi(x)`: `sin(pi * x)` without the rounding of `pi * x`.
    pub fn sinpi<T: Float>(x: T) -> T = math(f32 = f32_all::sinpi, f64 = f64_all::sinpi);
    /// `cospi(x)`: `cos(pi * x)`.
    pub fn cospi<T: Float>(x: T) -> T = math(f32 = f32_all::cospi, f64 = f64_all::cospi);
    /// `erf(x)`: the error function.
    pub fn erf<T: Float>(x: T) -> T = math(f32 = f32_all::erf, f64 = f64_all::erf);
    /// `erfc(x)`: `1 - erf(x)` without cancellation.
    pub fn erfc<T: Float>(x: T) -> T = math(f32 = f32_all::erfc, f64 = f64_all::erfc);
    /// `erfinv(x)`: the inverse error function on `(-1, 1)` (`±inf` at `±1`).
    pub fn erfinv<T: Float>(x: T) -> T = math(f32 = f32_all::erfinv, f64 = f64_all::erfinv);
    /// `erfcinv(q)`: the inverse complementary error function on `(0, 2)` (`+inf` at 0, `-inf`
    /// at 2).
    pub fn erfcinv<T: Float>(x: T) -> T = math(f32 = f32_all::erfcinv, f64 = f64_all::erfcinv);
    /// `normcdfinv(p)`: the inverse standard normal distribution function on `(0, 1)`.
    pub fn normcdfinv<T: Float>(x: T) -> T = math(f32 = f32_all::normcdfinv, f64 = f64_all::normcdfinv);
    /// `erfcx(x)`: the scaled complementary error function `e^(x^2) erfc(x)`, finite (and
    /// accurate) for large `x` where `erfc` underflows.
    pub fn erfcx<T: Float>(x: T) -> T = math(f32 = f32_all::erfcx, f64 = f64_all::erfcx);
    /// `normcdf(x)`: the standard normal distribution function `erfc(-x / sqrt 2) / 2`, with
    /// relative accuracy in the lower tail.
    pub fn normcdf<T: Float>(x: T) -> T = math(f32 = f32_all::normcdf, f64 = f64_all::normcdf);
    /// `cyl_bessel_i0(x)`: the modified Bessel function of the first kind of order 0.
    pub fn cyl_bessel_i0<T: Float>(x: T) -> T = math(f32 = f32_all::cyl_bessel_i0, f64 = f64_all::cyl_bessel_i0);
    /// `cyl_bessel_i1(x)`: the modified Bessel function of the first kind of order 1.
    pub fn cyl_bessel_i1<T: Float>(x: T) -> T = math(f32 = f32_all::cyl_bessel_i1, f64 = f64_all::cyl_bessel_i1);
    /// `j0(x)`: the Bessel function of the first kind of order 0 (CUDA's `j0f`, `j0`).
    pub fn j0<T: Float>(x: T) -> T = math(f32 = f32_all::j0, f64 = f64_all::j0);
    /// `j1(x)`: the Bessel function of the first kind of order 1.
    pub fn j1<T: Float>(x: T) -> T = math(f32 = f32_all::j1, f64 = f64_all::j1);
    /// `jn(n, x)`: the Bessel function of the first kind of order `n` (C's argument order).
    pub fn jn<T: Float>(n: i32, x: T) -> T = math(f32 = f32_all::jn, f64 = f64_all::jn);
    /// `y0(x)`: the Bessel function of the second kind of order 0 (NaN for `x < 0`).
    pub fn y0<T: Float>(x: T) -> T = math(f32 = f32_all::y0, f64 = f64_all::y0);
    /// `y1(x)`: the Bessel function of the second kind of order 1.
    pub fn y1<T: Float>(x: T) -> T = math(f32 = f32_all::y1, f64 = f64_all::y1);
    /// `yn(n, x)`: the Bessel function of the second kind of order `n`.
    pub fn yn<T: Float>(n: i32, x: T) -> T = math(f32 = f32_all::yn, f64 = f64_all::yn);
    /// `lgamma(x)`: `ln |Gamma(x)|`.
    pub fn lgamma<T: Float>(x: T) -> T = math(f32 = f32_all::lgamma, f64 = f64_all::lgamma);
    /// `tgamma(x)`: `Gamma(x)`.
    pub fn tgamma<T: Float>(x: T) -> T = math(f32 = f32_all::tgamma, f64 = f64_all::tgamma);
    /// `fmod(x, y)`: C's `fmod`, the same as Rust's `x % y`.
    pub fn fmod<T: Float>(x: T, y: T) -> T = math(f32 = f32_all::fmod, f64 = f64_all::fmod);
    /// `rhypot(x, y)`: `1 / sqrt(x^2 + y^2)` without overflow or underflow.
    pub fn rhypot<T: Float>(x: T, y: T) -> T = math(f32 = f32_all::rhypot, f64 = f64_all::rhypot);
    /// `norm3d(a, b, c)`: `sqrt(a^2 + b^2 + c^2)` without overflow or underflow.
    pub fn norm3d<T: Float>(a: T, b: T, c: T) -> T = math(f32 = f32_all::norm3d, f64 = f64_all::norm3d);
    /// `rnorm3d(a, b, c)`: `1 / sqrt(a^2 + b^2 + c^2)`.
    pub fn rnorm3d<T: Float>(a: T, b: T, c: T) -> T = math(f32 = f32_all::rnorm3d, f64 = f64_all::rnorm3d);
    /// `norm4d(a, b, c, d)`: `sqrt(a^2 + b^2 + c^2 + d^2)` without overflow or underflow.
    pub fn norm4d<T: Float>(a: T, b: T, c: T, d: T) -> T = math(f32 = f32_all::norm4d, f64 = f64_all::norm4d);
    /// `rnorm4d(a, b, c, d)`: `1 / sqrt(a^2 + b^2 + c^2 + d^2)`.
    pub fn rnorm4d<T: Float>(a: T, b: T, c: T, d: T) -> T = math(f32 = f32_all::rnorm4d, f64 = f64_all::rnorm4d);
    /// `rcbrt(x)`: `x^(-1/3)`, `1 / cbrt(x)` rounded once.
    pub fn rcbrt<T: Float>(x: T) -> T = math(f32 = f32_all::rcbrt, f64 = f64_all::rcbrt);
    /// `frexp(x)`: `(m, e)` with `x = m 2^e` and `|m|` in `[0.5, 1)` (C's `frexp` returns `m` and
    /// stores `e`); `(x, 0)` for zeros, infinities and NaN.
    pub fn frexp<T: Float>(x: T) -> (T, i32) = math(results = 2, f32 = f32_all::frexp, f64 = f64_all::frexp);
    /// `ldexp(x, n)`: `x 2^n`, rounded once.
    pub fn ldexp<T: Float>(x: T, n: i32) -> T = math(f32 = f32_all::ldexp, f64 = f64_all::ldexp);
    /// `scalbn(x, n)`: `x 2^n` (the same as `ldexp`).
    pub fn scalbn<T: Float>(x: T, n: i32) -> T = math(f32 = f32_all::scalbn, f64 = f64_all::scalbn);
    /// `logb(x)`: the unbiased exponent of `x` as a float (`-inf` for 0, `+inf` for `±inf`).
    pub fn logb<T: Float>(x: T) -> T = math(f32 = f32_all::logb, f64 = f64_all::logb);
    /// `ilogb(x)`: the unbiased exponent of `x` (`i32::MIN` for 0 and NaN, `i32::MAX` for `±inf`).
    pub fn ilogb<T: Float>(x: T) -> i32 = math(f32 = f32_all::ilogb, f64 = f64_all::ilogb);
    /// `scalbln(x, n)`: `x 2^n` rounded once, with C's `long` (`i64`) exponent.
    pub fn scalbln<T: Float>(x: T, n: i64) -> T = math(f32 = f32_all::scalblnf, f64 = f64_all::scalbln);
    /// `rint(x)`: the nearest integer, ties to even (also `x.round_ties_even()` in Rust).
    pub fn rint<T: Float>(x: T) -> T = math(f32 = f32_all::rintf, f64 = f64_all::rint);
    /// `nearbyint(x)`: the same as `rint`.
    pub fn nearbyint<T: Float>(x: T) -> T = math(f32 = f32_all::nearbyintf, f64 = f64_all::nearbyint);
    /// `lrint(x)`: the nearest integer, ties to even, as C's `long` (`i64`); saturated, NaN
    /// gives 0 (C leaves those unspecified).
    pub fn lrint<T: Float>(x: T) -> i64 = math(f32 = f32_all::lrintf, f64 = f64_all::lrint);
    /// `llrint(x)`: the same as `lrint` (`long long`).
    pub fn llrint<T: Float>(x: T) -> i64 = math(f32 = f32_all::llrintf, f64 = f64_all::llrint);
    /// `lround(x)`: the nearest integer, halfway cases away from zero, as `i64`; saturated,
    /// NaN gives 0.
    pub fn lround<T: Float>(x: T) -> i64 = math(f32 = f32_all::lroundf, f64 = f64_all::lround);
    /// `llround(x)`: the same as `lround`.
    pub fn llround<T: Float>(x: T) -> i64 = math(f32 = f32_all::llroundf, f64 = f64_all::llround);
    /// `fdim(x, y)`: `x - y` if `x > y`, else `+0`.
    pub fn fdim<T: Float>(x: T, y: T) -> T = math(f32 = f32_all::fdim, f64 = f64_all::fdim);
    /// `nextafter(x, y)`: the next representable value after `x` toward `y`.
    pub fn nextafter<T: Float>(x: T, y: T) -> T = math(f32 = f32_all::nextafter, f64 = f64_all::nextafter);
    /// `remainder(x, y)`: `x - n y` with `n` the integer nearest `x / y` (ties to even), exact.
    pub fn remainder<T: Float>(x: T, y: T) -> T = math(f32 = f32_all::remainder, f64 = f64_all::remainder);
    /// `remquo(x, y)`: `(remainder(x, y), q)`, `q` the low three bits of the quotient with the
    /// sign of `x / y` (C's `remquo` stores `q`).
    pub fn remquo<T: Float>(x: T, y: T) -> (T, i32) = math(results = 2, f32 = f32_all::remquo, f64 = f64_all::remquo);
    /// `modf(x)`: `(fractional part, integral part)`, both with `x`'s sign (C's `modf` returns
    /// the first and stores the second).
    pub fn modf<T: Float>(x: T) -> (T, T) = math(results = 2, f32 = f32_all::modf, f64 = f64_all::modf);
    /// `fma(x, y, z)`: `x * y + z` rounded once (also `x.mul_add(y, z)`).
    pub fn fma<T: Float>(x: T, y: T, z: T) -> T =
        math(entries = fused!("fma", "fma.rn", 0), f32 = [0], f64 = [1]);
    /// `__fadd_rn` / `__dadd_rn`: addition rounded to nearest even, never contracted into an fma.
    pub fn add_rn<T: Float>(x: T, y: T) -> T =
        math(entries = binary!("add_rn", "add.rn", 0, 0), f32 = [0], f64 = [1]);
    /// Addition rounded toward zero.
    pub fn add_rz<T: Float>(x: T, y: T) -> T =
        math(entries = binary!("add_rz", "add.rz", 0, 1), f32 = [0], f64 = [1]);
    /// Addition rounded up (toward +inf).
    pub fn add_ru<T: Float>(x: T, y: T) -> T =
        math(entries = binary!("add_ru", "add.rp", 0, 2), f32 = [0], f64 = [1]);
    /// Addition rounded down (toward -inf).
    pub fn add_rd<T: Float>(x: T, y: T) -> T =
        math(entries = binary!("add_rd", "add.rm", 0, 3), f32 = [0], f64 = [1]);
    /// Subtraction rounded to nearest even.
    pub fn sub_rn<T: Float>(x: T, y: T) -> T =
        math(entries = binary!("sub_rn", "sub.rn", 1, 0), f32 = [0], f64 = [1]);
    /// Subtraction rounded toward zero.
    pub fn sub_rz<T: Float>(x: T, y: T) -> T =
        math(entries = binary!("sub_rz", "sub.rz", 1, 1), f32 = [0], f64 = [1]);
    /// Subtraction rounded up.
    pub fn sub_ru<T: Float>(x: T, y: T) -> T =
        math(entries = binary!("sub_ru", "sub.rp", 1, 2), f32 = [0], f64 = [1]);
    /// Subtraction rounded down.
    pub fn sub_rd<T: Float>(x: T, y: T) -> T =
        math(entries = binary!("sub_rd", "sub.rm", 1, 3), f32 = [0], f64 = [1]);
    /// Multiplication rounded to nearest even, never contracted into an fma.
    pub fn mul_rn<T: Float>(x: T, y: T) -> T =
        math(entries = binary!("mul_rn", "mul.rn", 2, 0), f32 = [0], f64 = [1]);
    /// Multiplication rounded toward zero.
    pub fn mul_rz<T: Float>(x: T, y: T) -> T =
        math(entries = binary!("mul_rz", "mul.rz", 2, 1), f32 = [0], f64 = [1]);
    /// Multiplication rounded up.
    pub fn mul_ru<T: Float>(x: T, y: T) -> T =
        math(entries = binary!("mul_ru", "mul.rp", 2, 2), f32 = [0], f64 = [1]);
    /// Multiplication rounded down.
    pub fn mul_rd<T: Float>(x: T, y: T) -> T =
        math(entries = binary!("mul_rd", "mul.rm", 2, 3), f32 = [0], f64 = [1]);
    /// Division rounded to nearest even (what `/` does).
    pub fn div_rn<T: Float>(x: T, y: T) -> T =
        math(entries = binary!("div_rn", "div.rn", 3, 0), f32 = [0], f64 = [1]);
    /// Division rounded toward zero.
    pub fn div_rz<T: Float>(x: T, y: T) -> T =
        math(entries = binary!("div_rz", "div.rz", 3, 1), f32 = [0], f64 = [1]);
    /// Division rounded up.
    pub fn div_ru<T: Float>(x: T, y: T) -> T =
        math(entries = binary!("div_ru", "div.rp", 3, 2), f32 = [0], f64 = [1]);
    /// Division rounded down.
    pub fn div_rd<T: Float>(x: T, y: T) -> T =
        math(entries = binary!("div_rd", "div.rm", 3, 3), f32 = [0], f64 = [1]);
    /// `fma` rounded to nearest even.
    pub fn fma_rn<T: Float>(x: T, y: T, z: T) -> T =
        math(entries = fused!("fma_rn", "fma.rn", 0), f32 = [0], f64 = [1]);
    /// `fma` rounded toward zero.
    pub fn fma_rz<T: Float>(x: T, y: T, z: T) -> T =
        math(entries = fused!("fma_rz", "fma.rz", 1), f32 = [0], f64 = [1]);
    /// `fma` rounded up.
    pub fn fma_ru<T: Float>(x: T, y: T, z: T) -> T =
        math(entries = fused!("fma_ru", "fma.rp", 2), f32 = [0], f64 = [1]);
    /// `fma` rounded down.
    pub fn fma_rd<T: Float>(x: T, y: T, z: T) -> T =
        math(entries = fused!("fma_rd", "fma.rm", 3), f32 = [0], f64 = [1]);
    /// Square root rounded to nearest even (what `x.sqrt()` does).
    pub fn sqrt_rn<T: Float>(x: T) -> T =
        math(entries = unary!("sqrt_rn", "sqrt.rn", 0, 0), f32 = [0], f64 = [1]);
    /// Square root rounded toward zero.
    pub fn sqrt_rz<T: Float>(x: T) -> T =
        math(entries = unary!("sqrt_rz", "sqrt.rz", 0, 1), f32 = [0], f64 = [1]);
    /// Square root rounded up.
    pub fn sqrt_ru<T: Float>(x: T) -> T =
        math(entries = unary!("sqrt_ru", "sqrt.rp", 0, 2), f32 = [0], f64 = [1]);
    /// Square root rounded down.
    pub fn sqrt_rd<T: Float>(x: T) -> T =
        math(entries = unary!("sqrt_rd", "sqrt.rm", 0, 3), f32 = [0], f64 = [1]);
    /// `1 / x` rounded to nearest even.
    pub fn rcp_rn<T: Float>(x: T) -> T =
        math(entries = unary!("rcp_rn", "rcp.rn", 1, 0), f32 = [0], f64 = [1]);
    /// `1 / x` rounded toward zero.
    pub fn rcp_rz<T: Float>(x: T) -> T =
        math(entries = unary!("rcp_rz", "rcp.rz", 1, 1), f32 = [0], f64 = [1]);
    /// `1 / x` rounded up.
    pub fn rcp_ru<T: Float>(x: T) -> T =
        math(entries = unary!("rcp_ru", "rcp.rp", 1, 2), f32 = [0], f64 = [1]);
    /// `1 / x` rounded down.
    pub fn rcp_rd<T: Float>(x: T) -> T =
        math(entries = unary!("rcp_rd", "rcp.rm", 1, 3), f32 = [0], f64 = [1]);
    /// `sincos(x)`: `(sin x, cos x)` (also `x.sin_cos()`).
    pub fn sincos<T: Float>(x: T) -> (T, T) = math(results = 2, f32 = f32_all::sincos, f64 = f64_all::sincos);
    /// `sincospi(x)`: `(sin(pi x), cos(pi x))`.
    pub fn sincospi<T: Float>(x: T) -> (T, T) = math(results = 2, f32 = f32_all::sincospi, f64 = f64_all::sincospi);
    /// `1/sqrt(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn rsqrt_cr(x: f32) -> f32 = math(f32 = f32_cr::rsqrt);
    /// `cbrt(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn cbrt_cr(x: f32) -> f32 = math(f32 = f32_cr::cbrt);
    /// `e^x` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn exp_cr(x: f32) -> f32 = math(f32 = f32_cr::exp);
    /// `2^x` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn exp2_cr(x: f32) -> f32 = math(f32 = f32_cr::exp2);
    /// `10^x` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn exp10_cr(x: f32) -> f32 = math(f32 = f32_cr::exp10);
    /// `e^x - 1` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn expm1_cr(x: f32) -> f32 = math(f32 = f32_cr::expm1);
    /// `ln(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn log_cr(x: f32) -> f32 = math(f32 = f32_cr::ln);
    /// `log2(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn log2_cr(x: f32) -> f32 = math(f32 = f32_cr::log2);
    /// `log10(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn log10_cr(x: f32) -> f32 = math(f32 = f32_cr::log10);
    /// `ln(1 + x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn log1p_cr(x: f32) -> f32 = math(f32 = f32_cr::ln_1p);
    /// `sin(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn sin_cr(x: f32) -> f32 = math(f32 = f32_cr::sin);
    /// `cos(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn cos_cr(x: f32) -> f32 = math(f32 = f32_cr::cos);
    /// `tan(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn tan_cr(x: f32) -> f32 = math(f32 = f32_cr::tan);
    /// `sin(pi x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn sinpi_cr(x: f32) -> f32 = math(f32 = f32_cr::sinpi);
    /// `cos(pi x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn cospi_cr(x: f32) -> f32 = math(f32 = f32_cr::cospi);
    /// `asin(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn asin_cr(x: f32) -> f32 = math(f32 = f32_cr::asin);
    /// `acos(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn acos_cr(x: f32) -> f32 = math(f32 = f32_cr::acos);
    /// `atan(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn atan_cr(x: f32) -> f32 = math(f32 = f32_cr::atan);
    /// `sinh(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn sinh_cr(x: f32) -> f32 = math(f32 = f32_cr::sinh);
    /// `cosh(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn cosh_cr(x: f32) -> f32 = math(f32 = f32_cr::cosh);
    /// `tanh(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn tanh_cr(x: f32) -> f32 = math(f32 = f32_cr::tanh);
    /// `asinh(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn asinh_cr(x: f32) -> f32 = math(f32 = f32_cr::asinh);
    /// `acosh(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn acosh_cr(x: f32) -> f32 = math(f32 = f32_cr::acosh);
    /// `atanh(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn atanh_cr(x: f32) -> f32 = math(f32 = f32_cr::atanh);
    /// `erf(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn erf_cr(x: f32) -> f32 = math(f32 = f32_cr::erf);
    /// `erfc(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn erfc_cr(x: f32) -> f32 = math(f32 = f32_cr::erfc);
    /// `lgamma(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn lgamma_cr(x: f32) -> f32 = math(f32 = f32_cr::lgamma);
    /// `tgamma(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn tgamma_cr(x: f32) -> f32 = math(f32 = f32_cr::tgamma);
    /// `atan2(y, x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn atan2_cr(y: f32, x: f32) -> f32 = math(f32 = f32_cr::atan2);
    /// `x^y` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn powf_cr(x: f32, y: f32) -> f32 = math(f32 = f32_cr::powf);
    /// `sqrt(x^2 + y^2)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn hypot_cr(x: f32, y: f32) -> f32 = math(f32 = f32_cr::hypot);
    /// `(sin x, cos x)` correctly rounded (f32 only; see `sin_cr`).
    pub fn sincos_cr(x: f32) -> (f32, f32) = math(results = 2, f32 = f32_cr::sincos);
    /// `(sin(pi x), cos(pi x))` correctly rounded (f32 only; see `sin_cr`).
    pub fn sincospi_cr(x: f32) -> (f32, f32) = math(results = 2, f32 = f32_cr::sincospi);
    /// `__sinf(x)`: `sin.approx.f32`; absolute error 2^-21.41 on [-pi, pi], larger outside.
    pub fn fast_sin(x: f32) -> f32 = pure(70, "sin.approx.f32 {d0}, {a0}", sim_fast_sin);
    /// `__cosf(x)`: `cos.approx.f32`; absolute error 2^-21.19 on [-pi, pi], larger outside.
    pub fn fast_cos(x: f32) -> f32 = pure(70, "cos.approx.f32 {d0}, {a0}", sim_fast_cos);
    /// `__expf(x)`: `ex2.approx(x * log2 e)`; `2 + floor(|1.16 x|)` ulp.
    pub fn fast_exp(x: f32) -> f32 =
        pure(70, "mul.rn.f32 {d0}, {a0}, 0f3FB8AA3B; ex2.approx.f32 {d0}, {d0}", sim_fast_exp);
    /// `__logf(x)`: `lg2.approx(x) * ln 2`; absolute error 2^-21.41 on [0.5, 2], else 3 ulp.
    pub fn fast_log(x: f32) -> f32 =
        pure(70, "lg2.approx.f32 {d0}, {a0}; mul.rn.f32 {d0}, {d0}, 0f3F317218", sim_fast_log);
    /// `__fdividef(x, y)`: `div.approx.f32`; 2 ulp for `|y|` in [2^-126, 2^126], 0 beyond 2^126.
    pub fn fast_div(x: f32, y: f32) -> f32 =
        pure(70, "div.approx.f32 {d0}, {a0}, {a1}", sim_fast_div);
    /// `__tanf(x)`: `div.approx(sin.approx(x), cos.approx(x))`; CUDA documents no bound (it
    /// is derived from its implementation).
    pub fn fast_tan(x: f32) -> f32 = pure(
        70,
        ".reg .f32 %fct{uid}; sin.approx.f32 {d0}, {a0}; cos.approx.f32 %fct{uid}, {a0}; \
         div.approx.f32 {d0}, {d0}, %fct{uid}",
        sim_fast_tan
    );
    /// `__sincosf(x)`: `(sin.approx.f32, cos.approx.f32)`, the bounds of `fast_sin`/`fast_cos`.
    pub fn fast_sincos(x: f32) -> (f32, f32) = pure(
        70,
        "sin.approx.f32 {d0}, {a0}; cos.approx.f32 {d1}, {a0}",
        sim_fast_sincos
    );
    /// `__log2f(x)`: `lg2.approx.f32`; absolute error 2^-22 on [0.5, 2], else 2 ulp.
    pub fn fast_log2(x: f32) -> f32 = pure(70, "lg2.approx.f32 {d0}, {a0}", sim_fast_log2);
    /// `__log10f(x)`: `lg2.approx(x)` times `log10(2)` as a two-part constant (one more fma than
    /// nvcc's two instructions, whose constant's rounding takes them past the bound on the
    /// H100); absolute error 2^-24 on [0.5, 2], else 3 ulp.
    pub fn fast_log10(x: f32) -> f32 = pure(
        70,
        ".reg .f32 %flg{uid}; lg2.approx.f32 %flg{uid}, {a0}; \
         mul.rn.f32 {d0}, %flg{uid}, 0fB2760860; fma.rn.f32 {d0}, %flg{uid}, 0f3E9A209B, {d0}",
        sim_fast_log10
    );
    /// `__exp10f(x)`: `ex2.approx(x * log2(10))`, the product `fma(x, hi, x * lo)` with
    /// `log2(10)` split in two f32 (one instruction more than nvcc's, which exceeds the bound
    /// by the constant's rounding); `2 + floor(|2.95 x|)` ulp.
    pub fn fast_exp10(x: f32) -> f32 = pure(
        70,
        "mul.rn.f32 {d0}, {a0}, 0f33979A37; fma.rn.f32 {d0}, {a0}, 0f40549A78, {d0}; \
         ex2.approx.f32 {d0}, {d0}",
        sim_fast_exp10
    );
    /// `__powf(x, y)`: `ex2.approx(y * lg2.approx(x))`.
    pub fn fast_pow(x: f32, y: f32) -> f32 = pure(
        70,
        "lg2.approx.f32 {d0}, {a0}; mul.rn.f32 {d0}, {d0}, {a1}; ex2.approx.f32 {d0}, {d0}",
        sim_fast_pow
    );
}

/// Rust's float methods that the math library implements and no function above declares, as
/// specs without a stub (`f32` and `f64` have them on the host): `name(arguments) = device
/// function of `f32_all` and `f64_all``.
macro_rules! rust_methods {
    ([$($name:ident($n:literal) = $f:ident;)*] aliases [$($alias:ident = $to:ident;)*]) => {
        static RUST_METHODS: &[(&str, &IntrinsicSpec)] = &[
            $((
                stringify!($name),
                &IntrinsicSpec {
                    name: stringify!($name),
                    entries: || &[],
                    lowering: Lowering::Math(MathFn {
                        args: $n,
                        pair: false,
                        int_args: 0,
                        int_rets: 0,
                        wide: 0,
                        f32: Some(MathImpl::Device(f32_all::$f::__fc_callable)),
                        f64: Some(MathImpl::Device(f64_all::$f::__fc_callable)),
                    }),
                },
            ),)*
            $((stringify!($alias), &$to::SPEC),)*
        ];
    };
}

rust_methods! {
    [
        cbrt(1) = cbrt;
        exp(1) = exp;
        exp2(1) = exp2;
        ln(1) = ln;
        log2(1) = log2;
        log10(1) = log10;
        sin(1) = sin;
        cos(1) = cos;
        tan(1) = tan;
        asin(1) = asin;
        acos(1) = acos;
        atan(1) = atan;
        sinh(1) = sinh;
        cosh(1) = cosh;
        tanh(1) = tanh;
        asinh(1) = asinh;
        acosh(1) = acosh;
        atanh(1) = atanh;
        atan2(2) = atan2;
        powf(2) = powf;
        hypot(2) = hypot;
        copysign(2) = copysign;
    ]
    aliases [
        exp_m1 = expm1;
        ln_1p = log1p;
        sin_cos = sincos;
    ]
}

/// The math function `x.name(..)` calls on a float `x` (also `f32::name(x, ..)`): one of Rust's
/// methods, or a function declared above (`x.rsqrt()`; the f32-only `x.fast_sin()`).
pub fn method(name: &str) -> Option<MathFn> {
    let spec = RUST_METHODS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, s)| *s)
        .or_else(|| TABLE.specs.iter().copied().find(|s| s.name == name))?;
    match spec.lowering {
        Lowering::Math(m) => Some(m),
        Lowering::Scalar(def) if def.args.iter().chain(def.rets).all(|t| *t == F32) => {
            Some(MathFn {
                args: def.args.len(),
                pair: def.rets.len() == 2,
                int_args: 0,
                int_rets: 0,
                wide: 0,
                f32: Some(MathImpl::Entry(def)),
                f64: None,
            })
        }
        _ => None,
    }
}

/// Every name [`method`] knows, for the consistency test of the method names the macros accept.
pub fn method_names() -> impl Iterator<Item = &'static str> {
    let methods = RUST_METHODS.iter().map(|(n, _)| *n);
    methods.chain(
        TABLE
            .specs
            .iter()
            .map(|s| s.name)
            .filter(|n| method(n).is_some()),
    )
}
