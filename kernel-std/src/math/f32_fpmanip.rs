//! f32 `frexp`, `ldexp` (`scalbn`), `logb`, `ilogb`, `fdim`, `nextafter`, `remainder` and
//! `remquo`: exact, by integer arithmetic on the bits, multiplications by powers of two and
//! selects. `logb`/`ilogb` branch once to a slow path for zeros, subnormals, infinities and
//! NaN; `remainder`/`remquo` take a straight-line path for quotients below 2^16 and reduce
//! with `fmod` (exact) first otherwise.
//!
//! Subnormal arguments are normalised by one multiplication by 2^24 (exact). `ldexp` multiplies
//! by powers of two built from `n` alone, arranged so that only the last product rounds.

#![allow(clippy::excessive_precision)]
// Device code: plain comparisons and min/max lower to one instruction each (no `clamp`).
#![allow(
    clippy::neg_cmp_op_on_partial_ord,
    clippy::manual_clamp,
    clippy::manual_range_contains
)]

use kernel_macros::device;

use super::approx::{f2i_rn, rcp_ftz, select, select_u32};
use super::f32_misc::fmod;

/// `(v, bias)`: `|x|` with subnormals scaled by 2^24 (exact), and the 24 to take off its exponent.
#[device]
fn normalized(a: f32) -> (f32, i32) {
    let sub = a < 1.17549435e-38;
    (
        select(sub, a * 16777216.0, a),
        select_u32(sub, 24, 0) as i32,
    )
}

/// `x = m 2^e` with `|m|` in `[0.5, 1)`: CUDA's `frexpf`, the exponent returned (not stored).
/// Zeros, infinities and NaN give `(x, 0)`.
#[device]
pub fn frexp(x: f32) -> (f32, i32) {
    let (v, off) = normalized(x.abs());
    let b = v.to_bits();
    let e = (b >> 23) as i32 - 126 - off;
    let m = f32::from_bits((b & 0x007f_ffff) | 0x3f00_0000 | (x.to_bits() & 0x8000_0000));
    let special = (x == 0.0) | !x.is_finite();
    (
        select(special, x, m),
        select_u32(special, 0, e as u32) as i32,
    )
}

/// `x 2^n` rounded once: CUDA's `ldexpf` (and `scalbnf`). Four multiplications by normal
/// powers of two, whose factors depend on `n` only (so a loop with an invariant `n` keeps just
/// the multiplications): for `|n| <= 100`, `x 2^n` times 1 three times (one rounding); beyond,
/// `n + 508 = 3q + r` split as `2^(r-127) (2^(q-127))^3`, every factor normal. For `n < -100`
/// every factor is at most `2^-23` and the last at most `2^-26`, so each product before the
/// last is at least `2^-124` whenever the result is not zero (exact: the last multiplication
/// is the only rounding); for `n > 100` the products only grow (exact up to overflow, which
/// the result then shares). `|n| > 278` gives 0 or infinity for every finite nonzero `x`, so
/// `n` is clamped there. Zeros, infinities and NaN pass through the multiplications.
#[device]
pub fn ldexp(x: f32, n: i32) -> f32 {
    let n = n.max(-278).min(278);
    let k = n + 508;
    let q = k >> 2;
    let big = ((n + 100) as u32) > 200;
    let f1 = f32::from_bits(select_u32(big, (q as u32) << 23, 0x3f80_0000));
    let f0 = f32::from_bits(select_u32(
        big,
        ((k - 3 * q) as u32) << 23,
        ((n + 127) as u32) << 23,
    ));
    (((x * f0) * f1) * f1) * f1
}

/// `scalbn(x, n)`: `x 2^n` (the same as `ldexp` in binary).
#[device]
pub fn scalbn(x: f32, n: i32) -> f32 {
    ldexp(x, n)
}

/// The unbiased exponent of `x`: CUDA's `ilogbf`. `0` and NaN give `i32::MIN` (FP_ILOGB0,
/// FP_ILOGBNAN), infinities `i32::MAX`. Normal `x` read the exponent field; zeros,
/// subnormals, infinities and NaN take one branch (rare) to [`ilogb_special`].
#[device]
pub fn ilogb(x: f32) -> i32 {
    let b = x.to_bits() & 0x7fff_ffff;
    let mut e = (b >> 23) as i32 - 127;
    if b.wrapping_sub(0x0080_0000) >= 0x7f00_0000 {
        e = ilogb_special(x);
    }
    e
}

/// [`ilogb`] for every `x`, branch-free (subnormals normalised by 2^24).
#[device]
fn ilogb_special(x: f32) -> i32 {
    let (v, off) = normalized(x.abs());
    let e = (v.to_bits() >> 23) as i32 - 127 - off;
    let e = select_u32((x == 0.0) | x.is_nan(), 0x8000_0000, e as u32);
    select_u32(x.abs() == f32::INFINITY, 0x7fff_ffff, e) as i32
}

/// The unbiased exponent of `x` as a float: CUDA's `logbf`. `±0` gives `-inf`, `±inf` `+inf`.
/// Normal `x` read the exponent field; the rest take one branch (rare) to [`logb_special`].
#[device]
pub fn logb(x: f32) -> f32 {
    let b = x.to_bits() & 0x7fff_ffff;
    let mut e = ((b >> 23) as i32 - 127) as f32;
    if b.wrapping_sub(0x0080_0000) >= 0x7f00_0000 {
        e = logb_special(x);
    }
    e
}

/// [`logb`] for every `x`, branch-free (subnormals normalised by 2^24).
#[device]
fn logb_special(x: f32) -> f32 {
    let a = x.abs();
    let (v, off) = normalized(a);
    let e = ((v.to_bits() >> 23) as i32 - 127 - off) as f32;
    let e = select(a == 0.0, f32::NEG_INFINITY, e);
    select((a == f32::INFINITY) | x.is_nan(), a, e)
}

/// `x - y` if `x > y`, else `+0`; NaN if either is: CUDA's `fdimf`. The unordered comparison
/// `!(x <= y)` also holds for a NaN operand, and `x - y` is then NaN: one compare, one
/// subtraction, one select.
#[device]
pub fn fdim(x: f32, y: f32) -> f32 {
    select(!(x <= y), x - y, 0.0)
}

/// The next f32 after `x` toward `y`: CUDA's `nextafterf`. `y` if equal (so `nextafter(0, -0)`
/// is `-0`), NaN if either is.
#[device]
pub fn nextafter(x: f32, y: f32) -> f32 {
    let b = x.to_bits();
    // Away from zero when y lies beyond x on x's side, else toward zero.
    let away = (x < y) == (x > 0.0);
    let step = select_u32(away, b.wrapping_add(1), b.wrapping_sub(1));
    // From ±0 the smallest subnormal with y's sign.
    let r = select(
        x == 0.0,
        f32::from_bits(1 | (y.to_bits() & 0x8000_0000)),
        f32::from_bits(step),
    );
    let r = select(x == y, y, r);
    select(x.is_nan() | y.is_nan(), x + y, r)
}

/// `x - n y` with `n` the integer nearest `x / y` (ties to even): CUDA's `remainderf`, exact.
#[device]
pub fn remainder(x: f32, y: f32) -> f32 {
    remquo(x, y).0
}

/// `remainder(x, y)` and the quotient's low three bits with the sign of `x / y`: CUDA's
/// `remquof`. Quotients below `2^16` (the common case) take a straight-line path under one
/// branch: `fmod`'s fast path (a truncated quotient `t` from a refined reciprocal, biased so
/// it is the true one or one above, the remainder `|x| - t |y|` by one exact fma and one exact
/// correction), then rounded to the nearest multiple (ties to the even quotient) by one more
/// exact subtraction. The rest (huge quotients, zeros, infinities, NaN, extreme `y`) go to
/// [`remquo_long`].
#[device]
pub fn remquo(x: f32, y: f32) -> (f32, i32) {
    let ax = x.abs();
    let ay = y.abs();
    // False for NaN, infinite `x`, and `y` zero, infinite or NaN (as `fmod`'s test).
    if ay >= 7.888609e-31 && ay <= 1.2676506e30 && ax < 65536.0 * ay {
        let yi = rcp_ftz(ay);
        let e = (-ay).mul_add(yi, 1.0);
        let yi = yi.mul_add(e, yi);
        let t = (ax * yi * 1.000000476837158).trunc();
        let f = (-t).mul_add(ay, ax);
        let over = f < 0.0;
        let f = select(over, f + ay, f);
        // The truncated quotient, exact below 2^16 + 1.
        let qt = f2i_rn(t) - select_u32(over, 1, 0);
        // Round to nearest, ties to even quotient: 2f is exact and f - |y| too (Sterbenz).
        let twice = f + f;
        let up = (twice > ay) | ((twice == ay) & ((qt & 1) == 1));
        let m = select(up, f - ay, f);
        let qm = (qt + select_u32(up, 1, 0)) & 7;
        let r = f32::from_bits(m.to_bits() ^ (x.to_bits() & 0x8000_0000));
        let neg = (x.to_bits() ^ y.to_bits()) & 0x8000_0000 != 0;
        (r, select_u32(neg, 0u32.wrapping_sub(qm), qm) as i32)
    } else {
        remquo_long(x, y)
    }
}

/// [`remquo`] for every argument: `|x|` is reduced modulo `8|y|` (exact, `fmod`), the three
/// quotient bits taken by subtracting `4|y|`, `2|y|`, `|y|` (each exact: Sterbenz), and the
/// remainder rounded to the nearest multiple by one more exact subtraction.
#[device]
fn remquo_long(x: f32, y: f32) -> (f32, i32) {
    let ax = x.abs();
    let ay = y.abs();
    // 8|y| may overflow to inf: fmod then returns |x|, which is below 8|y| anyway.
    let r = fmod(ax, 8.0 * ay);
    let c4 = r >= 4.0 * ay;
    let r = select(c4, r - 4.0 * ay, r);
    let c2 = r >= 2.0 * ay;
    let r = select(c2, r - 2.0 * ay, r);
    let c1 = r >= ay;
    let r = select(c1, r - ay, r);
    let q = select_u32(c4, 4, 0) | select_u32(c2, 2, 0) | select_u32(c1, 1, 0);
    // Round to nearest, ties to even quotient: 2r is exact (or inf, then above |y| as r is).
    let twice = r + r;
    let up = (twice > ay) | ((twice == ay) & ((q & 1) == 1));
    let r = select(up, r - ay, r);
    let q = (q + select_u32(up, 1, 0)) & 7;
    let r = f32::from_bits(r.to_bits() ^ (x.to_bits() & 0x8000_0000));
    let neg = (x.to_bits() ^ y.to_bits()) & 0x8000_0000 != 0;
    let q = select_u32(neg, 0u32.wrapping_sub(q), q) as i32;
    // NaN operands, x infinite, y zero: NaN; y infinite (x finite): x itself.
    let bad = x.is_nan() | y.is_nan() | (ax == f32::INFINITY) | (ay == 0.0);
    let r = select(ay == f32::INFINITY, x, r);
    let q = select_u32(bad | (ay == f32::INFINITY), 0, q as u32) as i32;
    (select(bad, f32::NAN, r), q)
}

/// `(fractional part, integral part)` of `x`, both with `x`'s sign: CUDA's `modff`, which
/// returns the first and stores the second. `±inf` gives `(±0, ±inf)`, NaN `(NaN, NaN)`.
#[device]
pub fn modf(x: f32) -> (f32, f32) {
    let i = x.trunc();
    // x - trunc(x) is exact; its sign is x's (for -3.0: -0).
    let f = f32::from_bits((x - i).to_bits() | (x.to_bits() & 0x8000_0000));
    let f = select(
        x.abs() == f32::INFINITY,
        f32::from_bits(x.to_bits() & 0x8000_0000),
        f,
    );
    (f, i)
}
