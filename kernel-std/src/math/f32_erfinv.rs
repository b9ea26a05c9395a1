//! f32 inverse error functions, in f32 arithmetic: `erfinv`, `erfcinv`, `normcdfinv`.
//!
//! All three are `erfinv(x)` written through `q = 1 - x^2 = (1 - x)(1 + x)` and
//! `t = log2 q` (MUFU.LG2), the variable in which the inverse error function is smooth
//! (the approach of Giles, "Approximating the erfinv function", GPU Computing Gems, 2010;
//! our own fits in log2 units): `x P(t)` for `t >= -6` (`|x| <= 0.992`), and in the tail
//! `s Q(1/s)` with `s = sqrt(-t)` (`1/s` from MUFU.RSQ, `s` from `-t/s` and a Newton step). `erfcinv(q)` forms
//! `q (2 - q)` directly (exact up to one rounding, also for subnormal `q`, scaled by 2^32), so
//! its tail reaches `q = 2^-149` (`s` up to 12.3), with a second tail polynomial selected
//! below `1/s = 0.2`. The tail is behind one branch, taken for `|x| > 0.992` only, as in nvcc's
//! `erfinvf`. Coefficients: least squares on Chebyshev nodes (`fit_coeffs.py`), relative error
//! 2^-25.0 (`P`), 2^-25.3 and 2^-24.8 (`Q`) with f32 coefficients.

#![allow(clippy::excessive_precision)]
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use kernel_macros::device;

use super::approx::{lg2_ftz, rsqrt_ftz, select};

#[device]
fn with_sign_of(v: f32, s: f32) -> f32 {
    let vb = v.to_bits();
    f32::from_bits(vb ^ ((vb ^ s.to_bits()) & 0x8000_0000))
}

/// `erfinv(x) / x - P0` for `t = log2(1 - x^2)` in `[-6, 0]` (degree 9; `P0` added by the
/// caller's final fma, so that the result rounds once from `x P0` and a smaller term).
#[device]
fn central(t: f32) -> f32 {
    let p = 3.8114808531553024e-10f32;
    let p = p.mul_add(t, 1.3387850827939474e-08);
    let p = p.mul_add(t, 1.7105983829424076e-07);
    let p = p.mul_add(t, 5.640901576953183e-07);
    let p = p.mul_add(t, -6.674985797872068e-06);
    let p = p.mul_add(t, -2.8431686587282456e-05);
    let p = p.mul_add(t, 0.0007785995840094984);
    let p = p.mul_add(t, 0.00554933724924922);
    t * p.mul_add(t, -0.16081954538822174)
}

/// `erfinv(x) / s - Q0` with `s = sqrt(-log2(1 - x^2))`, in `r = 1/s` (`Q0` for the caller's
/// final fma): degree 7 on `[0.199, 0.4085]` (`erfinv`'s whole tail), or with `far` degree 6
/// on `[0.081, 0.205]` (`erfcinv` down to `2^-149`). One Horner evaluation, coefficients
/// selected.
#[device]
fn tail(r: f32, far: bool) -> f32 {
    let p = select(far, 0.0, 18.44875717163086);
    let p = p.mul_add(r, select(far, -26.111652374267578, -33.3084831237793));
    let p = p.mul_add(r, select(far, 29.486846923828125, 24.90825080871582));
    let p = p.mul_add(r, select(far, -15.770550727844238, -11.386150360107422));
    let p = p.mul_add(r, select(far, 5.835289001464844, 4.2711501121521));
    let p = p.mul_add(r, select(far, -1.3724652528762817, -1.070422649383545));
    r * p.mul_add(r, select(far, -0.03195451200008392, -0.06319909542798996))
}

/// `erfinv(|x|)` in the tail (`t < -6`, `|x| > 0.992`; NaN `t` too): `s Q(1/s)`.
#[device]
fn erfinv_tail(t: f32) -> f32 {
    let r = rsqrt_ftz(-t);
    // `s = sqrt(-t)` as `s0 + e`: `s0 = -t r` and its Newton correction `e`, kept apart so
    // that neither the estimate's error nor the rounding of `s` reaches the result (`s`
    // enters it linearly).
    let s0 = -t * r;
    let e = (0.5 * r) * s0.mul_add(-s0, -t);
    let far = r < 0.2;
    let q0 = select(far, 0.8329018354415894, 0.8342567086219788);
    let v = s0.mul_add(q0, e.mul_add(q0, s0 * tail(r, far)));
    // `t = -inf` (`|x| = 1`): `s` is NaN there; the result is infinite.
    select(t == f32::NEG_INFINITY, f32::INFINITY, v)
}

/// `erfinv(x)` given `t = log2(1 - x^2)` (`-inf` at `|x| = 1`, NaN beyond), with the sign of
/// `x`: `x P(t)`, or the tail under one branch (rare: `|x| > 0.992`), as nvcc's `erfinvf`.
#[device]
fn erfinv_t(x: f32, t: f32) -> f32 {
    // The central value always (straight-line), replaced under the one branch: the common
    // path then has a single branch, not one around each arm.
    let mut v = x.mul_add(0.8862269520759583, x * central(t));
    if !(t >= -6.0) {
        v = erfinv_tail(t);
    }
    // The sign of `x`, also for `x = -0` (`fma(-0, P0, x u)` is `+0` where `u` is `-0`, or
    // negative as when MUFU.LG2 of 1 is not exactly 0).
    with_sign_of(v, x)
}

/// `erfinv(x)`: the inverse of `erf` on `(-1, 1)`; `±inf` at `±1`, NaN beyond.
#[device]
pub fn erfinv(x: f32) -> f32 {
    // `1 - x^2` by one fma: exact but for its rounding, and at least 2^-23 for `|x| < 1`.
    erfinv_t(x, lg2_ftz((-x).mul_add(x, 1.0)))
}

/// `erfcinv(q) = erfinv(1 - q)` for `q` in `[0, 2]`, without forming `1 - q` where it would
/// round away the information (`q` near 0): `1 - x^2 = q (2 - q)`.
#[device]
pub fn erfcinv(q: f32) -> f32 {
    let small = q < 7.888609052210118e-31; // 2^-100: `q (2 - q)` may be subnormal.
    let qs = select(small, q * 4294967296.0, q);
    let t = lg2_ftz(qs * (2.0 - q)) - select(small, 32.0, 0.0);
    // `1 - q` rounds only for `q < 1/2`, where it is at least 1/2 (2^-24 relative): it only
    // scales the central path (`t >= -6`: `q >= 0.0079`) and gives the sign.
    // `q = 0` gives `t = -inf` with `1 - q = 1`: `+inf`; `q = 2`: `-inf`.
    erfinv_t(1.0 - q, t)
}

/// `normcdfinv(p) = -sqrt(2) erfcinv(2 p)`: the inverse of the standard normal distribution
/// function on `(0, 1)` (`-inf` at 0, `+inf` at 1). `2 p` is exact; `sqrt(2)` is split in
/// two so that the product rounds once; `+ 0.0` makes `normcdfinv(0.5)` `+0`.
#[device]
pub fn normcdfinv(p: f32) -> f32 {
    let y = erfcinv(p + p);
    y.mul_add(-1.4142135381698608, y * -2.4203234971764687e-08) + 0.0
}
