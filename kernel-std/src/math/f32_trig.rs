//! f32 sine, cosine, tangent and their `pi`-scaled forms, in f32 arithmetic.
//!
//! Reduction to `r = x - n*pi/2`, `|r| <= pi/4`: Cody-Waite with `pi/2` in three f32 parts and
//! `fma` while `|x| < 2^17` (the first step is exact: `x - n*P1` is a multiple of `ulp(P1)` below
//! 1 in magnitude), and beyond that Payne-Hanek in integer arithmetic: the 24-bit mantissa times
//! a 128-bit window of the bits of `2/pi` chosen by the exponent, of which 64 bits around the
//! binary point give the quadrant and the fraction. Kernels: polynomials in `r^2` on
//! `|r| <= pi/4` (least-squares fits on Chebyshev nodes, `fit_coeffs.py`). `sinpi`/`cospi` reduce
//! exactly (`x - n/2` with `n = rint(2x)`).

#![allow(clippy::excessive_precision, clippy::approx_constant)]
// Device code: plain comparisons (NaN-aware as written) lower to one instruction each; the
// kernel DSL has no `contains`, `clamp` or `partial_cmp`.
#![allow(
    clippy::neg_cmp_op_on_partial_ord,
    clippy::manual_clamp,
    clippy::manual_range_contains
)]

use kernel_macros::device;

use super::approx::{rcp_ftz, rint, select};

/// `x = n*pi/2 + r` for `|x| >= 2^17` (finite): `(n mod 4, r)`.
#[device]
fn rem_pio2_large(x: f32) -> (i32, f32) {
    let words: [u32; 8] = [
        0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041, 0xfe5163ab,
        0xdebbc561,
    ];
    let b = x.to_bits();
    // x = m * 2^big_e with m a 24-bit integer; big_e >= -6.
    let big_e = ((b >> 23) & 0xff) as i32 - 150;
    let m = ((b & 0x007f_ffff) | 0x0080_0000) as u64;
    // Words before i0 contribute multiples of 4 (mod 4: nothing): their bits weigh at least 2^2.
    let i0 = (big_e - 2) >> 5;
    let i0 = if i0 < 0 { 0 } else { i0 };
    let w0 = words[i0 as usize] as u64;
    let w1 = words[(i0 + 1) as usize] as u64;
    let w2 = words[(i0 + 2) as usize] as u64;
    let w3 = words[(i0 + 3) as usize] as u64;
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
    // Top two bits: the quadrant; the rest: the fraction, rounded to nearest as a signed value.
    let fr = (q << 2) as i64;
    let n = ((q >> 62) as i32 + if fr < 0 { 1 } else { 0 }) & 3;
    let fh = fr as f32;
    let fl = (fr.wrapping_sub(fh as i64)) as f32;
    // r = (fh + fl) * 2^-64 * pi/2, rounded once.
    let h = fh * 8.515304187176306e-20;
    let hl = fh.mul_add(8.515304187176306e-20, -h);
    let r = h + fl.mul_add(
        8.515304187176306e-20,
        fh.mul_add(-2.3695991071419347e-27, hl),
    );
    if x < 0.0 {
        ((4 - n) & 3, -r)
    } else {
        (n, r)
    }
}

/// `x = n*pi/2 + r`: `(n mod 4, r)`; NaN `r` for infinite or NaN `x` (the Cody-Waite steps
/// give `inf - inf` there). Cody-Waite runs for every argument (`n = 0`, `r = x` exactly for
/// `|x| <= pi/4`); Payne-Hanek only behind the one branch for `2^17 <= |x| < inf`, which the
/// arguments of most kernels never take.
#[device]
pub fn rem_pio2(x: f32) -> (i32, f32) {
    let t = x.mul_add(0.6366197466850281, 12582912.0);
    let nf = t - 12582912.0;
    let r = nf.mul_add(-1.5707963705062866, x);
    let r = nf.mul_add(4.371138828673793e-08, r);
    let r = nf.mul_add(1.7151245100058819e-15, r);
    let ax = x.abs();
    if ax >= 131072.0 {
        let (n, rl) = rem_pio2_large(x);
        (n, select(ax < f32::INFINITY, rl, r))
    } else {
        // n = 0: r is x itself (the fmas' `+0` products would turn `-0` into `+0`).
        ((t.to_bits() & 3) as i32, select(nf == 0.0, x, r))
    }
}

/// `v` negated when bit 1 of `n` is set (`-v` for quadrants 2 and 3), by the sign bit.
#[device]
fn neg_if_bit1(v: f32, n: i32) -> f32 {
    f32::from_bits(v.to_bits() ^ (((n as u32) & 2) << 30))
}

/// `sin(r)` for `|r| <= pi/4`.
#[device]
pub fn sin_k(r: f32) -> f32 {
    let u = r * r;
    let p = 2.724962087086169e-06f32;
    let p = p.mul_add(u, -0.00019840084132738411);
    let p = p.mul_add(u, 0.008333331905305386);
    let p = p.mul_add(u, -0.1666666716337204);
    // The sign of r (the fma would turn sin(-0) into +0).
    with_sign_of((r * u).mul_add(p, r), r)
}

#[device]
fn with_sign_of(v: f32, s: f32) -> f32 {
    // One bit-select (LOP3 with a single immediate), not two masks and an or.
    let vb = v.to_bits();
    f32::from_bits(vb ^ ((vb ^ s.to_bits()) & 0x8000_0000))
}

/// `cos(r)` for `|r| <= pi/4`.
#[device]
pub fn cos_k(r: f32) -> f32 {
    let u = r * r;
    let p = -2.723682257510518e-07f32;
    let p = p.mul_add(u, 2.4799859602353536e-05);
    let p = p.mul_add(u, -0.0013888884568586946);
    let p = p.mul_add(u, 0.0416666679084301);
    let p = p.mul_add(u, -0.5);
    u.mul_add(p, 1.0)
}

/// `sin(r)` (`odd` false) or `cos(r)` (`odd` true) for `|r| <= pi/4`, as one Horner
/// evaluation with per-kernel coefficients: `b + (b u) P(u)` with `u = r^2`, `b = r` for the
/// sine and 1 for the cosine; the result has the sign of `b` (`sin(-0) = -0`).
#[device]
fn sin_or_cos_k(r: f32, odd: bool) -> f32 {
    let u = r * r;
    let b = select(odd, 1.0, r);
    let p = select(odd, -2.723682257510518e-07, 0.0);
    let p = p.mul_add(
        u,
        select(odd, 2.4799859602353536e-05, 2.724962087086169e-06),
    );
    let p = p.mul_add(
        u,
        select(odd, -0.0013888884568586946, -0.00019840084132738411),
    );
    let p = p.mul_add(u, select(odd, 0.0416666679084301, 0.008333331905305386));
    let p = p.mul_add(u, select(odd, -0.5, -0.1666666716337204));
    with_sign_of((b * u).mul_add(p, b), b)
}

/// One kernel evaluation (no branch), the quadrant's sign by the sign bit.
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

/// `t = tan r` and `-1/t` (MUFU.RCP and one Newton step) both computed, one selected.
#[device]
pub fn tan(x: f32) -> f32 {
    let (n, r) = rem_pio2(x);
    let u = r * r;
    let p = 0.0017914671916514635f32;
    let p = p.mul_add(u, -4.420234290591907e-06);
    let p = p.mul_add(u, 0.004428755957633257);
    let p = p.mul_add(u, 0.00860793236643076);
    let p = p.mul_add(u, 0.021910933777689934);
    let p = p.mul_add(u, 0.05396499112248421);
    let p = p.mul_add(u, 0.13333342969417572);
    let p = p.mul_add(u, 0.3333333432674408);
    let t = with_sign_of((r * u).mul_add(p, r), r);
    let y = rcp_ftz(t);
    let e = (-t).mul_add(y, 1.0);
    select(n & 1 == 1, -y.mul_add(e, y), t)
}

/// `sin(pi t)` for `|t| <= 1/4`.
#[device]
fn sinpi_k(t: f32) -> f32 {
    let u = t * t;
    let p = 0.08122957497835159f32;
    let p = p.mul_add(u, -0.5992287993431091);
    let p = p.mul_add(u, 2.550163507461548);
    let p = p.mul_add(u, -5.167712688446045);
    // pi*t + t^3 p, with pi in two parts.
    let tail = u.mul_add(p, -8.742277657347586e-08);
    t.mul_add(3.1415927410125732, t * tail)
}

/// `cos(pi t)` for `|t| <= 1/4`.
#[device]
fn cospi_k(t: f32) -> f32 {
    let u = t * t;
    let p = -0.02550704963505268f32;
    let p = p.mul_add(u, 0.2353142648935318);
    let p = p.mul_add(u, -1.335262417793274);
    let p = p.mul_add(u, 4.058712005615234);
    let p = p.mul_add(u, -4.934802055358887);
    u.mul_add(p, 1.0)
}

/// `x = n/2 + t` exactly, `|t| <= 1/4`: `(n mod 4, t)`, without a branch; `t` is NaN for
/// infinite or NaN `x`. From `2^24` on, `x` is an even integer: it is replaced by `x * 0` (a
/// zero of its sign, NaN for infinities), so `n = 0`, `t = ±0`, and `2x` cannot overflow.
#[device]
fn rem_half(x: f32) -> (i32, f32) {
    let x = select(x.abs() < 16777216.0, x, x * 0.0);
    let nf = rint(x + x);
    ((nf as i32) & 3, nf.mul_add(-0.5, x))
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
