//! f64 rounding to integers and `scalbln`, as `f32_toint`: `cvt.rni` conversions (`lround`:
//! Rust's `round` then the truncating conversion), saturating at the `i64` range; NaN gives 0 from `lround`
//! and `i64::MIN` from `lrint` (the GPU's `cvt.rni.s64`).
//! `scalbln(x, n)` is `ldexp` of `n` clamped to `[-4096, 4096]`, beyond which every f64 result
//! is already 0 or infinite.

use kernel_macros::device;

use super::approx::{d2ll_rn, rni_f64};
use super::f64_fpmanip::ldexp;

/// `rint(x)`: the nearest integer, ties to even.
#[device]
pub fn rint(x: f64) -> f64 {
    rni_f64(x)
}

/// `nearbyint(x)`: `rint`.
#[device]
pub fn nearbyint(x: f64) -> f64 {
    rni_f64(x)
}

/// `lrint(x)`: the nearest integer, ties to even, as an `i64`.
#[device]
pub fn lrint(x: f64) -> i64 {
    d2ll_rn(x)
}

/// `llrint(x)`: the same as `lrint`.
#[device]
pub fn llrint(x: f64) -> i64 {
    d2ll_rn(x)
}

/// `lround(x)`: the nearest integer, halfway cases away from zero, as an `i64`.
#[device]
pub fn lround(x: f64) -> i64 {
    x.round() as i64
}

/// `llround(x)`: the same as `lround`.
#[device]
pub fn llround(x: f64) -> i64 {
    x.round() as i64
}

/// `scalbln(x, n)`: `x 2^n` rounded once, `n` a `long`.
#[device]
pub fn scalbln(x: f64, n: i64) -> f64 {
    ldexp(x, n.clamp(-4096, 4096) as i32)
}
