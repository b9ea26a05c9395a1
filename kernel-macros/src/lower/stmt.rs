//! Blocks and statements -> `ast::Block` / `ast::Stmt`.
//!
//! A block lowers to a Rust block expression that first repeats the user's local `const` and `use`
//! items and then builds the `ast::Block`, so host constants and callees named in the block resolve
//! against exactly the items visible at that point of the user's code.

use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;
use syn::{Item, Pat, Stmt};

use super::{err_spanned, Lower};
use crate::paths;
use crate::span::{loc, span_value};

impl Lower {
    pub(crate) fn lower_block(&mut self, b: &syn::Block) -> syn::Result<TokenStream> {
        let a = paths::ast();
        self.scopes.push();
        let result = self.block_inner(b);
        self.scopes.pop();
        let (items, stmts, tail) = result?;
        let tail = match tail {
            Some(t) => quote!(::core::option::Option::Some(::std::boxed::Box::new(#t))),
            None => quote!(::core::option::Option::None),
        };
        let span = span_value(b.brace_token.span.open());
        let block = quote!(#a::Block { stmts: ::std::vec![#(#stmts),*], tail: #tail, span: #span });
        if items.is_empty() {
            Ok(block)
        } else {
            Ok(quote!({ #(#items)* #block }))
        }
    }

    #[allow(clippy::type_complexity)]
    fn block_inner(
        &mut self,
        b: &syn::Block,
    ) -> syn::Result<(Vec<TokenStream>, Vec<TokenStream>, Option<TokenStream>)> {
        let a = paths::ast();
        let mut items = Vec::new();
        let mut stmts = Vec::new();
        let mut tail = None;
        let n = b.stmts.len();
        for (i, s) in b.stmts.iter().enumerate() {
            let last = i + 1 == n;
            match s {
                Stmt::Local(l) => stmts.push(self.let_stmt(l)?),
                Stmt::Item(item) => items.push(local_item(item)?),
                Stmt::Expr(e, semi) => {
                    let e = self.lower_expr(e)?;
                    if last && semi.is_none() {
                        tail = Some(e);
                    } else {
                        stmts.push(quote!(#a::Stmt::Expr(#e)));
                    }
                }
                Stmt::Macro(m) => {
                    let kind = self.lower_macro(&m.mac)?;
                    let l = loc(m.mac.path.span());
                    let e = quote!(#a::build::e(#kind, #l));
                    if last && m.semi_token.is_none() {
                        tail = Some(e);
                    } else {
                        stmts.push(quote!(#a::Stmt::Expr(#e)));
                    }
                }
            }
        }
        Ok((items, stmts, tail))
    }

    fn let_stmt(&mut self, l: &syn::Local) -> syn::Result<TokenStream> {
        let a = paths::ast();
        let init = match &l.init {
            Some(init) => {
                if let Some((else_token, _)) = &init.diverge {
                    return err_spanned(
                        else_token,
                        "`let .. else` is not supported in device code; use `match`",
                    );
                }
                let e = self.lower_expr(&init.expr)?;
                quote!(::core::option::Option::Some(#e))
            }
            None => quote!(::core::option::Option::None),
        };
        // The initializer is lowered first: `let x = x + 1` reads the outer `x`.
        let (pat, ty) = match &l.pat {
            Pat::Type(t) => (&*t.pat, Some(&*t.ty)),
            p => (p, None),
        };
        let ty = match ty {
            Some(t) => self.lower_type(t)?,
            None => quote!(#a::Type::Infer),
        };
        let pat = self.lower_pat(pat, false)?;
        let span = span_value(l.let_token.span);
        Ok(quote!(#a::Stmt::Let { pat: #pat, ty: #ty, init: #init, span: #span }))
    }
}

/// Items inside a body: `const` and `use` are repeated in the builder; anything else is an error.
fn local_item(item: &Item) -> syn::Result<TokenStream> {
    match item {
        Item::Const(_) | Item::Use(_) => Ok(quote!(#item)),
        Item::Fn(f) => err_spanned(
            &f.sig,
            "nested fn items are not supported in device code; declare a `#[device]` fn at module level",
        ),
        _ => err_spanned(
            item,
            "only `const` and `use` items are supported inside device code; move other items to module level",
        ),
    }
}
