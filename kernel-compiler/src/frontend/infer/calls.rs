//! Typing of calls: device functions (generic arguments inferred from the arguments) and built-in
//! methods; calls of the device API are typed in `intrinsics`.

use kernel_ir::ast::{self, Callable, Expr, ExprKind, FloatTy, GenericArg, IntTy, MathFn};

use super::super::consts::{convert_type, eval_const, Env, GBind};
use super::super::types::Ty;
use super::{key, Infer, Kind, R};

impl<'a> Infer<'a> {
    pub(super) fn call(
        &mut self,
        e: &Expr,
        callee: &ast::Callee,
        generic_args: &[GenericArg],
        args: &[Expr],
    ) -> R<Ty> {
        let sp = e.span;
        match (callee.resolve)() {
            Callable::Intrinsic(spec) => self.intrinsic(e, spec, generic_args, args),
            Callable::Device(def) => {
                if matches!(def.kind, ast::FnKind::Kernel(_)) {
                    return Err(self.err(
                        sp,
                        format!(
                            "`{}` is a kernel and cannot be called from device code",
                            callee.path
                        ),
                    ));
                }
                if args.len() != def.params.len() {
                    return Err(self.err(
                        sp,
                        format!(
                            "`{}` takes {} arguments, {} given",
                            callee.path,
                            def.params.len(),
                            args.len()
                        ),
                    ));
                }
                let mut arg_tys = Vec::new();
                for a in args {
                    arg_tys.push(self.expr(a)?);
                }
                let mut env = Env::default();
                let mut unbound_consts = Vec::new();
                for (i, g) in def.generics.iter().enumerate() {
                    match (g, generic_args.get(i)) {
                        (ast::Generic::Type { name, .. }, Some(GenericArg::Type(t))) => {
                            let t = self.conv(t, sp)?;
                            env.map.insert(name.clone(), GBind::Type(t));
                        }
                        (ast::Generic::Type { name, .. }, _) => {
                            let t = self.fresh(Kind::Any);
                            env.map.insert(name.clone(), GBind::Type(t));
                        }
                        (ast::Generic::Const { name, ty }, arg) => {
                            let it = match ty {
                                ast::Type::Int(i) => *i,
                                _ => {
                                    return Err(self.err(
                                        sp,
                                        format!("const generic `{name}` must have an integer type"),
                                    ))
                                }
                            };
                            match arg {
                                Some(GenericArg::Const(c)) => {
                                    let (v, _) =
                                        eval_const(c, self.env).map_err(|m| self.err(c.span, m))?;
                                    env.map.insert(name.clone(), GBind::Const(v, it));
                                }
                                Some(GenericArg::Type(ast::Type::Param(p))) => {
                                    // `f::<N>()` where the macro could not tell a const from a type.
                                    let (v, _) = self.env.konst(p).ok_or_else(|| {
                                        self.err(sp, format!("`{p}` is not a constant"))
                                    })?;
                                    env.map.insert(name.clone(), GBind::Const(v, it));
                                }
                                _ => unbound_consts.push((name.clone(), it)),
                            }
                        }
                    }
                }
                // Infer remaining const generics from array arguments' lengths.
                for (p, at) in def.params.iter().zip(arg_tys.iter()) {
                    let at = self.deep_known(at);
                    bind_consts(&p.ty, &at, &mut env, &unbound_consts);
                }
                for (name, _) in &unbound_consts {
                    if !env.map.contains_key(name) {
                        return Err(self.err(
                            sp,
                            format!("cannot infer the const generic `{name}` of `{}`; write it explicitly (`::<...>`)", callee.path),
                        ));
                    }
                }
                for ((p, at), a) in def.params.iter().zip(arg_tys).zip(args) {
                    let pt = self.conv_in(&p.ty, &env, a.span)?;
                    self.coerce(at, pt, a.span)?;
                }
                let ret = self.conv_in(&def.ret, &env, sp)?;
                let binds = env.map.into_iter().collect();
                self.calls.insert(key(e), (binds, sp));
                Ok(ret)
            }
        }
    }

    /// Converts a callee's type under the callee's (partially inferred) substitution.
    fn conv_in(&mut self, t: &ast::Type, env: &Env, sp: ast::Span) -> R<Ty> {
        convert_type(t, env, &mut || Ty::Unit).map_err(|m| self.err(sp, m))
    }

    /// Resolves as far as currently known (no defaulting), for const-generic matching.
    fn deep_known(&self, t: &Ty) -> Ty {
        match self.shallow(t) {
            Ty::Array(e, n) => Ty::Array(Box::new(self.deep_known(&e)), n),
            Ty::Slice(e, m) => Ty::Slice(Box::new(self.deep_known(&e)), m),
            Ty::Ref(e, m) => Ty::Ref(Box::new(self.deep_known(&e)), m),
            Ty::Tuple(ts) => Ty::Tuple(ts.iter().map(|x| self.deep_known(x)).collect()),
            t => t,
        }
    }

    pub(super) fn method(&mut self, recv: &Ty, name: &str, args: &[Expr], sp: ast::Span) -> R<Ty> {
        let mut arg_tys = Vec::new();
        for a in args {
            arg_tys.push(self.expr(a)?);
        }
        let r = self.shallow(recv);
        let want_args = |n: usize, this: &Self| -> R<()> {
            if args.len() != n {
                Err(this.err(
                    sp,
                    format!("`{name}` takes {n} argument(s), {} given", args.len()),
                ))
            } else {
                Ok(())
            }
        };
        // Ranges and containers first.
        match (&r, name) {
            (Ty::Range(_), "rev") => {
                want_args(0, self)?;
                return Ok(r);
            }
            (Ty::Range(_), "step_by") => {
                want_args(1, self)?;
                self.unify(&arg_tys[0], &Ty::USIZE, args[0].span)?;
                return Ok(r);
            }
            (Ty::Slice(..) | Ty::Array(..), "len") => {
                want_args(0, self)?;
                return Ok(Ty::USIZE);
            }
            (Ty::Slice(e, _) | Ty::Array(e, _), "iter" | "iter_mut") => {
                want_args(0, self)?;
                return Ok(Ty::Iter(Box::new(Ty::Ref(e.clone(), name == "iter_mut"))));
            }
            (Ty::Iter(item), "enumerate") => {
                want_args(0, self)?;
                return Ok(Ty::Iter(Box::new(Ty::Tuple(vec![
                    Ty::USIZE,
                    (**item).clone(),
                ]))));
            }
            (Ty::Slice(..) | Ty::Array(..), "is_empty") => {
                want_args(0, self)?;
                return Ok(Ty::Bool);
            }
            (Ty::Slice(e, m), "get_unchecked" | "get_unchecked_mut") => {
                want_args(1, self)?;
                self.unify(&arg_tys[0], &Ty::USIZE, args[0].span)?;
                return Ok(Ty::Ref(e.clone(), *m && name.ends_with("_mut")));
            }
            (Ty::Array(e, _), "get_unchecked" | "get_unchecked_mut") => {
                want_args(1, self)?;
                self.unify(&arg_tys[0], &Ty::USIZE, args[0].span)?;
                return Ok(Ty::Ref(e.clone(), name.ends_with("_mut")));
            }
            _ => {}
        }
        let is_int = matches!(r, Ty::Int(_)) || self.kind(&r) == Some(Kind::Int);
        let is_float = matches!(r, Ty::Float(_)) || self.kind(&r) == Some(Kind::Float);
        if !is_int && !is_float {
            return Err(self.err(
                sp,
                format!(
                    "no method `{name}` on type `{}` (or its type must be known here)",
                    self.show(&r)
                ),
            ));
        }
        let same = |this: &mut Self, n: usize| -> R<Ty> {
            want_args(n, this)?;
            for (t, a) in arg_tys.iter().zip(args) {
                let t = this.deref(t);
                this.unify(&t, &r, a.span)?;
            }
            Ok(r.clone())
        };
        let unsupported = || {
            self.err(
                sp,
                format!("method `{name}` is not supported on `{}`", self.show(&r)),
            )
        };
        match name {
            "min" | "max" => same(self, 1),
            "clamp" => same(self, 2),
            "abs" | "signum" => same(self, 0),
            "wrapping_add" | "wrapping_sub" | "wrapping_mul" if is_int => same(self, 1),
            "wrapping_neg" | "wrapping_abs" if is_int => same(self, 0),
            "leading_zeros" | "trailing_zeros" | "count_ones" | "count_zeros" if is_int => {
                want_args(0, self)?;
                Ok(Ty::Int(IntTy::U32))
            }
            "reverse_bits" if is_int => same(self, 0),
            "pow" if is_int => {
                want_args(1, self)?;
                self.unify(&arg_tys[0], &Ty::Int(IntTy::U32), args[0].span)?;
                Ok(r.clone())
            }
            "rotate_left" | "rotate_right" if is_int => {
                want_args(1, self)?;
                self.unify(&arg_tys[0], &Ty::Int(IntTy::U32), args[0].span)?;
                Ok(r.clone())
            }
            "is_positive" | "is_negative" if is_int => {
                want_args(0, self)?;
                Ok(Ty::Bool)
            }
            "sqrt" | "floor" | "ceil" | "round" | "trunc" | "recip" | "fract" if is_float => {
                same(self, 0)
            }
            "mul_add" if is_float => same(self, 2),
            "powi" if is_float => {
                want_args(1, self)?;
                self.unify(&arg_tys[0], &Ty::Int(IntTy::I32), args[0].span)?;
                Ok(r.clone())
            }
            "is_nan" | "is_finite" | "is_infinite" | "is_sign_negative" | "is_sign_positive"
                if is_float =>
            {
                want_args(0, self)?;
                Ok(Ty::Bool)
            }
            "to_f32" | "to_f64" if matches!(r, Ty::Float(FloatTy::F16 | FloatTy::BF16)) => {
                want_args(0, self)?;
                Ok(Ty::Float(if name == "to_f32" {
                    FloatTy::F32
                } else {
                    FloatTy::F64
                }))
            }
            "div_ceil" | "saturating_add" | "saturating_sub" if is_int => same(self, 1),
            "abs_diff" if is_int => {
                same(self, 1)?;
                match r {
                    Ty::Int(i) => Ok(Ty::Int(unsigned(i))),
                    _ => Err(self.err(sp, "type annotations needed for `abs_diff`")),
                }
            }
            "is_power_of_two" if is_int => {
                want_args(0, self)?;
                Ok(Ty::Bool)
            }
            "to_bits" if is_float => {
                want_args(0, self)?;
                match r {
                    Ty::Float(FloatTy::F32) => Ok(Ty::Int(IntTy::U32)),
                    Ty::Float(FloatTy::F64) => Ok(Ty::Int(IntTy::U64)),
                    Ty::Float(_) => Ok(Ty::Int(IntTy::U16)),
                    _ => Err(self.err(sp, "type annotations needed for `to_bits`")),
                }
            }
            _ => match kernel_std::intrinsics::math::method(name) {
                Some(m) if is_float => {
                    // The receiver is argument 0; integer arguments keep their type.
                    for (i, (t, a)) in arg_tys.iter().zip(args).enumerate() {
                        let t = self.deref(t);
                        if let Some(it) = m.int_arg(i + 1) {
                            self.unify(&t, &math_int(it), a.span)?;
                        } else {
                            self.unify(&t, &r, a.span)?;
                        }
                    }
                    self.math_result(name, m, &r, args.len() + 1, sp)
                }
                _ => Err(unsupported()),
            },
        }
    }

    /// The result type of math-library function `name` called with `n` arguments of float type
    /// `t` (receiver included; its `i32` arguments and results: `MathFn::int_args`).
    pub(super) fn math_result(
        &mut self,
        name: &str,
        m: MathFn,
        t: &Ty,
        n: usize,
        sp: ast::Span,
    ) -> R<Ty> {
        if n != m.args {
            return Err(self.err(
                sp,
                format!(
                    "`{name}` takes {} float argument(s) in all, {n} given",
                    m.args
                ),
            ));
        }
        let is_float = matches!(t, Ty::Float(_)) || self.kind(t) == Some(Kind::Float);
        if !is_float {
            return Err(self.err(
                sp,
                format!("`{name}` needs a float argument, found `{}`", self.show(t)),
            ));
        }
        let ret = |i: usize| m.int_ret(i).map_or_else(|| t.clone(), math_int);
        Ok(if m.pair {
            Ty::Tuple(vec![ret(0), ret(1)])
        } else {
            ret(0)
        })
    }
}

/// Binds const generics that appear as array lengths in a parameter type from the argument's type.
fn bind_consts(pt: &ast::Type, at: &Ty, env: &mut Env, unbound: &[(String, IntTy)]) {
    match (pt, at) {
        (ast::Type::Array(pe, len), Ty::Array(ae, n)) => {
            if let ExprKind::Local(name) = &len.kind {
                if let Some((_, it)) = unbound.iter().find(|(u, _)| u == name) {
                    env.map
                        .entry(name.clone())
                        .or_insert(GBind::Const(*n as i128, *it));
                }
            }
            bind_consts(pe, ae, env, unbound);
        }
        (ast::Type::Ref(pe, _), Ty::Ref(ae, _)) | (ast::Type::Slice(pe, _), Ty::Slice(ae, _)) => {
            bind_consts(pe, ae, env, unbound)
        }
        (ast::Type::Tuple(ps), Ty::Tuple(ats)) => {
            for (p, a) in ps.iter().zip(ats) {
                bind_consts(p, a, env, unbound);
            }
        }
        _ => {}
    }
}

/// The unsigned integer type of the same width.
pub fn unsigned(i: IntTy) -> IntTy {
    match i {
        IntTy::I8 => IntTy::U8,
        IntTy::I16 => IntTy::U16,
        IntTy::I32 => IntTy::U32,
        IntTy::I64 => IntTy::U64,
        IntTy::Isize => IntTy::Usize,
        u => u,
    }
}

/// The item type of iterating over a value of type `t` with `for` (other than ranges): arrays
/// by value, slices and references to arrays by reference, and explicit iterators.
pub fn iter_item(t: &Ty, shallow: &dyn Fn(&Ty) -> Ty) -> Option<Ty> {
    Some(match shallow(t) {
        Ty::Iter(item) => *item,
        Ty::Array(e, _) => *e,
        Ty::Slice(e, m) => Ty::Ref(e, m),
        Ty::Ref(inner, m) => match shallow(&inner) {
            Ty::Array(e, _) | Ty::Slice(e, _) => Ty::Ref(e, m),
            _ => return None,
        },
        _ => return None,
    })
}

/// The front end's type of a math function's integer argument or result (`MathFn::int_arg`).
pub(super) fn math_int(t: kernel_ir::ir::Ty) -> Ty {
    match t {
        kernel_ir::ir::Ty::I64 => Ty::Int(IntTy::I64),
        _ => Ty::Int(IntTy::I32),
    }
}
