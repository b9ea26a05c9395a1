//! f32 inverse trigonometric functions, in f32 arithmetic.
//!
//! `asin` on `|x| <= 1/2` by an odd polynomial; beyond, `asin x = pi/2 - 2 asin(sqrt((1 - x)/2))`
//! (exact argument, square root from the hardware reciprocal square root plus one Newton step);
//! both cases share one polynomial and are chosen by selects, as `acos`'s three cases.
//! `atan` on `|x| <= 1` by an odd polynomial, beyond by `pi/2 - atan(1/x)`; `atan2` divides the
//! smaller magnitude by the larger and places the angle by the signs. Constants `pi/2`, `pi` are
//! added in two parts (`(LO - t) + HI`) so the result is rounded once, except in `asin`/`acos`,
//! whose bounds allow the rounded constant in one fma. Coefficients: least-squares
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

/// `atan(x)` for `|x| <= 1`.
#[device]
fn atan_k(x: f32) -> f32 {
    let u = x * x;
    let p = 0.001488691894337535f32;
    let p = p.mul_add(u, -0.00914462935179472);
    let p = p.mul_add(u, 0.026305001229047775);
    let p = p.mul_add(u, -0.04896051436662674);
    let p = p.mul_add(u, 0.07031914591789246);
    let p = p.mul_add(u, -0.08931826800107956);
    let p = p.mul_add(u, 0.11088261753320694);
    let p = p.mul_add(u, -0.14284004271030426);
    let p = p.mul_add(u, 0.19999949634075165);
    let p = p.mul_add(u, -0.3333333432674408);
    with_sign_of((x * u).mul_add(p, x), x)
}

#[device]
pub fn atan(x: f32) -> f32 {
    // atan|x| = pi/2 - atan(1/|x|) beyond 1, one polynomial evaluation for both cases (no
    // divergent branch); 1/|x| from the hardware reciprocal and one Newton step (|x| capped at
    // 2^100, where pi/2 - 1/|x| rounds to pi/2).
    let a = x.abs();
    let big = a > 1.0;
    let ac = a.min(1.2676506e30);
    let y = rcp_ftz(ac);
    let e = (-ac).mul_add(y, 1.0);
    let y = y.mul_add(e, y);
    let t = atan_k(if big { y } else { a });
    let r = if big {
        (-4.371138828673793e-08 - t) + 1.5707963705062866
    } else {
        t
    };
    if x.is_nan() {
        x
    } else {
        with_sign_of(r, x)
    }
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
    let t = if ay > ax {
        (-4.371138828673793e-08 - t) + 1.5707963705062866
    } else {
        t
    };
    let t = if x.is_sign_negative() {
        (-8.742277657347586e-08 - t) + 3.1415927410125732
    } else {
        t
    };
    with_sign_of(t, y)
}
