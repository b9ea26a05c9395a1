//! f64 `pow`: `exp(y * log(x))` with `log(x)` as a double-double (relative error near 2^-66) and
//! the product kept as a double-double into the exponential, so the result is within about one
//! ulp even where `|y log x|` approaches 745. Special cases follow C99 Annex F.

#![allow(clippy::excessive_precision, clippy::approx_constant)]

use kernel_macros::device;

use super::f64_exp_log::{expm1_poly, scale2};
use super::f64_reduce::two_sum;

/// `log(x)` for finite positive `x` as `(hi, lo)`.
#[device]
pub fn log_dd(x: f64) -> (f64, f64) {
    let mut v = x;
    let mut e: i64 = 0;
    if v < 2.2250738585072014e-308 {
        v *= 18014398509481984.0;
        e = -54;
    }
    let b = v.to_bits();
    e += ((b >> 52) as i64) - 1023;
    let mut m = f64::from_bits((b & 0x000f_ffff_ffff_ffff) | 0x3ff0_0000_0000_0000);
    if m > 1.4142135623730951 {
        m *= 0.5;
        e += 1;
    }
    let ef = e as f64;
    let f = m - 1.0;
    // s = f / (2 + f) as a double-double.
    let dh = 2.0 + f;
    let dl = f - (dh - 2.0);
    let sh = f / dh;
    let sl = ((-sh).mul_add(dh, f) - sh * dl) / dh;
    // (2/3) s^3 as a double-double.
    let ph = sh * sh;
    let pl = sh.mul_add(sh, -ph) + 2.0 * sh * sl;
    let ch = ph * sh;
    let cl = ph.mul_add(sh, -ch) + pl * sh + ph * sl;
    let th = ch * 0.6666666666666666;
    let tl = ch.mul_add(0.6666666666666666, -th)
        + (cl * 0.6666666666666666 + ch * 3.700743415417188e-17);
    // s^5 R(s^2), R = 2/5 + 2/7 z + ...
    let z = ph;
    let r = 2.0 / 25.0;
    let r = r * z + 2.0 / 23.0;
    let r = r * z + 2.0 / 21.0;
    let r = r * z + 2.0 / 19.0;
    let r = r * z + 2.0 / 17.0;
    let r = r * z + 2.0 / 15.0;
    let r = r * z + 2.0 / 13.0;
    let r = r * z + 2.0 / 11.0;
    let r = r * z + 2.0 / 9.0;
    let r = r * z + 2.0 / 7.0;
    let r = r * z + 2.0 / 5.0;
    let s5 = ch * z * r;
    let (h, l1) = two_sum(ef * 0.6931471804855391, 2.0 * sh);
    let (h, l2) = two_sum(h, th);
    let l = (l1 + l2) + (tl + (2.0 * sl + (ef * 7.440617110012397e-11 + s5)));
    two_sum(h, l)
}

/// `e^(hi + lo)` for a double-double argument (`|lo|` below an ulp of `hi`).
#[device]
pub fn exp_dd(hi: f64, lo: f64) -> f64 {
    if hi.is_nan() {
        return hi;
    }
    if hi > 709.782712893384 {
        return f64::INFINITY;
    }
    if hi < -745.2 {
        return 0.0;
    }
    let kf = (hi * 1.4426950408889634).round();
    let a = hi - kf * 0.6931471804855391;
    let b = lo - kf * 7.440617110012397e-11;
    let (r, rl) = two_sum(a, b);
    let p = expm1_poly(r);
    let e = 1.0 + (p + (rl + rl * p));
    scale2(e, kf as i32)
}

/// Whether `y` is an odd integer.
#[device]
fn is_odd_int(y: f64) -> bool {
    y.abs() < 9007199254740992.0 && y == y.trunc() && (y * 0.5) != (y * 0.5).trunc()
}

#[device]
pub fn powf(x: f64, y: f64) -> f64 {
    if y == 0.0 || x == 1.0 {
        return 1.0;
    }
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    let ax = x.abs();
    let ay = y.abs();
    let inf = f64::INFINITY;
    if ay == inf {
        if ax == 1.0 {
            return 1.0;
        }
        return if (ax > 1.0) == (y > 0.0) { inf } else { 0.0 };
    }
    let odd = is_odd_int(y);
    let neg = x < 0.0 || (x == 0.0 && 1.0 / x < 0.0);
    if ax == 0.0 || ax == inf {
        // |x|^y is 0 or inf; x = ±0 and x = ±inf mirror each other.
        let big = (ax == inf) == (y > 0.0);
        let m = if big { inf } else { 0.0 };
        return if neg && odd { -m } else { m };
    }
    if x < 0.0 && y != y.trunc() {
        return f64::NAN;
    }
    let (lh, ll) = log_dd(ax);
    let ph = y * lh;
    let pl = y.mul_add(lh, -ph) + y * ll;
    let r = exp_dd(ph, pl);
    if x < 0.0 && odd {
        -r
    } else {
        r
    }
}
