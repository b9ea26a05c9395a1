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
//! Each copy goes right before the instruction in the branch that reads it, not at the branch's
//! top: the dispatch then holds one predicate at a time instead of all of them at once (held
//! together they cost a general register each through `P2R`, and the branch's peak pressure is
//! the kernel's register count).
//!
//! Exact: a compare is copied only from a definition that precedes the branch in the
//! enclosing blocks (it ran before the branch on every path that reaches it) and whose operands
//! are constants, parameters or variables written once in the kernel, so that between the two
//! points nothing changed them: the copy computes the same value.

use super::fx::FxHashMap;
use super::util::{can_panic, def_counts};
use kernel_ir::ir::{Block, Inst, Kernel, Operand, Var};
use kernel_ir::visit::{blocks_mut, for_each_def_mut, for_each_use_mut};

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
    avail: FxHashMap<Var, Inst>,
    changed: bool,
}

impl Cx<'_> {
    fn once(&self, o: Operand) -> bool {
        match o {
            Operand::Const(_) => true,
            Operand::Var(v) => self.defs[v.0 as usize] == 1,
        }
    }

    /// Whether `inst` may be made again wherever its result is read later in the enclosing
    /// blocks.
    fn copyable(&self, inst: &Inst) -> Option<Var> {
        match *inst {
            Inst::Binary { dst, op, a, b }
                if op.is_compare()
                    && self.defs[dst.0 as usize] == 1
                    && self.once(a)
                    && self.once(b) =>
            {
                Some(dst)
            }
            _ => None,
        }
    }

    fn block(&mut self, b: &mut Block) {
        let mut added = Vec::new();
        for inst in &mut b.0 {
            if let Some(dst) = self.copyable(inst) {
                self.avail.insert(dst, inst.clone());
                added.push(dst);
                continue;
            }
            match inst {
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

    /// Makes every available value an instruction of `b` (nested blocks included) reads again
    /// right before that instruction, and reads the copy.
    fn remat(&mut self, b: &mut Block) {
        let old = std::mem::take(&mut b.0);
        let mut out = Vec::with_capacity(old.len() + 4);
        for mut inst in old {
            let mut made = FxHashMap::default();
            let mut before = Vec::new();
            for_each_use_mut(&mut inst, |o| {
                if let Operand::Var(v) = *o {
                    if let Some(c) = self.copy(v, &mut made, &mut before) {
                        *o = Operand::Var(c);
                    }
                }
            });
            for inner in blocks_mut(&mut inst) {
                self.remat(inner);
            }
            self.changed |= !before.is_empty();
            out.append(&mut before);
            out.push(inst);
        }
        b.0 = out;
    }

    /// A copy of the available value `v` (and of the available values it reads) appended to
    /// `before`; `made` holds the copies made for the same instruction.
    fn copy(
        &mut self,
        v: Var,
        made: &mut FxHashMap<Var, Var>,
        before: &mut Vec<Inst>,
    ) -> Option<Var> {
        if let Some(&c) = made.get(&v) {
            return Some(c);
        }
        let mut def = self.avail.get(&v)?.clone();
        for_each_use_mut(&mut def, |o| {
            if let Operand::Var(x) = *o {
                if let Some(c) = self.copy(x, made, before) {
                    *o = Operand::Var(c);
                }
            }
        });
        let fresh = self.k.new_var(self.k.ty(v));
        for_each_def_mut(&mut def, |d| *d = fresh);
        before.push(def);
        made.insert(v, fresh);
        Some(fresh)
    }
}
