//! The functions whose shape the unary and binary tables of `math_common` cannot hold: three
//! and four arguments (`norm3d`, `rnorm4d`). Each row is measured as the others are (worst
//! distance in ulps from the correctly rounded result, CUDA's bound asserted exactly).

use super::*;

macro_rules! tern {
    ($($name:ident, $t:ty, |$a:ident, $b:ident, $c:ident| $e:expr;)*) => {$(
        #[kernel]
        pub fn $name(x: &[$t], y: &[$t], z: &[$t], out: &mut [$t]) {
            let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
            if i < out.len() {
                let $a = x[i];
                let $b = y[i];
                let $c = z[i];
                out[i] = $e;
            }
        }
    )*};
}
macro_rules! quat {
    ($($name:ident, $t:ty, |$a:ident, $b:ident, $c:ident, $d:ident| $e:expr;)*) => {$(
        #[kernel]
        pub fn $name(x: &[$t], y: &[$t], z: &[$t], w: &[$t], out: &mut [$t]) {
            let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
            if i < out.len() {
                let $a = x[i];
                let $b = y[i];
                let $c = z[i];
                let $d = w[i];
                out[i] = $e;
            }
        }
    )*};
}

tern! {
    norm3d_f32, f32, |a, b, c| norm3d(a, b, c);
    norm3d_f64, f64, |a, b, c| norm3d(a, b, c);
    rnorm3d_f32, f32, |a, b, c| rnorm3d(a, b, c);
    rnorm3d_f64, f64, |a, b, c| rnorm3d(a, b, c);
}
quat! {
    norm4d_f32, f32, |a, b, c, d| norm4d(a, b, c, d);
    norm4d_f64, f64, |a, b, c, d| norm4d(a, b, c, d);
    rnorm4d_f32, f32, |a, b, c, d| rnorm4d(a, b, c, d);
    rnorm4d_f64, f64, |a, b, c, d| rnorm4d(a, b, c, d);
}

/// Launches a kernel of `args.len()` input slices and one output.
type Ln<T> = dyn Fn(
    &Stream,
    &[DeviceBuffer<T>],
    &mut DeviceBuffer<T>,
) -> ferrocuda::host_runtime::Result<()>;

macro_rules! launcher3 {
    ($k:ident) => {
        &|s: &Stream, a: &[DeviceBuffer<_>], y: &mut DeviceBuffer<_>| {
            $k::launch(s, cfg(y.len()), &a[0], &a[1], &a[2], y)
        }
    };
}
macro_rules! launcher4 {
    ($k:ident) => {
        &|s: &Stream, a: &[DeviceBuffer<_>], y: &mut DeviceBuffer<_>| {
            $k::launch(s, cfg(y.len()), &a[0], &a[1], &a[2], &a[3], y)
        }
    };
}

/// Runs a kernel of several inputs over `args` (equal lengths), in launches of 2^18.
pub fn run_n<T: DeviceType + Default>(dev: &Device, args: &[Vec<T>], launch: &Ln<T>) -> Vec<T> {
    let s = dev.new_stream().expect("stream");
    let n = args[0].len();
    let mut out = Vec::with_capacity(n);
    let mut start = 0;
    while start < n {
        let end = (start + (1 << 18)).min(n);
        let bufs: Vec<DeviceBuffer<T>> = args
            .iter()
            .map(|a| dev.upload(&a[start..end]).expect("upload"))
            .collect();
        let mut y = dev.alloc_zeroed::<T>(end - start).expect("alloc");
        launch(&s, &bufs, &mut y).expect("launch");
        out.extend(y.to_vec().expect("download"));
        start = end;
    }
    out
}

/// `k` argument columns of `n` values: first each special value in each position (the others
/// random) and all positions equal to it, an infinity next to a NaN, then values from `d`.
fn columns<T: Copy>(
    k: usize,
    n: usize,
    specials: &[T],
    gen: &mut dyn FnMut(usize) -> T,
    inf: T,
    nan: T,
) -> Vec<Vec<T>> {
    let mut cols: Vec<Vec<T>> = vec![Vec::with_capacity(n); k];
    let push = |cols: &mut Vec<Vec<T>>, vals: Vec<T>| {
        for (c, v) in cols.iter_mut().zip(vals) {
            c.push(v);
        }
    };
    for &s in specials {
        push(&mut cols, vec![s; k]);
        for p in 0..k {
            let vals = (0..k).map(|i| if i == p { s } else { gen(i) }).collect();
            push(&mut cols, vals);
        }
    }
    for p in 0..k {
        let vals = (0..k)
            .map(|i| {
                if i == p {
                    inf
                } else if i == (p + 1) % k {
                    nan
                } else {
                    gen(i)
                }
            })
            .collect();
        push(&mut cols, vals);
    }
    while cols[0].len() < n {
        let vals = (0..k).map(&mut *gen).collect();
        push(&mut cols, vals);
    }
    cols
}

/// One function of three or four arguments.
struct NaryCase {
    name: &'static str,
    k: usize,
    b32: f64,
    b64: f64,
    ref32: fn(&[f64]) -> f64,
    ref64: fn(&[f64]) -> f64,
    l32: &'static Ln<f32>,
    l64: &'static Ln<f64>,
}

fn sum_sq_big(a: &[f64]) -> mpfr::Big {
    let mut s = mpfr::Big::new(0.0);
    for &x in a {
        let b = mpfr::Big::new(x);
        s = s.add(&b.mul(&b));
    }
    s
}

fn nary_cases() -> Vec<NaryCase> {
    // f32 arguments: their squares and sums are exact or rounded once in f64, far below an
    // f32 ulp. An infinity wins over a NaN (C's `hypot`).
    let norm: fn(&[f64]) -> f64 = |a| {
        if a.iter().any(|x| x.is_infinite()) {
            return f64::INFINITY;
        }
        a.iter().map(|x| x * x).sum::<f64>().sqrt()
    };
    let rnorm: fn(&[f64]) -> f64 = |a| {
        if a.iter().any(|x| x.is_infinite()) {
            return 0.0;
        }
        1.0 / a.iter().map(|x| x * x).sum::<f64>().sqrt()
    };
    let norm64: fn(&[f64]) -> f64 = |a| {
        if a.iter().any(|x| x.is_infinite()) {
            return f64::INFINITY;
        }
        sum_sq_big(a).un("mpfr_sqrt").to_f64()
    };
    let rnorm64: fn(&[f64]) -> f64 = |a| {
        if a.iter().any(|x| x.is_infinite()) {
            return 0.0;
        }
        sum_sq_big(a).un("mpfr_rec_sqrt").to_f64()
    };
    vec![
        NaryCase {
            name: "norm3d",
            k: 3,
            b32: 3.0,
            b64: 2.0,
            ref32: norm,
            ref64: norm64,
            l32: launcher3!(norm3d_f32),
            l64: launcher3!(norm3d_f64),
        },
        NaryCase {
            name: "rnorm3d",
            k: 3,
            b32: 2.0,
            b64: 1.0,
            ref32: rnorm,
            ref64: rnorm64,
            l32: launcher3!(rnorm3d_f32),
            l64: launcher3!(rnorm3d_f64),
        },
        NaryCase {
            name: "norm4d",
            k: 4,
            b32: 3.0,
            b64: 2.0,
            ref32: norm,
            ref64: norm64,
            l32: launcher4!(norm4d_f32),
            l64: launcher4!(norm4d_f64),
        },
        NaryCase {
            name: "rnorm4d",
            k: 4,
            b32: 2.0,
            b64: 1.0,
            ref32: rnorm,
            ref64: rnorm64,
            l32: launcher4!(rnorm4d_f32),
            l64: launcher4!(rnorm4d_f64),
        },
    ]
}

/// The inputs of the norms: uniform in ±10 and ±1e4 or random bits, per argument.
const NORM_D: Domain = Domain {
    ranges: &[(-10.0, 10.0), (-1e4, 1e4), (0.0, 1.0)],
};

/// Every function of this module on `dev` in f32.
pub fn measure_f32(dev: &Device, n: usize) -> Vec<Row> {
    let mut rows = Vec::new();
    for c in nary_cases().into_iter().filter(|c| selected(c.name)) {
        let pools: Vec<Vec<f32>> = (0..c.k)
            .map(|i| inputs32(NORM_D, n, seed(c.name) ^ i as u64))
            .collect();
        let mut j = 0usize;
        let mut gen = |i: usize| {
            j += 1;
            pools[i][(j * 7 + i * 13) % n]
        };
        let cols = columns(c.k, n, &specials32(), &mut gen, f32::INFINITY, f32::NAN);
        let ys = run_n(dev, &cols, c.l32);
        let mut row = Row {
            name: c.name,
            ty: "f32",
            cuda: Some(c.b32),
            max_ulp: 0.0,
            worst_input: (0.0, 0.0),
            n: ys.len(),
        };
        for (i, y) in ys.iter().enumerate() {
            let a: Vec<f64> = cols.iter().map(|col| col[i] as f64).collect();
            let e = ulp32(*y, (c.ref32)(&a));
            if e > row.max_ulp || e.is_nan() {
                row.max_ulp = e;
                row.worst_input = (a[0], a[1]);
            }
        }
        rows.push(row);
    }
    rows
}

/// `(name, argument columns, results)` per function.
pub type OutputsN = Vec<(&'static str, Vec<Vec<f64>>, Vec<f64>)>;

/// Every f64 function of this module on `dev`: `(name, argument columns, results)`, for the
/// GPU's bit-for-bit comparison with the simulator (`math_gpu`).
pub fn outputs_f64(dev: &Device, n: usize) -> OutputsN {
    let mut out = Vec::new();
    for c in nary_cases().into_iter().filter(|c| selected(c.name)) {
        let (cols, ys) = run_f64(dev, &c, n);
        out.push((c.name, cols, ys));
    }
    out
}

/// `c`'s inputs (as `measure_f64` draws them) and its results on `dev`.
fn run_f64(dev: &Device, c: &NaryCase, n: usize) -> (Vec<Vec<f64>>, Vec<f64>) {
    let pools: Vec<Vec<f64>> = (0..c.k)
        .map(|i| inputs64(NORM_D, n, seed(c.name) ^ i as u64))
        .collect();
    let mut j = 0usize;
    let mut gen = |i: usize| {
        j += 1;
        pools[i][(j * 7 + i * 13) % n]
    };
    let cols = columns(c.k, n, &specials64(), &mut gen, f64::INFINITY, f64::NAN);
    let ys = run_n(dev, &cols, c.l64);
    (cols, ys)
}

/// Every function of this module on `dev` in f64, against MPFR.
pub fn measure_f64(dev: &Device, n: usize) -> Vec<Row> {
    let mut rows = Vec::new();
    for c in nary_cases().into_iter().filter(|c| selected(c.name)) {
        let (cols, ys) = run_f64(dev, &c, n);
        let mut row = Row {
            name: c.name,
            ty: "f64",
            cuda: Some(c.b64),
            max_ulp: 0.0,
            worst_input: (0.0, 0.0),
            n: ys.len(),
        };
        for (i, y) in ys.iter().enumerate() {
            let a: Vec<f64> = cols.iter().map(|col| col[i]).collect();
            let want = if a.iter().any(|x| x.is_nan()) && !a.iter().any(|x| x.is_infinite()) {
                f64::NAN
            } else {
                (c.ref64)(&a)
            };
            let e = ulp64(*y, want);
            if e > row.max_ulp {
                row.max_ulp = e;
                row.worst_input = (a[0], a[1]);
            }
        }
        rows.push(row);
    }
    rows
}

/// The kernels of this module's f32 functions, for the PTX scan of `math_ptx`.
pub fn f32_kernels() -> Vec<&'static ferrocuda::kernel_ir::ast::FnDef> {
    vec![
        norm3d_f32::ast(),
        rnorm3d_f32::ast(),
        norm4d_f32::ast(),
        rnorm4d_f32::ast(),
    ]
}
