//! Host tests of the exact f32 functions rewritten for speed (`ldexp`, `logb`, `ilogb`, `fdim`,
//! `remainder`, `remquo`): every special value pairing, dense sweeps of the paths each one
//! branches or selects between (the fast paths and the slow ones: subnormals, huge quotients,
//! the `ldexp` factor split at `|n| = 100`), against glibc's f64 functions (exact for f32
//! arguments: the f64 result is the exact one, rounded once to f32 where it must be).

use super::f32_all as m;

extern "C" {
    fn ldexp(x: f64, n: i32) -> f64;
    fn remquo(x: f64, y: f64, q: *mut i32) -> f64;
    fn logb(x: f64) -> f64;
    fn ilogb(x: f64) -> i32;
    fn fdim(x: f64, y: f64) -> f64;
}

/// Bit-exact equality, every NaN equal to every NaN.
fn same(a: f32, b: f32) -> bool {
    (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
}

fn specials() -> Vec<f32> {
    vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        0.5,
        1.5,
        3.0,
        -7.25,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::MIN_POSITIVE,
        -f32::MIN_POSITIVE,
        f32::from_bits(1),
        f32::from_bits(0x8000_0001),
        f32::from_bits(0x007f_ffff),
        1e-40,
        f32::MAX,
        -f32::MAX,
        1e30,
        7.888609e-31,
        1.2676506e30,
    ]
}

/// Pseudo-random f32 bit patterns (every exponent equally likely).
fn random_bits(n: usize, seed: u64) -> Vec<f32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            f32::from_bits(s as u32)
        })
        .collect()
}

#[test]
fn ldexp_is_exact_on_every_path() {
    let mut xs = specials();
    xs.extend(random_bits(4000, 0x1234_5678_9abc_def1));
    // Around the smallest normal, where a subnormal result rounds.
    xs.extend((0..200).map(|i| f32::from_bits(0x0080_0000 + i * 37_123)));
    let mut ns: Vec<i32> = (-320..=320).collect();
    ns.extend([i32::MIN, i32::MAX, -100_000, 100_000, -279, 279]);
    for &x in &xs {
        for &n in &ns {
            let want = unsafe { ldexp(x as f64, n) } as f32;
            let got = m::ldexp(x, n);
            assert!(
                same(got, want),
                "ldexp({x:e}, {n}) = {got:e}, want {want:e}"
            );
        }
    }
}

#[test]
fn logb_and_ilogb_match_glibc() {
    let mut xs = specials();
    xs.extend(random_bits(1 << 16, 0x0f0f_1234_5555_9999));
    for &x in &xs {
        let want = unsafe { logb(x as f64) } as f32;
        assert!(same(m::logb(x), want), "logb({x:e}) = {:e}", m::logb(x));
        // CUDA's FP_ILOGB0 and FP_ILOGBNAN are both INT_MIN; glibc's agree on x86-64.
        let want = unsafe { ilogb(x as f64) };
        assert_eq!(m::ilogb(x), want, "ilogb({x:e})");
    }
}

#[test]
fn fdim_matches_glibc() {
    let mut xs = specials();
    xs.extend(random_bits(600, 0x5555_aaaa_1234_4321));
    for &x in &xs {
        for &y in &xs {
            let want = unsafe { fdim(x as f64, y as f64) } as f32;
            let got = m::fdim(x, y);
            assert!(
                same(got, want),
                "fdim({x:e}, {y:e}) = {got:e}, want {want:e}"
            );
        }
    }
}

/// `remquo`'s quotient as CUDA's: the low three bits with the sign of `x / y`.
fn check_remquo(x: f32, y: f32) {
    let mut q = 0i32;
    let want = unsafe { remquo(x as f64, y as f64, &mut q) } as f32;
    let (got, gq) = m::remquo(x, y);
    assert!(
        same(got, want),
        "remquo({x:e}, {y:e}) = {got:e}, want {want:e}"
    );
    assert!(same(m::remainder(x, y), want), "remainder({x:e}, {y:e})");
    if !want.is_nan() && y.is_finite() {
        let wq = q.signum() * (q.abs() & 7);
        assert_eq!(gq, wq, "remquo({x:e}, {y:e}) quotient bits");
    }
}

#[test]
fn remquo_matches_glibc_on_both_paths() {
    let mut xs = specials();
    xs.extend(random_bits(700, 0x9e37_79b9_7f4a_7c15));
    for &x in &xs {
        for &y in &xs {
            check_remquo(x, y);
        }
    }
    // The fast path (quotients below 2^16), its edge, and ties (x an odd multiple of y/2).
    let mut s = 0x2545_f491_4f6c_dd1du64;
    for i in 0..400_000u32 {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        let y = f32::from_bits(0x3000_0000 + (s as u32 % 0x1e00_0000))
            * if i & 1 == 0 { 1.0 } else { -1.0 };
        let x = match i % 4 {
            0 => y * ((s >> 32) as u32 % 70_000) as f32 * 1.0000001,
            1 => y * (((s >> 32) as u32 % 65_536) as f32 + 0.5),
            2 => y * 65536.0 * (1.0 + ((s >> 40) as u32 % 8) as f32 * 1.2e-7),
            _ => -y * ((s >> 32) as u32 % 1000) as f32 * 0.999_999_9,
        };
        check_remquo(x, y);
    }
}
