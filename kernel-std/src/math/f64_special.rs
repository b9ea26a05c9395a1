//! f64 error function and gamma functions.
//!
//! erf: Taylor series on `|x| < 1/2`; beyond, `1 - erfc`. erfc on `[1/2, 3/2)`: Taylor series at
//! the centres 0.75, 1.25 (coefficients from the derivatives `erfc^(k)`); on `[3/2, 5/2)`,
//! `exp(-x^2)` times the Taylor series of `exp(x^2) erfc(x)` at 1.75 and 2.25 (erfc's own series
//! cancels there); beyond,
//! `exp(-x^2) / sqrt(pi)` over Laplace's continued fraction `x + (1/2)/(x + 1/(x + (3/2)/...))`,
//! evaluated backwards from a depth that grows as `x` shrinks (so its truncation stays below
//! 2^-60), with `exp(-x^2)` taken from a double-double `x^2`.
//! lgamma/tgamma: `ln Gamma` as a double-double, from Stirling's series at `z >= 12` (shifting
//! smaller arguments up through a double-double product of the factors), `Gamma = exp` of it;
//! near 1 and 2, where `ln Gamma` vanishes, the Taylor series of `ln Gamma(2 + t)` (coefficients
//! `(-1)^k (zeta(k) - 1) / k`); negative arguments by reflection.

// Range tests are written as comparisons: the kernel DSL has no `RangeInclusive::contains`.
#![allow(
    clippy::excessive_precision,
    clippy::approx_constant,
    clippy::manual_range_contains
)]

use kernel_macros::device;

use super::f64_exp_log::{exp, ln, ln_1p};
use super::f64_pow::{exp_dd, log_dd};
use super::f64_reduce::two_sum;
use super::f64_trig::sinpi;

/// `erf(x)` for `|x| < 1/2`.
#[device]
fn erf_small(x: f64) -> f64 {
    let z = x * x;
    let p = 3.9554295164585257e-13;
    let p = p * z + -5.9477940136376354e-12;
    let p = p * z + 8.35070279514724e-11;
    let p = p * z + -1.0892221037148573e-09;
    let p = p * z + 1.3122532963802806e-08;
    let p = p * z + -1.4503852223150468e-07;
    let p = p * z + 1.4589169000933706e-06;
    let p = p * z + -1.3227513227513228e-05;
    let p = p * z + 0.00010683760683760684;
    let p = p * z + -0.0007575757575757576;
    let p = p * z + 0.004629629629629629;
    let p = p * z + -0.023809523809523808;
    let p = p * z + 0.1;
    let p = p * z + -0.3333333333333333;
    let q = z * p;
    let a = x * 1.1283791670955126;
    a + (a * q + x * 1.533545961316588e-17)
}

/// `erfc(0.75 + h)` for `|h| <= 1/4` (Taylor series at 0.75, degree 23).
#[device]
fn erfc_t0(h: f64) -> f64 {
    let p = 2.829245842918306e-10;
    let p = p * h + -3.202032280143283e-09;
    let p = p * h + -8.926851049270936e-10;
    let p = p * h + 3.7686462355785005e-08;
    let p = p * h + -1.988595070010976e-08;
    let p = p * h + -3.820585027845882e-07;
    let p = p * h + 5.034286680771006e-07;
    let p = p * h + 3.252264713003685e-06;
    let p = p * h + -7.166231694301993e-06;
    let p = p * h + -2.2117975642824626e-05;
    let p = p * h + 7.57456209347206e-05;
    let p = p * h + 0.00010618466494862627;
    let p = p * h + -0.0006239836743132585;
    let p = p * h + -0.00018603225735249506;
    let p = p * h + 0.00396826044637477;
    let p = p * h + -0.0023017883040209273;
    let p = p * h + -0.018435235177909452;
    let p = p * h + 0.026872509532768433;
    let p = p * h + 0.053242729167728105;
    let p = p * h + -0.1506869693426267;
    let p = p * h + -0.026788794549800304;
    let p = p * h + 0.4821983018964055;
    let p = p * h + -0.6429310691952074;
    0.28884436634648486 + (8.536743514828927e-18 + h * p)
}

/// `erfc(1.25 + h)` for `|h| <= 1/4` (Taylor series at 1.25, degree 23).
#[device]
fn erfc_t1(h: f64) -> f64 {
    let p = -2.639461394857505e-10;
    let p = p * h + 1.906219570912173e-09;
    let p = p * h + 6.83682623324292e-10;
    let p = p * h + -2.291416948714873e-08;
    let p = p * h + 2.2593730856874577e-08;
    let p = p * h + 2.120606163726382e-07;
    let p = p * h + -5.079348144064654e-07;
    let p = p * h + -1.353228718679766e-06;
    let p = p * h + 6.409580608858307e-06;
    let p = p * h + 3.0148435589627603e-06;
    let p = p * h + -5.5828132785536196e-05;
    let p = p * h + 5.2738032824946004e-05;
    let p = p * h + 0.00032395671499069396;
    let p = p * h + -0.0007935114997568478;
    let p = p * h + -0.0008776361752808411;
    let p = p * h + 0.005697678057620952;
    let p = p * h + -0.0036259826094427483;
    let p = p * h + -0.021301272963460433;
    let p = p * h + 0.04718103640485019;
    let p = p * h + 0.006159404230398197;
    let p = p * h + -0.16753579506683097;
    let p = p * h + 0.29565140305911347;
    let p = p * h + -0.2365211224472908;
    0.07709987174354177 + (-3.3360693261863044e-19 + h * p)
}

/// `e^(x^2) erfc(x)` at `x = 1.75 + h`, `|h| <= 1/4`, as a double-double (Taylor series at 1.75,
/// degree 16, truncation below 2^-62 relative). Unlike `erfc` itself, this function varies
/// slowly (its first-order term is at most 12 percent of the constant), so no term cancels.
#[device]
fn erfcx_t2(h: f64) -> (f64, f64) {
    let p = 4.1343784318510716e-09;
    let p = p * h + -1.6083440493497754e-08;
    let p = p * h + 6.122104831842964e-08;
    let p = p * h + -2.2776263825848503e-07;
    let p = p * h + 8.271319551813563e-07;
    let p = p * h + -2.927938070247526e-06;
    let p = p * h + 1.0086683354021308e-05;
    let p = p * h + -3.3755355255898685e-05;
    let p = p * h + 0.00010950528846792923;
    let p = p * h + -0.00034353335347042023;
    let p = p * h + 0.0010392045224449525;
    let p = p * h + -0.0030209746514251374;
    let p = p * h + 0.008404319207328847;
    let p = p * h + -0.022259995241388327;
    let p = p * h + 0.05576363008708727;
    let q = h * (-0.1309763455144852 + h * p);
    (0.2849722347374364, 8.539813023973122e-18 + q)
}

/// `e^(x^2) erfc(x)` at `x = 2.25 + h`, `|h| <= 1/4`, as a double-double (Taylor series at 2.25,
/// degree 15, truncation below 2^-60 relative).
#[device]
fn erfcx_t3(h: f64) -> (f64, f64) {
    let p = -2.235123061166767e-09;
    let p = p * h + 9.26135607680474e-09;
    let p = p * h + -3.7601474131561415e-08;
    let p = p * h + 1.4943280933364636e-07;
    let p = p * h + -5.806334028558536e-07;
    let p = p * h + 2.2030220124275485e-06;
    let p = p * h + -8.150283243669179e-06;
    let p = p * h + 2.9353247360393394e-05;
    let p = p * h + -0.00010272108115739644;
    let p = p * h + 0.00034853542204571556;
    let p = p * h + -0.0011437284836537476;
    let p = p * h + 0.0036189953543580788;
    let p = p * h + -0.011002060756440047;
    let p = p * h + 0.03199262741070626;
    let q = h * (-0.08848650280874916 + h * p);
    (0.23108725873039188, -5.74762364596782e-18 + q)
}

/// `erfc(x)` for `x >= 1/2`.
#[device]
fn erfc_large(x: f64) -> f64 {
    if x > 27.3 {
        return 0.0;
    }
    if x < 1.5 {
        return if x < 1.0 {
            erfc_t0(x - 0.75)
        } else {
            erfc_t1(x - 1.25)
        };
    }
    if x < 2.5 {
        // erfc falls by a factor of 3 over each piece here, so its own Taylor series cancels:
        // e^(-x^2) (double-double argument) times the slowly varying e^(x^2) erfc(x).
        let (gh, gl) = if x < 2.0 {
            erfcx_t2(x - 1.75)
        } else {
            erfcx_t3(x - 2.25)
        };
        let s = x * x;
        let e = exp_dd(-s, -x.mul_add(x, -s));
        return e.mul_add(gh, e * gl);
    }
    let n = (600.0 / (x * x)) as i32 + 20;
    let mut t = x;
    let mut k = n;
    while k > 0 {
        t = x + (k as f64 * 0.5) / t;
        k -= 1;
    }
    let h = x * x;
    let l = x.mul_add(x, -h);
    let e = exp_dd(-h, -l);
    // 1/sqrt(pi) = 0.5641895835477563 (+ 7.6e-18)
    e * (0.5641895835477563 / t) + e * (7.66772980658294e-18 / t)
}

#[device]
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let ax = x.abs();
    if ax < 1.0e-300 {
        return x * 1.1283791670955126;
    }
    if ax < 0.5 {
        return erf_small(x);
    }
    let r = if ax >= 6.0 { 1.0 } else { 1.0 - erfc_large(ax) };
    if x < 0.0 {
        -r
    } else {
        r
    }
}

#[device]
pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x.abs() < 0.5 {
        return 1.0 - erf_small(x);
    }
    if x > 0.0 {
        erfc_large(x)
    } else if x < -6.0 {
        2.0
    } else {
        2.0 - erfc_large(-x)
    }
}

/// `ln Gamma(2 + t)` for `|t| <= 1/2` (Taylor series, degree 31).
#[device]
fn lgamma2(t: f64) -> f64 {
    let (h, l) = lgamma2_dd(t);
    h + l
}

/// `ln Gamma(2 + t)` for `|t| <= 1/2` as a double-double: the tail of the series in f64, its
/// first two terms (`(1 - gamma) t` with `1 - gamma` as a double-double) with exact products, so
/// that `ln Gamma(y) = ln Gamma(1 + y) - ln y` can cancel near `y = 1.46` (where the result is a
/// third of either term) without losing CUDA's 4-ulp bound.
#[device]
fn lgamma2_dd(t: f64) -> (f64, f64) {
    let p = -1.5021384080754142e-11;
    let p = p * t + 3.1044247747322276e-11;
    let p = p * t + -6.4229645638381e-11;
    let p = p * t + 1.330476437424449e-10;
    let p = p * t + -2.7595228851242334e-10;
    let p = p * t + 5.731367241678862e-10;
    let p = p * t + -1.1921401405860912e-09;
    let p = p * t + 2.4836745438024785e-09;
    let p = p * t + -5.183475041970047e-09;
    let p = p * t + 1.0838659214896955e-08;
    let p = p * t + -2.2711094608943164e-08;
    let p = p * t + 4.7698101693639804e-08;
    let p = p * t + -1.0043224823968099e-07;
    let p = p * t + 2.1207184805554665e-07;
    let p = p * t + -4.492469198764566e-07;
    let p = p * t + 9.55141213040742e-07;
    let p = p * t + -2.039215753801366e-06;
    let p = p * t + 4.374866789907488e-06;
    let p = p * t + -9.439488275268397e-06;
    let p = p * t + 2.050721277567069e-05;
    let p = p * t + -4.492623673813314e-05;
    let p = p * t + 9.945751278180853e-05;
    let p = p * t + -0.00022315475845357939;
    let p = p * t + 0.0005096695247430425;
    let p = p * t + -0.001192753911703261;
    let p = p * t + 0.0028905103307415234;
    let p = p * t + -0.007385551028673986;
    let p = p * t + 0.020580808427784546;
    let p = p * t + -0.0673523010531981;
    let p = p * t + 0.3224670334241132;
    // t (C + t p), C = 1 - gamma = 0.42278433509846713 + 4.942915152430645e-18.
    let q = t * p;
    let ql = t.mul_add(p, -q);
    let (sh, sl) = two_sum(0.42278433509846713, q);
    let sl = sl + (ql + 4.942915152430645e-18);
    let h = t * sh;
    let l = t.mul_add(sh, -h) + t * sl;
    two_sum(h, l)
}

/// `ln Gamma(y)` for `y > 0` as a double-double.
#[device]
fn lgamma_dd(y: f64) -> (f64, f64) {
    // Near the zeros of ln Gamma (1 and 2) and up to 12, stay close to [1.5, 2.5] so nothing
    // cancels: the series there, and the recurrence Gamma(z + 1) = z Gamma(z) downwards.
    if y < 0.5 {
        // ln Gamma(y) = ln Gamma(1 + y) - ln y.
        let (lh, ll) = log_dd(y);
        let (h, e) = two_sum(lgamma2(y) - ln_1p(y), -lh);
        return two_sum(h, e - ll);
    }
    if y < 1.5 {
        // ln Gamma(1 + y) - ln y; 1 + (y - 1) is y exactly.
        let (gh, gl) = lgamma2_dd(y - 1.0);
        let (lh, ll) = log_dd(y);
        let (h, e) = two_sum(gh, -lh);
        return two_sum(h, e + (gl - ll));
    }
    if y >= 1.5 && y < 12.0 {
        let mut z = y;
        let mut ph = 1.0;
        let mut pl = 0.0;
        while z > 2.5 {
            z -= 1.0;
            let h = ph * z;
            let l = ph.mul_add(z, -h) + pl * z;
            let (h, l) = two_sum(h, l);
            ph = h;
            pl = l;
        }
        let (g, gl) = lgamma2_dd(z - 2.0);
        if ph == 1.0 {
            return (g, gl);
        }
        let (qh, ql) = log_dd(ph);
        let (h, e) = two_sum(g, qh);
        return two_sum(h, e + gl + ql + pl / ph);
    }
    // Shift up to z >= 12 with the product of the skipped factors as a double-double.
    let mut ph = 1.0;
    let mut pl = 0.0;
    let mut zh = y;
    let mut zl = 0.0;
    while zh < 12.0 {
        // (ph + pl) *= (zh + zl)
        let h = ph * zh;
        let l = ph.mul_add(zh, -h) + (ph * zl + pl * zh);
        let (h, l) = two_sum(h, l);
        ph = h;
        pl = l;
        let (s, e) = two_sum(zh, 1.0);
        zh = s;
        zl += e;
    }
    let (lh, ll) = log_dd(zh);
    // (z - 1/2) ln z - z + ln(2 pi)/2 + series(1/z), plus the first-order effect of zl.
    let a = zh - 0.5;
    let mh = a * lh;
    let ml = a.mul_add(lh, -mh) + a * ll;
    let (h, e1) = two_sum(mh, -zh);
    let (h, e2) = two_sum(h, 0.9189385332046728);
    let w = 1.0 / (zh * zh);
    let p = -0.029550653594771242;
    let p = p * w + 0.00641025641025641;
    let p = p * w + -0.0019175269175269176;
    let p = p * w + 0.0008417508417508417;
    let p = p * w + -0.0005952380952380953;
    let p = p * w + 0.0007936507936507937;
    let p = p * w + -0.002777777777777778;
    let p = p * w + 0.08333333333333333;
    let series = p / zh;
    let corr = zl * (lh - 0.5 / zh);
    let mut l = ml + e1 + e2 - 3.8782941580672414e-17 + series + corr - zl;
    let mut h2 = h;
    if ph != 1.0 || pl != 0.0 {
        let (qh, ql) = log_dd(ph);
        let (s, e) = two_sum(h2, -qh);
        h2 = s;
        l = l + e - ql - pl / ph;
    }
    two_sum(h2, l)
}

#[device]
pub fn lgamma(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    let ax = x.abs();
    if ax == f64::INFINITY {
        return f64::INFINITY;
    }
    if x <= 0.0 && x == x.trunc() {
        return f64::INFINITY;
    }
    if x > 0.0 {
        if x > 1.0e300 {
            // x (ln x - 1): the remaining terms are below an ulp, and (x - 1/2) ln x alone
            // would overflow before the result does.
            if x >= 2.5599833278516385e305 {
                return f64::INFINITY;
            }
            let (lh, ll) = log_dd(x);
            return x * ((lh - 1.0) + ll);
        }
        let (h, l) = lgamma_dd(x);
        return h + l;
    }
    if x > -0.5 {
        // ln|Gamma(x)| = ln Gamma(1 + x) - ln|x|, with ln Gamma(1 + x) = lgamma2(x) - ln(1 + x).
        return (lgamma2(x) - ln_1p(x)) - ln(-x);
    }
    // Reflection: ln|Gamma(x)| = ln pi - ln|x sin(pi x)| - ln Gamma(-x).
    let s = (x * sinpi(x)).abs();
    let (sh, sl) = log_dd(s);
    let (gh, gl) = lgamma_dd(ax);
    let (h, e) = two_sum(1.1447298858494002, -sh);
    let (h, e2) = two_sum(h, -gh);
    h + (e + e2 + 1.0265951162707826e-17 - sl - gl)
}

#[device]
pub fn tgamma(x: f64) -> f64 {
    if x.is_nan() {
        return x;
    }
    if x == f64::INFINITY {
        return x;
    }
    if x == 0.0 {
        return 1.0 / x;
    }
    if x < 0.0 && x == x.trunc() {
        return f64::NAN;
    }
    if x > 171.7 {
        return f64::INFINITY;
    }
    if x > 0.0 {
        let (h, l) = lgamma_dd(x);
        return exp_dd(h, l);
    }
    if x < -184.0 {
        // |Gamma(x)| < 2^-1075: a zero with the sign of Gamma on (floor(x), floor(x) + 1).
        return if (x.floor() as i64) % 2 != 0 {
            -0.0
        } else {
            0.0
        };
    }
    if x > -0.5 {
        // Gamma(x) = Gamma(1 + x) / x.
        let g = exp(lgamma2(x) - ln_1p(x));
        return g / x;
    }
    if x > -1.0 {
        // Gamma(x) = Gamma(1 + s) / (x s) with s = 1 + x in (0, 1/2], exact here.
        let s = 1.0 + x;
        return exp(lgamma2(s) - ln_1p(s)) / (x * s);
    }
    // Gamma(x) = pi / (x sin(pi x) Gamma(-x)), in logarithms for range.
    let sp = x * sinpi(x);
    let (sh, sl) = log_dd(sp.abs());
    let (gh, gl) = lgamma_dd(-x);
    let (h, e) = two_sum(1.1447298858494002, -sh);
    let (h, e2) = two_sum(h, -gh);
    let r = exp_dd(h, e + e2 + 1.0265951162707826e-17 - sl - gl);
    if sp < 0.0 {
        r
    } else {
        -r
    }
}
