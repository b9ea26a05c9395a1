//! One kernel per (function, type): `y[i] = f(x[i])` or `y[i] = f(x[i], z[i])`.

use ferrocuda::prelude::*;

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
macro_rules! bin {
    ($($name:ident, $t:ty, |$x:ident, $z:ident| $e:expr;)*) => {$(
        #[kernel]
        pub fn $name(x: &[$t], z: &[$t], y: &mut [$t]) {
            let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
            if i < y.len() {
                let $x = x[i];
                let $z = z[i];
                y[i] = $e;
            }
        }
    )*};
}

/// Both types at once: `k_NAME_f32` and `k_NAME_f64`.
macro_rules! un2 {
    ($($n32:ident, $n64:ident, |$x:ident| $e:expr;)*) => {$(
        un!($n32, f32, |$x| $e; $n64, f64, |$x| $e;);
    )*};
}
macro_rules! bin2 {
    ($($n32:ident, $n64:ident, |$x:ident, $z:ident| $e:expr;)*) => {$(
        bin!($n32, f32, |$x, $z| $e; $n64, f64, |$x, $z| $e;);
    )*};
}

un2! {
    sqrt_f32, sqrt_f64, |v| v.sqrt();
    rsqrt_f32, rsqrt_f64, |v| rsqrt(v);
    cbrt_f32, cbrt_f64, |v| v.cbrt();
    exp_f32, exp_f64, |v| v.exp();
    exp2_f32, exp2_f64, |v| v.exp2();
    exp10_f32, exp10_f64, |v| exp10(v);
    expm1_f32, expm1_f64, |v| v.exp_m1();
    ln_f32, ln_f64, |v| v.ln();
    log2_f32, log2_f64, |v| v.log2();
    log10_f32, log10_f64, |v| v.log10();
    ln_1p_f32, ln_1p_f64, |v| v.ln_1p();
    sin_f32, sin_f64, |v| v.sin();
    cos_f32, cos_f64, |v| v.cos();
    sincos_s_f32, sincos_s_f64, |v| { let (s, _c) = v.sin_cos(); s };
    sincos_c_f32, sincos_c_f64, |v| { let (_s, c) = sincos(v); c };
    tan_f32, tan_f64, |v| v.tan();
    sinpi_f32, sinpi_f64, |v| sinpi(v);
    sincospi_s_f32, sincospi_s_f64, |v| { let (s, _c) = sincospi(v); s };
    sincospi_c_f32, sincospi_c_f64, |v| { let (_s, c) = sincospi(v); c };
    cospi_f32, cospi_f64, |v| cospi(v);
    asin_f32, asin_f64, |v| v.asin();
    acos_f32, acos_f64, |v| v.acos();
    atan_f32, atan_f64, |v| v.atan();
    sinh_f32, sinh_f64, |v| v.sinh();
    cosh_f32, cosh_f64, |v| v.cosh();
    tanh_f32, tanh_f64, |v| v.tanh();
    asinh_f32, asinh_f64, |v| v.asinh();
    acosh_f32, acosh_f64, |v| v.acosh();
    atanh_f32, atanh_f64, |v| v.atanh();
    erf_f32, erf_f64, |v| erf(v);
    erfc_f32, erfc_f64, |v| erfc(v);
    lgamma_f32, lgamma_f64, |v| lgamma(v);
    tgamma_f32, tgamma_f64, |v| tgamma(v);
    floor_f32, floor_f64, |v| v.floor();
    ceil_f32, ceil_f64, |v| v.ceil();
    round_f32, round_f64, |v| v.round();
    trunc_f32, trunc_f64, |v| v.trunc();
    fract_f32, fract_f64, |v| v.fract();
    rcbrt_f32, rcbrt_f64, |v| rcbrt(v);
    frexp_m_f32, frexp_m_f64, |v| frexp(v).0;
    logb_f32, logb_f64, |v| logb(v);
    modf_f_f32, modf_f_f64, |v| modf(v).0;
    modf_i_f32, modf_i_f64, |v| modf(v).1;
}

bin2! {
    atan2_f32, atan2_f64, |a, b| a.atan2(b);
    powf_f32, powf_f64, |a, b| a.powf(b);
    hypot_f32, hypot_f64, |a, b| a.hypot(b);
    fmod_f32, fmod_f64, |a, b| a % b;
    copysign_f32, copysign_f64, |a, b| a.copysign(b);
    rhypot_f32, rhypot_f64, |a, b| rhypot(a, b);
    ldexp_f32, ldexp_f64, |a, b| ldexp(a, b as i32);
    scalbn_f32, scalbn_f64, |a, b| scalbn(a, b as i32);
    fdim_f32, fdim_f64, |a, b| fdim(a, b);
    nextafter_f32, nextafter_f64, |a, b| nextafter(a, b);
    remainder_f32, remainder_f64, |a, b| remainder(a, b);
    remquo_r_f32, remquo_r_f64, |a, b| remquo(a, b).0;
}

// The `i32` results, as floats (exact for these values).
un! {
    frexp_e_f32, f32, |v| frexp(v).1 as f32;
    frexp_e_f64, f64, |v| frexp(v).1 as f64;
    ilogb_f32, f32, |v| ilogb(v) as f32;
    ilogb_f64, f64, |v| ilogb(v) as f64;
}
bin! {
    remquo_q_f32, f32, |a, b| remquo(a, b).1 as f32;
    remquo_q_f64, f64, |a, b| remquo(a, b).1 as f64;
}

un! {
    fast_sin_f32, f32, |v| fast_sin(v);
    fast_cos_f32, f32, |v| fast_cos(v);
    fast_exp_f32, f32, |v| fast_exp(v);
    fast_log_f32, f32, |v| fast_log(v);
    fast_tan_f32, f32, |v| fast_tan(v);
    fast_log2_f32, f32, |v| fast_log2(v);
    fast_log10_f32, f32, |v| fast_log10(v);
    fast_exp10_f32, f32, |v| fast_exp10(v);
    fast_sincos_s_f32, f32, |v| fast_sincos(v).0;
    fast_sincos_c_f32, f32, |v| fast_sincos(v).1;
}
bin! {
    fast_div_f32, f32, |a, b| fast_div(a, b);
    fast_pow_f32, f32, |a, b| fast_pow(a, b);
}
