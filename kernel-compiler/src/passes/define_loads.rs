//! Every variable a load writes inside an `if` or a loop holds a value on the paths that skip
//! the load: one that nothing wrote before gets a zero just before the `if` or loop.
//!
//! Why: ptxas (13.0, the driver 580 JIT, and 13.5 too) numbers a guarded
//! `@p ld.global.nc x, [a]` as the same value as a later unguarded load of `[a]` when `x` holds
//! nothing where `p` is false, and then computes the later load's users from `x`'s users, which
//! it only runs where `p` holds: a NaN test of `din[i]` read after a guarded read of `din[i]`
//! came out of another register in the blocks that skipped it. With `x` defined on both paths
//! the two values differ and ptxas keeps them apart. The zero costs nothing where the load runs
//! on every path (ptxas drops the dead move).
//!
//! Exact: the zero is written only to variables no instruction before the `if` or loop writes,
//! so no read sees it that would not have seen an unwritten variable instead.

use super::varset::VarSet;
use kernel_ir::ir::{Const, Inst, Kernel, Operand, Var};
use kernel_ir::visit::{for_each_def, is_compound, walk_inst};

/// Returns whether a zero was added.
pub fn define_loads(k: &mut Kernel) -> bool {
    let mut written = VarSet::with_capacity(k.vars.len());
    let body = std::mem::take(&mut k.body.0);
    let mut out = Vec::with_capacity(body.len());
    let mut changed = false;
    for inst in body {
        if is_compound(&inst) {
            let mut loaded: Vec<Var> = Vec::new();
            let mut seen = VarSet::new();
            walk_inst(&inst, &mut |i| {
                let loads = matches!(
                    i,
                    Inst::Load { .. } | Inst::LoadVec { .. } | Inst::ArrayLoad { .. }
                );
                for_each_def(i, |v| {
                    if loads && !written.contains(&v) && seen.insert(v) {
                        loaded.push(v);
                    }
                });
            });
            for v in loaded {
                let ty = k.vars[v.0 as usize];
                out.push(Inst::Mov {
                    dst: v,
                    src: Operand::Const(Const { ty, bits: 0 }),
                });
                changed = true;
            }
            walk_inst(&inst, &mut |i| for_each_def(i, |v| _ = written.insert(v)));
        } else {
            for_each_def(&inst, |v| _ = written.insert(v));
        }
        out.push(inst);
    }
    k.body.0 = out;
    changed
}
