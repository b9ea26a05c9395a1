//! `#[kernel]`: a hidden host copy for rustc's type check, the AST builder, and the public module
//! `name` with `launch`, `ast` and the kernel's handle.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::attrs::KernelAttrs;
use crate::launcher::launch_fn;
use crate::lower::{err_spanned, lower_fn, FnKind};
use crate::paths;
use crate::strip::strip_loop_attrs;

pub(crate) fn expand(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    let attrs = KernelAttrs::parse(attr)?;
    let item: syn::Item = syn::parse2(item)?;
    let syn::Item::Fn(mut f) = item else {
        return err_spanned(
            item,
            "`#[kernel]` applies to free functions only (`pub fn name(args) { .. }` at module level)",
        );
    };
    let lowered = lower_fn(&f, FnKind::Kernel(&attrs))?;
    let launch = launch_fn(&f)?;
    strip_loop_attrs(&mut f);

    let a = paths::ast();
    let rt = paths::rt();
    let def = lowered.def;
    let name = f.sig.ident.clone();
    let vis = f.vis.clone();
    let builder = format_ident!("__fc_build_{}", name);
    let cfgs: Vec<_> = f
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("cfg"))
        .cloned()
        .collect();
    let docs: Vec<_> = f
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("doc"))
        .cloned()
        .collect();

    let mut host = f;
    host.sig.ident = format_ident!("__fc_host_{}", name);
    host.vis = syn::Visibility::Inherited;
    host.attrs.retain(|a| !a.path().is_ident("doc"));
    Ok(quote! {
        #[doc(hidden)]
        #[allow(dead_code, non_snake_case, clippy::all)]
        #host

        #(#cfgs)*
        #[doc(hidden)]
        #[allow(non_snake_case, unused, clippy::all)]
        fn #builder() -> #a::FnDef {
            #def
        }

        #(#cfgs)*
        #(#docs)*
        #[allow(non_snake_case)]
        #vis mod #name {
            #[allow(unused_imports)]
            use super::*;

            #[doc(hidden)]
            pub fn __fc_def() -> &'static #a::FnDef {
                static DEF: ::std::sync::OnceLock<#a::FnDef> = ::std::sync::OnceLock::new();
                DEF.get_or_init(super::#builder)
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
