//! f64 `rhypot`, `norm3d`, `rnorm3d`, `norm4d`, `rnorm4d` and `rcbrt`.
//!
//! The norms scale the arguments by the power of two of the largest one's exponent (exact, by
//! `scale2`), sum the squares as a double-double (each square split by an fma, the sum by
//! two-sum steps), and take the root with one correction step against that double-double:
//! `r + (s - r^2) / 2r` for the norm, `y + y (1 - s y^2) / 2` for the reciprocal, so the result
//! is rounded essentially once (CUDA: 2 ulp for the norms, 1 for the reciprocals). An infinite
//! argument gives `+inf` (`+0` for the reciprocals) even next to a NaN, as C's `hypot`.
//!
//! `rcbrt` splits `|x| = m 2^(3k)`, `m` in `[1, 8)`, starts from a quadratic fit of `m^(-1/3)`
//! (6% off), takes four Newton steps `y + y (1 - m y^3) / 3` (to the rounding level) and a fifth
//! whose residual `m y^3 - 1` is formed as a double-double.

#![allow(clippy::excessive_precision)]

use kernel_macros::device;

use super::f64_exp_log::scale2;
use super::f64_reduce::two_sum;

/// The unbiased exponent of `v`'s exponent field (-1023 for zero and subnormals).
#[device]
fn exponent(v: f64) -> i32 {
    ((v.to_bits() >> 52) & 0x7ff) as i32 - 1023
}

/// `(hi, lo)` with `hi + lo = s + p^2` to about 2^-104 relative, for `s = sh + sl`.
#[device]
fn add_square(sh: f64, sl: f64, p: f64) -> (f64, f64) {
    let h = p * p;
    let l = p.mul_add(p, -h);
    let (s, e) = two_sum(sh, h);
    (s, sl + (e + l))
}

/// `sqrt(sh + sl)` for a double-double `sh + sl` (`sh` normal, positive).
#[device]
fn sqrt_dd(sh: f64, sl: f64) -> f64 {
    let r = sh.sqrt();
    let corr = ((-r).mul_add(r, sh) + sl) / (2.0 * r);
    r + corr
}

/// `1 / sqrt(sh + sl)` for a double-double `sh + sl` (`sh` normal, positive).
#[device]
fn rsqrt_dd(sh: f64, sl: f64) -> f64 {
    let y = 1.0 / sh.sqrt();
    let yh = y * y;
    let yl = y.mul_add(y, -yh);
    let e = (-sh).mul_add(yh, 1.0) - (sh * yl + sl * yh);
    (0.5 * y).mul_add(e, y)
}

/// `1 / sqrt(x^2 + y^2)`: CUDA's `rhypot`.
#[device]
pub fn rhypot(x: f64, y: f64) -> f64 {
    let (a, b) = (x.abs(), y.abs());
    if a == f64::INFINITY || b == f64::INFINITY {
        return 0.0;
    }
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    let v = a.max(b);
    if v == 0.0 {
        return f64::INFINITY;
    }
    let e = exponent(v);
    let (sh, sl) = add_square(0.0, 0.0, scale2(a, -e));
    let (sh, sl) = add_square(sh, sl, scale2(b, -e));
    scale2(rsqrt_dd(sh, sl), -e)
}

/// `sqrt(a^2 + b^2 + c^2)`: CUDA's `norm3d`.
#[device]
pub fn norm3d(a: f64, b: f64, c: f64) -> f64 {
    let (a, b, c) = (a.abs(), b.abs(), c.abs());
    if a == f64::INFINITY || b == f64::INFINITY || c == f64::INFINITY {
        return f64::INFINITY;
    }
    if a.is_nan() || b.is_nan() || c.is_nan() {
        return a + b + c;
    }
    let v = a.max(b).max(c);
    if v == 0.0 {
        return 0.0;
    }
    let e = exponent(v);
    let (sh, sl) = add_square(0.0, 0.0, scale2(a, -e));
    let (sh, sl) = add_square(sh, sl, scale2(b, -e));
    let (sh, sl) = add_square(sh, sl, scale2(c, -e));
    scale2(sqrt_dd(sh, sl), e)
}

/// `1 / sqrt(a^2 + b^2 + c^2)`: CUDA's `rnorm3d`.
#[device]
pub fn rnorm3d(a: f64, b: f64, c: f64) -> f64 {
    let (a, b, c) = (a.abs(), b.abs(), c.abs());
    if a == f64::INFINITY || b == f64::INFINITY || c == f64::INFINITY {
        return 0.0;
    }
    if a.is_nan() || b.is_nan() || c.is_nan() {
        return a + b + c;
    }
    let v = a.max(b).max(c);
    if v == 0.0 {
        return f64::INFINITY;
    }
    let e = exponent(v);
    let (sh, sl) = add_square(0.0, 0.0, scale2(a, -e));
    let (sh, sl) = add_square(sh, sl, scale2(b, -e));
    let (sh, sl) = add_square(sh, sl, scale2(c, -e));
    scale2(rsqrt_dd(sh, sl), -e)
}

/// `sqrt(a^2 + b^2 + c^2 + d^2)`: CUDA's `norm4d`.
#[device]
pub fn norm4d(a: f64, b: f64, c: f64, d: f64) -> f64 {
    let (a, b, c, d) = (a.abs(), b.abs(), c.abs(), d.abs());
    if a == f64::INFINITY || b == f64::INFINITY || c == f64::INFINITY || d == f64::INFINITY {
        return f64::INFINITY;
    }
    if a.is_nan() || b.is_nan() || c.is_nan() || d.is_nan() {
        return a + b + c + d;
    }
    let v = a.max(b).max(c.max(d));
    if v == 0.0 {
        return 0.0;
    }
    let e = exponent(v);
    let (sh, sl) = add_square(0.0, 0.0, scale2(a, -e));
    let (sh, sl) = add_square(sh, sl, scale2(b, -e));
    let (sh, sl) = add_square(sh, sl, scale2(c, -e));
    let (sh, sl) = add_square(sh, sl, scale2(d, -e));
    scale2(sqrt_dd(sh, sl), e)
}

/// `1 / sqrt(a^2 + b^2 + c^2 + d^2)`: CUDA's `rnorm4d`.
#[device]
pub fn rnorm4d(a: f64, b: f64, c: f64, d: f64) -> f64 {
    let (a, b, c, d) = (a.abs(), b.abs(), c.abs(), d.abs());
    if a == f64::INFINITY || b == f64::INFINITY || c == f64::INFINITY || d == f64::INFINITY {
        return 0.0;
    }
    if a.is_nan() || b.is_nan() || c.is_nan() || d.is_nan() {
        return a + b + c + d;
    }
    let v = a.max(b).max(c.max(d));
    if v == 0.0 {
        return f64::INFINITY;
    }
    let e = exponent(v);
    let (sh, sl) = add_square(0.0, 0.0, scale2(a, -e));
    let (sh, sl) = add_square(sh, sl, scale2(b, -e));
    let (sh, sl) = add_square(sh, sl, scale2(c, -e));
    let (sh, sl) = add_square(sh, sl, scale2(d, -e));
    scale2(rsqrt_dd(sh, sl), -e)
}

/// `x^(-1/3)`: CUDA's `rcbrt`. `±0` gives `±inf`, `±inf` gives `±0`, NaN stays NaN.
#[device]
pub fn rcbrt(x: f64) -> f64 {
    let a = x.abs();
    if x.is_nan() {
        return x;
    }
    if a == 0.0 {
        return 1.0 / x;
    }
    if a == f64::INFINITY {
        return if x < 0.0 { -0.0 } else { 0.0 };
    }
    // Subnormals: scale by 2^54 (the result by 2^18).
    let sub = a < 2.2250738585072014e-308;
    let v = if sub { a * 18014398509481984.0 } else { a };
    let e = exponent(v);
    let k = (e + 3000) / 3 - 1000;
    let j = e - 3 * k;
    let m = f64::from_bits((v.to_bits() & 0x000f_ffff_ffff_ffff) | (((j + 1023) as u64) << 52));
    let mut y = 0.0097118783993906734f64
        .mul_add(m, -0.14836378981219578)
        .mul_add(m, 1.0766783808445998);
    for _ in 0..4 {
        y = (y * 0.3333333333333333).mul_add((-m * y).mul_add(y * y, 1.0), y);
    }
    // The last step: m y^3 - 1 with y^2 = wh + wl and y^3 = zh + zl exact up to zl's rounding.
    let wh = y * y;
    let wl = y.mul_add(y, -wh);
    let zh = wh * y;
    let zl = wh.mul_add(y, -zh) + wl * y;
    let res = zh.mul_add(m, -1.0) + zl * m;
    let y = (y * -0.3333333333333333).mul_add(res, y);
    let r = scale2(y, if sub { 18 - k } else { -k });
    if x < 0.0 {
        -r
    } else {
        r
    }
}
