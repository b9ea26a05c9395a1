//! Types as written by the user -> `ast::Type`.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;
use syn::Type;

use super::{err_spanned, Lower};
use crate::paths;

/// Maps a primitive scalar type path to its `ast::Type` constructor.
pub(crate) fn primitive(path: &syn::Path) -> Option<TokenStream> {
    let a = super::ast();
    let last = path.segments.last()?;
    if !last.arguments.is_none() {
        return None;
    }
    let name = last.ident.to_string();
    let n = path.segments.len();
    let is_half = name == "f16" || name == "bf16";
    let qualified_ok = n == 1 || is_half || (n >= 2 && path.segments[n - 2].ident == "primitive");
    if !qualified_ok {
        return None;
    }
    let int = |v: &str| {
        let v = syn::Ident::new(v, proc_macro2::Span::call_site());
        quote!(#a::Type::Int(#a::IntTy::#v))
    };
    let float = |v: &str| {
        let v = syn::Ident::new(v, proc_macro2::Span::call_site());
        quote!(#a::Type::Float(#a::FloatTy::#v))
    };
    Some(match name.as_str() {
        "bool" => quote!(#a::Type::Bool),
        "i8" => int("I8"),
        "i16" => int("I16"),
        "i32" => int("I32"),
        "i64" => int("I64"),
        "isize" => int("Isize"),
        "u8" => int("U8"),
        "u16" => int("U16"),
        "u32" => int("U32"),
        "u64" => int("U64"),
        "usize" => int("Usize"),
        "f16" => float("F16"),
        "bf16" => float("BF16"),
        "f32" => float("F32"),
        "f64" => float("F64"),
        _ => return None,
    })
}

/// A path that is neither a primitive nor `Self`: lowered to a struct reference.
pub(crate) fn is_named_type(path: &syn::Path) -> bool {
    primitive(path).is_none() && !path.is_ident("Self")
}

/// Rejects the type forms no device code may use, with a message naming the alternative.
/// Shared by functions and `#[derive(DeviceCopy)]`.
pub(crate) fn reject_unsupported_type(ty: &Type) -> syn::Result<()> {
    match ty {
        Type::Ptr(_) => err_spanned(
            ty,
            "raw pointers are not supported in device code; use slices `&[T]` / `&mut [T]`",
        ),
        Type::TraitObject(_) => err_spanned(
            ty,
            "trait objects (`dyn Trait`) are not supported in device code; use a generic parameter `<T: Trait>`",
        ),
        Type::ImplTrait(_) => err_spanned(
            ty,
            "`impl Trait` is not supported in device code; declare a generic parameter `<T: Trait>` instead",
        ),
        Type::BareFn(_) => err_spanned(
            ty,
            "function pointers are not supported in device code; call a `#[device]` fn by name",
        ),
        Type::Never(_) => err_spanned(ty, "the never type `!` is not supported in device code"),
        Type::Macro(_) | Type::Verbatim(_) => err_spanned(
            ty,
            "unsupported type; device code supports scalars, `f16`/`bf16`, arrays `[T; N]`, \
             `&[T]`, `&mut [T]`, `&T`, tuples, generic parameters and #[derive(DeviceCopy)] structs",
        ),
        Type::Path(p) => {
            for seg in &p.path.segments {
                let name = seg.ident.to_string();
                if super::methods::HEAP_TYPES.contains(&name.as_str()) {
                    return err_spanned(ty, super::methods::heap_message(&name));
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

impl Lower {
    /// `ast::Type` tokens for a user type.
    pub(crate) fn lower_type(&mut self, ty: &Type) -> syn::Result<TokenStream> {
        let a = super::ast();
        reject_unsupported_type(ty)?;
        match ty {
            Type::Paren(p) => self.lower_type(&p.elem),
            Type::Group(g) => self.lower_type(&g.elem),
            Type::Infer(_) => Ok(quote!(#a::Type::Infer)),
            Type::Tuple(t) if t.elems.is_empty() => Ok(quote!(#a::Type::Unit)),
            Type::Tuple(t) => {
                let elems = t
                    .elems
                    .iter()
                    .map(|e| self.lower_type(e))
                    .collect::<syn::Result<Vec<_>>>()?;
                Ok(quote!(#a::Type::Tuple(::std::vec::Vec::from([#(#elems),*]))))
            }
            Type::Array(arr) => {
                let elem = self.lower_type(&arr.elem)?;
                let len = self.lower_expr(&arr.len)?;
                Ok(
                    quote!(#a::Type::Array(::std::boxed::Box::new(#elem), ::std::boxed::Box::new(#len))),
                )
            }
            Type::Slice(_) => err_spanned(
                ty,
                "unsized slice types are not supported here; use a reference `&[T]` / `&mut [T]`",
            ),
            Type::Reference(r) => {
                if let Some(lt) = &r.lifetime {
                    if lt.ident != "static" && lt.ident != "_" {
                        return err_spanned(
                            lt,
                            "named lifetimes are not supported in device code; leave lifetimes elided",
                        );
                    }
                }
                let m = if r.mutability.is_some() {
                    quote!(#a::Mutability::Mut)
                } else {
                    quote!(#a::Mutability::Not)
                };
                match &*r.elem {
                    Type::Slice(s) => {
                        let elem = self.lower_type(&s.elem)?;
                        Ok(quote!(#a::Type::Slice(::std::boxed::Box::new(#elem), #m)))
                    }
                    elem => {
                        let elem = self.lower_type(elem)?;
                        Ok(quote!(#a::Type::Ref(::std::boxed::Box::new(#elem), #m)))
                    }
                }
            }
            Type::Path(p) => {
                if p.qself.is_some() {
                    return err_spanned(
                        ty,
                        "qualified types (`<T as Trait>::Assoc`) are not supported in device code",
                    );
                }
                if let Some(prim) = primitive(&p.path) {
                    return Ok(prim);
                }
                if let Some(id) = p.path.get_ident() {
                    let name = id.to_string();
                    if self.type_params.contains(&name) {
                        return Ok(quote!(#a::Type::Param(::std::string::String::from(#name))));
                    }
                    if name == "Self" {
                        return err_spanned(
                            ty,
                            "`Self` is not supported in device code; name the type",
                        );
                    }
                }
                self.named_type(&p.path)
            }
            _ => err_spanned(ty, "unsupported type in device code"),
        }
    }

    /// `ast::StructRef` tokens for a struct named by `path`; rustc checks that it derives
    /// `DeviceCopy`, reporting at the user's path.
    pub(crate) fn struct_ref(&self, path: &syn::Path) -> syn::Result<TokenStream> {
        let a = super::ast();
        let p = paths::private();
        for seg in &path.segments {
            if !seg.arguments.is_none() {
                return err_spanned(
                    path,
                    "generic structs are not supported in device code; #[derive(DeviceCopy)] structs have no generic parameters",
                );
            }
        }
        let name = path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default();
        let span = path.span();
        let def = quote_spanned!(span=> <#path as #p::DeviceCopy>::struct_def);
        Ok(quote!(#a::StructRef { name: #name, def: #def }))
    }

    /// A named type other than a primitive or generic parameter: a `#[derive(DeviceCopy)]` struct
    /// or an alias (`type Real = f32;`). rustc resolves it and its `DeviceType` impl describes it,
    /// reporting a missing impl at the user's path.
    /// Generic arguments are passed through to rustc (`wmma::Fragment<MatrixA, 16, 16, 16, f16,
    /// RowMajor>`, whose instances implement `DeviceType` one by one), as long as they do not
    /// name the function's own type parameters, which the builder cannot see.
    fn named_type(&self, path: &syn::Path) -> syn::Result<TokenStream> {
        let p = paths::private();
        for seg in &path.segments {
            match &seg.arguments {
                syn::PathArguments::None => {}
                syn::PathArguments::AngleBracketed(args) if !self.mentions_type_param(args) => {}
                _ => {
                    return err_spanned(
                        path,
                        "generic types are not supported in device code (except wmma fragments with concrete arguments); #[derive(DeviceCopy)] structs have no generic parameters",
                    );
                }
            }
        }
        let span = path.span();
        Ok(quote_spanned!(span=> <#path as #p::DeviceType>::ast_type()))
    }
}

impl Lower {
    /// Whether generic arguments mention a type parameter of the function being lowered.
    fn mentions_type_param(&self, args: &syn::AngleBracketedGenericArguments) -> bool {
        struct Finder<'a>(&'a std::collections::HashSet<String>, bool);
        impl<'ast> syn::visit::Visit<'ast> for Finder<'_> {
            fn visit_ident(&mut self, i: &'ast proc_macro2::Ident) {
                self.1 |= self.0.contains(&i.to_string());
            }
        }
        let mut f = Finder(&self.type_params, false);
        syn::visit::Visit::visit_angle_bracketed_generic_arguments(&mut f, args);
        f.1
    }
}

/// Whether `ty` is a reference to something (used for kernel return checks).
pub(crate) fn contains_reference(ty: &Type) -> bool {
    struct Finder(bool);
    impl<'ast> syn::visit::Visit<'ast> for Finder {
        fn visit_type_reference(&mut self, _: &'ast syn::TypeReference) {
            self.0 = true;
        }
    }
    let mut f = Finder(false);
    syn::visit::Visit::visit_type(&mut f, ty);
    f.0
}
