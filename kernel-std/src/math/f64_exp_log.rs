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

/// `2^k` for `k` in `[-1022, 1023]`.
#[device]
pub fn pow2i(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

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

#[device]
pub fn expm1(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x > 709.782712893384 {
        return f64::INFINITY;
    }
    if x < -40.0 {
        return -1.0;
    }
    if x.abs() < 0.34657359027997264 {
        if x == 0.0 {
            return x;
        }
        return expm1_poly(x);
    }
    let kf = (x * 1.4426950408889634).round();
    let hi = x - kf * 0.6931471804855391;
    let lo = -kf * 7.440617110012397e-11;
    let r = hi + lo;
    let lo = (hi - r) + lo;
    let p = expm1_poly(r);
    let e = p + (lo + lo * p);
    let k = kf as i32;
    if k > 1000 {
        return scale2(1.0 + e, k);
    }
    // 2^k (1 + e) - 1 = 2^k e + (2^k - 1); 2^k - 1 is exact for k <= 52.
    let t = pow2i(k);
    if k > 52 {
        return t * (1.0 + (e - 1.0 / t));
    }
    t.mul_add(e, t - 1.0)
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
