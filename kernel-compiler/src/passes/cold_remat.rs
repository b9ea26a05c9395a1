//! Comparisons a panicking branch reads are computed again inside it.
//!
//! Why: the dispatch of a run's early checks (`early_checks`) tests, after one "some check
//! fails" test on the hot path, each check again in program order to panic at the first failing
//! one. It reads the compares the hot path made, so all of them stay live across the run: a
//! 17-tap convolution keeps seventeen predicates, more than the seven predicate registers, and
//! ptxas saves and restores them through general registers (`P2R`/`R2P`) on the hot path. Made
//! again inside the panicking branch, the hot path's compares die at the `or` that folds them,
//! and only the branch that ends the thread pays for them again.
//!
//! Exact: a compare is copied only from a definition that precedes the branch in the enclosing
//! blocks (it ran before the branch on every path that reaches it) and whose operands are
//! constants, parameters or variables written once in the kernel, so that between the two
//! points nothing changed them: the copy computes the same value.

use super::fx::FxHashMap;
use super::util::{can_panic, def_counts};
use kernel_ir::ir::{BinOp, Block, Inst, Kernel, Operand, Var};
use kernel_ir::visit::{for_each_use_mut, walk_mut};

/// Returns whether a compare was copied into a panicking branch.
pub fn cold_remat(k: &mut Kernel) -> bool {
    let defs = def_counts(k);
    let mut body = std::mem::take(&mut k.body);
    let mut cx = Cx {
        k,
        defs,
        avail: FxHashMap::default(),
        changed: false,
    };
    cx.block(&mut body);
    let changed = cx.changed;
    k.body = body;
    changed
}

struct Cx<'a> {
    k: &'a mut Kernel,
    defs: Vec<u32>,
    /// Compares defined earlier in the enclosing blocks, by result.
    avail: FxHashMap<Var, (BinOp, Operand, Operand)>,
    changed: bool,
}

impl Cx<'_> {
    fn once(&self, o: Operand) -> bool {
        match o {
            Operand::Const(_) => true,
            Operand::Var(v) => self.defs[v.0 as usize] == 1,
        }
    }

    fn block(&mut self, b: &mut Block) {
        let mut added = Vec::new();
        for inst in &mut b.0 {
            match inst {
                Inst::Binary { dst, op, a, b }
                    if op.is_compare()
                        && self.defs[dst.0 as usize] == 1
                        && self.once(*a)
                        && self.once(*b) =>
                {
                    self.avail.insert(*dst, (*op, *a, *b));
                    added.push(*dst);
                }
                Inst::If { then, els, .. } => {
                    for branch in [then, els] {
                        if can_panic(branch) {
                            self.remat(branch);
                        } else {
                            self.block(branch);
                        }
                    }
                }
                Inst::For { body, .. } | Inst::Loop { body, .. } => self.block(body),
                _ => {}
            }
        }
        for v in added {
            self.avail.remove(&v);
        }
    }

    /// Copies into the top of `b` every available compare `b` reads, and reads the copies.
    fn remat(&mut self, b: &mut Block) {
        let mut copies: FxHashMap<Var, Var> = FxHashMap::default();
        let mut head = Vec::new();
        walk_mut(b, &mut |i| {
            for_each_use_mut(i, |o| {
                let Operand::Var(v) = *o else { return };
                let Some(&(op, a, bb)) = self.avail.get(&v) else {
                    return;
                };
                let fresh = *copies.entry(v).or_insert_with(|| {
                    let dst = self.k.new_var(self.k.ty(v));
                    head.push(Inst::Binary { dst, op, a, b: bb });
                    dst
                });
                *o = Operand::Var(fresh);
            });
        });
        if !head.is_empty() {
            self.changed = true;
            head.append(&mut b.0);
            b.0 = head;
        }
    }
}
