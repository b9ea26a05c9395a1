//! f64 inverse error functions: `erfinv`, `erfcinv`, `normcdfinv`.
//!
//! Central part (`|x| <= 1/2`): `erfinv(x) = x (sqrt(pi)/2 + z P(z))`, `z = x^2`, `P` of
//! degree 16 (least squares on Chebyshev nodes in mpmath, relative error 2^-61), so it rounds
//! about once. Tail (`q = 1 - |x| <= 1/2`, or `erfcinv`'s `q` itself): `y` solves
//! `g(y) = y^2 - ln erfcx(y) = L`, `L = -ln q`, which stays representable down to the smallest
//! subnormal `q` (`L <= 745`) where `erfc` itself would underflow. The start is `s F(1/s)`
//! with `s = sqrt(L)` (`F` degree 8 on two intervals of `1/s`, relative error 5e-7), then two
//! Newton steps on `g` (`g' = 2 / (sqrt(pi) erfcx(y))`, `g` convex and increasing, so they
//! converge from either side: 5e-7, 1e-13, 1e-26). The residual `g(y) - L` is formed with `y^2`
//! as an exact double-double, so the result's error is about half of `L`'s relative error.
//! `erfcinv(q)` for `q` in `[1/2, 1]` is the central part of the exact `1 - q`; above 1,
//! `-erfcinv(2 - q)` (exact). `normcdfinv(p) = -sqrt(2) erfcinv(2 p)` with `sqrt 2` split so
//! the product rounds once.

#![allow(
    clippy::excessive_precision,
    clippy::approx_constant,
    clippy::neg_cmp_op_on_partial_ord
)]

use kernel_macros::device;

use super::f64_erfcx::erfcx;
use super::f64_exp_log::ln;

/// `erfinv(x)` for `|x| <= 1/2` (also `x = ±0`).
#[device]
fn central(x: f64) -> f64 {
    let z = x * x;
    let p = 0.1296089711461081f64;
    let p = p.mul_add(z, -0.1381863509692965);
    let p = p.mul_add(z, 0.12096775041844021);
    let p = p.mul_add(z, -0.027853677412759115);
    let p = p.mul_add(z, 0.0324557047888588);
    let p = p.mul_add(z, 0.017696250212164262);
    let p = p.mul_add(z, 0.023070054603336988);
    let p = p.mul_add(z, 0.024968325916494772);
    let p = p.mul_add(z, 0.02798531416314595);
    let p = p.mul_add(z, 0.03168870765804978);
    let p = p.mul_add(z, 0.03646594285039524);
    let p = p.mul_add(z, 0.042836720224357416);
    let p = p.mul_add(z, 0.051731281993491224);
    let p = p.mul_add(z, 0.06495961774527385);
    let p = p.mul_add(z, 0.08655212924154827);
    let p = p.mul_add(z, 0.12755617530559796);
    let p = p.mul_add(z, 0.2320136665346545);
    // sqrt(pi)/2 = 0.886226925452758 - 3.8332932499128993e-17
    x.mul_add(0.886226925452758, x * z.mul_add(p, -3.8332932499128993e-17))
}

/// `erfcinv(q)` for `0 < q <= 1/2` (positive).
#[device]
fn tail(q: f64) -> f64 {
    let big_l = -ln(q);
    let s = big_l.sqrt();
    let r = 1.0 / s;
    let y = if r < 0.4 {
        let p = -72.00443094980308;
        let p = p * r + 148.45075351163055;
        let p = p * r + -132.99871956280987;
        let p = p * r + 68.69537111979449;
        let p = p * r + -23.424343284391014;
        let p = p * r + 6.299959726520731;
        let p = p * r + -1.707517055967843;
        let p = p * r + -0.020473266083575845;
        p * r + 1.0001653095042016
    } else {
        let p = -0.007461550599589846;
        let p = p * r + 0.06036486775125808;
        let p = p * r + -0.2333737524816831;
        let p = p * r + 0.5834020812239685;
        let p = p * r + -1.0423169364453986;
        let p = p * r + 1.3053066779487814;
        let p = p * r + -0.9341522833669065;
        let p = p * r + -0.09927874354399989;
        p * r + 1.0042257840574416
    };
    let mut y = s * y;
    let mut i = 0;
    while i < 2 {
        let e = erfcx(y);
        let h = y * y;
        let l = y.mul_add(y, -h);
        let res = (h - big_l) + (l - ln(e));
        // y -= res / g'(y), g' = 2 / (sqrt(pi) erfcx(y)); sqrt(pi)/2 = 0.886226925452758
        y = (-res * e).mul_add(0.886226925452758, y);
        i += 1;
    }
    y
}

/// `erfinv(x)`: the inverse of `erf` on `(-1, 1)`; `±inf` at `±1`, NaN beyond.
#[device]
pub fn erfinv(x: f64) -> f64 {
    let a = x.abs();
    if a <= 0.5 {
        // `central(-0)` is `+0`.
        return central(x).copysign(x);
    }
    if !(a < 1.0) {
        if a == 1.0 {
            return f64::INFINITY.copysign(x);
        }
        return f64::NAN;
    }
    tail(1.0 - a).copysign(x)
}

/// `erfcinv(q) = erfinv(1 - q)` for `q` in `[0, 2]` without forming `1 - q` where it would
/// round (`q` near 0): `+inf` at 0, `-inf` at 2, NaN outside.
#[device]
pub fn erfcinv(q: f64) -> f64 {
    if !(q > 0.0 && q < 2.0) {
        if q == 0.0 {
            return f64::INFINITY;
        }
        if q == 2.0 {
            return f64::NEG_INFINITY;
        }
        return f64::NAN;
    }
    // `q <= 1`: erfinv of `1 - q >= 0`; above, `-erfinv` of `q - 1` (both exact).
    let up = q > 1.0;
    let d = if up { 2.0 - q } else { q };
    let v = if d >= 0.5 { central(1.0 - d) } else { tail(d) };
    if up {
        -v
    } else {
        v
    }
}

/// `normcdfinv(p) = -sqrt(2) erfcinv(2 p)`: the inverse of the standard normal distribution
/// function on `(0, 1)` (`-inf` at 0, `+inf` at 1); `+0` at 1/2.
#[device]
pub fn normcdfinv(p: f64) -> f64 {
    let y = erfcinv(p + p);
    if y.is_infinite() {
        return -y;
    }
    // sqrt(2) = 1.4142135623730951 - 9.667293313452913e-17
    y.mul_add(-1.4142135623730951, y * 9.667293313452913e-17) + 0.0
}
