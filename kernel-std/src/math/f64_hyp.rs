//! f64 hyperbolic functions and their inverses.
//!
//! `sinh`, `cosh`, `tanh` meet CUDA's 1-ulp bound by building the result from double-doubles
//! (`exp_parts`, `expm1_dd`) and rounding once: `(e^x ± e^-x) / 2` with both terms as
//! double-doubles, `tanh = E / (E + 2)` or `1 - 2 / (E + 2)` with `E = e^(2|x|) - 1`, a
//! double-double quotient; `sinh` below 1/2 is its Taylor series (no cancellation). The inverses
//! (2 ulps) take the logarithm (`log_dd`, a double-double) of an argument built as a
//! double-double with the usual cancellation-free rearrangements (`asinh x = ln(1 + y)`,
//! `y = x + x^2 / (1 + sqrt(1 + x^2))`, ...), so only the final rounding and `log_dd`'s 2^-66
//! remain.

#![allow(clippy::excessive_precision, clippy::approx_constant)]

use kernel_macros::device;

use super::f64_exp_log::{exp_parts, expm1_dd, scale2};
use super::f64_pow::log_dd;
use super::f64_reduce::pow2i;
use super::f64_reduce::{fast_two_sum, two_sum};

/// `e^ax = 2^k (u + v)` for `0 <= ax <= 711` as `(k, u, v)`, `u` in `[0.7, 1.5]`.
#[device]
fn exp_uv(ax: f64) -> (i32, f64, f64) {
    let (k, h, l) = exp_parts(ax);
    let (u, v) = two_sum(1.0, h);
    (k, u, v + l)
}

/// `(e^ax + s e^-ax) / 2` for `0 <= ax < 22`, `s = ±1`, from double-doubles of both terms, so
/// the sum rounds once.
#[device]
fn half_exp_sum(ax: f64, s: f64) -> f64 {
    let (k, u, v) = exp_uv(ax);
    // 1 / (u + v) = q + ql.
    let q = 1.0 / u;
    let ql = ((-q).mul_add(u, 1.0) - q * v) / u;
    let up = pow2i(k - 1);
    let dn = pow2i(-k - 1) * s;
    let (h, e) = two_sum(up * u, dn * q);
    h + (e + (up * v + dn * ql))
}

/// `sinh(x) = x + x^3/3! + ... + x^17/17!` for `|x| < 1/2` (truncation near 2^-64).
#[device]
fn sinh_small(x: f64) -> f64 {
    let z = x * x;
    let p = 2.8114572543455206e-15;
    let p = p * z + 7.647163731819816e-13;
    let p = p * z + 1.6059043836821613e-10;
    let p = p * z + 2.505210838544172e-08;
    let p = p * z + 2.7557319223985893e-06;
    let p = p * z + 0.0001984126984126984;
    let p = p * z + 0.008333333333333333;
    let p = p * z + 0.16666666666666666;
    x + x * z * p
}

#[device]
pub fn sinh(x: f64) -> f64 {
    let ax = x.abs();
    // sinh x = x (1 + x^2/6 + ...) rounds to x below 2^-28.
    if !ax.is_finite() || ax < 3.725290298461914e-09 {
        return x;
    }
    if ax < 0.5 {
        return sinh_small(x);
    }
    let r = if ax > 711.0 {
        f64::INFINITY
    } else if ax < 22.0 {
        half_exp_sum(ax, -1.0)
    } else {
        // e^-ax is below 2^-63 of e^ax.
        let (k, u, v) = exp_uv(ax);
        scale2(u + v, k - 1)
    };
    if x < 0.0 {
        -r
    } else {
        r
    }
}

#[device]
pub fn cosh(x: f64) -> f64 {
    let ax = x.abs();
    if x.is_nan() {
        return x;
    }
    // cosh x = 1 + x^2/2 + ... rounds to 1 below 2^-27.
    if ax < 7.450580596923828e-09 {
        return 1.0;
    }
    if ax > 711.0 {
        return f64::INFINITY;
    }
    if ax < 22.0 {
        return half_exp_sum(ax, 1.0);
    }
    let (k, u, v) = exp_uv(ax);
    scale2(u + v, k - 1)
}

#[device]
pub fn tanh(x: f64) -> f64 {
    let ax = x.abs();
    if x.is_nan() {
        return x;
    }
    // tanh x = x (1 - x^2/3 + ...) rounds to x below 2^-28.
    if ax < 3.725290298461914e-09 {
        return x;
    }
    // 1 - tanh(22) < 2^-62.
    let r = if ax >= 22.0 {
        1.0
    } else {
        // With E = e^(2ax) - 1 as h + l: tanh = E / (E + 2) = 1 - 2 / (E + 2).
        let (h, l) = expm1_dd(2.0 * ax);
        let (dh, dl) = two_sum(h, 2.0);
        let dl = dl + l;
        if ax < 0.55 {
            let q = h / dh;
            let rem = (-q).mul_add(dh, h) + (l - q * dl);
            q + rem / dh
        } else {
            let q = 2.0 / dh;
            let ql = ((-q).mul_add(dh, 2.0) - q * dl) / dh;
            let (s, e) = two_sum(1.0, -q);
            s + (e - ql)
        }
    };
    if x < 0.0 {
        -r
    } else {
        r
    }
}

/// `ln(1 + yh + yl)` for `yh >= 0` and `|yl|` below an ulp of `yh`, rounded once: `1 + y` as a
/// double-double `uh + ul`, `ln uh` as a double-double, plus `ul / uh` (first order).
#[device]
fn ln_1p_dd(yh: f64, yl: f64) -> f64 {
    let (uh, ul) = two_sum(1.0, yh);
    let ul = ul + yl;
    let (h, l) = log_dd(uh);
    h + (l + ul / uh)
}

/// `ln(2 ax)` for `ax > 2^28` (where `asinh` and `acosh` are that within 2^-58), rounded once.
#[device]
fn ln_2x(ax: f64) -> f64 {
    let (h, l) = log_dd(ax);
    // ln 2 = 0.6931471805599453 + 2.3190468138462996e-17
    let (s, e) = two_sum(h, 0.6931471805599453);
    s + (e + (l + 2.3190468138462996e-17))
}

/// `ln(vh + vl)` for `vh >= 1`, `|vl|` below an ulp of `vh`, rounded once.
#[device]
fn ln_dd(vh: f64, vl: f64) -> f64 {
    let (h, l) = log_dd(vh);
    h + (l + vl / vh)
}

/// `sqrt(ah + al)` as a double-double (one Newton correction of the rounded root).
#[device]
fn sqrt_dd(ah: f64, al: f64) -> (f64, f64) {
    let s = ah.sqrt();
    let sl = ((-s).mul_add(s, ah) + al) / (s + s);
    fast_two_sum(s, sl)
}

#[device]
pub fn asinh(x: f64) -> f64 {
    let ax = x.abs();
    // asinh x = x (1 - x^2/6 + ...) rounds to x below 2^-28.
    if !ax.is_finite() || ax < 3.725290298461914e-09 {
        return x;
    }
    let r = if ax > 268435456.0 {
        ln_2x(ax)
    } else if ax > 2.0 {
        // ln(2 ax + 1 / (sqrt(ax^2 + 1) + ax)): the small term's rounding is far below an ulp.
        let t = 1.0 / ((ax * ax + 1.0).sqrt() + ax);
        let (vh, vl) = two_sum(2.0 * ax, t);
        ln_dd(vh, vl)
    } else {
        // ln(1 + y), y = ax + ax^2 / (1 + sqrt(1 + ax^2)), every step a double-double.
        let zh = ax * ax;
        let zl = ax.mul_add(ax, -zh);
        let (wh, wl) = two_sum(1.0, zh);
        let (sh, sl) = sqrt_dd(wh, wl + zl);
        let (dh, dl) = two_sum(1.0, sh);
        let dl = dl + sl;
        let qh = zh / dh;
        let ql = ((-qh).mul_add(dh, zh) + (zl - qh * dl)) / dh;
        let (yh, yl) = two_sum(ax, qh);
        ln_1p_dd(yh, yl + ql)
    };
    if x < 0.0 {
        -r
    } else {
        r
    }
}

#[device]
pub fn acosh(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x < 1.0 {
        return f64::NAN;
    }
    if x > 268435456.0 {
        if x == f64::INFINITY {
            return x;
        }
        return ln_2x(x);
    }
    if x > 2.0 {
        // ln(2x - 1 / (x + sqrt(x^2 - 1))).
        let t = 1.0 / (x + (x * x - 1.0).sqrt());
        let (vh, vl) = two_sum(2.0 * x, -t);
        return ln_dd(vh, vl);
    }
    if x == 1.0 {
        return 0.0;
    }
    // ln(1 + y), y = t + sqrt(2t + t^2), t = x - 1 (exact), every step a double-double.
    let t = x - 1.0;
    let th = t * t;
    let tl = t.mul_add(t, -th);
    let (ah, al) = two_sum(2.0 * t, th);
    let (sh, sl) = sqrt_dd(ah, al + tl);
    let (yh, yl) = two_sum(t, sh);
    ln_1p_dd(yh, yl + sl)
}

#[device]
pub fn atanh(x: f64) -> f64 {
    let ax = x.abs();
    if x.is_nan() {
        return x;
    }
    if ax > 1.0 {
        return f64::NAN;
    }
    // atanh x = x (1 + x^2/3 + ...) rounds to x below 2^-28.
    if ax < 3.725290298461914e-09 {
        return x;
    }
    let r = if ax == 1.0 {
        f64::INFINITY
    } else {
        // ln(1 + y) / 2 with y = 2 ax / (1 - ax) as a double-double quotient.
        let (dh, dl) = two_sum(1.0, -ax);
        let n = ax + ax;
        let qh = n / dh;
        let ql = ((-qh).mul_add(dh, n) - qh * dl) / dh;
        0.5 * ln_1p_dd(qh, ql)
    };
    if x < 0.0 {
        -r
    } else {
        r
    }
}
