//! Scalar types of generated kernels and short constructors for `kernel_ir::ast` nodes.
//!
//! Nodes are built with empty spans; the printer (`print.rs`) gives each node the line and column
//! its text starts at, as `#[kernel]` would for the printed source.

use ferrocuda::kernel_ir::ast::*;

/// A scalar type as the generator tracks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sc {
    Bool,
    I(IntTy),
    F(FloatTy),
}

pub const INTS: [IntTy; 10] = [
    IntTy::I8,
    IntTy::I16,
    IntTy::I32,
    IntTy::I64,
    IntTy::Isize,
    IntTy::U8,
    IntTy::U16,
    IntTy::U32,
    IntTy::U64,
    IntTy::Usize,
];

pub fn bits(t: IntTy) -> u32 {
    match t {
        IntTy::I8 | IntTy::U8 => 8,
        IntTy::I16 | IntTy::U16 => 16,
        IntTy::I32 | IntTy::U32 => 32,
        IntTy::I64 | IntTy::U64 | IntTy::Isize | IntTy::Usize => 64,
    }
}

pub fn signed(t: IntTy) -> bool {
    matches!(
        t,
        IntTy::I8 | IntTy::I16 | IntTy::I32 | IntTy::I64 | IntTy::Isize
    )
}

/// The unsigned type of the same width.
pub fn unsigned_of(t: IntTy) -> IntTy {
    match t {
        IntTy::I8 => IntTy::U8,
        IntTy::I16 => IntTy::U16,
        IntTy::I32 => IntTy::U32,
        IntTy::I64 => IntTy::U64,
        IntTy::Isize => IntTy::Usize,
        u => u,
    }
}

/// Smallest and largest value.
pub fn int_range(t: IntTy) -> (i128, i128) {
    let b = bits(t);
    if signed(t) {
        (-(1i128 << (b - 1)), (1i128 << (b - 1)) - 1)
    } else {
        (0, (1i128 << b) - 1)
    }
}

pub fn int_name(t: IntTy) -> &'static str {
    match t {
        IntTy::I8 => "i8",
        IntTy::I16 => "i16",
        IntTy::I32 => "i32",
        IntTy::I64 => "i64",
        IntTy::Isize => "isize",
        IntTy::U8 => "u8",
        IntTy::U16 => "u16",
        IntTy::U32 => "u32",
        IntTy::U64 => "u64",
        IntTy::Usize => "usize",
    }
}

pub fn float_name(t: FloatTy) -> &'static str {
    match t {
        FloatTy::F16 => "f16",
        FloatTy::BF16 => "bf16",
        FloatTy::F32 => "f32",
        FloatTy::F64 => "f64",
    }
}

pub fn ty(s: Sc) -> Type {
    match s {
        Sc::Bool => Type::Bool,
        Sc::I(t) => Type::Int(t),
        Sc::F(t) => Type::Float(t),
    }
}

pub fn e(kind: ExprKind) -> Expr {
    Expr {
        kind,
        span: Span::default(),
    }
}
fn b(x: Expr) -> Box<Expr> {
    Box::new(x)
}

/// An integer literal of type `t` (negative values as `-lit`, the minimum as `T::MIN`).
pub fn int(v: i128, t: IntTy) -> Expr {
    let (min, _) = int_range(t);
    if v == min && signed(t) {
        e(ExprKind::AssocConst {
            ty: Type::Int(t),
            name: "MIN".into(),
        })
    } else if v < 0 {
        un(UnOp::Neg, e(ExprKind::Lit(Lit::Int((-v) as u128, Some(t)))))
    } else {
        e(ExprKind::Lit(Lit::Int(v as u128, Some(t))))
    }
}
pub fn usize_lit(v: usize) -> Expr {
    int(v as i128, IntTy::Usize)
}
pub fn u32_lit(v: u32) -> Expr {
    int(v as i128, IntTy::U32)
}
/// A float literal (finite) or a named special value (`f32::NAN`, `f32::INFINITY`).
pub fn float(v: f64, t: FloatTy) -> Expr {
    let named = |n: &str| {
        e(ExprKind::AssocConst {
            ty: Type::Float(t),
            name: n.into(),
        })
    };
    if v.is_nan() {
        named("NAN")
    } else if v == f64::INFINITY {
        named("INFINITY")
    } else if v == f64::NEG_INFINITY {
        named("NEG_INFINITY")
    } else if v < 0.0 || (v == 0.0 && v.is_sign_negative()) {
        un(UnOp::Neg, e(ExprKind::Lit(Lit::Float(-v, Some(t)))))
    } else {
        e(ExprKind::Lit(Lit::Float(v, Some(t))))
    }
}
pub fn boolean(v: bool) -> Expr {
    e(ExprKind::Lit(Lit::Bool(v)))
}
pub fn var(n: &str) -> Expr {
    e(ExprKind::Local(n.into()))
}
pub fn un(op: UnOp, x: Expr) -> Expr {
    e(ExprKind::Unary(op, b(x)))
}
pub fn bin(op: BinOp, x: Expr, y: Expr) -> Expr {
    e(ExprKind::Binary(op, b(x), b(y)))
}
pub fn assign(p: Expr, v: Expr) -> Expr {
    e(ExprKind::Assign(b(p), b(v)))
}
pub fn assign_op(op: BinOp, p: Expr, v: Expr) -> Expr {
    e(ExprKind::AssignOp(op, b(p), b(v)))
}
pub fn cast(x: Expr, t: Sc) -> Expr {
    e(ExprKind::Cast(b(x), ty(t)))
}
pub fn index(a: Expr, i: Expr) -> Expr {
    e(ExprKind::Index(b(a), b(i)))
}
pub fn field(a: Expr, f: &str) -> Expr {
    e(ExprKind::Field(b(a), f.into()))
}
pub fn method(r: Expr, m: &str, args: Vec<Expr>) -> Expr {
    e(ExprKind::MethodCall {
        receiver: b(r),
        method: m.into(),
        generic_args: vec![],
        args,
    })
}
pub fn assoc(t: Sc, m: &str, args: Vec<Expr>) -> Expr {
    e(ExprKind::AssocCall {
        ty: ty(t),
        method: m.into(),
        args,
    })
}
pub fn call(path: &'static str, resolve: fn() -> Callable, args: Vec<Expr>) -> Expr {
    e(ExprKind::Call {
        callee: Callee { path, resolve },
        generic_args: vec![],
        args,
    })
}
pub fn call_generic(
    path: &'static str,
    resolve: fn() -> Callable,
    generic: Type,
    args: Vec<Expr>,
) -> Expr {
    e(ExprKind::Call {
        callee: Callee { path, resolve },
        generic_args: vec![GenericArg::Type(generic)],
        args,
    })
}
pub fn refm(x: Expr) -> Expr {
    e(ExprKind::Ref(Mutability::Mut, b(x)))
}
pub fn block(stmts: Vec<Stmt>, tail: Option<Expr>) -> Block {
    Block {
        stmts,
        tail: tail.map(b),
        span: Span::default(),
    }
}
pub fn if_(c: Expr, then: Block, els: Option<Expr>) -> Expr {
    e(ExprKind::If {
        cond: b(c),
        then,
        els: els.map(b),
    })
}
pub fn block_expr(bl: Block) -> Expr {
    e(ExprKind::Block(bl))
}
pub fn range(lo: Expr, hi: Expr, inclusive: bool) -> Expr {
    e(ExprKind::Range {
        start: Some(b(lo)),
        end: Some(b(hi)),
        inclusive,
    })
}
pub fn let_(name: &str, mutable: bool, t: Type, init: Expr) -> Stmt {
    Stmt::Let {
        pat: Pat::Ident {
            name: name.into(),
            mutable,
        },
        ty: t,
        init: Some(init),
        span: Span::default(),
    }
}
pub fn st(x: Expr) -> Stmt {
    Stmt::Expr(x)
}
pub fn arr_ty(elem: Sc, n: usize) -> Type {
    Type::Array(
        Box::new(ty(elem)),
        Box::new(e(ExprKind::Lit(Lit::Int(n as u128, None)))),
    )
}
pub fn slice_ty(elem: Sc, mutable: bool) -> Type {
    Type::Slice(
        Box::new(ty(elem)),
        if mutable {
            Mutability::Mut
        } else {
            Mutability::Not
        },
    )
}
