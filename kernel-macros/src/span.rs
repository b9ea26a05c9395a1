//! Source positions for the AST.
//!
//! `proc_macro::Span::{line, column}` are stable since Rust 1.88 and proc-macro2 (with
//! `span-locations`) forwards them, so the line and column are known while the macro runs and are
//! emitted as literals. Where a span has no location (0, e.g. a compiler without the API), the
//! fallback asks rustc for it with `line!()`/`column!()` tokens carrying that span.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};

/// `line, col` tokens (1-based both) for a span, as arguments of `ast::Span::new`.
pub(crate) fn loc(span: Span) -> TokenStream {
    let start = span.start();
    if start.line > 0 {
        let line = u32::try_from(start.line).unwrap_or(u32::MAX);
        let col = u32::try_from(start.column + 1).unwrap_or(u32::MAX);
        quote!(#line, #col)
    } else {
        quote_spanned!(span=> ::core::line!(), ::core::column!())
    }
}

/// An `ast::Span` value for a span.
pub(crate) fn span_value(span: Span) -> TokenStream {
    let a = crate::paths::ast();
    let l = loc(span);
    quote!(#a::Span::new(#l))
}

/// The span of an expression's first token (after its attributes), found without printing the expression: syn's
/// `Spanned::span` prints the whole subtree, which for every node of a 10,000-term sum is
/// quadratic work and a recursion as deep as the sum is long.
pub(crate) fn first_span(e: &syn::Expr) -> Span {
    use syn::spanned::Spanned;
    use syn::Expr as E;
    let mut e = e;
    loop {
        let label = |l: &Option<syn::Label>| l.as_ref().map(|l| l.name.apostrophe);
        return match e {
            E::Binary(x) => {
                e = &x.left;
                continue;
            }
            E::MethodCall(x) => {
                e = &x.receiver;
                continue;
            }
            E::Field(x) => {
                e = &x.base;
                continue;
            }
            E::Index(x) => {
                e = &x.expr;
                continue;
            }
            E::Cast(x) => {
                e = &x.expr;
                continue;
            }
            E::Assign(x) => {
                e = &x.left;
                continue;
            }
            E::Try(x) => {
                e = &x.expr;
                continue;
            }
            E::Await(x) => {
                e = &x.base;
                continue;
            }
            E::Call(x) => {
                e = &x.func;
                continue;
            }
            E::Range(x) => match &x.start {
                Some(s) => {
                    e = s;
                    continue;
                }
                None => x.limits.span(),
            },
            E::Array(x) => x.bracket_token.span.open(),
            E::Repeat(x) => x.bracket_token.span.open(),
            E::Async(x) => x.async_token.span,
            E::Block(x) => label(&x.label).unwrap_or(x.block.brace_token.span.open()),
            E::Break(x) => x.break_token.span,
            E::Closure(x) => x.or1_token.span,
            E::Const(x) => x.const_token.span,
            E::Continue(x) => x.continue_token.span,
            E::ForLoop(x) => label(&x.label).unwrap_or(x.for_token.span),
            E::Group(x) => x.group_token.span,
            E::If(x) => x.if_token.span,
            E::Infer(x) => x.underscore_token.span,
            E::Let(x) => x.let_token.span,
            E::Lit(x) => x.lit.span(),
            E::Loop(x) => label(&x.label).unwrap_or(x.loop_token.span),
            E::Macro(x) => x.mac.path.span(),
            E::Match(x) => x.match_token.span,
            E::Paren(x) => x.paren_token.span.open(),
            E::Path(x) => x.span(),
            E::RawAddr(x) => x.and_token.span,
            E::Reference(x) => x.and_token.span,
            E::Return(x) => x.return_token.span,
            E::Struct(x) => x.path.span(),
            E::TryBlock(x) => x.try_token.span,
            E::Tuple(x) => x.paren_token.span.open(),
            E::Unary(x) => x.op.span(),
            E::Unsafe(x) => x.unsafe_token.span,
            E::While(x) => label(&x.label).unwrap_or(x.while_token.span),
            E::Yield(x) => x.yield_token.span,
            E::Verbatim(t) => t
                .clone()
                .into_iter()
                .next()
                .map(|t| t.span())
                .unwrap_or_else(Span::call_site),
            _ => Span::call_site(),
        };
    }
}

/// The span of an expression's last token (see [`first_span`]).
pub(crate) fn last_span(e: &syn::Expr) -> Span {
    use syn::Expr as E;
    let mut e = e;
    loop {
        return match e {
            E::Binary(x) => {
                e = &x.right;
                continue;
            }
            E::Assign(x) => {
                e = &x.right;
                continue;
            }
            E::Unary(x) => {
                e = &x.expr;
                continue;
            }
            E::Reference(x) => {
                e = &x.expr;
                continue;
            }
            E::Return(syn::ExprReturn { expr: Some(x), .. })
            | E::Break(syn::ExprBreak { expr: Some(x), .. }) => {
                e = x;
                continue;
            }
            E::Range(syn::ExprRange { end: Some(x), .. }) => {
                e = x;
                continue;
            }
            E::Closure(x) => {
                e = &x.body;
                continue;
            }
            E::Let(x) => {
                e = &x.expr;
                continue;
            }
            E::Await(x) => x.await_token.span,
            E::If(x) => match &x.else_branch {
                Some((_, els)) => {
                    e = els;
                    continue;
                }
                None => x.then_branch.brace_token.span.close(),
            },
            E::MethodCall(x) => x.paren_token.span.close(),
            E::Call(x) => x.paren_token.span.close(),
            E::Paren(x) => x.paren_token.span.close(),
            E::Tuple(x) => x.paren_token.span.close(),
            E::Array(x) => x.bracket_token.span.close(),
            E::Repeat(x) => x.bracket_token.span.close(),
            E::Index(x) => x.bracket_token.span.close(),
            E::Block(x) => x.block.brace_token.span.close(),
            E::Unsafe(x) => x.block.brace_token.span.close(),
            E::Loop(x) => x.body.brace_token.span.close(),
            E::While(x) => x.body.brace_token.span.close(),
            E::ForLoop(x) => x.body.brace_token.span.close(),
            E::Match(x) => x.brace_token.span.close(),
            E::Struct(x) => x.brace_token.span.close(),
            E::Const(x) => x.block.brace_token.span.close(),
            E::Async(x) => x.block.brace_token.span.close(),
            E::TryBlock(x) => x.block.brace_token.span.close(),
            E::Field(x) => match &x.member {
                syn::Member::Named(i) => i.span(),
                syn::Member::Unnamed(i) => i.span,
            },
            E::Try(x) => x.question_token.span,
            E::Macro(x) => match &x.mac.delimiter {
                syn::MacroDelimiter::Paren(p) => p.span.close(),
                syn::MacroDelimiter::Brace(b) => b.span.close(),
                syn::MacroDelimiter::Bracket(b) => b.span.close(),
            },
            E::Cast(x) => {
                use syn::spanned::Spanned;
                x.ty.span()
            }
            _ => first_span(e),
        };
    }
}

/// A token stream whose first and last tokens carry the first and last spans of `e`, for
/// `syn::Error::new_spanned` (which underlines from the first to the last token).
pub(crate) fn expr_extent(e: &syn::Expr) -> TokenStream {
    let first = proc_macro2::Ident::new("first", first_span(e));
    let last = proc_macro2::Ident::new("last", last_span(e));
    quote!(#first #last)
}

/// The outer attributes of any expression.
pub(crate) fn expr_attrs(e: &syn::Expr) -> &[syn::Attribute] {
    use syn::Expr as E;
    match e {
        E::Array(x) => &x.attrs,
        E::Assign(x) => &x.attrs,
        E::Async(x) => &x.attrs,
        E::Await(x) => &x.attrs,
        E::Binary(x) => &x.attrs,
        E::Block(x) => &x.attrs,
        E::Break(x) => &x.attrs,
        E::Call(x) => &x.attrs,
        E::Cast(x) => &x.attrs,
        E::Closure(x) => &x.attrs,
        E::Const(x) => &x.attrs,
        E::Continue(x) => &x.attrs,
        E::Field(x) => &x.attrs,
        E::ForLoop(x) => &x.attrs,
        E::Group(x) => &x.attrs,
        E::If(x) => &x.attrs,
        E::Index(x) => &x.attrs,
        E::Infer(x) => &x.attrs,
        E::Let(x) => &x.attrs,
        E::Lit(x) => &x.attrs,
        E::Loop(x) => &x.attrs,
        E::Macro(x) => &x.attrs,
        E::Match(x) => &x.attrs,
        E::MethodCall(x) => &x.attrs,
        E::Paren(x) => &x.attrs,
        E::Path(x) => &x.attrs,
        E::Range(x) => &x.attrs,
        E::RawAddr(x) => &x.attrs,
        E::Reference(x) => &x.attrs,
        E::Repeat(x) => &x.attrs,
        E::Return(x) => &x.attrs,
        E::Struct(x) => &x.attrs,
        E::Try(x) => &x.attrs,
        E::TryBlock(x) => &x.attrs,
        E::Tuple(x) => &x.attrs,
        E::Unary(x) => &x.attrs,
        E::Unsafe(x) => &x.attrs,
        E::While(x) => &x.attrs,
        E::Yield(x) => &x.attrs,
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_positions_are_literals() {
        let tokens: TokenStream = "\n  foo".parse().expect("tokens");
        let span = tokens.into_iter().next().expect("one token").span();
        assert_eq!(loc(span).to_string(), "2u32 , 3u32");
    }
}
