//! Constant folding, constant/copy propagation, exact algebraic identities, branch folding and
//! removal of unreachable code and unused pure values.
//!
//! Propagation is flow sensitive over the structured tree, so it also works after unrolling, where
//! one variable is assigned once per unrolled copy: walking a block in order, a `Mov` of a constant
//! or of another variable records a fact `v = value` that is dropped as soon as `v` (or the copied
//! variable) is written again. Facts from before an `if` flow into both branches; after it only
//! facts that both branches agree on survive (a branch that cannot fall through contributes none).
//! Before a loop body every variable written anywhere in the loop (its induction variable
//! included) loses its facts, since its value at the top of a later iteration is unknown.
//!
//! Identities are applied only where they are exact for every input: for integers `x+0`, `x-0`,
//! `x*1`, `x*0`, `x/1`, `x%1`, `x&0`, `x&!0`, `x|0`, `x|!0`, `x^0`, `x-x`, `x^x`, `x<<0`, `x>>0`
//! and comparisons of a value with itself; for floats only `x*1.0`, `x/1.0`, `x+(-0.0)` and
//! `x-0.0`, which keep NaNs NaN and the sign of zero.

use std::collections::HashMap;

use super::dce::remove_dead_values;
use super::eval::{
    eval_binary, eval_bitcast, eval_cast, eval_fma, eval_unary, int_const, is_all_ones, is_int_one,
    is_int_zero,
};
use super::util::{
    assigned_vars, diverges, falls_through, for_each_def, for_each_use_mut, jumps_to_insts,
};
use crate::ir::{BinOp, Block, Const, Inst, Kernel, Operand, Ty, Var};

/// Runs folding and dead-value removal to a fixed point. Returns whether anything changed.
pub fn const_fold(k: &mut Kernel) -> bool {
    let mut any = false;
    for _ in 0..16 {
        let mut f = Folder {
            vars: &k.vars,
            changed: false,
        };
        let mut body = std::mem::take(&mut k.body);
        f.block(&mut body, &mut Env::default());
        let changed = f.changed;
        k.body = body;
        let removed = remove_dead_values(k);
        if !changed && !removed {
            break;
        }
        any = true;
    }
    any
}

/// Known values of variables at a program point.
#[derive(Clone, Default)]
struct Env {
    known: HashMap<Var, Operand>,
}

impl Env {
    fn kill(&mut self, v: Var) {
        self.known.remove(&v);
        self.known.retain(|_, val| *val != Operand::Var(v));
    }
    fn get(&self, o: Operand) -> Operand {
        match o {
            Operand::Var(v) => self.known.get(&v).copied().unwrap_or(o),
            c => c,
        }
    }
    fn intersect(&mut self, other: &Env) {
        self.known.retain(|v, val| other.known.get(v) == Some(val));
    }
}

struct Folder<'a> {
    vars: &'a [Ty],
    changed: bool,
}

fn cst(o: Operand) -> Option<Const> {
    match o {
        Operand::Const(c) => Some(c),
        Operand::Var(_) => None,
    }
}

impl Folder<'_> {
    fn block(&mut self, b: &mut Block, env: &mut Env) {
        let old = std::mem::take(&mut b.0);
        let mut out = Vec::with_capacity(old.len());
        let mut iter = old.into_iter();
        while let Some(inst) = iter.next() {
            self.inst(inst, env, &mut out);
            if out.last().is_some_and(diverges) {
                if iter.next().is_some() {
                    self.changed = true;
                }
                break;
            }
        }
        b.0 = out;
    }

    fn subst(&mut self, inst: &mut Inst, env: &Env) {
        let mut changed = false;
        for_each_use_mut(inst, |o| {
            let n = env.get(*o);
            if n != *o {
                *o = n;
                changed = true;
            }
        });
        self.changed |= changed;
    }

    fn inst(&mut self, mut inst: Inst, env: &mut Env, out: &mut Vec<Inst>) {
        self.subst(&mut inst, env);
        match inst {
            Inst::If {
                cond,
                mut then,
                mut els,
            } => {
                if let Some(c) = cst(cond) {
                    self.changed = true;
                    let mut taken = if c.bits != 0 { then } else { els };
                    self.block(&mut taken, env);
                    out.extend(taken.0);
                    return;
                }
                let mut env_t = env.clone();
                self.block(&mut then, &mut env_t);
                let mut env_e = env.clone();
                self.block(&mut els, &mut env_e);
                *env = match (falls_through(&then), falls_through(&els)) {
                    (true, true) => {
                        env_t.intersect(&env_e);
                        env_t
                    }
                    (true, false) => env_t,
                    (false, true) => env_e,
                    (false, false) => Env::default(),
                };
                if then.0.is_empty() && els.0.is_empty() {
                    self.changed = true;
                    return;
                }
                out.push(Inst::If { cond, then, els });
            }
            Inst::For {
                id,
                iv,
                start,
                end,
                inclusive,
                step,
                reverse,
                mut body,
                unroll,
            } => {
                if let (Some(s), Some(e)) = (cst(start), cst(end)) {
                    let (s, e) = (s.as_i128(), e.as_i128());
                    if s > e || (s == e && !inclusive) {
                        self.changed = true;
                        return;
                    }
                }
                for v in assigned_vars(&body) {
                    env.kill(v);
                }
                env.kill(iv);
                let mut inner = env.clone();
                self.block(&mut body, &mut inner);
                out.push(Inst::For {
                    id,
                    iv,
                    start,
                    end,
                    inclusive,
                    step,
                    reverse,
                    body,
                    unroll,
                });
            }
            Inst::Loop { id, mut body } => {
                let runs_once = matches!(body.0.last(), Some(Inst::Break(l)) if *l == id)
                    && !jumps_to_insts(&body.0[..body.0.len() - 1], id);
                if runs_once {
                    self.changed = true;
                    body.0.pop();
                    for i in body.0 {
                        self.inst(i, env, out);
                        if out.last().is_some_and(diverges) {
                            break;
                        }
                    }
                    return;
                }
                for v in assigned_vars(&body) {
                    env.kill(v);
                }
                let mut inner = env.clone();
                self.block(&mut body, &mut inner);
                out.push(Inst::Loop { id, body });
            }
            Inst::BoundsCheck { idx, len, site } => match (cst(idx), cst(len)) {
                (Some(i), Some(l)) if i.bits < l.bits => self.changed = true,
                (Some(_), Some(_)) => {
                    self.changed = true;
                    out.push(Inst::Panic {
                        site,
                        a: idx,
                        b: len,
                    });
                }
                _ => out.push(Inst::BoundsCheck { idx, len, site }),
            },
            mut other => {
                if let Some(s) = self.simplify(&other) {
                    self.changed = true;
                    other = s;
                }
                if let Inst::Mov {
                    dst,
                    src: Operand::Var(s),
                } = other
                {
                    if s == dst {
                        self.changed = true;
                        return;
                    }
                }
                for_each_def(&other, |v| env.kill(v));
                if let Inst::Mov { dst, src } = other {
                    env.known.insert(dst, src);
                }
                out.push(other);
            }
        }
    }

    fn ty(&self, o: Operand) -> Ty {
        match o {
            Operand::Var(v) => self.vars[v.0 as usize],
            Operand::Const(c) => c.ty,
        }
    }

    /// A simpler equivalent of `inst`, if there is one.
    fn simplify(&self, inst: &Inst) -> Option<Inst> {
        let mov = |dst, src: Operand| Some(Inst::Mov { dst, src });
        match *inst {
            Inst::Unary { dst, op, a } => {
                let r = eval_unary(op, cst(a)?, self.vars[dst.0 as usize])?;
                mov(dst, r.into())
            }
            Inst::Binary { dst, op, a, b } => {
                if let (Some(x), Some(y)) = (cst(a), cst(b)) {
                    if let Some(r) = eval_binary(op, x, y) {
                        return mov(dst, r.into());
                    }
                }
                self.identity(dst, op, a, b)
            }
            Inst::Fma { dst, a, b, c } => {
                let r = eval_fma(cst(a)?, cst(b)?, cst(c)?)?;
                mov(dst, r.into())
            }
            Inst::Cast { dst, a } => {
                let to = self.vars[dst.0 as usize];
                if self.ty(a) == to {
                    return mov(dst, a);
                }
                mov(dst, eval_cast(cst(a)?, to)?.into())
            }
            Inst::Bitcast { dst, a } => {
                let to = self.vars[dst.0 as usize];
                if self.ty(a) == to {
                    return mov(dst, a);
                }
                mov(dst, eval_bitcast(cst(a)?, to)?.into())
            }
            Inst::Select { dst, cond, a, b } => {
                if a == b {
                    return mov(dst, a);
                }
                let c = cst(cond)?;
                mov(dst, if c.bits != 0 { a } else { b })
            }
            _ => None,
        }
    }

    fn identity(&self, dst: crate::ir::Var, op: BinOp, a: Operand, b: Operand) -> Option<Inst> {
        let t = self.ty(a);
        let mov = |src: Operand| Some(Inst::Mov { dst, src });
        let (ca, cb) = (cst(a), cst(b));
        let same = matches!((a, b), (Operand::Var(x), Operand::Var(y)) if x == y);
        let zero = Operand::Const(int_const(t, 0));
        if t.is_int() || t == Ty::Bool {
            let z = |c: Option<Const>| c.is_some_and(is_int_zero);
            let one = |c: Option<Const>| c.is_some_and(is_int_one) && t != Ty::Bool;
            let ones = |c: Option<Const>| c.is_some_and(is_all_ones);
            if op.is_compare() && same {
                let r = matches!(op, BinOp::Eq | BinOp::Le | BinOp::Ge);
                return mov(Const::bool(r).into());
            }
            return match op {
                BinOp::Add | BinOp::Or | BinOp::Xor if z(cb) => mov(a),
                BinOp::Add | BinOp::Or | BinOp::Xor if z(ca) => mov(b),
                BinOp::Sub if z(cb) => mov(a),
                BinOp::Sub | BinOp::Xor if same => mov(zero),
                BinOp::Mul if one(cb) => mov(a),
                BinOp::Mul if one(ca) => mov(b),
                BinOp::Mul if z(ca) || z(cb) => mov(zero),
                BinOp::Div if one(cb) => mov(a),
                BinOp::Rem if one(cb) => mov(zero),
                BinOp::And if z(ca) || z(cb) => mov(zero),
                BinOp::And if ones(cb) => mov(a),
                BinOp::And if ones(ca) => mov(b),
                BinOp::Or if ones(ca) || ones(cb) => mov(Operand::Const(int_const(t, -1))),
                BinOp::And | BinOp::Or | BinOp::Min | BinOp::Max if same => mov(a),
                BinOp::Shl | BinOp::Shr
                    if t.is_int() && cb.is_some_and(|c| c.bits as u32 & (t.bits() - 1) == 0) =>
                {
                    mov(a)
                }
                _ => None,
            };
        }
        if !t.is_float() {
            return None;
        }
        let is = |c: Option<Const>, v: f64| {
            c.and_then(super::eval::float_value)
                .is_some_and(|x| x == v && x.is_sign_negative() == v.is_sign_negative())
        };
        match op {
            BinOp::Mul if is(cb, 1.0) => mov(a),
            BinOp::Mul if is(ca, 1.0) => mov(b),
            BinOp::Div if is(cb, 1.0) => mov(a),
            BinOp::Add if is(cb, -0.0) => mov(a),
            BinOp::Add if is(ca, -0.0) => mov(b),
            BinOp::Sub if is(cb, 0.0) => mov(a),
            _ => None,
        }
    }
}
