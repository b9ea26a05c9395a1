//! Rust syntax -> code that builds `kernel_ir::ast` values.
//!
//! Every `lower_*` method returns the tokens of a Rust expression that constructs the AST node;
//! the tokens are placed in the hidden builder function next to the user's function, so every path
//! in them resolves exactly as in the user's body.
//!
//! How big the builder's stack frames get is bounded, whatever the size of the function: a
//! builder runs on whichever thread first launches the kernel (2 MiB for a `std::thread`), in a
//! crate built at opt-level 0 where every temporary of a function has its own stack slot.
//! - An expression node whose construction grew past [`SPILL_WEIGHT`] nodes is *spilled*: built
//!   by a closure of its own at the head of the builder (or of the nearest block that repeats
//!   local items), stored in a slot of the store `__fc_st`, and taken from there where it
//!   belongs. A 10,000-term sum becomes a sequence of small closures, run one after the other.
//! - A list (statements, arguments, arms...) heavier than [`CHUNK_WEIGHT`] is filled by closures
//!   that each push a few elements.
//!
//! `#[cfg]` / `#[cfg_attr]` become the same attributes on the builder code of the node (see
//! `crate::cfg`); code hoisted out of a configured node carries its predicates along, and an error
//! in configured-out code is only reported where rustc keeps that code.

mod expr;
mod func;
mod lit;
mod macros;
mod methods;
mod pat;
mod print;
mod stmt;
mod types;

use std::collections::HashSet;

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};

use crate::scope::Scopes;

pub(crate) use func::{lower_fn, FnKind};
pub(crate) use types::{is_named_type, reject_unsupported_type};

/// An expression node built by more than this many nodes is spilled into a closure of its own.
pub(crate) const SPILL_WEIGHT: usize = 24;
/// A list built by more than this many nodes is filled by closures of about this weight.
pub(crate) const CHUNK_WEIGHT: usize = 24;
/// How deep brackets, braces and parentheses may nest in a kernel or device function (counting
/// the function's own body as one level). Deeper code is a compile error naming this limit
/// rather than a stack overflow of the compiler: syn's parser, built at opt-level 0 inside a
/// user's build like the macro itself, needs about 22 KiB of rustc's 8 MiB stack per level.
pub(crate) const MAX_NESTING: usize = 224;
/// The longest chain of operators (`a + b + ...`) a `#[device]` fn may have, and of method calls,
/// field accesses and indexing (`x.f().g()`) anywhere: rustc overflows its own stack on chains of
/// some thousands of links. A kernel's operator chains are not limited (its host copy is
/// regrouped for rustc, see `crate::rebalance`).
pub(crate) const MAX_CHAIN: usize = 4096;

/// State while lowering one function.
pub(crate) struct Lower {
    pub scopes: Scopes,
    pub type_params: HashSet<String>,
    pub const_params: HashSet<String>,
    /// The function's own name, to reject direct recursion.
    pub fn_name: String,
    /// `cfg` predicates of the configured nodes being lowered, outermost first.
    pub cfg_stack: Vec<TokenStream>,
    /// Nodes built since the last spill (a running count; see [`SPILL_WEIGHT`]).
    pub weight: usize,
    /// Statements for the head of the builder (first entry) and of each enclosing block that
    /// repeats local items.
    pub hoisted: Vec<Vec<TokenStream>>,
    /// Slots of `__fc_st` used so far.
    pub spills: usize,
    /// List-filling fn items made so far.
    pub chunks: usize,
    /// Current nesting of expressions and blocks.
    pub depth: usize,
    /// Whether operator chains are limited to [`MAX_CHAIN`] (device fns).
    pub limit_chains: bool,
    /// Whether an operator chain long enough to be regrouped in the host copy was seen.
    pub long_chains: bool,
}

/// One element of a list under construction.
pub(crate) struct Elem {
    pub tokens: TokenStream,
    /// `#[cfg]` predicate of the element.
    pub cfg: Option<TokenStream>,
    pub weight: usize,
}

/// `kernel_std::ast` inside the builder (which imports it under this short name: the builder of
/// a long function names it tens of thousands of times).
pub(crate) fn ast() -> TokenStream {
    quote!(__fc_a)
}

/// The store of spilled nodes, as seen by the code being generated.
pub(crate) fn store() -> syn::Ident {
    syn::Ident::new("__fc_st", Span::call_site())
}

impl Lower {
    pub(crate) fn new(fn_name: String) -> Self {
        let mut scopes = Scopes::default();
        scopes.push();
        Lower {
            scopes,
            type_params: HashSet::new(),
            const_params: HashSet::new(),
            fn_name,
            cfg_stack: Vec::new(),
            weight: 0,
            hoisted: vec![Vec::new()],
            spills: 0,
            chunks: 0,
            depth: 0,
            limit_chains: false,
            long_chains: false,
        }
    }

    /// A name that refers to a local value (param, `let`, pattern binding) or a const generic.
    pub(crate) fn is_local(&self, name: &str) -> bool {
        self.scopes.contains(name) || self.const_params.contains(name)
    }

    /// `#[cfg(..)]` for code hoisted out of the configured nodes being lowered.
    fn hoist_cfg(&self) -> TokenStream {
        match self.cfg_stack.as_slice() {
            [] => TokenStream::new(),
            preds => quote!(#[cfg(all(#(#preds),*))]),
        }
    }

    /// Adds an item to the innermost hoisting scope (visible in all of it).
    fn hoist_item(&mut self, item: TokenStream) {
        let cfg = self.hoist_cfg();
        let item = quote!(#cfg #item);
        match self.hoisted.last_mut() {
            Some(h) => h.push(item),
            None => self.hoisted.push(vec![item]),
        }
    }

    /// Adds a statement to the head of the innermost hoisting scope.
    fn hoist(&mut self, stmt: TokenStream) {
        let cfg = self.hoist_cfg();
        let stmt = quote!(#cfg { #stmt });
        match self.hoisted.last_mut() {
            Some(h) => h.push(stmt),
            None => self.hoisted.push(vec![stmt]),
        }
    }

    /// Tokens of an `ast::Expr` built by `tokens`, spilled if the nodes built since `start`
    /// weigh more than [`SPILL_WEIGHT`]: built by a fn item of its own, called at the head of
    /// the scope, its result kept in a slot of the store.
    pub(crate) fn finish_expr(&mut self, tokens: TokenStream, start: usize) -> TokenStream {
        self.weight += 1;
        if self.weight - start < SPILL_WEIGHT {
            return tokens;
        }
        let a = ast();
        let st = store();
        let i = self.spills;
        self.spills += 1;
        let f = quote::format_ident!("__fc_s{}", i);
        self.hoist(quote! {
            fn #f(#st: &mut [::core::option::Option<#a::Expr>]) -> #a::Expr { #tokens }
            let __fc_v = #f(&mut *#st);
            #st[#i] = ::core::option::Option::Some(__fc_v);
        });
        self.weight = start + 1;
        quote!(::core::option::Option::take(&mut #st[#i]).unwrap())
    }

    /// `Vec<elem_ty>` construction of the elements (`Vec::from([..])`, not `vec!`: nested macro
    /// calls count against rustc's recursion limit, as deep as the user's code nests); heavy lists are filled by fn items that
    /// each push a few elements.
    pub(crate) fn list(
        &mut self,
        elems: Vec<Elem>,
        start: usize,
        elem_ty: TokenStream,
    ) -> TokenStream {
        let total: usize = elems.iter().map(|e| e.weight).sum();
        if total <= CHUNK_WEIGHT {
            let items = elems.iter().map(|e| {
                let cfg = crate::cfg::cfg_attr_tokens(e.cfg.as_ref());
                let t = &e.tokens;
                quote!(#cfg #t)
            });
            self.weight = start + 1;
            return quote!(::std::vec::Vec::from([#(#items),*]));
        }
        let a = ast();
        let st = store();
        let mut chunks = Vec::new();
        let mut current = Vec::new();
        let mut w = 0;
        for e in elems {
            let cfg = crate::cfg::cfg_attr_tokens(e.cfg.as_ref());
            let t = e.tokens;
            current.push(quote!(#cfg { __fc_v.push(#t); }));
            w += e.weight;
            if w >= CHUNK_WEIGHT {
                chunks.push(std::mem::take(&mut current));
                w = 0;
            }
        }
        if !current.is_empty() {
            chunks.push(current);
        }
        self.weight = start + chunks.len();
        let mut calls = Vec::new();
        for c in chunks {
            let f = quote::format_ident!("__fc_c{}", self.chunks);
            self.chunks += 1;
            self.hoist_item(quote! {
                fn #f(__fc_v: &mut ::std::vec::Vec<#elem_ty>, #st: &mut [::core::option::Option<#a::Expr>]) {
                    #(#c)*
                }
            });
            calls.push(quote!(#f(&mut __fc_v, &mut *#st);));
        }
        quote!({
            let mut __fc_v = ::std::vec::Vec::new();
            #(#calls)*
            __fc_v
        })
    }

    /// Lowers `f` for a node configured by `pred`: hoisted code carries the predicate, and an
    /// error becomes a `compile_error!` under it (`Ok(None)`), as rustc only looks at
    /// configured-in code.
    pub(crate) fn configured<T>(
        &mut self,
        pred: Option<TokenStream>,
        f: impl FnOnce(&mut Self) -> syn::Result<T>,
    ) -> syn::Result<Option<T>> {
        let Some(pred) = pred else {
            return f(self).map(Some);
        };
        self.cfg_stack.push(pred);
        let r = f(self);
        match r {
            Ok(t) => {
                self.cfg_stack.pop();
                Ok(Some(t))
            }
            Err(e) => {
                for err in e {
                    let ce = err.to_compile_error();
                    self.hoist(quote!(#ce));
                }
                self.cfg_stack.pop();
                Ok(None)
            }
        }
    }

    /// Enters one level of nesting.
    pub(crate) fn enter(&mut self, span: Span) -> syn::Result<()> {
        self.depth += 1;
        // One level of source nesting is a few levels of this recursion (an `if` inside a
        // block is an expression, a block and a statement); the token check in `crate::nesting`
        // enforces the documented limit, this one only keeps the recursion bounded.
        if self.depth > 4 * MAX_NESTING {
            return err(
                span,
                format!(
                    "device code nests deeper than {MAX_NESTING} levels here (expressions, blocks \
                     and patterns inside each other); split it into `let` statements or `#[device]` fns"
                ),
            );
        }
        Ok(())
    }

    pub(crate) fn leave(&mut self) {
        self.depth -= 1;
    }

    /// The statements hoisted to the head of the builder.
    pub(crate) fn take_root_hoisted(&mut self) -> Vec<TokenStream> {
        self.hoisted.drain(..).flatten().collect()
    }
}

pub(crate) fn err<T>(span: Span, msg: impl std::fmt::Display) -> syn::Result<T> {
    Err(syn::Error::new(span, msg))
}

pub(crate) fn err_spanned<T>(
    tokens: impl quote::ToTokens,
    msg: impl std::fmt::Display,
) -> syn::Result<T> {
    Err(syn::Error::new_spanned(tokens, msg))
}

/// An error underlining the whole expression, without printing it.
pub(crate) fn err_expr<T>(e: &syn::Expr, msg: impl std::fmt::Display) -> syn::Result<T> {
    Err(syn::Error::new_spanned(crate::span::expr_extent(e), msg))
}

/// `"a::b::c"` for a path, without generic arguments.
pub(crate) fn path_text(path: &syn::Path) -> String {
    let mut s = String::new();
    if path.leading_colon.is_some() {
        s.push_str("::");
    }
    let segs: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
    s.push_str(&segs.join("::"));
    s
}

/// A `compile_error!` at `span` (for checks whose message must wait for rustc).
#[allow(dead_code)]
pub(crate) fn compile_error(span: Span, msg: &str) -> TokenStream {
    quote_spanned!(span=> ::core::compile_error!(#msg);)
}
