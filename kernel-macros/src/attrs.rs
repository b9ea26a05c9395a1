//! Arguments of `#[kernel(...)]` and the loop attributes `#[unroll]`, `#[unroll(N)]`, `#[no_unroll]`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::meta::ParseNestedMeta;
use syn::parse::Parse;
use syn::{Attribute, LitInt, Meta};

const KERNEL_ATTR_HELP: &str =
    "supported: `#[kernel]`, `#[kernel(launch_bounds(max_threads = N))]`, \
     `#[kernel(launch_bounds(max_threads = N, min_blocks = M))]`, `#[kernel(max_registers = R)]`, \
     `#[kernel(block_dim(X, Y, Z))]` (the required block shape; Y and Z default to 1), \
     `#[kernel(cluster_dims(X, Y, Z))]` (the thread block cluster shape, sm_90; Y and Z default \
     to 1; at most 8 blocks, 16 non-portable), \
     `#[kernel(overflow_checks = true|false)]` (default: on in debug builds, as Rust), \
     `#[kernel(specialize = false)]` (one compiled variant for every launch block shape), \
     several separated by commas";

/// `KernelAttrs` as parsed from the attribute.
#[derive(Default)]
pub(crate) struct KernelAttrs {
    pub max_threads: Option<u32>,
    pub min_blocks: Option<u32>,
    pub max_registers: Option<u32>,
    pub block_dim: Option<[u32; 3]>,
    pub cluster_dims: Option<[u32; 3]>,
    pub overflow_checks: Option<bool>,
    /// `specialize = false`: no variants per launch block shape.
    pub specialize: Option<bool>,
}

impl KernelAttrs {
    pub(crate) fn parse(attr: TokenStream) -> syn::Result<Self> {
        let mut out = KernelAttrs::default();
        if attr.is_empty() {
            return Ok(out);
        }
        let span = proc_macro2::Span::call_site();
        let parser = syn::meta::parser(|meta| out.parse_meta(meta));
        syn::parse::Parser::parse2(parser, attr)?;
        if let (Some(d), Some(max)) = (out.block_dim, out.max_threads) {
            let threads = d.iter().map(|&v| u64::from(v)).product::<u64>();
            if threads > u64::from(max) {
                return Err(syn::Error::new(
                    span,
                    format!(
                        "`block_dim({}, {}, {})` has {threads} threads, more than \
                         `launch_bounds(max_threads = {max})`",
                        d[0], d[1], d[2]
                    ),
                ));
            }
        }
        Ok(out)
    }

    fn parse_meta(&mut self, meta: ParseNestedMeta) -> syn::Result<()> {
        if meta.path.is_ident("launch_bounds") {
            if !meta.input.peek(syn::token::Paren) {
                return Err(meta.error(format!(
                    "`launch_bounds` takes arguments: `launch_bounds(max_threads = N, min_blocks = M)`; {KERNEL_ATTR_HELP}"
                )));
            }
            meta.parse_nested_meta(|inner| {
                if inner.path.is_ident("max_threads") {
                    self.max_threads = Some(positive(&inner, "max_threads", 1024)?);
                    Ok(())
                } else if inner.path.is_ident("min_blocks") {
                    self.min_blocks = Some(positive(&inner, "min_blocks", u32::MAX)?);
                    Ok(())
                } else {
                    Err(inner.error(
                        "unknown `launch_bounds` key; supported: `max_threads = N` (1..=1024) and `min_blocks = M`",
                    ))
                }
            })?;
            if self.max_threads.is_none() {
                return Err(meta.error("`launch_bounds` needs `max_threads = N` (1..=1024)"));
            }
            Ok(())
        } else if meta.path.is_ident("block_dim") {
            self.block_dim = Some(block_dim(&meta)?);
            Ok(())
        } else if meta.path.is_ident("cluster_dims") {
            self.cluster_dims = Some(cluster_dims(&meta)?);
            Ok(())
        } else if meta.path.is_ident("max_registers") {
            self.max_registers = Some(positive(&meta, "max_registers", 255)?);
            Ok(())
        } else if meta.path.is_ident("overflow_checks") {
            self.overflow_checks = Some(flag(&meta, "overflow_checks")?);
            Ok(())
        } else if meta.path.is_ident("specialize") {
            self.specialize = Some(flag(&meta, "specialize")?);
            Ok(())
        } else {
            let key = meta
                .path
                .get_ident()
                .map(|i| i.to_string())
                .unwrap_or_else(|| "?".into());
            Err(meta.error(format!(
                "unknown kernel attribute `{key}`; {KERNEL_ATTR_HELP}"
            )))
        }
    }
}

/// Parses `= true` or `= false`.
fn flag(meta: &ParseNestedMeta, key: &str) -> syn::Result<bool> {
    if !meta.input.peek(syn::Token![=]) {
        return Err(meta.error(format!("write `{key} = true` or `{key} = false`")));
    }
    let value = meta.value()?;
    let expr: syn::Expr = value.parse()?;
    match &expr {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Bool(b),
            ..
        }) => Ok(b.value),
        _ => Err(syn::Error::new_spanned(
            &expr,
            format!("`{key}` must be `true` or `false`"),
        )),
    }
}

/// Parses `(X)`, `(X, Y)` or `(X, Y, Z)`: a block shape CUDA accepts (each axis within
/// (1024, 1024, 64), at most 1024 threads).
fn block_dim(meta: &ParseNestedMeta) -> syn::Result<[u32; 3]> {
    let help = "`block_dim` takes one to three integer literals: `block_dim(32, 8)` is a 32x8x1 \
                block, at most (1024, 1024, 64) and 1024 threads";
    if !meta.input.peek(syn::token::Paren) {
        return Err(meta.error(help));
    }
    let content;
    syn::parenthesized!(content in meta.input);
    let lits = content.parse_terminated(LitInt::parse, syn::Token![,])?;
    if lits.is_empty() {
        return Err(meta.error(help));
    }
    if lits.len() > 3 {
        return Err(syn::Error::new_spanned(&lits, help));
    }
    let mut d = [1u32; 3];
    for (i, lit) in lits.iter().enumerate() {
        let max = [1024, 1024, 64][i];
        let v: u32 = lit.base10_parse().unwrap_or(0);
        if v == 0 || v > max {
            return Err(syn::Error::new_spanned(
                lit,
                format!(
                    "block_dim axis {} must be between 1 and {max}",
                    ["x", "y", "z"][i]
                ),
            ));
        }
        d[i] = v;
    }
    if d.iter().map(|&v| u64::from(v)).product::<u64>() > 1024 {
        return Err(syn::Error::new_spanned(
            &lits,
            "a block has at most 1024 threads",
        ));
    }
    Ok(d)
}

/// Parses `(X)`, `(X, Y)` or `(X, Y, Z)`: a thread block cluster shape (each axis at least 1, at
/// most 16 blocks, the non-portable limit; the launch checks the portable 8 and the opt-in).
fn cluster_dims(meta: &ParseNestedMeta) -> syn::Result<[u32; 3]> {
    let help = "`cluster_dims` takes one to three integer literals: `cluster_dims(2)` is a 2x1x1 \
                cluster, at most 16 blocks (8 without the non-portable opt-in at launch)";
    if !meta.input.peek(syn::token::Paren) {
        return Err(meta.error(help));
    }
    let content;
    syn::parenthesized!(content in meta.input);
    let lits = content.parse_terminated(LitInt::parse, syn::Token![,])?;
    if lits.is_empty() || lits.len() > 3 {
        return Err(meta.error(help));
    }
    let mut d = [1u32; 3];
    for (i, lit) in lits.iter().enumerate() {
        let v: u32 = lit.base10_parse().unwrap_or(0);
        if v == 0 || v > 16 {
            return Err(syn::Error::new_spanned(
                lit,
                format!(
                    "cluster_dims axis {} must be between 1 and 16",
                    ["x", "y", "z"][i]
                ),
            ));
        }
        d[i] = v;
    }
    if d.iter().product::<u32>() > 16 {
        return Err(syn::Error::new_spanned(
            &lits,
            "a cluster has at most 16 blocks",
        ));
    }
    Ok(d)
}

/// Parses `= <integer literal>` with `1 <= value <= max`.
fn positive(meta: &ParseNestedMeta, key: &str, max: u32) -> syn::Result<u32> {
    let value = meta.value()?;
    let expr: syn::Expr = value.parse()?;
    let bad = || {
        syn::Error::new_spanned(
            &expr,
            format!("`{key}` must be an integer literal between 1 and {max}"),
        )
    };
    let syn::Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Int(lit),
        ..
    }) = &expr
    else {
        return Err(bad());
    };
    let v: u64 = lit.base10_parse().map_err(|_| bad())?;
    if v == 0 || v > u64::from(max) {
        return Err(bad());
    }
    u32::try_from(v).map_err(|_| bad())
}

/// How a `for` loop asked to be unrolled.
#[derive(Clone, Copy)]
pub(crate) enum Unroll {
    Auto,
    Full,
    By(u32),
    Never,
}

pub(crate) fn is_loop_meta(meta: &Meta) -> bool {
    meta.path().is_ident("unroll") || meta.path().is_ident("no_unroll")
}

/// One loop attribute.
fn parse_unroll(meta: &Meta) -> syn::Result<Unroll> {
    if meta.path().is_ident("no_unroll") {
        if !matches!(meta, Meta::Path(_)) {
            return Err(syn::Error::new_spanned(
                meta,
                "`#[no_unroll]` takes no arguments",
            ));
        }
        return Ok(Unroll::Never);
    }
    match meta {
        Meta::Path(_) => Ok(Unroll::Full),
        Meta::List(list) => {
            let bad = || {
                syn::Error::new_spanned(
                    &list.tokens,
                    "`#[unroll(N)]` takes a positive integer literal (the unroll factor); \
                     use `#[unroll]` for full unrolling",
                )
            };
            let lit: LitInt = syn::parse2(list.tokens.clone()).map_err(|_| bad())?;
            let n: u32 = lit.base10_parse().map_err(|_| bad())?;
            match n {
                0 => Err(bad()),
                1 => Ok(Unroll::Never),
                n => Ok(Unroll::By(n)),
            }
        }
        Meta::NameValue(_) => Err(syn::Error::new_spanned(
            meta,
            "write `#[unroll]` or `#[unroll(N)]`",
        )),
    }
}

/// The `ast::Unroll` expression of a `for` loop's attributes. Loop attributes inside
/// `cfg_attr(p, ..)` apply where rustc says `p` holds (`cfg!(p)` in the builder); at most one
/// may apply unconditionally.
pub(crate) fn unroll(attrs: &[Attribute]) -> syn::Result<TokenStream> {
    let info = crate::cfg::analyze(attrs)?;
    let mut always: Option<Unroll> = None;
    let mut conditional = Vec::new();
    for applied in info.rest.iter().filter(|a| is_loop_meta(&a.meta)) {
        let u = parse_unroll(&applied.meta)?;
        match &applied.when {
            None => {
                if always.is_some() {
                    return Err(syn::Error::new_spanned(
                        &applied.meta,
                        "only one of `#[unroll]`, `#[unroll(N)]`, `#[no_unroll]` may be given per loop",
                    ));
                }
                always = Some(u);
            }
            Some(w) => conditional.push((w.clone(), u)),
        }
    }
    let mut out = unroll_tokens(always.unwrap_or(Unroll::Auto));
    for (w, u) in conditional.into_iter().rev() {
        let v = unroll_tokens(u);
        out = quote!(if ::core::cfg!(#w) { #v } else { #out });
    }
    Ok(out)
}

pub(crate) fn unroll_tokens(u: Unroll) -> TokenStream {
    let a = crate::paths::ast();
    match u {
        Unroll::Auto => quote!(#a::Unroll::Auto),
        Unroll::Full => quote!(#a::Unroll::Full),
        Unroll::By(n) => quote!(#a::Unroll::By(#n)),
        Unroll::Never => quote!(#a::Unroll::Never),
    }
}
