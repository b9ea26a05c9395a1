//! Prints a generated kernel as `#[kernel]` Rust source and gives every AST node the position its
//! text starts at, the way `#[kernel]` records spans (a method call at its name, a parenthesized
//! expression at its first token inside the parentheses). A failing seed is reported with this
//! source, and panic locations (`k_SEED.rs:LINE:COL`) point into it.

use std::fmt::Write;

use ferrocuda::kernel_ir::ast::*;

use crate::syntax::{float_name, int_name};

/// Operator precedence, loosest first (Rust reference, "Expression precedence").
const P_ASSIGN: u8 = 1;
const P_RANGE: u8 = 2;
const P_OR: u8 = 3;
const P_AND: u8 = 4;
const P_CMP: u8 = 5;
const P_BITOR: u8 = 6;
const P_BITXOR: u8 = 7;
const P_BITAND: u8 = 8;
const P_SHIFT: u8 = 9;
const P_ADD: u8 = 10;
const P_MUL: u8 = 11;
const P_CAST: u8 = 12;
const P_UNARY: u8 = 13;
const P_POSTFIX: u8 = 14;
const P_ATOM: u8 = 15;

struct Printer {
    out: String,
    line: u32,
    col: u32,
    indent: usize,
}

/// The kernel as source (`#[kernel]` on line 1 when `attr`), setting every span.
pub fn print_kernel(def: &mut FnDef, attr: bool) -> String {
    let mut p = Printer {
        out: String::new(),
        line: 1,
        col: 1,
        indent: 0,
    };
    if attr {
        p.w("#[kernel]\n");
    }
    p.w("pub fn ");
    def.span = p.pos();
    p.w(def.name);
    p.w("(");
    for (i, prm) in def.params.iter_mut().enumerate() {
        p.w(if i == 0 { "\n    " } else { ",\n    " });
        prm.span = p.pos();
        p.w(&prm.name);
        p.w(": ");
        p.w(&type_text(&prm.ty));
    }
    p.w(if def.params.is_empty() { ") " } else { ",\n) " });
    p.block(&mut def.body);
    p.w("\n");
    p.out
}

pub fn type_text(t: &Type) -> String {
    match t {
        Type::Unit => "()".into(),
        Type::Bool => "bool".into(),
        Type::Int(i) => int_name(*i).into(),
        Type::Float(f) => float_name(*f).into(),
        Type::Array(el, n) => match &n.kind {
            ExprKind::Lit(Lit::Int(v, _)) => format!("[{}; {v}]", type_text(el)),
            _ => panic!("array length must be a literal"),
        },
        Type::Slice(el, Mutability::Not) => format!("&[{}]", type_text(el)),
        Type::Slice(el, Mutability::Mut) => format!("&mut [{}]", type_text(el)),
        Type::Tuple(ts) => {
            let parts: Vec<String> = ts.iter().map(type_text).collect();
            format!("({})", parts.join(", "))
        }
        other => panic!("type {other:?} is not generated"),
    }
}

fn bin_prec(op: BinOp) -> (u8, &'static str) {
    match op {
        BinOp::Or => (P_OR, "||"),
        BinOp::And => (P_AND, "&&"),
        BinOp::Eq => (P_CMP, "=="),
        BinOp::Ne => (P_CMP, "!="),
        BinOp::Lt => (P_CMP, "<"),
        BinOp::Le => (P_CMP, "<="),
        BinOp::Gt => (P_CMP, ">"),
        BinOp::Ge => (P_CMP, ">="),
        BinOp::BitOr => (P_BITOR, "|"),
        BinOp::BitXor => (P_BITXOR, "^"),
        BinOp::BitAnd => (P_BITAND, "&"),
        BinOp::Shl => (P_SHIFT, "<<"),
        BinOp::Shr => (P_SHIFT, ">>"),
        BinOp::Add => (P_ADD, "+"),
        BinOp::Sub => (P_ADD, "-"),
        BinOp::Mul => (P_MUL, "*"),
        BinOp::Div => (P_MUL, "/"),
        BinOp::Rem => (P_MUL, "%"),
    }
}

/// How tightly an expression binds; block-like expressions count as loosest, so they are
/// parenthesized wherever they are an operand.
fn prec(e: &Expr) -> u8 {
    match &e.kind {
        ExprKind::Lit(_)
        | ExprKind::Local(_)
        | ExprKind::AssocConst { .. }
        | ExprKind::HostConst(_)
        | ExprKind::Tuple(_)
        | ExprKind::Array(_)
        | ExprKind::ArrayRepeat(..) => P_ATOM,
        ExprKind::Call { .. }
        | ExprKind::AssocCall { .. }
        | ExprKind::MethodCall { .. }
        | ExprKind::Field(..)
        | ExprKind::Index(..) => P_POSTFIX,
        ExprKind::Unary(..) | ExprKind::Ref(..) | ExprKind::Deref(_) => P_UNARY,
        ExprKind::Cast(..) => P_CAST,
        ExprKind::Binary(op, ..) => bin_prec(*op).0,
        ExprKind::Range { .. } => P_RANGE,
        ExprKind::Assign(..) | ExprKind::AssignOp(..) => P_ASSIGN,
        _ => 0,
    }
}

/// Whether the text of `e` ends with `as T` (then a following `<` would open generic arguments).
fn ends_with_cast(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Cast(..) => true,
        ExprKind::Binary(_, _, r) | ExprKind::Assign(_, r) | ExprKind::AssignOp(_, _, r) => {
            ends_with_cast(r)
        }
        ExprKind::Unary(_, x) | ExprKind::Ref(_, x) | ExprKind::Deref(x) => ends_with_cast(x),
        ExprKind::Range { end: Some(x), .. } => ends_with_cast(x),
        _ => false,
    }
}

fn lit_text(l: &Lit) -> String {
    match l {
        Lit::Int(v, Some(t)) => format!("{v}{}", int_name(*t)),
        Lit::Int(v, None) => format!("{v}"),
        Lit::Float(v, Some(FloatTy::F32)) => format!("{:?}f32", *v as f32),
        Lit::Float(v, Some(FloatTy::F64)) => format!("{v:?}f64"),
        Lit::Float(v, _) => format!("{v:?}"),
        Lit::Bool(b) => format!("{b}"),
    }
}

impl Printer {
    fn w(&mut self, s: &str) {
        for c in s.chars() {
            if c == '\n' {
                self.line += 1;
                self.col = 1;
            } else {
                self.col += 1;
            }
        }
        self.out.push_str(s);
    }

    fn pos(&self) -> Span {
        Span::new(self.line, self.col)
    }

    fn nl(&mut self) {
        let pad = "    ".repeat(self.indent);
        self.w("\n");
        self.w(&pad);
    }

    fn block(&mut self, b: &mut Block) {
        b.span = self.pos();
        self.w("{");
        self.indent += 1;
        for s in &mut b.stmts {
            self.nl();
            self.stmt(s);
        }
        if let Some(t) = &mut b.tail {
            self.nl();
            self.expr(t, 0);
        }
        self.indent -= 1;
        if b.stmts.is_empty() && b.tail.is_none() {
            self.w("}");
        } else {
            self.nl();
            self.w("}");
        }
    }

    fn stmt(&mut self, s: &mut Stmt) {
        match s {
            Stmt::Let {
                pat,
                ty,
                init,
                span,
            } => {
                *span = self.pos();
                self.w("let ");
                self.pat(pat);
                if !matches!(ty, Type::Infer) {
                    self.w(": ");
                    self.w(&type_text(ty));
                }
                if let Some(x) = init {
                    self.w(" = ");
                    self.expr(x, 0);
                }
                self.w(";");
            }
            Stmt::Expr(x) => {
                let block_like = matches!(
                    x.kind,
                    ExprKind::If { .. }
                        | ExprKind::Match { .. }
                        | ExprKind::Block(_)
                        | ExprKind::While { .. }
                        | ExprKind::Loop { .. }
                        | ExprKind::For { .. }
                );
                self.expr(x, 0);
                if !block_like {
                    self.w(";");
                }
            }
        }
    }

    fn pat(&mut self, p: &Pat) {
        match p {
            Pat::Wild => self.w("_"),
            Pat::Ident { name, mutable } => {
                if *mutable {
                    self.w("mut ");
                }
                self.w(name);
            }
            Pat::Tuple(ps) => {
                self.w("(");
                for (i, q) in ps.iter().enumerate() {
                    if i > 0 {
                        self.w(", ");
                    }
                    self.pat(q);
                }
                self.w(")");
            }
            Pat::Lit(l) => self.w(&lit_text(l)),
            Pat::Range {
                start,
                end,
                inclusive,
            } => {
                if let Some(s) = start {
                    self.pat(s);
                }
                self.w(if *inclusive { "..=" } else { ".." });
                if let Some(e) = end {
                    self.pat(e);
                }
            }
            Pat::Or(ps) => {
                for (i, q) in ps.iter().enumerate() {
                    if i > 0 {
                        self.w(" | ");
                    }
                    self.pat(q);
                }
            }
            other => panic!("pattern {other:?} is not generated"),
        }
    }

    /// Prints `e`, in parentheses when it binds looser than `min`.
    fn expr(&mut self, e: &mut Expr, min: u8) {
        if prec(e) < min {
            self.w("(");
            self.expr_bare(e);
            self.w(")");
        } else {
            self.expr_bare(e);
        }
    }

    fn args(&mut self, args: &mut [Expr]) {
        self.w("(");
        for (i, a) in args.iter_mut().enumerate() {
            if i > 0 {
                self.w(", ");
            }
            self.expr(a, 0);
        }
        self.w(")");
    }

    fn expr_bare(&mut self, e: &mut Expr) {
        e.span = self.pos();
        match &mut e.kind {
            ExprKind::Lit(l) => {
                let t = lit_text(l);
                self.w(&t);
            }
            ExprKind::Local(n) => {
                let n = n.clone();
                self.w(&n);
            }
            ExprKind::AssocConst { ty, name } => {
                let t = format!("{}::{name}", type_text(ty));
                self.w(&t);
            }
            ExprKind::Unary(op, x) => {
                self.w(match op {
                    UnOp::Neg => "-",
                    UnOp::Not => "!",
                });
                // `--x` reads as a decrement (rustc warns): `-(-x)`.
                let min = match x.kind {
                    ExprKind::Unary(UnOp::Neg, _) if *op == UnOp::Neg => P_ATOM,
                    _ => P_UNARY,
                };
                self.expr(x, min);
            }
            ExprKind::Binary(op, l, r) => {
                let (p, text) = bin_prec(*op);
                // `a as T < b` and `a as T << b` read as generic arguments: parenthesize the cast.
                let left_min = match op {
                    BinOp::Lt | BinOp::Le | BinOp::Shl if ends_with_cast(l) => P_ATOM,
                    _ if p == P_CMP => p + 1,
                    _ => p,
                };
                self.expr(l, left_min);
                self.w(&format!(" {text} "));
                self.expr(r, p + 1);
            }
            ExprKind::Assign(l, r) => {
                self.expr(l, P_ASSIGN + 1);
                self.w(" = ");
                self.expr(r, 0);
            }
            ExprKind::AssignOp(op, l, r) => {
                self.expr(l, P_ASSIGN + 1);
                self.w(&format!(" {}= ", bin_prec(*op).1));
                self.expr(r, 0);
            }
            ExprKind::Cast(x, t) => {
                self.expr(x, P_CAST);
                let t = type_text(t);
                self.w(&format!(" as {t}"));
            }
            ExprKind::Index(a, i) => {
                self.expr(a, P_POSTFIX);
                self.w("[");
                self.expr(i, 0);
                self.w("]");
            }
            ExprKind::Field(a, f) => {
                self.expr(a, P_POSTFIX);
                let f = format!(".{f}");
                self.w(&f);
            }
            ExprKind::Call {
                callee,
                generic_args,
                args,
            } => {
                self.w(callee.path);
                if !generic_args.is_empty() {
                    let parts: Vec<String> = generic_args
                        .iter()
                        .map(|g| match g {
                            GenericArg::Type(t) => type_text(t),
                            GenericArg::Const(_) => {
                                panic!("const generic arguments are not generated")
                            }
                        })
                        .collect();
                    self.w(&format!("::<{}>", parts.join(", ")));
                }
                self.args(args);
            }
            ExprKind::AssocCall { ty, method, args } => {
                let t = format!("{}::{method}", type_text(ty));
                self.w(&t);
                self.args(args);
            }
            ExprKind::MethodCall {
                receiver,
                method,
                args,
                ..
            } => {
                self.expr(receiver, P_POSTFIX);
                self.w(".");
                // `#[kernel]` records a method call at its name, like rustc's `#[track_caller]`.
                e.span = self.pos();
                let m = method.clone();
                self.w(&m);
                self.args(args);
            }
            ExprKind::Tuple(xs) => {
                self.w("(");
                for (i, x) in xs.iter_mut().enumerate() {
                    if i > 0 {
                        self.w(", ");
                    }
                    self.expr(x, 0);
                }
                self.w(")");
            }
            ExprKind::Array(xs) => {
                self.w("[");
                for (i, x) in xs.iter_mut().enumerate() {
                    if i > 0 {
                        self.w(", ");
                    }
                    self.expr(x, 0);
                }
                self.w("]");
            }
            ExprKind::ArrayRepeat(v, n) => {
                self.w("[");
                self.expr(v, 0);
                self.w("; ");
                self.expr(n, 0);
                self.w("]");
            }
            ExprKind::Block(b) => self.block(b),
            ExprKind::If { cond, then, els } => {
                self.w("if ");
                self.expr(cond, 1);
                self.w(" ");
                self.block(then);
                if let Some(x) = els {
                    self.w(" else ");
                    match &mut x.kind {
                        ExprKind::If { .. } => self.expr_bare(x),
                        ExprKind::Block(b) => {
                            x.span = self.pos();
                            self.block(b)
                        }
                        _ => panic!("else must be a block or an if"),
                    }
                }
            }
            ExprKind::Match { scrutinee, arms } => {
                self.w("match ");
                self.expr(scrutinee, 1);
                self.w(" {");
                self.indent += 1;
                for a in arms.iter_mut() {
                    self.nl();
                    a.span = self.pos();
                    self.pat(&a.pat);
                    if let Some(g) = &mut a.guard {
                        self.w(" if ");
                        self.expr(g, 0);
                    }
                    self.w(" => ");
                    let block_body = matches!(a.body.kind, ExprKind::Block(_));
                    self.expr(&mut a.body, 0);
                    if !block_body {
                        self.w(",");
                    }
                }
                self.indent -= 1;
                self.nl();
                self.w("}");
            }
            ExprKind::While { label, cond, body } => {
                if let Some(l) = label {
                    let l = format!("{l}: ");
                    self.w(&l);
                }
                self.w("while ");
                self.expr(cond, 1);
                self.w(" ");
                self.block(body);
            }
            ExprKind::Loop { label, body } => {
                if let Some(l) = label {
                    let l = format!("{l}: ");
                    self.w(&l);
                }
                self.w("loop ");
                self.block(body);
            }
            ExprKind::For {
                label,
                pat,
                iter,
                body,
                ..
            } => {
                if let Some(l) = label {
                    let l = format!("{l}: ");
                    self.w(&l);
                }
                self.w("for ");
                self.pat(pat);
                self.w(" in ");
                self.expr(iter, 1);
                self.w(" ");
                self.block(body);
            }
            ExprKind::Range {
                start,
                end,
                inclusive,
            } => {
                if let Some(s) = start {
                    self.expr(s, P_RANGE + 1);
                }
                self.w(if *inclusive { "..=" } else { ".." });
                if let Some(x) = end {
                    self.expr(x, P_RANGE + 1);
                }
            }
            ExprKind::Break { label, value } => {
                self.w("break");
                if let Some(l) = label {
                    let l = format!(" {l}");
                    self.w(&l);
                }
                if let Some(v) = value {
                    self.w(" ");
                    self.expr(v, 0);
                }
            }
            ExprKind::Continue { label } => {
                self.w("continue");
                if let Some(l) = label {
                    let l = format!(" {l}");
                    self.w(&l);
                }
            }
            ExprKind::Ref(m, x) => {
                self.w(if *m == Mutability::Mut { "&mut " } else { "&" });
                self.expr(x, P_UNARY);
            }
            ExprKind::Deref(x) => {
                self.w("*");
                self.expr(x, P_UNARY);
            }
            other => panic!("expression {other:?} is not generated"),
        }
    }
}

/// Source text with line numbers, for failure reports.
pub fn numbered(src: &str) -> String {
    let mut out = String::new();
    for (i, l) in src.lines().enumerate() {
        let _ = writeln!(out, "{:4} | {l}", i + 1);
    }
    out
}
