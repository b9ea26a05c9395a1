//! `match`: patterns become tests on the flattened scrutinee, arms an `if` chain (or, with guards,
//! a "matched" flag so the lowering stays linear in the number of arms).

use crate::passes::fx::FxHashMap as HashMap;

use kernel_ir::ast::{self, Arm, Expr, Pat, Span};
use kernel_ir::ir::{self, BinOp, Const, Inst, Operand};

use super::consts::const_value_ty;
use super::scope::Binding;
use super::types::Ty;
use super::value::{Loc, Val};
use super::{Lower, R};

impl Lower {
    pub fn match_expr(&mut self, e: &Expr, scrutinee: &Expr, arms: &[Arm]) -> R<Val> {
        let t = self.ty(e);
        let st = self.ty(scrutinee);
        let v = self.expr(scrutinee)?;
        let (v, st) = match (v, &st) {
            (Val::Ref(l), Ty::Ref(..)) => {
                let (l, inner) =
                    self.auto_deref(Loc::Fixed(Box::new(Val::Ref(l))), st.clone(), e.span)?;
                (self.read(&l, &inner, e.span)?, inner)
            }
            (v, _) => (v, st.clone()),
        };
        let mut result = None;
        if arms.iter().any(|a| a.guard.is_some()) {
            // Guards: a "matched" flag keeps the lowering linear in the number of arms.
            let done = self.var(ir::Ty::Bool);
            self.emit(Inst::Mov {
                dst: done,
                src: Operand::Const(Const::bool(false)),
            });
            for arm in arms {
                self.open();
                let test = self.pat_test(&arm.pat, &st, &v, arm.span)?;
                self.open();
                self.cx_mut().scopes.push(HashMap::default());
                self.bind_arm(&arm.pat, &st, &v, arm.span)?;
                let g = match &arm.guard {
                    Some(g) => Some(self.scalar(g)?),
                    None => None,
                };
                self.open();
                self.emit(Inst::Mov {
                    dst: done,
                    src: Operand::Const(Const::bool(true)),
                });
                let bv = self.expr(&arm.body)?;
                self.branch_result(&mut result, &t, &bv, arm.body.span)?;
                let body = self.close();
                self.cx_mut().scopes.pop();
                match g {
                    Some(g) => self.emit(Inst::If {
                        cond: g,
                        then: body,
                        els: ir::Block::default(),
                    }),
                    None => self.splice(body),
                }
                let matched = self.close();
                match test {
                    Some(c) => self.emit(Inst::If {
                        cond: c,
                        then: matched,
                        els: ir::Block::default(),
                    }),
                    None => self.splice(matched),
                }
                let arm_block = self.close();
                let not_done = self.un(ir::UnOp::Not, Operand::Var(done), ir::Ty::Bool);
                self.emit(Inst::If {
                    cond: not_done,
                    then: arm_block,
                    els: ir::Block::default(),
                });
            }
        } else {
            self.arm_chain(arms, &st, &v, &mut result, &t)?;
        }
        match result {
            Some(l) => self.read(&l, &t, e.span),
            None => Ok(Val::Never),
        }
    }

    /// `if p0 { b0 } else if p1 { b1 } ... else { last }` (rustc checked exhaustiveness, so
    /// the last arm needs no test).
    fn arm_chain(
        &mut self,
        arms: &[Arm],
        st: &Ty,
        v: &Val,
        result: &mut Option<Loc>,
        t: &Ty,
    ) -> R<()> {
        let Some((arm, rest)) = arms.split_first() else {
            return Ok(());
        };
        let test = if rest.is_empty() {
            None
        } else {
            self.pat_test(&arm.pat, st, v, arm.span)?
        };
        self.open();
        self.cx_mut().scopes.push(HashMap::default());
        self.bind_arm(&arm.pat, st, v, arm.span)?;
        let bv = self.expr(&arm.body)?;
        self.branch_result(result, t, &bv, arm.body.span)?;
        self.cx_mut().scopes.pop();
        let body = self.close();
        match test {
            None => {
                self.splice(body);
            }
            Some(c) => {
                self.open();
                self.arm_chain(rest, st, v, result, t)?;
                let els = self.close();
                self.emit(Inst::If {
                    cond: c,
                    then: body,
                    els,
                });
            }
        }
        Ok(())
    }

    /// Binds the names of a match pattern (identifiers bind the matched value).
    fn bind_arm(&mut self, p: &Pat, t: &Ty, v: &Val, sp: Span) -> R<()> {
        match p {
            Pat::Ident { name, mutable } => {
                let loc = self.bind_value(t, v.clone(), *mutable, name, sp)?;
                self.cx_mut().bind(name, Binding { ty: t.clone(), loc });
            }
            Pat::Tuple(ps) => {
                let tys = self.agg_tys(t, sp)?;
                if let Val::Agg(vs) = v {
                    for ((p, et), v) in ps.iter().zip(tys.iter()).zip(vs) {
                        self.bind_arm(p, et, v, sp)?;
                    }
                }
            }
            Pat::Or(ps) if ps.iter().any(pat_binds) => {
                return Err(self.err(sp, "or-patterns that bind names are not supported"));
            }
            _ => {}
        }
        Ok(())
    }

    /// The condition under which `p` matches `v` (`None`: always).
    fn pat_test(&mut self, p: &Pat, t: &Ty, v: &Val, sp: Span) -> R<Option<Operand>> {
        Ok(match p {
            Pat::Wild | Pat::Ident { .. } => None,
            Pat::Lit(l) => {
                let x = self.scalar_of(v.clone(), t, sp)?;
                let c = self.lit(l, t);
                Some(self.arith(ast::BinOp::Eq, x, c, sp)?)
            }
            Pat::HostConst(h) => {
                let cv = (h.eval)();
                let ct = const_value_ty(&cv).map_err(|m| self.err(sp, m))?;
                let c = self.const_value(&cv, &ct, sp)?;
                let c = self.scalar_of(c, &ct, sp)?;
                let x = self.scalar_of(v.clone(), t, sp)?;
                Some(self.arith(ast::BinOp::Eq, x, c, sp)?)
            }
            Pat::Range {
                start,
                end,
                inclusive,
            } => {
                let x = self.scalar_of(v.clone(), t, sp)?;
                let mut conds = Vec::new();
                if let Some(s) = start {
                    let c = self.pat_const(s, t, sp)?;
                    conds.push(self.arith(ast::BinOp::Ge, x, c, sp)?);
                }
                if let Some(e) = end {
                    let c = self.pat_const(e, t, sp)?;
                    let op = if *inclusive {
                        ast::BinOp::Le
                    } else {
                        ast::BinOp::Lt
                    };
                    conds.push(self.arith(op, x, c, sp)?);
                }
                self.all(conds)
            }
            Pat::Or(ps) => {
                let mut conds = Vec::new();
                for p in ps {
                    match self.pat_test(p, t, v, sp)? {
                        Some(c) => conds.push(c),
                        None => return Ok(None),
                    }
                }
                let mut it = conds.into_iter();
                let first = it.next();
                first.map(|f| it.fold(f, |acc, c| self.bin(BinOp::Or, acc, c)))
            }
            Pat::Tuple(ps) => {
                let tys = self.agg_tys(t, sp)?;
                let Val::Agg(vs) = v else {
                    return Ok(None);
                };
                let mut conds = Vec::new();
                for ((p, et), v) in ps.iter().zip(tys.iter()).zip(vs) {
                    if let Some(c) = self.pat_test(p, et, v, sp)? {
                        conds.push(c);
                    }
                }
                self.all(conds)
            }
            Pat::Array(_) => {
                return Err(self.err(sp, "array patterns in `match` are not supported"))
            }
        })
    }

    fn all(&mut self, conds: Vec<Operand>) -> Option<Operand> {
        let mut it = conds.into_iter();
        let first = it.next()?;
        Some(it.fold(first, |acc, c| self.bin(BinOp::And, acc, c)))
    }

    fn pat_const(&mut self, p: &Pat, t: &Ty, sp: Span) -> R<Operand> {
        match p {
            Pat::Lit(l) => Ok(self.lit(l, t)),
            Pat::HostConst(h) => {
                let cv = (h.eval)();
                let c = self.const_value(&cv, t, sp)?;
                self.scalar_of(c, t, sp)
            }
            _ => Err(self.err(sp, "range pattern bounds must be literals or constants")),
        }
    }
}

fn pat_binds(p: &Pat) -> bool {
    match p {
        Pat::Ident { .. } => true,
        Pat::Tuple(ps) | Pat::Array(ps) | Pat::Or(ps) => ps.iter().any(pat_binds),
        _ => false,
    }
}
