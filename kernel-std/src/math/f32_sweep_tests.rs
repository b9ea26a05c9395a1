//! Host sweeps of f32 functions built on the approximate units, against glibc's f64 function
//! rounded to f32 (CUDA's measure: the distance in f32 values from the correctly rounded
//! result), with each unit's result moved by a few ulps (`approx::wobble`) as the GPU's can
//! be: the bound must hold for the simulator's exact model and for the shifted ones.

use super::approx::wobble::SHIFT;
use super::f32_all as m;

extern "C" {
    fn lgamma(x: f64) -> f64;
    fn tgamma(x: f64) -> f64;
    fn cbrt(x: f64) -> f64;
    fn expm1(x: f64) -> f64;
    fn asinh(x: f64) -> f64;
    fn acosh(x: f64) -> f64;
    fn atanh(x: f64) -> f64;
}

fn dist(got: f32, want: f32) -> u64 {
    if got.is_nan() || want.is_nan() {
        return if got.is_nan() && want.is_nan() {
            0
        } else {
            u64::MAX
        };
    }
    if got == 0.0 && want == 0.0 {
        return if got.is_sign_negative() == want.is_sign_negative() {
            0
        } else {
            u64::MAX
        };
    }
    let key = |x: f32| {
        let b = x.to_bits() as i32;
        if b < 0 {
            i32::MIN as i64 - b as i64
        } else {
            b as i64
        }
    };
    (key(got) - key(want)).unsigned_abs()
}

/// Inputs: the special values, a dense uniform grid over each range, and random bit patterns.
fn inputs(ranges: &[(f32, f32)], per_range: usize) -> Vec<f32> {
    let mut v = vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        2.0,
        3.0,
        0.5,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        1e-45,
        -1e-45,
        1e-40,
        f32::MAX,
        -f32::MAX,
        1e30,
        4.08e36,
        4.1e36,
        35.04,
        35.05,
        5.9604645e-08,
        5.96e-8,
    ];
    for &(lo, hi) in ranges {
        for i in 0..per_range {
            v.push(lo + (hi - lo) * (i as f32 + 0.5) / per_range as f32);
        }
    }
    let mut s = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..per_range {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        v.push(f32::from_bits(s as u32));
    }
    v
}

/// The largest error of `f` over `xs` against `r` under each unit shift pattern, as
/// `(ulps, worst input, shift)`, skipping inputs for which `skip` holds.
fn worst(
    f: fn(f32) -> f32,
    r: fn(f64) -> f64,
    xs: &[f32],
    skip: fn(f32) -> bool,
) -> (u64, f32, [i32; 4]) {
    let mut w = (0, 0.0, [0; 4]);
    let shifts = [
        [0, 0, 0, 0],
        [2, 2, 1, 1],
        [-2, -2, -1, -1],
        [2, -2, 1, -1],
        [-2, 2, -1, 1],
    ];
    for sh in shifts {
        SHIFT.with(|s| s.set(sh));
        let mut ws = (0, 0.0);
        for &x in xs {
            if skip(x) {
                continue;
            }
            let d = dist(f(x), r(x as f64) as f32);
            if d > ws.0 {
                ws = (d, x);
            }
        }
        println!("  shift {sh:?}: {} ulp at {:e}", ws.0, ws.1);
        if ws.0 > w.0 {
            w = (ws.0, ws.1, sh);
        }
    }
    SHIFT.with(|s| s.set([0; 4]));
    w
}

fn check(name: &str, bound: u64, w: (u64, f32, [i32; 4])) {
    println!("{name}: max {} ulp at {:e} (shift {:?})", w.0, w.1, w.2);
    assert!(
        w.0 <= bound,
        "{name}: {} ulp at {:e} (shift {:?})",
        w.0,
        w.1,
        w.2
    );
}

#[test]
fn lgamma_f32_within_cuda_bound() {
    let xs = inputs(
        &[
            (0.0, 10.0),
            (0.0, 3.0),
            (0.9, 1.1),
            (1.9, 2.1),
            (2.9, 3.1),
            (3.0, 1e6),
            (-100.0, -11.0001),
            (-2.2637, 0.0),
        ],
        1 << 17,
    );
    // CUDA documents no bound on [-10.001, -2.264].
    let w = worst(
        m::lgamma,
        |x| unsafe { lgamma(x) },
        &xs,
        |x| (-10.001..=-2.264).contains(&x),
    );
    check("lgamma", 6, w);
}

#[test]
fn tgamma_f32_within_cuda_bound() {
    let xs = inputs(
        &[
            (0.0, 10.0),
            (0.0, 3.0),
            (2.9, 3.1),
            (3.0, 36.0),
            (30.0, 35.1),
            (-100.0, -11.0001),
            (-11.0, 0.0),
        ],
        1 << 17,
    );
    let w = worst(m::tgamma, |x| unsafe { tgamma(x) }, &xs, |_| false);
    check("tgamma", 11, w);
}

#[test]
fn cbrt_f32_within_cuda_bound() {
    let xs = inputs(&[(-10.0, 10.0), (-1e4, 1e4), (0.5, 8.0)], 1 << 18);
    let w = worst(m::cbrt, |x| unsafe { cbrt(x) }, &xs, |_| false);
    check("cbrt", 1, w);
}

#[test]
fn expm1_f32_within_cuda_bound() {
    let xs = inputs(
        &[
            (-80.0, 80.0),
            (-1.0, 1.0),
            (-0.4, 0.4),
            (-18.0, -16.0),
            (88.0, 89.0),
        ],
        1 << 18,
    );
    let w = worst(m::expm1, |x| unsafe { expm1(x) }, &xs, |_| false);
    check("expm1", 1, w);
}

#[test]
fn inverse_hyperbolic_f32_within_cuda_bounds() {
    let xs = inputs(
        &[(-5.0, 5.0), (-1.0, 1.0), (-1e4, 1e4), (-1e-3, 1e-3)],
        1 << 17,
    );
    check(
        "asinh",
        3,
        worst(m::asinh, |x| unsafe { asinh(x) }, &xs, |_| false),
    );
    let xs = inputs(&[(1.0, 3.0), (1.0, 1e6), (1.0, 1.001), (0.0, 1.0)], 1 << 17);
    check(
        "acosh",
        4,
        worst(m::acosh, |x| unsafe { acosh(x) }, &xs, |_| false),
    );
    let xs = inputs(
        &[
            (-1.0, 1.0),
            (-0.5, 0.5),
            (0.9, 1.0),
            (-1.0, -0.9),
            (-1e-3, 1e-3),
        ],
        1 << 17,
    );
    check(
        "atanh",
        3,
        worst(m::atanh, |x| unsafe { atanh(x) }, &xs, |_| false),
    );
}

#[test]
fn hypot_f32_within_cuda_bound() {
    let mut xs = inputs(&[(-100.0, 100.0), (-1e-3, 1e-3), (-1e30, 1e30)], 1 << 12);
    xs.extend([3e38, 1e-38, 1e-44, 2e-45, 1.7e38, 1.1754942e-38]);
    let mut w = (0u64, 0.0f32, 0.0f32);
    for &x in &xs {
        for &y in xs.iter().step_by(7) {
            let got = m::hypot(x, y);
            let want = (x as f64).hypot(y as f64) as f32;
            let d = dist(got, want);
            if d > w.0 {
                w = (d, x, y);
            }
        }
    }
    println!("hypot: max {} ulp at ({:e}, {:e})", w.0, w.1, w.2);
    assert!(w.0 <= 3, "hypot: {} ulp at ({:e}, {:e})", w.0, w.1, w.2);
}
