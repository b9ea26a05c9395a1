//! f32 error and gamma functions, in f32 arithmetic.
//!
//! `erf`: `x * E(x^2)` on `|x| < 1`, `1 - erfc` beyond. `erfc(x) = e^(-x^2) R(x)` for
//! `x >= 1/2`, with `x^2 = h + l` exact, `e^(-h)` from `exp_parts` and `e^(-l) ~ 1 - l`;
//! `R = erfc * e^(x^2)` by a polynomial in `x - 1.25` on `[1/2, 2]` and `x R` by one in `1/x`
//! beyond (one evaluation, coefficients selected). `1 - erf` for `|x| < 1/2`, `2 - erfc(-x)`
//! below `-1/2`; every part computed and the result selected, as in `erf`.
//!
//! Gamma: `Gamma(x) - 1` on `(0, 3]` from one polynomial `R(x) = (Gamma(x) - 1)/((x-1)(x-2))` on
//! `[1, 2]` and the recurrence, arranged so the zeros at 1 and 2 are exact factors (`lgamma` is
//! then `log1p` of it, accurate near its zeros). `x >= 3`: Stirling, with `log x` as a
//! double-f32 (`log1p` of the exact `x - 1`) and the remainder `lgamma - Stirling` as a
//! polynomial in `1/x`; `tgamma` exponentiates the double-f32 exponent with MUFU.EX2. For
//! positive `x` (from `2^-24`) both paths run without a branch, sharing the reciprocal (and in
//! `lgamma` the logarithm, whose argument is selected), and the result is selected, as nvcc's
//! range branches would otherwise run one after another in a warp whose lanes hold different
//! ranges. NaN, zero, negative and tiny `x` take one branch to the general code: negative `x`
//! down to -11 by the recurrence up to `(0, 1]` (every `x + k` is exact); below, the reflection
//! formula with `sinpi`.
//! Coefficients: least-squares fits on Chebyshev nodes (`fit_coeffs.py`).

#![allow(clippy::excessive_precision, clippy::approx_constant)]
// Device code: plain comparisons (NaN-aware as written) lower to one instruction each; the
// kernel DSL has no `contains`, `clamp` or `partial_cmp`.
#![allow(
    clippy::neg_cmp_op_on_partial_ord,
    clippy::manual_clamp,
    clippy::manual_range_contains
)]

use kernel_macros::device;

use super::approx::{ex2_ftz, rcp_ftz, select};
use super::f32_exp_log::{exp_parts, exp_parts_dd, ln, ln_1p, ln_1p_hi_lo, ln_hi_lo};
use super::f32_misc::log2_dd;
use super::f32_trig::sinpi;

#[device]
fn with_sign_of(v: f32, s: f32) -> f32 {
    // One bit-select (LOP3 with a single immediate), not two masks and an or.
    let vb = v.to_bits();
    f32::from_bits(vb ^ ((vb ^ s.to_bits()) & 0x8000_0000))
}

#[device]
fn recip(h: f32) -> f32 {
    let y = rcp_ftz(h);
    let e = (-h).mul_add(y, 1.0);
    y.mul_add(e, y)
}

/// `erf(x)` for `|x| < 1`.
#[device]
fn erf_small(x: f32) -> f32 {
    let u = x * x;
    let p = -9.667044650996104e-06f32;
    let p = p.mul_add(u, 0.00011265958892181516);
    let p = p.mul_add(u, -0.0008484080317430198);
    let p = p.mul_add(u, 0.005221031606197357);
    let p = p.mul_add(u, -0.026865430176258087);
    let p = p.mul_add(u, 0.11283782124519348);
    let p = p.mul_add(u, -0.37612637877464294);
    // 2/sqrt(pi) in two parts.
    with_sign_of(
        x.mul_add(1.128379225730896, x * u.mul_add(p, -5.8635382771399236e-08)),
        x,
    )
}

/// `erfc(a)` for `1/2 <= a <= 10.1`: `e^(-a^2) R` with `R` a degree-10 polynomial in `a - 1.25`
/// below 2, else degree 9 in `1/a` (leading and constant coefficients 0): one Horner evaluation,
/// its argument and coefficients chosen by selects (no branch). Either path computes what it
/// would alone.
#[device]
fn erfc_pos(a: f32) -> f32 {
    let mid = a < 2.0;
    let t = select(mid, a - 1.25, recip(a));
    let p = select(mid, 6.318043597275391e-05, 0.0);
    let p = p.mul_add(
        t,
        select(mid, -0.00019245011208113283, -0.28453773260116577),
    );
    let p = p.mul_add(t, select(mid, 0.0004686912870965898, 0.4959900379180908));
    let p = p.mul_add(t, select(mid, -0.0013086977414786816, 0.019931184127926826));
    let p = p.mul_add(t, select(mid, 0.0035544259008020163, -0.7039233446121216));
    let p = p.mul_add(t, select(mid, -0.009085889905691147, 0.6400176882743835));
    let p = p.mul_add(t, select(mid, 0.022011231631040573, -0.03904710337519646));
    let p = p.mul_add(t, select(mid, -0.05021784454584122, -0.2779155969619751));
    let p = p.mul_add(t, select(mid, 0.10679557174444199, -0.0002458409289829433));
    let p = p.mul_add(t, select(mid, -0.20882189273834229, 0.5641956925392151));
    let r = p.mul_add(t, select(mid, 0.36782291531562805, 0.0));
    let h = a * a;
    let l = a.mul_add(a, -h);
    let (m, s) = exp_parts(-h, 1.4426950216293335, 1.925963033500011e-08, 0.0);
    (m * (-l).mul_add(r, r)) * s
}

/// One polynomial evaluation, its coefficients chosen per path (no branch): for `|x| < 1.0038`
/// `erf x = x + x p(x^2)`; beyond, `erf |x| = 1 - 2^-r` with `r = |x| + |x| q(|x|)` (q fitted to
/// `-log2(erfc a) / a - 1` on `[1.0038, 3.93]`, weighted by `erfc`, so the error of `r` counts as
/// much as it moves the result), `2^-r` from MUFU.EX2. `q` grows monotonically beyond the fit:
/// larger `|x|` (and `inf`) give `r` far above 24 (or `inf`), `2^-r = 0`, exactly 1.
#[device]
pub fn erf(x: f32) -> f32 {
    let a = x.abs();
    let big = a >= 1.0038;
    let t = select(big, a, x * x);
    let p = select(big, 2.1347477741073817e-05, 7.850843394408002e-05);
    let p = p.mul_add(
        t,
        select(big, -0.0005178935825824738, -0.0008009937009774148),
    );
    let p = p.mul_add(t, select(big, 0.005470361560583115, 0.005188374314457178));
    let p = p.mul_add(t, select(big, -0.03474467620253563, -0.026853876188397408));
    let p = p.mul_add(t, select(big, 0.15381528437137604, 0.11283587664365768));
    let p = p.mul_add(t, select(big, 0.9159916043281555, -0.3761262595653534));
    let p = p.mul_add(t, select(big, 0.6283806562423706, 0.12837916612625122));
    let s = select(big, a, x);
    let r = s.mul_add(p, s);
    select(big, with_sign_of(1.0 - ex2_ftz(-r), x), r)
}

/// `1 - erf x` below `|x| = 1/2`, `erfc |x|` (0 beyond 10.1) or `2 - erfc |x|` above: every
/// part computed, the result selected (no branch). NaN stays NaN through `erfc_pos`.
#[device]
pub fn erfc(x: f32) -> f32 {
    let a = x.abs();
    let e = select(a > 10.1, 0.0, erfc_pos(a));
    let e = select(x > 0.0, e, 2.0 - e);
    select(a < 0.5, 1.0 - erf_small(x), e)
}

/// `R(x) = (Gamma(x) - 1) / ((x - 1)(x - 2))` for `x` in `[1, 2]`.
#[device]
fn gamma_r(x: f32) -> f32 {
    let t = x - 1.5;
    let p = 0.007945931516587734f32;
    let p = p.mul_add(t, -0.011910530738532543);
    let p = p.mul_add(t, 0.012387520633637905);
    let p = p.mul_add(t, -0.018518278375267982);
    let p = p.mul_add(t, 0.029144207015633583);
    let p = p.mul_add(t, -0.04294600710272789);
    let p = p.mul_add(t, 0.06587712466716766);
    let p = p.mul_add(t, -0.08823072165250778);
    let p = p.mul_add(t, 0.16111540794372559);
    let p = p.mul_add(t, -0.12935364246368408);
    p.mul_add(t, 0.45509231090545654)
}

/// `Gamma(x) - 1` for `x` in `(0, 3]`, with the zeros at 1 and 2 as exact factors.
#[device]
fn gamma_m1(x: f32) -> f32 {
    if x < 1.0 {
        // Gamma(x) = Gamma(1 + x) / x.
        (x - 1.0) * x.mul_add(gamma_r(1.0 + x), -1.0) / x
    } else if x <= 2.0 {
        ((x - 1.0) * (x - 2.0)) * gamma_r(x)
    } else {
        let y = x - 1.0;
        (x - 2.0) * (y * (x - 3.0)).mul_add(gamma_r(y), 1.0)
    }
}

/// `Gamma(x) - 1` for `x` in `(0, 3]` without a branch, given `rx = 1/x`: one `R`
/// evaluation on `[1, 2]` (argument `x + 1`, `x` or `x - 1`, by selects) and the same
/// arrangement as [`gamma_m1`], written `a * (b R + c)` with `a`, `b`, `c` selected per
/// interval (`(x-1)/x, x, -1`; `(x-1)(x-2), 1, 0`; `x-2, (x-1)(x-3), 1`), so the zeros at 1
/// and 2 stay exact factors.
#[device]
fn gamma_m1_sel(x: f32, rx: f32) -> f32 {
    let lo = x < 1.0;
    let hi = x > 2.0;
    let r = gamma_r(select(lo, x + 1.0, select(hi, x - 1.0, x)));
    let xm1 = x - 1.0;
    let xm2 = x - 2.0;
    let a = select(lo, xm1 * rx, select(hi, xm2, xm1 * xm2));
    let b = select(lo, x, select(hi, xm1 * (x - 3.0), 1.0));
    let c = select(lo, -1.0, select(hi, 1.0, 0.0));
    a * b.mul_add(r, c)
}

/// `lgamma(x) - ((x - 1/2) log x - x + log(2 pi)/2)` for `x >= 3`, given `t = 1/x`.
#[device]
fn stirling_corr(t: f32) -> f32 {
    let u = t * t;
    let p = 0.0005045318976044655f32;
    let p = p.mul_add(u, -0.0005671813851222396);
    let p = p.mul_add(u, 0.0007926112739369273);
    let p = p.mul_add(u, -0.0027777638752013445);
    let p = p.mul_add(u, 0.0833333358168602);
    t * p
}

/// `lgamma(x)` for `3 <= x < 4e36`.
#[device]
fn lgamma_stirling(x: f32) -> f32 {
    let (u, v) = ln_hi_lo(x, 0.0);
    let p = x - 0.5;
    let ah = p * u;
    let al = p.mul_add(u, -ah) + p * v;
    // ah - x exactly (two-sum).
    let bh = ah - x;
    let bb = bh - ah;
    let be = (ah - (bh - bb)) + (-x - bb);
    let small = ((al + be) + stirling_corr(recip(x))) + 1.56341771e-08;
    bh + (small + 0.9189385175704956)
}

/// `Gamma(x)` for `x >= 3` as `(c, zh, zl)`: `c * 2^(zh + zl)`.
#[device]
fn gamma_stirling(x: f32) -> (f32, f32, f32) {
    let (lh, ll) = log2_dd(x);
    let p = x - 0.5;
    let zh = p * lh;
    let zl = p.mul_add(lh, -zh) + p * ll;
    let qh = x * 1.4426950216293335;
    let ql = x.mul_add(1.4426950216293335, -qh) + x * 1.925963033500011e-08;
    let eh = zh - qh;
    let bb = eh - zh;
    let ee = (zh - (eh - bb)) + (-qh - bb);
    let el = ee + (zl - ql);
    let t = recip(x);
    let p = -0.00038989647873677313f32;
    let p = p.mul_add(t, 0.0009469890501350164);
    let p = p.mul_add(t, -0.0002607878122944385);
    let p = p.mul_add(t, -0.0026780555490404367);
    let p = p.mul_add(t, 0.0034720527473837137);
    let p = p.mul_add(t, 0.0833333358168602);
    let e = p.mul_add(t, 1.0);
    (e * 2.5066282749176025, eh, el)
}

/// Whether `x` is an integer (finite).
#[device]
fn is_int(x: f32) -> bool {
    x.floor() == x
}

/// Positive `x` from `2^-24` (the common case) without a branch: `Gamma(x) - 1` by
/// [`gamma_m1_sel`] and `1/x` are computed for every `x`, then one logarithm, of `1 + u` with
/// `u = Gamma(x) - 1` below 3 (`log1p`: accurate at the zeros 1 and 2) or `u = x - 1` (exact)
/// from 3 on, as a double-f32 that Stirling's formula multiplies by `x - 1/2`; the result is
/// selected, `x (log x - 1)` beyond `1e30` (where `(x - 1/2) log x` alone could overflow).
/// NaN, zero, negative and tiny arguments take [`lgamma_rare`] under one branch.
#[device]
pub fn lgamma(x: f32) -> f32 {
    if !(x >= 5.9604645e-08) {
        return lgamma_rare(x);
    }
    let rx = recip(x);
    let big = x >= 3.0;
    let g = gamma_m1_sel(x, rx);
    let (lh, ll) = ln_1p_hi_lo(select(big, x - 1.0, g));
    let p = x - 0.5;
    let ah = p * lh;
    let al = p.mul_add(lh, -ah) + p.mul_add(ll, stirling_corr(rx) + 1.56341771e-08);
    let s = (ah - x) + (al + 0.9189385175704956);
    // lh + ll: +0 at 1 and 2 (the exact factor's zero may be -0).
    let r = select(big, s, lh + ll);
    // x = inf: log1p's reduction gives 128 ln2, the product inf.
    select(x > 1e30, x * ((lh - 1.0) + ll), r)
}

/// `lgamma` for NaN, `x <= 0` and `0 < x < 2^-24`.
#[device]
fn lgamma_rare(x: f32) -> f32 {
    let a = x.abs();
    if x.is_nan() {
        return x;
    }
    if a == f32::INFINITY || x == 0.0 || (x < 0.0 && is_int(x)) {
        return f32::INFINITY;
    }
    if a < 5.9604645e-08 {
        // lgamma(x) = -log|x| - gamma x + ..., the second term below half an ulp.
        return -ln(a);
    }
    if x >= -11.0 {
        // lgamma(x) = lgamma(w) - log|x (x+1) ... (x+n-1)|, w = x + n in (0, 1].
        let n = (-x).ceil() as i32;
        let mut prod = x;
        let mut k = 1;
        while k < n {
            prod *= x + k as f32;
            k += 1;
        }
        let w = x + n as f32;
        return ln_1p(gamma_m1(w)) - ln(prod.abs());
    }
    // Reflection: lgamma(x) = log(pi) - log|x sin(pi x)| - lgamma(-x).
    let d = (x * sinpi(x)).abs();
    (1.1447298858494002 - ln(d)) - lgamma_stirling(a)
}

/// Positive `x` from `2^-24` without a branch: `1 + (Gamma(x) - 1)` below 3 ([`gamma_m1_sel`]),
/// else `sqrt(2 pi) e^z` with Stirling's exponent `z = (x - 1/2) log x - x + corr(1/x)` as a
/// double-f32 (the logarithm from [`ln_1p_hi_lo`] of `x - 1`, `ah - x` by two-sum) and `e^z`
/// from MUFU.EX2 ([`exp_parts_dd`]), which overflows to `inf` on its own past 35.04; the
/// result selected, `inf` beyond 35.5 (also for `x = inf`, where `z` is NaN). NaN, zero,
/// negative and tiny arguments take [`tgamma_rare`] under one branch.
#[device]
pub fn tgamma(x: f32) -> f32 {
    if !(x >= 5.9604645e-08) {
        return tgamma_rare(x);
    }
    let rx = recip(x);
    let g = gamma_m1_sel(x, rx);
    let (lh, ll) = ln_1p_hi_lo(x - 1.0);
    let p = x - 0.5;
    let ah = p * lh;
    let al = p.mul_add(lh, -ah) + p.mul_add(ll, stirling_corr(rx));
    // ah - x exactly (two-sum).
    let zh = ah - x;
    let bb = zh - ah;
    let ze = (ah - (zh - bb)) + (-x - bb);
    let (m, s) = exp_parts_dd(zh, ze + al, 0.0);
    let r = select(x >= 3.0, (m * 2.5066282749176025) * s, 1.0 + g);
    select(x > 35.5, f32::INFINITY, r)
}

/// `tgamma` for NaN, `x <= 0` and `0 < x < 2^-24`.
#[device]
fn tgamma_rare(x: f32) -> f32 {
    if x.is_nan() {
        return x;
    }
    if x == 0.0 {
        return 1.0 / x;
    }
    if x < 0.0 && is_int(x) {
        return f32::NAN;
    }
    if x > 0.0 {
        return 1.0 + gamma_m1(x);
    }
    if x >= -11.0 {
        // Gamma(x) = Gamma(w) / (x (x+1) ... (x+n-1)), w = x + n in (0, 1].
        let n = (-x).ceil() as i32;
        let mut prod = x;
        let mut k = 1;
        while k < n {
            prod *= x + k as f32;
            k += 1;
        }
        let w = x + n as f32;
        return (1.0 + gamma_m1(w)) / prod;
    }
    let s = sinpi(x);
    if x < -45.0 {
        return with_sign_of(0.0, s);
    }
    // Reflection: Gamma(x) = -pi / (x sin(pi x) Gamma(-x)), Gamma(-x) = c 2^(zh + zl).
    let (c, zh, zl) = gamma_stirling(-x);
    let j = (zh + 12582912.0) - 12582912.0;
    let m = super::approx::ex2_ftz((zh - j) + zl);
    let q = -3.1415927410125732 / ((x * s) * (m * c));
    // q * 2^-j in two steps, the first exact.
    let j1 = if j > 100.0 { 100.0 } else { j };
    let s1 = f32::from_bits(((127.0 - j1) as u32) << 23);
    let s2 = f32::from_bits(((127.0 - (j - j1)) as u32) << 23);
    (q * s1) * s2
}
