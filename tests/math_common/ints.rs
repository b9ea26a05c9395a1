//! Rounding to integers (`rint`, `nearbyint`, `lrint`, `llrint`, `lround`, `llround`) and
//! `scalbln` with its `i64` exponent, f32 and f64: exact functions (CUDA: 0 ulp), compared with
//! the host's exact results (Rust's `round_ties_even`/`round` and saturating `as i64`, glibc's
//! `ldexp`). The `i64` results are written as floats (exact for every result an f32 or f64
//! argument can give: those above 2^24 or 2^53 are the argument itself, and the saturated
//! `i64::MAX` rounds to `2^63` on both sides). Halfway cases and values beyond the `i64` range
//! come first.

use super::*;

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
    rint_f32, f32, |v| rint(v);
    nearbyint_f32, f32, |v| nearbyint(v);
    lrint_f32, f32, |v| lrint(v) as f32;
    llrint_f32, f32, |v| llrint(v) as f32;
    lround_f32, f32, |v| lround(v) as f32;
    llround_f32, f32, |v| llround(v) as f32;
    rint_f64, f64, |v| rint(v);
    nearbyint_f64, f64, |v| nearbyint(v);
    lrint_f64, f64, |v| lrint(v) as f64;
    llrint_f64, f64, |v| llrint(v) as f64;
    lround_f64, f64, |v| lround(v) as f64;
    llround_f64, f64, |v| llround(v) as f64;
}

#[kernel]
pub fn scalbln_f32(x: &[f32], z: &[f32], y: &mut [f32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        y[i] = scalbln(x[i], z[i] as i64);
    }
}

#[kernel]
pub fn scalbln_f64(x: &[f64], z: &[f64], y: &mut [f64]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < y.len() {
        y[i] = scalbln(x[i], z[i] as i64);
    }
}

/// The f32 kernels, for the PTX scan of `math_ptx.rs`.
pub fn f32_kernels() -> Vec<&'static ferrocuda::kernel_ir::ast::FnDef> {
    vec![
        rint_f32::ast(),
        nearbyint_f32::ast(),
        lrint_f32::ast(),
        llrint_f32::ast(),
        lround_f32::ast(),
        llround_f32::ast(),
        scalbln_f32::ast(),
    ]
}

fn rint_ref(x: f64) -> f64 {
    x.round_ties_even()
}
/// NaN gives `i64::MIN`, as the GPU's `cvt.rni.s64` (and so CUDA's `llrint`) does.
fn lrint_ref(x: f64) -> f64 {
    if x.is_nan() {
        i64::MIN as f64
    } else {
        x.round_ties_even() as i64 as f64
    }
}
fn lround_ref(x: f64) -> f64 {
    x.round() as i64 as f64
}
/// `n` as the kernel passes it (`as i64`, saturating), clamped into glibc's `int` (exact: any
/// exponent beyond 2^31 gives the same 0 or infinity).
fn scalbln_ref(x: f64, n: f64) -> f64 {
    let k = (n as i64).clamp(i32::MIN as i64, i32::MAX as i64) as i32;
    unsafe { libm::ldexp(x, k) }
}

const HALVES: [f64; 16] = [
    0.5,
    -0.5,
    1.5,
    -1.5,
    2.5,
    -2.5,
    8388607.5,
    -8388609.0,
    4503599627370495.5,
    -4503599627370497.0,
    9.2e18,
    -9.2e18,
    9.3e18,
    -9.3e18,
    1e30,
    -1e30,
];

const ANY: Domain = Domain {
    ranges: &[(-10.0, 10.0), (-1e4, 1e4), (-1e19, 1e19), (-3.0, 3.0)],
};

type UnCase = (&'static str, R1);

fn un_cases() -> [UnCase; 6] {
    [
        ("rint", rint_ref),
        ("nearbyint", rint_ref),
        ("lrint", lrint_ref),
        ("llrint", lrint_ref),
        ("lround", lround_ref),
        ("llround", lround_ref),
    ]
}

fn launch32(name: &str) -> &'static L1<f32> {
    macro_rules! l {
        ($k:ident) => {
            &|s: &Stream, x: &DeviceBuffer<f32>, y: &mut DeviceBuffer<f32>| {
                $k::launch(s, cfg(y.len()), x, y)
            }
        };
    }
    match name {
        "rint" => l!(rint_f32),
        "nearbyint" => l!(nearbyint_f32),
        "lrint" => l!(lrint_f32),
        "llrint" => l!(llrint_f32),
        "lround" => l!(lround_f32),
        _ => l!(llround_f32),
    }
}

fn launch64(name: &str) -> &'static L1<f64> {
    macro_rules! l {
        ($k:ident) => {
            &|s: &Stream, x: &DeviceBuffer<f64>, y: &mut DeviceBuffer<f64>| {
                $k::launch(s, cfg(y.len()), x, y)
            }
        };
    }
    match name {
        "rint" => l!(rint_f64),
        "nearbyint" => l!(nearbyint_f64),
        "lrint" => l!(lrint_f64),
        "llrint" => l!(llrint_f64),
        "lround" => l!(lround_f64),
        _ => l!(llround_f64),
    }
}

const EXPONENTS: Domain = Domain {
    ranges: &[
        (-160.0, 160.0),
        (-1100.0, 1100.0),
        (-1e12, 1e12),
        (-30.0, 30.0),
    ],
};

fn scalbln_inputs32(n: usize) -> (Vec<f32>, Vec<f32>) {
    let a = inputs32(ANY, n, seed("scalbln"));
    let b = inputs32(EXPONENTS, n, seed("scalbln") ^ 1);
    pair_inputs(&a, &b, &specials32())
}

fn scalbln_inputs64(n: usize) -> (Vec<f64>, Vec<f64>) {
    let a = inputs64(ANY, n, seed("scalbln"));
    let b = inputs64(EXPONENTS, n, seed("scalbln") ^ 1);
    pair_inputs(&a, &b, &specials64())
}

pub fn measure_f32(dev: &Device, n: usize) -> Vec<Row> {
    let mut rows = Vec::new();
    for (name, f) in un_cases() {
        if !selected(name) {
            continue;
        }
        let mut xs: Vec<f32> = HALVES.iter().map(|&h| h as f32).collect();
        xs.extend(inputs32(ANY, n - xs.len(), seed(name)));
        let ys = run_un(dev, &xs, launch32(name));
        rows.push(worst32(name, Some(0.0), &xs, None, &ys, &|x, _| f(x)));
    }
    if selected("scalbln") {
        let (xs, zs) = scalbln_inputs32(n);
        let launch: &L2<f32> = &|s, x, z, y| scalbln_f32::launch(s, cfg(y.len()), x, z, y);
        let ys = run_bin(dev, &xs, &zs, launch);
        rows.push(worst32(
            "scalbln",
            Some(0.0),
            &xs,
            Some(&zs),
            &ys,
            &|x, z| scalbln_ref(x, z),
        ));
    }
    rows
}

/// Every f64 function's inputs and results on `dev`, as `super::outputs_f64`.
pub fn outputs_f64(dev: &Device, n: usize) -> Outputs64 {
    let mut out = Vec::new();
    for (name, _) in un_cases() {
        if !selected(name) {
            continue;
        }
        let mut xs = HALVES.to_vec();
        xs.extend(inputs64(ANY, n - xs.len(), seed(name)));
        let ys = run_un(dev, &xs, launch64(name));
        out.push((name, xs, Vec::new(), ys));
    }
    if selected("scalbln") {
        let (xs, zs) = scalbln_inputs64(n);
        let launch: &L2<f64> = &|s, x, z, y| scalbln_f64::launch(s, cfg(y.len()), x, z, y);
        let ys = run_bin(dev, &xs, &zs, launch);
        out.push(("scalbln", xs, zs, ys));
    }
    out
}

pub fn measure_f64(dev: &Device, n: usize) -> Vec<Row> {
    let cases = un_cases();
    outputs_f64(dev, n)
        .iter()
        .map(|(name, xs, zs, ys)| {
            if *name == "scalbln" {
                return worst64(name, Some(0.0), xs, Some(zs), ys, &|x, z| scalbln_ref(x, z));
            }
            let f = cases.iter().find(|c| c.0 == *name).expect("a case").1;
            worst64(name, Some(0.0), xs, None, ys, &move |x, _| f(x))
        })
        .collect()
}
