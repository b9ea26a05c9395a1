//! The Bessel functions `j0`, `j1`, `y0`, `y1`, `jn`, `yn`, f32 and f64, against MPFR's
//! correctly rounded values (`mpfr_j0`..., `mpfr_jn`, `mpfr_yn`), with CUDA's bounds as the
//! guide states them: in ulps below 8 (f32: 9, f64: 7) and absolutely from 8 (f32: 2.2e-6,
//! f64: 5e-12); `jn` absolutely (the guide's bound is stated at n = 128; measured here at
//! n = 2, 5, 20, 128); `yn` in ulps below `x = n` (f32: `ceil(2 + 2.5 n)`) and absolutely beyond
//! (f64: from `x = 1.5 n`). The absolute rows report the largest error divided by CUDA's bound
//! (`cuda` 1), named `... abs/bound`.

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
    j0_f32, f32, |v| j0(v);
    j1_f32, f32, |v| j1(v);
    y0_f32, f32, |v| y0(v);
    y1_f32, f32, |v| y1(v);
    jn2_f32, f32, |v| jn(2, v);
    jn5_f32, f32, |v| jn(5, v);
    jn20_f32, f32, |v| jn(20, v);
    jn128_f32, f32, |v| jn(128, v);
    yn2_f32, f32, |v| yn(2, v);
    yn5_f32, f32, |v| yn(5, v);
    yn20_f32, f32, |v| yn(20, v);
    j0_f64, f64, |v| j0(v);
    j1_f64, f64, |v| j1(v);
    y0_f64, f64, |v| y0(v);
    y1_f64, f64, |v| y1(v);
    jn2_f64, f64, |v| jn(2, v);
    jn5_f64, f64, |v| jn(5, v);
    jn20_f64, f64, |v| jn(20, v);
    jn128_f64, f64, |v| jn(128, v);
    yn2_f64, f64, |v| yn(2, v);
    yn5_f64, f64, |v| yn(5, v);
    yn20_f64, f64, |v| yn(20, v);
}

/// The f32 kernels, for the PTX scan of `math_ptx.rs`.
pub fn f32_kernels() -> Vec<&'static ferrocuda::kernel_ir::ast::FnDef> {
    vec![
        j0_f32::ast(),
        j1_f32::ast(),
        y0_f32::ast(),
        y1_f32::ast(),
        jn2_f32::ast(),
        jn128_f32::ast(),
        yn5_f32::ast(),
    ]
}

/// MPFR's value of `J_n(x)` (`kind` `j`) or `Y_n(x)` (`y`).
fn reference(kind: char, n: i32, x: f64) -> f64 {
    match (kind, n) {
        ('j', 0) => mpfr::un("mpfr_j0", x),
        ('j', 1) => mpfr::un("mpfr_j1", x),
        ('y', 0) => mpfr::un("mpfr_y0", x),
        ('y', 1) => mpfr::un("mpfr_y1", x),
        ('j', _) => mpfr::order_n("mpfr_jn", n, x),
        _ => mpfr::order_n("mpfr_yn", n, x),
    }
}

const ALL: Domain = Domain {
    ranges: &[
        (-8.0, 8.0),
        (0.0, 8.0),
        (0.0, 0.01),
        (8.0, 100.0),
        (-1e4, 1e4),
    ],
};

/// One case: name, kind, order, where the ulp bound applies (`x < limit`), the ulp bound there
/// and the absolute bound beyond.
struct Case {
    name: &'static str,
    kind: char,
    n: i32,
    limit: f64,
    ulps: f64,
    abs: f64,
}

fn cases(f64_type: bool) -> Vec<Case> {
    let (u, a) = if f64_type {
        (7.0, 5e-12)
    } else {
        (9.0, 2.2e-6)
    };
    let c = |name, kind, n, limit, ulps, abs| Case {
        name,
        kind,
        n,
        limit,
        ulps,
        abs,
    };
    let mut v = vec![
        c("j0", 'j', 0, 8.0, u, a),
        c("j1", 'j', 1, 8.0, u, a),
        c("y0", 'y', 0, 8.0, u, a),
        c("y1", 'y', 1, 8.0, u, a),
    ];
    for (name, n) in [("jn(2)", 2), ("jn(5)", 5), ("jn(20)", 20), ("jn(128)", 128)] {
        v.push(c(name, 'j', n, 0.0, 0.0, a));
    }
    for (name, n) in [("yn(2)", 2), ("yn(5)", 5), ("yn(20)", 20)] {
        if f64_type {
            // CUDA states only the absolute bound from 1.5 n.
            v.push(c(name, 'y', n, 1.5 * n as f64, f64::INFINITY, a));
        } else {
            v.push(c(name, 'y', n, n as f64, (2.0 + 2.5 * n as f64).ceil(), a));
        }
    }
    v
}

fn launcher32(name: &str) -> &'static L1<f32> {
    macro_rules! l {
        ($k:ident) => {
            &|s: &Stream, x: &DeviceBuffer<f32>, y: &mut DeviceBuffer<f32>| {
                $k::launch(s, cfg(y.len()), x, y)
            }
        };
    }
    match name {
        "j0" => l!(j0_f32),
        "j1" => l!(j1_f32),
        "y0" => l!(y0_f32),
        "y1" => l!(y1_f32),
        "jn(2)" => l!(jn2_f32),
        "jn(5)" => l!(jn5_f32),
        "jn(20)" => l!(jn20_f32),
        "jn(128)" => l!(jn128_f32),
        "yn(2)" => l!(yn2_f32),
        "yn(5)" => l!(yn5_f32),
        _ => l!(yn20_f32),
    }
}

fn launcher64(name: &str) -> &'static L1<f64> {
    macro_rules! l {
        ($k:ident) => {
            &|s: &Stream, x: &DeviceBuffer<f64>, y: &mut DeviceBuffer<f64>| {
                $k::launch(s, cfg(y.len()), x, y)
            }
        };
    }
    match name {
        "j0" => l!(j0_f64),
        "j1" => l!(j1_f64),
        "y0" => l!(y0_f64),
        "y1" => l!(y1_f64),
        "jn(2)" => l!(jn2_f64),
        "jn(5)" => l!(jn5_f64),
        "jn(20)" => l!(jn20_f64),
        "jn(128)" => l!(jn128_f64),
        "yn(2)" => l!(yn2_f64),
        "yn(5)" => l!(yn5_f64),
        _ => l!(yn20_f64),
    }
}

/// The two rows of one case: the ulp row (inputs below the limit, special values included)
/// and the absolute row (finite inputs from the limit, the error over CUDA's bound).
fn rows(
    c: &Case,
    ty: &'static str,
    xs: &[f64],
    ys: &[f64],
    ulp: &dyn Fn(f64, f64) -> f64,
) -> Vec<Row> {
    let mut wu = (0.0, (0.0, 0.0));
    let mut wa = (0.0, (0.0, 0.0));
    let (mut nu, mut na) = (0, 0);
    for (&x, &y) in xs.iter().zip(ys) {
        let want = reference(c.kind, c.n, x);
        if x.is_finite() && x.abs() >= c.limit {
            na += 1;
            let e = (y - want).abs() / c.abs;
            let e = if e.is_nan() && !(y.is_nan() && want.is_nan()) {
                f64::INFINITY
            } else if e.is_nan() {
                0.0
            } else {
                e
            };
            if e > wa.0 {
                wa = (e, (x, 0.0));
            }
        } else {
            nu += 1;
            let e = ulp(y, want);
            if e > wu.0 {
                wu = (e, (x, 0.0));
            }
        }
    }
    let leak = |s: String| -> &'static str { Box::leak(s.into_boxed_str()) };
    let mut out = Vec::new();
    if c.limit > 0.0 {
        out.push(Row {
            name: leak(format!("{} (|x| < {})", c.name, c.limit)),
            ty,
            cuda: if c.ulps.is_finite() {
                Some(c.ulps)
            } else {
                None
            },
            max_ulp: wu.0,
            worst_input: wu.1,
            n: nu,
        });
    }
    out.push(Row {
        name: leak(format!("{} abs/bound (|x| >= {})", c.name, c.limit)),
        ty,
        cuda: Some(1.0),
        max_ulp: wa.0,
        worst_input: wa.1,
        n: na,
    });
    out
}

pub fn measure_f32(dev: &Device, n: usize) -> Vec<Row> {
    let mut out = Vec::new();
    for c in cases(false) {
        if !selected(c.name) {
            continue;
        }
        let xs = inputs32(ALL, n, seed(c.name) ^ 32);
        let ys = run_un(dev, &xs, launcher32(c.name));
        let xd: Vec<f64> = xs.iter().map(|&x| x as f64).collect();
        let yd: Vec<f64> = ys.iter().map(|&y| y as f64).collect();
        out.extend(rows(&c, "f32", &xd, &yd, &|y, want| ulp32(y as f32, want)));
    }
    out
}

pub fn measure_f64(dev: &Device, n: usize) -> Vec<Row> {
    let mut out = Vec::new();
    for c in cases(true) {
        if !selected(c.name) {
            continue;
        }
        let xs = inputs64(ALL, n, seed(c.name) ^ 64);
        let ys = run_un(dev, &xs, launcher64(c.name));
        out.extend(rows(&c, "f64", &xs, &ys, &ulp64));
    }
    out
}
