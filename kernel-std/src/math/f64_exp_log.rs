//! f64 exponentials and logarithms.
//!
//! exp-family: `x = k*ln2 + r` (Cody-Waite, `|r| <= ln2/2`), `e^r - 1` by its Taylor series to
//! degree 13 (truncation below 2^-60 relative), then scaling by `2^k` in two exact steps so
//! subnormal results round once. log-family: `x = 2^e * (1 + f)` with `1 + f` in
//! `[sqrt(1/2), sqrt(2))`, `log(1 + f) = 2 atanh(s)`, `s = f / (2 + f)`, odd series in `s`, the
//! large terms kept separate so that they are added last (the classic arrangement of the
//! 4.3BSD/fdlibm family, written anew here).

#![allow(clippy::excessive_precision, clippy::approx_constant)]

use kernel_macros::device;

use super::f64_reduce::pow2i;
use super::f64_reduce::{fast_two_sum, two_sum};

/// `x * 2^k` for any `k` in `[-2100, 2100]`, rounding once.
#[device]
pub fn scale2(x: f64, k: i32) -> f64 {
    let mut y = x;
    let mut n = k;
    if n > 1023 {
        y *= pow2i(1023);
        n -= 1023;
        if n > 1023 {
            y *= pow2i(1023);
            n -= 1023;
        }
    } else if n < -1000 {
        // Two steps: the first is exact while the value stays normal.
        y *= pow2i(-1000);
        n += 1000;
        if n < -1000 {
            y *= pow2i(-1000);
            n += 1000;
        }
    }
    if n < -1022 {
        let h = n / 2;
        return y * pow2i(h) * pow2i(n - h);
    }
    y * pow2i(n)
}

/// `e^r - 1` for `|r| <= 0.35`, as `r + r^2 * p(r)` (Taylor, degree 13).
#[device]
pub fn expm1_poly(r: f64) -> f64 {
    let p = 1.6059043836821613e-10;
    let p = p * r + 2.08767569878681e-09;
    let p = p * r + 2.505210838544172e-08;
    let p = p * r + 2.755731922398589e-07;
    let p = p * r + 2.7557319223985893e-06;
    let p = p * r + 2.48015873015873e-05;
    let p = p * r + 0.0001984126984126984;
    let p = p * r + 0.001388888888888889;
    let p = p * r + 0.008333333333333333;
    let p = p * r + 0.041666666666666664;
    let p = p * r + 0.16666666666666666;
    let p = p * r + 0.5;
    r + r * r * p
}

/// `e^(hi + lo)` where `|hi| <= 0.35`, `|lo|` tiny, times `2^k`.
#[device]
fn exp_finish(hi: f64, lo: f64, k: i32) -> f64 {
    let p = expm1_poly(hi);
    let e = 1.0 + (p + (lo + lo * p));
    scale2(e, k)
}

#[device]
pub fn exp(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x > 709.782712893384 {
        return f64::INFINITY;
    }
    if x < -745.2 {
        return 0.0;
    }
    let kf = (x * 1.4426950408889634).round();
    // ln2 = LN2_HI + LN2_LO; LN2_HI has 33 significant bits, so `kf * LN2_HI` is exact.
    let hi = x - kf * 0.6931471804855391;
    let lo = -kf * 7.440617110012397e-11;
    let r = hi + lo;
    let lo = (hi - r) + lo;
    exp_finish(r, lo, kf as i32)
}

#[device]
pub fn exp2(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x >= 1024.0 {
        return f64::INFINITY;
    }
    if x < -1076.0 {
        return 0.0;
    }
    let kf = x.round();
    let f = x - kf;
    let hi = f * 0.6931471805599453;
    let lo = f.mul_add(0.6931471805599453, -hi) + f * 2.3190468138462996e-17;
    exp_finish(hi, lo, kf as i32)
}

#[device]
pub fn exp10(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x > 308.25471555991675 {
        return f64::INFINITY;
    }
    if x < -324.0 {
        return 0.0;
    }
    let kf = (x * 3.321928094887362).round();
    // y = x - k*log10(2) as hi + lo, then r = y * ln10 as hi + lo.
    let yh = x - kf * 0.30102999560767785;
    let yl = -kf * 5.630334806675098e-11;
    let rh = yh * 2.302585092994046;
    let rl = yh.mul_add(2.302585092994046, -rh)
        + (yh * -2.1707562233822494e-16 + yl * 2.302585092994046);
    let r = rh + rl;
    let rl = (rh - r) + rl;
    exp_finish(r, rl, kf as i32)
}

/// `e^(r + rl) - 1` for `|r| <= 0.35` and `|rl|` below an ulp of `r`, as a normalized
/// double-double (relative error about 2^-58): `r + r^2/2` exactly, `r^3 (1/6 + r/24 + ...)` by
/// its Taylor series to degree 15 (truncation near 2^-68), `rl` to first order.
#[device]
pub fn expm1_kernel_dd(r: f64, rl: f64) -> (f64, f64) {
    let p = 7.647163731819816e-13;
    let p = p * r + 1.1470745597729725e-11;
    let p = p * r + 1.6059043836821613e-10;
    let p = p * r + 2.08767569878681e-09;
    let p = p * r + 2.505210838544172e-08;
    let p = p * r + 2.755731922398589e-07;
    let p = p * r + 2.7557319223985893e-06;
    let p = p * r + 2.48015873015873e-05;
    let p = p * r + 0.0001984126984126984;
    let p = p * r + 0.001388888888888889;
    let p = p * r + 0.008333333333333333;
    let p = p * r + 0.041666666666666664;
    let p = p * r + 0.16666666666666666;
    let r2 = r * r;
    let r2l = r.mul_add(r, -r2);
    let (h, l) = two_sum(r, 0.5 * r2);
    let tail = r2 * r * p;
    let l = l + (0.5 * r2l + (tail + rl * (1.0 + h)));
    fast_two_sum(h, l)
}

/// `e^x = 2^k (1 + h + l)` for finite `|x| <= 746`: `(k, h, l)`, `|h| <= 0.42`, relative error
/// about 2^-58 (Cody-Waite reduction by `k ln 2`, exact for these `k`).
#[device]
pub fn exp_parts(x: f64) -> (i32, f64, f64) {
    let kf = (x * 1.4426950408889634).round();
    // ln2 = LN2_HI + LN2_LO; LN2_HI has 33 significant bits, so `kf * LN2_HI` and the
    // subtraction are exact.
    let hi = x - kf * 0.6931471804855391;
    let lo = -kf * 7.440617110012397e-11;
    let (r, rl) = two_sum(hi, lo);
    let (h, l) = expm1_kernel_dd(r, rl);
    (kf as i32, h, l)
}

/// `e^x - 1` as a normalized double-double for `-746 <= x <= 693` (relative error about
/// 2^-57; the `-1` is folded in exactly while it matters).
#[device]
pub fn expm1_dd(x: f64) -> (f64, f64) {
    if x.abs() < 0.34657359027997264 {
        return expm1_kernel_dd(x, 0.0);
    }
    let (k, h, l) = exp_parts(x);
    let t = pow2i(k);
    if k > 52 {
        // 2^k (1 + h + l) - 1 = 2^k (u + (v + l - 2^-k)).
        let (u, v) = two_sum(1.0, h);
        return (t * u, t * (v + (l - pow2i(-k))));
    }
    if k < -53 {
        return (-1.0, t * (1.0 + h));
    }
    // 2^k - 1 is exact for these k.
    let (s, e) = two_sum(t - 1.0, t * h);
    fast_two_sum(s, e + t * l)
}

#[device]
pub fn expm1(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x > 709.782712893384 {
        return f64::INFINITY;
    }
    // e^x < 2^-55 here: -1 + e^x rounds to -1.
    if x < -38.0 {
        return -1.0;
    }
    // expm1(x) = x (1 + x/2 + ...) rounds to x (and keeps the sign of zero).
    if x.abs() < 5.551115123125783e-17 {
        return x;
    }
    if x > 693.0 {
        let (k, h, l) = exp_parts(x);
        let (u, v) = two_sum(1.0, h);
        return scale2(u + (v + l), k);
    }
    let (h, l) = expm1_dd(x);
    h + l
}

/// `log(1 + f) - f` pieces for `1 + f` in `[sqrt(1/2), sqrt(2))`: returns `(hfsq, s*(hfsq + R))`
/// so that `log(1 + f) = f - (hfsq - tail)`.
#[device]
fn log_tail(f: f64) -> (f64, f64) {
    let s = f / (2.0 + f);
    let z = s * s;
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
    let r = r * z + 2.0 / 3.0;
    let r = r * z;
    let hfsq = 0.5 * f * f;
    (hfsq, s * (hfsq + r))
}

/// Splits finite positive `x` into `(e, f)` with `x = 2^e (1 + f)`, `1 + f` in `[sqrt(1/2), sqrt(2))`.
#[device]
fn log_split(x: f64) -> (f64, f64) {
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
    (e as f64, m - 1.0)
}

/// `None`-like special cases of the logarithms: returns `(true, value)` when `x` is not a finite
/// positive number.
#[device]
fn log_special(x: f64) -> (bool, f64) {
    if x.is_nan() || x == f64::INFINITY {
        return (true, x);
    }
    if x == 0.0 {
        return (true, f64::NEG_INFINITY);
    }
    if x < 0.0 {
        return (true, f64::NAN);
    }
    (false, 0.0)
}

#[device]
pub fn ln(x: f64) -> f64 {
    let (sp, v) = log_special(x);
    if sp {
        return v;
    }
    let (e, f) = log_split(x);
    let (hfsq, tail) = log_tail(f);
    e * 0.6931471804855391 + (f - (hfsq - (tail + e * 7.440617110012397e-11)))
}

#[device]
pub fn ln_1p(x: f64) -> f64 {
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x == -1.0 {
        return f64::NEG_INFINITY;
    }
    if x < -1.0 {
        return f64::NAN;
    }
    if x.abs() < 5.551115123125783e-17 {
        return x;
    }
    let u = 1.0 + x;
    let (e, f0) = log_split(u);
    // The rounding error of 1 + x, relative to u, corrects f when u was rounded.
    let mut f = f0;
    let mut c = 0.0;
    if e == 0.0 {
        f = x;
    } else if e < 54.0 {
        let err = if e > 0.0 {
            1.0 - (u - x)
        } else {
            x - (u - 1.0)
        };
        c = err / u;
    }
    let (hfsq, tail) = log_tail(f);
    e * 0.6931471804855391 + (f - (hfsq - (tail + (e * 7.440617110012397e-11 + c))))
}

/// `log(1 + f)` as `hi + lo` with `hi` holding 32 significant bits, for log2/log10.
#[device]
fn log_hi_lo(f: f64) -> (f64, f64) {
    let (hfsq, tail) = log_tail(f);
    let h = f - hfsq;
    let hi = f64::from_bits(h.to_bits() & 0xffff_ffff_0000_0000);
    let lo = ((f - hi) - hfsq) + tail;
    (hi, lo)
}

#[device]
pub fn log2(x: f64) -> f64 {
    let (sp, v) = log_special(x);
    if sp {
        return v;
    }
    let (e, f) = log_split(x);
    let (hi, lo) = log_hi_lo(f);
    let vh = hi * 1.4426950407214463;
    let vl = (lo + hi) * 1.6751713164886512e-10 + lo * 1.4426950407214463;
    let w = e + vh;
    let vl = vl + ((e - w) + vh);
    vl + w
}

#[device]
pub fn log10(x: f64) -> f64 {
    let (sp, v) = log_special(x);
    if sp {
        return v;
    }
    let (e, f) = log_split(x);
    let (hi, lo) = log_hi_lo(f);
    let y2 = e * 0.30102999560767785;
    let vh = hi * 0.4342944818781689;
    let vl =
        e * 5.630334806675098e-11 + (lo + hi) * 2.5082946711645275e-11 + lo * 0.4342944818781689;
    let w = y2 + vh;
    let vl = vl + ((y2 - w) + vh);
    vl + w
}
