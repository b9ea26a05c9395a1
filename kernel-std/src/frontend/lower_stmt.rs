//! Kernel entry (parameters), blocks, `let` and patterns, and control flow.

use std::collections::HashMap;

use crate::ast::{self, Arm, Block, Expr, ExprKind, FnDef, Pat, Span, Stmt};
use crate::ir::{self, BinOp, Const, Inst, Operand, PanicKind};

use super::consts::{const_value_ty, convert_type, Env};
use super::infer::key;
use super::scope::{Binding, FnCtx, LoopCtx, RetTarget};
use super::types::{layout, struct_fields, struct_layout, Ty};
use super::value::{c_int, c_u32, c_u64, scalar_ir, Loc, Val};
use super::{Lower, R};

impl Lower {
    pub(super) fn lower_kernel_body(&mut self, def: &'static FnDef, env: Env) -> R<()> {
        let types = self.types_for(def, &env)?;
        self.fns
            .push(FnCtx::new(def, env.clone(), types, RetTarget::Kernel));
        for p in &def.params {
            let t = convert_type(&p.ty, &env, &mut || Ty::Unit).map_err(|m| self.err(p.span, m))?;
            let loc = self.kernel_param(&p.name, p.mutable, &t, p.span)?;
            self.cx_mut().bind(&p.name, Binding { ty: t, loc });
        }
        self.block(&def.body)?;
        self.fns.pop();
        Ok(())
    }

    /// Declares one kernel parameter per the `ir::ParamKind` contract and binds its value.
    fn kernel_param(&mut self, name: &str, mutable: bool, t: &Ty, sp: Span) -> R<Loc> {
        let (param, val) = match t {
            Ty::Bool | Ty::Int(_) | Ty::Float(_) => {
                let st = scalar_ir(t);
                let piece = self.named_var(super::types::mem_ir(st), name);
                let (size, align) = layout(t).map_err(|m| self.err(sp, m))?;
                let v = if st == ir::Ty::Bool {
                    self.bin(BinOp::Ne, Operand::Var(piece), c_int(ir::Ty::U8, 0))
                } else {
                    Operand::Var(piece)
                };
                (
                    ir::Param {
                        name: name.to_string(),
                        size,
                        align,
                        kind: ir::ParamKind::Scalar,
                        pieces: vec![(0, piece)],
                    },
                    Val::Scalar(v),
                )
            }
            Ty::Slice(et, m) => {
                let (elem_bytes, _) = layout(et).map_err(|m| self.err(sp, m))?;
                let ptr = self.named_var(ir::Ty::U64, &format!("{name}.ptr"));
                let len = self.named_var(ir::Ty::U64, &format!("{name}.len"));
                (
                    ir::Param {
                        name: name.to_string(),
                        size: 16,
                        align: 8,
                        kind: ir::ParamKind::Slice {
                            readonly: !*m,
                            elem_bytes,
                        },
                        pieces: vec![(0, ptr), (8, len)],
                    },
                    Val::Slice(super::value::SliceVal {
                        ptr: Operand::Var(ptr),
                        len: Operand::Var(len),
                        space: ir::Space::Global,
                        readonly: !*m,
                    }),
                )
            }
            Ty::Struct(_) | Ty::Array(..) => {
                let (size, align) = layout(t).map_err(|m| self.err(sp, m))?;
                let mut pieces = Vec::new();
                let val = self.param_pieces(t, 0, name, &mut pieces, sp)?;
                (
                    ir::Param {
                        name: name.to_string(),
                        size,
                        align,
                        kind: ir::ParamKind::Struct,
                        pieces,
                    },
                    val,
                )
            }
            _ => {
                return Err(self.err(
                    sp,
                    format!("kernel parameter `{name}` has type `{t}`; kernels take scalars, slices, arrays and #[derive(DeviceCopy)] structs"),
                ))
            }
        };
        self.k.params.push(param);
        self.bind_value(t, val, mutable, name, sp)
    }

    /// The scalar pieces of a by-value aggregate parameter at their C offsets.
    fn param_pieces(
        &mut self,
        t: &Ty,
        base: u32,
        name: &str,
        pieces: &mut Vec<(u32, ir::Var)>,
        sp: Span,
    ) -> R<Val> {
        Ok(match t {
            Ty::Struct(s) => {
                let (_, _, offs) = struct_layout(*s).map_err(|m| self.err(sp, m))?;
                let fs = struct_fields(*s).map_err(|m| self.err(sp, m))?;
                let mut vs = Vec::new();
                for ((fname, ft), off) in fs.iter().zip(offs) {
                    vs.push(self.param_pieces(
                        ft,
                        base + off,
                        &format!("{name}.{fname}"),
                        pieces,
                        sp,
                    )?);
                }
                Val::Agg(vs)
            }
            Ty::Array(et, n) => {
                let (esize, _) = layout(et).map_err(|m| self.err(sp, m))?;
                let arrays = self.new_arrays(t, sp)?;
                let loc = Loc::Local {
                    arrays,
                    index: c_u32(0),
                };
                for i in 0..*n {
                    let v = self.param_pieces(
                        et,
                        base + esize * i as u32,
                        &format!("{name}[{i}]"),
                        pieces,
                        sp,
                    )?;
                    let el = self.array_elem_loc(&loc, t, c_u64(i), sp)?;
                    self.write(&el, et, &v, sp)?;
                }
                Val::Array { loc, temp: true }
            }
            _ if t.is_scalar() => {
                let st = scalar_ir(t);
                let piece = self.named_var(super::types::mem_ir(st), name);
                pieces.push((base, piece));
                Val::Scalar(if st == ir::Ty::Bool {
                    self.bin(BinOp::Ne, Operand::Var(piece), c_int(ir::Ty::U8, 0))
                } else {
                    Operand::Var(piece)
                })
            }
            _ => {
                return Err(self.err(
                    sp,
                    format!("type `{t}` cannot be part of a kernel parameter"),
                ))
            }
        })
    }

    pub fn block(&mut self, b: &Block) -> R<Val> {
        self.cx_mut().scopes.push(HashMap::new());
        let r = self.block_inner(b);
        self.cx_mut().scopes.pop();
        r
    }

    fn block_inner(&mut self, b: &Block) -> R<Val> {
        let mut diverged = false;
        for s in &b.stmts {
            match s {
                Stmt::Let {
                    pat, init, span, ..
                } => {
                    let t = self
                        .cx()
                        .types
                        .lets
                        .get(&key(s))
                        .cloned()
                        .unwrap_or(Ty::Unit);
                    match init {
                        Some(e) => {
                            let v = self.expr(e)?;
                            if matches!(v, Val::Never) {
                                diverged = true;
                            }
                            let v = self.coerce_val(v, &self.ty(e), &t, e.span)?;
                            self.bind_pat(pat, &t, v, *span)?;
                        }
                        None => self.bind_uninit(pat, &t, *span)?,
                    }
                }
                Stmt::Expr(e) => {
                    if matches!(self.expr(e)?, Val::Never) {
                        diverged = true;
                    }
                }
            }
        }
        match &b.tail {
            Some(t) => self.expr(t),
            None if diverged => Ok(Val::Never),
            None => Ok(Val::Unit),
        }
    }

    fn bind_uninit(&mut self, pat: &Pat, t: &Ty, sp: Span) -> R<()> {
        match pat {
            Pat::Ident { name, .. } => {
                let loc = self.alloc_uninit(t, name, sp)?;
                self.cx_mut().bind(name, Binding { ty: t.clone(), loc });
                Ok(())
            }
            Pat::Wild => Ok(()),
            _ => Err(self.err(sp, "a `let` without initialiser must bind a single name")),
        }
    }

    /// Binds an irrefutable pattern to a value.
    pub fn bind_pat(&mut self, pat: &Pat, t: &Ty, v: Val, sp: Span) -> R<()> {
        match pat {
            Pat::Wild => Ok(()),
            Pat::Ident { name, mutable } => {
                let loc = self.bind_value(t, v, *mutable, name, sp)?;
                self.cx_mut().bind(name, Binding { ty: t.clone(), loc });
                Ok(())
            }
            Pat::Tuple(ps) => {
                let tys = self.agg_tys(t, sp)?;
                let vs = match v {
                    Val::Agg(vs) => vs,
                    _ => vec![Val::Never; ps.len()],
                };
                for ((p, et), v) in ps.iter().zip(tys.iter()).zip(vs) {
                    self.bind_pat(p, et, v, sp)?;
                }
                Ok(())
            }
            Pat::Array(ps) => {
                let Ty::Array(et, _) = t else {
                    return Err(self.err(sp, "array pattern on a non-array value"));
                };
                let loc = match v {
                    Val::Array { loc, .. } => loc,
                    _ => return Ok(()),
                };
                for (i, p) in ps.iter().enumerate() {
                    let el = self.array_elem_loc(&loc, t, c_u64(i as u64), sp)?;
                    let ev = self.read(&el, et, sp)?;
                    self.bind_pat(p, et, ev, sp)?;
                }
                Ok(())
            }
            Pat::Or(ps) if ps.len() == 1 => self.bind_pat(&ps[0], t, v, sp),
            _ => Err(self.err(sp, "refutable pattern in a `let` (use `match`)")),
        }
    }

    pub fn if_expr(&mut self, e: &Expr, cond: &Expr, then: &Block, els: Option<&Expr>) -> R<Val> {
        let t = self.ty(e);
        let c = self.scalar(cond)?;
        let result = if els.is_some() {
            self.alloc_uninit(&t, "if", e.span)?
        } else {
            Loc::Unit
        };
        self.open();
        let tv = self.block(then)?;
        self.write(&result, &t, &tv, then.span)?;
        let then_b = self.close();
        self.open();
        if let Some(x) = els {
            let ev = self.expr(x)?;
            self.write(&result, &t, &ev, x.span)?;
        }
        let els_b = self.close();
        self.emit(Inst::If {
            cond: c,
            then: then_b,
            els: els_b,
        });
        self.read(&result, &t, e.span)
    }

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
        let result = self.alloc_uninit(&t, "match", e.span)?;
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
                self.cx_mut().scopes.push(HashMap::new());
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
                self.write(&result, &t, &bv, arm.body.span)?;
                let body = self.close();
                self.cx_mut().scopes.pop();
                match g {
                    Some(g) => self.emit(Inst::If {
                        cond: g,
                        then: body,
                        els: ir::Block::default(),
                    }),
                    None => self.blocks.last_mut().unwrap().extend(body.0),
                }
                let matched = self.close();
                match test {
                    Some(c) => self.emit(Inst::If {
                        cond: c,
                        then: matched,
                        els: ir::Block::default(),
                    }),
                    None => self.blocks.last_mut().unwrap().extend(matched.0),
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
            self.arm_chain(arms, &st, &v, &result, &t)?;
        }
        self.read(&result, &t, e.span)
    }

    /// `if p0 { b0 } else if p1 { b1 } ... else { last }` (rustc checked exhaustiveness, so
    /// the last arm needs no test).
    fn arm_chain(&mut self, arms: &[Arm], st: &Ty, v: &Val, result: &Loc, t: &Ty) -> R<()> {
        let Some((arm, rest)) = arms.split_first() else {
            return Ok(());
        };
        let test = if rest.is_empty() {
            None
        } else {
            self.pat_test(&arm.pat, st, v, arm.span)?
        };
        self.open();
        self.cx_mut().scopes.push(HashMap::new());
        self.bind_arm(&arm.pat, st, v, arm.span)?;
        let bv = self.expr(&arm.body)?;
        self.write(result, t, &bv, arm.body.span)?;
        self.cx_mut().scopes.pop();
        let body = self.close();
        match test {
            None => {
                self.blocks.last_mut().unwrap().extend(body.0);
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

    pub fn while_loop(&mut self, label: &Option<String>, cond: &Expr, body: &Block) -> R<Val> {
        let id = self.k.new_loop();
        self.cx_mut().loops.push(LoopCtx {
            label: label.clone(),
            id,
            result: None,
        });
        self.open();
        let r = (|| {
            let c = self.scalar(cond)?;
            self.open();
            self.emit(Inst::Break(id));
            let els = self.close();
            self.emit(Inst::If {
                cond: c,
                then: ir::Block::default(),
                els,
            });
            self.block(body)
        })();
        let b = self.close();
        self.cx_mut().loops.pop();
        r?;
        self.emit(Inst::Loop { id, body: b });
        Ok(Val::Unit)
    }

    pub fn loop_expr(&mut self, e: &Expr, label: &Option<String>, body: &Block) -> R<Val> {
        let t = self.ty(e);
        let id = self.k.new_loop();
        let result = match t {
            Ty::Unit | Ty::Never => None,
            _ => Some((self.alloc_uninit(&t, "loop", e.span)?, t.clone())),
        };
        self.cx_mut().loops.push(LoopCtx {
            label: label.clone(),
            id,
            result: result.clone(),
        });
        self.open();
        let r = self.block(body);
        let b = self.close();
        self.cx_mut().loops.pop();
        r?;
        self.emit(Inst::Loop { id, body: b });
        match result {
            Some((l, t)) => self.read(&l, &t, e.span),
            None if t == Ty::Never => Ok(Val::Never),
            None => Ok(Val::Unit),
        }
    }

    pub fn for_loop(
        &mut self,
        label: &Option<String>,
        pat: &Pat,
        iter: &Expr,
        body: &Block,
        unroll: ast::Unroll,
    ) -> R<Val> {
        let sp = iter.span;
        // Peel `.rev()` / `.step_by(n)` off the range.
        let mut cur = iter;
        let mut reverse = false;
        let mut step: Option<&Expr> = None;
        loop {
            match &cur.kind {
                ExprKind::MethodCall {
                    receiver,
                    method,
                    args,
                    ..
                } if method == "rev" => {
                    reverse = !reverse;
                    let _ = args;
                    cur = receiver;
                }
                ExprKind::MethodCall {
                    receiver,
                    method,
                    args,
                    ..
                } if method == "step_by" => {
                    if step.is_some() {
                        return Err(self.err(sp, "only one `.step_by(n)` is supported"));
                    }
                    if reverse {
                        // `(a..b).step_by(n).rev()` starts from the last stepped element, not from the top.
                        return Err(self.err(sp, "`.step_by(n).rev()` is not supported; write `(a..b).rev().step_by(n)` with adjusted bounds"));
                    }
                    step = args.first();
                    cur = receiver;
                }
                _ => break,
            }
        }
        let ExprKind::Range {
            start,
            end,
            inclusive,
        } = &cur.kind
        else {
            return Err(self.err(sp, "`for` loops must iterate over a range `a..b` / `a..=b`"));
        };
        let (Some(start), Some(end)) = (start, end) else {
            return Err(self.err(sp, "`for` ranges need both bounds"));
        };
        let et = match self.ty(iter) {
            Ty::Range(t) => *t,
            t => return Err(self.err(sp, format!("internal: range type expected, found `{t}`"))),
        };
        let it = scalar_ir(&et);
        let s = self.scalar(start)?;
        let s = self.snapshot(s);
        let en = self.scalar(end)?;
        let en = self.snapshot(en);
        let step = match step {
            None => c_int(it, 1),
            Some(x) => {
                let v = self.scalar(x)?;
                if let Operand::Const(c) = v {
                    if c.bits == 0 {
                        return Err(
                            self.err(x.span, "`step_by(0)` panics: the step must be positive")
                        );
                    }
                    c_int(it, c.bits as i128)
                } else {
                    let site = self.site(
                        PanicKind::Explicit("assertion failed: step != 0".into()),
                        x.span,
                    );
                    let z = self.bin(BinOp::Eq, v, c_u64(0));
                    self.panic_if(z, site);
                    let v = self.cast(v, it);
                    self.snapshot(v)
                }
            }
        };
        let id = self.k.new_loop();
        let iv = self.named_var(it, "iv");
        self.cx_mut().loops.push(LoopCtx {
            label: label.clone(),
            id,
            result: None,
        });
        self.cx_mut().scopes.push(HashMap::new());
        self.open();
        let r = (|| {
            match pat {
                Pat::Ident {
                    name,
                    mutable: false,
                } => {
                    self.cx_mut().bind(
                        name,
                        Binding {
                            ty: et.clone(),
                            loc: Loc::Var(iv),
                        },
                    );
                }
                p => self.bind_pat(p, &et, Val::Scalar(Operand::Var(iv)), sp)?,
            }
            self.block(body)
        })();
        let b = self.close();
        self.cx_mut().scopes.pop();
        self.cx_mut().loops.pop();
        r?;
        self.emit(Inst::For {
            id,
            iv,
            start: s,
            end: en,
            inclusive: *inclusive,
            step,
            reverse,
            body: b,
            unroll: match unroll {
                ast::Unroll::Auto => ir::Unroll::Auto,
                ast::Unroll::Full => ir::Unroll::Full,
                ast::Unroll::By(n) => ir::Unroll::By(n),
                ast::Unroll::Never => ir::Unroll::Never,
            },
        });
        Ok(Val::Unit)
    }

    pub fn break_expr(&mut self, label: Option<&str>, value: Option<&Expr>, sp: Span) -> R<Val> {
        let target = self
            .cx()
            .find_loop(label)
            .cloned()
            .ok_or_else(|| self.err(sp, "`break` outside of a loop"))?;
        if let Some(v) = value {
            let val = self.expr(v)?;
            if let Some((l, t)) = &target.result {
                self.write(l, t, &val, v.span)?;
            }
        }
        self.emit(Inst::Break(target.id));
        Ok(Val::Never)
    }

    pub fn return_expr(&mut self, v: Option<&Expr>, sp: Span) -> R<Val> {
        let val = match v {
            Some(x) => {
                let val = self.expr(x)?;
                let to = match &self.cx().ret {
                    RetTarget::Inline { ty, .. } => ty.clone(),
                    RetTarget::Kernel => Ty::Unit,
                };
                self.coerce_val(val, &self.ty(x), &to, x.span)?
            }
            None => Val::Unit,
        };
        match self.cx().ret.clone() {
            RetTarget::Kernel => self.emit(Inst::Return),
            RetTarget::Inline { id, result, ty } => {
                self.write(&result, &ty, &val, sp)?;
                self.emit(Inst::Break(id));
            }
        }
        Ok(Val::Never)
    }
}

fn pat_binds(p: &Pat) -> bool {
    match p {
        Pat::Ident { .. } => true,
        Pat::Tuple(ps) | Pat::Array(ps) | Pat::Or(ps) => ps.iter().any(pat_binds),
        _ => false,
    }
}
