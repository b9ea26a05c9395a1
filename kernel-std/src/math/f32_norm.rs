//! f32 `rhypot`, `norm3d`, `rnorm3d`, `norm4d`, `rnorm4d` and `rcbrt`, in f32 arithmetic.
//!
//! The norms scale every argument by the power of two that brings the largest to `[1, 2)`
//! (exact; the scale built from the exponent field, clamped so it stays a normal number), so the
//! sum of squares (a chain of fmas) neither overflows nor underflows; then the hardware's
//! reciprocal square root (MUFU.RSQ) plus one Newton step computed with fmas, and one multiply
//! by the scale (or its reciprocal), which rounds subnormal and overflowing results once. C's
//! rule for `hypot` holds for all of them: an infinite argument gives `+inf` (`+0` for the
//! reciprocals) even when another is NaN. No branch.
//!
//! `rcbrt` (`x^(-1/3)`) splits `|x| = m 2^(3k)`, `m` in `[1, 8)`, by integer arithmetic on the
//! exponent field, takes the hardware estimate `2^(-log2(m)/3)` (MUFU.LG2, MUFU.EX2) and one
//! Newton step whose residual `y^3 m - 1` is formed to about 2^-45 (`y^2` and `y^3` as
//! double-f32), so the result is rounded essentially once.

#![allow(clippy::excessive_precision)]
// Device code: plain comparisons and min/max lower to one instruction each (no `clamp`).
#![allow(clippy::neg_cmp_op_on_partial_ord, clippy::manual_clamp)]

use kernel_macros::device;

use super::approx::{ex2_ftz, lg2_ftz, rsqrt_approx, select, select_u32};

/// The power of two `2^(127 - E)` for the exponent field `E` of `v` (so `v` times it lies in
/// `[1, 2)`), clamped to `[2^-126, 2^126]`, as its bits.
#[device]
fn scale_bits(v: f32) -> u32 {
    let eb = 0x7f00_0000u32.wrapping_sub(v.to_bits() & 0x7f80_0000) as i32;
    eb.max(0x0080_0000).min(0x7e80_0000) as u32
}

/// `1/sqrt(s)` for `s` in `[2^-46, 64]` or 0 (never subnormal): MUFU.RSQ and one Newton step
/// `y + y (1 - s y^2) / 2`, the residual with `y^2 = th + tl` exact (so it carries only the
/// rounding of a value near 0); `+inf` for 0.
#[device]
fn rsqrt_refined(s: f32) -> f32 {
    let y = rsqrt_approx(s);
    let th = y * y;
    let tl = y.mul_add(y, -th);
    let e = (-s).mul_add(th, 1.0) - s * tl;
    select(s == 0.0, f32::INFINITY, (0.5 * y).mul_add(e, y))
}

/// `sqrt(s)` for `s` in `[2^-46, 64]`: `s/sqrt(s)` from MUFU.RSQ, corrected once by the exact
/// residual `s - g^2` (as `hypot`).
#[device]
fn sqrt_refined(s: f32) -> f32 {
    let h = 0.5 * rsqrt_approx(s);
    let g = s * (h + h);
    (-g).mul_add(g, s).mul_add(h, g)
}

/// The special cases every norm shares: `r` unless an argument is NaN (`sum` is NaN) or
/// infinite (`v`, the largest magnitude, is `inf`), then NaN or `at_inf`.
#[device]
fn norm_special(r: f32, sum: f32, v: f32, at_inf: f32) -> f32 {
    let r = select(sum.is_nan(), sum, r);
    select(v == f32::INFINITY, at_inf, r)
}

/// `1 / sqrt(x^2 + y^2)`: CUDA's `rhypotf`.
#[device]
pub fn rhypot(x: f32, y: f32) -> f32 {
    let a = x.abs();
    let b = y.abs();
    let v = a.max(b);
    let sc = f32::from_bits(scale_bits(v));
    let p = a * sc;
    let q = b * sc;
    let s = p.mul_add(p, q * q);
    let r = rsqrt_refined(s) * sc;
    norm_special(r, a + b, v, 0.0)
}

/// `sqrt(a^2 + b^2 + c^2)`: CUDA's `norm3df`.
#[device]
pub fn norm3d(a: f32, b: f32, c: f32) -> f32 {
    let (a, b, c) = (a.abs(), b.abs(), c.abs());
    let v = a.max(b).max(c);
    let eb = scale_bits(v);
    let sc = f32::from_bits(eb);
    let isc = f32::from_bits(0x7f00_0000u32.wrapping_sub(eb));
    let (p, q, r) = (a * sc, b * sc, c * sc);
    let s = p.mul_add(p, q.mul_add(q, r * r));
    let g = select(v == 0.0, 0.0, sqrt_refined(s) * isc);
    norm_special(g, a + b + c, v, f32::INFINITY)
}

/// `1 / sqrt(a^2 + b^2 + c^2)`: CUDA's `rnorm3df`.
#[device]
pub fn rnorm3d(a: f32, b: f32, c: f32) -> f32 {
    let (a, b, c) = (a.abs(), b.abs(), c.abs());
    let v = a.max(b).max(c);
    let sc = f32::from_bits(scale_bits(v));
    let (p, q, r) = (a * sc, b * sc, c * sc);
    let s = p.mul_add(p, q.mul_add(q, r * r));
    let g = rsqrt_refined(s) * sc;
    norm_special(g, a + b + c, v, 0.0)
}

/// `sqrt(a^2 + b^2 + c^2 + d^2)`: CUDA's `norm4df`.
#[device]
pub fn norm4d(a: f32, b: f32, c: f32, d: f32) -> f32 {
    let (a, b, c, d) = (a.abs(), b.abs(), c.abs(), d.abs());
    let v = a.max(b).max(c.max(d));
    let eb = scale_bits(v);
    let sc = f32::from_bits(eb);
    let isc = f32::from_bits(0x7f00_0000u32.wrapping_sub(eb));
    let (p, q, r, t) = (a * sc, b * sc, c * sc, d * sc);
    let s = p.mul_add(p, q.mul_add(q, r.mul_add(r, t * t)));
    let g = select(v == 0.0, 0.0, sqrt_refined(s) * isc);
    norm_special(g, (a + b) + (c + d), v, f32::INFINITY)
}

/// `1 / sqrt(a^2 + b^2 + c^2 + d^2)`: CUDA's `rnorm4df`.
#[device]
pub fn rnorm4d(a: f32, b: f32, c: f32, d: f32) -> f32 {
    let (a, b, c, d) = (a.abs(), b.abs(), c.abs(), d.abs());
    let v = a.max(b).max(c.max(d));
    let sc = f32::from_bits(scale_bits(v));
    let (p, q, r, t) = (a * sc, b * sc, c * sc, d * sc);
    let s = p.mul_add(p, q.mul_add(q, r.mul_add(r, t * t)));
    let g = rsqrt_refined(s) * sc;
    norm_special(g, (a + b) + (c + d), v, 0.0)
}

/// `x^(-1/3)`: CUDA's `rcbrtf`. `±0` gives `±inf`, `±inf` gives `±0`, NaN stays NaN.
#[device]
pub fn rcbrt(x: f32) -> f32 {
    let a = x.abs();
    // Subnormals: scale by 2^24 (the result by 2^8).
    let sub = a < 1.17549435e-38;
    let v = select(sub, a * 16777216.0, a);
    // Unbiased exponent e = 3k + j, j in {0, 1, 2} (the offset keeps the division positive).
    let e = (v.to_bits() >> 23) as i32 - 127;
    let k = (e + 300) / 3 - 100;
    let j = e - 3 * k;
    let m = f32::from_bits((v.to_bits() & 0x007f_ffff) | (((j + 127) as u32) << 23));
    let y = ex2_ftz(lg2_ftz(m) * -0.3333333432674408);
    // y - y (y^3 m - 1) / 3, the residual to about 2^-45: y^2 = wh + wl, y^3 = zh + zl exactly
    // up to the last product's rounding, and zh m - 1 by one fma (near 0, exact enough).
    let wh = y * y;
    let wl = y.mul_add(y, -wh);
    let zh = wh * y;
    let zl = wh.mul_add(y, -zh) + wl * y;
    let res = zh.mul_add(m, -1.0) + zl * m;
    let y = (y * -0.3333333432674408).mul_add(res, y);
    // 2^(-k) (times 2^8 for subnormal x): -k in [-43, 50], a normal power of two.
    let k = select_u32(sub, (k - 8) as u32, k as u32) as i32;
    let r = y * f32::from_bits(((127 - k) as u32) << 23);
    let r = select(a == 0.0, f32::INFINITY, r);
    let r = select(a == f32::INFINITY, 0.0, r);
    let r = f32::from_bits(r.to_bits() | (x.to_bits() & 0x8000_0000));
    select(x.is_nan(), x, r)
}
