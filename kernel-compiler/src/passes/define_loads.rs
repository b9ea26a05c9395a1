//! Every variable a load under an `if` writes holds a value on the paths that skip the load: one
//! that nothing wrote before gets a zero just before the outermost `if` or loop around it.
//!
//! Why: ptxas (13.0, the driver 580 JIT, and 13.5 too) numbers a guarded
//! `@p ld.global.nc x, [a]` as the same value as a later unguarded load of `[a]` when `x` holds
//! nothing where `p` is false, and then computes the later load's users from `x`'s users, which
//! it only runs where `p` holds: a NaN test of `din[i]` read after a guarded read of `din[i]`
//! came out of another register in the blocks that skipped it. With `x` defined on both paths
//! the two values differ and ptxas keeps them apart. Loads a loop runs on every iteration need none.
//!
//! Exact: the zero is written only to variables no instruction before the load (in program
//! order) writes, so no read sees it that would not have seen an unwritten variable instead.
//! Variables both branches of an `if` write at their top level need none.

use super::varset::VarSet;
use kernel_ir::ir::{Block, Const, Inst, Kernel, Operand, Var};
use kernel_ir::visit::{for_each_def, is_compound};

/// Returns whether a zero was added.
pub fn define_loads(k: &mut Kernel) -> bool {
    let mut written = VarSet::with_capacity(k.vars.len());
    let body = std::mem::take(&mut k.body.0);
    let mut out = Vec::with_capacity(body.len());
    let mut zero: Vec<Var> = Vec::new();
    for inst in body {
        if is_compound(&inst) {
            let start = zero.len();
            both_branches_write(&inst, &mut written);
            collect(
                &inst,
                matches!(inst, Inst::If { .. }),
                &mut written,
                &mut zero,
            );
            for v in &zero[start..] {
                let ty = k.vars[v.0 as usize];
                out.push(Inst::Mov {
                    dst: *v,
                    src: Operand::Const(Const { ty, bits: 0 }),
                });
            }
        } else {
            for_each_def(&inst, |v| _ = written.insert(v));
        }
        out.push(inst);
    }
    k.body.0 = out;
    !zero.is_empty()
}

/// Walks `inst` and what it nests in program order, adding every write to `written`; a load
/// under an `if` (`guarded`) into a variable not yet in `written` adds it to `zero`.
fn collect(inst: &Inst, guarded: bool, written: &mut VarSet, zero: &mut Vec<Var>) {
    let load = matches!(
        inst,
        Inst::Load { .. } | Inst::LoadVec { .. } | Inst::ArrayLoad { .. }
    );
    for_each_def(inst, |v| {
        if written.insert(v) && load && guarded {
            zero.push(v);
        }
    });
    let mut nested = |b: &Block, g: bool| {
        for i in &b.0 {
            collect(i, g, written, zero);
        }
    };
    match inst {
        Inst::If { then, els, .. } => {
            nested(then, true);
            nested(els, true);
        }
        Inst::For { body, .. } | Inst::Loop { body, .. } => nested(body, guarded),
        _ => {}
    }
}

/// Adds to `written` the variables both branches of an `if` write at their top level
/// (`x = c ? load : k`): they hold a value on every path already.
fn both_branches_write(inst: &Inst, written: &mut VarSet) {
    let Inst::If { then, els, .. } = inst else {
        return;
    };
    if els.0.is_empty() {
        return;
    }
    let mut first = VarSet::new();
    for i in &then.0 {
        for_each_def(i, |v| _ = first.insert(v));
    }
    for i in &els.0 {
        for_each_def(i, |v| {
            if first.contains(&v) {
                written.insert(v);
            }
        });
    }
}
