//! Optimization passes over the IR. [`pipeline::PIPELINE`] lists them in the order they run,
//! each with the condition it runs under and why; [`optimize`] runs the list.
//!
//! Each pass is a pub function in its own module, usable alone in tests and filetests
//! (`kernel-compiler/tests/filetests`). [`ranges`], [`eval`] and [`util`] are the analyses they
//! share; instruction properties and the def/use walkers live with the IR
//! (`kernel_ir::props`, `kernel_ir::visit`). [`optimize_with`] calls a hook after every pass
//! (`cargo xtask compile-time --passes` times them; `cargo xtask ptx --print-after PASS` and
//! `FERROCUDA_PRINT_AFTER=PASS` print the IR after them).

use crate::options::CompileOptions;
use kernel_ir::ir::Kernel;

pub mod bce;
mod check_cover;
pub mod cold_remat;
pub mod const_fold;
pub mod counted_while;
pub mod cse;
pub mod dce;
pub mod defer_checks;
pub mod define_loads;
mod early_checks;
pub mod eval;
pub mod fma;
pub mod fx;
pub mod licm;
pub mod narrow_compares;
pub mod narrow_index;
pub mod pipeline;
pub mod ranges;
pub mod repeats;
pub mod shifts;
pub mod speculate;
pub mod split_webs;
pub mod sroa;
pub mod strength;
pub mod stride_unroll;
pub mod unroll;
pub mod util;
pub mod varset;
pub mod vector_access;
pub mod vectorize;
pub mod version_loops;

#[cfg(test)]
mod filetests;
#[cfg(test)]
mod perf_tests;
#[cfg(test)]
mod pipeline_tests;
#[cfg(test)]
pub(crate) mod testkit;

pub use bce::bce;
pub use cold_remat::cold_remat;
pub use const_fold::const_fold;
pub use counted_while::counted_while;
pub use cse::cse;
pub use dce::dce;
pub use defer_checks::defer_checks;
pub use define_loads::define_loads;
pub use fma::fma;
pub use licm::licm;
pub use narrow_compares::narrow_compares;
pub use narrow_index::narrow_index;
pub use shifts::shifts;
pub use speculate::speculate;
pub use split_webs::split_webs;
pub use sroa::sroa;
pub use strength::strength;
pub use stride_unroll::stride_unroll;
pub use unroll::unroll;
pub use vector_access::vector_access;
pub use vectorize::vectorize;
pub use version_loops::version_loops;

pub use pipeline::{optimize_with, Pass, PrintAfter};

/// Runs every pass of [`pipeline::PIPELINE`].
pub fn optimize(kernel: &mut Kernel, opts: &CompileOptions) {
    optimize_with(kernel, opts, &mut |_, _| {});
}
