//! f64 sine, cosine, tangent and their `pi`-scaled forms.
//!
//! Reduction to `r = x - n*pi/2`, `|r| <= pi/4`, kept as a double-double `(hi, lo)`: Cody-Waite
//! with pi/2 split into four 32-bit pieces while `|n| < 2^20` (every `n * piece` is exact), and
//! the Payne-Hanek scheme of `f64_reduce` beyond. Kernels: Taylor series of sin (to degree 19) and
//! cos (to degree 20) on `|r| <= pi/4` (truncation below 2^-60 relative), with the tail `lo`
//! entering through the first-order terms.

#![allow(clippy::excessive_precision, clippy::approx_constant)]

use kernel_macros::device;

use super::f64_reduce::{rem_pio2_large, two_sum};

/// `x = n*pi/2 + hi + lo`: returns `(n mod 4, hi, lo)`. `x` must be finite.
#[device]
pub fn rem_pio2(x: f64) -> (i32, f64, f64) {
    let ax = x.abs();
    if ax <= 0.7853981633974483 {
        return (0, x, 0.0);
    }
    if ax >= 1647099.0 {
        return rem_pio2_large(x);
    }
    let kf = (x * 0.6366197723675814).round();
    let t = x - kf * 1.5707963267341256;
    let (h, e1) = two_sum(t, -kf * 6.077100506303966e-11);
    let (h, e2) = two_sum(h, -kf * 2.0222662487111665e-21);
    let lo = (e1 + e2) - kf * 8.478427660348229e-32;
    let (hi, lo) = two_sum(h, lo);
    ((kf as i64 & 3) as i32, hi, lo)
}

/// sin(x + y) for `|x| <= pi/4 + tiny`, `|y|` below half an ulp of `x`.
#[device]
pub fn sin_k(x: f64, y: f64) -> f64 {
    let z = x * x;
    let p = -8.22063524662433e-18;
    let p = p * z + 2.8114572543455206e-15;
    let p = p * z - 7.647163731819816e-13;
    let p = p * z + 1.6059043836821613e-10;
    let p = p * z - 2.505210838544172e-08;
    let p = p * z + 2.755731922398589e-06;
    let p = p * z - 0.0001984126984126984;
    let p = p * z + 0.008333333333333333;
    let v = z * x;
    x + (v * (-0.16666666666666666 + z * p) + y * (1.0 - 0.5 * z))
}

/// cos(x + y) under the same conditions as `sin_k`.
#[device]
pub fn cos_k(x: f64, y: f64) -> f64 {
    let z = x * x;
    let p = 4.110317623312165e-19;
    let p = p * z - 1.5619206968586225e-16;
    let p = p * z + 4.779477332387385e-14;
    let p = p * z - 1.1470745597729725e-11;
    let p = p * z + 2.08767569878681e-09;
    let p = p * z - 2.755731922398589e-07;
    let p = p * z + 2.48015873015873e-05;
    let p = p * z - 0.001388888888888889;
    let p = p * z + 0.041666666666666664;
    let hz = 0.5 * z;
    let w = 1.0 - hz;
    w + (((1.0 - w) - hz) + (z * z * p - x * y))
}

/// `(sin, cos)` of `n*pi/2 + hi + lo`.
#[device]
fn sincos_q(n: i32, hi: f64, lo: f64) -> (f64, f64) {
    let s = sin_k(hi, lo);
    let c = cos_k(hi, lo);
    match n & 3 {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    }
}

#[device]
pub fn sincos(x: f64) -> (f64, f64) {
    if x.abs() < 3.725290298461914e-09 {
        return (x, 1.0);
    }
    if !x.abs().is_finite() {
        return (f64::NAN, f64::NAN);
    }
    let (n, hi, lo) = rem_pio2(x);
    sincos_q(n, hi, lo)
}

#[device]
pub fn sin(x: f64) -> f64 {
    if x.abs() < 3.725290298461914e-09 {
        return x;
    }
    if !x.abs().is_finite() {
        return f64::NAN;
    }
    let (n, hi, lo) = rem_pio2(x);
    if n & 1 == 0 {
        let s = sin_k(hi, lo);
        if n == 0 {
            s
        } else {
            -s
        }
    } else {
        let c = cos_k(hi, lo);
        if n == 1 {
            c
        } else {
            -c
        }
    }
}

#[device]
pub fn cos(x: f64) -> f64 {
    if x.abs() < 3.725290298461914e-09 {
        return 1.0;
    }
    if !x.abs().is_finite() {
        return f64::NAN;
    }
    let (n, hi, lo) = rem_pio2(x);
    if n & 1 == 0 {
        let c = cos_k(hi, lo);
        if n == 0 {
            c
        } else {
            -c
        }
    } else {
        let s = sin_k(hi, lo);
        if n == 1 {
            -s
        } else {
            s
        }
    }
}

#[device]
pub fn tan(x: f64) -> f64 {
    if x.abs() < 3.725290298461914e-09 {
        return x;
    }
    if !x.abs().is_finite() {
        return f64::NAN;
    }
    let (n, hi, lo) = rem_pio2(x);
    let s = sin_k(hi, lo);
    let c = cos_k(hi, lo);
    if n & 1 == 0 {
        s / c
    } else {
        -c / s
    }
}

/// `x = n/2 + y` with `|y| <= 1/4`; returns `(n mod 4, y*pi as hi + lo)`. `x` finite, `|x| < 2^52`.
#[device]
fn rem_half(x: f64) -> (i32, f64, f64) {
    let nf = (x * 2.0).round();
    let y = x - nf * 0.5;
    let hi = y * 3.141592653589793;
    let lo = y.mul_add(3.141592653589793, -hi) + y * 1.2246467991473532e-16;
    ((nf as i64 & 3) as i32, hi, lo)
}

#[device]
pub fn sincospi(x: f64) -> (f64, f64) {
    if !x.abs().is_finite() {
        return (f64::NAN, f64::NAN);
    }
    if x.abs() >= 4503599627370496.0 {
        // An integer: sin is a signed zero, cos is 1 for even integers (all of them from 2^53).
        let odd = x.abs() < 9007199254740992.0 && (x * 0.5).fract() != 0.0;
        return (x * 0.0, if odd { -1.0 } else { 1.0 });
    }
    let (n, hi, lo) = rem_half(x);
    let (s, c) = sincos_q(n, hi, lo);
    // Exact zeros: sin keeps the sign of x, cos is +0.
    let s = if s == 0.0 { x * 0.0 } else { s };
    let c = if c == 0.0 { 0.0 } else { c };
    (s, c)
}

#[device]
pub fn sinpi(x: f64) -> f64 {
    let (s, _) = sincospi(x);
    s
}

#[device]
pub fn cospi(x: f64) -> f64 {
    let (_, c) = sincospi(x);
    c
}
