//! Optimization passes over the IR, run in a fixed order by [`optimize`].
//!
//! Order (each step is a pub function in its own module, usable alone in tests):
//! 0. With `CompileOptions::bounds_checks` off, [`bce`](fn@bce) first drops every bounds check
//!    (so none is folded into an unconditional panic below).
//! 1. [`const_fold`](fn@const_fold): folding, constant/copy propagation, exact identities,
//!    branch folding, unreachable code, dead values, move coalescing; to a fixed point.
//! 2. [`unroll`](fn@unroll) then [`const_fold`](fn@const_fold), repeated until nothing changes
//!    (at most 8 rounds): unrolling an outer loop turns inner loop bounds that depend on its
//!    induction variable into constants, and folding turns array indices built from induction
//!    variables into constants.
//! 3. [`sroa`](fn@sroa): local arrays indexed only by constants become one variable per
//!    element; then [`const_fold`](fn@const_fold) again (the element moves propagate and
//!    coalesce).
//! 4. [`cse`](fn@cse): a pure value computed again from the same operands becomes a copy of the
//!    first result; then [`const_fold`](fn@const_fold) propagates the copies.
//! 5. [`bce`](fn@bce): bounds checks proven by a dominating guard, a loop's range, an earlier
//!    check or value ranges (launch bounds included) are dropped.
//! 6. [`fma`](fn@fma) (only with `CompileOptions::fma_contraction`): `a * b + c` ->
//!    `fma(a, b, c)`.
//! 7. [`narrow_index`](fn@narrow_index): widened 32-bit index arithmetic stays 32-bit where it
//!    provably fits.
//! 8. [`strength`](fn@strength): unsigned division and remainder by constants become shifts,
//!    masks and multiply-high (ptxas keeps the generic divide sequence even for `/ 8`); then
//!    [`stride_unroll`](fn@stride_unroll): grid-stride loops run four iterations per trip
//!    with the four iterations' loads first (nvcc keeps one load in flight per thread); then
//!    (with bounds checks on) [`repeats::drop_repeats`]: unrolled copies' recomputations of
//!    the value a variable still holds go; then
//!    [`split_webs`](fn@split_webs): a variable assigned several times (unrolled copies
//!    share their body's variables) gets one fresh variable per value, so checks' operands
//!    outlive nothing and predicated PTX does not chain the copies through one register.
//! 9. [`defer_checks`](fn@defer_checks): in straight-line runs, bounds checks clear a flag
//!    that guards the memory accesses after them, and the run panics once at its end, so ptxas
//!    can overlap the guarded loads (it never hoists a load above a panic branch). Its flag
//!    steps are fresh variables, so no second `split_webs` is needed. Then, if it changed
//!    anything, `cse` again (early checks evaluate the run's indices at its head; the run then
//!    reuses them), and
//!    [`util::propagate_single_copies`] reads `cse`'s copies through and drops them, so the
//!    passes below walk about a quarter less code.
//! 10. [`speculate`](fn@speculate): pure code whose result dies with an `if` moves out of it,
//!     what is left of small `if`s becomes guarded accesses and selects, and stores sink below
//!     the loads of the other memory space: a tile's loads come first, as nvcc orders them.
//! 11. [`vectorize`](fn@vectorize): shared accesses off one symbolic address get constant
//!     offsets from one anchor register (ptxas folds them into the instruction), and 4 or 2
//!     adjacent aligned 32-bit shared loads become one vector load.
//! 12. [`shifts`](fn@shifts): integer multiplies by powers of two become shifts (ptxas keeps
//!     `mul.lo.u64 x, 4` a wide multiply; `shl` folds into `LEA`), and `((x >> a) & m) << k`
//!     becomes `(x >> (a - k)) & (m << k)`, as nvcc's front end writes byte-indexed addresses.
//! 13. [`dce`](fn@dce): final cleanup, then unused local arrays and variables are dropped and
//!     the rest renumbered.
//! 14. [`licm`](fn@licm): loop-invariant 32-bit integer arithmetic (per-thread index and shared
//!     address parts) moves in front of its loop, as nvcc computes it once (after `dce`, so
//!     dead reads do not keep a value in the loop).
//!
//! Every pass preserves the IR's semantics exactly (stores, their order within each memory
//! space, panics and their detail values), except `fma`, which rounds once where the source rounds twice, as nvcc's default
//! `--fmad=true` does, and step 0, which is what switching bounds checks off means.
//! [`ranges`], [`eval`] and [`util`] are the shared analyses; [`fx`] (a fast hasher) and
//! [`varset`] (bit-vector variable sets) keep them and the passes cheap on unrolled kernels.
//! [`optimize_with`] reports each pass as it finishes (`cargo xtask compile-time --passes`
//! times them, `cargo xtask ptx --print-after-all` prints the IR between them).

use crate::options::CompileOptions;
use kernel_ir::ir::Kernel;

pub mod bce;
mod check_cover;
pub mod const_fold;
pub mod cse;
pub mod dce;
pub mod defer_checks;
mod early_checks;
pub mod eval;
pub mod fma;
pub mod fx;
pub mod licm;
pub mod narrow_index;
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
pub mod vectorize;

#[cfg(test)]
mod perf_tests;
#[cfg(test)]
mod pipeline_tests;
#[cfg(test)]
pub(crate) mod testkit;

pub use bce::bce;
pub use const_fold::const_fold;
pub use cse::cse;
pub use dce::dce;
pub use defer_checks::defer_checks;
pub use fma::fma;
pub use licm::licm;
pub use narrow_index::narrow_index;
pub use shifts::shifts;
pub use speculate::speculate;
pub use split_webs::split_webs;
pub use sroa::sroa;
pub use strength::strength;
pub use stride_unroll::stride_unroll;
pub use unroll::unroll;
pub use vectorize::vectorize;

/// Runs every pass in the documented order.
pub fn optimize(kernel: &mut Kernel, opts: &CompileOptions) {
    optimize_with(kernel, opts, &mut |_, _| {});
}

/// [`optimize`], calling `after(pass, kernel)` after each pass run (a pass that runs several
/// times is reported each time): the hook for per-pass timing (`cargo xtask compile-time
/// --passes`) and for dumping the IR between passes, at no cost to `optimize` itself.
pub fn optimize_with(
    kernel: &mut Kernel,
    opts: &CompileOptions,
    after: &mut dyn FnMut(&str, &Kernel),
) {
    if !opts.bounds_checks {
        bce(kernel, opts);
        after("bce (checks off)", kernel);
    }
    let (_, mut settled) = const_fold::const_fold_settled(kernel);
    after("const_fold", kernel);
    // Whether `sroa` below would find nothing: the loop's `sroa` found nothing and nothing
    // changed since, or it left no array access (unrolling and folding make none).
    let mut replaced_all = false;
    for _ in 0..8 {
        let unrolled = unroll(kernel);
        after("unroll", kernel);
        // Folding what it already left at its fixed point would change nothing (and stop here).
        if !unrolled && settled {
            break;
        }
        let (replaced, left) = sroa::sroa_left(kernel);
        let (folded, s) = const_fold::const_fold_settled(kernel);
        settled = s;
        replaced_all = !left || (!replaced && !folded);
        let folded = folded || replaced;
        after("const_fold (unroll)", kernel);
        if !unrolled && !folded {
            break;
        }
    }
    if !replaced_all && sroa(kernel) {
        after("sroa", kernel);
        const_fold(kernel);
        after("const_fold (sroa)", kernel);
    } else {
        after("sroa", kernel);
    }
    if cse(kernel) {
        after("cse", kernel);
        const_fold(kernel);
        after("const_fold (cse)", kernel);
    } else {
        after("cse", kernel);
    }
    bce(kernel, opts);
    after("bce", kernel);
    if opts.fma_contraction {
        fma(kernel);
        after("fma", kernel);
    }
    narrow_index(kernel);
    after("narrow_index", kernel);
    strength(kernel);
    after("strength", kernel);
    if stride_unroll(kernel) {
        after("stride_unroll", kernel);
    }
    // Without checks nothing below merges the repeats either, and ptxas, which then sees them,
    // allocated SGEMM two more registers on sm_90 without them: that path stays as it was.
    if opts.bounds_checks && repeats::drop_repeats(kernel) {
        after("repeats", kernel);
    }
    split_webs(kernel);
    after("split_webs", kernel);
    if defer_checks(kernel) {
        after("defer_checks", kernel);
        // Early checks evaluate the run's indices at its head; the run then reuses them.
        cse(kernel);
        after("cse (defer)", kernel);
        util::propagate_single_copies(kernel);
        after("copies (defer)", kernel);
    } else {
        after("defer_checks", kernel);
    }
    speculate(kernel);
    after("speculate", kernel);
    vectorize(kernel);
    after("vectorize", kernel);
    shifts(kernel);
    after("shifts", kernel);
    dce(kernel);
    after("dce", kernel);
    licm(kernel);
    after("licm", kernel);
}
