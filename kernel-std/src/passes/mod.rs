//! Optimization passes over the IR, run in a fixed order by [`optimize`].
//!
//! Order (each step is a pub function in its own module, usable alone in tests):
//! 1. [`const_fold`]: folding, constant/copy propagation, branch folding, dead values.
//! 2. [`unroll`] then [`const_fold`], repeated until nothing changes (at most 8 rounds): unrolling
//!    an outer loop turns inner loop bounds that depend on its induction variable into constants.
//! 3. [`sroa`]: local arrays indexed only by constants become one register per element; then
//!    [`const_fold`] again (the element moves propagate).
//! 4. [`bce`]: bounds checks proven by a dominating guard, loop range or earlier check go away
//!    (all of them when `CompileOptions::bounds_checks` is off).
//! 5. [`fma`] (only with `CompileOptions::fma_contraction`): `a * b + c` -> `fma(a, b, c)`.
//! 6. [`narrow_index`]: widened 32-bit index arithmetic stays 32-bit where it provably fits.
//! 7. [`dce`]: final cleanup and renumbering of arrays and variables.
//!
//! Every pass preserves the IR's semantics exactly, except `fma`, which changes rounding the way
//! nvcc's default `--fmad=true` does, and `bce` with bounds checks switched off.

use crate::compile::CompileOptions;
use crate::ir::Kernel;

pub mod bce;
pub mod const_fold;
pub mod dce;
pub mod eval;
pub mod fma;
pub mod narrow_index;
pub mod sroa;
pub mod unroll;
pub mod util;

#[cfg(test)]
mod testkit;

pub use bce::bce;
pub use const_fold::const_fold;
pub use dce::dce;
pub use fma::fma;
pub use narrow_index::narrow_index;
pub use sroa::sroa;
pub use unroll::unroll;

/// Runs every pass in the documented order.
pub fn optimize(kernel: &mut Kernel, opts: &CompileOptions) {
    const_fold(kernel);
    for _ in 0..8 {
        let unrolled = unroll(kernel);
        let folded = const_fold(kernel);
        if !unrolled && !folded {
            break;
        }
    }
    if sroa(kernel) {
        const_fold(kernel);
    }
    bce(kernel, opts);
    if opts.fma_contraction {
        fma(kernel);
    }
    narrow_index(kernel);
    dce(kernel);
}
