//! Type inference for one function instance (generic parameters already substituted): Hindley-
//! Milner-style unification restricted to what kernel code needs, chiefly the types of unsuffixed
//! literals (`let mut i = 0; ... a[i]` makes `i` a `usize`, as in Rust) and the generic
//! arguments of device-function calls. Lowering reads the resolved type of every expression from
//! the resulting [`Types`] table instead of recomputing it.

use crate::passes::fx::FxHashMap as HashMap;

use kernel_ir::ast::{self, BinOp, Expr, ExprKind, FloatTy, IntTy, Lit, Pat, Stmt};
use kernel_std::api::DeviceCopy;

use super::consts::{const_value_ty, convert_type, eval_const, Env, GBind};
use super::types::{SDef, Ty};
use super::FErr;

mod async_copy;
pub mod bulk;
mod calls;
mod intrinsics;
pub mod wmma;
pub use calls::{iter_item, unsigned};

/// Identity of an AST node within one function instance.
pub fn key<T>(x: &T) -> usize {
    x as *const T as usize
}

/// Resolved types of one function instance.
#[derive(Default, Debug)]
pub struct Types {
    pub exprs: HashMap<usize, Ty>,
    /// Type of each `let` statement's pattern.
    pub lets: HashMap<usize, Ty>,
    /// Generic substitution of each device-function call expression.
    pub calls: HashMap<usize, Env>,
    /// Resolved explicit type arguments of intrinsic calls (`shared_array::<T>()`).
    pub intrinsic_args: HashMap<usize, Vec<Ty>>,
}

impl Types {
    pub fn expr(&self, e: &Expr) -> Ty {
        self.exprs.get(&key(e)).cloned().unwrap_or(Ty::Unit)
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Any,
    Int,
    Float,
}

#[derive(Clone, Debug)]
enum VarState {
    Unbound(Kind),
    Bound(Ty),
}

struct LoopScope {
    label: Option<String>,
    /// `Some(type of break values)` for `loop`; `None` for `while` / `for`.
    brk: Option<Ty>,
    has_break: bool,
}

pub struct Infer<'a> {
    file: &'static str,
    env: &'a Env,
    vars: Vec<VarState>,
    scopes: Vec<HashMap<String, Ty>>,
    loops: Vec<LoopScope>,
    ret: Ty,
    exprs: HashMap<usize, (Ty, ast::Span)>,
    lets: HashMap<usize, (Ty, ast::Span)>,
    calls: HashMap<usize, (Vec<(String, GBind)>, ast::Span)>,
    intrinsic_args: HashMap<usize, Vec<Ty>>,
}

type R<T> = Result<T, FErr>;

pub fn dim3() -> Ty {
    Ty::Struct(SDef(<kernel_std::api::Dim3 as DeviceCopy>::struct_def()))
}

/// Infers the types of `def`'s body under `env`. Parameter and return types come from the signature.
pub fn infer_fn(def: &'static ast::FnDef, env: &Env) -> Result<Types, FErr> {
    let mut inf = Infer {
        file: def.file,
        env,
        vars: Vec::new(),
        scopes: vec![HashMap::default()],
        loops: Vec::new(),
        ret: Ty::Unit,
        exprs: HashMap::default(),
        lets: HashMap::default(),
        calls: HashMap::default(),
        intrinsic_args: HashMap::default(),
    };
    let ret = inf.conv(&def.ret, def.span)?;
    inf.ret = ret.clone();
    for p in &def.params {
        let t = inf.conv(&p.ty, p.span)?;
        inf.scopes[0].insert(p.name.clone(), t);
    }
    let body_ty = inf.block(&def.body)?;
    inf.coerce(
        body_ty,
        ret,
        def.body
            .tail
            .as_ref()
            .map(|t| t.span)
            .unwrap_or(def.body.span),
    )?;
    inf.finish()
}

impl<'a> Infer<'a> {
    fn err(&self, span: ast::Span, msg: impl Into<String>) -> FErr {
        FErr::new(self.file, span, msg)
    }

    fn fresh(&mut self, k: Kind) -> Ty {
        self.vars.push(VarState::Unbound(k));
        Ty::Var(self.vars.len() as u32 - 1)
    }

    fn conv(&mut self, t: &ast::Type, span: ast::Span) -> R<Ty> {
        let env = self.env;
        let mut fresh_vars = Vec::new();
        let base = self.vars.len() as u32;
        let r = convert_type(t, env, &mut || {
            fresh_vars.push(());
            Ty::Var(base + fresh_vars.len() as u32 - 1)
        });
        for _ in fresh_vars {
            self.vars.push(VarState::Unbound(Kind::Any));
        }
        r.map_err(|m| self.err(span, m))
    }

    /// Follows bound variables at the top level.
    pub fn shallow(&self, t: &Ty) -> Ty {
        let mut t = t.clone();
        while let Ty::Var(v) = t {
            match &self.vars[v as usize] {
                VarState::Bound(b) => t = b.clone(),
                VarState::Unbound(_) => break,
            }
        }
        t
    }

    fn kind(&self, t: &Ty) -> Option<Kind> {
        match self.shallow(t) {
            Ty::Var(v) => match self.vars[v as usize] {
                VarState::Unbound(k) => Some(k),
                VarState::Bound(_) => None,
            },
            _ => None,
        }
    }

    /// Resolves fully, defaulting integer literals to `i32`, float literals to `f64` and
    /// unconstrained variables to `()` (they only type dead or unused code).
    fn deep(&self, t: &Ty) -> Ty {
        match self.shallow(t) {
            Ty::Var(v) => match self.vars[v as usize] {
                VarState::Unbound(Kind::Int) => Ty::Int(IntTy::I32),
                VarState::Unbound(Kind::Float) => Ty::Float(FloatTy::F64),
                _ => Ty::Unit,
            },
            Ty::Array(e, n) => Ty::Array(Box::new(self.deep(&e)), n),
            Ty::Tuple(ts) => Ty::Tuple(ts.iter().map(|x| self.deep(x)).collect()),
            Ty::Slice(e, m) => Ty::Slice(Box::new(self.deep(&e)), m),
            Ty::Ref(e, m) => Ty::Ref(Box::new(self.deep(&e)), m),
            Ty::Range(e) => Ty::Range(Box::new(self.deep(&e))),
            Ty::Iter(e) => Ty::Iter(Box::new(self.deep(&e))),
            t => t,
        }
    }

    fn show(&self, t: &Ty) -> String {
        match self.kind(t) {
            Some(Kind::Int) => "{integer}".into(),
            Some(Kind::Float) => "{float}".into(),
            _ => self.deep(t).to_string(),
        }
    }

    fn unify(&mut self, a: &Ty, b: &Ty, span: ast::Span) -> R<()> {
        if self.unify_inner(a, b) {
            Ok(())
        } else {
            Err(self.err(
                span,
                format!(
                    "mismatched types: expected `{}`, found `{}`",
                    self.show(b),
                    self.show(a)
                ),
            ))
        }
    }

    fn unify_inner(&mut self, a: &Ty, b: &Ty) -> bool {
        let a = self.shallow(a);
        let b = self.shallow(b);
        match (&a, &b) {
            (Ty::Never, _) | (_, Ty::Never) => true,
            (Ty::Var(x), Ty::Var(y)) if x == y => true,
            (Ty::Var(x), Ty::Var(y)) => {
                let kx = self.kind(&a).unwrap();
                let ky = self.kind(&b).unwrap();
                let k = match (kx, ky) {
                    (Kind::Any, k) | (k, Kind::Any) => k,
                    (k1, k2) if k1 == k2 => k1,
                    _ => return false,
                };
                self.vars[*y as usize] = VarState::Unbound(k);
                self.vars[*x as usize] = VarState::Bound(b.clone());
                true
            }
            (Ty::Var(x), t) | (t, Ty::Var(x)) => {
                let ok = match self.kind(&Ty::Var(*x)).unwrap() {
                    Kind::Any => true,
                    Kind::Int => matches!(t, Ty::Int(_)),
                    Kind::Float => matches!(t, Ty::Float(_)),
                };
                if ok {
                    self.vars[*x as usize] = VarState::Bound(t.clone());
                }
                ok
            }
            (Ty::Array(x, n), Ty::Array(y, m)) => n == m && self.unify_inner(x, y),
            (Ty::Tuple(xs), Ty::Tuple(ys)) => {
                xs.len() == ys.len()
                    && xs
                        .iter()
                        .zip(ys.iter())
                        .all(|(x, y)| self.unify_inner(x, y))
            }
            (Ty::Slice(x, m1), Ty::Slice(y, m2)) | (Ty::Ref(x, m1), Ty::Ref(y, m2)) => {
                m1 == m2 && self.unify_inner(x, y)
            }
            (Ty::Range(x), Ty::Range(y)) | (Ty::Iter(x), Ty::Iter(y)) => self.unify_inner(x, y),
            _ => a == b,
        }
    }

    /// Unification at coercion sites: `&mut T` -> `&T`, `&[T; N]` -> `&[T]`.
    fn coerce(&mut self, actual: Ty, expected: Ty, span: ast::Span) -> R<()> {
        let a = self.shallow(&actual);
        let e = self.shallow(&expected);
        match (&a, &e) {
            (Ty::Ref(inner, am), Ty::Slice(ee, em)) if *am || !*em => {
                if let Ty::Array(ae, _) = self.shallow(inner) {
                    return self.unify(&ae, ee, span);
                }
            }
            (Ty::Slice(ae, true), Ty::Slice(ee, false)) => return self.unify(ae, ee, span),
            (Ty::Ref(ae, true), Ty::Ref(ee, false)) => return self.unify(ae, ee, span),
            _ => {}
        }
        self.unify(&actual, &expected, span)
    }

    fn join(&mut self, a: Ty, b: Ty, span: ast::Span) -> R<Ty> {
        if self.shallow(&a) == Ty::Never {
            return Ok(b);
        }
        if self.shallow(&b) == Ty::Never {
            return Ok(a);
        }
        self.unify(&b, &a, span)?;
        Ok(a)
    }

    fn lookup(&self, name: &str) -> Option<Ty> {
        self.scopes.iter().rev().find_map(|s| s.get(name).cloned())
    }

    fn bind(&mut self, name: &str, t: Ty) {
        self.scopes.last_mut().unwrap().insert(name.to_string(), t);
    }

    fn finish(self) -> R<Types> {
        let mut out = Types::default();
        for (k, (t, _)) in &self.exprs {
            out.exprs.insert(*k, self.deep(t));
        }
        for (k, (t, _)) in &self.lets {
            out.lets.insert(*k, self.deep(t));
        }
        for (k, (binds, _)) in &self.calls {
            let mut env = Env::default();
            for (n, b) in binds {
                let b = match b {
                    GBind::Type(t) => GBind::Type(self.deep(t)),
                    c => c.clone(),
                };
                env.map.insert(n.clone(), b);
            }
            out.calls.insert(*k, env);
        }
        for (k, ts) in &self.intrinsic_args {
            out.intrinsic_args
                .insert(*k, ts.iter().map(|t| self.deep(t)).collect());
        }
        Ok(out)
    }

    pub fn block(&mut self, b: &ast::Block) -> R<Ty> {
        self.scopes.push(HashMap::default());
        let mut diverges = false;
        for s in &b.stmts {
            match s {
                Stmt::Let {
                    pat,
                    ty,
                    init,
                    span,
                    ..
                } => {
                    let declared = self.conv(ty, *span)?;
                    if let Some(init) = init {
                        let t = self.expr(init)?;
                        if self.shallow(&t) == Ty::Never {
                            diverges = true;
                        }
                        self.coerce(t, declared.clone(), init.span)?;
                    }
                    self.pat(pat, &declared, *span)?;
                    self.lets.insert(key(s), (declared, *span));
                }
                Stmt::Expr(e) => {
                    let t = self.expr(e)?;
                    if self.shallow(&t) == Ty::Never {
                        diverges = true;
                    }
                }
            }
        }
        let t = match &b.tail {
            Some(t) => self.expr(t)?,
            None if diverges => Ty::Never,
            None => Ty::Unit,
        };
        self.scopes.pop();
        Ok(t)
    }

    fn pat(&mut self, p: &Pat, t: &Ty, span: ast::Span) -> R<()> {
        match p {
            Pat::Wild => {}
            Pat::Ident { name, .. } => self.bind(name, t.clone()),
            Pat::Tuple(ps) => {
                let elems: Vec<Ty> = match self.shallow(t) {
                    Ty::Tuple(ts) if ts.len() == ps.len() => ts,
                    _ => {
                        let ts: Vec<Ty> = ps.iter().map(|_| self.fresh(Kind::Any)).collect();
                        self.unify(&Ty::Tuple(ts.clone()), t, span)?;
                        ts
                    }
                };
                for (p, t) in ps.iter().zip(elems.iter()) {
                    self.pat(p, t, span)?;
                }
            }
            Pat::Array(ps) => match self.shallow(t) {
                Ty::Array(e, n) if n == ps.len() as u64 => {
                    for p in ps {
                        self.pat(p, &e, span)?;
                    }
                }
                _ => {
                    return Err(self.err(
                        span,
                        format!("array pattern does not match type `{}`", self.show(t)),
                    ))
                }
            },
            Pat::Lit(l) => {
                let lt = self.lit(l);
                self.unify(&lt, t, span)?;
            }
            Pat::HostConst(h) => {
                let ct = const_value_ty(&(h.eval)()).map_err(|m| self.err(span, m))?;
                self.unify(&ct, t, span)?;
            }
            Pat::Range { start, end, .. } => {
                for b in [start, end].into_iter().flatten() {
                    self.pat(b, t, span)?;
                }
            }
            Pat::Or(ps) => {
                for p in ps {
                    self.pat(p, t, span)?;
                }
            }
        }
        Ok(())
    }

    fn lit(&mut self, l: &Lit) -> Ty {
        match l {
            Lit::Int(_, Some(t)) => Ty::Int(*t),
            Lit::Int(_, None) => self.fresh(Kind::Int),
            Lit::Float(_, Some(t)) => Ty::Float(*t),
            Lit::Float(_, None) => self.fresh(Kind::Float),
            Lit::Bool(_) => Ty::Bool,
        }
    }

    /// The type after auto-deref (`&T` operands of arithmetic, method receivers, field bases).
    fn deref(&self, t: &Ty) -> Ty {
        let mut t = self.shallow(t);
        while let Ty::Ref(inner, _) = t {
            t = self.shallow(&inner);
        }
        t
    }

    pub fn expr(&mut self, e: &Expr) -> R<Ty> {
        let t = self.expr_inner(e)?;
        self.exprs.insert(key(e), (t.clone(), e.span));
        Ok(t)
    }

    fn expr_inner(&mut self, e: &Expr) -> R<Ty> {
        let sp = e.span;
        Ok(match &e.kind {
            ExprKind::Lit(l) => self.lit(l),
            ExprKind::Local(name) => match self.lookup(name) {
                Some(t) => t,
                None => match self.env.konst(name) {
                    Some((_, t)) => Ty::Int(t),
                    None => return Err(self.err(sp, format!("cannot find value `{name}`"))),
                },
            },
            ExprKind::HostConst(h) => const_value_ty(&(h.eval)()).map_err(|m| self.err(sp, m))?,
            ExprKind::AssocConst { ty, name } => {
                let t = self.conv(ty, sp)?;
                match (self.shallow(&t), name.as_str()) {
                    (Ty::Int(_) | Ty::Float(_), "BITS") => Ty::Int(IntTy::U32),
                    (t @ (Ty::Int(_) | Ty::Float(_)), _) => t,
                    (t, _) => {
                        return Err(self.err(sp, format!("no associated constant `{t}::{name}`")))
                    }
                }
            }
            ExprKind::Unary(_, a) => {
                let t = self.expr(a)?;
                self.deref(&t)
            }
            ExprKind::Binary(op, a, b) => {
                let ta = self.expr(a)?;
                let tb = self.expr(b)?;
                let (ta, tb) = (self.deref(&ta), self.deref(&tb));
                match op {
                    BinOp::And | BinOp::Or => {
                        self.unify(&ta, &Ty::Bool, a.span)?;
                        self.unify(&tb, &Ty::Bool, b.span)?;
                        Ty::Bool
                    }
                    BinOp::Shl | BinOp::Shr => ta,
                    BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                        self.unify(&tb, &ta, b.span)?;
                        Ty::Bool
                    }
                    _ => {
                        self.unify(&tb, &ta, b.span)?;
                        ta
                    }
                }
            }
            ExprKind::Assign(p, v) => {
                let tp = self.expr(p)?;
                let tv = self.expr(v)?;
                self.coerce(tv, tp, v.span)?;
                Ty::Unit
            }
            ExprKind::AssignOp(op, p, v) => {
                let tp = self.expr(p)?;
                let tv = self.expr(v)?;
                if !matches!(op, BinOp::Shl | BinOp::Shr) {
                    let tp = self.deref(&tp);
                    let tv = self.deref(&tv);
                    self.unify(&tv, &tp, v.span)?;
                }
                Ty::Unit
            }
            ExprKind::Cast(a, t) => {
                self.expr(a)?;
                self.conv(t, sp)?
            }
            ExprKind::Index(b, i) => {
                let tb = self.expr(b)?;
                let ti = self.expr(i)?;
                let tb = self.deref(&tb);
                let (elem, mutable) = match &tb {
                    Ty::Array(e, _) => ((**e).clone(), true),
                    Ty::Slice(e, m) => ((**e).clone(), *m),
                    t => {
                        return Err(self.err(
                            sp,
                            format!("cannot index into a value of type `{}`", self.show(t)),
                        ))
                    }
                };
                match self.shallow(&ti) {
                    Ty::Range(r) => {
                        self.unify(&r, &Ty::USIZE, i.span)?;
                        Ty::Slice(Box::new(elem), mutable)
                    }
                    _ => {
                        self.unify(&ti, &Ty::USIZE, i.span)?;
                        elem
                    }
                }
            }
            ExprKind::Field(b, name) => {
                let tb = self.expr(b)?;
                let tb = self.deref(&tb);
                self.field_ty(&tb, name, sp)?
            }
            ExprKind::Call {
                callee,
                generic_args,
                args,
            } => self.call(e, callee, generic_args, args)?,
            ExprKind::AssocCall { ty, method, args } => {
                let t = self.conv(ty, sp)?;
                if matches!(method.as_str(), "from_f32" | "from_f64") {
                    // `f16::from_f32(x)` and friends (the `half` crate's conversions).
                    let [a] = args.as_slice() else {
                        return Err(self.err(sp, format!("`{method}` takes one argument")));
                    };
                    let ta = self.expr(a)?;
                    let from = if method == "from_f32" {
                        FloatTy::F32
                    } else {
                        FloatTy::F64
                    };
                    let ta = self.deref(&ta);
                    self.unify(&ta, &Ty::Float(from), a.span)?;
                    if !matches!(self.shallow(&t), Ty::Float(FloatTy::F16 | FloatTy::BF16)) {
                        return Err(self.err(
                            sp,
                            format!("`{method}` is only supported on `f16` / `bf16`"),
                        ));
                    }
                    t
                } else if method == "from_bits" {
                    let [a] = args.as_slice() else {
                        return Err(self.err(sp, "`from_bits` takes one argument"));
                    };
                    let ta = self.expr(a)?;
                    let bits = match self.shallow(&t) {
                        Ty::Float(FloatTy::F32) => IntTy::U32,
                        Ty::Float(FloatTy::F64) => IntTy::U64,
                        Ty::Float(_) => IntTy::U16,
                        _ => {
                            return Err(self.err(sp, "`from_bits` is only supported on float types"))
                        }
                    };
                    self.unify(&ta, &Ty::Int(bits), a.span)?;
                    t
                } else {
                    let Some((recv, rest)) = args.split_first() else {
                        return Err(self.err(sp, format!("`{method}` needs a receiver argument")));
                    };
                    let tr = self.expr(recv)?;
                    let tr = self.deref(&tr);
                    self.unify(&tr, &t, recv.span)?;
                    self.method(&t, method, rest, sp)?
                }
            }
            ExprKind::MethodCall {
                receiver,
                method,
                args,
                ..
            } => {
                let tr = self.expr(receiver)?;
                let tr = self.deref(&tr);
                self.method(&tr, method, args, sp)?
            }
            ExprKind::Tuple(es) => {
                let mut ts = Vec::new();
                for x in es {
                    ts.push(self.expr(x)?);
                }
                if ts.is_empty() {
                    Ty::Unit
                } else {
                    Ty::Tuple(ts)
                }
            }
            ExprKind::Array(es) => {
                let t = self.fresh(Kind::Any);
                for x in es {
                    let tx = self.expr(x)?;
                    self.unify(&tx, &t, x.span)?;
                }
                Ty::Array(Box::new(t), es.len() as u64)
            }
            ExprKind::ArrayRepeat(v, n) => {
                let t = self.expr(v)?;
                let (n, _) = eval_const(n, self.env).map_err(|m| self.err(n.span, m))?;
                if !(0..=u32::MAX as i128).contains(&n) {
                    return Err(self.err(sp, "array length out of range"));
                }
                Ty::Array(Box::new(t), n as u64)
            }
            ExprKind::StructLit { ty, fields } => {
                let s = SDef((ty.def)());
                let st = Ty::Struct(s);
                for (name, v) in fields {
                    let ft = self.field_ty(&st, name, v.span)?;
                    let tv = self.expr(v)?;
                    self.coerce(tv, ft, v.span)?;
                }
                st
            }
            ExprKind::Block(b) => self.block(b)?,
            ExprKind::If { cond, then, els } => {
                let tc = self.expr(cond)?;
                self.unify(&tc, &Ty::Bool, cond.span)?;
                let tt = self.block(then)?;
                match els {
                    Some(x) => {
                        let te = self.expr(x)?;
                        self.join(tt, te, x.span)?
                    }
                    None => {
                        self.unify(&tt, &Ty::Unit, then.span)?;
                        Ty::Unit
                    }
                }
            }
            ExprKind::Match { scrutinee, arms } => {
                let ts = self.expr(scrutinee)?;
                let ts = self.deref(&ts);
                let mut out = Ty::Never;
                for arm in arms {
                    self.scopes.push(HashMap::default());
                    self.pat(&arm.pat, &ts, arm.span)?;
                    if let Some(g) = &arm.guard {
                        let tg = self.expr(g)?;
                        self.unify(&tg, &Ty::Bool, g.span)?;
                    }
                    let tb = self.expr(&arm.body)?;
                    self.scopes.pop();
                    out = self.join(out, tb, arm.body.span)?;
                }
                out
            }
            ExprKind::While { label, cond, body } => {
                let tc = self.expr(cond)?;
                self.unify(&tc, &Ty::Bool, cond.span)?;
                self.loop_body(label, None, body)?;
                Ty::Unit
            }
            ExprKind::Loop { label, body } => {
                let bt = self.fresh(Kind::Any);
                let has_break = self.loop_body(label, Some(bt.clone()), body)?;
                if has_break {
                    bt
                } else {
                    Ty::Never
                }
            }
            ExprKind::For {
                label,
                pat,
                iter,
                body,
                ..
            } => {
                let ti = self.expr(iter)?;
                let elem = match self.shallow(&ti) {
                    Ty::Range(t) => {
                        if !matches!(self.kind(&t), Some(Kind::Int) | Some(Kind::Any))
                            && !matches!(self.shallow(&t), Ty::Int(_))
                        {
                            return Err(self.err(iter.span, "`for` ranges must be of an integer type"));
                        }
                        *t
                    }
                    t => match iter_item(&t, &|x| self.shallow(x)) {
                        Some(item) => item,
                        None => return Err(self.err(
                            iter.span,
                            format!("`for` loops iterate over integer ranges (`a..b`, `a..=b`, with `.rev()` / `.step_by(n)`), arrays and slices (`.iter()`, `.iter_mut()`, `.enumerate()`); found `{}`", self.show(&t)),
                        )),
                    },
                };
                self.scopes.push(HashMap::default());
                self.pat(pat, &elem, iter.span)?;
                self.loop_body(label, None, body)?;
                self.scopes.pop();
                Ty::Unit
            }
            ExprKind::Range { start, end, .. } => {
                let t = self.fresh(Kind::Int);
                for b in [start, end].into_iter().flatten() {
                    let tb = self.expr(b)?;
                    self.unify(&tb, &t, b.span)?;
                }
                Ty::Range(Box::new(t))
            }
            ExprKind::Break { label, value } => {
                let vt = match value {
                    Some(v) => self.expr(v)?,
                    None => Ty::Unit,
                };
                let idx = self.find_loop(label.as_deref(), sp)?;
                self.loops[idx].has_break = true;
                match self.loops[idx].brk.clone() {
                    Some(bt) => self.unify(&vt, &bt, sp)?,
                    None if value.is_some() => {
                        return Err(self.err(sp, "`break` with a value is only allowed in `loop`"))
                    }
                    None => {}
                }
                Ty::Never
            }
            ExprKind::Continue { label } => {
                self.find_loop(label.as_deref(), sp)?;
                Ty::Never
            }
            ExprKind::Return(v) => {
                let t = match v {
                    Some(v) => self.expr(v)?,
                    None => Ty::Unit,
                };
                let ret = self.ret.clone();
                self.coerce(t, ret, sp)?;
                Ty::Never
            }
            ExprKind::Ref(m, a) => {
                let t = self.expr(a)?;
                let mutable = *m == ast::Mutability::Mut;
                match self.shallow(&t) {
                    Ty::Slice(e, _) if matches!(a.kind, ExprKind::Index(..)) => {
                        Ty::Slice(e, mutable)
                    }
                    _ => Ty::Ref(Box::new(t), mutable),
                }
            }
            ExprKind::Deref(a) => {
                let t = self.expr(a)?;
                match self.shallow(&t) {
                    Ty::Ref(inner, _) => *inner,
                    t => {
                        return Err(self.err(
                            sp,
                            format!("type `{}` cannot be dereferenced", self.show(&t)),
                        ))
                    }
                }
            }
            ExprKind::Assert { cond, .. } => {
                let t = self.expr(cond)?;
                self.unify(&t, &Ty::Bool, cond.span)?;
                Ty::Unit
            }
            ExprKind::Panic { .. } => Ty::Never,
            ExprKind::Print { args, .. } => {
                for a in args {
                    self.expr(a)?;
                }
                Ty::Unit
            }
        })
    }

    fn find_loop(&self, label: Option<&str>, sp: ast::Span) -> R<usize> {
        let found = match label {
            None => self.loops.len().checked_sub(1),
            Some(l) => self
                .loops
                .iter()
                .rposition(|x| x.label.as_deref() == Some(l)),
        };
        found.ok_or_else(|| match label {
            Some(l) => self.err(sp, format!("use of undeclared label `'{l}`")),
            None => self.err(sp, "`break` / `continue` outside of a loop"),
        })
    }

    fn loop_body(&mut self, label: &Option<String>, brk: Option<Ty>, body: &ast::Block) -> R<bool> {
        self.loops.push(LoopScope {
            label: label.clone(),
            brk,
            has_break: false,
        });
        let t = self.block(body);
        let l = self.loops.pop().unwrap();
        let t = t?;
        self.unify(&t, &Ty::Unit, body.span)?;
        Ok(l.has_break)
    }

    pub fn field_ty(&mut self, base: &Ty, name: &str, sp: ast::Span) -> R<Ty> {
        match self.shallow(base) {
            Ty::Tuple(ts) => name
                .parse::<usize>()
                .ok()
                .and_then(|i| ts.get(i).cloned())
                .ok_or_else(|| {
                    self.err(
                        sp,
                        format!("no field `{name}` on a tuple of {} elements", ts.len()),
                    )
                }),
            Ty::Struct(s) => {
                let (_, fty) = s.0.fields.iter().find(|(n, _)| n == name).ok_or_else(|| {
                    self.err(sp, format!("no field `{name}` on struct `{}`", s.0.name))
                })?;
                super::layout::field_ty(s, name, fty).map_err(|m| self.err(sp, m))
            }
            t => Err(self.err(
                sp,
                format!(
                    "no field `{name}` on type `{}` (type must be known here)",
                    self.show(&t)
                ),
            )),
        }
    }
}
