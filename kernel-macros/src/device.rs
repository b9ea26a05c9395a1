//! `#[device]`: keeps the function and adds its AST builder and the companion module through which
//! calls in kernels resolve (`foo(x)` -> `foo::__fc_callable`, a type-namespace twin of the fn).

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use crate::lower::{err_spanned, lower_fn, FnKind};
use crate::paths;
use crate::strip::host_fn;

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    if !attr.is_empty() {
        if attr.to_string().contains("overflow_checks") {
            return err_spanned(
                attr,
                "`#[device]` takes no arguments: overflow checks are set per kernel, and \
                 `#[kernel(overflow_checks = ..)]` covers the device functions the kernel calls",
            );
        }
        return err_spanned(attr, "`#[device]` takes no arguments");
    }
    crate::nesting::check(&item)?;
    let parsed: syn::Item = syn::parse2(item.clone())?;
    let syn::Item::Fn(f) = parsed else {
        return err_spanned(
            parsed,
            "`#[device]` applies to free functions only (`fn name(args) -> T { .. }` at module level)",
        );
    };
    let lowered = lower_fn(&f, FnKind::Device)?;
    let a = paths::ast();
    let private = paths::private();
    let def = lowered.def;
    let name = &f.sig.ident;
    let vis = &f.vis;
    let builder = format_ident!("__fc_build_{}", name);
    let present = crate::cfg::presence(&f.attrs)?;
    let cfg = crate::cfg::cfg_attr_tokens(present.as_ref());
    let host = host_fn(&f.attrs, vis, &f.sig, name, &item);
    let at_module_level = quote_spanned!(name.span()=> #builder);
    Ok(quote! {
        #host

        #cfg
        #[doc(hidden)]
        #[allow(non_snake_case, unused, clippy::all)]
        fn #builder() -> #a::FnDef {
            #def
        }

        #cfg
        #[doc(hidden)]
        #[allow(non_snake_case)]
        #vis mod #name {
            #[allow(unused_imports)]
            use #private::declare_at_module_level as #builder;

            /// What a call of this function in device code resolves to.
            pub fn __fc_callable() -> #a::Callable {
                static DEF: ::std::sync::OnceLock<#a::FnDef> = ::std::sync::OnceLock::new();
                #a::Callable::Device(DEF.get_or_init({
                    #[allow(unused_imports)]
                    use super::*;
                    #at_module_level
                }))
            }
        }
    })
}
