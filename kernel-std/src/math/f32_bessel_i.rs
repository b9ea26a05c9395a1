//! f32 modified Bessel functions of the first kind, `cyl_bessel_i0` and `cyl_bessel_i1`, in f32
//! arithmetic and without a branch: both parts are evaluated and the result selected.
//!
//! `|x| < 8`: the power series `I0 = S0(z)`, `I1 = (x/2) S1(z)` in `z = (x/2)^2` (positive
//! terms, degree 15), `z` an exact double-f32 whose low part is applied through the derivative
//! (`S0' = S1`, `S1' = (S0 - S1) / z`). Beyond: `e^x / sqrt(x) P(1/x)`, `P` of degree 6 on
//! `[0, 1/8]` (least squares on Chebyshev nodes in mpmath, relative error 2^-29), `e^x` from
//! `exp_parts` scaled last so that the result rounds once up to its overflow, `1/sqrt(x)` from
//! MUFU.RSQ and a Newton step, `1/x` from MUFU.RCP (only the polynomial's argument).

#![allow(clippy::excessive_precision, clippy::approx_constant)]

use kernel_macros::device;

use super::approx::{rcp_ftz, rsqrt_ftz, select};
use super::f32_exp_log::exp_parts;

/// `sum z^k / (k! (k + 0)!)`, `z = x^2/4` (the series of `I0`), degree 15.
#[device]
fn series0(z: f32) -> f32 {
    let p = 5.8479111859887375e-25f32;
    let p = p.mul_add(z, 1.3157801051012797e-22);
    let p = p.mul_add(z, 2.5789289454139907e-20);
    let p = p.mul_add(z, 4.358389832123526e-18);
    let p = p.mul_add(z, 6.276081093560082e-16);
    let p = p.mul_add(z, 7.5940583032022e-14);
    let p = p.mul_add(z, 7.594058194781983e-12);
    let p = p.mul_add(z, 6.151187337266606e-10);
    let p = p.mul_add(z, 3.936759895850628e-08);
    let p = p.mul_add(z, 1.9290123418613803e-06);
    let p = p.mul_add(z, 6.944444612599909e-05);
    let p = p.mul_add(z, 0.0017361111240461469);
    let p = p.mul_add(z, 0.02777777798473835);
    let p = p.mul_add(z, 0.25);
    let p = p.mul_add(z, 1.0);
    p.mul_add(z, 1.0)
}

/// `sqrt(x) e^-x I0(x)` for `t = 1/x` in `[0, 0.125]`: degree 6 (relative error 2^-31.3).
#[device]
fn large0(t: f32) -> f32 {
    let p = 7.376532554626465f32;
    let p = p.mul_add(t, -1.4102774858474731);
    let p = p.mul_add(t, 0.25413480401039124);
    let p = p.mul_add(t, 0.03696747496724129);
    let p = p.mul_add(t, 0.02938891388475895);
    let p = p.mul_add(t, 0.028049275279045105);
    let p = p.mul_add(t, 0.04986778646707535);
    0.3989422917366028 + t.mul_add(p, -1.1335170135851058e-08)
}

/// `sum z^k / (k! (k + 1)!)`, `z = x^2/4` (the series of `I1` / (x/2)), degree 15.
#[device]
fn series1(z: f32) -> f32 {
    let p = 3.654944491242961e-26f32;
    let p = p.mul_add(z, 8.771866631071687e-24);
    let p = p.mul_add(z, 1.8420920461675957e-21);
    let p = p.mul_add(z, 3.352607483635346e-19);
    let p = p.mul_add(z, 5.2300677985482315e-17);
    let p = p.mul_add(z, 6.903689520553445e-15);
    let p = p.mul_add(z, 7.5940583032022e-13);
    let p = p.mul_add(z, 6.834652288567611e-11);
    let p = p.mul_add(z, 4.920949869813285e-09);
    let p = p.mul_add(z, 2.755731998149713e-07);
    let p = p.mul_add(z, 1.1574074051168282e-05);
    let p = p.mul_add(z, 0.00034722223062999547);
    let p = p.mul_add(z, 0.0069444444961845875);
    let p = p.mul_add(z, 0.0833333358168602);
    let p = p.mul_add(z, 0.5);
    p.mul_add(z, 1.0)
}

/// `sqrt(x) e^-x I1(x)` for `t = 1/x` in `[0, 0.125]`: degree 6 (relative error 2^-29.1).
#[device]
fn large1(t: f32) -> f32 {
    let p = -8.236491203308105f32;
    let p = p.mul_add(t, 1.5545477867126465);
    let p = p.mul_add(t, -0.29303449392318726);
    let p = p.mul_add(t, -0.04884888976812363);
    let p = p.mul_add(t, -0.04109650105237961);
    let p = p.mul_add(t, -0.0467495359480381);
    let p = p.mul_add(t, -0.14960335195064545);
    0.3989422917366028 + t.mul_add(p, -1.1335170135851058e-08)
}

/// `(S0(z), S1(z))` for the exact `z = (a/2)^2`, to first order in its low part.
#[device]
fn series(a: f32) -> (f32, f32) {
    let h = 0.5 * a;
    let zh = h * h;
    let zl = h.mul_add(h, -zh);
    let s0 = series0(zh);
    let s1 = series1(zh);
    // (S0 - S1) / z for the correction only (z >= 2^-24 where zl can matter).
    let d1 = (s0 - s1) * rcp_ftz(select(zh > 5.960464477539063e-08, zh, 1.0));
    (zl.mul_add(s1, s0), zl.mul_add(d1, s1))
}

/// `e^a p / sqrt(a)` for `a >= 8` (`+inf` for `a = +inf`).
#[device]
fn scaled(a: f32, p: f32) -> f32 {
    let y = rsqrt_ftz(a);
    let e = (-(a * y)).mul_add(y, 1.0);
    let r = (0.5 * y).mul_add(e, y);
    // e^a 2^-8 (so that the scale stays unclamped, and 2^f within [-1/2, 1/2], up to the
    // result's overflow near 92), the 2^8 put back exactly on `p r`.
    let (m, s) = exp_parts(a, 1.4426950216293335, 1.925963033500011e-08, 8.0);
    let v = (m * ((p * r) * 256.0)) * s;
    select(a == f32::INFINITY, f32::INFINITY, v)
}

/// `cyl_bessel_i0(x)`: the modified Bessel function of the first kind of order 0.
#[device]
pub fn cyl_bessel_i0(x: f32) -> f32 {
    let a = x.abs();
    let (s0, _) = series(a);
    let big = scaled(a, large0(rcp_ftz(a)));
    // NaN: both parts are NaN.
    select(a < 8.0, s0, big)
}

/// `cyl_bessel_i1(x)`: the modified Bessel function of the first kind of order 1.
#[device]
pub fn cyl_bessel_i1(x: f32) -> f32 {
    let a = x.abs();
    let (_, s1) = series(a);
    let big = scaled(a, large1(rcp_ftz(a)));
    let bb = big.to_bits() | (x.to_bits() & 0x8000_0000);
    select(a < 8.0, (0.5 * x) * s1, f32::from_bits(bb))
}
