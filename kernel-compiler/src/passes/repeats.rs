//! Repeated definitions: `v = x * 8` computed again into `v` while `v` and `x` still hold what
//! they held at the previous `v = x * 8` of the same block does nothing, and is dropped.
//!
//! Why: the copies of an unrolled body each recompute the body's loop-invariant index math
//! into the same variables (`v140 = mul.u64 v32, 8u64` 128 times in SGEMM). `cse` keeps them
//! (the holder of the value is the destination itself), and `split_webs` would give each one
//! its own variable, only for `cse` to merge them again after `defer_checks`. Dropping them
//! first leaves one definition, so the passes from `split_webs` on walk about a third less code.
//! It runs after `narrow_index`, which narrows only variables written once: earlier, it would
//! narrow values it leaves wide today (and ptxas then allocated more registers on sm_90).
//!
//! The rewrite is exact: only a pure instruction (no fault, no effect) whose destination and
//! operands are all unchanged since its previous identical instance in the same block goes.

use super::util::pure_def;
use kernel_ir::ir::{Block, Inst, Kernel, Operand, Ty, Var};
use kernel_ir::visit::{for_each_def, for_each_use, is_compound};

/// Returns whether any instruction was dropped.
pub fn drop_repeats(k: &mut Kernel) -> bool {
    let n = k.vars.len();
    let mut cx = Cx {
        bools: k.vars.iter().map(|t| *t == Ty::Bool).collect(),
        stamp: vec![0; n],
        prev: vec![Prev::NONE; n],
        time: 0,
        blocks: 0,
        changed: false,
    };
    let mut body = std::mem::take(&mut k.body);
    cx.block(&mut body);
    k.body = body;
    cx.changed
}

/// The latest definition of a variable, when it is a pure top-level instruction of a block.
#[derive(Clone, Copy)]
struct Prev {
    block: u32,
    index: u32,
    time: u32,
}

impl Prev {
    const NONE: Prev = Prev {
        block: u32::MAX,
        index: 0,
        time: 0,
    };
}

struct Cx {
    /// Per variable, whether it is a `bool`.
    bools: Vec<bool>,
    /// Per variable, when it was last assigned (0: not yet).
    stamp: Vec<u32>,
    prev: Vec<Prev>,
    /// Counts instructions in program order (pre-order of the tree), from 1.
    time: u32,
    /// Blocks entered so far: a block's number tells its own facts from its ancestors'.
    blocks: u32,
    changed: bool,
}

impl Cx {
    fn block(&mut self, b: &mut Block) {
        self.blocks += 1;
        let me = self.blocks;
        let mut keep: Vec<bool> = Vec::new();
        for i in 0..b.0.len() {
            let inst = &mut b.0[i];
            if is_compound(inst) {
                match inst {
                    Inst::If { then, els, .. } => {
                        self.block(then);
                        self.block(els);
                    }
                    Inst::For { body, .. } | Inst::Loop { body, .. } => self.block(body),
                    _ => {}
                }
                // What it assigns itself (a loop's induction variable) changed here. What its
                // blocks assign needs no second walk: the recursion stamped each such variable
                // with a time after every earlier instruction of this block and before every
                // later one, which is all `unchanged_since` compares, and left its `prev` in a
                // nested block's number, which never matches this block's.
                self.time += 1;
                let t = self.time;
                for_each_def(inst, |v| {
                    self.stamp[v.0 as usize] = t;
                    self.prev[v.0 as usize] = Prev::NONE;
                });
                continue;
            }
            self.time += 1;
            let inst = &b.0[i];
            // Conditions stay: a repeated compare is what lets ptxas keep a check's predicate
            // short-lived (one condition reused across a transpose's rows took 8 more registers).
            let d = pure_single_dst(inst).filter(|d| !self.bools[d.0 as usize]);
            if let Some(d) = d {
                let p = self.prev[d.0 as usize];
                if p.block == me
                    && self.unchanged_since(inst, p.time)
                    && b.0[p.index as usize] == *inst
                {
                    if keep.is_empty() {
                        keep.resize(b.0.len(), true);
                    }
                    keep[i] = false;
                    continue;
                }
            }
            let t = self.time;
            for_each_def(inst, |v| {
                self.stamp[v.0 as usize] = t;
                self.prev[v.0 as usize] = Prev::NONE;
            });
            if let Some(d) = d {
                self.prev[d.0 as usize] = Prev {
                    block: me,
                    index: i as u32,
                    time: t,
                };
            }
        }
        if !keep.is_empty() {
            self.changed = true;
            let mut it = keep.iter();
            b.0.retain(|_| *it.next().unwrap_or(&true));
        }
    }

    /// Whether no variable `inst` reads was assigned after time `t`.
    fn unchanged_since(&self, inst: &Inst, t: u32) -> bool {
        let mut ok = true;
        for_each_use(inst, |o| {
            if let Operand::Var(x) = o {
                ok &= self.stamp[x.0 as usize] < t;
            }
        });
        ok
    }
}

/// The destination of a pure single-result instruction that does not read it.
fn pure_single_dst(inst: &Inst) -> Option<Var> {
    let d = pure_def(inst)?;
    let mut reads_d = false;
    for_each_use(inst, |o| reads_d |= o == Operand::Var(d));
    (!reads_d).then_some(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::passes::testkit::*;
    use kernel_ir::ir::{BinOp, Const};

    #[test]
    fn only_repeats_of_unchanged_values_go() {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let x = param(&mut k, "x", Ty::U64);
        let q = param(&mut k, "q", Ty::Bool);
        let (a, b, c) = (k.new_var(Ty::U64), k.new_var(Ty::U64), k.new_var(Ty::Bool));
        k.body.0 = vec![
            bin(a, BinOp::Mul, x, u64c(8)),
            store(p, a),
            // Same value into the same variable: dropped.
            bin(a, BinOp::Mul, x, u64c(8)),
            bin(b, BinOp::Add, a, u64c(1)),
            store(p, b),
            // `b` changes between its two definitions only through itself: dropped.
            bin(b, BinOp::Add, a, u64c(1)),
            // Conditions stay (see the module doc).
            bin(c, BinOp::Lt, x, u64c(9)),
            bin(c, BinOp::Lt, x, u64c(9)),
            // An operand assigned in between (inside an `if`): kept.
            if_(q, vec![bin(x, BinOp::Add, x, u64c(1))], vec![]),
            bin(a, BinOp::Mul, x, u64c(8)),
            store(p, a),
            // Another operation into `a`: kept, and so is the one after it.
            bin(a, BinOp::Add, x, u64c(8)),
            bin(a, BinOp::Mul, x, u64c(8)),
            // Reads its own destination: kept.
            bin(a, BinOp::Add, a, u64c(8)),
            bin(a, BinOp::Add, a, u64c(8)),
            if_(
                c,
                // A nested block knows nothing of its parent's definitions.
                vec![
                    bin(a, BinOp::Add, a, u64c(8)),
                    bin(b, BinOp::Add, a, u64c(1)),
                ],
                vec![],
            ),
            store(p, a),
            store(p, b),
        ];
        let orig = k.clone();
        assert!(drop_repeats(&mut k));
        assert_body(
            &k,
            "
            v3 = mul.u64 v1, 8u64
            store.global.u64 [v0], v3
            v4 = add.u64 v3, 1u64
            store.global.u64 [v0], v4
            v5 = lt.u64 v1, 9u64
            v5 = lt.u64 v1, 9u64
            if v2 {
              v1 = add.u64 v1, 1u64
            }
            v3 = mul.u64 v1, 8u64
            store.global.u64 [v0], v3
            v3 = add.u64 v1, 8u64
            v3 = mul.u64 v1, 8u64
            v3 = add.u64 v3, 8u64
            v3 = add.u64 v3, 8u64
            if v5 {
              v3 = add.u64 v3, 8u64
              v4 = add.u64 v3, 1u64
            }
            store.global.u64 [v0], v3
            store.global.u64 [v0], v4
            ",
        );
        for (xv, qv) in [(3u64, true), (20, false)] {
            let args = [
                (p, Const::u64(0)),
                (x, Const::u64(xv)),
                (q, Const::bool(qv)),
            ];
            assert_eq!(run(&orig, &args), run(&k, &args));
        }
        assert!(!drop_repeats(&mut k));
    }
}
