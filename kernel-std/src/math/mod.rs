//! The device math library (CUDA C Programming Guide B.7 / Appendix E).
//!
//! Functions that one PTX instruction computes exactly as specified (`sqrt.rn`, `fma.rn`,
//! directed-rounding `add`/`mul`/`div`/`rcp`/`sqrt`) and the `.approx` fast paths are entries of
//! the intrinsic table (`intrinsics::math`). Everything else is written here in the kernel DSL as
//! `#[device]` functions (range reduction plus polynomials), so the PTX emitter and the simulator
//! see nothing but ordinary IR arithmetic and necessarily compute the same bits.
//!
//! The f32 functions compute in f32 (`f32_*`): range reduction right for f32, polynomials, and
//! the hardware's approximate units (`ex2.approx`, `lg2.approx`, `rsqrt.approx`, `rcp.approx`,
//! see `approx`) where CUDA's own f32 library uses them, within CUDA's documented ulp bounds
//! (Appendix E; measured: `docs/math-ulp.md`). On the GPU the approximate units' last bits are
//! the hardware's; the simulator computes them correctly rounded, so functions built on them may
//! differ by an ulp or two between the two. Correctly rounded f32 variants stay available under
//! explicit names (`exp_cr`, `sin_cr`...: `f32_cr`, through f64).
//!
//! The front end reaches these through [`resolve`]: a Rust method on a float (`x.sin()`), a free
//! function of `api::math` (`rsqrt(x)`) or float `%` all name an entry there.

use kernel_ir::ast::Callable;
use kernel_ir::ir::Ty;

pub mod approx;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f32_cr;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f32_exp_log;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f32_hyp;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f32_inv_trig;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f32_misc;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f32_special;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f32_trig;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f64_exp_log;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f64_hyp;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f64_inv_trig;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f64_misc;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f64_pow;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f64_reduce;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f64_special;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f64_trig;

/// Argument/result shape of a math function (all arguments and results have the receiver's type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Unary,
    Binary,
    Ternary,
    /// One argument, two results (`sin_cos`, `sincos`, `sincospi`).
    Pair,
}

/// How the compiler lowers one math function for one float type.
#[derive(Clone, Copy, Debug)]
pub enum Impl {
    /// A `#[device]` function of this module, inlined like user device functions.
    Device(fn() -> Callable),
    /// An entry of the intrinsic table, by name.
    Intrinsic(&'static str),
}

/// Shape of the math function `name` (method or free function), `None` when it is not one.
pub fn shape(name: &str) -> Option<Shape> {
    use Shape::*;
    Some(match name {
        "rsqrt" | "cbrt" | "exp" | "exp2" | "exp10" | "exp_m1" | "expm1" | "ln" | "log2"
        | "log10" | "ln_1p" | "log1p" | "sin" | "cos" | "tan" | "sinpi" | "cospi" | "asin"
        | "acos" | "atan" | "sinh" | "cosh" | "tanh" | "asinh" | "acosh" | "atanh" | "erf"
        | "erfc" | "lgamma" | "tgamma" | "fast_sin" | "fast_cos" | "fast_exp" | "fast_log"
        | "sqrt_rn" | "sqrt_rz" | "sqrt_ru" | "sqrt_rd" | "rcp_rn" | "rcp_rz" | "rcp_ru"
        | "rcp_rd" => Unary,
        "atan2" | "powf" | "hypot" | "fmod" | "copysign" | "fast_div" | "fast_pow" | "add_rn"
        | "add_rz" | "add_ru" | "add_rd" | "sub_rn" | "sub_rz" | "sub_ru" | "sub_rd" | "mul_rn"
        | "mul_rz" | "mul_ru" | "mul_rd" | "div_rn" | "div_rz" | "div_ru" | "div_rd" => Binary,
        "fma" | "fma_rn" | "fma_rz" | "fma_ru" | "fma_rd" => Ternary,
        "sin_cos" | "sincos" | "sincospi" | "sincos_cr" | "sincospi_cr" => Pair,
        "atan2_cr" | "powf_cr" | "hypot_cr" => Binary,
        n if n.ends_with("_cr") && f32_cr_fn(n).is_some() => Unary,
        _ => return None,
    })
}

/// The implementation of `name` for `ty` (`F32` or `F64`), `None` when there is none for that type
/// (the `fast_*` functions are f32-only, as CUDA's `__sinf` family).
pub fn resolve(name: &str, ty: Ty) -> Option<Impl> {
    let f64 = match ty {
        Ty::F32 => false,
        Ty::F64 => true,
        _ => return None,
    };
    if let Some(i) = table_name(name, f64) {
        return Some(Impl::Intrinsic(i));
    }
    let d = match (f64, name.strip_suffix("_cr")) {
        (true, Some(_)) => None,
        (true, None) => f64_fn(name),
        (false, Some(_)) => f32_cr_fn(name),
        (false, None) => f32_fn(name),
    };
    d.map(Impl::Device)
}

/// Table entries: directed-rounding arithmetic, `fma` and the `.approx` fast paths.
fn table_name(name: &str, f64: bool) -> Option<&'static str> {
    macro_rules! pick {
        ($($n:literal),*) => {
            match name {
                $($n => Some(if f64 { concat!($n, ".f64") } else { concat!($n, ".f32") }),)*
                _ => None,
            }
        };
    }
    if name.starts_with("fast_") {
        return match (name, f64) {
            ("fast_sin", false) => Some("fast_sin"),
            ("fast_cos", false) => Some("fast_cos"),
            ("fast_exp", false) => Some("fast_exp"),
            ("fast_log", false) => Some("fast_log"),
            ("fast_div", false) => Some("fast_div"),
            ("fast_pow", false) => Some("fast_pow"),
            _ => None,
        };
    }
    pick!(
        "add_rn", "add_rz", "add_ru", "add_rd", "sub_rn", "sub_rz", "sub_ru", "sub_rd", "mul_rn",
        "mul_rz", "mul_ru", "mul_rd", "div_rn", "div_rz", "div_ru", "div_rd", "sqrt_rn", "sqrt_rz",
        "sqrt_ru", "sqrt_rd", "rcp_rn", "rcp_rz", "rcp_ru", "rcp_rd", "fma", "fma_rn", "fma_rz",
        "fma_ru", "fma_rd"
    )
}

macro_rules! device_table {
    ($fname:ident, $m:path, { $($key:literal $(| $alt:literal)* => $f:ident),* $(,)? }) => {
        fn $fname(name: &str) -> Option<fn() -> Callable> {
            use $m as m;
            Some(match name {
                $($key $(| $alt)* => m::$f::__fc_callable,)*
                _ => return None,
            })
        }
    };
}

device_table!(f64_fn, self::f64_all, {
    "rsqrt" => rsqrt, "cbrt" => cbrt, "exp" => exp, "exp2" => exp2, "exp10" => exp10,
    "exp_m1" | "expm1" => expm1, "ln" => ln, "log2" => log2, "log10" => log10,
    "ln_1p" | "log1p" => ln_1p, "sin" => sin, "cos" => cos, "tan" => tan, "sinpi" => sinpi,
    "cospi" => cospi, "asin" => asin, "acos" => acos, "atan" => atan, "sinh" => sinh,
    "cosh" => cosh, "tanh" => tanh, "asinh" => asinh, "acosh" => acosh, "atanh" => atanh,
    "erf" => erf, "erfc" => erfc, "lgamma" => lgamma, "tgamma" => tgamma, "atan2" => atan2,
    "powf" => powf, "hypot" => hypot, "fmod" => fmod, "copysign" => copysign,
    "sin_cos" | "sincos" => sincos, "sincospi" => sincospi,
});

device_table!(f32_fn, self::f32_all, {
    "rsqrt" => rsqrt, "cbrt" => cbrt, "exp" => exp, "exp2" => exp2, "exp10" => exp10,
    "exp_m1" | "expm1" => expm1, "ln" => ln, "log2" => log2, "log10" => log10,
    "ln_1p" | "log1p" => ln_1p, "sin" => sin, "cos" => cos, "tan" => tan, "sinpi" => sinpi,
    "cospi" => cospi, "asin" => asin, "acos" => acos, "atan" => atan, "sinh" => sinh,
    "cosh" => cosh, "tanh" => tanh, "asinh" => asinh, "acosh" => acosh, "atanh" => atanh,
    "erf" => erf, "erfc" => erfc, "lgamma" => lgamma, "tgamma" => tgamma, "atan2" => atan2,
    "powf" => powf, "hypot" => hypot, "fmod" => fmod, "copysign" => copysign,
    "sin_cos" | "sincos" => sincos, "sincospi" => sincospi,
});

// The correctly rounded f32 variants, by explicit name (`exp_cr(x)`): f32 only.
device_table!(f32_cr_fn, self::f32_cr, {
    "rsqrt_cr" => rsqrt, "cbrt_cr" => cbrt, "exp_cr" => exp, "exp2_cr" => exp2,
    "exp10_cr" => exp10, "expm1_cr" => expm1, "log_cr" => ln, "log2_cr" => log2,
    "log10_cr" => log10, "log1p_cr" => ln_1p, "sin_cr" => sin, "cos_cr" => cos, "tan_cr" => tan,
    "sinpi_cr" => sinpi, "cospi_cr" => cospi, "asin_cr" => asin, "acos_cr" => acos,
    "atan_cr" => atan, "sinh_cr" => sinh, "cosh_cr" => cosh, "tanh_cr" => tanh,
    "asinh_cr" => asinh, "acosh_cr" => acosh, "atanh_cr" => atanh, "erf_cr" => erf,
    "erfc_cr" => erfc, "lgamma_cr" => lgamma, "tgamma_cr" => tgamma, "atan2_cr" => atan2,
    "powf_cr" => powf, "hypot_cr" => hypot, "sincos_cr" => sincos, "sincospi_cr" => sincospi,
});

/// Every f32 device function under one path, for the dispatch table.
mod f32_all {
    pub use super::f32_exp_log::*;
    pub use super::f32_hyp::*;
    pub use super::f32_inv_trig::*;
    pub use super::f32_misc::*;
    pub use super::f32_special::*;
    pub use super::f32_trig::*;
}

/// Every f64 device function under one path, for the dispatch table.
mod f64_all {
    pub use super::f64_exp_log::*;
    pub use super::f64_hyp::*;
    pub use super::f64_inv_trig::*;
    pub use super::f64_misc::*;
    pub use super::f64_pow::*;
    pub use super::f64_special::*;
    pub use super::f64_trig::*;
}
