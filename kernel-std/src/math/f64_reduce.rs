//! Payne-Hanek reduction of huge f64 arguments by pi/2.
//!
//! `2/pi` is held as 24-bit chunks (integers stored exactly in f64). For `x = M * 2^E`
//! (`M` a 53-bit integer) each product `M * chunk` is computed exactly as a pair (`fma`), scaled by
//! its power of two (exact), and reduced modulo 8 to `[-4, 4]` (exact: a multiple of the
//! value's ulp no larger than the value). Chunks whose products are multiples of 8 are skipped, so only eight products
//! are formed whatever the exponent. The pieces are summed as a double-double, so the reduced
//! argument carries about 2^-99 absolute error: far below an ulp of `sin` except for the handful
//! of doubles that lie within ~2^-45 of a multiple of pi/2 (none in the measured samples).

#![allow(clippy::excessive_precision, clippy::approx_constant)]

use kernel_macros::device;

/// `2^k` for `k` in `[-1022, 1023]`.
#[device]
pub fn pow2i(k: i32) -> f64 {
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// `(a + b)` exactly as `(sum, error)`.
#[device]
pub fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

/// `(a + b)` exactly as `(sum, error)` when `|a| >= |b|` (or `a` is zero).
#[device]
pub fn fast_two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    (s, b - (s - a))
}

/// `t` minus the nearest multiple of 8, in `[-4, 4]`: exact, because the result is a multiple of
/// `t`'s ulp no larger than `t` (a `[0, 8)` reduction would round tiny negative `t`).
#[device]
fn mod8(t: f64) -> f64 {
    t - 8.0 * (t * 0.125).round()
}

/// `x = n*pi/2 + hi + lo` for finite `|x| >= 2^20`: `(n mod 4, hi, lo)`.
#[device]
pub fn rem_pio2_large(x: f64) -> (i32, f64, f64) {
    let chunks: [f64; 56] = [
        10680707.0, 7228996.0, 1387004.0, 2578385.0, 16069853.0, 12639074.0, 9804092.0, 4427841.0,
        16666979.0, 11263675.0, 12935607.0, 2387514.0, 4345298.0, 14681673.0, 3074569.0,
        13734428.0, 16653803.0, 1880361.0, 10960616.0, 8533493.0, 3062596.0, 8710556.0, 7349940.0,
        6258241.0, 3772886.0, 3769171.0, 3798172.0, 8675211.0, 12450088.0, 3874808.0, 9961438.0,
        366607.0, 15675153.0, 9132554.0, 7151469.0, 3571407.0, 2607881.0, 12013382.0, 4155038.0,
        6285869.0, 7677882.0, 13102053.0, 15825725.0, 473591.0, 9065106.0, 15363067.0, 6271263.0,
        9264392.0, 5636912.0, 4652155.0, 7056368.0, 13614112.0, 10155062.0, 1944035.0, 9527646.0,
        15080200.0,
    ];
    let b = x.to_bits();
    let e = ((b >> 52) & 0x7ff) as i32 - 1023;
    let m = ((b & 0x000f_ffff_ffff_ffff) | 0x0010_0000_0000_0000) as f64;
    let big_e = e - 52;
    let i0 = if e >= 79 { (e - 79) / 24 + 1 } else { 0 };
    let mut sh = 0.0;
    let mut sl = 0.0;
    for j in 0..8 {
        let i = i0 + j;
        let c = chunks[i as usize];
        let ph = m * c;
        let pl = m.mul_add(c, -ph);
        let sc = pow2i(big_e - 24 * (i + 1));
        let (s1, e1) = two_sum(sh, mod8(ph * sc));
        let (s2, e2) = two_sum(mod8(s1), mod8(pl * sc));
        sh = mod8(s2);
        sl += e1 + e2;
    }
    let (h, l) = two_sum(sh, sl);
    let nf = h.round();
    let (fh, fl) = two_sum(h - nf, l);
    let rh = fh * 1.5707963267948966;
    let rl = fh.mul_add(1.5707963267948966, -rh)
        + (fh * 6.123233995736766e-17 + fl * 1.5707963267948966);
    let (rh, rl) = two_sum(rh, rl);
    let n = (nf as i64 & 3) as i32;
    if x < 0.0 {
        ((4 - n) & 3, -rh, -rl)
    } else {
        (n, rh, rl)
    }
}
