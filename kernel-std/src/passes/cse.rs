//! Common subexpression elimination over the structured tree.
//!
//! Walking each block in order, a pure value (arithmetic, comparisons, casts, selects, pure
//! intrinsics such as `tid.x`, shared-memory addresses) computed again from the same operands
//! while the variable that holds the first result still holds it becomes a `mov` from that
//! variable; `const_fold` then propagates the copy. What is available is forgotten as soon as an
//! operand or the holding variable is written. Facts flow into both branches of an `if` and out
//! of it only where both branches agree (or from the branch that falls through); a loop body
//! starts without facts about anything the loop writes.
//!
//! Loads are never merged (memory may change in between). Float multiplies are left alone so
//! that `fma` contraction still sees one product per add, as nvcc does.
//!
//! Besides smaller code, this makes repeated index computations one variable, so `bce` can see
//! that two checks are identical.

use super::fx::FxHashMap;

use super::util::{assigned_vars, falls_through, for_each_def, is_removable, single_dst};
use crate::ir::{BinOp, Block, Inst, IntrinsicId, Kernel, Operand, SharedId, Ty, UnOp, Var};

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Key {
    Un(UnOp, Operand, Ty),
    Bin(BinOp, Operand, Operand, Ty),
    Fma(Operand, Operand, Operand),
    Cast(Operand, Ty),
    Bitcast(Operand, Ty),
    Select(Operand, Operand, Operand),
    Intrinsic(IntrinsicId, Vec<Operand>),
    SharedAddr(SharedId),
    DynSharedAddr,
    DynSharedBytes,
}

impl Key {
    fn operands(&self) -> Vec<Operand> {
        match self {
            Key::Un(_, a, _) | Key::Cast(a, _) | Key::Bitcast(a, _) => vec![*a],
            Key::Bin(_, a, b, _) => vec![*a, *b],
            Key::Fma(a, b, c) | Key::Select(a, b, c) => vec![*a, *b, *c],
            Key::Intrinsic(_, args) => args.clone(),
            Key::SharedAddr(_) | Key::DynSharedAddr | Key::DynSharedBytes => vec![],
        }
    }
}

#[derive(Clone, Default)]
struct Avail {
    holder: FxHashMap<Key, Var>,
    /// Keys that mention a variable (as operand or holder); may hold stale keys.
    by_var: FxHashMap<Var, Vec<Key>>,
}

impl Avail {
    fn kill(&mut self, v: Var) {
        if let Some(keys) = self.by_var.remove(&v) {
            for key in keys {
                self.holder.remove(&key);
            }
        }
    }

    fn add(&mut self, key: Key, h: Var) {
        for o in key.operands() {
            if let Operand::Var(v) = o {
                self.by_var.entry(v).or_default().push(key.clone());
            }
        }
        self.by_var.entry(h).or_default().push(key.clone());
        self.holder.insert(key, h);
    }

    fn intersect(&mut self, other: &Avail) {
        self.holder.retain(|k, h| other.holder.get(k) == Some(h));
    }
}

/// Returns whether any computation was replaced by a copy.
pub fn cse(k: &mut Kernel) -> bool {
    let mut body = std::mem::take(&mut k.body);
    let mut cx = Cx {
        vars: &k.vars,
        changed: false,
    };
    cx.block(&mut body, &mut Avail::default());
    k.body = body;
    cx.changed
}

struct Cx<'a> {
    vars: &'a [Ty],
    changed: bool,
}

impl Cx<'_> {
    fn key(&self, inst: &Inst) -> Option<Key> {
        let ty = |v: Var| self.vars[v.0 as usize];
        Some(match inst {
            Inst::Unary { dst, op, a } => Key::Un(*op, *a, ty(*dst)),
            Inst::Binary { dst, op, a, b } => {
                if *op == BinOp::Mul && ty(*dst).is_float() {
                    return None;
                }
                Key::Bin(*op, *a, *b, ty(*dst))
            }
            Inst::Fma { a, b, c, .. } => Key::Fma(*a, *b, *c),
            Inst::Cast { dst, a } => Key::Cast(*a, ty(*dst)),
            Inst::Bitcast { dst, a } => Key::Bitcast(*a, ty(*dst)),
            Inst::Select { cond, a, b, .. } => Key::Select(*cond, *a, *b),
            Inst::Intrinsic { id, dsts, args } if dsts.len() == 1 && is_removable(inst) => {
                Key::Intrinsic(*id, args.clone())
            }
            Inst::SharedAddr { alloc, .. } => Key::SharedAddr(*alloc),
            Inst::DynSharedAddr { .. } => Key::DynSharedAddr,
            Inst::DynSharedBytes { .. } => Key::DynSharedBytes,
            _ => return None,
        })
    }

    fn block(&mut self, b: &mut Block, av: &mut Avail) {
        for inst in &mut b.0 {
            match inst {
                Inst::If { then, els, .. } => {
                    let mut at = av.clone();
                    self.block(then, &mut at);
                    let mut ae = av.clone();
                    self.block(els, &mut ae);
                    *av = match (falls_through(then), falls_through(els)) {
                        (true, true) => {
                            at.intersect(&ae);
                            at
                        }
                        (true, false) => at,
                        (false, true) => ae,
                        (false, false) => Avail::default(),
                    };
                }
                Inst::For { iv, body, .. } => {
                    for v in assigned_vars(body) {
                        av.kill(v);
                    }
                    av.kill(*iv);
                    let mut inner = av.clone();
                    self.block(body, &mut inner);
                }
                Inst::Loop { body, .. } => {
                    for v in assigned_vars(body) {
                        av.kill(v);
                    }
                    let mut inner = av.clone();
                    self.block(body, &mut inner);
                }
                _ => {
                    let key = self.key(inst);
                    if let (Some(key), Some(d)) = (&key, single_dst(inst)) {
                        if let Some(&h) = av.holder.get(key) {
                            if h != d {
                                *inst = Inst::Mov {
                                    dst: d,
                                    src: Operand::Var(h),
                                };
                                self.changed = true;
                            }
                        }
                    }
                    for_each_def(inst, |v| av.kill(v));
                    if let (Some(key), Some(d)) = (key, single_dst(inst)) {
                        let reads_dst = key.operands().contains(&Operand::Var(d));
                        if !matches!(inst, Inst::Mov { .. }) && !reads_dst {
                            av.add(key, d);
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{Const, Unroll};
    use crate::passes::testkit::*;

    #[test]
    fn repeated_index_math_is_computed_once() {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let x = param(&mut k, "x", Ty::F32);
        let (t, a, b, c) = (
            k.new_var(Ty::U32),
            k.new_var(Ty::U32),
            k.new_var(Ty::U32),
            k.new_var(Ty::U32),
        );
        let (m1, m2) = (k.new_var(Ty::F32), k.new_var(Ty::F32));
        k.body.0 = vec![
            intr("tid.x", vec![t], vec![]),
            bin(a, BinOp::Mul, t, u32c(4)),
            intr("tid.x", vec![c], vec![]),
            bin(b, BinOp::Mul, c, u32c(4)),
            store(p, b),
            bin(b, BinOp::Mul, t, u32c(4)),
            store(p, b),
            // `a`'s holder is rewritten: the product must be computed again.
            bin(a, BinOp::Add, a, u32c(1)),
            bin(c, BinOp::Mul, t, u32c(4)),
            store(p, c),
            store(p, a),
            // Float products stay separate (each may feed its own fma).
            bin(m1, BinOp::Mul, x, x),
            bin(m2, BinOp::Mul, x, x),
            store(p, m1),
            store(p, m2),
        ];
        assert!(cse(&mut k));
        assert_body(
            &k,
            "
            v2 = call tid.x()
            v3 = mul.u32 v2, 4u32
            v5 = mov v2
            v4 = mul.u32 v5, 4u32
            store.global.u32 [v0], v4
            v4 = mov v3
            store.global.u32 [v0], v4
            v3 = add.u32 v3, 1u32
            v5 = mul.u32 v2, 4u32
            store.global.u32 [v0], v5
            store.global.u32 [v0], v3
            v6 = mul.f32 v1, v1
            v7 = mul.f32 v1, v1
            store.global.f32 [v0], v6
            store.global.f32 [v0], v7
            ",
        );
    }

    #[test]
    fn loops_and_branches_limit_availability() {
        let mut k = kernel();
        let p = param(&mut k, "p", Ty::U64);
        let n = param(&mut k, "n", Ty::U32);
        let q = param(&mut k, "q", Ty::Bool);
        let (a, b, i, s) = (
            k.new_var(Ty::U32),
            k.new_var(Ty::U32),
            k.new_var(Ty::U32),
            k.new_var(Ty::U32),
        );
        let body = vec![
            // `s` changes every iteration, so `s + n` is not available from before the loop.
            bin(b, BinOp::Add, s, n),
            store(p, b),
            bin(s, BinOp::Add, s, u32c(1)),
            // `n * 2` is loop invariant and available from before the loop.
            bin(b, BinOp::Mul, n, u32c(2)),
            store(p, b),
        ];
        let l = for_(&mut k, i, u32c(0), u32c(3), Unroll::Never, body);
        k.body.0 = vec![
            mov(s, u32c(0)),
            bin(a, BinOp::Add, s, n),
            bin(a, BinOp::Mul, n, u32c(2)),
            l,
            if_(
                q,
                vec![bin(b, BinOp::Sub, n, u32c(1))],
                vec![bin(b, BinOp::Sub, n, u32c(1))],
            ),
            bin(a, BinOp::Sub, n, u32c(1)),
            store(p, a),
        ];
        let orig = k.clone();
        cse(&mut k);
        let got = text(&k);
        assert!(got.contains("  v4 = add.u32 v6, v1\n"), "{got}");
        assert!(got.contains("  v4 = mov v3\n"), "{got}");
        assert!(
            got.ends_with("v3 = mov v4\nstore.global.u32 [v0], v3\n"),
            "{got}"
        );
        for (nv, qv) in [(3u32, true), (9, false)] {
            let args = [
                (p, Const::u64(0)),
                (n, Const::u32(nv)),
                (q, Const::bool(qv)),
            ];
            assert_eq!(run(&orig, &args), run(&k, &args));
        }
    }
}
