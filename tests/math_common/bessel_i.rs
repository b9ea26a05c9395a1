//! `cyl_bessel_i0` and `cyl_bessel_i1`, f32 and f64, measured as the unary table's rows (CUDA:
//! 6 ulp for both types). References: f64 rows from MPFR values at 256 bits (`mpfr::Big`; MPFR
//! has no modified Bessel function): the power series (positive terms) below 80, the asymptotic
//! series `e^a / sqrt(2 pi a) sum_k (-1)^k prod_j (4 nu^2 - (2j - 1)^2) / (k! (8a)^k)` beyond,
//! where its smallest term is below e^-160. f32 rows from the same two series in f64 (about
//! 1e-14 relative, far below an f32 ulp), the asymptotic one from 30.

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
    cyl_bessel_i0_f32, f32, |v| cyl_bessel_i0(v);
    cyl_bessel_i1_f32, f32, |v| cyl_bessel_i1(v);
    cyl_bessel_i0_f64, f64, |v| cyl_bessel_i0(v);
    cyl_bessel_i1_f64, f64, |v| cyl_bessel_i1(v);
}

/// The f32 kernels, for the PTX scan of `math_ptx.rs`.
pub fn f32_kernels() -> Vec<&'static ferrocuda::kernel_ir::ast::FnDef> {
    vec![cyl_bessel_i0_f32::ast(), cyl_bessel_i1_f32::ast()]
}

/// `I_nu(a)` for `a >= 0` at 256 bits.
fn big_i(nu: u32, a: f64) -> Big {
    let b = Big::new(a);
    if a < 80.0 {
        let z = b.mul(&b).mul(&Big::new(0.25));
        let mut term = if nu == 0 {
            Big::new(1.0)
        } else {
            b.mul(&Big::new(0.5))
        };
        let mut sum = Big::new(0.0).add(&term);
        let mut k = 1.0;
        loop {
            term = term.mul(&z).div(&Big::new(k * (k + nu as f64)));
            sum = sum.add(&term);
            if term.approx() < sum.approx() * 1e-70 || term.approx() == 0.0 {
                break;
            }
            k += 1.0;
        }
        return sum;
    }
    let mu = 4.0 * (nu * nu) as f64;
    let mut term = Big::new(1.0);
    let mut sum = Big::new(1.0);
    let e8a = Big::new(8.0).mul(&b);
    let mut k = 1.0;
    loop {
        let f = -(mu - (2.0 * k - 1.0) * (2.0 * k - 1.0));
        term = term.mul(&Big::new(f)).div(&e8a.mul(&Big::new(k)));
        sum = sum.add(&term);
        if term.approx().abs() < 1e-72 || k > 2.0 * a {
            break;
        }
        k += 1.0;
    }
    let two_pi = Big::new(-1.0).un("mpfr_acos").mul(&Big::new(2.0));
    b.un("mpfr_exp")
        .mul(&sum)
        .div(&two_pi.mul(&b).un("mpfr_sqrt"))
}

fn special(nu: u32, x: f64) -> Option<f64> {
    if x.is_nan() {
        return Some(f64::NAN);
    }
    if x.is_infinite() {
        return Some(if nu == 0 { f64::INFINITY } else { x });
    }
    if x == 0.0 {
        return Some(if nu == 0 { 1.0 } else { x });
    }
    None
}

fn i_ref64(nu: u32, x: f64) -> f64 {
    if let Some(v) = special(nu, x) {
        return v;
    }
    if x.abs() > 720.0 {
        return if nu == 0 {
            f64::INFINITY
        } else {
            f64::INFINITY.copysign(x)
        };
    }
    let v = big_i(nu, x.abs()).to_f64();
    if nu == 1 {
        v.copysign(x)
    } else {
        v
    }
}

/// The f32 reference in f64 arithmetic.
fn i_ref32(nu: u32, x: f64) -> f64 {
    if let Some(v) = special(nu, x) {
        return v;
    }
    let a = x.abs();
    let v = if a > 100.0 {
        f64::INFINITY
    } else if a < 30.0 {
        let z = a * a * 0.25;
        let mut term = if nu == 0 { 1.0 } else { 0.5 * a };
        let mut sum = term;
        let mut k = 1.0;
        while term > sum * 1e-18 {
            term *= z / (k * (k + nu as f64));
            sum += term;
            k += 1.0;
        }
        sum
    } else {
        let mu = 4.0 * (nu * nu) as f64;
        let (mut term, mut sum) = (1.0f64, 1.0f64);
        for k in 1..40 {
            let k = k as f64;
            term *= -(mu - (2.0 * k - 1.0) * (2.0 * k - 1.0)) / (8.0 * a * k);
            sum += term;
        }
        a.exp() * sum / (2.0 * std::f64::consts::PI * a).sqrt()
    };
    if nu == 1 {
        v.copysign(x)
    } else {
        v
    }
}

type Case<T> = (&'static str, Domain, &'static L1<T>, R1);

fn i0_32(x: f64) -> f64 {
    i_ref32(0, x)
}
fn i1_32(x: f64) -> f64 {
    i_ref32(1, x)
}
fn i0_64(x: f64) -> f64 {
    i_ref64(0, x)
}
fn i1_64(x: f64) -> f64 {
    i_ref64(1, x)
}

const D32: Domain = Domain {
    ranges: &[
        (-8.0, 8.0),
        (-30.0, 30.0),
        (7.0, 9.0),
        (-95.0, 95.0),
        (-1.0, 1.0),
    ],
};
const D64: Domain = Domain {
    ranges: &[
        (-16.0, 16.0),
        (-80.0, 80.0),
        (15.0, 17.0),
        (-720.0, 720.0),
        (-1.0, 1.0),
    ],
};

fn cases32() -> [Case<f32>; 2] {
    [
        (
            "cyl_bessel_i0",
            D32,
            &|s: &Stream, x: &DeviceBuffer<f32>, y: &mut DeviceBuffer<f32>| {
                cyl_bessel_i0_f32::launch(s, cfg(y.len()), x, y)
            },
            i0_32,
        ),
        (
            "cyl_bessel_i1",
            D32,
            &|s: &Stream, x: &DeviceBuffer<f32>, y: &mut DeviceBuffer<f32>| {
                cyl_bessel_i1_f32::launch(s, cfg(y.len()), x, y)
            },
            i1_32,
        ),
    ]
}

fn cases64() -> [Case<f64>; 2] {
    [
        (
            "cyl_bessel_i0",
            D64,
            &|s: &Stream, x: &DeviceBuffer<f64>, y: &mut DeviceBuffer<f64>| {
                cyl_bessel_i0_f64::launch(s, cfg(y.len()), x, y)
            },
            i0_64,
        ),
        (
            "cyl_bessel_i1",
            D64,
            &|s: &Stream, x: &DeviceBuffer<f64>, y: &mut DeviceBuffer<f64>| {
                cyl_bessel_i1_f64::launch(s, cfg(y.len()), x, y)
            },
            i1_64,
        ),
    ]
}

pub fn measure_f32(dev: &Device, n: usize) -> Vec<Row> {
    let mut rows = Vec::new();
    for (name, domain, launch, f) in cases32() {
        if !selected(name) {
            continue;
        }
        let xs = inputs32(domain, n, seed(name));
        let ys = run_un(dev, &xs, launch);
        rows.push(worst32(name, Some(6.0), &xs, None, &ys, &|x, _| f(x)));
    }
    rows
}

/// Every f64 function's inputs and results on `dev`, as `super::outputs_f64`.
pub fn outputs_f64(dev: &Device, n: usize) -> Outputs64 {
    let mut out = Vec::new();
    for (name, domain, launch, _) in cases64() {
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
            let f = cases.iter().find(|c| c.0 == *name).expect("a case").3;
            worst64(name, Some(6.0), xs, None, ys, &move |x, _| f(x))
        })
        .collect()
}
