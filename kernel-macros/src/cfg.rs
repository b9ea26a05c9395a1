//! `#[cfg]` / `#[cfg_attr]` in device code.
//!
//! The macro cannot evaluate a configuration predicate (features, `debug_assertions`, the
//! target: only rustc knows them for the user's crate), so it hands the predicate on: the
//! builder code for a node is emitted under `#[cfg(pred)]` (or chosen with `cfg!(pred)`), and
//! rustc keeps or drops it exactly as it keeps or drops the node in the user's own function.
//!
//! `cfg_attr(p, a, b)` is flattened into the attributes `a` and `b`, each applying under `p`
//! (nested `cfg_attr` conjoin their predicates). A node exists when every `cfg(q)` among its
//! attributes holds under the predicate it applies under: `any(not(p), q)` for
//! `cfg_attr(p, cfg(q))`.

use proc_macro2::TokenStream;
use quote::{quote, ToTokens};
use syn::punctuated::Punctuated;
use syn::{Attribute, Meta, Token};

/// An attribute after `cfg_attr` flattening, with the predicate it applies under (`None`:
/// always).
pub(crate) struct Applied {
    pub when: Option<TokenStream>,
    pub meta: Meta,
}

/// What the attributes of one node say.
#[derive(Default)]
pub(crate) struct Attrs {
    /// The predicate under which the node exists; `None` when it always does.
    pub presence: Option<TokenStream>,
    /// Every other attribute, flattened out of `cfg_attr`.
    pub rest: Vec<Applied>,
}

/// `cfg_attr(predicate, attr, ...)`.
struct CfgAttr {
    pred: Meta,
    attrs: Punctuated<Meta, Token![,]>,
}

impl syn::parse::Parse for CfgAttr {
    fn parse(input: syn::parse::ParseStream) -> syn::Result<Self> {
        let pred = input.parse()?;
        input.parse::<Token![,]>()?;
        let attrs = Punctuated::parse_terminated(input)?;
        Ok(CfgAttr { pred, attrs })
    }
}

fn and(a: Option<&TokenStream>, b: TokenStream) -> TokenStream {
    match a {
        Some(a) => quote!(all(#a, #b)),
        None => b,
    }
}

fn flatten(meta: &Meta, when: Option<TokenStream>, out: &mut Attrs) -> syn::Result<()> {
    if meta.path().is_ident("cfg") {
        let Meta::List(list) = meta else {
            return Err(syn::Error::new_spanned(
                meta,
                "`cfg` takes a predicate: `#[cfg(..)]`",
            ));
        };
        let pred: Meta = list.parse_args().map_err(|_| {
            syn::Error::new_spanned(
                &list.tokens,
                "`cfg` takes exactly one predicate (`#[cfg(any(a, b))]` combines several)",
            )
        })?;
        let pred = pred.into_token_stream();
        let holds = match &when {
            Some(w) => quote!(any(not(#w), #pred)),
            None => pred,
        };
        out.presence = Some(and(out.presence.as_ref(), holds));
        return Ok(());
    }
    if meta.path().is_ident("cfg_attr") {
        let Meta::List(list) = meta else {
            return Err(syn::Error::new_spanned(
                meta,
                "`cfg_attr` takes a predicate and attributes: `#[cfg_attr(pred, attr)]`",
            ));
        };
        let inner: CfgAttr = list.parse_args()?;
        let p = inner.pred.into_token_stream();
        let when = Some(and(when.as_ref(), p));
        for m in &inner.attrs {
            flatten(m, when.clone(), out)?;
        }
        return Ok(());
    }
    out.rest.push(Applied {
        when,
        meta: meta.clone(),
    });
    Ok(())
}

/// Reads the attributes of one node.
pub(crate) fn analyze(attrs: &[Attribute]) -> syn::Result<Attrs> {
    let mut out = Attrs::default();
    for a in attrs {
        flatten(&a.meta, None, &mut out)?;
    }
    Ok(out)
}

/// The presence predicate of a node's attributes (`None`: always present).
pub(crate) fn presence(attrs: &[Attribute]) -> syn::Result<Option<TokenStream>> {
    if !attrs
        .iter()
        .any(|a| a.path().is_ident("cfg") || a.path().is_ident("cfg_attr"))
    {
        return Ok(None);
    }
    Ok(analyze(attrs)?.presence)
}

/// `#[cfg(pred)]`, or nothing.
pub(crate) fn cfg_attr_tokens(pred: Option<&TokenStream>) -> TokenStream {
    match pred {
        Some(p) => quote!(#[cfg(#p)]),
        None => TokenStream::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attrs(src: &str) -> Vec<Attribute> {
        let f: syn::ItemFn = syn::parse_str(&format!("{src} fn f() {{}}")).expect("fn");
        f.attrs
    }

    fn pres(src: &str) -> Option<String> {
        presence(&attrs(src)).expect("attrs").map(|t| t.to_string())
    }

    #[test]
    fn predicates_compose() {
        assert_eq!(pres("#[inline]"), None);
        assert_eq!(pres("#[cfg(any())]").as_deref(), Some("any ()"));
        assert_eq!(pres("#[cfg(a)] #[cfg(b)]").as_deref(), Some("all (a , b)"));
        assert_eq!(
            pres("#[cfg_attr(p, cfg(q))]").as_deref(),
            Some("any (not (p) , q)")
        );
        assert_eq!(
            pres("#[cfg_attr(p, cfg_attr(q, cfg(r)))]").as_deref(),
            Some("any (not (all (p , q)) , r)")
        );
    }

    #[test]
    fn other_attributes_keep_their_condition() {
        let a = analyze(&attrs(
            "#[cfg_attr(debug_assertions, unroll(4), no_unroll)] #[allow(x)]",
        ))
        .expect("attrs");
        assert!(a.presence.is_none());
        let names: Vec<String> = a
            .rest
            .iter()
            .map(|r| {
                format!(
                    "{} {}",
                    r.when.as_ref().map(|w| w.to_string()).unwrap_or_default(),
                    r.meta
                        .path()
                        .get_ident()
                        .map(|i| i.to_string())
                        .unwrap_or_default()
                )
            })
            .collect();
        assert_eq!(
            names,
            [
                "debug_assertions unroll",
                "debug_assertions no_unroll",
                " allow"
            ]
        );
    }

    #[test]
    fn malformed_cfg_is_an_error() {
        assert!(analyze(&attrs("#[cfg]")).is_err());
        assert!(analyze(&attrs("#[cfg(a, b)]")).is_err());
        assert!(analyze(&attrs("#[cfg_attr(a)]")).is_err());
    }
}
