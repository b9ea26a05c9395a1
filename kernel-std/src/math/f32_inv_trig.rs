//! f32 inverse trigonometric functions, in f32 arithmetic.
//!
//! `asin` on `|x| <= 1/2` by an odd polynomial; beyond, `asin x = pi/2 - 2 asin(sqrt((1 - x)/2))`
//! (exact argument, square root from the hardware reciprocal square root plus one Newton step).
//! `atan` on `|x| <= 1` by an odd polynomial, beyond by `pi/2 - atan(1/x)`; `atan2` divides the
//! smaller magnitude by the larger and places the angle by the signs. Constants `pi/2`, `pi` are
//! added in two parts (`(LO - t) + HI`) so the result is rounded once. Coefficients: least-squares
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

use super::approx::{rcp_ftz, rsqrt_approx};

/// `asin(x)` for `|x| <= 1/2`, `u = x*x`.
#[device]
fn asin_k(x: f32, u: f32) -> f32 {
    let p = 0.03369084745645523f32;
    let p = p.mul_add(u, 0.017149237915873528);
    let p = p.mul_add(u, 0.031100662425160408);
    let p = p.mul_add(u, 0.04459940269589424);
    let p = p.mul_add(u, 0.07500094175338745);
    let p = p.mul_add(u, 0.1666666567325592);
    with_sign_of((x * u).mul_add(p, x), x)
}

/// `sqrt(z)` for `z` in `[0, 1]` (normal or zero), correctly rounded or one ulp off.
#[device]
pub fn sqrt_unit(z: f32) -> f32 {
    let y = rsqrt_approx(z);
    let s = z * y;
    let e = (-s).mul_add(s, z);
    let s = e.mul_add(0.5 * y, s);
    if z == 0.0 {
        z
    } else {
        s
    }
}

#[device]
fn with_sign_of(v: f32, s: f32) -> f32 {
    // One bit-select (LOP3 with a single immediate), not two masks and an or.
    let vb = v.to_bits();
    f32::from_bits(vb ^ ((vb ^ s.to_bits()) & 0x8000_0000))
}

/// `(s, z, big)`: `asin|x| = asin_k(s, z)` when `|x| <= 1/2` (`s = |x|`, `z = x^2`), else
/// `pi/2 - 2 asin_k(s, z)` with `z = (1 - |x|)/2`, `s = sqrt(z)`. Both cases share one
/// polynomial evaluation (no divergent branch).
#[device]
fn asin_reduce(x: f32) -> (f32, f32, bool) {
    let a = x.abs();
    let big = a > 0.5;
    let zb = (1.0 - a) * 0.5;
    let z = if big { zb } else { x * x };
    let s = if big { sqrt_unit(zb) } else { a };
    (s, z, big)
}

#[device]
pub fn asin(x: f32) -> f32 {
    let (s, z, big) = asin_reduce(x);
    let r = asin_k(s, z);
    let v = if big {
        (-2.0f32).mul_add(r, -4.371138828673793e-08) + 1.5707963705062866
    } else {
        r
    };
    with_sign_of(v, x)
}

#[device]
pub fn acos(x: f32) -> f32 {
    let (s, z, big) = asin_reduce(x);
    let r = asin_k(s, z);
    if big {
        if x > 0.0 {
            r + r
        } else {
            (-2.0f32).mul_add(r, -8.742277657347586e-08) + 3.1415927410125732
        }
    } else {
        (-4.371138828673793e-08 - with_sign_of(r, x)) + 1.5707963705062866
    }
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
