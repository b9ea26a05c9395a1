//! f64 hyperbolic functions and their inverses, through `expm1`/`exp`/`ln_1p`/`ln` with the
//! usual cancellation-free rearrangements (`sinh = (E + E/(E+1))/2` with `E = expm1|x|`, ...).

#![allow(clippy::excessive_precision, clippy::approx_constant)]

use kernel_macros::device;

use super::f64_exp_log::{exp, expm1, ln, ln_1p};

/// `e^|x| / 2` without overflowing before the final rounding.
#[device]
fn half_exp(ax: f64) -> f64 {
    if ax < 709.0 {
        0.5 * exp(ax)
    } else {
        let t = exp(0.5 * ax);
        (0.5 * t) * t
    }
}

#[device]
pub fn sinh(x: f64) -> f64 {
    let ax = x.abs();
    if !ax.is_finite() || ax < 3.725290298461914e-09 {
        return x;
    }
    let r = if ax < 22.0 {
        let e = expm1(ax);
        if ax < 1.0 {
            0.5 * (2.0 * e - e * e / (e + 1.0))
        } else {
            0.5 * (e + e / (e + 1.0))
        }
    } else {
        half_exp(ax)
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
    if ax < 0.34657359027997264 {
        let e = expm1(ax);
        let w = 1.0 + e;
        return 1.0 + (e * e) / (w + w);
    }
    if ax < 22.0 {
        let t = exp(ax);
        return 0.5 * t + 0.5 / t;
    }
    half_exp(ax)
}

#[device]
pub fn tanh(x: f64) -> f64 {
    let ax = x.abs();
    if x.is_nan() {
        return x;
    }
    if ax < 3.725290298461914e-09 {
        return x;
    }
    let r = if ax >= 22.0 {
        1.0
    } else if ax >= 1.0 {
        1.0 - 2.0 / (expm1(2.0 * ax) + 2.0)
    } else {
        let t = expm1(-2.0 * ax);
        -t / (t + 2.0)
    };
    if x < 0.0 {
        -r
    } else {
        r
    }
}

#[device]
pub fn asinh(x: f64) -> f64 {
    let ax = x.abs();
    if !ax.is_finite() || ax < 3.725290298461914e-09 {
        return x;
    }
    let r = if ax > 268435456.0 {
        ln(ax) + 0.6931471805599453
    } else if ax > 2.0 {
        ln(2.0 * ax + 1.0 / ((ax * ax + 1.0).sqrt() + ax))
    } else {
        let z = ax * ax;
        ln_1p(ax + z / (1.0 + (1.0 + z).sqrt()))
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
        return ln(x) + 0.6931471805599453;
    }
    if x > 2.0 {
        return ln(2.0 * x - 1.0 / (x + (x * x - 1.0).sqrt()));
    }
    let t = x - 1.0;
    ln_1p(t + (2.0 * t + t * t).sqrt())
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
    if ax < 3.725290298461914e-09 {
        return x;
    }
    let r = if ax == 1.0 {
        f64::INFINITY
    } else if ax < 0.5 {
        let t = ax + ax;
        0.5 * ln_1p(t + t * ax / (1.0 - ax))
    } else {
        0.5 * ln_1p((ax + ax) / (1.0 - ax))
    };
    if x < 0.0 {
        -r
    } else {
        r
    }
}
