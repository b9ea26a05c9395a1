//! f32 scaled complementary error function and normal distribution function, in f32 arithmetic:
//! `erfcx(x) = e^(x^2) erfc(x)` and `normcdf(x) = erfc(-x / sqrt 2) / 2`.
//!
//! `erfcx` for `x >= 0` is one Horner evaluation with selected coefficients: a polynomial in
//! `x - 1` on `[0, 2)`, and `t G(t)` with `t = 1/x` beyond (`G(t) = x erfcx(x)`, which tends to
//! `1/sqrt(pi)`), so nothing overflows or underflows however large `x` is (`x > 2^100` is
//! scaled by `2^-64` before the reciprocal, whose result may then be subnormal). Below 0,
//! `2 e^(x^2) - erfcx(-x)` (`x^2` split exactly, `e^(x^2)` from `exp_parts`), one fma.
//!
//! `normcdf` never forms `erfc` of a rounded `x / sqrt 2` where erfc's steepness would magnify
//! the rounding (about `x^2` ulps in the lower tail): it is `e^(-x^2/2) erfcx(|x| / sqrt 2) / 2`,
//! with `x^2` split exactly and `e^(-x^2/2)` scaled apart (`exp_parts`), so the result rounds
//! once even where it is subnormal; `erfcx` changes slowly, and the rounding of `|x| / sqrt 2`
//! (computed exactly as a double-f32) is removed to first order through erfcx's derivative.
//! `1 -` that above 0.
//! Coefficients: least squares on Chebyshev nodes (mpmath), relative error 2^-24.9 (`[0, 2)`)
//! and 2^-27.1 (`t` in `[0, 1/2]`) with f32 coefficients.

#![allow(clippy::excessive_precision, clippy::approx_constant)]

use kernel_macros::device;

use super::approx::{rcp_ftz, select};
use super::f32_exp_log::exp_parts;

/// `erfcx(a)` for `a >= 0` (`+inf` gives 0, NaN stays NaN).
#[device]
fn erfcx_pos(a: f32) -> f32 {
    let tail = a >= 2.0;
    let huge = a > 1.2676506002282294e30; // 2^100
                                          // t ~ 1/a (MUFU.RCP) and its residual e = 1 - a t: 1/a = t (1 + e) to 2^-46.
    let a_s = select(huge, a * 5.421010862427522e-20, a); // 2^-64
    let t = rcp_ftz(a_s);
    let e = (-a_s).mul_add(t, 1.0);
    let h = select(tail, select(huge, 0.0, t), a - 1.0);
    let p = select(tail, 0.0, 1.98751877178438e-05);
    let p = p.mul_add(h, select(tail, 0.0, -6.193657463882118e-05));
    let p = p.mul_add(h, select(tail, 0.0, 0.0001275910617550835));
    let p = p.mul_add(h, select(tail, 0.8793349266052246, -0.0003619931812863797));
    let p = p.mul_add(h, select(tail, -2.7435996532440186, 0.001053495449014008));
    let p = p.mul_add(h, select(tail, 3.4624204635620117, -0.0027796837966889143));
    let p = p.mul_add(h, select(tail, -1.9995169639587402, 0.006969376467168331));
    let p = p.mul_add(h, select(tail, 0.14803937077522278, -0.016659347340464592));
    let p = p.mul_add(h, select(tail, 0.40988782048225403, 0.037572361528873444));
    let p = p.mul_add(h, select(tail, 0.0006080841412767768, -0.07922718673944473));
    let p = p.mul_add(h, select(tail, -0.28210580348968506, 0.15437155961990356));
    let p = p.mul_add(h, select(tail, 3.378188040414898e-08, -0.2732120156288147));
    let c_lo = select(tail, -2.9317691385699618e-08, 9.070887374562631e-10);
    let c_hi = select(tail, 0.564189612865448, 0.42758357524871826);
    let r = h.mul_add(p, c_lo);
    // Below 2 the value is `c_hi + r`; beyond, `G(t) / a = (c_hi + r) t (1 + e)`, with
    // `c_hi t` exact inside the last fma, so either rounds once. Beyond 2^100 also times the
    // 2^-64 of the scaling.
    let k = select(tail, t, 1.0);
    let ke = select(tail, t * e, 0.0);
    let w = c_hi.mul_add(k, c_hi.mul_add(ke, r * k));
    let w = select(huge, w * 5.421010862427522e-20, w);
    // `+inf`: the reciprocal's Newton step is NaN there.
    select(a == f32::INFINITY, 0.0, w)
}

/// `erfcx(x) = e^(x^2) erfc(x)`: `+inf` at `-inf` (and below about -9.4, where it overflows),
/// 0 at `+inf`.
#[device]
pub fn erfcx(x: f32) -> f32 {
    let e = erfcx_pos(x.abs());
    // x < 0: 2 e^(x^2) - erfcx(-x), with x^2 = h + l exactly and e^(x^2) = m s (1 + l).
    let h = x * x;
    let l = x.mul_add(x, -h);
    let (m, s) = exp_parts(h, 1.4426950216293335, 1.925963033500011e-08, 0.0);
    let m2 = m + m;
    let neg = m2.mul_add(l, m2).mul_add(s, -e);
    let neg = select(x < -10.0, f32::INFINITY, neg);
    select(x < 0.0, neg, e)
}

/// `normcdf(x)`: the standard normal distribution function, `erfc(-x / sqrt 2) / 2`.
#[device]
pub fn normcdf(x: f32) -> f32 {
    // |x| / sqrt 2 = a + da (1/sqrt 2 = 0.7071067690849304 + 1.210161710447897e-08); erfcx
    // of it to first order in da (erfcx' = 2 a erfcx - 2/sqrt(pi)), which removes the
    // rounding of `a` from the result.
    let ax = x.abs();
    let a = ax * 0.7071067690849304;
    let da = ax.mul_add(0.7071067690849304, -a) + ax * 1.210161710447897e-08;
    let e = erfcx_pos(a);
    let e = 0.5 * da.mul_add((a + a).mul_add(e, -1.128379225730896), e);
    let h = x * x;
    let l = x.mul_add(x, -h);
    let (m, s) = exp_parts(-0.5 * h, 1.4426950216293335, 1.925963033500011e-08, 0.0);
    // e^(-x^2/2) erfcx / 2 = m s (1 - l/2) e, scaled by s last (one rounding if subnormal).
    let lower = (m * (-0.5 * l).mul_add(e, e)) * s;
    let lower = select(x < -15.0, 0.0, lower);
    let upper = select(x > 10.0, 1.0, 1.0 - lower);
    select(x > 0.0, upper, lower)
}
