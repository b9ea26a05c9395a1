//! Rust syntax -> code that builds `kernel_ir::ast` values.
//!
//! Every `lower_*` method returns the tokens of a Rust expression that constructs the AST node;
//! the tokens are placed in the hidden builder function next to the user's function, so every path
//! in them resolves exactly as in the user's body.

mod expr;
mod func;
mod lit;
mod macros;
mod pat;
mod print;
mod stmt;
mod types;

use std::collections::HashSet;

use proc_macro2::Span;

use crate::scope::Scopes;

pub(crate) use func::{lower_fn, FnKind};
pub(crate) use types::{is_named_type, reject_unsupported_type};

/// State while lowering one function.
pub(crate) struct Lower {
    pub scopes: Scopes,
    pub type_params: HashSet<String>,
    pub const_params: HashSet<String>,
    /// The function's own name, to reject direct recursion.
    pub fn_name: String,
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
        }
    }

    /// A name that refers to a local value (param, `let`, pattern binding) or a const generic.
    pub(crate) fn is_local(&self, name: &str) -> bool {
        self.scopes.contains(name) || self.const_params.contains(name)
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
