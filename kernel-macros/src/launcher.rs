//! `name::launch(stream, cfg, args...)`, following host-runtime's `launch_api` contract: one
//! argument pointer per user parameter, slices as `SliceArg` (checked against the stream's device
//! by `launch_arg`), values by their own bytes, and for
//! generic kernels an allocation-free instance key plus a closure building the generic values.

use std::collections::HashSet;

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::visit_mut::VisitMut;
use syn::{FnArg, GenericParam, ItemFn, Pat, Type};

use crate::lower::err_spanned;
use crate::paths;

enum ParamClass {
    Slice {
        elem: Box<Type>,
        mutable: bool,
    },
    /// `&TensorMap` / `&mut TensorMap`: a grid-constant descriptor the host encodes per launch.
    TensorMap {
        mutable: bool,
    },
    Value,
}

/// Whether `ty` names kernel-std's `TensorMap` (by its last path segment: the kernel's own
/// type check then rejects any other struct of that name at the call that uses it).
fn is_tensor_map(ty: &Type) -> bool {
    match ty {
        Type::Paren(p) => is_tensor_map(&p.elem),
        Type::Group(g) => is_tensor_map(&g.elem),
        Type::Path(p) => {
            p.qself.is_none()
                && p.path
                    .segments
                    .last()
                    .is_some_and(|s| s.ident == "TensorMap" && s.arguments.is_none())
        }
        _ => false,
    }
}

fn classify(ty: &Type) -> syn::Result<ParamClass> {
    match ty {
        Type::Paren(p) => classify(&p.elem),
        Type::Group(g) => classify(&g.elem),
        Type::Reference(r) => match &*r.elem {
            Type::Slice(s) => Ok(ParamClass::Slice {
                elem: s.elem.clone(),
                mutable: r.mutability.is_some(),
            }),
            t if is_tensor_map(t) => Ok(ParamClass::TensorMap {
                mutable: r.mutability.is_some(),
            }),
            _ => err_spanned(
                ty,
                "kernel parameters cannot be references to single values; pass the value itself or a \
                 slice `&[T]` / `&mut [T]`",
            ),
        },
        Type::Tuple(_) => err_spanned(
            ty,
            "tuples cannot be kernel parameters (Rust does not fix their layout); use a \
             #[derive(DeviceCopy)] #[repr(C)] struct",
        ),
        Type::Infer(_) => err_spanned(ty, "kernel parameters need a type"),
        _ => Ok(ParamClass::Value),
    }
}

/// Whether rustc must still be asked that a parameter (or slice element) type is a `DeviceType`:
/// named structs are already required to be `DeviceCopy` by the AST builder (one error is enough),
/// primitives and bounded generics always are; arrays and tuples of other things are checked.
fn needs_device_type_check(ty: &Type, generics: &syn::Generics) -> bool {
    match ty {
        Type::Paren(p) => needs_device_type_check(&p.elem, generics),
        Type::Group(g) => needs_device_type_check(&g.elem, generics),
        Type::Array(a) => needs_device_type_check(&a.elem, generics),
        Type::Path(p) if p.qself.is_none() => {
            let is_param = p
                .path
                .get_ident()
                .is_some_and(|id| generics.type_params().any(|t| t.ident == *id));
            !(is_param || crate::lower::is_named_type(&p.path))
        }
        _ => true,
    }
}

/// The launcher lives one module below the kernel: `self::X` / `super::X` in the user's types
/// must go one level further up.
struct Reroot;

impl VisitMut for Reroot {
    fn visit_path_mut(&mut self, path: &mut syn::Path) {
        if path.leading_colon.is_none() {
            if let Some(first) = path.segments.first_mut() {
                if first.ident == "self" {
                    first.ident = syn::Ident::new("super", first.ident.span());
                } else if first.ident == "super" {
                    let sup = syn::PathSegment::from(syn::Ident::new("super", first.ident.span()));
                    path.segments.insert(0, sup);
                }
            }
        }
        syn::visit_mut::visit_path_mut(self, path);
    }
}

pub(crate) fn launch_fn(f: &ItemFn) -> syn::Result<TokenStream> {
    let rt = paths::rt();
    let p = paths::private();
    let sig = &f.sig;
    let names: HashSet<String> = sig
        .inputs
        .iter()
        .filter_map(|a| match a {
            FnArg::Typed(pt) => match &*pt.pat {
                Pat::Ident(i) => Some(i.ident.to_string()),
                _ => None,
            },
            FnArg::Receiver(_) => None,
        })
        .collect();
    let stream = if names.contains("stream") {
        format_ident!("__fc_stream")
    } else {
        format_ident!("stream")
    };
    let cfg = if names.contains("cfg") {
        format_ident!("__fc_cfg")
    } else {
        format_ident!("cfg")
    };

    let mut inputs = Vec::new();
    // The same parameters borrowed for a graph's lifetime `'__fc_g` (graph nodes and exec
    // parameter updates).
    let mut inputs_g = Vec::new();
    let mut prep = Vec::new();
    let mut prep_g = Vec::new();
    let mut ptrs = Vec::new();
    let mut uses_value = false;
    let mut uses_element = false;
    for (i, arg) in sig.inputs.iter().enumerate() {
        let FnArg::Typed(pt) = arg else {
            return err_spanned(arg, "`self` parameters are not supported in kernels");
        };
        let name = match &*pt.pat {
            Pat::Ident(id) => id.ident.clone(),
            _ => format_ident!("__fc_arg{}", i),
        };
        let mut ty = (*pt.ty).clone();
        Reroot.visit_type_mut(&mut ty);
        let span = pt.ty.span();
        let var = format_ident!("__fc_p{}", i);
        // A configured-out parameter is configured out of the launcher too.
        let present = crate::cfg::cfg_attr_tokens(crate::cfg::presence(&pt.attrs)?.as_ref());
        let (n_inputs, n_prep) = (inputs.len(), prep.len());
        let (n_inputs_g, n_prep_g) = (inputs_g.len(), prep_g.len());
        match classify(&ty)? {
            ParamClass::Slice {
                elem,
                mutable: false,
            } => {
                uses_element = true;
                inputs.push(quote!(#name: &impl #rt::KernelSlice<#elem>));
                inputs_g.push(quote!(#name: impl #rt::graph::GraphArg<'__fc_g, #elem>));
                prep.push(quote_spanned!(span=> __fc_element::<#elem>();));
                prep.push(quote!(let mut #var = #rt::KernelSlice::launch_arg(#name, #stream)?;));
                prep_g.push(quote_spanned!(span=> __fc_element::<#elem>();));
                prep_g.push(
                    quote!(let mut #var = #rt::graph::GraphArg::graph_arg(&#name, #stream)?;),
                );
            }
            ParamClass::Slice {
                elem,
                mutable: true,
            } => {
                uses_element = true;
                inputs.push(quote!(#name: &mut impl #rt::KernelSliceMut<#elem>));
                inputs_g.push(quote!(mut #name: impl #rt::graph::GraphArgMut<'__fc_g, #elem>));
                prep.push(quote_spanned!(span=> __fc_element::<#elem>();));
                prep_g.push(quote_spanned!(span=> __fc_element::<#elem>();));
                prep_g.push(
                    quote!(let mut #var = #rt::graph::GraphArgMut::graph_arg_mut(&mut #name, #stream)?;),
                );
                prep.push(
                    quote!(let mut #var = #rt::KernelSliceMut::launch_arg_mut(#name, #stream)?;),
                );
            }
            ParamClass::TensorMap { mutable: false } => {
                inputs.push(quote!(#name: &impl #rt::KernelTensorMap));
                inputs_g.push(quote!(#name: &'__fc_g impl #rt::KernelTensorMap));
                let p = quote!(let mut #var = #rt::KernelTensorMap::launch_arg(#name, #stream)?;);
                prep.push(p.clone());
                prep_g.push(p);
            }
            ParamClass::TensorMap { mutable: true } => {
                inputs.push(quote!(#name: &mut impl #rt::KernelTensorMapMut));
                inputs_g.push(quote!(#name: &'__fc_g mut impl #rt::KernelTensorMapMut));
                let p = quote!(let mut #var = #rt::KernelTensorMapMut::launch_arg_mut(#name, #stream)?;);
                prep.push(p.clone());
                prep_g.push(p);
            }
            ParamClass::Value => {
                inputs.push(quote!(#name: #ty));
                inputs_g.push(quote!(#name: #ty));
                if needs_device_type_check(&ty, &sig.generics) {
                    uses_value = true;
                    let check = quote_spanned!(span=> __fc_value::<#ty>);
                    prep.push(quote!(let mut #var = #check(#name);));
                    prep_g.push(quote!(let mut #var = #check(#name);));
                } else {
                    prep.push(quote!(let mut #var = #name;));
                    prep_g.push(quote!(let mut #var = #name;));
                }
            }
        }
        if !present.is_empty() {
            for t in &mut inputs[n_inputs..] {
                *t = quote!(#present #t);
            }
            for t in &mut inputs_g[n_inputs_g..] {
                *t = quote!(#present #t);
            }
            for t in prep[n_prep..]
                .iter_mut()
                .chain(prep_g[n_prep_g..].iter_mut())
            {
                let is_let = matches!(
                    t.clone().into_iter().next(),
                    Some(proc_macro2::TokenTree::Ident(i)) if i == "let"
                );
                *t = if is_let {
                    quote!(#present #t)
                } else {
                    quote!(#present { #t })
                };
            }
        }
        ptrs.push(quote!(#present (&mut #var as *mut _ as *mut ::core::ffi::c_void)));
    }

    let mut generics = sig.generics.clone();
    let mut types = Vec::new();
    let mut consts = Vec::new();
    let mut values = Vec::new();
    for gp in generics.params.iter_mut() {
        match gp {
            GenericParam::Type(t) => {
                Reroot.visit_type_param_mut(t);
                let id = &t.ident;
                t.bounds.push(syn::parse_quote!(#p::DeviceType));
                types.push(quote!(::core::any::TypeId::of::<#id>()));
                values.push(quote!(#p::GenericValue::Type(<#id as #p::DeviceType>::ast_type())));
            }
            GenericParam::Const(c) => {
                let id = &c.ident;
                consts.push(quote!(#id as i128));
                values.push(quote!(#p::GenericValue::Const(#id as i128)));
            }
            GenericParam::Lifetime(l) => {
                return err_spanned(l, "lifetime parameters are not supported in kernels");
            }
        }
    }
    if let Some(wc) = generics.where_clause.as_mut() {
        Reroot.visit_where_clause_mut(wc);
    }
    let (impl_generics, _, where_clause) = generics.split_for_impl();
    let mut generics_g = generics.clone();
    generics_g
        .params
        .insert(0, GenericParam::Lifetime(syn::parse_quote!('__fc_g)));
    let (impl_generics_g, _, _) = generics_g.split_for_impl();
    let key = if types.is_empty() && consts.is_empty() {
        quote! {
            let __fc_key = #rt::InstanceKey::EMPTY;
            let __fc_generics = || -> ::std::vec::Vec<#p::GenericValue> { ::std::vec::Vec::new() };
        }
    } else {
        let (nt, nc) = (types.len(), consts.len());
        quote! {
            let __fc_types: [::core::any::TypeId; #nt] = [#(#types),*];
            let __fc_consts: [i128; #nc] = [#(#consts),*];
            let __fc_key = #rt::InstanceKey::new(&__fc_types, &__fc_consts);
            let __fc_generics = || -> ::std::vec::Vec<#p::GenericValue> { ::std::vec![#(#values),*] };
        }
    };
    let value_check = uses_value.then(|| quote!(fn __fc_value<T: #p::DeviceType>(v: T) -> T { v }));
    let element_check = uses_element.then(|| quote!(fn __fc_element<T: #p::DeviceType>() {}));
    let doc = format!(
        "Launches `{}` on `stream` with the grid/block/shared memory of `cfg`.",
        sig.ident
    );
    let node_doc = format!(
        "Adds a kernel node running `{}` with `cfg` to `graph`, after `deps`: the arguments are \
         checked as for `launch` and borrowed for the graph's lifetime.",
        sig.ident
    );
    let params_doc = format!(
        "Gives kernel node `node` of `exec` (a node of `{}`) new arguments and configuration, \
         checked as for `launch`; the next launch of `exec` uses them.",
        sig.ident
    );
    Ok(quote! {
        #[doc = #node_doc]
        #[allow(clippy::too_many_arguments, clippy::needless_borrow)]
        pub fn node #impl_generics_g (
            __fc_graph: &mut #rt::Graph<'__fc_g>,
            #cfg: impl ::core::convert::Into<#rt::LaunchConfig>,
            __fc_deps: &[#rt::GraphNode],
            #(#inputs_g),*
        ) -> #rt::Result<#rt::GraphNode> #where_clause {
            #value_check
            #element_check
            let #stream: &#rt::Stream = &#rt::graph::graph_node_stream(__fc_graph);
            #(#prep_g)*
            let __fc_args: &mut [*mut ::core::ffi::c_void] = &mut [#(#ptrs),*];
            #key
            #rt::graph::add_kernel_node(
                __fc_graph,
                &KERNEL,
                &__fc_key,
                &__fc_generics,
                ::core::convert::Into::into(#cfg),
                __fc_deps,
                __fc_args,
            )
        }

        #[doc = #params_doc]
        #[allow(clippy::too_many_arguments, clippy::needless_borrow)]
        pub fn set_node_params #impl_generics_g (
            __fc_exec: &mut #rt::GraphExec<'__fc_g>,
            __fc_node: #rt::GraphNode,
            #cfg: impl ::core::convert::Into<#rt::LaunchConfig>,
            #(#inputs_g),*
        ) -> #rt::Result<()> #where_clause {
            #value_check
            #element_check
            let #stream: &#rt::Stream = &#rt::graph::exec_node_stream(__fc_exec);
            #(#prep_g)*
            let __fc_args: &mut [*mut ::core::ffi::c_void] = &mut [#(#ptrs),*];
            #key
            #rt::graph::set_kernel_node_params(
                __fc_exec,
                &KERNEL,
                &__fc_key,
                &__fc_generics,
                ::core::convert::Into::into(#cfg),
                __fc_node,
                __fc_args,
            )
        }

        #[doc = #doc]
        #[allow(clippy::too_many_arguments, clippy::needless_borrow)]
        pub fn launch #impl_generics (
            #stream: &#rt::Stream,
            #cfg: impl ::core::convert::Into<#rt::LaunchConfig>,
            #(#inputs),*
        ) -> #rt::Result<()> #where_clause {
            #value_check
            #element_check
            #(#prep)*
            let __fc_args: &mut [*mut ::core::ffi::c_void] = &mut [#(#ptrs),*];
            #key
            #rt::launch_kernel(
                #stream,
                &KERNEL,
                &__fc_key,
                &__fc_generics,
                ::core::convert::Into::into(#cfg),
                __fc_args,
            )
        }
    })
}
