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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{BinOp, Const, Inst, LocalArray, Ty, Unroll, Var};
    use crate::passes::testkit::*;

    /// A register-blocked SGEMM micro-kernel: `acc: [f32; 64]` (8x8), `for k in 0..8 { for i in
    /// 0..8 { a = A[i*8+k]; for j in 0..8 { acc[i*8+j] += a * B[k*8+j] } } }`, then `C = acc`.
    fn sgemm_micro() -> (crate::ir::Kernel, Var, Var, Var) {
        let mut k = kernel();
        let pa = param(&mut k, "a", Ty::U64);
        let pb = param(&mut k, "b", Ty::U64);
        let pc = param(&mut k, "c", Ty::U64);
        k.arrays.push(LocalArray {
            elem: Ty::F32,
            len: 64,
        });
        let new = |k: &mut crate::ir::Kernel, t| k.new_var(t);
        let (i, j, kk) = (
            new(&mut k, Ty::U32),
            new(&mut k, Ty::U32),
            new(&mut k, Ty::U32),
        );
        let (idx, t32, off, addr) = (
            new(&mut k, Ty::U32),
            new(&mut k, Ty::U32),
            new(&mut k, Ty::U64),
            new(&mut k, Ty::U64),
        );
        let (a, b, acc, m, s) = (
            new(&mut k, Ty::F32),
            new(&mut k, Ty::F32),
            new(&mut k, Ty::F32),
            new(&mut k, Ty::F32),
            new(&mut k, Ty::F32),
        );
        // Address of element `e` (u32) of the f32 array at `base`.
        let addr_of = |base: Var, e: Var| {
            vec![
                cast(off, e),
                bin(off, BinOp::Mul, off, u64c(4)),
                bin(addr, BinOp::Add, base, off),
            ]
        };
        // acc = [0.0; 64]
        let zj = for_(
            &mut k,
            j,
            u32c(0),
            u32c(8),
            Unroll::Full,
            vec![
                bin(idx, BinOp::Mul, i, u32c(8)),
                bin(idx, BinOp::Add, idx, j),
                astore(0, idx, f32c(0.0)),
            ],
        );
        let zi = for_(&mut k, i, u32c(0), u32c(8), Unroll::Full, vec![zj]);
        // Inner product loops.
        let mut jb = vec![
            bin(t32, BinOp::Mul, kk, u32c(8)),
            bin(t32, BinOp::Add, t32, j),
        ];
        jb.extend(addr_of(pb, t32));
        jb.extend([
            load(b, addr),
            bin(idx, BinOp::Mul, i, u32c(8)),
            bin(idx, BinOp::Add, idx, j),
            aload(acc, 0, idx),
            bin(m, BinOp::Mul, a, b),
            bin(s, BinOp::Add, acc, m),
            astore(0, idx, s),
        ]);
        let lj = for_(&mut k, j, u32c(0), u32c(8), Unroll::Full, jb);
        let mut ib = vec![
            bin(t32, BinOp::Mul, i, u32c(8)),
            bin(t32, BinOp::Add, t32, kk),
        ];
        ib.extend(addr_of(pa, t32));
        ib.extend([load(a, addr), lj]);
        let li = for_(&mut k, i, u32c(0), u32c(8), Unroll::Full, ib);
        let lk = for_(&mut k, kk, u32c(0), u32c(8), Unroll::Full, vec![li]);
        // C = acc
        let mut ob = vec![
            bin(idx, BinOp::Mul, i, u32c(8)),
            bin(idx, BinOp::Add, idx, j),
            aload(acc, 0, idx),
        ];
        ob.extend(addr_of(pc, idx));
        ob.push(store(addr, acc));
        let oj = for_(&mut k, j, u32c(0), u32c(8), Unroll::Full, ob);
        let oi = for_(&mut k, i, u32c(0), u32c(8), Unroll::Full, vec![oj]);
        k.body.0 = vec![zi, lk, oi];
        (k, pa, pb, pc)
    }

    fn count(k: &crate::ir::Kernel, f: impl Fn(&Inst) -> bool) -> usize {
        let mut n = 0;
        util::walk(&k.body, &mut |i| n += f(i) as usize);
        n
    }

    #[test]
    fn sgemm_accumulators_end_up_in_registers() {
        let (mut k, pa, pb, pc) = sgemm_micro();
        let orig = k.clone();
        let opts = CompileOptions {
            fma_contraction: false,
            ..CompileOptions::default()
        };
        optimize(&mut k, &opts);
        assert_eq!(
            count(&k, |i| matches!(
                i,
                Inst::ArrayLoad { .. } | Inst::ArrayStore { .. }
            )),
            0
        );
        assert_eq!(
            count(&k, |i| matches!(i, Inst::For { .. } | Inst::Loop { .. })),
            0
        );
        assert!(k.arrays.is_empty(), "no local memory frame left");
        assert_eq!(
            count(&k, |i| matches!(i, Inst::Load { .. })),
            8 * 8 + 8 * 8 * 8
        );
        assert_eq!(count(&k, |i| matches!(i, Inst::Store { .. })), 64);
        let args = [
            (pa, Const::u64(0)),
            (pb, Const::u64(4096)),
            (pc, Const::u64(8192)),
        ];
        assert_eq!(run(&orig, &args), run(&k, &args));

        let (mut k2, ..) = sgemm_micro();
        optimize(&mut k2, &CompileOptions::default());
        assert_eq!(count(&k2, |i| matches!(i, Inst::Fma { .. })), 8 * 8 * 8);
        assert_eq!(
            count(&k2, |i| matches!(i, Inst::Binary { op: BinOp::Mul, .. })),
            0
        );
    }
}
