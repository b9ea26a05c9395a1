//! f64 `copysign`, `fmod`, `rsqrt`, `cbrt` and `hypot`.

#![allow(clippy::excessive_precision, clippy::approx_constant)]

use kernel_macros::device;

use super::f64_exp_log::scale2;
use super::f64_reduce::two_sum;

#[device]
pub fn copysign(x: f64, y: f64) -> f64 {
    f64::from_bits((x.to_bits() & 0x7fff_ffff_ffff_ffff) | (y.to_bits() & 0x8000_0000_0000_0000))
}

/// `(exponent, 53-bit integer significand)` of finite nonzero `|x|`: `|x| = m * 2^(e - 52)`.
#[device]
fn frexp_int(x: f64) -> (i32, u64) {
    let b = x.to_bits() & 0x7fff_ffff_ffff_ffff;
    let ex = (b >> 52) as i32;
    let frac = b & 0x000f_ffff_ffff_ffff;
    if ex == 0 {
        // Subnormal: normalize so the leading bit sits at bit 52.
        let sh = frac.leading_zeros() as i32 - 11;
        return (-1022 - sh, frac << sh as u32);
    }
    (ex - 1023, frac | 0x0010_0000_0000_0000)
}

/// C's `fmod` (Rust's float `%`): exact, by binary long division of the significands.
#[device]
pub fn fmod(x: f64, y: f64) -> f64 {
    let ax = x.abs();
    let ay = y.abs();
    if x.is_nan() || y.is_nan() || ax == f64::INFINITY || ay == 0.0 {
        return f64::NAN;
    }
    if ax < ay || ay == f64::INFINITY {
        return x;
    }
    let (ex, mx0) = frexp_int(ax);
    let (ey, my) = frexp_int(ay);
    let mut mx = mx0;
    let mut n = ex - ey;
    while n > 0 {
        if mx >= my {
            mx -= my;
        }
        if mx == 0 {
            return x * 0.0;
        }
        mx <<= 1u32;
        n -= 1;
    }
    if mx >= my {
        mx -= my;
    }
    if mx == 0 {
        return x * 0.0;
    }
    // |r| = mx * 2^(ey - 52), exactly representable (it is below |y|).
    let r = scale2(mx as f64, ey - 52);
    if x < 0.0 {
        -r
    } else {
        r
    }
}

#[device]
pub fn rsqrt(x: f64) -> f64 {
    1.0 / x.sqrt()
}

#[device]
pub fn cbrt(x: f64) -> f64 {
    let ax = x.abs();
    if x.is_nan() || ax == 0.0 || ax == f64::INFINITY {
        return x;
    }
    let (e, m) = frexp_int(ax);
    // ax = mf * 2^(3q) with mf in [1, 8).
    let q = if e >= 0 { e / 3 } else { -((-e + 2) / 3) };
    let rem = e - 3 * q;
    let mf = scale2(m as f64, rem - 52);
    let mut y = 0.7 + 0.19 * mf;
    for _ in 0..6 {
        y = y - (y * y * y - mf) / (3.0 * y * y);
    }
    // One correction with the residual y^3 - mf computed to double-double accuracy.
    let p = y * y;
    let pl = y.mul_add(y, -p);
    let res = p.mul_add(y, -mf) + pl * y;
    y -= res / (3.0 * p);
    let r = scale2(y, q);
    if x < 0.0 {
        -r
    } else {
        r
    }
}

#[device]
pub fn hypot(x: f64, y: f64) -> f64 {
    let ax = x.abs();
    let ay = y.abs();
    if ax == f64::INFINITY || ay == f64::INFINITY {
        return f64::INFINITY;
    }
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    let a = ax.max(ay);
    let b = ax.min(ay);
    if b == 0.0 {
        return a;
    }
    let (e, _) = frexp_int(a);
    let a1 = scale2(a, -e);
    let b1 = scale2(b, -e);
    let h1 = a1 * a1;
    let l1 = a1.mul_add(a1, -h1);
    let h2 = b1 * b1;
    let l2 = b1.mul_add(b1, -h2);
    let (s, sl) = two_sum(h1, h2);
    let sl = sl + (l1 + l2);
    let r = s.sqrt();
    let corr = ((-r).mul_add(r, s) + sl) / (2.0 * r);
    scale2(r + corr, e)
}
