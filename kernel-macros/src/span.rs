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
