//! f32 hyperbolic functions and their inverses, in f32 arithmetic.
//!
//! `sinh`, `tanh`: odd polynomials near zero; elsewhere `sinh`, `cosh`, `tanh` come from
//! `e^|x|` (`exp_parts`, MUFU.EX2) and a reciprocal (MUFU.RCP plus one Newton step); `e^|x|/2` is
//! formed by halving the power-of-two factor, so `sinh`/`cosh` stay finite up to `ln(2 * MAX)`.
//! The inverses go through the branch-free `log1p` (its core: finite arguments `>= 0`, the
//! special cases selected here) of an argument without cancellation
//! (`asinh x = log1p(|x| + x^2 / (1 + sqrt(1 + x^2)))`, `acosh x = log1p(d + sqrt(d (x + 1)))`
//! with `d = x - 1`, `atanh x = log1p(2|x| / (1 - |x|)) / 2`), roots and quotients from the
//! approximate units as in CUDA, and `log(2|x|)` for huge `|x|`; special cases by selects.

#![allow(clippy::excessive_precision, clippy::approx_constant)]
// Device code: plain comparisons (NaN-aware as written) lower to one instruction each; the
// kernel DSL has no `contains`, `clamp` or `partial_cmp`.
#![allow(
    clippy::neg_cmp_op_on_partial_ord,
    clippy::manual_clamp,
    clippy::manual_range_contains
)]

use kernel_macros::device;

use super::approx::{ex2_ftz, rcp_ftz, rsqrt_approx, select};
use super::f32_exp_log::{exp_parts, ln_1p_core};

#[device]
fn with_sign_of(v: f32, s: f32) -> f32 {
    // One bit-select (LOP3 with a single immediate), not two masks and an or.
    let vb = v.to_bits();
    f32::from_bits(vb ^ ((vb ^ s.to_bits()) & 0x8000_0000))
}

/// `1/h` for normal `h`, within about half an ulp.
#[device]
fn recip(h: f32) -> f32 {
    let y = rcp_ftz(h);
    let e = (-h).mul_add(y, 1.0);
    y.mul_add(e, y)
}

/// `e^a / 2` for `a >= 0`.
#[device]
fn half_exp(a: f32) -> f32 {
    let (m, s) = exp_parts(a, 1.4426950216293335, 1.925963033500011e-08, 1.0);
    m * s
}

/// Both paths computed, one selected (no branch): an odd polynomial for `|x| < 1`, else
/// `e^|x|/2 - 1/(4 (e^|x|/2))`.
#[device]
pub fn sinh(x: f32) -> f32 {
    let a = x.abs();
    let u = x * x;
    let p = 2.806280235745362e-06f32;
    let p = p.mul_add(u, 0.00019838102161884308);
    let p = p.mul_add(u, 0.008333339355885983);
    let p = p.mul_add(u, 0.1666666716337204);
    let small = (x * u).mul_add(p, x);
    let h = half_exp(a);
    // `recip(inf)` is NaN: beyond 1e30 the correction is far below an ulp anyway.
    let big = select(h < 1e30, (-0.25f32).mul_add(recip(h), h), h);
    select(a < 1.0, small, with_sign_of(big, x))
}

#[device]
pub fn cosh(x: f32) -> f32 {
    let h = half_exp(x.abs());
    select(h < 1e30, 0.25f32.mul_add(recip(h), h), h)
}

/// Both paths computed, one selected (no branch): an odd polynomial for `|x| < 0.6`, else
/// `1 - 2 / (e^2|x| + 1)` from MUFU.EX2 of `2|x| log2(e)` and MUFU.RCP, whose errors (the
/// product's rounding, about 2 ulp of each unit) shrink by `2e^2|x| / (e^2|x| + 1)^2 < 0.36`
/// there; large `|x|` gives `ex2 = inf`, `rcp = 0`, exactly 1.
#[device]
pub fn tanh(x: f32) -> f32 {
    let a = x.abs();
    let u = x * x;
    let p = -0.006269119679927826f32;
    let p = p.mul_add(u, 0.021110959351062775);
    let p = p.mul_add(u, -0.053873948752880096);
    let p = p.mul_add(u, 0.13332915306091309);
    let p = p.mul_add(u, -0.3333333134651184);
    let small = (x * u).mul_add(p, x);
    let e = ex2_ftz(a * 2.885390043258667);
    let big = (-2.0f32).mul_add(rcp_ftz(e + 1.0), 1.0);
    // The sign of x also for zeros (`fma(-0 * u, p, -0)` is `+0`).
    with_sign_of(select(a < 0.6, small, big), x)
}

/// `log1p(|x| + x^2 / (1 + sqrt(1 + x^2)))` with `sqrt` and the quotient from MUFU.RSQ and
/// MUFU.RCP (their errors shrink by the share of the quotient in the sum, at most about half,
/// and by the logarithm's slope); beyond `2^23`, `log1p(|x|) + ln2`. No branch.
#[device]
pub fn asinh(x: f32) -> f32 {
    let a = x.abs();
    let s = a.mul_add(a, 1.0);
    let d = s.mul_add(rsqrt_approx(s), 1.0);
    let y = (a * rcp_ftz(d)).mul_add(a, a);
    let big = a > 8388608.0;
    let r = ln_1p_core(select(big, a, y), select(big, 1.0, 0.0));
    // Infinities and NaN: x itself.
    select(a < f32::INFINITY, with_sign_of(r, x), x)
}

/// `log1p(d + sqrt(d (x + 1)))`, `d = x - 1`, the root from MUFU.RSQ and one correction
/// step; beyond `2^23`,
/// `log1p(x) + ln2`; the cases `x <= 1` (0 at 1, NaN below) by selects. No branch.
#[device]
pub fn acosh(x: f32) -> f32 {
    let d = x - 1.0;
    let v = d * (x + 1.0);
    // sqrt(v) as v rsqrt(v) plus one correction: near x = 1 the root is the whole result.
    let h = 0.5 * rsqrt_approx(v);
    let q = v * (h + h);
    let y = (-q).mul_add(q, v).mul_add(h, q) + d;
    let big = x > 8388608.0;
    let r = ln_1p_core(select(big, x, y), select(big, 1.0, 0.0));
    let r = select(x == f32::INFINITY, x, r);
    select(x > 1.0, r, select(x == 1.0, 0.0, f32::NAN))
}

/// `log1p(2|x| / (1 - |x|)) / 2`; `±inf` at `±1` and NaN beyond by selects. No branch.
#[device]
pub fn atanh(x: f32) -> f32 {
    let a = x.abs();
    let t = (a + a) * recip(1.0 - a);
    let r = select(
        a < 1.0,
        0.5 * ln_1p_core(t, 0.0),
        select(a == 1.0, f32::INFINITY, f32::NAN),
    );
    with_sign_of(r, x)
}
