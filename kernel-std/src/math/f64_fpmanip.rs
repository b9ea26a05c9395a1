//! f64 `frexp`, `ldexp` (`scalbn`), `logb`, `ilogb`, `fdim`, `nextafter`, `remainder` and
//! `remquo`: exact, by integer arithmetic on the bits (subnormals normalised by one exact
//! multiplication by 2^54), `remainder`/`remquo` after an exact `fmod` reduction. As the f32
//! versions (`f32_fpmanip`), whose comments explain each step.

// Device code: min/max lower to one instruction each (no `clamp`).
#![allow(clippy::manual_clamp)]

use kernel_macros::device;

use super::f64_misc::fmod;

const SIGN: u64 = 0x8000_0000_0000_0000;
const MANT: u64 = 0x000f_ffff_ffff_ffff;

/// `(|x|` with subnormals scaled by 2^54, the 54 to take off its exponent).
#[device]
fn normalized(a: f64) -> (f64, i32) {
    if a < 2.2250738585072014e-308 {
        (a * 18014398509481984.0, 54)
    } else {
        (a, 0)
    }
}

/// `x = m 2^e` with `|m|` in `[0.5, 1)`: CUDA's `frexp`; zeros, infinities and NaN give `(x, 0)`.
#[device]
pub fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let (v, off) = normalized(x.abs());
    let b = v.to_bits();
    let e = (b >> 52) as i32 - 1022 - off;
    let m = f64::from_bits((b & MANT) | 0x3fe0_0000_0000_0000 | (x.to_bits() & SIGN));
    (m, e)
}

/// `x 2^n` rounded once: CUDA's `ldexp` (and `scalbn`).
#[device]
pub fn ldexp(x: f64, n: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x + x;
    }
    let (v, off) = normalized(x.abs());
    let b = v.to_bits();
    let n = n.max(-2200).min(2200);
    let e = (b >> 52) as i32 + n - off;
    let sign = x.to_bits() & SIGN;
    if e >= 2047 {
        return f64::from_bits(sign | 0x7ff0_0000_0000_0000);
    }
    if e >= 1 {
        return f64::from_bits(sign | (b & MANT) | ((e as u64) << 52));
    }
    if e < -60 {
        return f64::from_bits(sign);
    }
    // Built 2^64 too large (a normal number), then scaled down: the only rounding.
    f64::from_bits(sign | (b & MANT) | (((e + 64) as u64) << 52)) * 5.421010862427522e-20
}

/// `scalbn(x, n)`: `x 2^n` (the same as `ldexp` in binary).
#[device]
pub fn scalbn(x: f64, n: i32) -> f64 {
    ldexp(x, n)
}

/// The unbiased exponent of `x`: CUDA's `ilogb`; `0` and NaN give `i32::MIN`, infinities
/// `i32::MAX`.
#[device]
pub fn ilogb(x: f64) -> i32 {
    if x == 0.0 || x.is_nan() {
        return i32::MIN;
    }
    if x.abs() == f64::INFINITY {
        return i32::MAX;
    }
    let (v, off) = normalized(x.abs());
    (v.to_bits() >> 52) as i32 - 1023 - off
}

/// The unbiased exponent of `x` as a float: CUDA's `logb`; `±0` gives `-inf`, `±inf` `+inf`.
#[device]
pub fn logb(x: f64) -> f64 {
    let a = x.abs();
    if a == f64::INFINITY || x.is_nan() {
        return a;
    }
    if a == 0.0 {
        return f64::NEG_INFINITY;
    }
    let (v, off) = normalized(a);
    ((v.to_bits() >> 52) as i32 - 1023 - off) as f64
}

/// `x - y` if `x > y`, else `+0`; NaN if either is: CUDA's `fdim`.
#[device]
pub fn fdim(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    if x > y {
        x - y
    } else {
        0.0
    }
}

/// The next f64 after `x` toward `y`: CUDA's `nextafter`.
#[device]
pub fn nextafter(x: f64, y: f64) -> f64 {
    if x.is_nan() || y.is_nan() {
        return x + y;
    }
    if x == y {
        return y;
    }
    if x == 0.0 {
        return f64::from_bits(1 | (y.to_bits() & SIGN));
    }
    let b = x.to_bits();
    if (x < y) == (x > 0.0) {
        f64::from_bits(b + 1)
    } else {
        f64::from_bits(b - 1)
    }
}

/// `x - n y`, `n` the integer nearest `x / y` (ties to even): CUDA's `remainder`, exact.
#[device]
pub fn remainder(x: f64, y: f64) -> f64 {
    remquo(x, y).0
}

/// `remainder(x, y)` and the quotient's low three bits with the sign of `x / y`: CUDA's `remquo`.
#[device]
pub fn remquo(x: f64, y: f64) -> (f64, i32) {
    let ax = x.abs();
    let ay = y.abs();
    if x.is_nan() || y.is_nan() || ax == f64::INFINITY || ay == 0.0 {
        return (f64::NAN, 0);
    }
    if ay == f64::INFINITY {
        return (x, 0);
    }
    let mut r = fmod(ax, 8.0 * ay);
    let mut q = 0i32;
    if r >= 4.0 * ay {
        r -= 4.0 * ay;
        q += 4;
    }
    if r >= 2.0 * ay {
        r -= 2.0 * ay;
        q += 2;
    }
    if r >= ay {
        r -= ay;
        q += 1;
    }
    let twice = r + r;
    if twice > ay || (twice == ay && (q & 1) == 1) {
        r -= ay;
        q += 1;
    }
    let r = f64::from_bits(r.to_bits() ^ (x.to_bits() & SIGN));
    let q = q & 7;
    if (x.to_bits() ^ y.to_bits()) & SIGN != 0 {
        (r, -q)
    } else {
        (r, q)
    }
}

/// `(fractional part, integral part)` of `x`, both with `x`'s sign: CUDA's `modf`.
#[device]
pub fn modf(x: f64) -> (f64, f64) {
    let i = x.trunc();
    if x.abs() == f64::INFINITY {
        return (f64::from_bits(x.to_bits() & SIGN), x);
    }
    (f64::from_bits((x - i).to_bits() | (x.to_bits() & SIGN)), i)
}
