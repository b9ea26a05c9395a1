//! Literals -> `ast::Lit`.

use proc_macro2::TokenStream;
use quote::quote;

use super::err_spanned;

fn int_ty(suffix: &str) -> Option<&'static str> {
    Some(match suffix {
        "i8" => "I8",
        "i16" => "I16",
        "i32" => "I32",
        "i64" => "I64",
        "isize" => "Isize",
        "u8" => "U8",
        "u16" => "U16",
        "u32" => "U32",
        "u64" => "U64",
        "usize" => "Usize",
        _ => return None,
    })
}

fn float_ty(suffix: &str) -> Option<&'static str> {
    Some(match suffix {
        "f16" => "F16",
        "f32" => "F32",
        "f64" => "F64",
        _ => return None,
    })
}

fn ident(s: &str) -> syn::Ident {
    syn::Ident::new(s, proc_macro2::Span::call_site())
}

fn float_tokens(v: f64, suffix: &str, lit: &dyn quote::ToTokens) -> syn::Result<TokenStream> {
    let a = super::ast();
    let ty = if suffix.is_empty() {
        quote!(::core::option::Option::None)
    } else if let Some(t) = float_ty(suffix) {
        let t = ident(t);
        quote!(::core::option::Option::Some(#a::FloatTy::#t))
    } else {
        return err_spanned(lit, format!("unsupported float literal suffix `{suffix}`"));
    };
    // Written as bits so that every f64 (and the sign of zero) survives the round trip.
    let bits = v.to_bits();
    Ok(quote!(#a::Lit::Float(::core::primitive::f64::from_bits(#bits), #ty)))
}

/// `ast::Lit` tokens. Negative numbers (which syn accepts in patterns) become the 128-bit two's
/// complement of the value for integers.
pub(crate) fn lower_lit(lit: &syn::Lit) -> syn::Result<TokenStream> {
    let a = super::ast();
    match lit {
        syn::Lit::Bool(b) => {
            let v = b.value;
            Ok(quote!(#a::Lit::Bool(#v)))
        }
        syn::Lit::Int(i) => {
            let suffix = i.suffix();
            if float_ty(suffix).is_some() {
                let v: f64 = i
                    .base10_digits()
                    .parse()
                    .map_err(|_| syn::Error::new_spanned(i, "invalid float literal"))?;
                return float_tokens(v, suffix, i);
            }
            let digits = i.base10_digits();
            let v: u128 = if let Some(neg) = digits.strip_prefix('-') {
                let m: i128 = neg
                    .parse()
                    .map_err(|_| syn::Error::new_spanned(i, "integer literal out of range"))?;
                m.wrapping_neg() as u128
            } else {
                digits
                    .parse()
                    .map_err(|_| syn::Error::new_spanned(i, "integer literal out of range"))?
            };
            let ty = if suffix.is_empty() {
                quote!(::core::option::Option::None)
            } else if let Some(t) = int_ty(suffix) {
                let t = ident(t);
                quote!(::core::option::Option::Some(#a::IntTy::#t))
            } else {
                return err_spanned(i, format!("unsupported integer literal suffix `{suffix}`"));
            };
            Ok(quote!(#a::Lit::Int(#v, #ty)))
        }
        syn::Lit::Float(f) => {
            let v: f64 = f
                .base10_digits()
                .parse()
                .map_err(|_| syn::Error::new_spanned(f, "invalid float literal"))?;
            float_tokens(v, f.suffix(), f)
        }
        syn::Lit::Str(_) | syn::Lit::ByteStr(_) | syn::Lit::CStr(_) => err_spanned(
            lit,
            "string literals are not supported in device code (only in `assert!`/`panic!` messages)",
        ),
        syn::Lit::Byte(b) => {
            let v = u128::from(b.value());
            Ok(quote!(#a::Lit::Int(#v, ::core::option::Option::Some(#a::IntTy::U8))))
        }
        syn::Lit::Char(_) => err_spanned(
            lit,
            "character literals are not supported in device code; use a byte literal `b'a'` or an integer",
        ),
        _ => err_spanned(lit, "unsupported literal in device code"),
    }
}
