//! f32 `rhypot`, `norm3d`, `rnorm3d`, `norm4d`, `rnorm4d` and `rcbrt`, in f32 arithmetic.
//!
//! The norms scale every argument by a power of two that brings the largest near 1 (exact;
//! the scale built from the exponent field), so the sum of squares (a chain of fmas) neither
//! overflows nor underflows. `norm3d`/`norm4d` take the square root from MUFU.RSQ plus one
//! correction step and multiply by the scale's reciprocal; the reciprocal norms (`rhypot`,
//! `rnorm3d`, `rnorm4d`) take MUFU.RSQ itself (within CUDA's 2 ulp, as CUDA's own) and multiply
//! by the scale, which rounds subnormal results once. C's rule for `hypot` holds for all of
//! them: an infinite argument gives `+inf` (`+0` for the reciprocals) even when another is NaN.
//! No branch.
//!
//! `rcbrt` (`x^(-1/3)`) takes the hardware estimate `2^(-log2|x|/3)` (MUFU.LG2, MUFU.EX2) and
//! one Newton step (two MUFU and five f32 operations, as CUDA's `rcbrtf`).

#![allow(clippy::excessive_precision)]
// Device code: plain comparisons and min/max lower to one instruction each (no `clamp`).
#![allow(clippy::neg_cmp_op_on_partial_ord, clippy::manual_clamp)]

use kernel_macros::device;

use super::approx::{ex2_ftz, lg2_ftz, rsqrt_approx, rsqrt_ftz, select};

/// The power of two `2^(127 - E)` for the exponent field `E` of `v` (so `v` times it lies in
/// `[1, 2)`), clamped to `[2^-126, 2^126]`, as its bits.
#[device]
fn scale_bits(v: f32) -> u32 {
    let eb = 0x7f00_0000u32.wrapping_sub(v.to_bits() & 0x7f80_0000) as i32;
    eb.max(0x0080_0000).min(0x7e80_0000) as u32
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

/// `2^(126 - (E & !3))` for the exponent field `E` of `v` (finite or NaN, not negative):
/// `v` times it lies in `[1/2, 8)` (`[2^-23, 1)` for subnormal `v`), and it is normal for
/// every `E` (so no clamp), as the reciprocal norms want it.
#[device]
fn rscale(vb: u32) -> f32 {
    f32::from_bits(0x7e80_0000 - (vb & 0xfe00_0000))
}

/// `1 / sqrt(x^2 + y^2)`: CUDA's `rhypotf`. The larger and smaller magnitude as integers (so a
/// NaN, whose bits are above infinity's, is the larger and propagates), both scaled by
/// [`rscale`], MUFU.RSQ of `fma(p, p, q q)` (in `[1/4, 128]`, or 0: `+inf`) scaled back, once
/// rounded; an infinite smaller magnitude (both infinite, or infinity with a NaN) gives `+0`.
#[device]
pub fn rhypot(x: f32, y: f32) -> f32 {
    let ab = x.to_bits() & 0x7fff_ffff;
    let bb = y.to_bits() & 0x7fff_ffff;
    let vb = ab.max(bb);
    let wb = ab.min(bb);
    let sc = rscale(vb);
    let p = f32::from_bits(vb) * sc;
    let q = f32::from_bits(wb) * sc;
    let r = rsqrt_ftz(p.mul_add(p, q * q)) * sc;
    select(wb == 0x7f80_0000, 0.0, r)
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

/// `1 / sqrt(a^2 + b^2 + c^2)`: CUDA's `rnorm3df`. As `rhypot`: every magnitude scaled by
/// [`rscale`] of the largest (`max` skips a NaN), MUFU.RSQ of the fma chain scaled back; a NaN
/// (the sum of the magnitudes is NaN) gives NaN, an infinity (the largest is infinite) `+0`.
#[device]
pub fn rnorm3d(a: f32, b: f32, c: f32) -> f32 {
    let (a, b, c) = (a.abs(), b.abs(), c.abs());
    // The three magnitudes reordered (largest `v`, then `m`, then `n`: the same three unless
    // one is NaN, which the sum reports) so that the largest square is added last, where the
    // fma chain's rounding errors weigh least.
    let ab = a.max(b);
    let v = ab.max(c);
    let m = ab.min(c);
    let n = a.min(b);
    let sc = rscale(v.to_bits());
    let (p, q, r) = (v * sc, m * sc, n * sc);
    let s = p.mul_add(p, q.mul_add(q, r * r));
    let g = rsqrt_ftz(s) * sc;
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

/// `1 / sqrt(a^2 + b^2 + c^2 + d^2)`: CUDA's `rnorm4df`, as [`rnorm3d`].
#[device]
pub fn rnorm4d(a: f32, b: f32, c: f32, d: f32) -> f32 {
    let (a, b, c, d) = (a.abs(), b.abs(), c.abs(), d.abs());
    let v = a.max(b).max(c.max(d));
    let sc = rscale(v.to_bits());
    let (p, q, r, t) = (a * sc, b * sc, c * sc, d * sc);
    let s = p.mul_add(p, q.mul_add(q, r.mul_add(r, t * t)));
    let g = rsqrt_ftz(s) * sc;
    norm_special(g, (a + b) + (c + d), v, 0.0)
}

/// `x^(-1/3)`: CUDA's `rcbrtf`. `±0` gives `±inf`, `±inf` gives `±0`, NaN stays NaN.
///
/// `y = 2^(-log2|x| / 3)` from MUFU.LG2 and MUFU.EX2 (a subnormal `|x|` scaled by 2^24 before
/// the logarithm and the 24 taken off after it, so `y` comes out at its own scale, at most
/// `2^50`), then one Newton step `y + (y/3) (1 - y^2 (|x| y))`, which leaves the estimate's
/// error squared: about 0.7 ulp in all. Zeros and infinities are the `x` with `x + x == x`:
/// their result is `x + x` with the exponent field flipped (`±0 <-> ±inf`); NaN stays NaN
/// through the units.
#[device]
pub fn rcbrt(x: f32) -> f32 {
    let a = x.abs();
    let sub = a < 1.17549435e-38;
    let l = lg2_ftz(select(sub, a * 16777216.0, a)) - select(sub, 24.0, 0.0);
    let y = ex2_ftz(l * -0.3333333432674408);
    let h = (y * y).mul_add(-(a * y), 1.0);
    let r = h.mul_add(y * 0.3333333432674408, y);
    let r = f32::from_bits(r.to_bits() | (x.to_bits() & 0x8000_0000));
    let d = x + x;
    select(d == x, f32::from_bits(d.to_bits() ^ 0x7f80_0000), r)
}
