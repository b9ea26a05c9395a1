//! f32 `rsqrt`, `cbrt`, `hypot`, `powf`, `fmod` and `copysign`, in f32 arithmetic.
//!
//! `rsqrt` is CUDA's `rsqrtf`, the hardware instruction (MUFU.RSQ). `cbrt` refines the hardware
//! estimate `y = 2^(-2/3 log2(x))`, `r = x y`, by one Newton step `r (1 + (1 - r y r)/3)`
//! (two MUFU, as CUDA's; about 0.8 ulp). `hypot` scales both arguments by
//! a power of two (exact) before the square root of `fma(a, a, b*b)` (MUFU.RSQ and a correction
//! step), the larger brought into `[2, 4)` so that the scale needs no clamp. `powf` is
//! `2^(y * log2|x|)` with `log2|x|` as a double-f32 (`2 atanh(s)`, `s = (m - 1)/(m + 1)`, the
//! division's remainder kept) and the product as a double-f32, then the exp machinery of
//! `f32_exp_log`; its special cases follow C99 (and CUDA). `fmod` is exact: integer long division
//! of the mantissas, eight bits per step.

#![allow(clippy::excessive_precision, clippy::approx_constant)]
// Device code: plain comparisons (NaN-aware as written) lower to one instruction each; the
// kernel DSL has no `contains`, `clamp` or `partial_cmp`.
#![allow(
    clippy::neg_cmp_op_on_partial_ord,
    clippy::manual_clamp,
    clippy::manual_range_contains
)]

use kernel_macros::device;

use super::approx::{ex2_ftz, f2i_rn, lg2_ftz, rcp_ftz, rni_f32, rsqrt_approx, select};

#[device]
pub fn rsqrt(x: f32) -> f32 {
    rsqrt_approx(x)
}

#[device]
pub fn copysign(x: f32, y: f32) -> f32 {
    f32::from_bits((x.to_bits() & 0x7fff_ffff) | (y.to_bits() & 0x8000_0000))
}

/// Straight-line: subnormals scaled by selects; `y = v^(-2/3)` from MUFU.LG2 and MUFU.EX2
/// (CUDA's two units: no reciprocal), `r = v y`, then one Newton step `r (1 + h/3)` with
/// `h = 1 - r (y r)` (`= -3e` for `r = v^(1/3) (1 + e)`, so the step leaves `e^2`; the rounding
/// of `y r` adds about a third of an ulp before the final rounding). Zeros and infinities are
/// the `x` with `x + x == x` (the result `x + x`); NaN stays NaN through the units, and the
/// positive root takes `x`'s sign by one or.
#[device]
pub fn cbrt(x: f32) -> f32 {
    let a = x.abs();
    // Subnormals: scale by 2^24 (the root by 2^8).
    let sub = a < 1.17549435e-38;
    let v = select(sub, a * 16777216.0, a);
    let y = ex2_ftz(lg2_ftz(v) * -0.6666666865348816);
    let r = v * y;
    let h = (-r).mul_add(y * r, 1.0);
    let r = r.mul_add(h * 0.3333333432674408, r);
    let r = r * select(sub, 0.00390625, 1.0);
    let d = x + x;
    let r = f32::from_bits(r.to_bits() | (x.to_bits() & 0x8000_0000));
    select(d != x, r, d)
}

/// `max * sqrt(1 + ...)` without overflow: both arguments scaled by the power of two
/// `2^(128 - E)` (`E` the larger's biased exponent, at least 1: normal for every `E` from 1 to
/// 254, so one integer max and no clamp) that brings the larger into `[2, 4)` (exact), the
/// root of `fma(p, p, q*q)` from MUFU.RSQ plus one correction step, then halved (exact) and
/// scaled back by `2^(E - 127)` (the exponent field itself); zeros, infinities (even with a
/// NaN) and NaN by selects. No branch.
#[device]
pub fn hypot(x: f32, y: f32) -> f32 {
    let a = x.abs();
    let b = y.abs();
    let v = a.max(b);
    let w = a.min(b);
    let ve = (v.to_bits() & 0x7f80_0000).max(0x0080_0000);
    let sc = f32::from_bits(0x7f80_0000u32.wrapping_sub(ve));
    let p = v * sc;
    let q = w * sc;
    let s = p.mul_add(p, q * q);
    let r = rsqrt_approx(s);
    let g = s * r;
    let g = (-g).mul_add(g, s).mul_add(0.5 * r, g);
    let sum = a + b;
    let r = select(v == 0.0, sum, (g * 0.5) * f32::from_bits(ve));
    let r = select(sum.is_nan(), sum, r);
    // max(inf, NaN) is inf: an infinity wins over a NaN, as C's hypot says.
    select(v == f32::INFINITY, f32::INFINITY, r)
}

/// `log2(a)` for finite `a > 0` as a double-f32 `(hi, lo)` (relative error about 2^-40).
#[device]
pub fn log2_dd(a: f32) -> (f32, f32) {
    let sub = a < 1.17549435e-38;
    let v = select(sub, a * 8388608.0, a);
    let b = v.to_bits() as i32;
    let eb = b.wrapping_sub(0x3f35_04f3) >> 23;
    let m = f32::from_bits(b.wrapping_sub(eb << 23) as u32);
    let e = eb as f32 - select(sub, 23.0, 0.0);
    // s = (m - 1) / (m + 1) as sh + sl; m + 1 = dh + dl exactly (Fast2Sum, 1 >= m's exponent).
    let f = m - 1.0;
    let dh = m + 1.0;
    let dl = (1.0 - dh) + m;
    let y = rcp_ftz(dh);
    let sh = f * y;
    let rem = (-sh).mul_add(dh, f);
    let rem = (-sh).mul_add(dl, rem);
    let sl = rem * y;
    // log(m) = 2s + s^3 P(s^2).
    let v2 = sh * sh;
    let p = 0.19365277886390686f32;
    let p = p.mul_add(v2, 0.22191265225410461);
    let p = p.mul_add(v2, 0.28571757674217224);
    let p = p.mul_add(v2, 0.3999999761581421);
    let p = p.mul_add(v2, 0.6666666865348816);
    let lh = sh + sh;
    let ll = (sh * v2).mul_add(p, sl + sl);
    // log2 = e + (lh + ll) * log2(e).
    let ph = lh * 1.4426950216293335;
    let pl = lh.mul_add(1.4426950216293335, -ph)
        + lh.mul_add(1.925963033500011e-08, ll * 1.4426950216293335);
    let hi = e + ph;
    let lo = ((e - hi) + ph) + pl;
    (hi, lo)
}

/// `c * 2^(zh + zl)` for `|zl|` below an ulp of `zh` and `c` near 1, rounded once; `inf` above
/// `zh = 129`, 0 below -152 (by selects: no branch).
#[device]
pub fn exp2_dd(zh: f32, zl: f32, c: f32) -> f32 {
    let t = (zh + 12582912.0).max(12582786.0).min(12583039.0);
    let j = t - 12582912.0;
    let f = (zh - j) + zl;
    let m = ex2_ftz(f);
    let s = f32::from_bits((t.to_bits() << 23).wrapping_add(0x3f80_0000));
    let r = (m * c) * s;
    select(zh > 129.0, f32::INFINITY, select(zh < -152.0, 0.0, r))
}

/// Every case computed and the result selected (no branch): the general `2^(y log2|x|)` in
/// double-f32, then zero or infinite `|x|`, the sign for odd integer `y`, NaN for negative `x`
/// and non-integer `y`, NaN operands, `(±1)^(±inf)`, `x^0` and `1^y`, in C's order of priority
/// (the last select wins). Conditions combine with `&`/`|` (no short circuit, no branch).
#[device]
pub fn powf(x: f32, y: f32) -> f32 {
    let a = x.abs();
    let ay = y.abs();
    let y_int = rni_f32(y) == y;
    // y's parity from the hardware conversion (saturating; only read below 2^24).
    let y_odd = y_int & (ay < 16777216.0) & (f2i_rn(y) & 1 == 1);
    let (lh, ll) = log2_dd(a);
    let zh = y * lh;
    let zl = y.mul_add(lh, -zh) + y * ll;
    let r = exp2_dd(zh, zl, 1.0);
    // Only the sign of the exponent matters: |x|^y is 0 or infinity.
    let edge = (a == 0.0) | (a == f32::INFINITY);
    let r = select(edge, select((a == 0.0) == (y < 0.0), f32::INFINITY, 0.0), r);
    let neg = x.is_sign_negative();
    let r = select(neg & y_odd, -r, r);
    let r = select(neg & !y_int & !edge, f32::NAN, r);
    let r = select(x.is_nan() | y.is_nan(), x + y, r);
    let r = select((a == 1.0) & (ay == f32::INFINITY), 1.0, r);
    select((y == 0.0) | (x == 1.0), 1.0, r)
}

/// C's `fmod` (and Rust's float `%`): exact. Quotients below `2^16` (the common case) take
/// a straight-line path under one branch; the rest (huge quotients, zeros, infinities, NaN,
/// extreme `y`) the integer long division.
#[device]
pub fn fmod(x: f32, y: f32) -> f32 {
    let ax = x.abs();
    let ay = y.abs();
    // False for NaN, infinite `x`, and `y` zero, infinite or NaN.
    if ay >= 7.888609e-31 && ay <= 1.2676506e30 && ax < 65536.0 * ay {
        // q = trunc(ax/ay), taken from a reciprocal and biased up by 2^-21 so it is never
        // below the true quotient (and at most one above; 0 when ax < ay, or 1 with ax - ay
        // exact). Then r = ax - q*ay lies in (-ay, ay), a multiple of ay's quantum below 2^24
        // of it, so the fma computes it exactly; one exact addition of ay fixes the overshoot.
        let yi = rcp_ftz(ay);
        let e = (-ay).mul_add(yi, 1.0);
        let yi = yi.mul_add(e, yi);
        let q = (ax * yi * 1.000000476837158).trunc();
        let r = (-q).mul_add(ay, ax);
        // r >= 0: x's sign by one or.
        let r = select(r < 0.0, r + ay, r);
        f32::from_bits(r.to_bits() | (x.to_bits() & 0x8000_0000))
    } else {
        fmod_long(x, y)
    }
}

/// `fmod` by integer long division (quotients from `2^16`, and every special case).
#[device]
fn fmod_long(x: f32, y: f32) -> f32 {
    let bx = x.to_bits() & 0x7fff_ffff;
    let by = y.to_bits() & 0x7fff_ffff;
    if by == 0 || bx >= 0x7f80_0000 || by > 0x7f80_0000 {
        return f32::NAN;
    }
    if bx < by {
        return x;
    }
    let ex = (bx >> 23) as i32;
    let ey = (by >> 23) as i32;
    let mx = if ex == 0 {
        bx
    } else {
        (bx & 0x007f_ffff) | 0x0080_0000
    };
    let my = if ey == 0 {
        by
    } else {
        (by & 0x007f_ffff) | 0x0080_0000
    };
    let ex = if ex == 0 { 1 } else { ex };
    let ey = if ey == 0 { 1 } else { ey };
    let mut d = ex - ey;
    let mut r = mx % my;
    while d > 0 {
        let s = if d > 8 { 8 } else { d };
        r = (r << s as u32) % my;
        d -= s;
    }
    if r == 0 {
        return x * 0.0;
    }
    // r * 2^(ey - 150), in two exact steps (the result is representable).
    let v = (r as f32 * 1.1920928955078125e-07) * f32::from_bits((ey as u32) << 23);
    copysign(v, x)
}
