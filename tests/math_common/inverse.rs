//! The inverse error functions (`erfinv`, `erfcinv`, `normcdfinv`), f32: each row measured as
//! the unary table's (worst distance in ulps from the correctly rounded result, CUDA's bound
//! asserted exactly). glibc has no inverse error function, so the reference is Newton's method
//! on glibc's f64 `erf`/`erfc` (about 1e-16 relative, far below an f32 ulp).

use super::*;

macro_rules! un32 {
    ($($name:ident, |$x:ident| $e:expr;)*) => {$(
        #[kernel]
        pub fn $name(x: &[f32], y: &mut [f32]) {
            let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
            if i < y.len() {
                let $x = x[i];
                y[i] = $e;
            }
        }
    )*};
}

un32! {
    erfinv_f32, |v| erfinv(v);
    erfcinv_f32, |v| erfcinv(v);
    normcdfinv_f32, |v| normcdfinv(v);
}

/// The f32 kernels, for the PTX scan of `math_ptx.rs`.
pub fn f32_kernels() -> Vec<&'static ferrocuda::kernel_ir::ast::FnDef> {
    vec![erfinv_f32::ast(), erfcinv_f32::ast(), normcdfinv_f32::ast()]
}

const TWO_RSQRT_PI: f64 = std::f64::consts::FRAC_2_SQRT_PI;

/// `erfinv(x)` for `|x| <= 1/2`: Newton's method on `erf`.
fn erfinv_newton(x: f64) -> f64 {
    let mut y = x * 0.886;
    for _ in 0..60 {
        let d = (unsafe { libm::erf(y) } - x) / (TWO_RSQRT_PI * (-y * y).exp());
        y -= d;
        if d.abs() <= 1e-17 * y.abs() {
            break;
        }
    }
    y
}

/// `erfcinv(q)` for `q` in `[0, 2]`: Newton's method on `ln erfc(y) = ln q` (well conditioned
/// down to the smallest subnormals), `erfinv(1 - q)` near 1, `-erfcinv(2 - q)` above 1 (both
/// differences exact).
pub fn erfcinv_ref(q: f64) -> f64 {
    if q.is_nan() || !(0.0..=2.0).contains(&q) {
        return f64::NAN;
    }
    if q > 1.0 {
        return -erfcinv_ref(2.0 - q);
    }
    if q == 0.0 {
        return f64::INFINITY;
    }
    if q > 0.5 {
        return erfinv_newton(1.0 - q);
    }
    let lq = q.ln();
    let mut y = (-lq).sqrt().max(0.5);
    for _ in 0..100 {
        let e = unsafe { libm::erfc(y) };
        let g = -TWO_RSQRT_PI * (-y * y).exp() / e;
        let d = (e.ln() - lq) / g;
        y -= d;
        if d.abs() <= 1e-17 * y.abs() {
            break;
        }
    }
    y
}

fn erfinv_ref(x: f64) -> f64 {
    if x.is_nan() || x.abs() > 1.0 {
        f64::NAN
    } else if x.abs() <= 0.5 {
        erfinv_newton(x)
    } else {
        erfcinv_ref(1.0 - x.abs()).copysign(x)
    }
}

/// `normcdfinv(1/2)` is `+0`.
fn normcdfinv_ref(p: f64) -> f64 {
    -std::f64::consts::SQRT_2 * erfcinv_ref(2.0 * p) + 0.0
}

pub fn measure_f32(dev: &Device, n: usize) -> Vec<Row> {
    let cases: [(&'static str, f64, Domain, &'static L1<f32>, R1); 3] = [
        (
            "erfinv",
            2.0,
            Domain {
                ranges: &[(-1.0, 1.0), (0.99, 1.0), (-1.0, -0.999), (-0.1, 0.1)],
            },
            &|s: &Stream, x: &DeviceBuffer<f32>, y: &mut DeviceBuffer<f32>| {
                erfinv_f32::launch(s, cfg(y.len()), x, y)
            },
            erfinv_ref,
        ),
        (
            "erfcinv",
            4.0,
            Domain {
                ranges: &[(0.0, 2.0), (0.0, 1e-3), (1.999, 2.0), (0.0, 1e-30)],
            },
            &|s: &Stream, x: &DeviceBuffer<f32>, y: &mut DeviceBuffer<f32>| {
                erfcinv_f32::launch(s, cfg(y.len()), x, y)
            },
            erfcinv_ref,
        ),
        (
            "normcdfinv",
            5.0,
            Domain {
                ranges: &[(0.0, 1.0), (0.0, 1e-3), (0.999, 1.0), (0.0, 1e-30)],
            },
            &|s: &Stream, x: &DeviceBuffer<f32>, y: &mut DeviceBuffer<f32>| {
                normcdfinv_f32::launch(s, cfg(y.len()), x, y)
            },
            normcdfinv_ref,
        ),
    ];
    let mut rows = Vec::new();
    for (name, bound, domain, launch, f) in cases {
        if !selected(name) {
            continue;
        }
        let xs = inputs32(domain, n, seed(name));
        let ys = run_un(dev, &xs, launch);
        rows.push(worst32(name, Some(bound), &xs, None, &ys, &|x, _| f(x)));
    }
    rows
}
