//! The user's function as rustc compiles it on the host, rebuilt from the original tokens.
//!
//! Ferrocuda's loop attributes (`#[unroll]`, `#[unroll(N)]`, `#[no_unroll]`, also inside
//! `cfg_attr`) are removed: rustc does not know them, and the AST already recorded them.
//! Working on tokens rather than re-printing syn's tree keeps the recursion as deep as the
//! bracket nesting, not as deep as the expression tree: a 10,000-term sum is one flat token
//! sequence but a 10,000-deep syntax tree.

use proc_macro2::{Delimiter, Group, TokenStream, TokenTree};
use quote::{quote, ToTokens};
use syn::punctuated::Punctuated;
use syn::{Meta, Token};

use crate::attrs::is_loop_meta;

/// The body of a fn item (its last token, a `{ .. }` group).
pub(crate) fn body_tokens(item: &TokenStream) -> Option<Group> {
    match item.clone().into_iter().last() {
        Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => Some(g),
        _ => None,
    }
}

/// The fn `attrs vis sig { body }` with `sig`'s name replaced by `name` and the body taken
/// from the item's own tokens, loop attributes removed.
pub(crate) fn host_fn(
    attrs: &[syn::Attribute],
    vis: &syn::Visibility,
    sig: &syn::Signature,
    name: &syn::Ident,
    item: &TokenStream,
) -> TokenStream {
    let mut sig = sig.clone();
    sig.ident = name.clone();
    let body = match body_tokens(item) {
        Some(g) => TokenTree::Group(strip_group(&g)),
        None => TokenTree::Group(Group::new(Delimiter::Brace, TokenStream::new())),
    };
    quote!(#(#attrs)* #vis #sig #body)
}

/// `tokens` without loop attributes.
pub(crate) fn strip_loop_attrs(tokens: TokenStream) -> TokenStream {
    let mut out: Vec<TokenTree> = Vec::new();
    let mut iter = tokens.into_iter().peekable();
    while let Some(tt) = iter.next() {
        match tt {
            TokenTree::Punct(p) if p.as_char() == '#' => {
                let is_outer_attr = matches!(
                    iter.peek(),
                    Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Bracket
                );
                if !is_outer_attr {
                    out.push(TokenTree::Punct(p));
                    continue;
                }
                let Some(TokenTree::Group(g)) = iter.next() else {
                    continue;
                };
                match rewrite_attr(&g) {
                    Rewrite::Keep => {
                        out.push(TokenTree::Punct(p));
                        out.push(TokenTree::Group(strip_group(&g)));
                    }
                    Rewrite::Drop => {}
                    Rewrite::Replace(content) => {
                        out.push(TokenTree::Punct(p));
                        let mut ng = Group::new(Delimiter::Bracket, content);
                        ng.set_span(g.span());
                        out.push(TokenTree::Group(ng));
                    }
                }
            }
            TokenTree::Group(g) => out.push(TokenTree::Group(strip_group(&g))),
            other => out.push(other),
        }
    }
    out.into_iter().collect()
}

fn strip_group(g: &Group) -> Group {
    let mut ng = Group::new(g.delimiter(), strip_loop_attrs(g.stream()));
    ng.set_span(g.span());
    ng
}

enum Rewrite {
    Keep,
    Drop,
    Replace(TokenStream),
}

/// What becomes of the attribute `#[content]`.
fn rewrite_attr(g: &Group) -> Rewrite {
    let Ok(meta) = syn::parse2::<Meta>(g.stream()) else {
        return Rewrite::Keep;
    };
    if is_loop_meta(&meta) {
        return Rewrite::Drop;
    }
    if !meta.path().is_ident("cfg_attr") || !mentions_loop_attr(&meta) {
        return Rewrite::Keep;
    }
    match without_loop_attrs(&meta) {
        Some(m) => Rewrite::Replace(m.into_token_stream()),
        None => Rewrite::Drop,
    }
}

fn mentions_loop_attr(meta: &Meta) -> bool {
    let text = meta.to_token_stream().to_string();
    text.contains("unroll")
}

/// `meta` without loop attributes; `None` when nothing is left of a `cfg_attr`.
fn without_loop_attrs(meta: &Meta) -> Option<TokenStream> {
    if is_loop_meta(meta) {
        return None;
    }
    let Meta::List(list) = meta else {
        return Some(meta.to_token_stream());
    };
    if !meta.path().is_ident("cfg_attr") {
        return Some(meta.to_token_stream());
    }
    let parser =
        |input: syn::parse::ParseStream| -> syn::Result<(Meta, Punctuated<Meta, Token![,]>)> {
            let pred: Meta = input.parse()?;
            input.parse::<Token![,]>()?;
            Ok((pred, Punctuated::parse_terminated(input)?))
        };
    let Ok((pred, attrs)) = syn::parse::Parser::parse2(parser, list.tokens.clone()) else {
        return Some(meta.to_token_stream());
    };
    let kept: Vec<TokenStream> = attrs.iter().filter_map(without_loop_attrs).collect();
    if kept.is_empty() {
        return None;
    }
    let path = &list.path;
    Some(quote!(#path(#pred, #(#kept),*)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strip(src: &str) -> String {
        strip_loop_attrs(src.parse().expect("tokens")).to_string()
    }

    #[test]
    fn loop_attributes_are_removed_everywhere() {
        assert_eq!(
            strip("{ #[unroll] for i in 0..4 { #[unroll(2)] for j in 0..2 {} } }"),
            "{ for i in 0 .. 4 { for j in 0 .. 2 { } } }"
        );
        assert_eq!(
            strip("#[cfg_attr(debug_assertions, unroll(4))] for i in 0..4 {}"),
            "for i in 0 .. 4 { }"
        );
        assert_eq!(
            strip("#[cfg_attr(a, unroll, allow(unused))] for i in 0..4 {}"),
            "# [cfg_attr (a , allow (unused))] for i in 0 .. 4 { }"
        );
        assert_eq!(
            strip("#[cfg(a)] #![allow(x)] x[0] = 1;"),
            "# [cfg (a)] #! [allow (x)] x [0] = 1 ;"
        );
    }

    #[test]
    fn long_flat_bodies_do_not_recurse() {
        let body = format!("{{ y[0] = {}; }}", vec!["x[0]"; 20_000].join(" + "));
        let out = std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(move || strip(&body).len())
            .expect("thread")
            .join()
            .expect("no overflow");
        assert!(out > 20_000);
    }
}
