//! Blocks and statements -> `ast::Block` / `ast::Stmt`.
//!
//! A block lowers to a Rust block expression that first repeats the user's local `const` and `use`
//! items and then builds the `ast::Block`, so host constants and callees named in the block resolve
//! against exactly the items visible at that point of the user's code. Such a block is also where
//! the nodes spilled inside it are built (they may name its items).

use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;
use syn::{Expr, Item, Pat, Stmt};

use super::{err_spanned, Elem, Lower};
use crate::cfg::presence;
use crate::span::{loc, span_value};

/// The tail of a block: its value expression and that expression's `cfg` predicate.
type Tail = Option<(TokenStream, Option<TokenStream>)>;

impl Lower {
    pub(crate) fn lower_block(&mut self, b: &syn::Block) -> syn::Result<TokenStream> {
        self.enter(b.brace_token.span.open())?;
        let has_items = b.stmts.iter().any(|s| matches!(s, Stmt::Item(_)));
        if has_items {
            self.hoisted.push(Vec::new());
        }
        self.scopes.push();
        let result = self.block_inner(b);
        self.scopes.pop();
        let hoisted = if has_items {
            self.hoisted.pop().unwrap_or_default()
        } else {
            Vec::new()
        };
        self.leave();
        let (items, block) = result?;
        if items.is_empty() && hoisted.is_empty() {
            Ok(block)
        } else {
            Ok(quote!({ #(#items)* #(#hoisted)* #block }))
        }
    }

    fn block_inner(&mut self, b: &syn::Block) -> syn::Result<(Vec<TokenStream>, TokenStream)> {
        let a = super::ast();
        let start = self.weight;
        let mut items = Vec::new();
        let mut stmts = Vec::new();
        let mut tail: Tail = None;
        let n = b.stmts.len();
        for (i, s) in b.stmts.iter().enumerate() {
            let last = i + 1 == n;
            match s {
                Stmt::Item(item) => {
                    let pred = presence(item_attrs(item))?;
                    if let Some(t) = self.configured(pred, |_| local_item(item))? {
                        items.push(t);
                    }
                    continue;
                }
                // A stray `;` (`x = 1;;`) is an empty statement.
                Stmt::Expr(Expr::Verbatim(t), Some(_)) if t.is_empty() => continue,
                _ => {}
            }
            let attrs = match s {
                Stmt::Local(l) => &l.attrs[..],
                Stmt::Expr(e, _) => crate::span::expr_attrs(e),
                Stmt::Macro(m) => &m.attrs[..],
                Stmt::Item(_) => &[][..],
            };
            let pred = presence(attrs)?;
            let is_tail = last
                && match s {
                    Stmt::Expr(_, semi) => semi.is_none(),
                    Stmt::Macro(m) => m.semi_token.is_none(),
                    _ => false,
                };
            let before = self.weight;
            let lowered = self.configured(pred.clone(), |this| this.stmt(s))?;
            let Some(e) = lowered else { continue };
            if is_tail {
                if let StmtTokens::Expr(e) = e {
                    tail = Some((e, pred));
                    continue;
                }
            }
            let tokens = match e {
                StmtTokens::Expr(e) => quote!(#a::Stmt::Expr(#e)),
                StmtTokens::Stmt(s) => s,
            };
            stmts.push(Elem {
                tokens,
                cfg: pred,
                weight: self.weight - before,
            });
        }
        let stmts = self.list(stmts, start, quote!(#a::Stmt));
        let tail = match tail {
            None => quote!(::core::option::Option::None),
            Some((t, None)) => quote!(::core::option::Option::Some(::std::boxed::Box::new(#t))),
            Some((t, Some(p))) => quote!({
                #[cfg(#p)]
                let __fc_tail = ::core::option::Option::Some(::std::boxed::Box::new(#t));
                #[cfg(not(#p))]
                let __fc_tail = ::core::option::Option::None;
                __fc_tail
            }),
        };
        let span = span_value(b.brace_token.span.open());
        self.weight += 1;
        Ok((
            items,
            quote!(#a::Block { stmts: #stmts, tail: #tail, span: #span }),
        ))
    }

    fn stmt(&mut self, s: &Stmt) -> syn::Result<StmtTokens> {
        let a = super::ast();
        match s {
            Stmt::Local(l) => Ok(StmtTokens::Stmt(self.let_stmt(l)?)),
            Stmt::Expr(e, _) => Ok(StmtTokens::Expr(self.lower_expr(e)?)),
            Stmt::Macro(m) => {
                let start = self.weight;
                let kind = self.lower_macro(&m.mac)?;
                let l = loc(m.mac.path.span());
                Ok(StmtTokens::Expr(
                    self.finish_expr(quote!(#a::build::e(#kind, #l)), start),
                ))
            }
            Stmt::Item(_) => err_spanned(s, "internal: items are handled by the block"),
        }
    }

    fn let_stmt(&mut self, l: &syn::Local) -> syn::Result<TokenStream> {
        let a = super::ast();
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
        self.weight += 1;
        Ok(quote!(#a::Stmt::Let { pat: #pat, ty: #ty, init: #init, span: #span }))
    }
}

/// A lowered statement: an expression (which may be the block's tail) or a `let`.
enum StmtTokens {
    Expr(TokenStream),
    Stmt(TokenStream),
}

fn item_attrs(item: &Item) -> &[syn::Attribute] {
    match item {
        Item::Const(x) => &x.attrs,
        Item::Use(x) => &x.attrs,
        Item::Fn(x) => &x.attrs,
        Item::Static(x) => &x.attrs,
        Item::Struct(x) => &x.attrs,
        Item::Enum(x) => &x.attrs,
        Item::Union(x) => &x.attrs,
        Item::Mod(x) => &x.attrs,
        Item::Type(x) => &x.attrs,
        Item::Trait(x) => &x.attrs,
        Item::Impl(x) => &x.attrs,
        Item::Macro(x) => &x.attrs,
        Item::ExternCrate(x) => &x.attrs,
        Item::ForeignMod(x) => &x.attrs,
        _ => &[],
    }
}

/// Items inside a body: `const` and `use` are repeated in the builder (with their attributes, so
/// a configured-out item is gone there too); anything else is an error.
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
