//! f32 rounding to integers and `scalbln`: C's `rint`, `nearbyint`, `lrint`, `llrint`,
//! `lround`, `llround` (`long` is `i64`, as on 64-bit Linux), each one conversion instruction
//! (`cvt.rni`; `lround` is Rust's `round`, half away from zero, then the truncating conversion),
//! saturating at the `i64` range (C leaves out-of-range results unspecified). NaN gives 0 from
//! `lround` (Rust's `as`) and `i64::MIN` from `lrint` (the GPU's `cvt.rni.s64`, as CUDA's). `scalbln(x, n)` is `ldexp` of `n` clamped to
//! `[-512, 512]`, beyond which every f32 result is already 0 or infinite.

use kernel_macros::device;

use super::approx::{f2ll_rn, rni_f32};
use super::f32_fpmanip::ldexp;

/// `rint(x)`: the nearest integer, ties to even.
#[device]
pub fn rintf(x: f32) -> f32 {
    rni_f32(x)
}

/// `nearbyint(x)`: `rint` (there is no inexact flag to leave alone on the GPU).
#[device]
pub fn nearbyintf(x: f32) -> f32 {
    rni_f32(x)
}

/// `lrint(x)`: the nearest integer, ties to even, as an `i64`.
#[device]
pub fn lrintf(x: f32) -> i64 {
    f2ll_rn(x)
}

/// `llrint(x)`: the same as `lrint` (`long long` and `long` are both `i64`).
#[device]
pub fn llrintf(x: f32) -> i64 {
    f2ll_rn(x)
}

/// `lround(x)`: the nearest integer, halfway cases away from zero, as an `i64`.
#[device]
pub fn lroundf(x: f32) -> i64 {
    x.round() as i64
}

/// `llround(x)`: the same as `lround`.
#[device]
pub fn llroundf(x: f32) -> i64 {
    x.round() as i64
}

/// `scalbln(x, n)`: `x 2^n` rounded once, `n` a `long`.
#[device]
pub fn scalblnf(x: f32, n: i64) -> f32 {
    ldexp(x, n.clamp(-512, 512) as i32)
}
