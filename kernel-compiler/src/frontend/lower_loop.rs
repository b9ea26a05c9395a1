//! Loops (`while`, `loop` with break values, counted `for` over ranges, arrays and slices),
//! `break`, `continue` targets and `return`.

use crate::passes::fx::FxHashMap as HashMap;

use kernel_ir::ast::{self, Block, Expr, ExprKind, Pat, Span};
use kernel_ir::ir::{self, BinOp, Inst, Operand, PanicKind};

use super::scope::{Binding, LoopCtx, RetTarget};
use super::types::Ty;
use super::value::{c_int, c_u64, scalar_ir, Loc, Val};
use super::{Lower, R};

impl Lower {
    pub fn while_loop(&mut self, label: &Option<String>, cond: &Expr, body: &Block) -> R<Val> {
        let id = self.k.new_loop();
        self.cx_mut().loops.push(LoopCtx {
            label: label.clone(),
            id,
            value_ty: None,
            slot: None,
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
        let value_ty = match t {
            Ty::Unit | Ty::Never => None,
            _ => Some(t.clone()),
        };
        self.cx_mut().loops.push(LoopCtx {
            label: label.clone(),
            id,
            value_ty,
            slot: None,
        });
        self.open();
        let r = self.block(body);
        let b = self.close();
        let slot = self.cx_mut().loops.pop().and_then(|l| l.slot);
        r?;
        self.emit(Inst::Loop { id, body: b });
        match slot {
            Some(l) => self.read(&l, &t, e.span),
            None if t == Ty::Unit => Ok(Val::Unit),
            None => Ok(Val::Never),
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
        if !matches!(self.ty(iter), Ty::Range(_)) {
            return self.for_each(label, pat, iter, body, unroll);
        }
        // Peel `.rev()` / `.step_by(n)` off the range.
        let mut cur = iter;
        let mut reverse = false;
        let mut step: Option<&Expr> = None;
        loop {
            match &cur.kind {
                ExprKind::MethodCall {
                    receiver, method, ..
                } if method == "rev" => {
                    reverse = !reverse;
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
            value_ty: None,
            slot: None,
        });
        self.cx_mut().scopes.push(HashMap::default());
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
            unroll: ir_unroll(unroll),
        });
        Ok(Val::Unit)
    }

    /// `for x in array`, `for x in slice` / `.iter()` / `.iter_mut()`, optionally `.enumerate()`:
    /// a counted loop over the element indices (in range by construction, so unchecked).
    fn for_each(
        &mut self,
        label: &Option<String>,
        pat: &Pat,
        iter: &Expr,
        body: &Block,
        unroll: ast::Unroll,
    ) -> R<Val> {
        let sp = iter.span;
        let item_ty = super::infer::iter_item(&self.ty(iter), &|t| t.clone())
            .ok_or_else(|| self.err(sp, "internal: iterator type"))?;
        let mut cur = iter;
        let mut enumerate = false;
        if let ExprKind::MethodCall {
            receiver, method, ..
        } = &cur.kind
        {
            if method == "enumerate" {
                enumerate = true;
                cur = receiver;
            }
        }
        let mut by_ref = true;
        match &cur.kind {
            ExprKind::MethodCall {
                receiver, method, ..
            } if method == "iter" || method == "iter_mut" => cur = receiver,
            _ => by_ref = !matches!(self.ty(cur), Ty::Array(..)),
        }
        let (l, t) = self.place_or_temp(cur)?;
        let (l, t) = self.auto_deref(l, t, sp)?;
        let (len, slice, et) = match &t {
            Ty::Array(et, n) => (c_u64(*n), None, (**et).clone()),
            Ty::Slice(et, _) => {
                let s = self.slice_of(&l, &t, sp)?;
                (s.len, Some(s), (**et).clone())
            }
            _ => return Err(self.err(sp, format!("cannot iterate over `{t}`"))),
        };
        let id = self.k.new_loop();
        let iv = self.named_var(ir::Ty::U64, "idx");
        self.cx_mut().loops.push(LoopCtx {
            label: label.clone(),
            id,
            value_ty: None,
            slot: None,
        });
        self.cx_mut().scopes.push(HashMap::default());
        self.open();
        let r = (|| {
            let el = match &slice {
                Some(s) => self.slice_elem(s, &et, Operand::Var(iv), sp)?,
                None => self.array_elem_loc(&l, &t, Operand::Var(iv), sp)?,
            };
            let item = if by_ref {
                Val::Ref(el)
            } else {
                self.read(&el, &et, sp)?
            };
            let item = if enumerate {
                Val::Agg(vec![Val::Scalar(Operand::Var(iv)), item])
            } else {
                item
            };
            self.bind_pat(pat, &item_ty, item, sp)?;
            self.block(body)
        })();
        let b = self.close();
        self.cx_mut().scopes.pop();
        self.cx_mut().loops.pop();
        r?;
        self.emit(Inst::For {
            id,
            iv,
            start: c_u64(0),
            end: len,
            inclusive: false,
            step: c_u64(1),
            reverse: false,
            body: b,
            unroll: ir_unroll(unroll),
        });
        Ok(Val::Unit)
    }

    pub fn break_expr(&mut self, label: Option<&str>, value: Option<&Expr>, sp: Span) -> R<Val> {
        let found = match label {
            None => self.cx().loops.len().checked_sub(1),
            Some(l) => self
                .cx()
                .loops
                .iter()
                .rposition(|x| x.label.as_deref() == Some(l)),
        };
        let idx = found.ok_or_else(|| self.err(sp, "`break` outside of a loop"))?;
        if let Some(v) = value {
            let val = self.expr(v)?;
            if let Some(t) = self.cx().loops[idx].value_ty.clone() {
                let mut slot = self.cx_mut().loops[idx].slot.take();
                let r = self.branch_result(&mut slot, &t, &val, v.span);
                self.cx_mut().loops[idx].slot = slot;
                r?;
            }
        }
        let id = self.cx().loops[idx].id;
        self.emit(Inst::Break(id));
        Ok(Val::Never)
    }

    /// Stores the value an inlined function returns on this path.
    pub fn set_return(&mut self, ty: &Ty, v: &Val, sp: Span) -> R<()> {
        let mut slot = self.cx_mut().ret_slot.take();
        let r = self.branch_result(&mut slot, ty, v, sp);
        self.cx_mut().ret_slot = slot;
        r
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
            RetTarget::Inline { id, ty } => {
                self.set_return(&ty, &val, sp)?;
                self.emit(Inst::Break(id));
            }
        }
        Ok(Val::Never)
    }
}

fn ir_unroll(u: ast::Unroll) -> ir::Unroll {
    match u {
        ast::Unroll::Auto => ir::Unroll::Auto,
        ast::Unroll::Full => ir::Unroll::Full,
        ast::Unroll::By(n) => ir::Unroll::By(n),
        ast::Unroll::Never => ir::Unroll::Never,
    }
}
