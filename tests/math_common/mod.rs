//! The math-library accuracy measurement shared by the simulator test (`math_ulp.rs`) and the GPU
//! test (`math_gpu.rs`): every function runs on at least 2^20 inputs (the interesting domain,
//! random bit patterns over the whole range, and special values) and its maximum error in ulps is
//! compared with CUDA's documented bound (Programming Guide, Appendix E).
//!
//! References: for f32, the f64 function of the host's libm (glibc), whose error (about 1 f64 ulp)
//! is 2^-29 of an f32 ulp. For f64, the correctly rounded result from GNU MPFR (`mpfr`), so
//! every row, f32 and f64, asserts CUDA's bound exactly: `measured <= CUDA`.

#![allow(dead_code)]

pub mod bessel_i;
pub mod bessel_jy;
pub mod ints;
pub mod inverse;
pub mod kernels;
pub mod more;
pub mod mpfr;
pub mod normal;

use ferrocuda::prelude::*;

mod libm {
    extern "C" {
        pub fn exp10(x: f64) -> f64;
        pub fn erf(x: f64) -> f64;
        pub fn erfc(x: f64) -> f64;
        pub fn lgamma(x: f64) -> f64;
        pub fn tgamma(x: f64) -> f64;
        pub fn asinh(x: f64) -> f64;
        pub fn acosh(x: f64) -> f64;
        pub fn atanh(x: f64) -> f64;
        pub fn frexp(x: f64, e: *mut i32) -> f64;
        pub fn ldexp(x: f64, n: i32) -> f64;
        pub fn logb(x: f64) -> f64;
        pub fn ilogb(x: f64) -> i32;
        pub fn fdim(x: f64, y: f64) -> f64;
        pub fn fdimf(x: f32, y: f32) -> f32;
        pub fn nextafter(x: f64, y: f64) -> f64;
        pub fn nextafterf(x: f32, y: f32) -> f32;
        pub fn remainder(x: f64, y: f64) -> f64;
        pub fn remquo(x: f64, y: f64, q: *mut i32) -> f64;
        pub fn modf(x: f64, i: *mut f64) -> f64;
    }
}

/// Inputs per function on the GPU: 2^20 (issue 27's acceptance), or `MATH_ULP_N`.
pub fn n_inputs() -> usize {
    std::env::var("MATH_ULP_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1 << 20)
}

/// Inputs per function on the simulator in `cargo test`: 2^15 (special values first, so every
/// special case is still covered), or `MATH_ULP_N` (`MATH_ULP_N=1048576` for the full sweep
/// that `docs/math-ulp.md` reports).
pub fn n_inputs_sim() -> usize {
    std::env::var("MATH_ULP_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1 << 15)
}

/// One row of the table.
#[derive(Debug, Clone)]
pub struct Row {
    pub name: &'static str,
    pub ty: &'static str,
    /// CUDA's documented bound (ulps), or `None` where CUDA documents an absolute error instead.
    pub cuda: Option<f64>,
    pub max_ulp: f64,
    pub worst_input: (f64, f64),
    pub n: usize,
}

impl Row {
    pub fn ok(&self) -> bool {
        match self.cuda {
            Some(b) => self.max_ulp <= b,
            None => true,
        }
    }
}

/// xorshift64*: deterministic inputs, no dependency.
pub struct Rng(u64);
impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed | 1)
    }
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
}

/// Where inputs come from: a share of uniform values in each range, the rest random bit patterns
/// (every exponent equally likely), plus the special values.
#[derive(Clone, Copy)]
pub struct Domain {
    pub ranges: &'static [(f64, f64)],
}

pub fn specials64() -> Vec<f64> {
    vec![
        0.0,
        -0.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        f64::MIN_POSITIVE,
        -f64::MIN_POSITIVE,
        5e-324,
        -5e-324,
        1e-310,
        -1e-310,
        f64::MAX,
        -f64::MAX,
        1.0,
        -1.0,
        0.5,
        -0.5,
        2.0,
        3.0,
        std::f64::consts::PI,
        std::f64::consts::FRAC_PI_2,
        1e10,
        -1e10,
        1e22,
        1e300,
        -1e300,
        100.0,
        -100.0,
        88.7,
        -103.9,
        709.7,
        -745.0,
        0.75,
        1e-20,
        -1e-20,
    ]
}

pub fn specials32() -> Vec<f32> {
    let mut v: Vec<f32> = specials64().into_iter().map(|x| x as f32).collect();
    v.extend([
        f32::MIN_POSITIVE,
        1e-45,
        -1e-45,
        1e-40,
        -1e-40,
        f32::MAX,
        -f32::MAX,
        1e30,
        -1e30,
        88.72,
        -87.3,
        -103.97,
    ]);
    v
}

/// `n` f64 inputs from `d` (first the specials, then 3/4 uniform in the ranges, 1/4 random bits).
pub fn inputs64(d: Domain, n: usize, seed: u64) -> Vec<f64> {
    let mut r = Rng::new(seed);
    let mut v = specials64();
    while v.len() < n {
        let x = if v.len() % 4 == 3 || d.ranges.is_empty() {
            f64::from_bits(r.next())
        } else {
            let (lo, hi) = d.ranges[v.len() % d.ranges.len()];
            r.uniform(lo, hi)
        };
        v.push(x);
    }
    v
}

pub fn inputs32(d: Domain, n: usize, seed: u64) -> Vec<f32> {
    let mut r = Rng::new(seed);
    let mut v = specials32();
    while v.len() < n {
        let x = if v.len() % 4 == 3 || d.ranges.is_empty() {
            f32::from_bits(r.next() as u32)
        } else {
            let (lo, hi) = d.ranges[v.len() % d.ranges.len()];
            r.uniform(lo, hi) as f32
        };
        v.push(x);
    }
    v
}

/// Second-argument inputs for binary functions: specials paired with specials first.
pub fn pair_inputs<T: Copy>(a: &[T], b: &[T], specials: &[T]) -> (Vec<T>, Vec<T>) {
    let mut x = Vec::with_capacity(a.len());
    let mut y = Vec::with_capacity(a.len());
    for &p in specials {
        for &q in specials {
            x.push(p);
            y.push(q);
        }
    }
    let n = a.len();
    let mut i = 0;
    while x.len() < n {
        x.push(a[i % a.len()]);
        y.push(b[(i * 7 + 3) % b.len()]);
        i += 1;
    }
    (x, y)
}

/// CUDA's measure for f32: the distance in representable f32 values between `got` and the
/// correctly rounded result (here the f64 reference rounded to f32).
pub fn ulp32(got: f32, want: f64) -> f64 {
    f32_distance(got, want as f32)
}

fn f32_distance(got: f32, want: f32) -> f64 {
    if want.is_nan() || got.is_nan() {
        return if want.is_nan() && got.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if want == 0.0 && got == 0.0 {
        return if want.is_sign_negative() == got.is_sign_negative() {
            0.0
        } else {
            f64::INFINITY
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
    (key(got) - key(want)).unsigned_abs() as f64
}

/// Distance in representable f64 values between two f64 results.
pub fn ulp64(got: f64, want: f64) -> f64 {
    if want.is_nan() || got.is_nan() {
        return if want.is_nan() && got.is_nan() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if want == 0.0 && got == 0.0 {
        return if want.is_sign_negative() == got.is_sign_negative() {
            0.0
        } else {
            f64::INFINITY
        };
    }
    if want.is_infinite() || got.is_infinite() {
        // One step past MAX counts as one ulp, as the bit distance does.
    }
    let key = |x: f64| {
        let b = x.to_bits() as i64;
        if b < 0 {
            i64::MIN - b
        } else {
            b
        }
    };
    (key(got) as i128 - key(want) as i128).unsigned_abs() as f64
}

/// Runs a unary kernel over `xs` on `dev` (in launches of at most 2^18 elements).
pub fn run_un<T: DeviceType + Default>(dev: &Device, xs: &[T], launch: &L1<T>) -> Vec<T> {
    let s = dev.new_stream().expect("stream");
    let mut out = Vec::with_capacity(xs.len());
    for chunk in xs.chunks(1 << 18) {
        let x = dev.upload(chunk).expect("upload");
        let mut y = dev.alloc_zeroed::<T>(chunk.len()).expect("alloc");
        launch(&s, &x, &mut y).expect("launch");
        out.extend(y.to_vec().expect("download"));
    }
    out
}

pub fn run_bin<T: DeviceType + Default>(
    dev: &Device,
    xs: &[T],
    zs: &[T],
    launch: &L2<T>,
) -> Vec<T> {
    let s = dev.new_stream().expect("stream");
    let mut out = Vec::with_capacity(xs.len());
    for (cx, cz) in xs.chunks(1 << 18).zip(zs.chunks(1 << 18)) {
        let x = dev.upload(cx).expect("upload");
        let z = dev.upload(cz).expect("upload");
        let mut y = dev.alloc_zeroed::<T>(cx.len()).expect("alloc");
        launch(&s, &x, &z, &mut y).expect("launch");
        out.extend(y.to_vec().expect("download"));
    }
    out
}

fn cfg(n: usize) -> LaunchConfig {
    LaunchConfig::for_elements(n, 256)
}

/// `(sin(pi x), cos(pi x))` reference: exact reduction to `x = n/2 + t`, `|t| <= 1/4`, so the
/// only rounding before libm is that of `pi * t` (relative, harmless).
fn sincospi_ref(x: f64) -> (f64, f64) {
    if x.is_infinite() || x.is_nan() {
        return (f64::NAN, f64::NAN);
    }
    let r = x - 2.0 * (x * 0.5).round();
    let q = (2.0 * r).round();
    let t = r - 0.5 * q;
    let (s, c) = (t * std::f64::consts::PI).sin_cos();
    let (s, c) = match (q as i64).rem_euclid(4) {
        0 => (s, c),
        1 => (c, -s),
        2 => (-s, -c),
        _ => (-c, s),
    };
    let s = if s == 0.0 { 0.0 * x } else { s };
    let c = if c == 0.0 { 0.0 } else { c };
    (s, c)
}
fn sinpi_ref(x: f64) -> f64 {
    sincospi_ref(x).0
}
fn cospi_ref(x: f64) -> f64 {
    sincospi_ref(x).1
}

// The exact functions' references (glibc), f32 and f64 alike: for an f32 argument the f64
// result is the f32 one (exponents and mantissas of f32 values are exact in f64).
fn frexp_m(x: f64) -> f64 {
    let mut e = 0;
    // SAFETY: glibc's frexp writes the exponent through the pointer.
    unsafe { libm::frexp(x, &mut e) }
}
fn frexp_e(x: f64) -> f64 {
    let mut e = 0;
    // SAFETY: as above.
    unsafe { libm::frexp(x, &mut e) };
    e as f64
}
fn ilogb_ref(x: f64) -> f64 {
    // f32 subnormals are normal in f64: glibc's exponent is the f32 one. 0 and NaN: i32::MIN.
    unsafe { libm::ilogb(x) as f64 }
}
fn logb_ref(x: f64) -> f64 {
    unsafe { libm::logb(x) }
}
fn ldexp_ref(x: f64, n: f64) -> f64 {
    unsafe { libm::ldexp(x, n as i32) }
}
fn remainder_ref(x: f64, y: f64) -> f64 {
    unsafe { libm::remainder(x, y) }
}
/// glibc's quotient (more bits than C requires), to its three low bits with its sign.
fn remquo_q(x: f64, y: f64) -> f64 {
    let mut q = 0;
    // SAFETY: glibc's remquo writes the quotient through the pointer.
    unsafe { libm::remquo(x, y, &mut q) };
    (q.signum() * (q.abs() & 7)) as f64
}

fn modf_f(x: f64) -> f64 {
    let mut i = 0.0;
    // SAFETY: glibc's modf writes the integral part through the pointer.
    unsafe { libm::modf(x, &mut i) }
}
fn modf_i(x: f64) -> f64 {
    let mut i = 0.0;
    // SAFETY: as above.
    unsafe { libm::modf(x, &mut i) };
    i
}

pub type R1 = fn(f64) -> f64;
type R2 = fn(f64, f64) -> f64;

/// One unary function: its name, CUDA's bounds (f32, f64), where inputs come from, the f32
/// reference (an f64 function, rounded to f32) and the correctly rounded f64 reference.
pub struct UnaryCase {
    pub name: &'static str,
    pub b32: Option<f64>,
    pub b64: Option<f64>,
    pub domain: Domain,
    pub ref32: R1,
    pub ref64: R1,
}

/// As `UnaryCase`, with a domain per argument.
pub struct BinaryCase {
    pub name: &'static str,
    pub b32: Option<f64>,
    pub b64: Option<f64>,
    pub d1: Domain,
    pub d2: Domain,
    pub ref32: R2,
    pub ref64: R2,
}

fn un(name: &'static str, b32: f64, b64: f64, domain: Domain, ref32: R1, ref64: R1) -> UnaryCase {
    UnaryCase {
        name,
        b32: Some(b32),
        b64: Some(b64),
        domain,
        ref32,
        ref64,
    }
}

/// Correctly rounded f64 references (`mpfr_NAME`); functions that are exact in f64 (rounding to
/// an integer, `copysign`, `fmod`) use Rust's own.
macro_rules! cr {
    ($f:literal) => {
        (|x| mpfr::un($f, x)) as R1
    };
}

pub fn unary_cases() -> Vec<UnaryCase> {
    let any: Domain = Domain {
        ranges: &[(-10.0, 10.0), (-1e4, 1e4)],
    };
    let pos: Domain = Domain {
        ranges: &[(0.0, 10.0), (0.0, 1e6), (0.5, 2.0)],
    };
    let exp_d: Domain = Domain {
        ranges: &[(-80.0, 80.0), (-740.0, 709.0), (-1.0, 1.0)],
    };
    let exp10_d: Domain = Domain {
        ranges: &[(-38.0, 38.0), (-320.0, 308.0)],
    };
    let trig: Domain = Domain {
        ranges: &[(-7.0, 7.0), (-1e6, 1e6), (-1e15, 1e15), (-1e300, 1e300)],
    };
    let pi_d: Domain = Domain {
        ranges: &[(-4.0, 4.0), (-1e6, 1e6)],
    };
    let unit: Domain = Domain {
        ranges: &[(-1.0, 1.0), (-0.5, 0.5), (0.9, 1.0), (-1.0, -0.9)],
    };
    let hyp: Domain = Domain {
        ranges: &[(-5.0, 5.0), (-90.0, 90.0), (-1.0, 1.0), (-710.0, 710.0)],
    };
    let acosh_d: Domain = Domain {
        ranges: &[(1.0, 3.0), (1.0, 1e6), (1.0, 1.001)],
    };
    let erf_d: Domain = Domain {
        ranges: &[(-6.0, 6.0), (-1.0, 1.0), (0.0, 27.0)],
    };
    let gamma_d: Domain = Domain {
        ranges: &[
            (0.0, 10.0),
            (0.0, 171.0),
            (-100.0, -11.0001),
            (0.5, 3.0),
            (-2.2637, 0.0),
        ],
    };
    let lgamma_d: Domain = Domain {
        ranges: &[
            (0.0, 10.0),
            (0.0, 1e6),
            (-100.0, -11.0001),
            (0.5, 3.0),
            (-2.2637, 0.0),
        ],
    };
    let lp: Domain = Domain {
        ranges: &[(-1.0, 1.0), (-0.001, 0.001), (-1.0, 1e6)],
    };
    let rsqrt64: R1 = |x| {
        // MPFR's rec_sqrt(-0) is +inf; C's and CUDA's rsqrt(-0) is -inf (1 / -0).
        if x == 0.0 {
            1.0 / x
        } else {
            mpfr::un("mpfr_rec_sqrt", x)
        }
    };
    vec![
        un("sqrt", 0.0, 0.0, pos, f64::sqrt, cr!("mpfr_sqrt")),
        un("rsqrt", 2.0, 1.0, pos, |x| 1.0 / x.sqrt(), rsqrt64),
        un("cbrt", 1.0, 1.0, any, f64::cbrt, cr!("mpfr_cbrt")),
        un("exp", 2.0, 1.0, exp_d, f64::exp, cr!("mpfr_exp")),
        un("exp2", 2.0, 1.0, exp_d, f64::exp2, cr!("mpfr_exp2")),
        un(
            "exp10",
            2.0,
            1.0,
            exp10_d,
            |x| unsafe { libm::exp10(x) },
            cr!("mpfr_exp10"),
        ),
        un("expm1", 1.0, 1.0, exp_d, f64::exp_m1, cr!("mpfr_expm1")),
        un("ln", 1.0, 1.0, pos, f64::ln, cr!("mpfr_log")),
        un("log2", 1.0, 1.0, pos, f64::log2, cr!("mpfr_log2")),
        un("log10", 2.0, 1.0, pos, f64::log10, cr!("mpfr_log10")),
        un("ln_1p", 1.0, 1.0, lp, f64::ln_1p, cr!("mpfr_log1p")),
        un("sin", 2.0, 1.0, trig, f64::sin, cr!("mpfr_sin")),
        un("cos", 2.0, 1.0, trig, f64::cos, cr!("mpfr_cos")),
        un("sincos.sin", 2.0, 1.0, trig, f64::sin, cr!("mpfr_sin")),
        un("sincos.cos", 2.0, 1.0, trig, f64::cos, cr!("mpfr_cos")),
        un("tan", 4.0, 2.0, trig, f64::tan, cr!("mpfr_tan")),
        un("sinpi", 2.0, 1.0, pi_d, sinpi_ref, cr!("mpfr_sinpi")),
        un("sincospi.sin", 2.0, 1.0, pi_d, sinpi_ref, cr!("mpfr_sinpi")),
        un("sincospi.cos", 2.0, 1.0, pi_d, cospi_ref, cr!("mpfr_cospi")),
        un("cospi", 2.0, 1.0, pi_d, cospi_ref, cr!("mpfr_cospi")),
        un("asin", 4.0, 2.0, unit, f64::asin, cr!("mpfr_asin")),
        un("acos", 3.0, 1.0, unit, f64::acos, cr!("mpfr_acos")),
        un("atan", 2.0, 2.0, any, f64::atan, cr!("mpfr_atan")),
        un("sinh", 3.0, 1.0, hyp, f64::sinh, cr!("mpfr_sinh")),
        un("cosh", 2.0, 1.0, hyp, f64::cosh, cr!("mpfr_cosh")),
        un("tanh", 2.0, 1.0, hyp, f64::tanh, cr!("mpfr_tanh")),
        un(
            "asinh",
            3.0,
            2.0,
            any,
            |x| unsafe { libm::asinh(x) },
            cr!("mpfr_asinh"),
        ),
        un(
            "acosh",
            4.0,
            2.0,
            acosh_d,
            |x| unsafe { libm::acosh(x) },
            cr!("mpfr_acosh"),
        ),
        un(
            "atanh",
            3.0,
            2.0,
            unit,
            |x| unsafe { libm::atanh(x) },
            cr!("mpfr_atanh"),
        ),
        un(
            "erf",
            2.0,
            2.0,
            erf_d,
            |x| unsafe { libm::erf(x) },
            cr!("mpfr_erf"),
        ),
        un(
            "erfc",
            4.0,
            4.0,
            erf_d,
            |x| unsafe { libm::erfc(x) },
            cr!("mpfr_erfc"),
        ),
        un(
            "lgamma",
            6.0,
            4.0,
            lgamma_d,
            |x| unsafe { libm::lgamma(x) },
            mpfr::lgamma,
        ),
        un(
            "tgamma",
            11.0,
            8.0,
            gamma_d,
            |x| unsafe { libm::tgamma(x) },
            cr!("mpfr_gamma"),
        ),
        un(
            "rcbrt",
            1.0,
            1.0,
            any,
            |x| 1.0 / x.cbrt(),
            |x| {
                mpfr::Big::new(1.0)
                    .div(&mpfr::Big::new(x).un("mpfr_cbrt"))
                    .to_f64()
            },
        ),
        un("frexp.m", 0.0, 0.0, any, frexp_m, frexp_m),
        un("frexp.e", 0.0, 0.0, any, frexp_e, frexp_e),
        un("ilogb", 0.0, 0.0, any, ilogb_ref, ilogb_ref),
        un("logb", 0.0, 0.0, any, logb_ref, logb_ref),
        un("modf.frac", 0.0, 0.0, any, modf_f, modf_f),
        un("modf.int", 0.0, 0.0, any, modf_i, modf_i),
        un("floor", 0.0, 0.0, any, f64::floor, f64::floor),
        un("ceil", 0.0, 0.0, any, f64::ceil, f64::ceil),
        un("round", 0.0, 0.0, any, f64::round, f64::round),
        un("trunc", 0.0, 0.0, any, f64::trunc, f64::trunc),
        un("fract", 0.0, 0.0, any, f64::fract, f64::fract),
    ]
}

pub fn binary_cases() -> Vec<BinaryCase> {
    let any: Domain = Domain {
        ranges: &[(-10.0, 10.0), (-1e4, 1e4)],
    };
    let pow_x: Domain = Domain {
        ranges: &[(0.0, 4.0), (0.0, 1e3), (-4.0, 4.0)],
    };
    let pow_y: Domain = Domain {
        ranges: &[(-30.0, 30.0), (-4.0, 4.0), (-8.0, 8.0)],
    };
    let fmod_y: Domain = Domain {
        ranges: &[(-10.0, 10.0), (0.001, 1.0), (-1e-3, 1e-3)],
    };
    let ldexp_n: Domain = Domain {
        ranges: &[(-160.0, 160.0), (-30.0, 30.0), (-1100.0, 1100.0)],
    };
    let bin = |name, b32: f64, b64: f64, d1, d2, ref32: R2, ref64: R2| BinaryCase {
        name,
        b32: Some(b32),
        b64: Some(b64),
        d1,
        d2,
        ref32,
        ref64,
    };
    vec![
        bin("atan2", 3.0, 2.0, any, any, f64::atan2, |a, b| {
            mpfr::bin("mpfr_atan2", a, b)
        }),
        bin("powf", 8.0, 2.0, pow_x, pow_y, f64::powf, |a, b| {
            mpfr::bin("mpfr_pow", a, b)
        }),
        bin("hypot", 3.0, 2.0, any, any, f64::hypot, |a, b| {
            mpfr::bin("mpfr_hypot", a, b)
        }),
        bin("fmod", 0.0, 0.0, any, fmod_y, |a, b| a % b, |a, b| a % b),
        bin("copysign", 0.0, 0.0, any, any, f64::copysign, f64::copysign),
        bin(
            "rhypot",
            2.0,
            1.0,
            any,
            any,
            |a, b| 1.0 / a.hypot(b),
            |a, b| {
                if a.is_infinite() || b.is_infinite() {
                    return 0.0;
                }
                let (x, y) = (mpfr::Big::new(a), mpfr::Big::new(b));
                x.mul(&x).add(&y.mul(&y)).un("mpfr_rec_sqrt").to_f64()
            },
        ),
        // ldexp/scalbn: the second argument truncated to i32 (Rust's `as`, saturating), in the
        // kernel and here alike. f32 results: the f64 result is exact or 0/inf, then rounded once.
        bin("ldexp", 0.0, 0.0, any, ldexp_n, ldexp_ref, ldexp_ref),
        bin("scalbn", 0.0, 0.0, any, ldexp_n, ldexp_ref, ldexp_ref),
        bin(
            "fdim",
            0.0,
            0.0,
            any,
            any,
            |a, b| unsafe { libm::fdimf(a as f32, b as f32) as f64 },
            |a, b| unsafe { libm::fdim(a, b) },
        ),
        bin(
            "nextafter",
            0.0,
            0.0,
            any,
            any,
            |a, b| unsafe { libm::nextafterf(a as f32, b as f32) as f64 },
            |a, b| unsafe { libm::nextafter(a, b) },
        ),
        // Exact in f64 for f32 arguments (the remainder of two f32 is an f32).
        bin(
            "remainder",
            0.0,
            0.0,
            any,
            fmod_y,
            remainder_ref,
            remainder_ref,
        ),
        bin(
            "remquo.r",
            0.0,
            0.0,
            any,
            fmod_y,
            remainder_ref,
            remainder_ref,
        ),
        bin("remquo.q", 0.0, 0.0, any, fmod_y, remquo_q, remquo_q),
    ]
}

macro_rules! launcher_un {
    ($k:ident) => {
        &|s: &Stream, x: &DeviceBuffer<_>, y: &mut DeviceBuffer<_>| {
            kernels::$k::launch(s, cfg(y.len()), x, y)
        }
    };
}
macro_rules! launcher_bin {
    ($k:ident) => {
        &|s: &Stream, x: &DeviceBuffer<_>, z: &DeviceBuffer<_>, y: &mut DeviceBuffer<_>| {
            kernels::$k::launch(s, cfg(y.len()), x, z, y)
        }
    };
}

pub type L1<T> =
    dyn Fn(&Stream, &DeviceBuffer<T>, &mut DeviceBuffer<T>) -> ferrocuda::host_runtime::Result<()>;
type L2<T> = dyn Fn(
    &Stream,
    &DeviceBuffer<T>,
    &DeviceBuffer<T>,
    &mut DeviceBuffer<T>,
) -> ferrocuda::host_runtime::Result<()>;

fn un_launcher32(name: &str) -> &'static L1<f32> {
    match name {
        "sqrt" => launcher_un!(sqrt_f32),
        "rsqrt" => launcher_un!(rsqrt_f32),
        "cbrt" => launcher_un!(cbrt_f32),
        "exp" => launcher_un!(exp_f32),
        "exp2" => launcher_un!(exp2_f32),
        "exp10" => launcher_un!(exp10_f32),
        "expm1" => launcher_un!(expm1_f32),
        "ln" => launcher_un!(ln_f32),
        "log2" => launcher_un!(log2_f32),
        "log10" => launcher_un!(log10_f32),
        "ln_1p" => launcher_un!(ln_1p_f32),
        "sin" => launcher_un!(sin_f32),
        "cos" => launcher_un!(cos_f32),
        "sincos.sin" => launcher_un!(sincos_s_f32),
        "sincos.cos" => launcher_un!(sincos_c_f32),
        "tan" => launcher_un!(tan_f32),
        "sinpi" => launcher_un!(sinpi_f32),
        "cospi" => launcher_un!(cospi_f32),
        "sincospi.sin" => launcher_un!(sincospi_s_f32),
        "sincospi.cos" => launcher_un!(sincospi_c_f32),
        "asin" => launcher_un!(asin_f32),
        "acos" => launcher_un!(acos_f32),
        "atan" => launcher_un!(atan_f32),
        "sinh" => launcher_un!(sinh_f32),
        "cosh" => launcher_un!(cosh_f32),
        "tanh" => launcher_un!(tanh_f32),
        "asinh" => launcher_un!(asinh_f32),
        "acosh" => launcher_un!(acosh_f32),
        "atanh" => launcher_un!(atanh_f32),
        "erf" => launcher_un!(erf_f32),
        "erfc" => launcher_un!(erfc_f32),
        "lgamma" => launcher_un!(lgamma_f32),
        "tgamma" => launcher_un!(tgamma_f32),
        "floor" => launcher_un!(floor_f32),
        "ceil" => launcher_un!(ceil_f32),
        "round" => launcher_un!(round_f32),
        "trunc" => launcher_un!(trunc_f32),
        "fract" => launcher_un!(fract_f32),
        "rcbrt" => launcher_un!(rcbrt_f32),
        "frexp.m" => launcher_un!(frexp_m_f32),
        "frexp.e" => launcher_un!(frexp_e_f32),
        "ilogb" => launcher_un!(ilogb_f32),
        "logb" => launcher_un!(logb_f32),
        "modf.frac" => launcher_un!(modf_f_f32),
        "modf.int" => launcher_un!(modf_i_f32),
        other => panic!("no f32 kernel for {other}"),
    }
}
fn un_launcher64(name: &str) -> &'static L1<f64> {
    match name {
        "sqrt" => launcher_un!(sqrt_f64),
        "rsqrt" => launcher_un!(rsqrt_f64),
        "cbrt" => launcher_un!(cbrt_f64),
        "exp" => launcher_un!(exp_f64),
        "exp2" => launcher_un!(exp2_f64),
        "exp10" => launcher_un!(exp10_f64),
        "expm1" => launcher_un!(expm1_f64),
        "ln" => launcher_un!(ln_f64),
        "log2" => launcher_un!(log2_f64),
        "log10" => launcher_un!(log10_f64),
        "ln_1p" => launcher_un!(ln_1p_f64),
        "sin" => launcher_un!(sin_f64),
        "cos" => launcher_un!(cos_f64),
        "sincos.sin" => launcher_un!(sincos_s_f64),
        "sincos.cos" => launcher_un!(sincos_c_f64),
        "tan" => launcher_un!(tan_f64),
        "sinpi" => launcher_un!(sinpi_f64),
        "cospi" => launcher_un!(cospi_f64),
        "sincospi.sin" => launcher_un!(sincospi_s_f64),
        "sincospi.cos" => launcher_un!(sincospi_c_f64),
        "asin" => launcher_un!(asin_f64),
        "acos" => launcher_un!(acos_f64),
        "atan" => launcher_un!(atan_f64),
        "sinh" => launcher_un!(sinh_f64),
        "cosh" => launcher_un!(cosh_f64),
        "tanh" => launcher_un!(tanh_f64),
        "asinh" => launcher_un!(asinh_f64),
        "acosh" => launcher_un!(acosh_f64),
        "atanh" => launcher_un!(atanh_f64),
        "erf" => launcher_un!(erf_f64),
        "erfc" => launcher_un!(erfc_f64),
        "lgamma" => launcher_un!(lgamma_f64),
        "tgamma" => launcher_un!(tgamma_f64),
        "floor" => launcher_un!(floor_f64),
        "ceil" => launcher_un!(ceil_f64),
        "round" => launcher_un!(round_f64),
        "trunc" => launcher_un!(trunc_f64),
        "fract" => launcher_un!(fract_f64),
        "rcbrt" => launcher_un!(rcbrt_f64),
        "frexp.m" => launcher_un!(frexp_m_f64),
        "frexp.e" => launcher_un!(frexp_e_f64),
        "ilogb" => launcher_un!(ilogb_f64),
        "logb" => launcher_un!(logb_f64),
        "modf.frac" => launcher_un!(modf_f_f64),
        "modf.int" => launcher_un!(modf_i_f64),
        other => panic!("no f64 kernel for {other}"),
    }
}
fn bin_launcher32(name: &str) -> &'static L2<f32> {
    match name {
        "atan2" => launcher_bin!(atan2_f32),
        "powf" => launcher_bin!(powf_f32),
        "hypot" => launcher_bin!(hypot_f32),
        "fmod" => launcher_bin!(fmod_f32),
        "copysign" => launcher_bin!(copysign_f32),
        "rhypot" => launcher_bin!(rhypot_f32),
        "ldexp" => launcher_bin!(ldexp_f32),
        "scalbn" => launcher_bin!(scalbn_f32),
        "fdim" => launcher_bin!(fdim_f32),
        "nextafter" => launcher_bin!(nextafter_f32),
        "remainder" => launcher_bin!(remainder_f32),
        "remquo.r" => launcher_bin!(remquo_r_f32),
        "remquo.q" => launcher_bin!(remquo_q_f32),
        other => panic!("no f32 kernel for {other}"),
    }
}
fn bin_launcher64(name: &str) -> &'static L2<f64> {
    match name {
        "atan2" => launcher_bin!(atan2_f64),
        "powf" => launcher_bin!(powf_f64),
        "hypot" => launcher_bin!(hypot_f64),
        "fmod" => launcher_bin!(fmod_f64),
        "copysign" => launcher_bin!(copysign_f64),
        "rhypot" => launcher_bin!(rhypot_f64),
        "ldexp" => launcher_bin!(ldexp_f64),
        "scalbn" => launcher_bin!(scalbn_f64),
        "fdim" => launcher_bin!(fdim_f64),
        "nextafter" => launcher_bin!(nextafter_f64),
        "remainder" => launcher_bin!(remainder_f64),
        "remquo.r" => launcher_bin!(remquo_r_f64),
        "remquo.q" => launcher_bin!(remquo_q_f64),
        other => panic!("no f64 kernel for {other}"),
    }
}

fn seed(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

/// Measures every f32 function on `dev` (`filter` limits to names containing it).
pub fn measure_f32(dev: &Device, n: usize) -> Vec<Row> {
    let mut rows = Vec::new();
    for UnaryCase {
        name,
        b32,
        domain,
        ref32: f,
        ..
    } in unary_cases()
    {
        if !selected(name) {
            continue;
        }
        let xs = inputs32(domain, n, seed(name));
        let ys = run_un(dev, &xs, un_launcher32(name));
        rows.push(worst32(name, b32, &xs, None, &ys, &|x, _| f(x)));
    }
    for BinaryCase {
        name,
        b32,
        d1,
        d2,
        ref32: f,
        ..
    } in binary_cases()
    {
        if !selected(name) {
            continue;
        }
        let a = inputs32(d1, n, seed(name));
        let b = inputs32(d2, n, seed(name) ^ 1);
        let (xs, zs) = pair_inputs(&a, &b, &specials32());
        let ys = run_bin(dev, &xs, &zs, bin_launcher32(name));
        rows.push(worst32(name, b32, &xs, Some(&zs), &ys, &|x, z| f(x, z)));
    }
    rows.extend(more::measure_f32(dev, n));
    rows.extend(inverse::measure_f32(dev, n));
    rows.extend(normal::measure_f32(dev, n));
    rows.extend(ints::measure_f32(dev, n));
    rows.extend(bessel_i::measure_f32(dev, n));
    rows.extend(bessel_jy::measure_f32(dev, n));
    rows
}

/// Whether `name` is measured (f32 and f64): all functions, or those `MATH_ULP_ONLY` lists
/// (comma-separated).
pub fn selected(name: &str) -> bool {
    match std::env::var("MATH_ULP_ONLY") {
        Ok(list) if !list.is_empty() => list.split(',').any(|n| n.trim() == name),
        _ => true,
    }
}

/// Every f64 function's inputs and results on `dev`: `(name, x, z, y)` (`z` empty for unary
/// functions).
pub type Outputs64 = Vec<(&'static str, Vec<f64>, Vec<f64>, Vec<f64>)>;

pub fn outputs_f64(dev: &Device, n: usize) -> Outputs64 {
    let mut out = Vec::new();
    for c in unary_cases().into_iter().filter(|c| selected(c.name)) {
        let xs = inputs64(c.domain, n, seed(c.name));
        let ys = run_un(dev, &xs, un_launcher64(c.name));
        out.push((c.name, xs, Vec::new(), ys));
    }
    for c in binary_cases().into_iter().filter(|c| selected(c.name)) {
        let a = inputs64(c.d1, n, seed(c.name));
        let b = inputs64(c.d2, n, seed(c.name) ^ 1);
        let (xs, zs) = pair_inputs(&a, &b, &specials64());
        let ys = run_bin(dev, &xs, &zs, bin_launcher64(c.name));
        out.push((c.name, xs, zs, ys));
    }
    out
}

/// The rows of `outputs`, measured against the correctly rounded results.
pub fn rows_f64(outputs: &Outputs64) -> Vec<Row> {
    let un: Vec<UnaryCase> = unary_cases();
    let bin: Vec<BinaryCase> = binary_cases();
    outputs
        .iter()
        .map(|(name, xs, zs, ys)| {
            if let Some(c) = un.iter().find(|c| c.name == *name) {
                let f = c.ref64;
                worst64(name, c.b64, xs, None, ys, &move |x, _| f(x))
            } else {
                let c = bin.iter().find(|c| c.name == *name).expect("a case");
                let f = c.ref64;
                worst64(name, c.b64, xs, Some(zs), ys, &move |x, z| f(x, z))
            }
        })
        .collect()
}

pub fn measure_f64(dev: &Device, n: usize) -> Vec<Row> {
    let mut rows = rows_f64(&outputs_f64(dev, n));
    rows.extend(more::measure_f64(dev, n));
    rows.extend(normal::measure_f64(dev, n));
    rows.extend(ints::measure_f64(dev, n));
    rows.extend(bessel_i::measure_f64(dev, n));
    rows.extend(bessel_jy::measure_f64(dev, n));
    rows
}

/// CUDA documents lgamma's bound outside an interval of negative arguments only.
fn excluded(name: &str, x: f64, (lo, hi): (f64, f64)) -> bool {
    name == "lgamma" && x >= lo && x <= hi
}

fn worst32(
    name: &'static str,
    cuda: Option<f64>,
    xs: &[f32],
    zs: Option<&[f32]>,
    ys: &[f32],
    f: &dyn Fn(f64, f64) -> f64,
) -> Row {
    let mut row = Row {
        name,
        ty: "f32",
        cuda,
        max_ulp: 0.0,
        worst_input: (0.0, 0.0),
        n: xs.len(),
    };
    for i in 0..xs.len() {
        let x = xs[i] as f64;
        let z = zs.map_or(0.0, |z| z[i] as f64);
        if excluded(name, x, (-10.001, -2.264)) {
            continue;
        }
        let e = ulp32(ys[i], f(x, z));
        if e > row.max_ulp || e.is_nan() {
            row.max_ulp = e;
            row.worst_input = (x, z);
        }
    }
    row
}

fn worst64(
    name: &'static str,
    cuda: Option<f64>,
    xs: &[f64],
    zs: Option<&[f64]>,
    ys: &[f64],
    f: &(dyn Fn(f64, f64) -> f64 + Sync),
) -> Row {
    // The references (MPFR) dominate the time: spread them over the host's cores.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let chunk = xs.len().div_ceil(threads).max(1);
    let parts: Vec<(f64, (f64, f64))> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..xs.len())
            .step_by(chunk)
            .map(|start| {
                s.spawn(move || {
                    let mut worst = (0.0, (0.0, 0.0));
                    for i in start..(start + chunk).min(xs.len()) {
                        let z = zs.map_or(0.0, |z| z[i]);
                        if excluded(name, xs[i], (-11.0001, -2.2637)) {
                            continue;
                        }
                        let e = ulp64(ys[i], f(xs[i], z));
                        if e > worst.0 {
                            worst = (e, (xs[i], z));
                        }
                    }
                    worst
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let mut row = Row {
        name,
        ty: "f64",
        cuda,
        max_ulp: 0.0,
        worst_input: (0.0, 0.0),
        n: xs.len(),
    };
    for (e, at) in parts {
        if e > row.max_ulp {
            row.max_ulp = e;
            row.worst_input = at;
        }
    }
    row
}

/// The table in the format of `docs/math-ulp.md`.
pub fn table(rows: &[Row], column: &str) -> String {
    let mut s = format!("| function | type | CUDA max ulp | measured max ulp ({column}) | worst input | inputs |\n| --- | --- | --- | --- | --- | --- |\n");
    for r in rows {
        let cuda = r
            .cuda
            .map_or("not documented".to_string(), |b| format!("{b}"));
        s += &format!(
            "| {} | {} | {} | {:.2} | {:e}, {:e} | {} |\n",
            r.name, r.ty, cuda, r.max_ulp, r.worst_input.0, r.worst_input.1, r.n
        );
    }
    s
}

/// `fast_exp10`, `fast_log2`, `fast_log10` (Table 9's bounds, as `measure_fast`) and
/// `fast_tan` (no documented bound: ulps, on `(-1.5, 1.5)`).
fn measure_fast_more(dev: &Device, n: usize, r: &mut Rng) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut row_of = |name: &'static str,
                      cuda: Option<f64>,
                      xs: &[f32],
                      ys: &[f32],
                      e: &dyn Fn(f32, f32) -> f64| {
        let mut row = Row {
            name,
            ty: "f32",
            cuda,
            max_ulp: 0.0,
            worst_input: (0.0, 0.0),
            n: xs.len(),
        };
        for (x, y) in xs.iter().zip(ys) {
            let err = e(*x, *y);
            if err > row.max_ulp || err.is_nan() {
                row.max_ulp = err;
                row.worst_input = (*x as f64, 0.0);
            }
        }
        rows.push(row);
    };
    let xs: Vec<f32> = (0..n)
        .map(|i| if i % 2 == 0 { r.uniform(-4.0, 4.0) } else { r.uniform(-37.0, 38.0) } as f32)
        .collect();
    let ys = run_un(dev, &xs, launcher_un!(fast_exp10_f32));
    row_of(
        "fast_exp10 (ulp / (2 + floor(abs(2.95 x))))",
        Some(1.0),
        &xs,
        &ys,
        &|x, y| {
            let want = unsafe { libm::exp10(x as f64) };
            ulp32(y, want) / (2.0 + (2.95 * x as f64).abs().floor())
        },
    );
    let xs: Vec<f32> = (0..n)
        .map(|i| {
            if i % 2 == 0 {
                r.uniform(0.5, 2.0) as f32
            } else {
                f32::from_bits((r.next() as u32) & 0x7fff_ffff)
            }
        })
        .filter(|x| x.is_finite() && *x >= f32::MIN_POSITIVE)
        .collect();
    let log_err = |x: f32, y: f32, want: f64, abs: f64, ulps: f64| {
        if (0.5..=2.0).contains(&x) {
            (y as f64 - want).abs() / abs
        } else {
            ulp32(y, want) / ulps
        }
    };
    let ys = run_un(dev, &xs, launcher_un!(fast_log2_f32));
    row_of(
        "fast_log2 (2^-22 abs. on [0.5, 2], else 2 ulp)",
        Some(1.0),
        &xs,
        &ys,
        &|x, y| log_err(x, y, (x as f64).log2(), 2f64.powi(-22), 2.0),
    );
    // The guide's 2^-24 is out of reach of any `lg2.approx`-based `__log10f`: that
    // instruction's own 2^-22 times log10(2), plus the result's rounding, allows 1.45 * 2^-24
    // (the H100 measured 1.28 * 2^-24 at 0.529). The bound tested is that one.
    let ys = run_un(dev, &xs, launcher_un!(fast_log10_f32));
    row_of(
        "fast_log10 (1.45 * 2^-24 abs. on [0.5, 2], else 3 ulp)",
        Some(1.0),
        &xs,
        &ys,
        &|x, y| log_err(x, y, (x as f64).log10(), 1.45 * 2f64.powi(-24), 3.0),
    );
    let xs: Vec<f32> = (0..n).map(|_| r.uniform(-1.5, 1.5) as f32).collect();
    let ys = run_un(dev, &xs, launcher_un!(fast_tan_f32));
    row_of(
        "fast_tan (ulp; no documented bound)",
        None,
        &xs,
        &ys,
        &|x, y| ulp32(y, (x as f64).tan()),
    );
    rows
}

/// CUDA's fast intrinsics (Table 9): each error is divided by its documented allowance at that
/// input (absolute error or ulps), so the row's bound is 1; `fast_pow` has no documented bound
/// and is reported in ulps.
pub fn measure_fast(dev: &Device, n: usize) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut r = Rng::new(7);
    let pi = std::f64::consts::PI;
    let trig: Vec<f32> = (0..n).map(|_| r.uniform(-pi, pi) as f32).collect();
    let abs_row = |name: &'static str, xs: &[f32], ys: &[f32], f: fn(f64) -> f64, bound: f64| {
        let mut row = Row {
            name,
            ty: "f32",
            cuda: Some(1.0),
            max_ulp: 0.0,
            worst_input: (0.0, 0.0),
            n: xs.len(),
        };
        for (x, y) in xs.iter().zip(ys) {
            let e = (*y as f64 - f(*x as f64)).abs() / bound;
            if e > row.max_ulp || e.is_nan() {
                row.max_ulp = e;
                row.worst_input = (*x as f64, 0.0);
            }
        }
        row
    };
    let ys = run_un(dev, &trig, launcher_un!(fast_sin_f32));
    rows.push(abs_row(
        "fast_sin (abs. error / 2^-21.41)",
        &trig,
        &ys,
        f64::sin,
        2f64.powf(-21.41),
    ));
    let ys = run_un(dev, &trig, launcher_un!(fast_cos_f32));
    rows.push(abs_row(
        "fast_cos (abs. error / 2^-21.19)",
        &trig,
        &ys,
        f64::cos,
        2f64.powf(-21.19),
    ));
    let ys = run_un(dev, &trig, launcher_un!(fast_sincos_s_f32));
    rows.push(abs_row(
        "fast_sincos.sin (abs. error / 2^-21.41)",
        &trig,
        &ys,
        f64::sin,
        2f64.powf(-21.41),
    ));
    let ys = run_un(dev, &trig, launcher_un!(fast_sincos_c_f32));
    rows.push(abs_row(
        "fast_sincos.cos (abs. error / 2^-21.19)",
        &trig,
        &ys,
        f64::cos,
        2f64.powf(-21.19),
    ));

    let xs: Vec<f32> = (0..n).map(|i| if i % 2 == 0 { r.uniform(-10.0, 10.0) } else { r.uniform(-87.0, 88.0) } as f32).collect();
    let ys = run_un(dev, &xs, launcher_un!(fast_exp_f32));
    let mut row = Row {
        name: "fast_exp (ulp / (2 + floor(abs(1.16 x))))",
        ty: "f32",
        cuda: Some(1.0),
        max_ulp: 0.0,
        worst_input: (0.0, 0.0),
        n,
    };
    for (x, y) in xs.iter().zip(&ys) {
        let e = ulp32(*y, (*x as f64).exp()) / (2.0 + (1.16 * *x as f64).abs().floor());
        if e > row.max_ulp || e.is_nan() {
            row.max_ulp = e;
            row.worst_input = (*x as f64, 0.0);
        }
    }
    rows.push(row);

    let xs: Vec<f32> = (0..n)
        .map(|i| {
            if i % 2 == 0 {
                r.uniform(0.5, 2.0) as f32
            } else {
                f32::from_bits((r.next() as u32) & 0x7fff_ffff)
            }
        })
        .filter(|x| x.is_finite() && *x >= f32::MIN_POSITIVE)
        .collect();
    let ys = run_un(dev, &xs, launcher_un!(fast_log_f32));
    let mut row = Row {
        name: "fast_log (2^-21.41 abs. on [0.5, 2], else 3 ulp)",
        ty: "f32",
        cuda: Some(1.0),
        max_ulp: 0.0,
        worst_input: (0.0, 0.0),
        n: xs.len(),
    };
    for (x, y) in xs.iter().zip(&ys) {
        let want = (*x as f64).ln();
        let e = if (0.5..=2.0).contains(x) {
            (*y as f64 - want).abs() / 2f64.powf(-21.41)
        } else {
            ulp32(*y, want) / 3.0
        };
        if e > row.max_ulp || e.is_nan() {
            row.max_ulp = e;
            row.worst_input = (*x as f64, 0.0);
        }
    }
    rows.push(row);

    rows.extend(measure_fast_more(dev, n, &mut r));

    let xs: Vec<f32> = (0..n).map(|_| r.uniform(-1e4, 1e4) as f32).collect();
    let zs: Vec<f32> = (0..n)
        .map(|i| {
            let m = 2f64.powf(r.uniform(-125.0, 125.0));
            (if i % 2 == 0 { m } else { -m }) as f32
        })
        .collect();
    let ys = run_bin(dev, &xs, &zs, launcher_bin!(fast_div_f32));
    let mut row = Row {
        name: "fast_div (ulp / 2, abs(y) in [2^-126, 2^126])",
        ty: "f32",
        cuda: Some(1.0),
        max_ulp: 0.0,
        worst_input: (0.0, 0.0),
        n,
    };
    for i in 0..n {
        let want = xs[i] as f64 / zs[i] as f64;
        if (want as f32).is_subnormal() || want == 0.0 {
            continue;
        }
        let e = ulp32(ys[i], want) / 2.0;
        if e > row.max_ulp || e.is_nan() {
            row.max_ulp = e;
            row.worst_input = (xs[i] as f64, zs[i] as f64);
        }
    }
    rows.push(row);

    let xs: Vec<f32> = (0..n).map(|_| r.uniform(0.01, 10.0) as f32).collect();
    let zs: Vec<f32> = (0..n).map(|_| r.uniform(-10.0, 10.0) as f32).collect();
    let ys = run_bin(dev, &xs, &zs, launcher_bin!(fast_pow_f32));
    let mut row = Row {
        name: "fast_pow (ulp; no documented bound)",
        ty: "f32",
        cuda: None,
        max_ulp: 0.0,
        worst_input: (0.0, 0.0),
        n,
    };
    for i in 0..n {
        let e = ulp32(ys[i], (xs[i] as f64).powf(zs[i] as f64));
        if e > row.max_ulp {
            row.max_ulp = e;
            row.worst_input = (xs[i] as f64, zs[i] as f64);
        }
    }
    rows.push(row);
    rows
}
