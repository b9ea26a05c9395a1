//! Expressions -> `ast::Expr`.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::visit::Visit;
use syn::{Expr, GenericArgument, Token, Type};

use super::lit::lower_lit;
use super::methods::{self, is_camel};
use super::types::primitive;
use super::{err, err_expr, err_spanned, path_text, Elem, Lower};
use crate::attrs;
use crate::cfg::presence;
use crate::paths;
use crate::span::{expr_attrs, first_span, loc};

/// `SCREAMING_CASE`: how a bare name written as a generic argument or a match pattern is taken
/// to be a constant rather than a type or a binding (rustc would know; the macro must guess).
pub(crate) fn is_screaming(name: &str) -> bool {
    name.chars().any(|c| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

fn string(s: &str) -> TokenStream {
    quote!(::std::string::String::from(#s))
}

fn opt(t: Option<TokenStream>) -> TokenStream {
    match t {
        Some(t) => quote!(::core::option::Option::Some(#t)),
        None => quote!(::core::option::Option::None),
    }
}

pub(crate) fn label_tokens(l: Option<&syn::Lifetime>) -> TokenStream {
    opt(l.map(|l| string(&format!("'{}", l.ident))))
}

fn binop(op: &syn::BinOp) -> Option<(&'static str, bool)> {
    use syn::BinOp as B;
    Some(match op {
        B::Add(_) => ("Add", false),
        B::Sub(_) => ("Sub", false),
        B::Mul(_) => ("Mul", false),
        B::Div(_) => ("Div", false),
        B::Rem(_) => ("Rem", false),
        B::And(_) => ("And", false),
        B::Or(_) => ("Or", false),
        B::BitXor(_) => ("BitXor", false),
        B::BitAnd(_) => ("BitAnd", false),
        B::BitOr(_) => ("BitOr", false),
        B::Shl(_) => ("Shl", false),
        B::Shr(_) => ("Shr", false),
        B::Eq(_) => ("Eq", false),
        B::Lt(_) => ("Lt", false),
        B::Le(_) => ("Le", false),
        B::Ne(_) => ("Ne", false),
        B::Ge(_) => ("Ge", false),
        B::Gt(_) => ("Gt", false),
        B::AddAssign(_) => ("Add", true),
        B::SubAssign(_) => ("Sub", true),
        B::MulAssign(_) => ("Mul", true),
        B::DivAssign(_) => ("Div", true),
        B::RemAssign(_) => ("Rem", true),
        B::BitXorAssign(_) => ("BitXor", true),
        B::BitAndAssign(_) => ("BitAnd", true),
        B::BitOrAssign(_) => ("BitOr", true),
        B::ShlAssign(_) => ("Shl", true),
        B::ShrAssign(_) => ("Shr", true),
        _ => return None,
    })
}

/// `if let` / `while let` (also inside `&&` chains).
fn contains_let(e: &Expr) -> bool {
    let mut todo = vec![e];
    while let Some(e) = todo.pop() {
        match e {
            Expr::Let(_) => return true,
            Expr::Binary(b) => {
                todo.push(&b.left);
                todo.push(&b.right);
            }
            Expr::Paren(p) => todo.push(&p.expr),
            Expr::Group(g) => todo.push(&g.expr),
            _ => {}
        }
    }
    false
}

const UNSAFE_HELP: &str = "`unsafe` blocks are only supported around unchecked slice accesses: \
    `unsafe { *x.get_unchecked(i) }` or `unsafe { *y.get_unchecked_mut(i) = v }` (no function calls inside)";

/// An `unsafe` block must contain a `get_unchecked(_mut)` call and may not call functions.
fn check_unsafe(u: &syn::ExprUnsafe) -> syn::Result<()> {
    struct V {
        unchecked: usize,
        bad: Option<Span>,
    }
    impl<'ast> Visit<'ast> for V {
        fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
            if m.method == "get_unchecked" || m.method == "get_unchecked_mut" {
                self.unchecked += 1;
            }
            syn::visit::visit_expr_method_call(self, m);
        }
        fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
            self.bad.get_or_insert(first_span(&c.func));
            syn::visit::visit_expr_call(self, c);
        }
        fn visit_expr_unsafe(&mut self, u: &'ast syn::ExprUnsafe) {
            self.bad.get_or_insert(u.unsafe_token.span);
        }
    }
    let mut v = V {
        unchecked: 0,
        bad: None,
    };
    v.visit_block(&u.block);
    if let Some(span) = v.bad {
        return err(span, UNSAFE_HELP);
    }
    if v.unchecked == 0 {
        return err(u.unsafe_token.span, UNSAFE_HELP);
    }
    Ok(())
}

impl Lower {
    /// Tokens of the `ast::Expr` for `e`.
    ///
    /// Chains that lean left (`a + b + c + ...`, `x.f().g()`, `a[i][j]`, `x as u64 as f32`) are
    /// walked with a loop from their innermost operand out, so a 10,000-term sum costs no
    /// recursion; other sub-expressions recurse, up to [`super::MAX_NESTING`] levels.
    pub(crate) fn lower_expr(&mut self, e: &Expr) -> syn::Result<TokenStream> {
        self.enter(first_span(e))?;
        let r = self.lower_chain(e);
        self.leave();
        r
    }

    fn lower_chain(&mut self, e: &Expr) -> syn::Result<TokenStream> {
        let start = self.weight;
        let mut spine: Vec<&Expr> = Vec::new();
        let mut cur = e;
        loop {
            let next = match cur {
                Expr::Binary(b) if binop(&b.op).is_some() => &*b.left,
                Expr::MethodCall(m) => &*m.receiver,
                Expr::Field(f) => &*f.base,
                Expr::Index(i) => &*i.expr,
                Expr::Cast(c) => &*c.expr,
                Expr::Paren(p) => &*p.expr,
                Expr::Group(g) => &*g.expr,
                _ => break,
            };
            spine.push(cur);
            cur = next;
        }
        let operators = spine
            .iter()
            .filter(|e| matches!(e, Expr::Binary(_)))
            .count();
        let links = spine.len() - operators;
        if operators >= 64 {
            self.long_chains = true;
        }
        if links > super::MAX_CHAIN || (self.limit_chains && operators > super::MAX_CHAIN) {
            let what = if links > super::MAX_CHAIN {
                "method calls, field accesses, indexing and casts"
            } else {
                "operators in a `#[device]` fn"
            };
            return err(
                first_span(e),
                format!(
                    "this expression chains more than {} {what}; rustc cannot compile chains this \
                     long: split it with `let` statements (a kernel's operator chains have no limit)",
                    super::MAX_CHAIN
                ),
            );
        }
        let mut tokens = match self.leaf(cur)? {
            Some(full) => self.finish_expr(full, start),
            None => {
                let (kind, span) = self.expr_kind(cur)?;
                self.node(kind, span, start)
            }
        };
        for node in spine.into_iter().rev() {
            if matches!(node, Expr::Paren(_) | Expr::Group(_)) {
                continue;
            }
            tokens = match self.short_link(node, &tokens)? {
                Some(full) => self.finish_expr(full, start),
                None => {
                    let (kind, span) = self.chain_link(node, tokens)?;
                    self.node(kind, span, start)
                }
            };
        }
        Ok(tokens)
    }

    /// The most frequent leaves (locals, unsuffixed integers) through the short constructors of
    /// `ast::build`: a long function's builder is mostly these.
    fn leaf(&mut self, e: &Expr) -> syn::Result<Option<TokenStream>> {
        let a = super::ast();
        match e {
            Expr::Path(p) if p.qself.is_none() && p.attrs.is_empty() => {
                let Some(id) = p.path.get_ident() else {
                    return Ok(None);
                };
                let name = id.to_string();
                if name == "self" || !self.is_local(&name) {
                    return Ok(None);
                }
                let l = loc(id.span());
                Ok(Some(quote!(#a::build::local(#name, #l))))
            }
            Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Int(i),
                attrs,
            }) if i.suffix().is_empty() && attrs.is_empty() => {
                let Ok(v) = i.base10_digits().parse::<u128>() else {
                    return Ok(None);
                };
                let l = loc(i.span());
                Ok(Some(quote!(#a::build::int(#v, #l))))
            }
            _ => Ok(None),
        }
    }

    /// Binary operators and indexing through the short constructors of `ast::build`.
    fn short_link(&mut self, e: &Expr, inner: &TokenStream) -> syn::Result<Option<TokenStream>> {
        let a = super::ast();
        match e {
            Expr::Binary(b) => {
                let Some((op, false)) = binop(&b.op) else {
                    return Ok(None);
                };
                let op = syn::Ident::new(op, Span::call_site());
                let r = self.lower_expr(&b.right)?;
                let l = loc(first_span(e));
                Ok(Some(quote!(#a::build::bin(#a::BinOp::#op, #inner, #r, #l))))
            }
            Expr::Index(i) => {
                let idx = self.lower_expr(&i.index)?;
                let l = loc(first_span(e));
                Ok(Some(quote!(#a::build::index(#inner, #idx, #l))))
            }
            _ => Ok(None),
        }
    }

    /// `build::e(kind, line, col)`, spilled when heavy.
    fn node(&mut self, kind: TokenStream, span: Span, start: usize) -> TokenStream {
        let a = super::ast();
        let l = loc(span);
        self.finish_expr(quote!(#a::build::e(#kind, #l)), start)
    }

    /// The kind of a chain link whose inner operand is already lowered (`inner`).
    fn chain_link(&mut self, e: &Expr, inner: TokenStream) -> syn::Result<(TokenStream, Span)> {
        let a = super::ast();
        let boxed = quote!(::std::boxed::Box::new(#inner));
        let span = first_span(e);
        Ok(match e {
            Expr::Binary(b) => {
                let Some((op, assign)) = binop(&b.op) else {
                    return err_spanned(b.op, "unsupported binary operator in device code");
                };
                let op = syn::Ident::new(op, Span::call_site());
                let r = self.boxed(&b.right)?;
                let kind = if assign {
                    quote!(#a::ExprKind::AssignOp(#a::BinOp::#op, #boxed, #r))
                } else {
                    quote!(#a::ExprKind::Binary(#a::BinOp::#op, #boxed, #r))
                };
                (kind, span)
            }
            Expr::MethodCall(m) => {
                methods::check_method(&m.method.to_string(), m.method.span())?;
                let method = string(&m.method.to_string());
                let generic_args = match &m.turbofish {
                    Some(t) => self.generic_args(&t.args)?,
                    None => Vec::new(),
                };
                let args = self.expr_list(&m.args)?;
                let kind = quote!(#a::ExprKind::MethodCall {
                    receiver: #boxed,
                    method: #method,
                    generic_args: ::std::vec::Vec::from([#(#generic_args),*]),
                    args: #args,
                });
                // Like rustc's `#[track_caller]` locations: the method name, not the receiver.
                (kind, m.method.span())
            }
            Expr::Field(f) => {
                let name = match &f.member {
                    syn::Member::Named(i) => i.to_string(),
                    syn::Member::Unnamed(i) => i.index.to_string(),
                };
                let name = string(&name);
                (quote!(#a::ExprKind::Field(#boxed, #name)), span)
            }
            Expr::Index(i) => {
                let idx = self.boxed(&i.index)?;
                (quote!(#a::ExprKind::Index(#boxed, #idx)), span)
            }
            Expr::Cast(c) => {
                let ty = self.lower_type(&c.ty)?;
                (quote!(#a::ExprKind::Cast(#boxed, #ty)), span)
            }
            _ => return err_expr(e, "unsupported expression in device code"),
        })
    }

    pub(crate) fn boxed(&mut self, e: &Expr) -> syn::Result<TokenStream> {
        let t = self.lower_expr(e)?;
        Ok(quote!(::std::boxed::Box::new(#t)))
    }

    /// Each expression lowered on its own (no `#[cfg]` on elements: `gpu_print!` arguments).
    pub(crate) fn lower_exprs<'e>(
        &mut self,
        es: impl IntoIterator<Item = &'e Expr>,
    ) -> syn::Result<Vec<TokenStream>> {
        es.into_iter().map(|e| self.lower_expr(e)).collect()
    }

    /// The `Vec<ast::Expr>` of a list of expressions (arguments, array and tuple elements),
    /// where each element may carry `#[cfg]` as Rust allows there.
    pub(crate) fn expr_list<'e>(
        &mut self,
        es: impl IntoIterator<Item = &'e Expr>,
    ) -> syn::Result<TokenStream> {
        let start = self.weight;
        let mut elems = Vec::new();
        for e in es {
            let pred = presence(expr_attrs(e))?;
            let before = self.weight;
            if let Some(t) = self.configured(pred.clone(), |this| this.lower_expr(e))? {
                elems.push(Elem {
                    tokens: t,
                    cfg: pred,
                    weight: self.weight - before,
                });
            }
        }
        let a = super::ast();
        Ok(self.list(elems, start, quote!(#a::Expr)))
    }

    /// The `ExprKind` tokens of an expression that is not a chain link, and the span it records.
    ///
    /// A dispatcher to one small function per kind of expression: at opt-level 0 (how a proc
    /// macro is built) a function's frame holds the temporaries of all its arms, and this
    /// recursion goes as deep as the user's code nests.
    fn expr_kind(&mut self, e: &Expr) -> syn::Result<(TokenStream, Span)> {
        if !matches!(e, Expr::ForLoop(_)) {
            self.check_no_loop_attrs(e)?;
        }
        let r = match e {
            Expr::Lit(_) => self.kind_lit(e),
            Expr::Path(_) => self.kind_path(e),
            Expr::Unary(_) => self.kind_unary(e),
            Expr::Binary(_) => self.kind_binary(e),
            Expr::Assign(_) => self.kind_assign(e),
            Expr::Call(_) => self.kind_call(e),
            Expr::Tuple(_) => self.kind_tuple(e),
            Expr::Array(_) => self.kind_array(e),
            Expr::Repeat(_) => self.kind_repeat(e),
            Expr::Struct(_) => self.kind_struct(e),
            Expr::Block(_) => self.kind_block(e),
            Expr::Unsafe(_) => self.kind_unsafe(e),
            Expr::If(_) => self.kind_if(e),
            Expr::Match(_) => self.kind_match(e),
            Expr::While(_) => self.kind_while(e),
            Expr::Loop(_) => self.kind_loop(e),
            Expr::ForLoop(_) => self.kind_for_loop(e),
            Expr::Range(_) => self.kind_range(e),
            Expr::Break(_) => self.kind_break(e),
            Expr::Continue(_) => self.kind_continue(e),
            Expr::Return(_) => self.kind_return(e),
            Expr::Reference(_) => self.kind_reference(e),
            Expr::Macro(_) => self.kind_macro(e),
            Expr::Closure(_) => self.kind_closure(e),
            Expr::Async(_) | Expr::Await(_) => self.kind_async(e),
            Expr::Try(_) => self.kind_try(e),
            Expr::TryBlock(_) => self.kind_try_block(e),
            Expr::Yield(_) => self.kind_yield(e),
            Expr::Let(_) => self.kind_let(e),
            Expr::Const(_) => self.kind_const(e),
            Expr::RawAddr(_) => self.kind_raw_addr(e),
            Expr::Infer(_) => self.kind_infer(e),
            _ => self.kind_other(e),
        }?;
        match r {
            Some(r) => Ok(r),
            None => err_expr(e, "unsupported expression in device code"),
        }
    }

    #[inline(never)]
    fn check_no_loop_attrs(&self, e: &Expr) -> syn::Result<()> {
        let info = crate::cfg::analyze(expr_attrs(e))?;
        if let Some(l) = info.rest.iter().find(|r| attrs::is_loop_meta(&r.meta)) {
            return err_spanned(
                &l.meta,
                "`#[unroll]` / `#[no_unroll]` apply to `for` loops only",
            );
        }
        Ok(())
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_lit(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Lit(l) => {
                let lit = lower_lit(&l.lit)?;
                quote!(#a::ExprKind::Lit(#lit))
            }
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_path(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Path(p) => self.path_expr(p)?,
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_unary(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Unary(u) => {
                let inner = self.boxed(&u.expr)?;
                match u.op {
                    syn::UnOp::Deref(_) => quote!(#a::ExprKind::Deref(#inner)),
                    syn::UnOp::Not(_) => quote!(#a::ExprKind::Unary(#a::UnOp::Not, #inner)),
                    syn::UnOp::Neg(_) => quote!(#a::ExprKind::Unary(#a::UnOp::Neg, #inner)),
                    _ => return err_expr(e, "unsupported unary operator in device code"),
                }
            }
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_binary(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Binary(b) => {
                return err_spanned(b.op, "unsupported binary operator in device code")
            }
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_assign(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Assign(x) => {
                let l = self.boxed(&x.left)?;
                let r = self.boxed(&x.right)?;
                quote!(#a::ExprKind::Assign(#l, #r))
            }
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_call(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Call(c) => self.call(c)?,
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_tuple(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Tuple(t) => {
                let elems = self.expr_list(&t.elems)?;
                quote!(#a::ExprKind::Tuple(#elems))
            }
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_array(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Array(arr) => {
                let elems = self.expr_list(&arr.elems)?;
                quote!(#a::ExprKind::Array(#elems))
            }
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_repeat(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Repeat(r) => {
                let v = self.boxed(&r.expr)?;
                let n = self.boxed(&r.len)?;
                quote!(#a::ExprKind::ArrayRepeat(#v, #n))
            }
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_struct(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Struct(s) => self.struct_lit(s)?,
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_block(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Block(b) => {
                if let Some(l) = &b.label {
                    return err_spanned(
                        l,
                        "labels on blocks are not supported in device code; use a labelled `loop` with `break 'label value`",
                    );
                }
                let block = self.lower_block(&b.block)?;
                quote!(#a::ExprKind::Block(#block))
            }
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_unsafe(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Unsafe(u) => {
                check_unsafe(u)?;
                let block = self.lower_block(&u.block)?;
                quote!(#a::ExprKind::Block(#block))
            }
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_if(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::If(i) => self.if_expr(i)?,
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_match(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Match(m) => self.match_expr(m)?,
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_while(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::While(w) => {
                if contains_let(&w.cond) {
                    return err_expr(
                        &w.cond,
                        "`while let` is not supported in device code; use `loop` with a `match` that `break`s",
                    );
                }
                let label = label_tokens(w.label.as_ref().map(|l| &l.name));
                let cond = self.boxed(&w.cond)?;
                let body = self.lower_block(&w.body)?;
                quote!(#a::ExprKind::While { label: #label, cond: #cond, body: #body })
            }
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_loop(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Loop(l) => {
                let label = label_tokens(l.label.as_ref().map(|l| &l.name));
                let body = self.lower_block(&l.body)?;
                quote!(#a::ExprKind::Loop { label: #label, body: #body })
            }
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_for_loop(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::ForLoop(f) => {
                let unroll = attrs::unroll(&f.attrs)?;
                let label = label_tokens(f.label.as_ref().map(|l| &l.name));
                let iter = self.boxed(&f.expr)?;
                self.scopes.push();
                let pat = self.lower_pat(&f.pat, false);
                let body = match pat {
                    Ok(_) => self.lower_block(&f.body),
                    Err(_) => Ok(TokenStream::new()),
                };
                self.scopes.pop();
                let (pat, body) = (pat?, body?);
                let kind = quote!(#a::ExprKind::For {
                    label: #label, pat: #pat, iter: #iter, body: #body, unroll: #unroll,
                });
                let span = match &f.label {
                    Some(l) => l.name.span(),
                    None => f.for_token.span,
                };
                return Ok(Some((kind, span)));
            }
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_range(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Range(r) => {
                let start = match &r.start {
                    Some(s) => Some(self.boxed(s)?),
                    None => None,
                };
                let end = match &r.end {
                    Some(s) => Some(self.boxed(s)?),
                    None => None,
                };
                let (start, end) = (opt(start), opt(end));
                let inclusive = matches!(r.limits, syn::RangeLimits::Closed(_));
                quote!(#a::ExprKind::Range { start: #start, end: #end, inclusive: #inclusive })
            }
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_break(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Break(b) => {
                let label = label_tokens(b.label.as_ref());
                let value = match &b.expr {
                    Some(v) => Some(self.boxed(v)?),
                    None => None,
                };
                let value = opt(value);
                quote!(#a::ExprKind::Break { label: #label, value: #value })
            }
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_continue(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Continue(c) => {
                let label = label_tokens(c.label.as_ref());
                quote!(#a::ExprKind::Continue { label: #label })
            }
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_return(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Return(r) => {
                let value = match &r.expr {
                    Some(v) => Some(self.boxed(v)?),
                    None => None,
                };
                let value = opt(value);
                quote!(#a::ExprKind::Return(#value))
            }
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_reference(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Reference(r) => {
                let inner = self.boxed(&r.expr)?;
                let m = if r.mutability.is_some() {
                    quote!(#a::Mutability::Mut)
                } else {
                    quote!(#a::Mutability::Not)
                };
                quote!(#a::ExprKind::Ref(#m, #inner))
            }
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_macro(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Macro(m) => self.lower_macro(&m.mac)?,
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_closure(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind =
            match e {
                Expr::Closure(_) => return err_expr(
                    e,
                    "closures are not supported in device code; write a `#[device]` fn and call it",
                ),
                _ => return Ok(None),
            };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_async(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Async(_) | Expr::Await(_) => {
                return err_expr(e, "async/await is not supported in device code")
            }
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_try(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Try(t) => {
                return err_spanned(
                    t.question_token,
                    "the `?` operator is not supported in device code (there is no `Result`/`Option` on the device); \
                     check conditions with `if` or `assert!`",
                )
            },
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_try_block(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::TryBlock(_) => {
                return err_expr(e, "`try` blocks are not supported in device code")
            }
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_yield(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Yield(_) => return err_expr(e, "`yield` is not supported in device code"),
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_let(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind =
            match e {
                Expr::Let(_) => return err_expr(
                    e,
                    "`if let` / `let` in conditions is not supported in device code; use `match`",
                ),
                _ => return Ok(None),
            };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_const(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Const(_) => return err_expr(
                e,
                "inline `const { .. }` blocks are not supported in device code; use a `const` item",
            ),
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_raw_addr(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::RawAddr(_) => {
                return err_expr(e, "raw pointers (`&raw`) are not supported in device code")
            }
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_infer(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            Expr::Infer(_) => return err_expr(e, "`_` is not a value in device code"),
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }

    #[inline(never)]
    #[allow(unreachable_code, unused_variables)]
    fn kind_other(&mut self, e: &Expr) -> syn::Result<Option<(TokenStream, Span)>> {
        let a = super::ast();
        let _ = &a;
        let span = first_span(e);
        #[allow(unreachable_patterns)]
        let kind = match e {
            _ => return err_expr(e, "unsupported expression in device code"),
            _ => return Ok(None),
        };
        Ok(Some((kind, span)))
    }
    /// `T` when `ty` is one of the function's generic type parameters.
    fn type_param_of(&self, ty: &Type) -> Option<String> {
        match ty {
            Type::Path(p) if p.qself.is_none() => {
                let id = p.path.get_ident()?.to_string();
                self.type_params.contains(&id).then_some(id)
            }
            Type::Group(g) => self.type_param_of(&g.elem),
            Type::Paren(p) => self.type_param_of(&p.elem),
            _ => None,
        }
    }

    fn path_expr(&mut self, p: &syn::ExprPath) -> syn::Result<TokenStream> {
        let a = super::ast();
        if let Some(q) = &p.qself {
            if let Some(tp) = self.type_param_of(&q.ty) {
                let name = p
                    .path
                    .segments
                    .last()
                    .map(|s| s.ident.to_string())
                    .unwrap_or_default();
                let (tp, name) = (string(&tp), string(&name));
                return Ok(
                    quote!(#a::ExprKind::AssocConst { ty: #a::Type::Param(#tp), name: #name }),
                );
            }
            return Ok(self.host_const(p));
        }
        let path = &p.path;
        if let Some(id) = path.get_ident() {
            let name = id.to_string();
            if name == "self" {
                return err_spanned(
                    p,
                    "`self` is not supported in device code; device functions are free functions",
                );
            }
            if self.is_local(&name) {
                let name = string(&name);
                return Ok(quote!(#a::ExprKind::Local(#name)));
            }
        }
        if let Some(last) = path.segments.last() {
            let name = last.ident.to_string();
            if methods::is_option_variant(&name) {
                return err_spanned(p, methods::option_message(&name));
            }
        }
        if path.leading_colon.is_none() && path.segments.len() == 2 {
            let first = &path.segments[0];
            let second = &path.segments[1];
            if first.arguments.is_none()
                && second.arguments.is_none()
                && self.type_params.contains(&first.ident.to_string())
            {
                let tp = string(&first.ident.to_string());
                let name = string(&second.ident.to_string());
                return Ok(
                    quote!(#a::ExprKind::AssocConst { ty: #a::Type::Param(#tp), name: #name }),
                );
            }
        }
        if path.segments.iter().any(|s| !s.arguments.is_none()) {
            return err_spanned(
                p,
                "a path with generic arguments is only supported as a call (`foo::<T>(..)`), not as a value",
            );
        }
        Ok(self.host_const(p))
    }

    /// A value rustc computes on the host: module constants, `f32::MAX`, `core::f32::consts::PI`...
    pub(crate) fn host_const(&self, p: &syn::ExprPath) -> TokenStream {
        let a = super::ast();
        let private = paths::private();
        let text = if p.qself.is_none() {
            path_text(&p.path)
        } else {
            super::macros::pretty(&quote!(#p))
        };
        let span = p.span();
        let eval = quote_spanned!(span=> || #private::const_value(#p));
        quote!(#a::ExprKind::HostConst(#a::HostConst { text: #text, eval: #eval }))
    }

    fn call(&mut self, c: &syn::ExprCall) -> syn::Result<TokenStream> {
        let a = super::ast();
        let mut func = &*c.func;
        loop {
            match func {
                Expr::Paren(p) => func = &p.expr,
                Expr::Group(g) => func = &g.expr,
                _ => break,
            }
        }
        let Expr::Path(p) = func else {
            return err_expr(
                &c.func,
                "only calls of named functions are supported in device code (`#[device]` fns and intrinsics), \
                 not closures or function pointers",
            );
        };
        let path = &p.path;
        let last = match path.segments.last() {
            Some(l) => l,
            None => return err_spanned(p, "empty path"),
        };
        let last_name = last.ident.to_string();
        let n = path.segments.len();
        // `<T as Trait>::method(..)`, `T::method(..)`, `f32::sqrt(..)`: the compiler resolves these.
        let assoc_ty = if let Some(q) = &p.qself {
            if let Some(tp) = self.type_param_of(&q.ty) {
                let tp = string(&tp);
                Some(quote!(#a::Type::Param(#tp)))
            } else if let Type::Path(tp) = &*q.ty {
                match primitive(&tp.path) {
                    Some(t) => Some(t),
                    None => {
                        return err_spanned(
                            p,
                            "qualified calls are supported on generic parameters and primitive types only \
                             (`<T as Float>::sqrt(x)`, `<f32>::sqrt(x)`)",
                        )
                    }
                }
            } else {
                return err_spanned(p, "unsupported qualified call in device code");
            }
        } else if n >= 2 {
            let prefix = syn::Path {
                leading_colon: path.leading_colon,
                segments: path.segments.iter().take(n - 1).cloned().collect(),
            };
            let first = &path.segments[0];
            if n == 2
                && path.leading_colon.is_none()
                && first.arguments.is_none()
                && self.type_params.contains(&first.ident.to_string())
            {
                let tp = string(&first.ident.to_string());
                Some(quote!(#a::Type::Param(#tp)))
            } else {
                primitive(&prefix)
            }
        } else {
            None
        };
        if let Some(ty) = assoc_ty {
            if !last.arguments.is_none() {
                return err_spanned(
                    last,
                    "generic arguments on associated function calls are not supported in device code",
                );
            }
            let ty_text = match &p.qself {
                Some(q) => {
                    let t = &q.ty;
                    super::macros::pretty(&quote!(#t))
                }
                None => path_text(&syn::Path {
                    leading_colon: None,
                    segments: path.segments.iter().take(n - 1).cloned().collect(),
                }),
            };
            methods::check_assoc_fn(&ty_text, &last_name, last.ident.span())?;
            let args = self.expr_list(&c.args)?;
            let method = string(&last_name);
            return Ok(quote!(#a::ExprKind::AssocCall { ty: #ty, method: #method, args: #args }));
        }
        if p.qself.is_none() {
            self.check_callee_path(p)?;
        }
        if path.leading_colon.is_none() && n == 1 {
            if self.is_local(&last_name) {
                return err_spanned(
                    p,
                    format!(
                        "`{last_name}` is a local value; calling closures or function pointers is not supported in \
                         device code, only `#[device]` fns and intrinsics"
                    ),
                );
            }
            if last_name == self.fn_name {
                return err_spanned(
                    p,
                    format!(
                        "`{last_name}` calls itself: recursion is not supported on the device; rewrite it as a loop"
                    ),
                );
            }
        }
        for seg in path.segments.iter().take(n - 1) {
            if !seg.arguments.is_none() {
                return err_spanned(
                    seg,
                    "generic arguments are only supported on the function name (`path::foo::<T>(..)`)",
                );
            }
        }
        if is_camel(&last_name) {
            // `Pair(a, b)`: a tuple struct, built like `Pair { 0: a, 1: b }`.
            if !last.arguments.is_none() {
                return err_spanned(
                    last,
                    "generic structs are not supported in device code; #[derive(DeviceCopy)] structs have no generic parameters",
                );
            }
            let ty = self.struct_ref(path)?;
            let start = self.weight;
            let mut fields = Vec::new();
            for (i, arg) in c.args.iter().enumerate() {
                let before = self.weight;
                let name = string(&i.to_string());
                let v = self.lower_expr(arg)?;
                fields.push(Elem {
                    tokens: quote!((#name, #v)),
                    cfg: None,
                    weight: self.weight - before,
                });
            }
            let fields = self.list(fields, start, quote!((::std::string::String, #a::Expr)));
            return Ok(quote!(#a::ExprKind::StructLit { ty: #ty, fields: #fields }));
        }
        let generic_args = match &last.arguments {
            syn::PathArguments::None => Vec::new(),
            syn::PathArguments::AngleBracketed(ab) => self.generic_args(&ab.args)?,
            syn::PathArguments::Parenthesized(_) => {
                return err_spanned(last, "unsupported generic arguments")
            }
        };
        let args = self.expr_list(&c.args)?;
        let mut callee = path.clone();
        if let Some(l) = callee.segments.last_mut() {
            l.arguments = syn::PathArguments::None;
        }
        let text = path_text(path);
        let span = last.ident.span();
        // A callee without a type-namespace twin (`#[device]`'s companion module) falls back to
        // the builder's `__fc_callee` module, whose callable is a compile error that says the
        // function is not `#[device]`.
        let fallback = quote_spanned!(span=> __fc_callee::__fc_callable);
        let resolve = quote!({
            #[allow(unused_imports)]
            use #callee as __fc_callee;
            #fallback
        });
        Ok(quote!(#a::ExprKind::Call {
            callee: #a::Callee { path: #text, resolve: #resolve },
            generic_args: ::std::vec::Vec::from([#(#generic_args),*]),
            args: #args,
        }))
    }

    /// Callee paths the device can never call, rejected with a message that says what to do.
    fn check_callee_path(&self, p: &syn::ExprPath) -> syn::Result<()> {
        let path = &p.path;
        let n = path.segments.len();
        let last = path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        if methods::is_option_variant(&last) {
            return err_spanned(p, methods::option_message(&last));
        }
        if methods::is_std_path(path) {
            return methods::std_call(path, p.span());
        }
        if n >= 2 {
            let owner = path.segments[n - 2].ident.to_string();
            if methods::HEAP_TYPES.contains(&owner.as_str()) {
                return err_spanned(p, methods::heap_message(&owner));
            }
            if methods::is_option_variant(&owner) {
                return err_spanned(p, methods::option_message(&owner));
            }
            if is_camel(&owner) {
                if is_camel(&last) {
                    return err_spanned(p, methods::ENUM_HELP);
                }
                return err_spanned(
                    p,
                    format!(
                        "`{}` is an associated function of a type: device code calls associated \
                         functions only on generic parameters and primitive types (`T::sqrt(x)`, \
                         `f32::max(a, b)`); write a `#[device]` fn instead",
                        path_text(path)
                    ),
                );
            }
        }
        if methods::HEAP_TYPES.contains(&last.as_str()) {
            return err_spanned(p, methods::heap_message(&last));
        }
        Ok(())
    }

    /// `ast::GenericArg` tokens for a turbofish.
    pub(crate) fn generic_args(
        &mut self,
        args: &Punctuated<GenericArgument, Token![,]>,
    ) -> syn::Result<Vec<TokenStream>> {
        let a = super::ast();
        let mut out = Vec::new();
        for arg in args {
            match arg {
                GenericArgument::Type(ty) => {
                    if let Some(path) = self.const_like_type_arg(ty) {
                        let e = self.lower_expr(&Expr::Path(path))?;
                        out.push(quote!(#a::GenericArg::Const(#e)));
                    } else {
                        let t = self.lower_type(ty)?;
                        out.push(quote!(#a::GenericArg::Type(#t)));
                    }
                }
                GenericArgument::Const(e) => {
                    let mut inner = e;
                    if let Expr::Block(b) = e {
                        if let [syn::Stmt::Expr(x, None)] = b.block.stmts.as_slice() {
                            inner = x;
                        }
                    }
                    let e = self.lower_expr(inner)?;
                    out.push(quote!(#a::GenericArg::Const(#e)));
                }
                _ => {
                    return err_spanned(
                        arg,
                        "only type and const generic arguments are supported in device code",
                    )
                }
            }
        }
        Ok(out)
    }

    /// A bare name in a turbofish that is a value: a const generic, a local, or a `SCREAMING_CASE`
    /// constant (syn cannot tell `foo::<N>` from `foo::<T>`).
    fn const_like_type_arg(&self, ty: &Type) -> Option<syn::ExprPath> {
        let Type::Path(tp) = ty else { return None };
        if tp.qself.is_some() {
            return None;
        }
        let id = tp.path.get_ident()?.to_string();
        if self.type_params.contains(&id) || primitive(&tp.path).is_some() {
            return None;
        }
        if self.is_local(&id) || is_screaming(&id) {
            return Some(syn::ExprPath {
                attrs: Vec::new(),
                qself: None,
                path: tp.path.clone(),
            });
        }
        None
    }

    fn struct_lit(&mut self, s: &syn::ExprStruct) -> syn::Result<TokenStream> {
        let a = super::ast();
        if s.rest.is_some() || s.dot2_token.is_some() {
            return err_spanned(
                s.dot2_token,
                "struct update syntax (`..base`) is not supported in device code; list every field",
            );
        }
        if s.qself.is_some() {
            return err_spanned(
                &s.path,
                "qualified struct paths are not supported in device code",
            );
        }
        if let Some(last) = s.path.segments.last() {
            let name = last.ident.to_string();
            if methods::HEAP_TYPES.contains(&name.as_str()) {
                return err_spanned(&s.path, methods::heap_message(&name));
            }
        }
        let ty = self.struct_ref(&s.path)?;
        let start = self.weight;
        let mut fields = Vec::new();
        for f in &s.fields {
            let name = match &f.member {
                syn::Member::Named(i) => i.to_string(),
                syn::Member::Unnamed(i) => i.index.to_string(),
            };
            let name = string(&name);
            let pred = presence(&f.attrs)?;
            let before = self.weight;
            if let Some(v) = self.configured(pred.clone(), |this| this.lower_expr(&f.expr))? {
                fields.push(Elem {
                    tokens: quote!((#name, #v)),
                    cfg: pred,
                    weight: self.weight - before,
                });
            }
        }
        let fields = self.list(fields, start, quote!((::std::string::String, #a::Expr)));
        Ok(quote!(#a::ExprKind::StructLit { ty: #ty, fields: #fields }))
    }

    fn if_expr(&mut self, i: &syn::ExprIf) -> syn::Result<TokenStream> {
        let a = super::ast();
        if contains_let(&i.cond) {
            return err_expr(
                &i.cond,
                "`if let` is not supported in device code; use `match`",
            );
        }
        let cond = self.boxed(&i.cond)?;
        let then = self.lower_block(&i.then_branch)?;
        let els = match &i.else_branch {
            Some((_, e)) => Some(self.boxed(e)?),
            None => None,
        };
        let els = opt(els);
        Ok(quote!(#a::ExprKind::If { cond: #cond, then: #then, els: #els }))
    }

    fn match_expr(&mut self, m: &syn::ExprMatch) -> syn::Result<TokenStream> {
        let a = super::ast();
        let scrutinee = self.boxed(&m.expr)?;
        let start = self.weight;
        let mut arms = Vec::new();
        for arm in &m.arms {
            let pred = presence(&arm.attrs)?;
            let before = self.weight;
            let lowered = self.configured(pred.clone(), |this| {
                this.scopes.push();
                let r = this.arm(arm);
                this.scopes.pop();
                r
            })?;
            if let Some(t) = lowered {
                arms.push(Elem {
                    tokens: t,
                    cfg: pred,
                    weight: self.weight - before,
                });
            }
        }
        let arms = self.list(arms, start, quote!(#a::Arm));
        Ok(quote!(#a::ExprKind::Match { scrutinee: #scrutinee, arms: #arms }))
    }

    fn arm(&mut self, arm: &syn::Arm) -> syn::Result<TokenStream> {
        let a = super::ast();
        let pat = self.lower_pat(&arm.pat, true)?;
        let guard = match &arm.guard {
            Some((_, g)) => Some(self.lower_expr(g)?),
            None => None,
        };
        let guard = opt(guard);
        let body = self.lower_expr(&arm.body)?;
        let span = crate::span::span_value(arm.pat.span());
        self.weight += 1;
        Ok(quote!(#a::Arm { pat: #pat, guard: #guard, body: #body, span: #span }))
    }
}
