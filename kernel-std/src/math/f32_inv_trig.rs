//! f32 inverse trigonometric functions, in f32 arithmetic.
//!
//! `asin` on `|x| <= 1/2` by an odd polynomial; beyond, `asin x = pi/2 - 2 asin(sqrt((1 - x)/2))`
//! (exact argument, square root from the hardware reciprocal square root plus one Newton step);
//! both cases share one polynomial and are chosen by selects, as `acos`'s three cases.
//! `atan` on `|x| <= 1` by an odd polynomial, beyond by `pi/2 - atan(1/x)`; `atan2` divides the
//! smaller magnitude by the larger and places the angle by the signs. Constants `pi/2`, `pi` are
//! added in two parts (`(LO - t) + HI`) or, for `pi/2 - t`, as one fma of two f32 factors of
//! `pi/2` (`pio2_minus`), so the result is rounded once; `asin`/`acos`'s bounds allow the rounded
//! constant in one fma. Coefficients: least-squares
//! fits on Chebyshev nodes (`fit_coeffs.py`).

#![allow(clippy::excessive_precision, clippy::approx_constant)]
// Device code: plain comparisons (NaN-aware as written) lower to one instruction each; the
// kernel DSL has no `contains`, `clamp` or `partial_cmp`.
#![allow(
    clippy::neg_cmp_op_on_partial_ord,
    clippy::manual_clamp,
    clippy::manual_range_contains
)]

use kernel_macros::device;

use super::approx::{rcp_ftz, rsqrt_ftz, select};

/// `asin(t)` for `|t| <= 1/2`, `u = t*t`: degree-4 polynomial in `u` (CUDA's bounds leave room
/// for it: about 1/3 ulp on either path).
#[device]
fn asin_k(t: f32, u: f32) -> f32 {
    let p = 0.03808502480387688f32;
    let p = p.mul_add(u, 0.026554541662335396);
    let p = p.mul_add(u, 0.045001380145549774);
    let p = p.mul_add(u, 0.07498855143785477);
    let p = p.mul_add(u, 0.16666673123836517);
    (t * u).mul_add(p, t)
}

#[device]
fn with_sign_of(v: f32, s: f32) -> f32 {
    // One bit-select (LOP3 with a single immediate), not two masks and an or.
    let vb = v.to_bits();
    f32::from_bits(vb ^ ((vb ^ s.to_bits()) & 0x8000_0000))
}

/// `(r, big)`: `r = asin|x|` when `|x| <= 1/2`, else `r = asin(sqrt((1 - |x|)/2))`, so that
/// `asin|x| = pi/2 - 2r`. Both cases share one polynomial evaluation, the root of
/// `z = (1 - |x|)/2` (exact; normal or zero below 1) is computed unconditionally (one
/// MUFU.RSQ, one correction) and the
/// operands are selected: no branch. NaN for `|x| > 1` (negative `z`) and NaN `x`.
#[device]
fn asin_parts(x: f32) -> (f32, bool) {
    let a = x.abs();
    let big = a > 0.5;
    let z = (-0.5f32).mul_add(a, 0.5);
    let y = rsqrt_ftz(z);
    let s = z * y;
    let h = 0.5 * y;
    let e = (-s).mul_add(h, 0.5);
    let s = select(a == 1.0, 0.0, s.mul_add(e, s));
    let r = asin_k(select(big, s, a), select(big, z, x * x));
    (r, big)
}

#[device]
pub fn asin(x: f32) -> f32 {
    // pi/2 - 2r >= pi/6: the rounded pi/2 costs at most 3/4 ulp, inside CUDA's 4.
    let (r, big) = asin_parts(x);
    with_sign_of(select(big, (-2.0f32).mul_add(r, 1.5707963705062866), r), x)
}

#[device]
pub fn acos(x: f32) -> f32 {
    // pi/2 - asin x for |x| <= 1/2, 2r for x > 1/2, pi - 2r for x < -1/2: one fma of the signed
    // r with a selected factor and constant (the rounded pi/2 or pi costs at most 0.4 ulp).
    let (r, big) = asin_parts(x);
    let k = select(big, 2.0, -1.0);
    let c = select(
        big,
        select(x < 0.0, 3.1415927410125732, 0.0),
        1.5707963705062866,
    );
    k.mul_add(with_sign_of(r, x), c)
}

/// `atan(t)` for `0 <= t <= 1`: degree 7 in `t^2`, fitted for relative error (Lawson's
/// weighted least squares, about 0.36 ulp with the f32 coefficients).
#[device]
fn atan_k(t: f32) -> f32 {
    let u = t * t;
    let p = 0.0029206653125584126f32;
    let p = p.mul_add(u, -0.016367824748158455);
    let p = p.mul_add(u, 0.04321170225739479);
    let p = p.mul_add(u, -0.07552202045917511);
    let p = p.mul_add(u, 0.10665999352931976);
    let p = p.mul_add(u, -0.14211054146289825);
    let p = p.mul_add(u, 0.19993773102760315);
    let p = p.mul_add(u, -0.33333152532577515);
    t.mul_add(u * p, t)
}

/// `pi/2 - t` rounded once: `pi/2` as the product of two f32 (`A * B - pi/2` is about
/// `1.6e-14`), the difference in one fma.
#[device]
fn pio2_minus(t: f32) -> f32 {
    0.9331894516944885f32.mul_add(1.6832555532455444, -t)
}

#[device]
pub fn atan(x: f32) -> f32 {
    // atan|x| = pi/2 - atan(1/|x|) beyond 1, one polynomial evaluation for both cases (no
    // branch). 1/|x| straight from the hardware reciprocal, as CUDA's atanf (its error, under
    // 2^-23 relative, moves the result by at most 2^-24 near |x| = 1: within the 2 ulp bound);
    // it flushes to 0 beyond 2^126 and is 0 at infinity, where the result is pi/2. NaN stays
    // NaN through the polynomial.
    let a = x.abs();
    let big = a > 1.0;
    let t = atan_k(select(big, rcp_ftz(a), a));
    with_sign_of(select(big, pio2_minus(t), t), x)
}

/// `atan2(y, x)`: the angle of `(x, y)`, C's argument order (Rust's `y.atan2(x)`).
#[device]
pub fn atan2(y: f32, x: f32) -> f32 {
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    let ax = x.abs();
    let ay = y.abs();
    let a = if ax == ay {
        if ax == 0.0 {
            0.0
        } else {
            1.0
        }
    } else {
        ax.min(ay) / ax.max(ay)
    };
    let t = atan_k(a);
    let t = if ay > ax { pio2_minus(t) } else { t };
    let t = if x.is_sign_negative() {
        (-8.742277657347586e-08 - t) + 3.1415927410125732
    } else {
        t
    };
    with_sign_of(t, y)
}
