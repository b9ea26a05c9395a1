//! `erfcx` and `normcdf` (f32 and f64) and the f64 inverse error functions (`erfinv`,
//! `erfcinv`, `normcdfinv`), each row measured as the unary table's (worst distance in ulps from
//! the correctly rounded result, CUDA's bound asserted exactly). References from MPFR at 256
//! bits (`mpfr::Big`): `e^(x^2) erfc(x)` (its asymptotic series from `x = 10`, where MPFR's
//! `erfc` is slow and `e^(x^2)` leaves MPFR's exponent range for huge `x`),
//! `erfc(-x / sqrt 2) / 2`, and for the inverses
//! two Newton steps at 256 bits on `erf`/`erfc` from the f64 estimate of `inverse.rs` (about
//! 1e-16 relative: the steps take it below 2^-200).

use super::*;
use mpfr::Big;

macro_rules! un {
    ($($name:ident, $t:ty, |$x:ident| $e:expr;)*) => {$(
        #[kernel]
        pub fn $name(x: &[$t], y: &mut [$t]) {
            let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
            if i < y.len() {
                let $x = x[i];
                y[i] = $e;
            }
        }
    )*};
}

un! {
    erfcx_f32, f32, |v| erfcx(v);
    normcdf_f32, f32, |v| normcdf(v);
    erfcx_f64, f64, |v| erfcx(v);
    normcdf_f64, f64, |v| normcdf(v);
    erfinv_f64, f64, |v| erfinv(v);
    erfcinv_f64, f64, |v| erfcinv(v);
    normcdfinv_f64, f64, |v| normcdfinv(v);
}

/// The f32 kernels, for the PTX scan of `math_ptx.rs`.
pub fn f32_kernels() -> Vec<&'static ferrocuda::kernel_ir::ast::FnDef> {
    vec![erfcx_f32::ast(), normcdf_f32::ast()]
}

/// `erfcx(b)` at 256 bits: MPFR's `e^(b^2) erfc(b)` below 4, Laplace's continued fraction up
/// to 10, and from 10 the asymptotic series
/// `1/(b sqrt(pi)) sum (-1)^n (2n-1)!! / (2 b^2)^n`, summed until a term is below 2^-140 of
/// the sum (at 10 its smallest term is about e^-100, far below): MPFR's `erfc` there works at
/// several times the precision and takes milliseconds.
fn big_erfcx(b: &Big) -> Big {
    let x = b.approx();
    if x < 4.0 {
        return b.mul(b).un("mpfr_exp").mul(&b.un("mpfr_erfc"));
    }
    let pi = Big::new(-1.0).un("mpfr_acos");
    if x < 10.0 {
        // Laplace's continued fraction `b + (1/2)/(b + 1/(b + (3/2)/...))` at depth 100:
        // truncation below 2^-139 from 4 on (checked against mpmath).
        let mut t = Big::new(0.0).add(b);
        for k in (1..=100).rev() {
            t = b.add(&Big::new(k as f64 * 0.5).div(&t));
        }
        return Big::new(1.0).div(&t.mul(&pi.un("mpfr_sqrt")));
    }
    let u = Big::new(0.5).div(&b.mul(b));
    let mut term = Big::new(1.0);
    let mut sum = Big::new(1.0);
    let mut n = 1.0;
    loop {
        term = term.mul(&u).mul(&Big::new(-(2.0 * n - 1.0)));
        sum = sum.add(&term);
        if term.approx().abs() < 1e-42 || n > 400.0 {
            break;
        }
        n += 1.0;
    }
    sum.div(&b.mul(&pi.un("mpfr_sqrt")))
}

pub fn erfcx_ref(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < -27.0 {
        return f64::INFINITY;
    }
    if x == f64::INFINITY {
        return 0.0;
    }
    big_erfcx(&Big::new(x)).to_f64()
}

pub fn normcdf_ref(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < -40.0 {
        return 0.0;
    }
    if x > 40.0 {
        return 1.0;
    }
    let u = Big::new(-x).div(&Big::new(2.0).un("mpfr_sqrt"));
    if x < -5.7 {
        // erfc(u) = e^(-u^2) erfcx(u), with erfcx's series (see `big_erfcx`).
        let e = Big::new(0.0).sub(&u.mul(&u)).un("mpfr_exp");
        return e.mul(&big_erfcx(&u)).mul(&Big::new(0.5)).to_f64();
    }
    u.un("mpfr_erfc").mul(&Big::new(0.5)).to_f64()
}

/// `erfcinv(q)` for `q` in `(0, 1]` at 256 bits.
fn big_erfcinv(q: f64) -> Big {
    let y0 = inverse::erfcinv_ref(q);
    // The f64 estimate fails only at the smallest subnormals (its `erfc` underflows there):
    // start from the asymptotic `y^2 + ln(sqrt(pi) y) = -ln q` instead, with more steps.
    let (y0, steps) = if y0.is_finite() {
        (y0, 2)
    } else {
        let l = -q.ln();
        (
            (l - (l.sqrt() * std::f64::consts::PI.sqrt()).ln()).sqrt(),
            10,
        )
    };
    let mut y = Big::new(y0);
    let qb = Big::new(q);
    let half_sqrt_pi = Big::new(-1.0)
        .un("mpfr_acos")
        .un("mpfr_sqrt")
        .mul(&Big::new(0.5));
    for _ in 0..steps {
        // y += (erfc(y) - q) sqrt(pi)/2 e^(y^2) = (erfcx(y) - q e^(y^2)) sqrt(pi)/2
        let e = y.mul(&y).un("mpfr_exp");
        let d = big_erfcx(&y).sub(&qb.mul(&e));
        y = y.add(&d.mul(&half_sqrt_pi));
    }
    y
}

/// `erfinv(x)` for `|x| <= 1/2` at 256 bits: Newton on `erf`.
fn big_erfinv_small(x: f64) -> Big {
    let mut y0 = x * 0.886;
    for _ in 0..60 {
        let d =
            (unsafe { libm::erf(y0) } - x) / (std::f64::consts::FRAC_2_SQRT_PI * (-y0 * y0).exp());
        y0 -= d;
        if d.abs() <= 1e-17 * y0.abs() {
            break;
        }
    }
    let mut y = Big::new(y0);
    let xb = Big::new(x);
    let half_sqrt_pi = Big::new(-1.0)
        .un("mpfr_acos")
        .un("mpfr_sqrt")
        .mul(&Big::new(0.5));
    for _ in 0..2 {
        let d = y.un("mpfr_erf").sub(&xb);
        let e = y.mul(&y).un("mpfr_exp");
        y = y.sub(&d.mul(&half_sqrt_pi).mul(&e));
    }
    y
}

fn erfinv_ref(x: f64) -> f64 {
    if x.is_nan() || x.abs() > 1.0 {
        return f64::NAN;
    }
    if x.abs() == 1.0 {
        return f64::INFINITY.copysign(x);
    }
    if x == 0.0 {
        return x;
    }
    if x.abs() <= 0.5 {
        return big_erfinv_small(x).to_f64();
    }
    big_erfcinv(1.0 - x.abs()).to_f64().copysign(x)
}

/// `erfcinv(q)` at 256 bits with its sign, `None` for the special values.
fn big_erfcinv_signed(q: f64) -> Result<Big, f64> {
    if q.is_nan() || !(0.0..=2.0).contains(&q) {
        return Err(f64::NAN);
    }
    if q == 0.0 {
        return Err(f64::INFINITY);
    }
    if q == 2.0 {
        return Err(f64::NEG_INFINITY);
    }
    if q == 1.0 {
        return Err(0.0);
    }
    // Both differences are exact.
    Ok(if q > 1.0 {
        let d = 2.0 - q;
        let v = if d >= 0.5 {
            big_erfinv_small(1.0 - d)
        } else {
            big_erfcinv(d)
        };
        Big::new(0.0).sub(&v)
    } else if q >= 0.5 {
        big_erfinv_small(1.0 - q)
    } else {
        big_erfcinv(q)
    })
}

fn erfcinv_ref(q: f64) -> f64 {
    match big_erfcinv_signed(q) {
        Ok(b) => b.to_f64(),
        Err(v) => v,
    }
}

/// `normcdfinv(1/2)` is `+0`.
fn normcdfinv_ref(p: f64) -> f64 {
    match big_erfcinv_signed(2.0 * p) {
        Ok(b) => b
            .mul(&Big::new(2.0).un("mpfr_sqrt"))
            .mul(&Big::new(-1.0))
            .to_f64(),
        Err(v) => -v + 0.0,
    }
}

type Case<T> = (&'static str, f64, Domain, &'static L1<T>, R1);

fn cases32() -> Vec<Case<f32>> {
    vec![
        (
            "erfcx",
            4.0,
            Domain {
                ranges: &[(-1.0, 3.0), (-9.5, 10.0), (2.0, 100.0), (-0.6, 0.6)],
            },
            &|s: &Stream, x: &DeviceBuffer<f32>, y: &mut DeviceBuffer<f32>| {
                erfcx_f32::launch(s, cfg(y.len()), x, y)
            },
            erfcx_ref,
        ),
        (
            "normcdf",
            5.0,
            Domain {
                ranges: &[(-15.0, 6.0), (-3.0, 3.0), (-14.5, -8.0)],
            },
            &|s: &Stream, x: &DeviceBuffer<f32>, y: &mut DeviceBuffer<f32>| {
                normcdf_f32::launch(s, cfg(y.len()), x, y)
            },
            normcdf_ref,
        ),
    ]
}

macro_rules! launch64 {
    ($k:ident) => {
        &|s: &Stream, x: &DeviceBuffer<f64>, y: &mut DeviceBuffer<f64>| {
            $k::launch(s, cfg(y.len()), x, y)
        }
    };
}

fn cases64() -> Vec<Case<f64>> {
    vec![
        (
            "erfcx",
            3.0,
            Domain {
                ranges: &[(-1.0, 3.0), (-26.7, 30.0), (2.0, 1e3), (-0.6, 0.6)],
            },
            launch64!(erfcx_f64),
            erfcx_ref,
        ),
        (
            "normcdf",
            5.0,
            Domain {
                ranges: &[(-39.0, 9.0), (-3.0, 3.0), (-38.5, -20.0)],
            },
            launch64!(normcdf_f64),
            normcdf_ref,
        ),
        (
            "erfinv",
            5.0,
            Domain {
                ranges: &[
                    (-1.0, 1.0),
                    (0.99, 1.0),
                    (-1.0, -0.999),
                    (-0.1, 0.1),
                    (0.4, 0.6),
                ],
            },
            launch64!(erfinv_f64),
            erfinv_ref,
        ),
        (
            "erfcinv",
            6.0,
            Domain {
                ranges: &[
                    (0.0, 2.0),
                    (0.0, 1e-3),
                    (1.999, 2.0),
                    (0.0, 1e-30),
                    (0.4, 0.6),
                ],
            },
            launch64!(erfcinv_f64),
            erfcinv_ref,
        ),
        (
            "normcdfinv",
            7.0,
            Domain {
                ranges: &[(0.0, 1.0), (0.0, 1e-3), (0.999, 1.0), (0.0, 1e-30)],
            },
            launch64!(normcdfinv_f64),
            normcdfinv_ref,
        ),
    ]
}

pub fn measure_f32(dev: &Device, n: usize) -> Vec<Row> {
    let mut rows = Vec::new();
    for (name, bound, domain, launch, f) in cases32() {
        if !selected(name) {
            continue;
        }
        let xs = inputs32(domain, n, seed(name));
        let ys = run_un(dev, &xs, launch);
        rows.push(worst32(name, Some(bound), &xs, None, &ys, &|x, _| f(x)));
    }
    rows
}

/// Every f64 function's inputs and results on `dev`, as `super::outputs_f64`.
pub fn outputs_f64(dev: &Device, n: usize) -> Outputs64 {
    let mut out = Vec::new();
    for (name, _, domain, launch, _) in cases64() {
        if !selected(name) {
            continue;
        }
        let xs = inputs64(domain, n, seed(name) ^ 64);
        let ys = run_un(dev, &xs, launch);
        out.push((name, xs, Vec::new(), ys));
    }
    out
}

pub fn measure_f64(dev: &Device, n: usize) -> Vec<Row> {
    let cases = cases64();
    outputs_f64(dev, n)
        .iter()
        .map(|(name, xs, _, ys)| {
            let (_, bound, _, _, f) = cases.iter().find(|c| c.0 == *name).expect("a case");
            let f = *f;
            worst64(name, Some(*bound), xs, None, ys, &move |x, _| f(x))
        })
        .collect()
}
