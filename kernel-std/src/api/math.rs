//! Device API: math (CUDA C Programming Guide B.7 and Appendix E).
//!
//! Functions Rust's `f32`/`f64` already have are used as methods, with Rust's names and argument
//! order: `x.sin()`, `x.sin_cos()`, `y.atan2(x)`, `x.powf(y)`, `x.powi(n)`, `x.hypot(y)`,
//! `x.exp()`, `x.exp_m1()`, `x.ln()`, `x.ln_1p()`, `x.cbrt()`, `x.copysign(y)`, `x.mul_add(y, z)`,
//! `x % y`... The free functions below are CUDA's names that Rust lacks; the generic ones take
//! `f32` or `f64`, the `fast_*` ones `f32` only. Accuracy: `docs/math-ulp.md`.

use super::{device_only, Float};

macro_rules! float_fns {
    ($($(#[$m:meta])* $name:ident($($arg:ident),*);)*) => {$(
        device_intrinsic!(
            $(#[$m])*
            pub fn $name<T: Float>($($arg: T),*) -> T
        );
    )*};
}

float_fns! {
    /// `rsqrt(x)`: `1 / sqrt(x)`.
    rsqrt(x);
    /// `exp10(x)`: `10^x`.
    exp10(x);
    /// `expm1(x)`: `e^x - 1` (also `x.exp_m1()`).
    expm1(x);
    /// `log1p(x)`: `ln(1 + x)` (also `x.ln_1p()`).
    log1p(x);
    /// `sinpi(x)`: `sin(pi * x)` without the rounding of `pi * x`.
    sinpi(x);
    /// `cospi(x)`: `cos(pi * x)`.
    cospi(x);
    /// `erf(x)`: the error function.
    erf(x);
    /// `erfc(x)`: `1 - erf(x)` without cancellation.
    erfc(x);
    /// `lgamma(x)`: `ln |Gamma(x)|`.
    lgamma(x);
    /// `tgamma(x)`: `Gamma(x)`.
    tgamma(x);
    /// `fmod(x, y)`: C's `fmod`, the same as Rust's `x % y`.
    fmod(x, y);
    /// `fma(x, y, z)`: `x * y + z` rounded once (also `x.mul_add(y, z)`).
    fma(x, y, z);
    /// `__fadd_rn` / `__dadd_rn`: addition rounded to nearest even, never contracted into an fma.
    add_rn(x, y);
    /// Addition rounded toward zero.
    add_rz(x, y);
    /// Addition rounded up (toward +inf).
    add_ru(x, y);
    /// Addition rounded down (toward -inf).
    add_rd(x, y);
    /// Subtraction rounded to nearest even.
    sub_rn(x, y);
    /// Subtraction rounded toward zero.
    sub_rz(x, y);
    /// Subtraction rounded up.
    sub_ru(x, y);
    /// Subtraction rounded down.
    sub_rd(x, y);
    /// Multiplication rounded to nearest even, never contracted into an fma.
    mul_rn(x, y);
    /// Multiplication rounded toward zero.
    mul_rz(x, y);
    /// Multiplication rounded up.
    mul_ru(x, y);
    /// Multiplication rounded down.
    mul_rd(x, y);
    /// Division rounded to nearest even (what `/` does).
    div_rn(x, y);
    /// Division rounded toward zero.
    div_rz(x, y);
    /// Division rounded up.
    div_ru(x, y);
    /// Division rounded down.
    div_rd(x, y);
    /// `fma` rounded to nearest even.
    fma_rn(x, y, z);
    /// `fma` rounded toward zero.
    fma_rz(x, y, z);
    /// `fma` rounded up.
    fma_ru(x, y, z);
    /// `fma` rounded down.
    fma_rd(x, y, z);
    /// Square root rounded to nearest even (what `x.sqrt()` does).
    sqrt_rn(x);
    /// Square root rounded toward zero.
    sqrt_rz(x);
    /// Square root rounded up.
    sqrt_ru(x);
    /// Square root rounded down.
    sqrt_rd(x);
    /// `1 / x` rounded to nearest even.
    rcp_rn(x);
    /// `1 / x` rounded toward zero.
    rcp_rz(x);
    /// `1 / x` rounded up.
    rcp_ru(x);
    /// `1 / x` rounded down.
    rcp_rd(x);
}

device_intrinsic!(
    /// `sincos(x)`: `(sin x, cos x)` (also `x.sin_cos()`).
    pub fn sincos<T: Float>(x: T) -> (T, T)
);
device_intrinsic!(
    /// `sincospi(x)`: `(sin(pi x), cos(pi x))`.
    pub fn sincospi<T: Float>(x: T) -> (T, T)
);
device_intrinsic!(
    /// `__sinf(x)`: `sin.approx.f32`; absolute error 2^-21.41 on [-pi, pi], larger outside.
    pub fn fast_sin(x: f32) -> f32
);
device_intrinsic!(
    /// `__cosf(x)`: `cos.approx.f32`; absolute error 2^-21.19 on [-pi, pi], larger outside.
    pub fn fast_cos(x: f32) -> f32
);
device_intrinsic!(
    /// `__expf(x)`: `ex2.approx(x * log2 e)`; `2 + floor(|1.16 x|)` ulp.
    pub fn fast_exp(x: f32) -> f32
);
device_intrinsic!(
    /// `__logf(x)`: `lg2.approx(x) * ln 2`; absolute error 2^-21.41 on [0.5, 2], else 3 ulp.
    pub fn fast_log(x: f32) -> f32
);
device_intrinsic!(
    /// `__fdividef(x, y)`: `div.approx.f32`; 2 ulp for `|y|` in [2^-126, 2^126], 0 beyond 2^126.
    pub fn fast_div(x: f32, y: f32) -> f32
);
device_intrinsic!(
    /// `__powf(x, y)`: `ex2.approx(y * lg2.approx(x))`.
    pub fn fast_pow(x: f32, y: f32) -> f32
);

macro_rules! cr_fns {
    ($($name:ident($($arg:ident),*): $what:literal;)*) => {$(
        device_intrinsic!(
            #[doc = concat!("`", $what, "` correctly rounded (f32 only): evaluated in f64 and rounded once, at")]
            #[doc = "several times the cost of the default f32 function (see `docs/math-ulp.md`)."]
            pub fn $name($($arg: f32),*) -> f32
        );
    )*};
}

cr_fns! {
    rsqrt_cr(x): "1/sqrt(x)";
    cbrt_cr(x): "cbrt(x)";
    exp_cr(x): "e^x";
    exp2_cr(x): "2^x";
    exp10_cr(x): "10^x";
    expm1_cr(x): "e^x - 1";
    log_cr(x): "ln(x)";
    log2_cr(x): "log2(x)";
    log10_cr(x): "log10(x)";
    log1p_cr(x): "ln(1 + x)";
    sin_cr(x): "sin(x)";
    cos_cr(x): "cos(x)";
    tan_cr(x): "tan(x)";
    sinpi_cr(x): "sin(pi x)";
    cospi_cr(x): "cos(pi x)";
    asin_cr(x): "asin(x)";
    acos_cr(x): "acos(x)";
    atan_cr(x): "atan(x)";
    sinh_cr(x): "sinh(x)";
    cosh_cr(x): "cosh(x)";
    tanh_cr(x): "tanh(x)";
    asinh_cr(x): "asinh(x)";
    acosh_cr(x): "acosh(x)";
    atanh_cr(x): "atanh(x)";
    erf_cr(x): "erf(x)";
    erfc_cr(x): "erfc(x)";
    lgamma_cr(x): "lgamma(x)";
    tgamma_cr(x): "tgamma(x)";
    atan2_cr(y, x): "atan2(y, x)";
    powf_cr(x, y): "x^y";
    hypot_cr(x, y): "sqrt(x^2 + y^2)";
}

device_intrinsic!(
    /// `(sin x, cos x)` correctly rounded (f32 only; see `sin_cr`).
    pub fn sincos_cr(x: f32) -> (f32, f32)
);
device_intrinsic!(
    /// `(sin(pi x), cos(pi x))` correctly rounded (f32 only; see `sin_cr`).
    pub fn sincospi_cr(x: f32) -> (f32, f32)
);
