//! f32 exponentials and logarithms, in f32 arithmetic.
//!
//! exp family: `x * log2(b) = j + f` with `j` the nearest integer (the `1.5 * 2^23` rounding
//! trick, which also leaves `j` in the low bits of the sum) clamped to `[-126, 127]`, `f` from two
//! fmas with `log2(b)` split in two f32 parts (about 2^-25.5 relative error in the result), `2^f`
//! from the hardware's `ex2.approx.ftz` (MUFU.EX2), and one multiplication by `2^j` built from
//! the bits of `j`, which rounds subnormal results once. Clamping `j` lets `f` carry the rest of
//! the exponent, so overflow, underflow, infinities and NaN need no branch. `expm1` (1 ulp) uses
//! no approximate unit: `e^f - 1` by a polynomial on `|f| <= ln2/2`, then `2^j (1 + p) - 1`
//! summed at half scale with one exact two-sum step.
//!
//! log family: `x = 2^e * m`, `m` in `[2/3, 4/3)` from integer arithmetic on the bits (subnormals
//! scaled by 2^23 first), `f = m - 1` exact, `log(1 + f) = f + f^2 q(f)` with `q` a degree-8
//! polynomial; `e*ln2` is added with `ln2` split so that `e * LN2_HI` is exact and one Fast2Sum
//! step keeps the rounding error of the large sum, so the result is rounded essentially once.
//! `log1p` takes the exponent of `1 + x` from the sum rounded toward zero (`add.rz`), so the
//! reduced argument `x 2^-e + (2^-e - 1)` in `[-1/4, 1/2)` rounds once and no error term of
//! `1 + x` is needed (a relative minimax kernel, `fit_coeffs.py`).
//!
//! Polynomial coefficients: least-squares fits on Chebyshev nodes (mpmath `chebyfit`, see
//! `fit_coeffs.py`), rounded to f32.

#![allow(clippy::excessive_precision, clippy::approx_constant)]
// Device code: plain comparisons (NaN-aware as written) lower to one instruction each; the
// kernel DSL has no `contains`, `clamp` or `partial_cmp`.
#![allow(
    clippy::neg_cmp_op_on_partial_ord,
    clippy::manual_clamp,
    clippy::manual_range_contains
)]

use kernel_macros::device;

use super::approx::{ex2, ex2_ftz, fadd_rz, fma_sat, fmaf_rd, select};

/// `e^x * 2^-k` (or `b^x * 2^-k` for `c = log2(b)` split as `c_hi + c_lo`; `k` a small integer)
/// as `(2^f, 2^j)`, whose product is the result rounded once (see the module documentation).
/// `j` comes from two instructions: a saturating fma maps `x*c - k` from `[-126.5, 127.5]` onto
/// `[0, 1]` (clamping beyond, NaN to 0), and an fma rounding down scales it back by 253 onto
/// `1.5*2^23 + 127`, leaving `j + 127` in the low bits (so `2^j` is one shift) and
/// `j = round(x*c - k)` clamped to `[-126, 127]`.
#[device]
pub fn exp_parts(x: f32, c_hi: f32, c_lo: f32, k: f32) -> (f32, f32) {
    let t = fma_sat(
        x,
        c_hi * 0.003952569169960474,
        0.5 - k * 0.003952569169960474,
    );
    let u = fmaf_rd(t, 253.0, 12582913.0);
    let f = x.mul_add(c_hi, (12583039.0 - k) - u);
    let f = x.mul_add(c_lo, f);
    let m = ex2_ftz(f);
    let s = f32::from_bits(u.to_bits() << 23);
    (m, s)
}

#[device]
pub fn exp(x: f32) -> f32 {
    let (m, s) = exp_parts(x, 1.4426950216293335, 1.925963033500011e-08, 0.0);
    m * s
}

/// CUDA's `exp2f` is the hardware instruction itself (2 ulp).
#[device]
pub fn exp2(x: f32) -> f32 {
    ex2(x)
}

#[device]
pub fn exp10(x: f32) -> f32 {
    let (m, s) = exp_parts(x, 3.321928024291992, 7.059536955011936e-08, 0.0);
    m * s
}

/// `(e^f - 1 - f) / f^2` on `|f| <= ln2/2`: degree 4, fitted for the relative error of
/// `e^f - 1` (about 0.28 ulp; `fit_coeffs.py`).
#[device]
fn expm1_q(f: f32) -> f32 {
    let q = 0.0013882515486329794f32;
    let q = q.mul_add(f, 0.008366520516574383);
    let q = q.mul_add(f, 0.04166720062494278);
    let q = q.mul_add(f, 0.1666654348373413);
    q.mul_add(f, 0.4999999701976776)
}

/// One path for every argument (no branch): `j = round(x / ln2)` is 0 for `|x| < ln2/2`, where
/// the sum below reduces to `x + x^2 q(x)` rounded once. `x` is clamped to `[-17.5, 88.8]`
/// first (beyond, the result rounds to -1 or overflows to `inf` all the same). The sum is
/// formed at half scale, `(e^x - 1)/2` from `2^(j-1)` (normal for every `j` up to 128, so no
/// case for `j = 128`), and doubled exactly at the end. `|x| < 2^-24` (zeros of either sign,
/// and subnormals, which the half scale would round) and NaN give `x` by one select.
#[device]
pub fn expm1(x: f32) -> f32 {
    let xc = x.min(88.8).max(-17.5);
    let t = xc.mul_add(1.4426950216293335, 12582912.0);
    let j = t - 12582912.0;
    // ln2 split so that `j * LN2_HI` is exact (16 significant bits): `f1` is exact.
    let f1 = j.mul_add(-0.693145751953125, xc);
    let c = j * -1.428606765330187e-06;
    let w = (f1 * f1) * expm1_q(f1);
    // s = 2^(j-1) from the low bits of t.
    let s = f32::from_bits((t.to_bits() << 23).wrapping_add(0x3f00_0000));
    // (e^x - 1)/2 = (s - 1/2) + s*f1 + s*(w + c*(1 + f1 + w)); the first sum exact as Fast2Sum
    // (|s - 1/2| >= |s*f1| for j != 0; exact for j = 0), its error by an fma.
    let a = s - 0.5;
    let u = s.mul_add(f1, a);
    let e = s.mul_add(f1, a - u);
    let tail = c.mul_add((f1 + w) + 1.0, w);
    let r = (u + s.mul_add(tail, e)) * 2.0;
    select(!(x.abs() >= 5.9604645e-08), x, r)
}

/// `(log(1 + f) - f) / f^2` on `|f| <= 1/3` (degree 8).
#[device]
fn log_q(f: f32) -> f32 {
    let q = -0.12422195822000504f32;
    let q = q.mul_add(f, 0.13748310506343842);
    let q = q.mul_add(f, -0.12288722395896912);
    let q = q.mul_add(f, 0.140558123588562);
    let q = q.mul_add(f, -0.16673316061496735);
    let q = q.mul_add(f, 0.20007233321666718);
    let q = q.mul_add(f, -0.24999944865703583);
    let q = q.mul_add(f, 0.33333271741867065);
    q.mul_add(f, -0.5)
}

/// Finite `x > 0` as `(e, f, w)`: `log(x) = e*ln2 + f + w` with `f = m - 1` exact for the
/// mantissa `m` in `[2/3, 4/3)`, and `w = f^2 q(f)`.
#[device]
pub fn log_parts(x: f32) -> (f32, f32, f32) {
    let sub = x < 1.17549435e-38;
    let xs = if sub { x * 8388608.0 } else { x };
    let b = xs.to_bits() as i32;
    let eb = b.wrapping_sub(0x3f2a_aaab) >> 23;
    let m = f32::from_bits(b.wrapping_sub(eb << 23) as u32);
    let e = eb as f32 - if sub { 23.0 } else { 0.0 };
    let f = m - 1.0;
    let w = (f * f) * log_q(f);
    (e, f, w)
}

/// `log(x)` for finite `x > 0` as `(hi, lo)`, `hi` the rounded sum of `e * LN2_HI` and `f`.
#[device]
pub fn ln_hi_lo(x: f32, extra_e: f32) -> (f32, f32) {
    let (e, f, w) = log_parts(x);
    let e = e + extra_e;
    let a = e * 0.693145751953125;
    let u = a + f;
    let err = (a - u) + f;
    (u, err + e.mul_add(1.428606765330187e-06, w))
}

/// `x = 2^e (1 + f)` for finite `x > 0` (subnormals scaled by 2^23 first), `1 + f` in
/// `[2/3, 4/3)`, as `(e, f)`, both exact, without a branch: `e` is the masked exponent
/// difference converted once (`e * 2^23` has at most 8 significant bits).
#[device]
fn log_split(x: f32) -> (f32, f32) {
    let sub = x < 1.17549435e-38;
    let xs = select(sub, x * 8388608.0, x);
    let b = xs.to_bits();
    let eb = b.wrapping_sub(0x3f2a_aaab) & 0xff80_0000;
    let m = f32::from_bits(b.wrapping_sub(eb));
    let e = ((eb as i32) as f32).mul_add(1.1920928955078125e-07, select(sub, -23.0, 0.0));
    (e, m - 1.0)
}

/// `log(x)` for `x` outside `(0, inf)`, given the finite-path result `r`: NaN below zero and
/// for NaN, `-inf` at zero, `+inf` at `+inf` (`fma(x, inf, inf)` is `+inf` there and NaN for
/// the negative arguments).
#[device]
fn log_fix(x: f32, r: f32) -> f32 {
    let r = select(
        x.to_bits() >= 0x7f80_0000,
        x.mul_add(f32::INFINITY, f32::INFINITY),
        r,
    );
    select(x == 0.0, f32::NEG_INFINITY, r)
}

/// `log(1 + f) = f + f^2 q(f)` for `|f| <= 1/3`, rounded once from `f` and the small term.
#[device]
fn log1p_k(f: f32) -> f32 {
    (f * log_q(f)).mul_add(f, f)
}

#[device]
pub fn ln(x: f32) -> f32 {
    let (e, f) = log_split(x);
    let r = e.mul_add(
        0.6931471824645996,
        e.mul_add(-1.904654323148236e-09, log1p_k(f)),
    );
    log_fix(x, r)
}

/// `log(x) + extra_e * ln2` for finite `x > 0`.
#[device]
pub fn ln_scaled(x: f32, extra_e: f32) -> f32 {
    let (e, f) = log_split(x);
    let e = e + extra_e;
    e.mul_add(
        0.6931471824645996,
        e.mul_add(-1.904654323148236e-09, log1p_k(f)),
    )
}

/// `log2(x) = e + (f + w) log2(e)` with `w = f^2 q(f)`: `t = e + f * L2E_HI` rounded by one fma
/// and its error recovered exactly by a second (`e - t` is exact: `t` lies within a factor 2
/// of `e` for `e != 0`), so the cancellation between `e` and `f log2(e)` near `x = 2/3 * 2^e`
/// costs nothing and the result is rounded essentially once.
#[device]
pub fn log2(x: f32) -> f32 {
    let (e, f) = log_split(x);
    let w = (f * log_q(f)) * f;
    let t = f.mul_add(1.4426950216293335, e);
    let d = f.mul_add(1.4426950216293335, e - t);
    let r = t + (d + w.mul_add(1.4426950408889634, f * 1.925963033500011e-08));
    log_fix(x, r)
}

/// `log10(x) = e log10(2) + (f + w) log10(e)`: `e * LG2_HI` exact (16-bit constant), `f *
/// LOG10E_HI` added to it by one fma, the small terms summed separately (about 1 ulp).
#[device]
pub fn log10(x: f32) -> f32 {
    let (e, f) = log_split(x);
    let w = (f * log_q(f)) * f;
    let t = f.mul_add(0.4342944920063019, e * 0.301025390625);
    let lo = e.mul_add(4.605039066518657e-06, f * -1.0103049952192578e-08);
    let r = t + w.mul_add(0.4342944819032518, lo);
    log_fix(x, r)
}

/// `log(1 + x)`: the exponent `e` of `1 + x` from its sum rounded toward zero (so that
/// `1 + x = 2^e (1 + f)` with `f` in `[-1/4, 1/2)`), and `f = x 2^-e + (2^-e - 1)` with one
/// rounding (`x 2^-e` by the exponent bits, exact): no error term of `1 + x` to carry, then
/// `log(1 + x) = e ln2 + f + f^2 Q(f)`. Straight-line, special cases by selects.
#[device]
pub fn ln_1p(x: f32) -> f32 {
    ln_1p_scaled(x, 0.0)
}

/// `1 + x = 2^e (1 + f)` as `(e * 2^23, f)` (the exponent still in the bits' position, as an
/// integer), `f` in `[-1/4, 1/2)` rounded once (exact where `x` is an integer, as `x - 1` in
/// `lgamma`'s logarithm of `x`).
#[device]
fn log1p_split(x: f32) -> (u32, f32) {
    let eb = fadd_rz(1.0, x).to_bits().wrapping_sub(0x3f40_0000) & 0xff80_0000;
    let xs = f32::from_bits(x.to_bits().wrapping_sub(eb));
    // 2^-e - 1, from 4 * 2^-e (normal for every e up to 128).
    let f = xs + 0.25f32.mul_add(f32::from_bits(0x4080_0000u32.wrapping_sub(eb)), -1.0);
    (eb, f)
}

/// `(log(1 + f) - f) / f^2` on `[-1/4, 1/2)` (relative minimax, `fit_coeffs.py`).
#[device]
fn log1p_q(f: f32) -> f32 {
    let q = -0.04490842670202255f32;
    let q = q.mul_add(f, 0.10448208451271057);
    let q = q.mul_add(f, -0.13162212073802948);
    let q = q.mul_add(f, 0.14482074975967407);
    let q = q.mul_add(f, -0.16647771000862122);
    let q = q.mul_add(f, 0.19990606606006622);
    let q = q.mul_add(f, -0.250000536441803);
    let q = q.mul_add(f, 0.3333345353603363);
    q.mul_add(f, -0.5)
}

/// `log(1 + x) + extra_e * ln2` (`extra_e` a small integer), as [`ln_1p`] with the exponent
/// raised: the inverse hyperbolic functions' `log(2|x|)` for huge `|x|` without a branch.
#[device]
pub fn ln_1p_scaled(x: f32, extra_e: f32) -> f32 {
    let r = ln_1p_core(x, extra_e);
    // log1p(-0) = -0 (the sum with e*ln2 = +0 would give +0); -1, below and non-finite from
    // `1 + x` (exact where it matters: at -1 and beyond +-inf).
    select(x == 0.0, x, log_fix(1.0 + x, r))
}

/// [`ln_1p_scaled`] for finite `x >= 0` only (`+0` at `+0`; NaN, infinities and `x < -1/4`
/// give unspecified finite values): the inverse hyperbolic functions, whose arguments are
/// such and which select their own special cases, skip the general fix-ups.
#[device]
pub fn ln_1p_core(x: f32, extra_e: f32) -> f32 {
    let (eb, f) = log1p_split(x);
    let l = log1p_q(f).mul_add(f * f, f);
    let e = ((eb as i32) as f32).mul_add(1.1920928955078125e-07, extra_e);
    e.mul_add(0.6931471824645996, l)
}

/// `log(1 + x)` for `x > -1` (finite, or `+inf` giving `128 ln2`: callers select) as a
/// double-f32 `(hi, lo)`: `e * LN2_HI` exact, its sum with `f` by Fast2Sum (`|e ln2| > |f|`
/// or `e = 0`), the rest in `lo`. With `x = x' - 1` exact, `log x'` for `lgamma`/`tgamma`'s
/// Stirling formula (`lo`'s error about `2^-27` absolute); with any `x`, `log1p` (`hi + lo`).
#[device]
pub fn ln_1p_hi_lo(x: f32) -> (f32, f32) {
    let (eb, f) = log1p_split(x);
    let e = ((eb as i32) as f32) * 1.1920928955078125e-07;
    let a = e * 0.693145751953125;
    let hi = a + f;
    let err = (a - hi) + f;
    let lo = log1p_q(f).mul_add(f * f, e * 1.428606765330187e-06);
    (hi, err + lo)
}

/// `e^(x + xl) * 2^-k` as `(2^f, 2^j)`, [`exp_parts`] of a double-f32 argument: the low
/// part joins `f` through one more fma (`tgamma`'s Stirling exponent).
#[device]
pub fn exp_parts_dd(x: f32, xl: f32, k: f32) -> (f32, f32) {
    let c_hi = 1.4426950216293335f32;
    let t = fma_sat(
        x,
        c_hi * 0.003952569169960474,
        0.5 - k * 0.003952569169960474,
    );
    let u = fmaf_rd(t, 253.0, 12582913.0);
    let f = x.mul_add(c_hi, (12583039.0 - k) - u);
    let f = x.mul_add(1.925963033500011e-08, f);
    let f = xl.mul_add(c_hi, f);
    let m = ex2_ftz(f);
    let s = f32::from_bits(u.to_bits() << 23);
    (m, s)
}
