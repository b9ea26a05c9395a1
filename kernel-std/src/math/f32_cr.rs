//! The correctly rounded f32 variants (`exp_cr`, `sin_cr`, ...): each evaluates its f64 twin on the
//! widened argument and rounds once. Every f64 kernel is accurate to a few f64 ulps, far below
//! half an f32 ulp, so the results are correctly rounded except in rare near-halfway cases. The
//! price is f64 arithmetic: on sm_80/sm_90 data-center GPUs f64 runs at half the f32 rate and
//! `div.rn.f64`/`sqrt.rn.f64` are long sequences (measured: 2 to 10 times the time of the f32
//! functions of `f32_*`, far more on GPUs whose f64 rate is 1/64 of f32).

use kernel_macros::device;

#[device]
pub fn cbrt(x: f32) -> f32 {
    super::f64_misc::cbrt(x as f64) as f32
}

#[device]
pub fn exp(x: f32) -> f32 {
    super::f64_exp_log::exp(x as f64) as f32
}

#[device]
pub fn exp2(x: f32) -> f32 {
    super::f64_exp_log::exp2(x as f64) as f32
}

#[device]
pub fn exp10(x: f32) -> f32 {
    super::f64_exp_log::exp10(x as f64) as f32
}

#[device]
pub fn expm1(x: f32) -> f32 {
    super::f64_exp_log::expm1(x as f64) as f32
}

#[device]
pub fn ln(x: f32) -> f32 {
    super::f64_exp_log::ln(x as f64) as f32
}

#[device]
pub fn log2(x: f32) -> f32 {
    super::f64_exp_log::log2(x as f64) as f32
}

#[device]
pub fn log10(x: f32) -> f32 {
    super::f64_exp_log::log10(x as f64) as f32
}

#[device]
pub fn ln_1p(x: f32) -> f32 {
    super::f64_exp_log::ln_1p(x as f64) as f32
}

#[device]
pub fn sin(x: f32) -> f32 {
    super::f64_trig::sin(x as f64) as f32
}

#[device]
pub fn cos(x: f32) -> f32 {
    super::f64_trig::cos(x as f64) as f32
}

#[device]
pub fn tan(x: f32) -> f32 {
    super::f64_trig::tan(x as f64) as f32
}

#[device]
pub fn sinpi(x: f32) -> f32 {
    super::f64_trig::sinpi(x as f64) as f32
}

#[device]
pub fn cospi(x: f32) -> f32 {
    super::f64_trig::cospi(x as f64) as f32
}

#[device]
pub fn asin(x: f32) -> f32 {
    super::f64_inv_trig::asin(x as f64) as f32
}

#[device]
pub fn acos(x: f32) -> f32 {
    super::f64_inv_trig::acos(x as f64) as f32
}

#[device]
pub fn atan(x: f32) -> f32 {
    super::f64_inv_trig::atan(x as f64) as f32
}

#[device]
pub fn sinh(x: f32) -> f32 {
    super::f64_hyp::sinh(x as f64) as f32
}

#[device]
pub fn cosh(x: f32) -> f32 {
    super::f64_hyp::cosh(x as f64) as f32
}

#[device]
pub fn tanh(x: f32) -> f32 {
    super::f64_hyp::tanh(x as f64) as f32
}

#[device]
pub fn asinh(x: f32) -> f32 {
    super::f64_hyp::asinh(x as f64) as f32
}

#[device]
pub fn acosh(x: f32) -> f32 {
    super::f64_hyp::acosh(x as f64) as f32
}

#[device]
pub fn atanh(x: f32) -> f32 {
    super::f64_hyp::atanh(x as f64) as f32
}

#[device]
pub fn erf(x: f32) -> f32 {
    super::f64_special::erf(x as f64) as f32
}

#[device]
pub fn erfc(x: f32) -> f32 {
    super::f64_special::erfc(x as f64) as f32
}

#[device]
pub fn lgamma(x: f32) -> f32 {
    super::f64_special::lgamma(x as f64) as f32
}

#[device]
pub fn tgamma(x: f32) -> f32 {
    super::f64_special::tgamma(x as f64) as f32
}

#[device]
pub fn atan2(x: f32, y: f32) -> f32 {
    super::f64_inv_trig::atan2(x as f64, y as f64) as f32
}

#[device]
pub fn powf(x: f32, y: f32) -> f32 {
    super::f64_pow::powf(x as f64, y as f64) as f32
}

#[device]
pub fn fmod(x: f32, y: f32) -> f32 {
    super::f64_misc::fmod(x as f64, y as f64) as f32
}

#[device]
pub fn rsqrt(x: f32) -> f32 {
    (1.0 / (x as f64).sqrt()) as f32
}

/// Exact in f64 (squares of f32 values and their sum carry at most 49 + 1 bits... rounded once),
/// then a correctly rounded f64 square root and one rounding to f32.
#[device]
pub fn hypot(x: f32, y: f32) -> f32 {
    let (a, b) = (x as f64, y as f64);
    if a.abs() == f64::INFINITY || b.abs() == f64::INFINITY {
        return f32::INFINITY;
    }
    (a * a + b * b).sqrt() as f32
}

#[device]
pub fn copysign(x: f32, y: f32) -> f32 {
    f32::from_bits((x.to_bits() & 0x7fff_ffff) | (y.to_bits() & 0x8000_0000))
}

#[device]
pub fn sincos(x: f32) -> (f32, f32) {
    let (s, c) = super::f64_trig::sincos(x as f64);
    (s as f32, c as f32)
}

#[device]
pub fn sincospi(x: f32) -> (f32, f32) {
    let (s, c) = super::f64_trig::sincospi(x as f64);
    (s as f32, c as f32)
}
