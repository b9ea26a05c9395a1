//! The directed-rounding intrinsics (`add_rz`, `mul_ru`, `div_rd`, `sqrt_rz`, `rcp_ru`,
//! `fma_rd`...) on the simulator: f32 results against an independent reference (the exact f64
//! value of the f32 operation rounded by hand), f64 results against the ordering every directed
//! rounding must satisfy (`rd <= rn <= ru`, one ulp apart at most, `rz` the one nearer zero).

use ferrocuda::prelude::*;

macro_rules! modes {
    ($name:ident, $t:ty, $rn:ident, $rz:ident, $ru:ident, $rd:ident) => {
        #[kernel]
        pub fn $name(a: &[$t], b: &[$t], c: &[$t], out: &mut [$t]) {
            let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
            if i < a.len() {
                let (x, y, z) = (a[i], b[i], c[i]);
                let r = [
                    add_rn(x, y),
                    add_rz(x, y),
                    add_ru(x, y),
                    add_rd(x, y),
                    mul_rn(x, y),
                    mul_rz(x, y),
                    mul_ru(x, y),
                    mul_rd(x, y),
                    div_rn(x, y),
                    div_rz(x, y),
                    div_ru(x, y),
                    div_rd(x, y),
                    sqrt_rn(z),
                    sqrt_rz(z),
                    sqrt_ru(z),
                    sqrt_rd(z),
                    rcp_rn(y),
                    rcp_rz(y),
                    rcp_ru(y),
                    rcp_rd(y),
                    fma_rn(x, y, z),
                    fma_rz(x, y, z),
                    fma_ru(x, y, z),
                    fma_rd(x, y, z),
                    sub_rn(x, y),
                    sub_rz(x, y),
                    sub_ru(x, y),
                    sub_rd(x, y),
                ];
                for k in 0..28 {
                    out[i * 28 + k] = r[k];
                }
            }
        }
    };
}
modes!(modes_f32, f32, a, b, c, d);
modes!(modes_f64, f64, a, b, c, d);

const OPS: [&str; 7] = ["add", "mul", "div", "sqrt", "rcp", "fma", "sub"];

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn f(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * ((self.next() >> 11) as f64 / (1u64 << 53) as f64)
    }
}

fn next_up32(x: f32) -> f32 {
    if x == 0.0 {
        return f32::from_bits(1);
    }
    let b = x.to_bits();
    f32::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}
fn next_down32(x: f32) -> f32 {
    -next_up32(-x)
}

/// `(rn, rz, ru, rd)` of the exact value `v` (an f64 holding the exact result) in f32.
fn round32(v: f64) -> [f32; 4] {
    let rn = v as f32;
    let (rd, ru) = if (rn as f64) > v {
        (next_down32(rn), rn)
    } else if (rn as f64) < v {
        (rn, next_up32(rn))
    } else {
        (rn, rn)
    };
    let rz = if v >= 0.0 { rd } else { ru };
    [rn, rz, ru, rd]
}

fn run<T: DeviceType + Default>(
    a: &[T],
    b: &[T],
    c: &[T],
    launch: impl Fn(&Stream, &DeviceBuffer<T>, &DeviceBuffer<T>, &DeviceBuffer<T>, &mut DeviceBuffer<T>),
) -> Vec<T> {
    let dev = Device::simulator();
    let s = dev.new_stream().unwrap();
    let (da, db, dc) = (
        dev.upload(a).unwrap(),
        dev.upload(b).unwrap(),
        dev.upload(c).unwrap(),
    );
    let mut out = dev.alloc_zeroed::<T>(a.len() * 28).unwrap();
    launch(&s, &da, &db, &dc, &mut out);
    out.to_vec().unwrap()
}

#[test]
fn f32_directed_rounding_matches_exact_reference() {
    let mut r = Rng(0x9e37_79b9_7f4a_7c15);
    let n = 4096;
    let a: Vec<f32> = (0..n).map(|_| r.f(-100.0, 100.0) as f32).collect();
    let b: Vec<f32> = (0..n)
        .map(|i| r.f(0.01, 50.0) as f32 * if i % 3 == 0 { -1.0 } else { 1.0 })
        .collect();
    let c: Vec<f32> = (0..n).map(|_| r.f(0.0, 1000.0) as f32).collect();
    let out = run(&a, &b, &c, |s, x, y, z, o| {
        modes_f32::launch(s, LaunchConfig::for_elements(n, 128), x, y, z, o).unwrap()
    });
    let mut checked = 0;
    for i in 0..n {
        let (x, y, z) = (a[i] as f64, b[i] as f64, c[i] as f64);
        // add, sub, mul and fma of these f32 values are exact in f64 (exponents are close).
        let exact = [(0, x + y), (1, x * y), (5, x * y + z), (6, x - y)];
        for (op, v) in exact {
            let got = &out[i * 28 + op * 4..i * 28 + op * 4 + 4];
            assert_eq!(got, round32(v), "{} {x} {y} {z}", OPS[op]);
            checked += 1;
        }
        // div, sqrt, rcp: bracket the exact result using exact f64 products.
        for (op, num, den) in [(2, x, y), (4, 1.0, y)] {
            let g = &out[i * 28 + op * 4..i * 28 + op * 4 + 4];
            let (rn, rz, ru, rd) = (g[0], g[1], g[2], g[3]);
            let sgn = den.signum();
            assert!(
                rd as f64 * den * sgn <= num * sgn && num * sgn <= ru as f64 * den * sgn,
                "{} {num} {den}",
                OPS[op]
            );
            assert!(ru == rd || ru == next_up32(rd), "{}", OPS[op]);
            assert!(rn == rd || rn == ru);
            assert_eq!(rz, if (rn as f64) >= 0.0 { rd } else { ru });
            checked += 1;
        }
        let g = &out[i * 28 + 12..i * 28 + 16];
        let (rd, ru) = (g[3] as f64, g[2] as f64);
        assert!(rd * rd <= z && z <= ru * ru, "sqrt {z}");
        assert_eq!(g[1], g[3], "sqrt rz is rd");
    }
    assert!(checked > 20_000);
}

#[test]
fn f64_directed_rounding_brackets_and_orders() {
    let mut r = Rng(0x2545_f491_4f6c_dd1d);
    let n = 4096;
    let a: Vec<f64> = (0..n).map(|_| r.f(-1e10, 1e10)).collect();
    let b: Vec<f64> = (0..n)
        .map(|i| r.f(1e-3, 1e3) * if i % 3 == 0 { -1.0 } else { 1.0 })
        .collect();
    let c: Vec<f64> = (0..n).map(|_| r.f(0.0, 1e6)).collect();
    let out = run(&a, &b, &c, |s, x, y, z, o| {
        modes_f64::launch(s, LaunchConfig::for_elements(n, 128), x, y, z, o).unwrap()
    });
    let mut inexact = 0;
    for i in 0..n {
        for op in 0..7 {
            let g = &out[i * 28 + op * 4..i * 28 + op * 4 + 4];
            let (rn, rz, ru, rd) = (g[0], g[1], g[2], g[3]);
            assert!(rd <= rn && rn <= ru, "{} {} {}", OPS[op], a[i], b[i]);
            assert!(ru == rd || ru == rd.next_up(), "{}", OPS[op]);
            assert_eq!(rz, if rn >= 0.0 { rd } else { ru }, "{}", OPS[op]);
            if ru != rd {
                inexact += 1;
            }
        }
        assert_eq!(out[i * 28], a[i] + b[i]);
        assert_eq!(out[i * 28 + 4], a[i] * b[i]);
        assert_eq!(out[i * 28 + 8], a[i] / b[i]);
        assert_eq!(out[i * 28 + 20], a[i].mul_add(b[i], c[i]));
        // add: the two-sum error decides the direction.
        let s = a[i] + b[i];
        let bb = s - a[i];
        let e = (a[i] - (s - bb)) + (b[i] - bb);
        let want_ru = if e > 0.0 { s.next_up() } else { s };
        assert_eq!(out[i * 28 + 2], want_ru);
    }
    assert!(inexact > 10_000, "the inputs exercise rounding ({inexact})");
}
