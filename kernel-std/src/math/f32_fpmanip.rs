//! f32 `frexp`, `ldexp` (`scalbn`), `logb`, `ilogb`, `fdim`, `nextafter`, `remainder` and
//! `remquo`: exact, by integer arithmetic on the bits and selects (no branch), except that
//! `remainder`/`remquo` reduce with `fmod` (exact) first.
//!
//! Subnormal arguments are normalised by one multiplication by 2^24 (exact). `ldexp` builds the
//! result's exponent field directly when it is normal; a subnormal result is built 2^64 too
//! large and scaled down by one multiplication, its only rounding.

#![allow(clippy::excessive_precision)]
// Device code: plain comparisons and min/max lower to one instruction each (no `clamp`).
#![allow(clippy::neg_cmp_op_on_partial_ord, clippy::manual_clamp)]

use kernel_macros::device;

use super::approx::{select, select_u32};
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

/// `x 2^n` rounded once: CUDA's `ldexpf` (and `scalbnf`).
#[device]
pub fn ldexp(x: f32, n: i32) -> f32 {
    let (v, off) = normalized(x.abs());
    let b = v.to_bits();
    // Beyond ±400 the result is 0 or infinite for every finite nonzero x: clamp so the
    // exponent arithmetic cannot overflow.
    let n = n.max(-400).min(400);
    let e = (b >> 23) as i32 + n - off;
    let sign = x.to_bits() & 0x8000_0000;
    let mant = b & 0x007f_ffff;
    // Normal result: the exponent field itself. Subnormal: built with field e + 64 and scaled
    // by 2^-64 (one rounding); below e = -63 it rounds to zero, as the scaling then gives.
    let normal = f32::from_bits(sign | mant | ((e.max(1).min(254) as u32) << 23));
    let low = f32::from_bits(sign | mant | (((e + 64).max(1).min(254) as u32) << 23));
    let low = low * 5.421010862427522e-20;
    let r = select(e >= 1, normal, low);
    let r = select(e >= 255, f32::from_bits(sign | 0x7f80_0000), r);
    select((x == 0.0) | !x.is_finite(), x + x, r)
}

/// `scalbn(x, n)`: `x 2^n` (the same as `ldexp` in binary).
#[device]
pub fn scalbn(x: f32, n: i32) -> f32 {
    ldexp(x, n)
}

/// The unbiased exponent of `x`: CUDA's `ilogbf`. `0` and NaN give `i32::MIN` (FP_ILOGB0,
/// FP_ILOGBNAN), infinities `i32::MAX`.
#[device]
pub fn ilogb(x: f32) -> i32 {
    let (v, off) = normalized(x.abs());
    let e = (v.to_bits() >> 23) as i32 - 127 - off;
    let e = select_u32((x == 0.0) | x.is_nan(), 0x8000_0000, e as u32);
    select_u32(x.abs() == f32::INFINITY, 0x7fff_ffff, e) as i32
}

/// The unbiased exponent of `x` as a float: CUDA's `logbf`. `±0` gives `-inf`, `±inf` `+inf`.
#[device]
pub fn logb(x: f32) -> f32 {
    let a = x.abs();
    let (v, off) = normalized(a);
    let e = ((v.to_bits() >> 23) as i32 - 127 - off) as f32;
    let e = select(a == 0.0, f32::NEG_INFINITY, e);
    select((a == f32::INFINITY) | x.is_nan(), a, e)
}

/// `x - y` if `x > y`, else `+0`; NaN if either is: CUDA's `fdimf`.
#[device]
pub fn fdim(x: f32, y: f32) -> f32 {
    let d = x - y;
    let d = select(x > y, d, 0.0);
    select(x.is_nan() | y.is_nan(), x + y, d)
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
/// `remquof`. `|x|` is reduced modulo `8|y|` (exact, `fmod`), the three quotient bits taken by
/// subtracting `4|y|`, `2|y|`, `|y|` (each exact: Sterbenz), and the remainder rounded to the
/// nearest multiple by one more exact subtraction.
#[device]
pub fn remquo(x: f32, y: f32) -> (f32, i32) {
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
