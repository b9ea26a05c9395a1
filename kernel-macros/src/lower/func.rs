//! A whole function -> the builder expression of its `ast::FnDef`.

use proc_macro2::TokenStream;
use quote::quote;
use syn::spanned::Spanned;
use syn::{FnArg, GenericParam, ItemFn, Pat, ReturnType, Type, WherePredicate};

use super::macros::pretty;
use super::types::contains_reference;
use super::{err_spanned, store, Elem, Lower};
use crate::attrs::KernelAttrs;
use crate::paths;
use crate::span::span_value;

pub(crate) enum FnKind<'a> {
    Kernel(&'a KernelAttrs),
    Device,
}

/// The parts of the builder.
pub(crate) struct LoweredFn {
    /// An expression of type `ast::FnDef`.
    pub def: TokenStream,
    /// Whether the body has operator chains long enough to regroup in a host copy.
    pub long_chains: bool,
}

fn opt_u32(v: Option<u32>) -> TokenStream {
    match v {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

/// Rejects signature forms neither kernels nor device functions support.
fn check_signature(f: &ItemFn, kernel: bool) -> syn::Result<()> {
    let what = if kernel {
        "kernels"
    } else {
        "device functions"
    };
    let sig = &f.sig;
    if let Some(t) = &sig.asyncness {
        return err_spanned(
            t,
            format!("`async fn` is not supported: {what} are ordinary synchronous functions"),
        );
    }
    if let Some(t) = &sig.unsafety {
        return err_spanned(
            t,
            format!(
                "`unsafe fn` is not supported for {what}; keep the function safe and use \
                 `unsafe {{ *x.get_unchecked(i) }}` inside if needed"
            ),
        );
    }
    if let Some(abi) = &sig.abi {
        return err_spanned(
            abi,
            format!("`extern` ABIs are not supported for {what}; the macro chooses the ABI"),
        );
    }
    if let Some(v) = &sig.variadic {
        return err_spanned(
            v,
            format!("variadic parameters are not supported for {what}"),
        );
    }
    if kernel {
        if let Some(c) = &sig.constness {
            return err_spanned(c, "a kernel cannot be a `const fn`");
        }
        if let ReturnType::Type(_, ty) = &sig.output {
            let unit = matches!(&**ty, Type::Tuple(t) if t.elems.is_empty());
            if !unit {
                if contains_reference(ty) {
                    return err_spanned(
                        ty,
                        "kernels cannot return references; kernels return `()` and write results into a \
                         `&mut [T]` parameter",
                    );
                }
                return err_spanned(
                    ty,
                    "kernels must return `()`; write results into a `&mut [T]` parameter instead",
                );
            }
        }
    }
    Ok(())
}

pub(crate) fn lower_fn(f: &ItemFn, kind: FnKind<'_>) -> syn::Result<LoweredFn> {
    let a = super::ast();
    let kernel = matches!(kind, FnKind::Kernel(_));
    check_signature(f, kernel)?;
    let sig = &f.sig;
    let name = sig.ident.to_string();
    let mut lower = Lower::new(name.clone());
    lower.limit_chains = !kernel;

    // Generic parameters first: types and array lengths in the signature may name them.
    for gp in &sig.generics.params {
        let attrs = match gp {
            GenericParam::Lifetime(l) => &l.attrs,
            GenericParam::Type(t) => &t.attrs,
            GenericParam::Const(c) => &c.attrs,
        };
        if let Some(a) = attrs.first() {
            return err_spanned(
                a,
                "attributes (`#[cfg]` included) on generic parameters are not supported in device code",
            );
        }
        match gp {
            GenericParam::Lifetime(l) => {
                return err_spanned(
                    l,
                    "lifetime parameters are not supported in device code; leave lifetimes elided",
                )
            }
            GenericParam::Type(t) => {
                lower.type_params.insert(t.ident.to_string());
            }
            GenericParam::Const(c) => {
                lower.const_params.insert(c.ident.to_string());
            }
        }
    }
    let mut generics = Vec::new();
    for gp in &sig.generics.params {
        match gp {
            GenericParam::Type(t) => {
                if let Some(d) = &t.default {
                    return err_spanned(
                        d,
                        "default generic types are not supported in device code",
                    );
                }
                let mut bounds: Vec<String> = t
                    .bounds
                    .iter()
                    .filter(|b| !matches!(b, syn::TypeParamBound::Lifetime(_)))
                    .map(|b| pretty(&quote!(#b)))
                    .collect();
                if let Some(wc) = &sig.generics.where_clause {
                    for pred in &wc.predicates {
                        if let WherePredicate::Type(pt) = pred {
                            let is_t = matches!(&pt.bounded_ty, Type::Path(p) if p.path.is_ident(&t.ident));
                            if is_t {
                                bounds.extend(
                                    pt.bounds
                                        .iter()
                                        .filter(|b| !matches!(b, syn::TypeParamBound::Lifetime(_)))
                                        .map(|b| pretty(&quote!(#b))),
                                );
                            }
                        }
                    }
                }
                let n = t.ident.to_string();
                generics.push(quote!(#a::Generic::Type {
                    name: ::std::string::String::from(#n),
                    bounds: ::std::vec::Vec::from([#(::std::string::String::from(#bounds)),*]),
                }));
            }
            GenericParam::Const(c) => {
                let ok = matches!(&c.ty, Type::Path(p) if p.path.get_ident().is_some_and(|i| {
                    matches!(i.to_string().as_str(),
                        "bool" | "i8" | "i16" | "i32" | "i64" | "isize" | "u8" | "u16" | "u32" | "u64" | "usize")
                }));
                if !ok {
                    return err_spanned(
                        &c.ty,
                        "const generic parameters must be integers or `bool` in device code",
                    );
                }
                let ty = lower.lower_type(&c.ty)?;
                let n = c.ident.to_string();
                generics.push(
                    quote!(#a::Generic::Const { name: ::std::string::String::from(#n), ty: #ty }),
                );
            }
            GenericParam::Lifetime(_) => {}
        }
    }
    if let Some(wc) = &sig.generics.where_clause {
        for pred in &wc.predicates {
            if let WherePredicate::Lifetime(l) = pred {
                return err_spanned(l, "lifetime bounds are not supported in device code");
            }
        }
    }

    let params_start = lower.weight;
    let mut params = Vec::new();
    for arg in &sig.inputs {
        let pt = match arg {
            FnArg::Receiver(r) => {
                return err_spanned(
                    r,
                    "`self` parameters are not supported: kernels and device functions are free functions; \
                     pass the value as an ordinary parameter",
                )
            }
            FnArg::Typed(pt) => pt,
        };
        let (pname, mutable) = match &*pt.pat {
            Pat::Ident(i) if i.by_ref.is_none() && i.subpat.is_none() => {
                (i.ident.to_string(), i.mutability.is_some())
            }
            Pat::Wild(_) => ("_".to_string(), false),
            p => {
                return err_spanned(
                    p,
                    "parameters must be plain names (`x: T` or `mut x: T`); destructure inside the body",
                )
            }
        };
        let pred = crate::cfg::presence(&pt.attrs)?;
        let before = lower.weight;
        let ty = lower.configured(pred.clone(), |l| l.lower_type(&pt.ty))?;
        lower.scopes.bind(&pname);
        let Some(ty) = ty else { continue };
        let span = span_value(pt.pat.span());
        lower.weight += 1;
        params.push(Elem {
            tokens: quote!(#a::Param {
                name: ::std::string::String::from(#pname),
                mutable: #mutable,
                ty: #ty,
                span: #span,
            }),
            cfg: pred,
            weight: lower.weight - before,
        });
    }
    let params = lower.list(params, params_start, quote!(#a::Param));

    let ret = match &sig.output {
        ReturnType::Default => quote!(#a::Type::Unit),
        ReturnType::Type(_, ty) => lower.lower_type(ty)?,
    };
    let body = lower.lower_block(&f.block)?;
    let fn_kind = match kind {
        FnKind::Device => quote!(#a::FnKind::Device),
        FnKind::Kernel(k) => {
            let (t, b, r) = (
                opt_u32(k.max_threads),
                opt_u32(k.min_blocks),
                opt_u32(k.max_registers),
            );
            let d = match k.block_dim {
                Some([x, y, z]) => quote!(::core::option::Option::Some([#x, #y, #z])),
                None => quote!(::core::option::Option::None),
            };
            let c = match k.cluster_dims {
                Some([x, y, z]) => quote!(::core::option::Option::Some([#x, #y, #z])),
                None => quote!(::core::option::Option::None),
            };
            let o = match k.overflow_checks {
                Some(on) => quote!(::core::option::Option::Some(#on)),
                None => quote!(::core::option::Option::None),
            };
            let s = k.specialize.unwrap_or(true);
            quote!(#a::FnKind::Kernel(#a::KernelAttrs {
                max_threads: #t,
                min_blocks: #b,
                max_registers: #r,
                block_dim: #d,
                cluster_dims: #c,
                overflow_checks: #o,
                specialize: #s,
            }))
        }
    };
    let span = span_value(sig.ident.span());
    let hoisted = lower.take_root_hoisted();
    let slots = lower.spills;
    let st = store();
    let private = paths::private();
    let ast_path = paths::ast();
    let def = quote!({
        #[allow(unused_imports)]
        use #ast_path as __fc_a;
        // Where a call's callee path has no companion module (see `call` in lower/expr.rs).
        #[allow(unused_imports)]
        mod __fc_callee {
            pub use #private::not_a_device_fn as __fc_callable;
        }
        let mut __fc_store: ::std::vec::Vec<::core::option::Option<#a::Expr>> = ::std::vec::Vec::new();
        __fc_store.resize_with(#slots, || ::core::option::Option::None);
        let #st: &mut [::core::option::Option<#a::Expr>] = &mut __fc_store;
        #(#hoisted)*
        #a::FnDef {
            name: #name,
            module: ::core::module_path!(),
            file: ::core::file!(),
            span: #span,
            kind: #fn_kind,
            generics: ::std::vec::Vec::from([#(#generics),*]),
            params: #params,
            ret: #ret,
            body: #body,
            // Decided by the profile of the crate the function is written in, not ours.
            overflow_checks: ::core::cfg!(debug_assertions),
        }
    });
    Ok(LoweredFn {
        def,
        long_chains: lower.long_chains,
    })
}
