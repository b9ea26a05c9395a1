//! Test-only helpers: a tiny builder for kernel ASTs (the `#[kernel]` macro is not available to
//! these tests) and a single-thread reference interpreter of the IR, so lowering tests can check
//! what lowered code computes, not just its shape.
#![allow(dead_code)]

pub mod interp;

use std::sync::atomic::{AtomicU32, Ordering};

use kernel_ir::ast::{self, *};

static LINE: AtomicU32 = AtomicU32::new(1);

/// A fresh span (distinct line per node so panic sites can be told apart).
pub fn sp() -> Span {
    Span::new(LINE.fetch_add(1, Ordering::Relaxed), 5)
}

pub fn ex(kind: ExprKind) -> Expr {
    Expr { kind, span: sp() }
}
fn b(e: Expr) -> Box<Expr> {
    Box::new(e)
}

pub fn int(v: i128) -> Expr {
    if v < 0 {
        neg(ex(ExprKind::Lit(Lit::Int((-v) as u128, None))))
    } else {
        ex(ExprKind::Lit(Lit::Int(v as u128, None)))
    }
}
pub fn int_t(v: i128, t: IntTy) -> Expr {
    if v < 0 {
        neg(ex(ExprKind::Lit(Lit::Int((-v) as u128, Some(t)))))
    } else {
        ex(ExprKind::Lit(Lit::Int(v as u128, Some(t))))
    }
}
pub fn float(v: f64) -> Expr {
    if v < 0.0 {
        neg(ex(ExprKind::Lit(Lit::Float(-v, None))))
    } else {
        ex(ExprKind::Lit(Lit::Float(v, None)))
    }
}
pub fn f32l(v: f32) -> Expr {
    ex(ExprKind::Lit(Lit::Float(v as f64, Some(FloatTy::F32))))
}
pub fn boolean(v: bool) -> Expr {
    ex(ExprKind::Lit(Lit::Bool(v)))
}
pub fn var(n: &str) -> Expr {
    ex(ExprKind::Local(n.into()))
}
pub fn neg(a: Expr) -> Expr {
    ex(ExprKind::Unary(UnOp::Neg, b(a)))
}
pub fn not(a: Expr) -> Expr {
    ex(ExprKind::Unary(UnOp::Not, b(a)))
}
pub fn bin(op: BinOp, x: Expr, y: Expr) -> Expr {
    ex(ExprKind::Binary(op, b(x), b(y)))
}
pub fn add(x: Expr, y: Expr) -> Expr {
    bin(BinOp::Add, x, y)
}
pub fn sub(x: Expr, y: Expr) -> Expr {
    bin(BinOp::Sub, x, y)
}
pub fn mul(x: Expr, y: Expr) -> Expr {
    bin(BinOp::Mul, x, y)
}
pub fn lt(x: Expr, y: Expr) -> Expr {
    bin(BinOp::Lt, x, y)
}
pub fn eq(x: Expr, y: Expr) -> Expr {
    bin(BinOp::Eq, x, y)
}
pub fn assign(p: Expr, v: Expr) -> Expr {
    ex(ExprKind::Assign(b(p), b(v)))
}
pub fn assign_op(op: BinOp, p: Expr, v: Expr) -> Expr {
    ex(ExprKind::AssignOp(op, b(p), b(v)))
}
pub fn cast(a: Expr, t: Type) -> Expr {
    ex(ExprKind::Cast(b(a), t))
}
pub fn index(a: Expr, i: Expr) -> Expr {
    ex(ExprKind::Index(b(a), b(i)))
}
pub fn field(a: Expr, f: &str) -> Expr {
    ex(ExprKind::Field(b(a), f.into()))
}
pub fn mcall(r: Expr, m: &str, args: Vec<Expr>) -> Expr {
    ex(ExprKind::MethodCall {
        receiver: b(r),
        method: m.into(),
        generic_args: vec![],
        args,
    })
}
pub fn assoc_call(ty: Type, m: &str, args: Vec<Expr>) -> Expr {
    ex(ExprKind::AssocCall {
        ty,
        method: m.into(),
        args,
    })
}
pub fn call(
    path: &'static str,
    resolve: fn() -> Callable,
    generic_args: Vec<GenericArg>,
    args: Vec<Expr>,
) -> Expr {
    ex(ExprKind::Call {
        callee: Callee { path, resolve },
        generic_args,
        args,
    })
}
pub fn tuple(es: Vec<Expr>) -> Expr {
    ex(ExprKind::Tuple(es))
}
pub fn array(es: Vec<Expr>) -> Expr {
    ex(ExprKind::Array(es))
}
pub fn repeat(v: Expr, n: Expr) -> Expr {
    ex(ExprKind::ArrayRepeat(b(v), b(n)))
}
pub fn range(a: Expr, z: Expr, inclusive: bool) -> Expr {
    ex(ExprKind::Range {
        start: Some(b(a)),
        end: Some(b(z)),
        inclusive,
    })
}
pub fn if_(c: Expr, then: Block, els: Option<Expr>) -> Expr {
    ex(ExprKind::If {
        cond: b(c),
        then,
        els: els.map(b),
    })
}
pub fn blk(stmts: Vec<Stmt>, tail: Option<Expr>) -> Block {
    Block {
        stmts,
        tail: tail.map(b),
        span: sp(),
    }
}
pub fn bexpr(stmts: Vec<Stmt>, tail: Option<Expr>) -> Expr {
    ex(ExprKind::Block(blk(stmts, tail)))
}
pub fn while_(c: Expr, body: Block) -> Expr {
    ex(ExprKind::While {
        label: None,
        cond: b(c),
        body,
    })
}
pub fn loop_(label: Option<&str>, body: Block) -> Expr {
    ex(ExprKind::Loop {
        label: label.map(Into::into),
        body,
    })
}
pub fn for_(label: Option<&str>, v: &str, iter: Expr, body: Block) -> Expr {
    ex(ExprKind::For {
        label: label.map(Into::into),
        pat: pid(v),
        iter: b(iter),
        body,
        unroll: Unroll::Auto,
    })
}
pub fn brk(label: Option<&str>, v: Option<Expr>) -> Expr {
    ex(ExprKind::Break {
        label: label.map(Into::into),
        value: v.map(b),
    })
}
pub fn cont(label: Option<&str>) -> Expr {
    ex(ExprKind::Continue {
        label: label.map(Into::into),
    })
}
pub fn ret(v: Option<Expr>) -> Expr {
    ex(ExprKind::Return(v.map(b)))
}
pub fn refm(a: Expr) -> Expr {
    ex(ExprKind::Ref(Mutability::Mut, b(a)))
}
pub fn refr(a: Expr) -> Expr {
    ex(ExprKind::Ref(Mutability::Not, b(a)))
}
pub fn deref(a: Expr) -> Expr {
    ex(ExprKind::Deref(b(a)))
}
pub fn match_(s: Expr, arms: Vec<Arm>) -> Expr {
    ex(ExprKind::Match {
        scrutinee: b(s),
        arms,
    })
}
pub fn arm(pat: Pat, guard: Option<Expr>, body: Expr) -> Arm {
    Arm {
        pat,
        guard,
        body,
        span: sp(),
    }
}
pub fn pid(n: &str) -> Pat {
    Pat::Ident {
        name: n.into(),
        mutable: false,
    }
}
pub fn plit(v: i128) -> Pat {
    Pat::Lit(Lit::Int(v as u128, None))
}
pub fn prange(a: i128, z: i128, inclusive: bool) -> Pat {
    Pat::Range {
        start: Some(Box::new(plit(a))),
        end: Some(Box::new(plit(z))),
        inclusive,
    }
}

/// `let [mut] name[: ty] = init;`
pub fn let_(name: &str, mutable: bool, ty: Type, init: Expr) -> Stmt {
    Stmt::Let {
        pat: Pat::Ident {
            name: name.into(),
            mutable,
        },
        ty,
        init: Some(init),
        span: sp(),
    }
}
pub fn let_pat(pat: Pat, init: Expr) -> Stmt {
    Stmt::Let {
        pat,
        ty: Type::Infer,
        init: Some(init),
        span: sp(),
    }
}
pub fn st(e: Expr) -> Stmt {
    Stmt::Expr(e)
}

pub fn ti(t: IntTy) -> Type {
    Type::Int(t)
}
pub fn tf(t: FloatTy) -> Type {
    Type::Float(t)
}
pub fn tarr(t: Type, n: u128) -> Type {
    Type::Array(Box::new(t), Box::new(ex(ExprKind::Lit(Lit::Int(n, None)))))
}
pub fn tslice(t: Type, m: bool) -> Type {
    Type::Slice(
        Box::new(t),
        if m { Mutability::Mut } else { Mutability::Not },
    )
}
pub fn param(n: &str, ty: Type) -> ast::Param {
    ast::Param {
        name: n.into(),
        mutable: false,
        ty,
        span: sp(),
    }
}

pub fn fndef(
    name: &'static str,
    kind: FnKind,
    generics: Vec<Generic>,
    params: Vec<ast::Param>,
    ret: Type,
    body: Block,
) -> FnDef {
    FnDef {
        name,
        module: "tests",
        file: "tests/frontend.rs",
        span: sp(),
        kind,
        generics,
        params,
        ret,
        body,
        // Hand-built ASTs test other things; overflow checks have their own tests.
        overflow_checks: false,
    }
}

/// A leaked kernel definition.
pub fn kernel(name: &'static str, params: Vec<ast::Param>, body: Block) -> &'static FnDef {
    Box::leak(Box::new(fndef(
        name,
        FnKind::Kernel(KernelAttrs::default()),
        vec![],
        params,
        Type::Unit,
        body,
    )))
}

/// The usual test kernel shape: `fn k(out: &mut [T]) { body }` writing results into `out`.
pub fn out_kernel(elem: Type, stmts: Vec<Stmt>) -> &'static FnDef {
    kernel(
        "k",
        vec![param("out", tslice(elem, true))],
        blk(stmts, None),
    )
}

/// `out[i] = e;`
pub fn put(i: usize, e: Expr) -> Stmt {
    st(assign(index(var("out"), int(i as i128)), e))
}

/// Lowers a kernel and checks that the PTX emitter accepts the IR and `ptxas` assembles it
/// (sm_80; skipped with a note when ptxas is missing).
pub fn lower_checked(
    def: &'static FnDef,
    generics: &[kernel_ir::GenericValue],
) -> kernel_ir::ir::Kernel {
    let k =
        kernel_compiler::frontend::lower_kernel(def, generics).unwrap_or_else(|e| panic!("{e}"));
    assemble(&k);
    k
}

pub fn assemble(k: &kernel_ir::ir::Kernel) {
    let opts = kernel_compiler::CompileOptions {
        sm: 80,
        ..Default::default()
    };
    let text = kernel_compiler::ptx::emit(k, &opts)
        .unwrap_or_else(|e| panic!("PTX emission failed: {e}\n{k:#?}"));
    if kernel_testkit::ptxas::require_ptxas().is_some() {
        let r = kernel_testkit::ptxas::assemble(&text, 80)
            .unwrap_or_else(|e| panic!("ptxas rejected the PTX:\n{e}\n--- PTX ---\n{text}"));
        assert!(
            !r.log.contains("warning"),
            "ptxas warned:\n{}\n--- PTX ---\n{text}",
            r.log
        );
    }
}
