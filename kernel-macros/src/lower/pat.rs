//! Patterns (`let`, `for`, `match`) -> `ast::Pat`; bindings are added to the current scope.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Expr, Pat};

use super::expr::is_screaming;
use super::lit::lower_lit;
use super::methods;
use super::{err_spanned, path_text, Lower};
use crate::paths;

const LET_PATTERNS: &str =
    "supported patterns here: `x`, `mut x`, `_`, tuples `(a, b)` and arrays `[a, b]`";
const MATCH_PATTERNS: &str =
    "supported match patterns: literals (also negative), ranges `a..=b`, constants, \
    `_`, bindings `x`, tuples, arrays and `p | q`";

impl Lower {
    /// `refutable` is true for `match` arms (literals, ranges, constants and `|` allowed).
    pub(crate) fn lower_pat(&mut self, pat: &Pat, refutable: bool) -> syn::Result<TokenStream> {
        self.enter(pat.span())?;
        let r = self.lower_pat_inner(pat, refutable);
        self.leave();
        r
    }

    fn lower_pat_inner(&mut self, pat: &Pat, refutable: bool) -> syn::Result<TokenStream> {
        let a = super::ast();
        let help = if refutable {
            MATCH_PATTERNS
        } else {
            LET_PATTERNS
        };
        match pat {
            Pat::Wild(_) => Ok(quote!(#a::Pat::Wild)),
            Pat::Paren(p) => self.lower_pat(&p.pat, refutable),
            Pat::Ident(i) => {
                if i.by_ref.is_some() {
                    return err_spanned(
                        pat,
                        format!("`ref` bindings are not supported in device code; {help}"),
                    );
                }
                if let Some((at, _)) = &i.subpat {
                    return err_spanned(
                        at,
                        format!("`name @ pattern` bindings are not supported in device code; {help}"),
                    );
                }
                let name = i.ident.to_string();
                if i.mutability.is_none() && methods::is_option_variant(&name) {
                    return err_spanned(pat, methods::option_message(&name));
                }
                if refutable && i.mutability.is_none() && methods::is_camel(&name) {
                    return err_spanned(pat, methods::ENUM_HELP);
                }
                if refutable && i.mutability.is_none() && is_screaming(&name) {
                    return Ok(self.const_pat(&syn::Path::from(i.ident.clone())));
                }
                self.scopes.bind(&name);
                let mutable = i.mutability.is_some();
                Ok(quote!(#a::Pat::Ident { name: ::std::string::String::from(#name), mutable: #mutable }))
            }
            Pat::Tuple(t) => {
                let elems = self.pats(t.elems.iter(), refutable, help)?;
                Ok(quote!(#a::Pat::Tuple(::std::vec::Vec::from([#(#elems),*]))))
            }
            Pat::Slice(s) => {
                let elems = self.pats(s.elems.iter(), refutable, help)?;
                Ok(quote!(#a::Pat::Array(::std::vec::Vec::from([#(#elems),*]))))
            }
            Pat::Type(t) => err_spanned(
                t,
                "type ascriptions are only supported on a whole `let` pattern (`let x: f32 = ..`)",
            ),
            Pat::Lit(l) if refutable => {
                let lit = lower_lit(&l.lit)?;
                Ok(quote!(#a::Pat::Lit(#lit)))
            }
            Pat::Path(p) if refutable => {
                if p.qself.is_some() || p.path.segments.iter().any(|s| !s.arguments.is_none()) {
                    return err_spanned(pat, format!("unsupported constant pattern; {help}"));
                }
                if let Some(last) = p.path.segments.last() {
                    let name = last.ident.to_string();
                    if methods::is_option_variant(&name) {
                        return err_spanned(pat, methods::option_message(&name));
                    }
                    if methods::is_camel(&name) {
                        return err_spanned(pat, methods::ENUM_HELP);
                    }
                }
                Ok(self.const_pat(&p.path))
            }
            Pat::Range(r) if refutable => {
                let start = match &r.start {
                    Some(e) => Some(self.range_bound(e)?),
                    None => None,
                };
                let end = match &r.end {
                    Some(e) => Some(self.range_bound(e)?),
                    None => None,
                };
                let wrap = |t: Option<TokenStream>| match t {
                    Some(t) => quote!(::core::option::Option::Some(::std::boxed::Box::new(#t))),
                    None => quote!(::core::option::Option::None),
                };
                let (start, end) = (wrap(start), wrap(end));
                let inclusive = matches!(r.limits, syn::RangeLimits::Closed(_));
                Ok(quote!(#a::Pat::Range { start: #start, end: #end, inclusive: #inclusive }))
            }
            Pat::Or(o) if refutable => {
                if o.cases.iter().any(has_binding) {
                    return err_spanned(
                        pat,
                        "bindings inside `|` patterns are not supported in device code; bind the whole value instead",
                    );
                }
                let cases = self.pats(o.cases.iter(), refutable, help)?;
                Ok(quote!(#a::Pat::Or(::std::vec::Vec::from([#(#cases),*]))))
            }
            Pat::Lit(_) | Pat::Path(_) | Pat::Range(_) | Pat::Or(_) => err_spanned(
                pat,
                format!("refutable patterns are only supported in `match` arms; {help}"),
            ),
            Pat::Rest(_) => err_spanned(
                pat,
                format!("`..` rest patterns are not supported in device code; {help}"),
            ),
            Pat::Reference(_) => err_spanned(
                pat,
                format!("reference patterns (`&x`) are not supported in device code; dereference the value instead; {help}"),
            ),
            Pat::TupleStruct(ts)
                if ts
                    .path
                    .segments
                    .last()
                    .is_some_and(|l| methods::is_option_variant(&l.ident.to_string())) =>
            {
                let name = ts.path.segments.last().map(|l| l.ident.to_string()).unwrap_or_default();
                err_spanned(&ts.path, methods::option_message(&name))
            }
            Pat::Struct(_) | Pat::TupleStruct(_) => err_spanned(
                pat,
                format!("struct patterns are not supported in device code; access fields with `.field`; {help}"),
            ),
            _ => err_spanned(pat, format!("unsupported pattern in device code; {help}")),
        }
    }

    fn pats<'p>(
        &mut self,
        pats: impl Iterator<Item = &'p Pat>,
        refutable: bool,
        help: &str,
    ) -> syn::Result<Vec<TokenStream>> {
        let mut out = Vec::new();
        for p in pats {
            if let Pat::Rest(_) = p {
                return err_spanned(
                    p,
                    format!("`..` rest patterns are not supported in device code; {help}"),
                );
            }
            out.push(self.lower_pat(p, refutable)?);
        }
        Ok(out)
    }

    fn const_pat(&self, path: &syn::Path) -> TokenStream {
        let a = super::ast();
        let text = path_text(path);
        let span = path.span();
        let private = paths::private();
        let eval = quote_spanned!(span=> || #private::const_value(#path));
        quote!(#a::Pat::HostConst(#a::HostConst { text: #text, eval: #eval }))
    }

    /// A bound of a range pattern: a literal or a constant path.
    fn range_bound(&mut self, e: &Expr) -> syn::Result<TokenStream> {
        let a = super::ast();
        match e {
            Expr::Lit(l) => {
                let lit = lower_lit(&l.lit)?;
                Ok(quote!(#a::Pat::Lit(#lit)))
            }
            Expr::Path(p) if p.qself.is_none() => Ok(self.const_pat(&p.path)),
            _ => err_spanned(
                e,
                "range pattern bounds must be literals or constants in device code",
            ),
        }
    }
}

fn has_binding(p: &Pat) -> bool {
    match p {
        Pat::Ident(i) => !is_screaming(&i.ident.to_string()) || i.mutability.is_some(),
        Pat::Tuple(t) => t.elems.iter().any(has_binding),
        Pat::Slice(s) => s.elems.iter().any(has_binding),
        Pat::Paren(p) => has_binding(&p.pat),
        Pat::Or(o) => o.cases.iter().any(has_binding),
        _ => false,
    }
}
