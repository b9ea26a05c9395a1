//! Loop-invariant 32-bit integer arithmetic moves out of loops.
//!
//! Why: SGEMM's tile loads recompute, every k tile, the per-thread parts of their indices and
//! shared addresses (`e = tid + l * 256`, `e / 8`, `e % 8`, `row0 + e / 8`, the shared store
//! address): about 30 instructions per iteration that nvcc computes once before the loop. ptxas
//! does not hoist them itself when the loop is as large as SGEMM's (it recomputes rather than keep
//! registers). Only integer values of at most 32 bits move (one register each; 64-bit values
//! and predicates stay, as nvcc leaves them, unless the loop reads them only through casts to
//! 32 bits), and not a `var + constant` whose only readers are
//! memory addresses: ptxas folds that constant into the access (`[R+imm]`), so hoisting it would
//! cost a register and save nothing. This keeps SGEMM at its register count.
//!
//! Exact: a moved instruction is pure (no memory, no division by a variable, no intrinsic), its
//! operands are not written in the loop (or are moved values), and its destination is written
//! only there and read only inside the loop, so every read sees the same value as before; running
//! it once when the loop runs zero times only computes a value nobody reads.

use super::util::def_use_counts;
use super::varset::VarSet;
use kernel_ir::ir::{BinOp, Block, Inst, Kernel, Operand, Var};
use kernel_ir::visit::{for_each_def, for_each_use, walk};

/// Returns whether anything moved.
pub fn licm(k: &mut Kernel) -> bool {
    let (defs, uses) = def_use_counts(k);
    let mut body = std::mem::take(&mut k.body);
    let changed = block(k, &mut body, &defs, &uses);
    k.body = body;
    changed
}

fn block(k: &Kernel, b: &mut Block, defs: &[u32], uses: &[u32]) -> bool {
    let mut changed = false;
    // Only a loop at this level takes instructions out in front of it: a block without one is
    // left where it is (most blocks are the branches of guarded accesses).
    if !b
        .0
        .iter()
        .any(|i| matches!(i, Inst::For { .. } | Inst::Loop { .. }))
    {
        for inst in &mut b.0 {
            if let Inst::If { then, els, .. } = inst {
                changed |= block(k, then, defs, uses);
                changed |= block(k, els, defs, uses);
            }
        }
        return changed;
    }
    // What leaves each loop, by the loop's position; the block is rebuilt once, at its final
    // size, and only when something left (growing it while rebuilding copied it again).
    let mut moved: Vec<(usize, Vec<Inst>)> = Vec::new();
    for (at, inst) in b.0.iter_mut().enumerate() {
        let (body, iv) = match inst {
            Inst::If { then, els, .. } => {
                changed |= block(k, then, defs, uses);
                changed |= block(k, els, defs, uses);
                continue;
            }
            Inst::For { iv, body, .. } => (body, Some(*iv)),
            Inst::Loop { body, .. } => (body, None),
            _ => continue,
        };
        changed |= block(k, body, defs, uses);
        let out = hoist(k, body, iv, defs, uses);
        if !out.is_empty() {
            moved.push((at, out));
        }
    }
    if moved.is_empty() {
        return changed;
    }
    let added: usize = moved.iter().map(|(_, m)| m.len()).sum();
    let mut out = Vec::with_capacity(b.0.len() + added);
    let mut next = moved.into_iter().peekable();
    for (at, inst) in std::mem::take(&mut b.0).into_iter().enumerate() {
        if let Some((_, m)) = next.next_if(|(l, _)| *l == at) {
            out.extend(m);
        }
        out.push(inst);
    }
    b.0 = out;
    true
}

/// The destination of a pure, hoistable instruction: 32 bits or less, or 64 bits when
/// `narrowed` says the loop only reads it through casts to 32 bits or less (those move too,
/// so the wide value dies before the loop: SGEMM's `(ty * 8) as u32` shared anchors).
fn candidate(k: &Kernel, inst: &Inst, narrowed: &VarSet) -> Option<Var> {
    let dst = match inst {
        Inst::Binary { dst, op, b, .. } => {
            let by_var = matches!(b, Operand::Var(_));
            if op.is_compare() || (matches!(op, BinOp::Div | BinOp::Rem) && by_var) {
                return None;
            }
            *dst
        }
        Inst::Unary { dst, .. } | Inst::Cast { dst, .. } | Inst::Mov { dst, .. } => *dst,
        Inst::SharedAddr { dst, .. } => *dst,
        _ => return None,
    };
    let ty = k.ty(dst);
    (ty.is_int() && (ty.bits() <= 32 || narrowed.contains(&dst))).then_some(dst)
}

/// `var + constant` (either order) or `var - constant`.
fn offset_form(inst: &Inst) -> bool {
    match inst {
        Inst::Binary {
            op: BinOp::Add,
            a,
            b,
            ..
        } => matches!(
            (a, b),
            (Operand::Var(_), Operand::Const(_)) | (Operand::Const(_), Operand::Var(_))
        ),
        Inst::Binary {
            op: BinOp::Sub,
            a: Operand::Var(_),
            b: Operand::Const(_),
            ..
        } => true,
        _ => false,
    }
}

/// Removes the invariant instructions from the top level of a loop body and returns them in
/// order.
fn hoist(k: &Kernel, body: &mut Block, iv: Option<Var>, defs: &[u32], uses: &[u32]) -> Vec<Inst> {
    // Per-variable tables (hash maps and sets of these were most of this pass's time).
    let n = k.vars.len();
    let mut written = VarSet::with_capacity(n);
    written.extend(iv);
    // Reads inside the loop, and which of them are only memory addresses.
    let mut inside = vec![0u32; n];
    let mut non_addr = VarSet::with_capacity(n);
    // Variables read only by casts to at most 32 bits, and those read otherwise.
    let (mut narrowed, mut wide_read) = (VarSet::with_capacity(n), VarSet::with_capacity(n));
    walk(body, &mut |i| {
        for_each_def(i, |v| {
            written.insert(v);
        });
        let narrowing =
            matches!(i, Inst::Cast { dst, .. } if k.ty(*dst).is_int() && k.ty(*dst).bits() <= 32);
        let addr = match i {
            Inst::Load { addr, .. } | Inst::LoadVec { addr, .. } | Inst::Store { addr, .. } => {
                Some(*addr)
            }
            _ => None,
        };
        let mut seen_addr = false;
        for_each_use(i, |o| {
            if let Operand::Var(v) = o {
                if narrowing {
                    narrowed.insert(v);
                } else {
                    wide_read.insert(v);
                }
                if let Some(c) = inside.get_mut(v.0 as usize) {
                    *c += 1;
                }
                // A store's value equal to its address still counts as a value use.
                if Some(o) == addr && !seen_addr {
                    seen_addr = true;
                } else {
                    non_addr.insert(v);
                }
            }
        });
    });
    narrowed.difference_with(&wide_read);
    let mut moved_vars = VarSet::with_capacity(n);
    let mut moved = Vec::new();
    let mut keep = Vec::with_capacity(body.0.len());
    for inst in std::mem::take(&mut body.0) {
        let movable = candidate(k, &inst, &narrowed).is_some_and(|dst| {
            let d = dst.0 as usize;
            let mut invariant = true;
            for_each_use(&inst, |o| {
                if let Operand::Var(v) = o {
                    invariant &= !written.contains(&v) || moved_vars.contains(&v);
                }
            });
            invariant
                && defs[d] == 1
                && inside.get(d).copied().unwrap_or(0) == uses[d]
                && (!offset_form(&inst) || non_addr.contains(&dst))
        });
        if movable {
            if let Some(dst) = candidate(k, &inst, &narrowed) {
                moved_vars.insert(dst);
            }
            moved.push(inst);
        } else {
            keep.push(inst);
        }
    }
    body.0 = keep;
    moved
}
