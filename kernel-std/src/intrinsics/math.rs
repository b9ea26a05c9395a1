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
//! declared in `crate::math::approx`).

use super::{Class, Custom, IntrinsicDef, SimEnv};
use crate::types::Float;
use kernel_ir::ir::Ty;

/// The float operations the rounding-mode semantics need, for f32 and f64 alike.
trait Fp: Copy + PartialOrd + std::ops::Neg<Output = Self> {
    fn bits(self) -> u64;
    fn zero() -> Self;
    fn max_finite() -> Self;
    fn is_nan(self) -> bool;
    fn next_up(self) -> Self;
    fn next_down(self) -> Self;
}

macro_rules! impl_fp {
    ($t:ty) => {
        impl Fp for $t {
            fn bits(self) -> u64 {
                self.to_bits() as u64
            }
            fn zero() -> Self {
                0.0
            }
            fn max_finite() -> Self {
                <$t>::MAX
            }
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
            fn next_up(self) -> Self {
                if self.is_nan() || self == <$t>::INFINITY {
                    return self;
                }
                if self == 0.0 {
                    return <$t>::from_bits(1);
                }
                let b = self.to_bits();
                <$t>::from_bits(if self > 0.0 { b + 1 } else { b - 1 })
            }
            fn next_down(self) -> Self {
                -(-self).next_up()
            }
        }
    };
}
impl_fp!(f32);
impl_fp!(f64);

/// Rounding direction of an entry: 0 nearest, 1 toward zero, 2 up, 3 down.
type Mode = u8;

/// Turns the round-to-nearest result `r` into the `mode` result, given the sign of `exact - r`
/// (`dir`) and whether the exact result overflowed (`r` infinite from finite operands).
fn directed<T: Fp>(r: T, dir: i8, overflow: bool, mode: Mode) -> T {
    if mode == 0 || r.is_nan() {
        return r;
    }
    if overflow {
        let pos = r > T::zero();
        return match (mode, pos) {
            (1, true) | (3, true) => T::max_finite(),
            (1, false) | (2, false) => -T::max_finite(),
            _ => r,
        };
    }
    match (mode, dir) {
        (1, -1) if r > T::zero() => r.next_down(),
        (1, 1) if r < T::zero() => r.next_up(),
        (2, 1) => r.next_up(),
        (3, -1) => r.next_down(),
        _ => r,
    }
}

fn sign_of(x: f64) -> i8 {
    if x > 0.0 {
        1
    } else if x < 0.0 {
        -1
    } else {
        0
    }
}

/// Exact-zero sums are -0 under round-down unless both addends are +0 (IEEE 754 6.3).
fn zero_sum_sign<T: Fp>(r: T, a: T, b: T, mode: Mode) -> T {
    if mode == 3 && r == T::zero() && !(a.bits() == 0 && b.bits() == 0) {
        -T::zero()
    } else {
        r
    }
}

fn add32(a: f32, b: f32, m: Mode) -> f32 {
    let r = a + b;
    if r.is_infinite() {
        return directed(r, 0, a.is_finite() && b.is_finite(), m);
    }
    let bb = r - a;
    let e = (a - (r - bb)) + (b - bb);
    zero_sum_sign(directed(r, sign_of(e as f64), false, m), a, b, m)
}
fn add64(a: f64, b: f64, m: Mode) -> f64 {
    let r = a + b;
    if r.is_infinite() {
        return directed(r, 0, a.is_finite() && b.is_finite(), m);
    }
    let bb = r - a;
    let e = (a - (r - bb)) + (b - bb);
    zero_sum_sign(directed(r, sign_of(e), false, m), a, b, m)
}
fn mul32(a: f32, b: f32, m: Mode) -> f32 {
    let r = a * b;
    if r.is_infinite() {
        return directed(r, 0, a.is_finite() && b.is_finite(), m);
    }
    directed(r, sign_of(a as f64 * b as f64 - r as f64), false, m)
}
fn mul64(a: f64, b: f64, m: Mode) -> f64 {
    let r = a * b;
    if r.is_infinite() {
        return directed(r, 0, a.is_finite() && b.is_finite(), m);
    }
    directed(r, sign_of(a.mul_add(b, -r)), false, m)
}
fn div32(a: f32, b: f32, m: Mode) -> f32 {
    let r = a / b;
    if r.is_infinite() {
        return directed(r, 0, a.is_finite() && b != 0.0, m);
    }
    if !r.is_finite() || r == 0.0 && a == 0.0 {
        return r;
    }
    let res = a as f64 - r as f64 * b as f64;
    directed(r, sign_of(res) * sign_of(b as f64), false, m)
}
fn div64(a: f64, b: f64, m: Mode) -> f64 {
    let r = a / b;
    if r.is_infinite() {
        return directed(r, 0, a.is_finite() && b != 0.0, m);
    }
    if !r.is_finite() || r == 0.0 && a == 0.0 {
        return r;
    }
    directed(r, sign_of((-r).mul_add(b, a)) * sign_of(b), false, m)
}
fn sqrt32(a: f32, m: Mode) -> f32 {
    let r = a.sqrt();
    if !r.is_finite() || r == 0.0 {
        return r;
    }
    directed(r, sign_of(a as f64 - r as f64 * r as f64), false, m)
}
fn sqrt64(a: f64, m: Mode) -> f64 {
    let r = a.sqrt();
    if !r.is_finite() || r == 0.0 {
        return r;
    }
    directed(r, sign_of((-r).mul_add(r, a)), false, m)
}
fn fma32(a: f32, b: f32, c: f32, m: Mode) -> f32 {
    let r = a.mul_add(b, c);
    if r.is_infinite() {
        return directed(r, 0, a.is_finite() && b.is_finite() && c.is_finite(), m);
    }
    if !r.is_finite() {
        return r;
    }
    // a*b is exact in f64; (p + c) as a two-sum, then compared with r.
    let p = a as f64 * b as f64;
    let (s, e) = two_sum(p, c as f64);
    let d = s - r as f64;
    let dir = if d != 0.0 { sign_of(d) } else { sign_of(e) };
    zero_sum_sign(directed(r, dir, false, m), (p as f32).max(-f32::MAX), c, m)
}
fn fma64(a: f64, b: f64, c: f64, m: Mode) -> f64 {
    let r = a.mul_add(b, c);
    if r.is_infinite() {
        return directed(r, 0, a.is_finite() && b.is_finite() && c.is_finite(), m);
    }
    if !r.is_finite() {
        return r;
    }
    let p = a * b;
    let pe = a.mul_add(b, -p);
    let (s, e) = two_sum(p, c);
    let d = s - r;
    let t = d + (e + pe);
    zero_sum_sign(directed(r, sign_of(t), false, m), p, c, m)
}
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

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
    sim_fast_pow => |a, o| {
        let l = (f32a(a, 0) as f64).log2() as f32;
        put32(o, ((l * f32a(a, 1)) as f64).exp2() as f32)
    };
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
        }
    };
}

/// Binary entries of one operation in all four rounding modes, f32 and f64.
macro_rules! bin_modes {
    ($op:literal, $code:expr) => {
        [
            entry!(
                concat!($op, "_rn.f32"),
                [F32, F32],
                F32,
                concat!($op, ".rn.f32 {d0}, {a0}, {a1}"),
                sim_bin32::<$code, 0>
            ),
            entry!(
                concat!($op, "_rz.f32"),
                [F32, F32],
                F32,
                concat!($op, ".rz.f32 {d0}, {a0}, {a1}"),
                sim_bin32::<$code, 1>
            ),
            entry!(
                concat!($op, "_ru.f32"),
                [F32, F32],
                F32,
                concat!($op, ".rp.f32 {d0}, {a0}, {a1}"),
                sim_bin32::<$code, 2>
            ),
            entry!(
                concat!($op, "_rd.f32"),
                [F32, F32],
                F32,
                concat!($op, ".rm.f32 {d0}, {a0}, {a1}"),
                sim_bin32::<$code, 3>
            ),
            entry!(
                concat!($op, "_rn.f64"),
                [F64, F64],
                F64,
                concat!($op, ".rn.f64 {d0}, {a0}, {a1}"),
                sim_bin64::<$code, 0>
            ),
            entry!(
                concat!($op, "_rz.f64"),
                [F64, F64],
                F64,
                concat!($op, ".rz.f64 {d0}, {a0}, {a1}"),
                sim_bin64::<$code, 1>
            ),
            entry!(
                concat!($op, "_ru.f64"),
                [F64, F64],
                F64,
                concat!($op, ".rp.f64 {d0}, {a0}, {a1}"),
                sim_bin64::<$code, 2>
            ),
            entry!(
                concat!($op, "_rd.f64"),
                [F64, F64],
                F64,
                concat!($op, ".rm.f64 {d0}, {a0}, {a1}"),
                sim_bin64::<$code, 3>
            ),
        ]
    };
}
macro_rules! un_modes {
    ($op:literal, $ptxop:literal, $code:expr) => {
        [
            entry!(
                concat!($op, "_rn.f32"),
                [F32],
                F32,
                concat!($ptxop, ".rn.f32 {d0}, {a0}"),
                sim_un32::<$code, 0>
            ),
            entry!(
                concat!($op, "_rz.f32"),
                [F32],
                F32,
                concat!($ptxop, ".rz.f32 {d0}, {a0}"),
                sim_un32::<$code, 1>
            ),
            entry!(
                concat!($op, "_ru.f32"),
                [F32],
                F32,
                concat!($ptxop, ".rp.f32 {d0}, {a0}"),
                sim_un32::<$code, 2>
            ),
            entry!(
                concat!($op, "_rd.f32"),
                [F32],
                F32,
                concat!($ptxop, ".rm.f32 {d0}, {a0}"),
                sim_un32::<$code, 3>
            ),
            entry!(
                concat!($op, "_rn.f64"),
                [F64],
                F64,
                concat!($ptxop, ".rn.f64 {d0}, {a0}"),
                sim_un64::<$code, 0>
            ),
            entry!(
                concat!($op, "_rz.f64"),
                [F64],
                F64,
                concat!($ptxop, ".rz.f64 {d0}, {a0}"),
                sim_un64::<$code, 1>
            ),
            entry!(
                concat!($op, "_ru.f64"),
                [F64],
                F64,
                concat!($ptxop, ".rp.f64 {d0}, {a0}"),
                sim_un64::<$code, 2>
            ),
            entry!(
                concat!($op, "_rd.f64"),
                [F64],
                F64,
                concat!($ptxop, ".rm.f64 {d0}, {a0}"),
                sim_un64::<$code, 3>
            ),
        ]
    };
}

const ADD: [IntrinsicDef; 8] = bin_modes!("add", 0);
const SUB: [IntrinsicDef; 8] = bin_modes!("sub", 1);
const MUL: [IntrinsicDef; 8] = bin_modes!("mul", 2);
const DIV: [IntrinsicDef; 8] = bin_modes!("div", 3);
const SQRT: [IntrinsicDef; 8] = un_modes!("sqrt", "sqrt", 0);
const RCP: [IntrinsicDef; 8] = un_modes!("rcp", "rcp", 1);

const FMA: [IntrinsicDef; 10] = [
    entry!(
        "fma.f32",
        [F32, F32, F32],
        F32,
        "fma.rn.f32 {d0}, {a0}, {a1}, {a2}",
        sim_fma32::<0>
    ),
    entry!(
        "fma_rn.f32",
        [F32, F32, F32],
        F32,
        "fma.rn.f32 {d0}, {a0}, {a1}, {a2}",
        sim_fma32::<0>
    ),
    entry!(
        "fma_rz.f32",
        [F32, F32, F32],
        F32,
        "fma.rz.f32 {d0}, {a0}, {a1}, {a2}",
        sim_fma32::<1>
    ),
    entry!(
        "fma_ru.f32",
        [F32, F32, F32],
        F32,
        "fma.rp.f32 {d0}, {a0}, {a1}, {a2}",
        sim_fma32::<2>
    ),
    entry!(
        "fma_rd.f32",
        [F32, F32, F32],
        F32,
        "fma.rm.f32 {d0}, {a0}, {a1}, {a2}",
        sim_fma32::<3>
    ),
    entry!(
        "fma.f64",
        [F64, F64, F64],
        F64,
        "fma.rn.f64 {d0}, {a0}, {a1}, {a2}",
        sim_fma64::<0>
    ),
    entry!(
        "fma_rn.f64",
        [F64, F64, F64],
        F64,
        "fma.rn.f64 {d0}, {a0}, {a1}, {a2}",
        sim_fma64::<0>
    ),
    entry!(
        "fma_rz.f64",
        [F64, F64, F64],
        F64,
        "fma.rz.f64 {d0}, {a0}, {a1}, {a2}",
        sim_fma64::<1>
    ),
    entry!(
        "fma_ru.f64",
        [F64, F64, F64],
        F64,
        "fma.rp.f64 {d0}, {a0}, {a1}, {a2}",
        sim_fma64::<2>
    ),
    entry!(
        "fma_rd.f64",
        [F64, F64, F64],
        F64,
        "fma.rm.f64 {d0}, {a0}, {a1}, {a2}",
        sim_fma64::<3>
    ),
];

/// The entries of the math library (`crate::math` names them by name): directed-rounding
/// arithmetic and `fma`.
static LIBRARY: [IntrinsicDef; 58] = {
    let mut all = [FMA[0]; 58];
    let groups: [&[IntrinsicDef]; 7] = [&ADD, &SUB, &MUL, &DIV, &SQRT, &RCP, &FMA];
    let mut n = 0;
    let mut g = 0;
    while g < groups.len() {
        let mut i = 0;
        while i < groups[g].len() {
            all[n] = groups[g][i];
            n += 1;
            i += 1;
        }
        g += 1;
    }
    all
};

intrinsics! {
    table TABLE + library + approx;

    /// `rsqrt(x)`: `1 / sqrt(x)`.
    pub fn rsqrt<T: Float>(x: T) -> T = custom(Custom::Math);
    /// `exp10(x)`: `10^x`.
    pub fn exp10<T: Float>(x: T) -> T = custom(Custom::Math);
    /// `expm1(x)`: `e^x - 1` (also `x.exp_m1()`).
    pub fn expm1<T: Float>(x: T) -> T = custom(Custom::Math);
    /// `log1p(x)`: `ln(1 + x)` (also `x.ln_1p()`).
    pub fn log1p<T: Float>(x: T) -> T = custom(Custom::Math);
    /// `sinpi(x)`: `sin(pi * x)` without the rounding of `pi * x`.
    pub fn sinpi<T: Float>(x: T) -> T = custom(Custom::Math);
    /// `cospi(x)`: `cos(pi * x)`.
    pub fn cospi<T: Float>(x: T) -> T = custom(Custom::Math);
    /// `erf(x)`: the error function.
    pub fn erf<T: Float>(x: T) -> T = custom(Custom::Math);
    /// `erfc(x)`: `1 - erf(x)` without cancellation.
    pub fn erfc<T: Float>(x: T) -> T = custom(Custom::Math);
    /// `lgamma(x)`: `ln |Gamma(x)|`.
    pub fn lgamma<T: Float>(x: T) -> T = custom(Custom::Math);
    /// `tgamma(x)`: `Gamma(x)`.
    pub fn tgamma<T: Float>(x: T) -> T = custom(Custom::Math);
    /// `fmod(x, y)`: C's `fmod`, the same as Rust's `x % y`.
    pub fn fmod<T: Float>(x: T, y: T) -> T = custom(Custom::Math);
    /// `fma(x, y, z)`: `x * y + z` rounded once (also `x.mul_add(y, z)`).
    pub fn fma<T: Float>(x: T, y: T, z: T) -> T = custom(Custom::Math);
    /// `__fadd_rn` / `__dadd_rn`: addition rounded to nearest even, never contracted into an fma.
    pub fn add_rn<T: Float>(x: T, y: T) -> T = custom(Custom::Math);
    /// Addition rounded toward zero.
    pub fn add_rz<T: Float>(x: T, y: T) -> T = custom(Custom::Math);
    /// Addition rounded up (toward +inf).
    pub fn add_ru<T: Float>(x: T, y: T) -> T = custom(Custom::Math);
    /// Addition rounded down (toward -inf).
    pub fn add_rd<T: Float>(x: T, y: T) -> T = custom(Custom::Math);
    /// Subtraction rounded to nearest even.
    pub fn sub_rn<T: Float>(x: T, y: T) -> T = custom(Custom::Math);
    /// Subtraction rounded toward zero.
    pub fn sub_rz<T: Float>(x: T, y: T) -> T = custom(Custom::Math);
    /// Subtraction rounded up.
    pub fn sub_ru<T: Float>(x: T, y: T) -> T = custom(Custom::Math);
    /// Subtraction rounded down.
    pub fn sub_rd<T: Float>(x: T, y: T) -> T = custom(Custom::Math);
    /// Multiplication rounded to nearest even, never contracted into an fma.
    pub fn mul_rn<T: Float>(x: T, y: T) -> T = custom(Custom::Math);
    /// Multiplication rounded toward zero.
    pub fn mul_rz<T: Float>(x: T, y: T) -> T = custom(Custom::Math);
    /// Multiplication rounded up.
    pub fn mul_ru<T: Float>(x: T, y: T) -> T = custom(Custom::Math);
    /// Multiplication rounded down.
    pub fn mul_rd<T: Float>(x: T, y: T) -> T = custom(Custom::Math);
    /// Division rounded to nearest even (what `/` does).
    pub fn div_rn<T: Float>(x: T, y: T) -> T = custom(Custom::Math);
    /// Division rounded toward zero.
    pub fn div_rz<T: Float>(x: T, y: T) -> T = custom(Custom::Math);
    /// Division rounded up.
    pub fn div_ru<T: Float>(x: T, y: T) -> T = custom(Custom::Math);
    /// Division rounded down.
    pub fn div_rd<T: Float>(x: T, y: T) -> T = custom(Custom::Math);
    /// `fma` rounded to nearest even.
    pub fn fma_rn<T: Float>(x: T, y: T, z: T) -> T = custom(Custom::Math);
    /// `fma` rounded toward zero.
    pub fn fma_rz<T: Float>(x: T, y: T, z: T) -> T = custom(Custom::Math);
    /// `fma` rounded up.
    pub fn fma_ru<T: Float>(x: T, y: T, z: T) -> T = custom(Custom::Math);
    /// `fma` rounded down.
    pub fn fma_rd<T: Float>(x: T, y: T, z: T) -> T = custom(Custom::Math);
    /// Square root rounded to nearest even (what `x.sqrt()` does).
    pub fn sqrt_rn<T: Float>(x: T) -> T = custom(Custom::Math);
    /// Square root rounded toward zero.
    pub fn sqrt_rz<T: Float>(x: T) -> T = custom(Custom::Math);
    /// Square root rounded up.
    pub fn sqrt_ru<T: Float>(x: T) -> T = custom(Custom::Math);
    /// Square root rounded down.
    pub fn sqrt_rd<T: Float>(x: T) -> T = custom(Custom::Math);
    /// `1 / x` rounded to nearest even.
    pub fn rcp_rn<T: Float>(x: T) -> T = custom(Custom::Math);
    /// `1 / x` rounded toward zero.
    pub fn rcp_rz<T: Float>(x: T) -> T = custom(Custom::Math);
    /// `1 / x` rounded up.
    pub fn rcp_ru<T: Float>(x: T) -> T = custom(Custom::Math);
    /// `1 / x` rounded down.
    pub fn rcp_rd<T: Float>(x: T) -> T = custom(Custom::Math);
    /// `sincos(x)`: `(sin x, cos x)` (also `x.sin_cos()`).
    pub fn sincos<T: Float>(x: T) -> (T, T) = custom(Custom::Math);
    /// `sincospi(x)`: `(sin(pi x), cos(pi x))`.
    pub fn sincospi<T: Float>(x: T) -> (T, T) = custom(Custom::Math);
    /// `1/sqrt(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn rsqrt_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `cbrt(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn cbrt_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `e^x` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn exp_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `2^x` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn exp2_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `10^x` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn exp10_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `e^x - 1` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn expm1_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `ln(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn log_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `log2(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn log2_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `log10(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn log10_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `ln(1 + x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn log1p_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `sin(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn sin_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `cos(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn cos_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `tan(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn tan_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `sin(pi x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn sinpi_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `cos(pi x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn cospi_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `asin(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn asin_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `acos(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn acos_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `atan(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn atan_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `sinh(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn sinh_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `cosh(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn cosh_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `tanh(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn tanh_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `asinh(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn asinh_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `acosh(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn acosh_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `atanh(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn atanh_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `erf(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn erf_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `erfc(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn erfc_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `lgamma(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn lgamma_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `tgamma(x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn tgamma_cr(x: f32) -> f32 = custom(Custom::Math);
    /// `atan2(y, x)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn atan2_cr(y: f32, x: f32) -> f32 = custom(Custom::Math);
    /// `x^y` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn powf_cr(x: f32, y: f32) -> f32 = custom(Custom::Math);
    /// `sqrt(x^2 + y^2)` correctly rounded (f32 only): evaluated in f64 and rounded once, at
    /// several times the cost of the default f32 function (see `docs/math-ulp.md`).
    pub fn hypot_cr(x: f32, y: f32) -> f32 = custom(Custom::Math);
    /// `(sin x, cos x)` correctly rounded (f32 only; see `sin_cr`).
    pub fn sincos_cr(x: f32) -> (f32, f32) = custom(Custom::Math);
    /// `(sin(pi x), cos(pi x))` correctly rounded (f32 only; see `sin_cr`).
    pub fn sincospi_cr(x: f32) -> (f32, f32) = custom(Custom::Math);
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
    /// `__powf(x, y)`: `ex2.approx(y * lg2.approx(x))`.
    pub fn fast_pow(x: f32, y: f32) -> f32 = pure(
        70,
        "lg2.approx.f32 {d0}, {a0}; mul.rn.f32 {d0}, {d0}, {a1}; ex2.approx.f32 {d0}, {d0}",
        sim_fast_pow
    );
}

/// The math library's entries, for the table.
fn library() -> &'static [IntrinsicDef] {
    &LIBRARY
}

/// The hardware's approximate units the f32 math library calls (declared with their functions in
/// `crate::math::approx`), for the table.
fn approx() -> &'static [IntrinsicDef] {
    &crate::math::approx::ENTRIES
}
