//! `#[kernel]`: a hidden host copy for rustc's type check, the AST builder, and the public module
//! `name` with `launch`, `ast` and the kernel's handle.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use crate::attrs::KernelAttrs;
use crate::launcher::launch_fn;
use crate::lower::{err_spanned, lower_fn, FnKind};
use crate::paths;
use crate::strip::host_fn;

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let attrs = KernelAttrs::parse(attr)?;
    crate::nesting::check(&item)?;
    let parsed: syn::Item = syn::parse2(item.clone())?;
    let syn::Item::Fn(f) = parsed else {
        return err_spanned(
            parsed,
            "`#[kernel]` applies to free functions only (`pub fn name(args) { .. }` at module level)",
        );
    };
    let lowered = lower_fn(&f, FnKind::Kernel(&attrs))?;
    let launch = launch_fn(&f)?;

    let a = paths::ast();
    let rt = paths::rt();
    let private = paths::private();
    let def = lowered.def.clone();
    let name = f.sig.ident.clone();
    let vis = f.vis.clone();
    let builder = format_ident!("__fc_build_{}", name);
    let present = crate::cfg::presence(&f.attrs)?;
    let cfg = crate::cfg::cfg_attr_tokens(present.as_ref());
    let docs: Vec<_> = f
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .cloned()
        .collect();

    let host_attrs: Vec<_> = f
        .attrs
        .iter()
        .filter(|a| !a.path().is_ident("doc"))
        .cloned()
        .collect();
    let host_name = format_ident!("__fc_host_{}", name);
    let host = if lowered.long_chains {
        regrouped_host_fn(&host_attrs, &f.sig, &host_name, &item)?
    } else {
        host_fn(
            &host_attrs,
            &syn::Visibility::Inherited,
            &f.sig,
            &host_name,
            &item,
        )
    };
    // The builder is found through a glob import of the parent module; a kernel declared in a
    // function body has no such parent, and finds the explicit fallback, a compile error.
    let at_module_level = quote_spanned!(name.span()=> #builder);
    Ok(quote! {
        #[doc(hidden)]
        #[allow(dead_code, non_snake_case, clippy::all)]
        #host

        #cfg
        #[doc(hidden)]
        #[allow(non_snake_case, unused, clippy::all)]
        fn #builder() -> #a::FnDef {
            #def
        }

        #cfg
        #(#docs)*
        #[allow(non_snake_case)]
        #vis mod #name {
            #[allow(unused_imports)]
            use super::*;
            #[allow(unused_imports)]
            use #private::declare_at_module_level as #builder;

            #[doc(hidden)]
            pub fn __fc_def() -> &'static #a::FnDef {
                static DEF: ::std::sync::OnceLock<#a::FnDef> = ::std::sync::OnceLock::new();
                DEF.get_or_init({
                    #[allow(unused_imports)]
                    use super::*;
                    #at_module_level
                })
            }

            /// The kernel's AST as the compiler receives it (for tools and tests).
            pub fn ast() -> &'static #a::FnDef {
                __fc_def()
            }

            /// The kernel's compile cache; tools reach the compiled function through it.
            #[doc(hidden)]
            pub static KERNEL: #rt::KernelHandle = #rt::KernelHandle::new(__fc_def);

            #launch
        }
    })
}

/// The host copy with long operator chains regrouped (see `crate::rebalance`), printed from the
/// regrouped tree of a fresh parse of the body.
fn regrouped_host_fn(
    attrs: &[syn::Attribute],
    sig: &syn::Signature,
    name: &syn::Ident,
    item: &TokenStream,
) -> syn::Result<TokenStream> {
    let Some(body) = crate::strip::body_tokens(item) else {
        return Ok(host_fn(attrs, &syn::Visibility::Inherited, sig, name, item));
    };
    let mut block: syn::Block = syn::parse2(quote!(#body))?;
    crate::rebalance::rebalance_block(&mut block);
    let body = crate::strip::strip_loop_attrs(quote!(#block));
    let mut sig = sig.clone();
    sig.ident = name.clone();
    Ok(quote!(#(#attrs)* #sig #body))
}
