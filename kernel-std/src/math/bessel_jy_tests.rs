//! Host checks of the Bessel functions `j0`...`yn` (f32 and f64) against glibc's f64 ones: f32
//! in ulps below 8 (CUDA: 9) and absolutely beyond (CUDA: 2.2e-6), f64 absolutely (glibc's f64
//! is no ulp reference near the zeros; the MPFR measurement is `tests/math_common/bessel_jy.rs`),
//! and the special values CUDA gives.

use super::f32_all as m32;
use super::f64_all as m64;

extern "C" {
    fn j0(x: f64) -> f64;
    fn j1(x: f64) -> f64;
    fn y0(x: f64) -> f64;
    fn y1(x: f64) -> f64;
    fn jn(n: i32, x: f64) -> f64;
    fn yn(n: i32, x: f64) -> f64;
}

fn ulps32(got: f32, want: f64) -> f64 {
    let w = want as f32;
    if got.is_nan() || w.is_nan() {
        return if got.is_nan() && w.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if got == w {
        return 0.0;
    }
    let key = |x: f32| {
        let b = x.to_bits() as i32;
        if b < 0 {
            i32::MIN as i64 - b as i64
        } else {
            b as i64
        }
    };
    (key(got) - key(w)).unsigned_abs() as f64
}

fn grid(lo: f64, hi: f64, n: usize) -> impl Iterator<Item = f64> {
    (0..n).map(move |i| lo + (hi - lo) * (i as f64 + 0.5) / n as f64)
}

type F32 = fn(f32) -> f32;
type R = unsafe extern "C" fn(f64) -> f64;

#[test]
fn f32_j0_j1_y0_y1_within_cuda_bounds() {
    let cases: [(&str, F32, R, f64); 4] = [
        ("j0", m32::j0, j0, -8.0),
        ("j1", m32::j1, j1, -8.0),
        ("y0", m32::y0, y0, 0.0),
        ("y1", m32::y1, y1, 0.0),
    ];
    for (name, f, r, lo) in cases {
        let (mut wu, mut wa) = ((0.0, 0.0), (0.0, 0.0));
        for x in grid(lo, 8.0, 200_000).chain(grid(0.0, 0.01, 10_000)) {
            let x = x as f32;
            if x < 0.0 && lo == 0.0 {
                continue;
            }
            let want = unsafe { r(x as f64) };
            let u = ulps32(f(x), want);
            if u > wu.0 {
                wu = (u, x as f64);
            }
        }
        for x in grid(8.0, 1000.0, 200_000).chain(grid(1e3, 1e7, 20_000)) {
            let x = x as f32;
            let want = unsafe { r(x as f64) };
            let e = (f(x) as f64 - want).abs();
            if e > wa.0 {
                wa = (e, x as f64);
            }
        }
        println!(
            "{name}: {} ulp at {:e} below 8; abs {:e} at {:e} beyond",
            wu.0, wu.1, wa.0, wa.1
        );
        assert!(wu.0 <= 9.0 && wa.0 <= 2.2e-6, "{name}");
    }
}

#[test]
fn f32_jn_yn_within_cuda_bounds() {
    for n in [2, 3, 5, 10, 20, 50, 128, -3, -4] {
        let mut wj = (0.0, 0.0);
        let mut wy = (0.0, 0.0);
        for x in grid(-200.0, 200.0, 40_000) {
            let x = x as f32;
            let e = (m32::jn(n, x) as f64 - unsafe { jn(n, x as f64) }).abs();
            if e > wj.0 {
                wj = (e, x as f64);
            }
            if x > 0.0 {
                let want = unsafe { yn(n, x as f64) };
                let got = m32::yn(n, x);
                let e = if (x as f64) < n.abs() as f64 {
                    ulps32(got, want) / (2.0 + 2.5 * n.abs() as f64).ceil()
                } else {
                    (got as f64 - want).abs() / 2.2e-6
                };
                if e > wy.0 {
                    wy = (e, x as f64);
                }
            }
        }
        println!(
            "jn({n}): abs {:e} at {:e}; yn({n}): {:.3} of the bound at {:e}",
            wj.0, wj.1, wy.0, wy.1
        );
        assert!(wj.0 <= 2.2e-6, "jn({n})");
        assert!(wy.0 <= 1.0, "yn({n})");
    }
}

#[test]
fn f64_bessel_jy_absolute_error() {
    type F64 = fn(f64) -> f64;
    let cases: [(&str, F64, R); 4] = [
        ("j0", m64::j0, j0),
        ("j1", m64::j1, j1),
        ("y0", m64::y0, y0),
        ("y1", m64::y1, y1),
    ];
    for (name, f, r) in cases {
        let mut w = (0.0, 0.0);
        for x in grid(0.001, 8.0, 100_000).chain(grid(8.0, 2000.0, 100_000)) {
            let want = unsafe { r(x) };
            // Relative below 1 in magnitude (the functions' scale), absolute elsewhere.
            let e = (f(x) - want).abs();
            if e > w.0 {
                w = (e, x);
            }
        }
        println!("{name} (f64): abs {:e} at {:e}", w.0, w.1);
        assert!(w.0 <= 5e-12, "{name}");
    }
    for n in [2, 5, 20, 128, -7] {
        let mut w = (0.0f64, 0.0);
        for x in grid(-300.0, 300.0, 20_000) {
            let e = (m64::jn(n, x) - unsafe { jn(n, x) }).abs();
            w = if e > w.0 { (e, x) } else { w };
            if x > 1.5 * n.abs() as f64 {
                let e = (m64::yn(n, x) - unsafe { yn(n, x) }).abs();
                w = if e > w.0 { (e, x) } else { w };
            }
        }
        println!("jn/yn({n}) (f64): abs {:e} at {:e}", w.0, w.1);
        assert!(w.0 <= 5e-12, "jn/yn({n})");
    }
}

#[test]
fn bessel_jy_special_values() {
    for (j0v, j1v, y0v, y1v) in [
        (
            m32::j0(0.0) as f64,
            m32::j1(-0.0) as f64,
            m32::y0(0.0) as f64,
            m32::y1(0.0) as f64,
        ),
        (m64::j0(0.0), m64::j1(-0.0), m64::y0(0.0), m64::y1(0.0)),
    ] {
        assert_eq!(j0v, 1.0);
        assert!(j1v == 0.0 && j1v.is_sign_negative());
        assert_eq!(y0v, f64::NEG_INFINITY);
        assert_eq!(y1v, f64::NEG_INFINITY);
    }
    assert_eq!(m32::j0(f32::INFINITY), 0.0);
    assert_eq!(m32::j1(f32::NEG_INFINITY).to_bits(), 0);
    assert_eq!(m32::y0(f32::INFINITY), 0.0);
    assert!(m32::y0(-1.0).is_nan() && m32::y1(-0.5).is_nan() && m32::yn(3, -2.0).is_nan());
    assert!(m32::j0(f32::NAN).is_nan() && m32::jn(4, f32::NAN).is_nan());
    assert_eq!(m32::yn(2, 0.0), f32::NEG_INFINITY);
    assert_eq!(m32::jn(3, 0.0), 0.0);
    assert_eq!(m32::jn(5, f32::INFINITY), 0.0);
    assert_eq!(m64::yn(4, 0.0), f64::NEG_INFINITY);
    assert!(m64::y1(-1.0).is_nan() && m64::j1(f64::NAN).is_nan());
    assert_eq!(m64::jn(-3, -2.0), m64::jn(3, 2.0));
    assert_eq!(m64::jn(3, -2.0), -m64::jn(3, 2.0));
    assert_eq!(m32::yn(-3, 2.0), -m32::yn(3, 2.0));
}
