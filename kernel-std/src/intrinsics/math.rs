//! Floating-point math with a single PTX instruction (B.7, Appendix E.2): `fma`, arithmetic and
//! square root / reciprocal with an explicit rounding mode (`__fadd_rz`...), and CUDA's fast
//! `.approx` intrinsics (`__sinf`, `__expf`, `__logf`, `__fdividef`, `__powf`). Everything else of
//! the math library is written in the kernel DSL (`crate::math`).
//!
//! Simulator semantics: the rounding-mode entries are exact (the round-to-nearest result is
//! nudged one ulp by the sign of the exact residual, computed with `fma`/two-sum, which is exact
//! except when that residual itself underflows). The `.approx` entries are implementation-defined
//! on the GPU (PTX ISA: `sin.approx.f32` max absolute error 2^-20.5 on [-pi, pi], `ex2.approx.f32`
//! and `lg2.approx.f32` about 2 ulp / 2^-22 absolute); the simulator models them by the correctly
//! rounded function of the same argument (the GPU result lies within those bounds of it), so
//! simulator and GPU may differ in the last bits of these six functions only. The same holds
//! for the `approx_*` entries the f32 math library is built on (`ex2`, `lg2`, `rsqrt`, `rcp`).

use super::{Class, IntrinsicDef, SimEnv};
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
    sim_fast_div => |a, o| put32(o, fast_div(f32a(a, 0), f32a(a, 1)));
    sim_fast_pow => |a, o| {
        let l = (f32a(a, 0) as f64).log2() as f32;
        put32(o, ((l * f32a(a, 1)) as f64).exp2() as f32)
    };
}

use crate::math::approx::model as approx_model;

sims! {
    sim_approx_ex2 => |a, o| put32(o, approx_model::ex2(f32a(a, 0)));
    sim_approx_ex2_ftz => |a, o| put32(o, approx_model::ex2_ftz(f32a(a, 0)));
    sim_approx_lg2_ftz => |a, o| put32(o, approx_model::lg2_ftz(f32a(a, 0)));
    sim_approx_rsqrt => |a, o| put32(o, approx_model::rsqrt(f32a(a, 0)));
    sim_approx_rcp_ftz => |a, o| put32(o, approx_model::rcp_ftz(f32a(a, 0)));
    sim_rint32 => |a, o| put32(o, approx_model::rint(f32a(a, 0)));
    sim_fma_sat32 => |a, o| put32(o, approx_model::fma_sat(f32a(a, 0), f32a(a, 1), f32a(a, 2)));
    sim_select => |a, o| o[0] = if a[0] != 0 { a[1] } else { a[2] };
}

/// `__fdividef`: for `2^126 < |y| < 2^128` the GPU's reciprocal flushes to zero (Table 9).
fn fast_div(x: f32, y: f32) -> f32 {
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

const OTHER: [IntrinsicDef; 16] = [
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
    entry!(
        "fast_sin",
        [F32],
        F32,
        "sin.approx.f32 {d0}, {a0}",
        sim_fast_sin
    ),
    entry!(
        "fast_cos",
        [F32],
        F32,
        "cos.approx.f32 {d0}, {a0}",
        sim_fast_cos
    ),
    entry!(
        "fast_exp",
        [F32],
        F32,
        "mul.rn.f32 {d0}, {a0}, 0f3FB8AA3B; ex2.approx.f32 {d0}, {d0}",
        sim_fast_exp
    ),
    entry!(
        "fast_log",
        [F32],
        F32,
        "lg2.approx.f32 {d0}, {a0}; mul.rn.f32 {d0}, {d0}, 0f3F317218",
        sim_fast_log
    ),
    entry!(
        "fast_div",
        [F32, F32],
        F32,
        "div.approx.f32 {d0}, {a0}, {a1}",
        sim_fast_div
    ),
    entry!(
        "fast_pow",
        [F32, F32],
        F32,
        "lg2.approx.f32 {d0}, {a0}; mul.rn.f32 {d0}, {d0}, {a1}; ex2.approx.f32 {d0}, {d0}",
        sim_fast_pow
    ),
];

/// The hardware's approximate f32 units (MUFU) as the f32 math library (`crate::math::f32_*`)
/// calls them, and `rint` and the saturating `fma` for its range reductions. Not user API: CUDA's own f32 functions are
/// built on the same instructions.
const APPROX: [IntrinsicDef; 9] = [
    entry!(
        "fma_sat.f32",
        [F32, F32, F32],
        F32,
        "fma.rn.sat.f32 {d0}, {a0}, {a1}, {a2}",
        sim_fma_sat32
    ),
    entry!(
        "approx_ex2.f32",
        [F32],
        F32,
        "ex2.approx.f32 {d0}, {a0}",
        sim_approx_ex2
    ),
    entry!(
        "approx_ex2_ftz.f32",
        [F32],
        F32,
        "ex2.approx.ftz.f32 {d0}, {a0}",
        sim_approx_ex2_ftz
    ),
    entry!(
        "approx_lg2_ftz.f32",
        [F32],
        F32,
        "lg2.approx.ftz.f32 {d0}, {a0}",
        sim_approx_lg2_ftz
    ),
    entry!(
        "approx_rsqrt.f32",
        [F32],
        F32,
        "rsqrt.approx.f32 {d0}, {a0}",
        sim_approx_rsqrt
    ),
    entry!(
        "approx_rcp_ftz.f32",
        [F32],
        F32,
        "rcp.approx.ftz.f32 {d0}, {a0}",
        sim_approx_rcp_ftz
    ),
    entry!(
        "rint.f32",
        [F32],
        F32,
        "cvt.rni.f32.f32 {d0}, {a0}",
        sim_rint32
    ),
    // `if c { a } else { b }` of two values already computed, as one `selp` (SASS FSEL/SEL):
    // the math library's branch-free selections, which an `if` would lower to a branch.
    entry!(
        "select.f32",
        [Ty::Bool, F32, F32],
        F32,
        "selp.f32 {d0}, {a1}, {a2}, {a0}",
        sim_select
    ),
    entry!(
        "select.u32",
        [Ty::Bool, Ty::U32, Ty::U32],
        Ty::U32,
        "selp.b32 {d0}, {a1}, {a2}, {a0}",
        sim_select
    ),
];

/// This category's entries (appended to the table in `mod.rs`'s order).
pub(super) static ENTRIES: &[IntrinsicDef] = &{
    let mut all = [OTHER[0]; 73];
    let groups: [&[IntrinsicDef]; 8] = [&ADD, &SUB, &MUL, &DIV, &SQRT, &RCP, &OTHER, &APPROX];
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
