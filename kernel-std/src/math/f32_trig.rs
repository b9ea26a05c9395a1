//! f32 sine, cosine, tangent and their `pi`-scaled forms, in f32 arithmetic.
//!
//! Reduction to `r = x - n*pi/2`, `|r| <= pi/4`: Cody-Waite with `pi/2` in three f32 parts and
//! `fma` while `|x| < 105615` (the first step is exact: `x - n*P1` is a multiple of `2^-24`
//! below 1 in magnitude), and beyond that Payne-Hanek in integer arithmetic: the 24-bit mantissa
//! times a 128-bit window of the bits of `2/pi` chosen by the exponent, of which 64 bits around
//! the binary point give the quadrant and the fraction. The common path is straight-line: the
//! large-argument reduction sits behind one branch and keeps its table in registers (selects),
//! so it costs no local memory and no registers on the common path. Kernels: polynomials in
//! `r^2` on `|r| <= pi/4` of the degrees CUDA's 2-ulp (sin, cos) and 4-ulp (tan) bounds need
//! (`fit_coeffs.py`; tan's a relative-error minimax fit). `sinpi`/`cospi` reduce exactly
//! (`x - n/2` with `n = rint(2x)`).

#![allow(clippy::excessive_precision, clippy::approx_constant)]
// Device code: plain comparisons (NaN-aware as written) lower to one instruction each; the
// kernel DSL has no `contains`, `clamp` or `partial_cmp`.
#![allow(
    clippy::neg_cmp_op_on_partial_ord,
    clippy::manual_clamp,
    clippy::manual_range_contains
)]

use kernel_macros::device;

use super::approx::{f2i_rn, rcp_ftz, rni_f32, select, select_u32};

/// Word `i + k` (`k` fixed, `i` in `0..4`) of the bits of `2/pi`, by two bit-selects on `i`:
/// registers only (an indexed table would live in local memory).
#[device]
fn pio2_word(odd: bool, high: bool, a: u32, b: u32, c: u32, d: u32) -> u32 {
    select_u32(high, select_u32(odd, d, c), select_u32(odd, b, a))
}

/// `x = n*pi/2 + r` for `|x| >= 2^17` (finite): `(n mod 4, r)`. Straight-line integer code
/// (selects, no table in memory, no branch), placed behind the caller's rare branch.
#[device]
fn rem_pio2_large(x: f32) -> (i32, f32) {
    let b = x.to_bits();
    // x = m * 2^big_e with m a 24-bit integer; -6 <= big_e <= 104.
    let big_e = ((b >> 23) & 0xff) as i32 - 150;
    let m = ((b & 0x007f_ffff) | 0x0080_0000) as u64;
    // Words before i0 contribute multiples of 4 (mod 4: nothing): their bits weigh at least 2^2.
    // 0 <= i0 <= 3 (negative shifts clamp to 0 by the sign mask).
    let i0 = (big_e - 2) >> 5;
    let i0 = i0 & !(i0 >> 31);
    let odd = (i0 & 1) == 1;
    let high = (i0 & 2) == 2;
    // The bits of 2/pi from the binary point on, 32 a word: words i0..i0+3.
    let w0 = pio2_word(odd, high, 0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0) as u64;
    let w1 = pio2_word(odd, high, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599) as u64;
    let w2 = pio2_word(odd, high, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041) as u64;
    let w3 = pio2_word(odd, high, 0xf534ddc0, 0xdb629599, 0x3c439041, 0xfe5163ab) as u64;
    // m * (w0:w1:w2:w3), as 32-bit limbs p1..p4 (p0, the lowest, is not needed).
    let t3 = m * w3;
    let t2 = m * w2 + (t3 >> 32);
    let t1 = m * w1 + (t2 >> 32);
    let t0 = m * w0 + (t1 >> 32);
    let hi = t0; // bits 96.. of the product
    let mid = ((t1 & 0xffff_ffff) << 32) | (t2 & 0xffff_ffff); // bits 32..95
                                                               // The binary point of x * 2/pi sits at bit `sh` of the product, 95 <= sh <= 134.
    let sh = 32 * (i0 + 4) - big_e;
    let q = (hi << (158 - sh) as u32) | (mid >> (sh - 94) as u32);
    // Top two bits: the quadrant; the rest: the fraction, rounded to nearest as a signed value
    // (bit 61 of q, the fraction's top bit, carries into the quadrant).
    let fr = (q << 2) as i64;
    let n = ((((q >> 61) as i32) + 1) >> 1) & 3;
    let fh = fr as f32;
    let fl = (fr.wrapping_sub(fh as i64)) as f32;
    // r = (fh + fl) * 2^-64 * pi/2, rounded once.
    let h = fh * 8.515304187176306e-20;
    let hl = fh.mul_add(8.515304187176306e-20, -h);
    let r = h + fl.mul_add(
        8.515304187176306e-20,
        fh.mul_add(-2.3695991071419347e-27, hl),
    );
    let neg = x < 0.0;
    (
        select_u32(neg, (4 - n as u32) & 3, n as u32) as i32,
        select(neg, -r, r),
    )
}

/// `x = n*pi/2 + r`: `(n mod 4, r)`; NaN `r` for infinite or NaN `x` (the Cody-Waite steps
/// give `inf - inf` there). Cody-Waite runs for every argument (`n = 0`, `r = x` exactly for
/// `|x| <= pi/4`: the `-0` products keep the sign of `x = -0`, as `pi/2` is split into three
/// parts below it, all subtracted); Payne-Hanek only behind the one branch for
/// `|x| >= 105615`, which the arguments of most kernels never take. Below that bound `n < 2^17`
/// and the first step is exact (`P1` has 23 significant bits).
#[device]
pub fn rem_pio2(x: f32) -> (i32, f32) {
    let t = x.mul_add(0.6366197466850281, 12582912.0);
    let nf = t - 12582912.0;
    let r = nf.mul_add(-1.5707962512969971, x);
    let r = nf.mul_add(-7.549789415861596e-08, r);
    let r = nf.mul_add(-5.390302953474238e-15, r);
    let ax = x.abs();
    if ax >= 105615.0 {
        let (n, rl) = rem_pio2_large(x);
        (n, select(ax < f32::INFINITY, rl, r))
    } else {
        ((t.to_bits() & 3) as i32, r)
    }
}

/// `v` negated when bit 1 of `n` is set (`-v` for quadrants 2 and 3).
#[device]
fn neg_if_bit1(v: f32, n: i32) -> f32 {
    select(n & 2 == 2, -v, v)
}

/// `sin(r) = r + r^3 S(r^2)` for `|r| <= pi/4`; `S < 0` near 0 and `r u` formed as
/// `fma(r, u, +0)` (`+0` for `r = ±0`) make `sin(-0) = -0` come out of the last fma.
#[device]
pub fn sin_k(r: f32) -> f32 {
    let u = r * r;
    let p = -0.00019587638962548226f32;
    let p = p.mul_add(u, 0.008332747034728527);
    let p = p.mul_add(u, -0.166666641831398);
    p.mul_add(r.mul_add(u, 0.0), r)
}

/// `cos(r) = 1 + u C(u)`, `u = r^2`, for `|r| <= pi/4`.
#[device]
pub fn cos_k(r: f32) -> f32 {
    let u = r * r;
    let p = 2.4463452064082958e-05f32;
    let p = p.mul_add(u, -0.0013887586537748575);
    let p = p.mul_add(u, 0.04166664928197861);
    let p = p.mul_add(u, -0.5);
    p.mul_add(u, 1.0)
}

/// `sin(r)` (`odd` false) or `cos(r)` (`odd` true) for `|r| <= pi/4`, as one Horner
/// evaluation with per-kernel coefficients: `b + (b u) P(u)` with `u = r^2`, `b = r` for the
/// sine and 1 for the cosine (the cosine's extra leading term is a predicated fma); signed
/// zeros as in [`sin_k`].
#[device]
fn sin_or_cos_k(r: f32, odd: bool) -> f32 {
    let u = r * r;
    let b = select(odd, 1.0, r);
    let p = select(
        odd,
        2.4463452064082958e-05f32.mul_add(u, -0.0013887586537748575),
        -0.00019587638962548226,
    );
    let p = p.mul_add(u, select(odd, 0.04166664928197861, 0.008332747034728527));
    let p = p.mul_add(u, select(odd, -0.5, -0.166666641831398));
    p.mul_add(b.mul_add(u, 0.0), b)
}

/// One kernel evaluation (no branch), the quadrant's sign by a select.
#[device]
pub fn sin(x: f32) -> f32 {
    let (n, r) = rem_pio2(x);
    neg_if_bit1(sin_or_cos_k(r, n & 1 == 1), n)
}

#[device]
pub fn cos(x: f32) -> f32 {
    let (n, r) = rem_pio2(x);
    neg_if_bit1(sin_or_cos_k(r, n & 1 == 0), n + 1)
}

#[device]
pub fn sincos(x: f32) -> (f32, f32) {
    let (n, r) = rem_pio2(x);
    let s = sin_k(r);
    let c = cos_k(r);
    let odd = n & 1 == 1;
    (
        neg_if_bit1(select(odd, c, s), n),
        neg_if_bit1(select(odd, s, c), n + 1),
    )
}

/// `t = tan r = r + r^3 T(r^2)` (`r u` as a product: `T > 0`, so `tan(-0) = -0`) and, in odd
/// quadrants, `-1/t` by MUFU.RCP and one Newton step (without it the GPU's 1-ulp reciprocal
/// would leave no margin under CUDA's 4-ulp bound after a large-argument reduction).
#[device]
pub fn tan(x: f32) -> f32 {
    let (n, r) = rem_pio2(x);
    let u = r * r;
    let p = 0.009395712986588478f32;
    let p = p.mul_add(u, 0.0031027907971292734);
    let p = p.mul_add(u, 0.024440627545118332);
    let p = p.mul_add(u, 0.05340839549899101);
    let p = p.mul_add(u, 0.13338834047317505);
    let p = p.mul_add(u, 0.33333155512809753);
    let t = p.mul_add(r * u, r);
    let y = rcp_ftz(-t);
    select(n & 1 == 1, y.mul_add(t.mul_add(y, 1.0), y), t)
}

/// `sin(pi t)` for `|t| <= 1/4`: `pi t + t^3 P(t^2)`, `P` of degree 2 (relative minimax fit,
/// about 0.12 ulp), `pi` in two parts.
#[device]
fn sinpi_k(t: f32) -> f32 {
    let u = t * t;
    let p = -0.5894188284873962f32;
    let p = p.mul_add(u, 2.549805164337158);
    let p = p.mul_add(u, -5.167708873748779);
    let tail = u.mul_add(p, -8.742277657347586e-08);
    t.mul_add(3.1415927410125732, t * tail)
}

/// `cos(pi t)` for `|t| <= 1/4`: `1 + u P(u)`, `u = t^2`, `P` of degree 3 (relative minimax
/// fit, about 0.2 ulp).
#[device]
fn cospi_k(t: f32) -> f32 {
    let u = t * t;
    let p = 0.23136425018310547f32;
    let p = p.mul_add(u, -1.3350505828857422);
    let p = p.mul_add(u, 4.0587077140808105);
    let p = p.mul_add(u, -4.934802055358887);
    u.mul_add(p, 1.0)
}

/// `x = n/2 + t` exactly, `|t| <= 1/4`: `(n, t)` (only `n mod 4` matters), without a branch; `t` is NaN for
/// infinite or NaN `x`. From `2^24` on, `x` is an even integer: it is replaced by `x * 0` (a
/// zero of its sign, NaN for infinities), so `n = 0`, `t = ±0`, and `2x` cannot overflow.
#[device]
fn rem_half(x: f32) -> (i32, f32) {
    let x = select(x.abs() < 16777216.0, x, x * 0.0);
    let nf = rni_f32(x + x);
    // The quadrant from the hardware conversion (NaN to 0: `t` carries the NaN).
    (f2i_rn(x + x) as i32, nf.mul_add(-0.5, x))
}

#[device]
pub fn sinpi(x: f32) -> f32 {
    let (n, t) = rem_half(x);
    let v = neg_if_bit1(select(n & 1 == 1, cospi_k(t), sinpi_k(t)), n);
    // sin(pi n) is +0 for positive and -0 for negative integers n.
    select(v == 0.0, x * 0.0, v)
}

/// `+ 0.0` turns the `-0` of `cos(pi (n + 1/2))` into `+0`.
#[device]
pub fn cospi(x: f32) -> f32 {
    let (n, t) = rem_half(x);
    neg_if_bit1(select(n & 1 == 1, sinpi_k(t), cospi_k(t)), n + 1) + 0.0
}

#[device]
pub fn sincospi(x: f32) -> (f32, f32) {
    let (n, t) = rem_half(x);
    let s = sinpi_k(t);
    let c = cospi_k(t);
    let odd = n & 1 == 1;
    let sv = neg_if_bit1(select(odd, c, s), n);
    let cv = neg_if_bit1(select(odd, s, c), n + 1);
    (select(sv == 0.0, x * 0.0, sv), cv + 0.0)
}
