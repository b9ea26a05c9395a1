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
//! Each function's spec in `intrinsics::math` names its implementation per float type (a
//! `#[device]` function here or a table entry): a Rust method on a float (`x.sin()`), a free
//! function (`rsqrt(x)`) and float `%` all reach one there.

pub mod approx;
#[cfg(test)]
mod bessel_jy_tests;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f32_bessel_i;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f32_bessel_jy;
#[allow(dead_code)] // the host twins only serve rustc's type check
pub(crate) mod f32_cr;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f32_erfcx;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f32_erfinv;
#[cfg(test)]
mod f32_exact_tests;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f32_exp_log;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f32_fpmanip;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f32_hyp;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f32_inv_trig;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f32_misc;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f32_norm;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f32_special;
#[cfg(test)]
mod f32_sweep_tests;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f32_toint;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f32_trig;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f64_bessel_i;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f64_bessel_jy;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f64_erfcx;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f64_erfinv;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f64_exp_log;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f64_fpmanip;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f64_hyp;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f64_inv_trig;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f64_misc;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f64_norm;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f64_pow;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f64_reduce;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f64_special;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f64_toint;
#[allow(dead_code)] // the host twins only serve rustc's type check
mod f64_trig;

/// Every f32 device function under one path, for the specs of `intrinsics::math`.
pub(crate) mod f32_all {
    pub use super::f32_bessel_i::*;
    pub use super::f32_bessel_jy::*;
    pub use super::f32_erfcx::*;
    pub use super::f32_erfinv::*;
    pub use super::f32_exp_log::*;
    pub use super::f32_fpmanip::*;
    pub use super::f32_hyp::*;
    pub use super::f32_inv_trig::*;
    pub use super::f32_misc::*;
    pub use super::f32_norm::*;
    pub use super::f32_special::*;
    pub use super::f32_toint::*;
    pub use super::f32_trig::*;
}

/// Every f64 device function under one path, for the specs of `intrinsics::math`.
pub(crate) mod f64_all {
    pub use super::f64_bessel_i::*;
    pub use super::f64_bessel_jy::*;
    pub use super::f64_erfcx::*;
    pub use super::f64_erfinv::*;
    pub use super::f64_exp_log::*;
    pub use super::f64_fpmanip::*;
    pub use super::f64_hyp::*;
    pub use super::f64_inv_trig::*;
    pub use super::f64_misc::*;
    pub use super::f64_norm::*;
    pub use super::f64_pow::*;
    pub use super::f64_special::*;
    pub use super::f64_toint::*;
    pub use super::f64_trig::*;
}
