//! Expressions that compute values: literals, constants, operators, casts, aggregates, assignment.

use kernel_ir::ast::{self, ConstValue, Expr, ExprKind, FloatTy, Lit, Span};
use kernel_ir::ir::{self, BinOp, Const, Inst, Operand, PanicKind, UnOp};

use super::consts::{
    const_value_ty, convert_type, float_assoc, float_bits, int_assoc, int_min_max,
};
use super::types::Ty;
use super::value::{c_int, c_u32, c_u64, scalar_ir, Loc, Val};
use super::{Lower, R};

impl Lower {
    pub fn expr(&mut self, e: &Expr) -> R<Val> {
        let sp = e.span;
        match &e.kind {
            ExprKind::Lit(l) => Ok(Val::Scalar(self.lit(l, &self.ty(e)))),
            ExprKind::Local(name) => {
                if let Some(b) = self.cx().lookup(name).cloned() {
                    return self.read(&b.loc, &b.ty, sp);
                }
                match self.cx().env.konst(name) {
                    Some((v, t)) => Ok(Val::Scalar(c_int(super::types::int_ir(t), v))),
                    None => Err(self.err(sp, format!("cannot find value `{name}`"))),
                }
            }
            ExprKind::HostConst(h) => {
                let v = (h.eval)();
                let t = const_value_ty(&v).map_err(|m| self.err(sp, m))?;
                self.const_value(&v, &t, sp)
            }
            ExprKind::AssocConst { ty, name } => {
                let env = self.cx().env.clone();
                let t = convert_type(ty, &env, &mut || Ty::Unit).map_err(|m| self.err(sp, m))?;
                let c = match (&t, name.as_str()) {
                    (Ty::Int(_) | Ty::Float(_), "BITS") => Const::u32(scalar_ir(&t).bits()),
                    (Ty::Int(i), _) => {
                        let v = int_assoc(*i, name).map_err(|m| self.err(sp, m))?;
                        return Ok(Val::Scalar(c_int(scalar_ir(&t), v)));
                    }
                    (Ty::Float(f), _) => {
                        let v = float_assoc(*f, name).map_err(|m| self.err(sp, m))?;
                        Const {
                            ty: scalar_ir(&t),
                            bits: float_bits(v, *f),
                        }
                    }
                    _ => return Err(self.err(sp, format!("no associated constant `{t}::{name}`"))),
                };
                Ok(Val::Scalar(Operand::Const(c)))
            }
            ExprKind::Unary(op, a) => {
                let v = self.scalar(a)?;
                let t = self.op_ty(v);
                // `-128i8` is one literal in Rust (THIR folds the sign in), not a negation.
                if *op == ast::UnOp::Neg && t.is_int() && !matches!(a.kind, ExprKind::Lit(_)) {
                    self.check_neg(v, sp);
                }
                Ok(Val::Scalar(self.unary(*op, v, t)))
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, sp),
            ExprKind::Assign(p, v) => {
                self.assign(p, v, sp)?;
                Ok(Val::Unit)
            }
            ExprKind::AssignOp(op, p, v) => {
                let rhs = self.scalar(v)?;
                let (loc, t) = self.place(p)?;
                let (loc, t) = self.auto_deref(loc, t, sp)?;
                let cur = match self.read(&loc, &t, sp)? {
                    Val::Scalar(o) => o,
                    _ => {
                        return Err(
                            self.err(sp, format!("`{t}` does not support compound assignment"))
                        )
                    }
                };
                let r = self.arith(*op, cur, rhs, sp)?;
                self.write(&loc, &t, &Val::Scalar(r), sp)?;
                Ok(Val::Unit)
            }
            ExprKind::Cast(a, _) => {
                let v = self.scalar(a)?;
                let to = self.ty(e);
                let Some(it) = to.ir() else {
                    return Err(self.err(sp, format!("cannot cast to `{to}`")));
                };
                Ok(Val::Scalar(self.cast(v, it)))
            }
            ExprKind::Index(b, i) => {
                if matches!(self.ty(e), Ty::Slice(..)) && matches!(self.ty(i), Ty::Range(_)) {
                    return Ok(Val::Slice(self.slice_range(b, i, sp)?));
                }
                let (l, t) = self.place(e)?;
                self.read(&l, &t, sp)
            }
            ExprKind::Field(..) => {
                let (l, t) = self.place(e)?;
                self.read(&l, &t, sp)
            }
            ExprKind::Call { callee, args, .. } => match (callee.resolve)() {
                ast::Callable::Device(def) => self.call_device(e, def, args),
                ast::Callable::Intrinsic(name) => self.call_intrinsic(e, name, args),
            },
            ExprKind::AssocCall { ty, method, args } => self.assoc_call(e, ty, method, args),
            ExprKind::MethodCall {
                receiver,
                method,
                args,
                ..
            } => self.method_call(e, receiver, method, args),
            ExprKind::Tuple(es) => {
                if es.is_empty() {
                    return Ok(Val::Unit);
                }
                let mut vs = Vec::new();
                for x in es {
                    vs.push(self.expr(x)?);
                }
                Ok(Val::Agg(vs))
            }
            ExprKind::Array(es) => {
                let t = self.ty(e);
                let arrays = self.new_arrays(&t, sp)?;
                let loc = Loc::Local {
                    arrays,
                    index: c_u32(0),
                };
                let Ty::Array(et, _) = &t else {
                    return Err(self.err(sp, "internal: array literal type"));
                };
                let et = (**et).clone();
                for (i, x) in es.iter().enumerate() {
                    let v = self.expr(x)?;
                    let el = self.array_elem_loc(&loc, &t, c_u64(i as u64), sp)?;
                    self.write(&el, &et, &v, x.span)?;
                }
                Ok(Val::Array { loc, temp: true })
            }
            ExprKind::ArrayRepeat(v, _) => {
                let t = self.ty(e);
                let val = self.expr(v)?;
                let Ty::Array(et, n) = &t else {
                    return Err(self.err(sp, "internal: array repeat type"));
                };
                let et = (**et).clone();
                let arrays = self.new_arrays(&t, sp)?;
                let loc = Loc::Local {
                    arrays,
                    index: c_u32(0),
                };
                if *n > 0 {
                    let id = self.k.new_loop();
                    let iv = self.var(ir::Ty::U32);
                    self.open();
                    let el = self.array_elem_loc(&loc, &t, Operand::Var(iv), sp)?;
                    self.write(&el, &et, &val, sp)?;
                    let body = self.close();
                    self.emit(Inst::For {
                        id,
                        iv,
                        start: c_u32(0),
                        end: c_u32(*n as u32),
                        inclusive: false,
                        step: c_u32(1),
                        reverse: false,
                        body,
                        unroll: ir::Unroll::Auto,
                    });
                }
                Ok(Val::Array { loc, temp: true })
            }
            ExprKind::StructLit { ty, fields } => {
                let def = (ty.def)();
                let mut vals: Vec<Option<Val>> = vec![None; def.fields.len()];
                for (name, x) in fields {
                    let i = def
                        .fields
                        .iter()
                        .position(|(n, _)| n == name)
                        .ok_or_else(|| {
                            self.err(
                                x.span,
                                format!("no field `{name}` on struct `{}`", def.name),
                            )
                        })?;
                    let v = self.expr(x)?;
                    let (from, to) = (self.ty(x), self.agg_tys(&self.ty(e), sp)?[i].clone());
                    vals[i] = Some(self.coerce_val(v, &from, &to, x.span)?);
                }
                let mut out = Vec::new();
                for (i, v) in vals.into_iter().enumerate() {
                    out.push(v.ok_or_else(|| {
                        self.err(
                            sp,
                            format!("missing field `{}` in struct literal", def.fields[i].0),
                        )
                    })?);
                }
                Ok(Val::Agg(out))
            }
            ExprKind::Block(b) => self.block(b),
            ExprKind::If { cond, then, els } => self.if_expr(e, cond, then, els.as_deref()),
            ExprKind::Match { scrutinee, arms } => self.match_expr(e, scrutinee, arms),
            ExprKind::While { label, cond, body } => self.while_loop(label, cond, body),
            ExprKind::Loop { label, body } => self.loop_expr(e, label, body),
            ExprKind::For {
                label,
                pat,
                iter,
                body,
                unroll,
            } => self.for_loop(label, pat, iter, body, *unroll),
            ExprKind::Range { .. } => {
                Err(self.err(sp, "ranges can only be used in `for` loops and for slicing"))
            }
            ExprKind::Break { label, value } => {
                self.break_expr(label.as_deref(), value.as_deref(), sp)
            }
            ExprKind::Continue { label } => {
                let id = self
                    .cx()
                    .find_loop(label.as_deref())
                    .ok_or_else(|| self.err(sp, "`continue` outside of a loop"))?
                    .id;
                self.emit(Inst::Continue(id));
                Ok(Val::Never)
            }
            ExprKind::Return(v) => self.return_expr(v.as_deref(), sp),
            ExprKind::Ref(_, a) => {
                if let Ty::Slice(..) = self.ty(e) {
                    if let ExprKind::Index(..) = a.kind {
                        return self.expr(a);
                    }
                }
                let (l, _) = self.place_or_temp(a)?;
                Ok(Val::Ref(l))
            }
            ExprKind::Deref(a) => {
                let v = self.expr(a)?;
                match v {
                    Val::Ref(l) => {
                        let t = self.ty(e);
                        self.read(&l, &t, sp)
                    }
                    Val::Never => Ok(Val::Never),
                    _ => Err(self.err(sp, "this value cannot be dereferenced")),
                }
            }
            ExprKind::Assert { cond, message } => {
                let c = self.scalar(cond)?;
                let site = self.site(PanicKind::Explicit(message.clone()), sp);
                self.open();
                self.emit(Inst::Panic {
                    site,
                    a: c_u64(0),
                    b: c_u64(0),
                });
                let els = self.close();
                self.emit(Inst::If {
                    cond: c,
                    then: ir::Block::default(),
                    els,
                });
                Ok(Val::Unit)
            }
            ExprKind::Panic { message } => {
                let site = self.site(PanicKind::Explicit(message.clone()), sp);
                self.emit(Inst::Panic {
                    site,
                    a: c_u64(0),
                    b: c_u64(0),
                });
                Ok(Val::Never)
            }
            ExprKind::Print { pieces, args } => self.print(pieces, args, sp),
        }
    }

    /// Evaluates a scalar-typed expression (auto-dereferencing `&T`).
    pub fn scalar(&mut self, e: &Expr) -> R<Operand> {
        let v = self.expr(e)?;
        let t = self.ty(e);
        self.scalar_of(v, &t, e.span)
    }

    pub fn scalar_of(&mut self, v: Val, t: &Ty, sp: Span) -> R<Operand> {
        match v {
            Val::Scalar(o) => Ok(o),
            Val::Ref(l) => {
                let inner = match t {
                    Ty::Ref(i, _) => (**i).clone(),
                    _ => return Err(self.err(sp, "internal: reference type expected")),
                };
                let v = self.read(&l, &inner, sp)?;
                self.scalar_of(v, &inner, sp)
            }
            // Unreachable code: any operand of the right type will do.
            Val::Never => Ok(Operand::Const(Const::u32(0))),
            _ => Err(self.err(sp, format!("expected a number or bool, found `{t}`"))),
        }
    }

    pub fn lit(&self, l: &Lit, t: &Ty) -> Operand {
        match (l, t) {
            (Lit::Bool(b), _) => Operand::Const(Const::bool(*b)),
            (Lit::Float(v, _), Ty::Float(f)) => Operand::Const(Const {
                ty: scalar_ir(t),
                bits: float_bits(*v, *f),
            }),
            (Lit::Int(v, _), _) => c_int(scalar_ir(t), *v as i128),
            (Lit::Float(v, _), _) => Operand::Const(Const::f64(*v)),
        }
    }

    /// A host constant as a value (arrays become initialised local arrays).
    pub fn const_value(&mut self, v: &ConstValue, t: &Ty, sp: Span) -> R<Val> {
        Ok(match (v, t) {
            (ConstValue::Bool(b), _) => Val::Scalar(Operand::Const(Const::bool(*b))),
            (ConstValue::Int(i, _), _) => Val::Scalar(c_int(scalar_ir(t), *i)),
            (ConstValue::Float(f, ft), _) => Val::Scalar(Operand::Const(Const {
                ty: scalar_ir(t),
                bits: float_bits(*f, *ft),
            })),
            (ConstValue::Tuple(vs), Ty::Tuple(ts)) => {
                let mut out = Vec::new();
                for (v, t) in vs.iter().zip(ts) {
                    out.push(self.const_value(v, t, sp)?);
                }
                Val::Agg(out)
            }
            (ConstValue::Array(vs), Ty::Array(et, _)) => {
                let arrays = self.new_arrays(t, sp)?;
                let loc = Loc::Local {
                    arrays,
                    index: c_u32(0),
                };
                for (i, v) in vs.iter().enumerate() {
                    let ev = self.const_value(v, et, sp)?;
                    let el = self.array_elem_loc(&loc, t, c_u64(i as u64), sp)?;
                    self.write(&el, et, &ev, sp)?;
                }
                Val::Array { loc, temp: true }
            }
            _ => return Err(self.err(sp, "unsupported host constant")),
        })
    }

    pub fn unary(&mut self, op: ast::UnOp, v: Operand, t: ir::Ty) -> Operand {
        if let Operand::Const(c) = v {
            if t.is_int() {
                let x = c.as_i128();
                return match op {
                    ast::UnOp::Neg => c_int(t, x.wrapping_neg()),
                    ast::UnOp::Not => c_int(t, !x),
                };
            }
            if t == ir::Ty::Bool {
                if let ast::UnOp::Not = op {
                    return Operand::Const(Const::bool(c.bits == 0));
                }
            }
            if t.is_float() && op == ast::UnOp::Neg {
                let sign = 1u64 << (t.bits() - 1);
                return Operand::Const(Const {
                    ty: t,
                    bits: c.bits ^ sign,
                });
            }
        }
        let op = match op {
            ast::UnOp::Neg => UnOp::Neg,
            ast::UnOp::Not => UnOp::Not,
        };
        self.un(op, v, t)
    }

    fn binary(&mut self, op: ast::BinOp, a: &Expr, b: &Expr, sp: Span) -> R<Val> {
        use ast::BinOp as B;
        if matches!(op, B::And | B::Or) && is_pure(b) {
            // Evaluating a side-effect-free, non-panicking right side unconditionally is
            // indistinguishable from short-circuiting, and a plain `and`/`or` lets the passes
            // use `i < n && j < m` as facts (bounds-check elimination under the guard).
            let x = self.scalar(a)?;
            let y = self.scalar(b)?;
            let op = if op == B::And { BinOp::And } else { BinOp::Or };
            return Ok(Val::Scalar(self.bin(op, x, y)));
        }
        if matches!(op, B::And | B::Or) {
            let x = self.scalar(a)?;
            let r = self.var(ir::Ty::Bool);
            self.emit(Inst::Mov { dst: r, src: x });
            self.open();
            let y = self.scalar(b)?;
            self.emit(Inst::Mov { dst: r, src: y });
            let rhs = self.close();
            let (then, els) = if op == B::And {
                (rhs, ir::Block::default())
            } else {
                (ir::Block::default(), rhs)
            };
            self.emit(Inst::If {
                cond: Operand::Var(r),
                then,
                els,
            });
            return Ok(Val::Scalar(Operand::Var(r)));
        }
        let x = self.scalar(a)?;
        let y = self.scalar(b)?;
        Ok(Val::Scalar(self.arith(op, x, y, sp)?))
    }

    /// A binary operator on scalars with Rust semantics (the left operand's type rules).
    pub fn arith(&mut self, op: ast::BinOp, x: Operand, y: Operand, sp: Span) -> R<Operand> {
        use ast::BinOp as B;
        let t = self.op_ty(x);
        let irop = match op {
            B::Add => BinOp::Add,
            B::Sub => BinOp::Sub,
            B::Mul => BinOp::Mul,
            B::Div => BinOp::Div,
            B::Rem => BinOp::Rem,
            B::BitAnd | B::And => BinOp::And,
            B::BitOr | B::Or => BinOp::Or,
            B::BitXor => BinOp::Xor,
            B::Shl => BinOp::Shl,
            B::Shr => BinOp::Shr,
            B::Eq => BinOp::Eq,
            B::Ne => BinOp::Ne,
            B::Lt => BinOp::Lt,
            B::Le => BinOp::Le,
            B::Gt => BinOp::Gt,
            B::Ge => BinOp::Ge,
        };
        if t.is_float() {
            if matches!(
                irop,
                BinOp::And | BinOp::Or | BinOp::Xor | BinOp::Shl | BinOp::Shr
            ) {
                return Err(self.err(sp, "bitwise operators are not defined on floats"));
            }
            if irop == BinOp::Rem {
                // Rust's float `%` is C's `fmod` (exact), from the math library.
                return match self.math_call("fmod", &[x, y], sp)? {
                    Val::Scalar(r) => Ok(r),
                    _ => Err(self.err(sp, "internal: fmod returned a non-scalar")),
                };
            }
            return Ok(self.float_op(irop, x, y));
        }
        if t == ir::Ty::Bool {
            return Ok(match irop {
                BinOp::Eq | BinOp::Ne | BinOp::And | BinOp::Or | BinOp::Xor => self.bin(irop, x, y),
                BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                    let (a, b) = (self.cast(x, ir::Ty::U8), self.cast(y, ir::Ty::U8));
                    self.bin(irop, a, b)
                }
                _ => return Err(self.err(sp, "arithmetic is not defined on `bool`")),
            });
        }
        match irop {
            BinOp::Shl | BinOp::Shr => {
                let amt = self.shift_amount(irop, t, y, sp);
                Ok(self.bin(irop, x, amt))
            }
            BinOp::Div | BinOp::Rem => {
                self.div_checks(irop == BinOp::Rem, x, y, sp);
                let dst = self.var(t);
                self.emit(Inst::Binary {
                    dst,
                    op: irop,
                    a: x,
                    b: y,
                });
                Ok(Operand::Var(dst))
            }
            BinOp::Add | BinOp::Sub | BinOp::Mul => {
                self.check_arith(irop, x, y, sp);
                Ok(self.bin(irop, x, y))
            }
            _ => Ok(self.bin(irop, x, y)),
        }
    }

    /// Float operators; `f16` / `bf16` go through `f32` (see the module docs).
    pub fn float_op(&mut self, op: BinOp, x: Operand, y: Operand) -> Operand {
        let t = self.op_ty(x);
        if matches!(t, ir::Ty::F16 | ir::Ty::BF16) {
            let (a, b) = (self.cast(x, ir::Ty::F32), self.cast(y, ir::Ty::F32));
            let r = self.bin(op, a, b);
            return if op.is_compare() { r } else { self.cast(r, t) };
        }
        self.bin(op, x, y)
    }

    /// Panics on integer division (`rem`: remainder) by zero and on `MIN / -1` (signed), as Rust
    /// does whatever the overflow-check setting, before dividing.
    fn div_checks(&mut self, rem: bool, x: Operand, y: Operand, sp: Span) {
        let t = self.op_ty(x);
        let zero_possible = !matches!(y, Operand::Const(c) if c.bits != 0);
        if zero_possible {
            let kind = if rem {
                PanicKind::RemByZero
            } else {
                PanicKind::DivByZero
            };
            let site = self.site(kind, sp);
            let z = self.bin(BinOp::Eq, y, c_int(t, 0));
            self.panic_if(z, site);
        }
        if t.is_signed() {
            let (min, _) = int_min_max(match t {
                ir::Ty::I8 => ast::IntTy::I8,
                ir::Ty::I16 => ast::IntTy::I16,
                ir::Ty::I32 => ast::IntTy::I32,
                _ => ast::IntTy::I64,
            });
            let y_m1 = match y {
                Operand::Const(c) => Some(c.as_i128() == -1),
                _ => None,
            };
            let x_min = match x {
                Operand::Const(c) => Some(c.as_i128() == min),
                _ => None,
            };
            if y_m1 != Some(false) && x_min != Some(false) {
                let kind = if rem {
                    PanicKind::RemOverflow
                } else {
                    PanicKind::DivOverflow
                };
                let site = self.site(kind, sp);
                let a = self.bin(BinOp::Eq, x, c_int(t, min));
                let b = self.bin(BinOp::Eq, y, c_int(t, -1));
                let both = self.bin(BinOp::And, a, b);
                self.panic_if(both, site);
            }
        }
    }

    /// `if cond { panic at site }`.
    pub fn panic_if(&mut self, cond: Operand, site: ir::SiteId) {
        self.open();
        self.emit(Inst::Panic {
            site,
            a: c_u64(0),
            b: c_u64(0),
        });
        let then = self.close();
        self.emit(Inst::If {
            cond,
            then,
            els: ir::Block::default(),
        });
    }

    fn assign(&mut self, p: &Expr, v: &Expr, sp: Span) -> R<()> {
        let val = self.expr(v)?;
        let val = self.coerce_val(val, &self.ty(v), &self.ty(p), v.span)?;
        self.assign_to(p, val, sp)
    }

    /// Assigns to a place expression (or a tuple of them: `(a, b) = (b, a)`).
    fn assign_to(&mut self, p: &Expr, val: Val, sp: Span) -> R<()> {
        if let ExprKind::Tuple(ps) = &p.kind {
            let Val::Agg(vs) = val else {
                return Ok(());
            };
            for (p, v) in ps.iter().zip(vs) {
                self.assign_to(p, v, sp)?;
            }
            return Ok(());
        }
        if let ExprKind::Local(n) = &p.kind {
            if n == "_" {
                return Ok(());
            }
        }
        let (loc, t) = self.place(p)?;
        self.write(&loc, &t, &val, sp)
    }

    /// Applies the coercions inference allowed: `&[T; N]` / `&mut [T; N]` to a slice.
    pub fn coerce_val(&mut self, v: Val, from: &Ty, to: &Ty, sp: Span) -> R<Val> {
        match (from, to, &v) {
            (Ty::Ref(inner, _), Ty::Slice(..), Val::Ref(loc)) => {
                let Ty::Array(_, n) = &**inner else {
                    return Ok(v);
                };
                match self.array_as_slice(loc, *n) {
                    Some(s) => Ok(Val::Slice(s)),
                    None => Err(self.err(sp, "this array cannot be used as a slice")),
                }
            }
            _ => Ok(v),
        }
    }

    /// The float constant `v` (rounded to nearest) in float type `t`.
    pub fn float_const(&self, v: f64, t: ir::Ty) -> Operand {
        let f = match t {
            ir::Ty::F16 => FloatTy::F16,
            ir::Ty::BF16 => FloatTy::BF16,
            ir::Ty::F64 => FloatTy::F64,
            _ => FloatTy::F32,
        };
        Operand::Const(Const {
            ty: t,
            bits: float_bits(v, f),
        })
    }
}

/// Whether evaluating `e` has no side effects and cannot panic: locals, constants, slice
/// lengths and arithmetic on them other than division.
fn is_pure(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Lit(_)
        | ExprKind::Local(_)
        | ExprKind::HostConst(_)
        | ExprKind::AssocConst { .. } => true,
        ExprKind::Unary(_, a) | ExprKind::Cast(a, _) => is_pure(a),
        ExprKind::Binary(op, a, b) => {
            !matches!(op, ast::BinOp::Div | ast::BinOp::Rem) && is_pure(a) && is_pure(b)
        }
        ExprKind::Field(a, _) => {
            matches!(a.kind, ExprKind::Local(_))
                || matches!(&a.kind, ExprKind::Field(..) if is_pure(a))
        }
        // `.len()` of a slice or array variable reads a register or is a constant.
        ExprKind::MethodCall {
            receiver,
            method,
            args,
            ..
        } => method == "len" && args.is_empty() && matches!(receiver.kind, ExprKind::Local(_)),
        _ => false,
    }
}
