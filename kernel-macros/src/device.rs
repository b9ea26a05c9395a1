//! `#[device]`: keeps the function and adds its AST builder and the companion module through which
//! calls in kernels resolve (`foo(x)` -> `foo::__fc_callable`, a type-namespace twin of the fn).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::lower::{err_spanned, lower_fn, FnKind};
use crate::paths;
use crate::strip::strip_loop_attrs;

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
    let item: syn::Item = syn::parse2(item)?;
    let syn::Item::Fn(mut f) = item else {
        return err_spanned(
            item,
            "`#[device]` applies to free functions only (`fn name(args) -> T { .. }` at module level)",
        );
    };
    let lowered = lower_fn(&f, FnKind::Device)?;
    strip_loop_attrs(&mut f);
    let a = paths::ast();
    let def = lowered.def;
    let name = &f.sig.ident;
    let vis = &f.vis;
    let builder = format_ident!("__fc_build_{}", name);
    let cfgs: Vec<_> = f
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("cfg"))
        .collect();
    Ok(quote! {
        #f

        #(#cfgs)*
        #[doc(hidden)]
        #[allow(non_snake_case, unused, clippy::all)]
        fn #builder() -> #a::FnDef {
            #def
        }

        #(#cfgs)*
        #[doc(hidden)]
        #[allow(non_snake_case)]
        #vis mod #name {
            /// What a call of this function in device code resolves to.
            pub fn __fc_callable() -> #a::Callable {
                static DEF: ::std::sync::OnceLock<#a::FnDef> = ::std::sync::OnceLock::new();
                #a::Callable::Device(DEF.get_or_init(super::#builder))
            }
        }
    })
}
