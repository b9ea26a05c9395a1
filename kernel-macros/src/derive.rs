//! `#[derive(DeviceCopy)]`: `DeviceType` + `DeviceCopy` impls describing a `#[repr(C)]` struct's
//! layout and fields, plus a compile-time check that every field type can live on the device.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, Type};

use crate::lower::{err_spanned, reject_unsupported_type};
use crate::paths;

const FIELD_HELP: &str =
    "fields of a DeviceCopy struct must be scalars, `f16`/`bf16`, arrays `[T; N]` \
    or other #[derive(DeviceCopy)] structs";

/// Reads `#[repr(...)]`: requires `C`, refuses `packed`.
fn check_repr(input: &DeriveInput) -> syn::Result<()> {
    let mut has_c = false;
    for attr in input.attrs.iter().filter(|a| a.path().is_ident("repr")) {
        let mut packed = None;
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("C") {
                has_c = true;
            } else if meta.path.is_ident("packed") {
                packed = Some(meta.path.span());
            }
            if meta.input.peek(syn::token::Paren) {
                let _content;
                syn::parenthesized!(_content in meta.input);
                let _: TokenStream = _content.parse()?;
            }
            Ok(())
        })?;
        if let Some(span) = packed {
            return Err(syn::Error::new(
                span,
                "`#[repr(packed)]` structs are not supported by DeviceCopy: the device needs naturally aligned fields",
            ));
        }
    }
    if !has_c {
        return err_spanned(
            &input.ident,
            "#[derive(DeviceCopy)] requires `#[repr(C)]` on the struct so host and device agree on its layout",
        );
    }
    Ok(())
}

fn check_field_type(ty: &Type) -> syn::Result<()> {
    reject_unsupported_type(ty)?;
    match ty {
        Type::Paren(p) => check_field_type(&p.elem),
        Type::Group(g) => check_field_type(&g.elem),
        Type::Array(a) => check_field_type(&a.elem),
        Type::Path(p) => {
            if p.qself.is_some() || p.path.segments.iter().any(|s| !s.arguments.is_none()) {
                return err_spanned(ty, format!("generic field types are not supported; {FIELD_HELP}"));
            }
            Ok(())
        }
        Type::Reference(_) | Type::Slice(_) => err_spanned(
            ty,
            format!("references and slices cannot be fields of a DeviceCopy struct; {FIELD_HELP}"),
        ),
        Type::Tuple(_) => err_spanned(
            ty,
            format!("tuples cannot be fields of a DeviceCopy struct (their layout is not fixed); {FIELD_HELP}"),
        ),
        _ => err_spanned(ty, format!("unsupported field type; {FIELD_HELP}")),
    }
}

pub(crate) fn expand(item: TokenStream) -> syn::Result<TokenStream> {
    let input: DeriveInput = syn::parse2(item)?;
    let fields = match &input.data {
        Data::Struct(s) => &s.fields,
        Data::Enum(e) => {
            return err_spanned(
                e.enum_token,
                "#[derive(DeviceCopy)] supports `#[repr(C)]` structs only, not enums; use an integer field",
            )
        }
        Data::Union(u) => {
            return err_spanned(
                u.union_token,
                "#[derive(DeviceCopy)] supports `#[repr(C)]` structs only, not unions",
            )
        }
    };
    if !input.generics.params.is_empty() {
        return err_spanned(
            &input.generics,
            "#[derive(DeviceCopy)] does not support generic structs; declare one struct per element type",
        );
    }
    check_repr(&input)?;
    let named: Vec<(String, &Type, &[syn::Attribute])> = match fields {
        Fields::Named(n) => n
            .named
            .iter()
            .map(|f| {
                (
                    f.ident.as_ref().map(|i| i.to_string()).unwrap_or_default(),
                    &f.ty,
                    &f.attrs[..],
                )
            })
            .collect(),
        Fields::Unnamed(u) => u
            .unnamed
            .iter()
            .enumerate()
            .map(|(i, f)| (i.to_string(), &f.ty, &f.attrs[..]))
            .collect(),
        Fields::Unit => {
            return err_spanned(
                &input.ident,
                "#[derive(DeviceCopy)] needs a struct with at least one field",
            )
        }
    };
    if named.is_empty() {
        return err_spanned(
            &input.ident,
            "#[derive(DeviceCopy)] needs a struct with at least one field",
        );
    }
    for (_, ty, _) in &named {
        check_field_type(ty)?;
    }

    let a = paths::ast();
    let p = paths::private();
    let ident = &input.ident;
    let name = ident.to_string();
    // rustc removes configured-out fields before a derive sees the struct; a field whose
    // `cfg` is still there (a tool that does not) is kept under the same predicate.
    let mut field_defs = Vec::new();
    for (n, ty, attrs) in &named {
        let span = ty.span();
        let t = quote_spanned!(span=> <#ty as #p::DeviceType>::ast_type());
        let cfg = crate::cfg::cfg_attr_tokens(crate::cfg::presence(attrs)?.as_ref());
        field_defs.push(quote!(#cfg (::std::string::String::from(#n), #t)));
    }
    Ok(quote! {
        // `<F as DeviceType>::ast_type()` below, spanned at each field type, is also the
        // compile-time check that every field type can live on the device.
        const _: () = {
            #[automatically_derived]
            #[allow(unsafe_code)]
            unsafe impl #p::DeviceType for #ident {
                fn ast_type() -> #a::Type {
                    #a::Type::Struct(#a::StructRef {
                        name: #name,
                        def: <#ident as #p::DeviceCopy>::struct_def,
                    })
                }
            }

            #[automatically_derived]
            #[allow(unsafe_code)]
            unsafe impl #p::DeviceCopy for #ident {
                fn struct_def() -> &'static #a::StructDef {
                    static DEF: ::std::sync::OnceLock<#a::StructDef> = ::std::sync::OnceLock::new();
                    DEF.get_or_init(|| #a::StructDef {
                        name: #name,
                        size: ::core::mem::size_of::<#ident>(),
                        align: ::core::mem::align_of::<#ident>(),
                        fields: ::std::vec![#(#field_defs),*],
                    })
                }
            }
        };
    })
}
