//! What a compile is asked for: target, checks, contraction, launch specialization. The stages
//! read it; it sits below them so that no stage imports the driver.

use crate::specialize::Specialization;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CompileOptions {
    /// Target compute capability as `major * 10 + minor` (70, 80, 90...).
    pub sm: u32,
    /// Keep bounds checks the compiler cannot prove redundant (on by default; the benchmark turns
    /// them off to measure their cost).
    pub bounds_checks: bool,
    /// Contract `a * b + c` into one fused multiply-add (nvcc's default `--fmad=true`).
    pub fma_contraction: bool,
    /// Keep the source markers (`ir::Inst::Loc`) in the optimized IR. The simulator needs them
    /// to name the statement of a race or an out-of-bounds access; PTX carries no positions, so
    /// a compile for a GPU drops them right after lowering: after unrolling they are a quarter
    /// of the instructions every pass walks. The optimizer ignores them (the same IR either way:
    /// `host-runtime/tests/loc_markers.rs`), and an emission error is reported with them.
    pub source_markers: bool,
    /// Integer overflow checks for every kernel compiled with these options (`Some`), as if each
    /// had `#[kernel(overflow_checks = ..)]`; `None` follows the source (the kernel's attribute,
    /// else each function's crate profile). Tools use it to measure the checks' cost.
    pub overflow_checks: Option<bool>,
    /// The launch facts this compile may assume (launch-time specialization; the default assumes
    /// none). Ask [`Specialization::for_launch`] for a launch's: it keeps the attribute and the
    /// opt-out in force.
    pub specialization: Specialization,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            sm: 80,
            bounds_checks: true,
            fma_contraction: true,
            source_markers: true,
            overflow_checks: None,
            specialization: Specialization::GENERAL,
        }
    }
}
