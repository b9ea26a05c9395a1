//! Build-time checks of what device code calls: method names (against the compiler's own list,
//! `kernel-compiler/src/frontend/method_names.rs`, compiled in here) and paths the device can never
//! call (the standard library, heap types, `Option`), each with a message that says what to
//! write instead.

use proc_macro2::Span;

use super::err;

#[allow(dead_code)]
mod names {
    include!("../../../kernel-compiler/src/frontend/method_names.rs");
}

pub(crate) use names::{CONTAINER_METHODS, CONVERSIONS, MATH_METHODS, SCALAR_METHODS};

const OPTION_HELP: &str = "`Option` and `Result` do not exist on the device";

/// Why a method outside the list is missing, and what to write instead.
fn method_hint(name: &str) -> String {
    specific_hint(name).unwrap_or_else(|| {
        format!(
            "method `{name}` is not supported in device code. Device code calls, on slices and \
             arrays: {}; on integers and floats: {}; the math library on floats (`x.sin()`, \
             `x.exp()`, ...). Methods of your own traits are not supported: write a `#[device]` fn",
            CONTAINER_METHODS.join(", "),
            SCALAR_METHODS.join(", ")
        )
    })
}

/// What to write instead of a well-known method device code lacks.
fn specific_hint(name: &str) -> Option<String> {
    let iterator = [
        "sum",
        "product",
        "map",
        "fold",
        "filter",
        "zip",
        "collect",
        "for_each",
        "count",
        "any",
        "all",
        "position",
        "find",
        "take",
        "skip",
        "chain",
        "copied",
        "cloned",
        "into_iter",
        "next",
        "windows",
        "chunks",
        "reduce",
        "min_by",
        "max_by",
        "last",
        "nth",
        "flat_map",
        "scan",
        "take_while",
        "skip_while",
        "fill",
        "copy_from_slice",
        "swap",
        "sort",
        "reverse",
        "contains",
        "first",
        "split_at",
    ];
    if name == "get" || name == "get_mut" {
        return Some(format!(
            "`{name}` returns an `Option`, which does not exist on the device; index with `x[i]` \
             (an out-of-range index is a kernel panic reported on the host) after checking \
             `i < x.len()` if needed"
        ));
    }
    if let Some(op) = name
        .strip_prefix("checked_")
        .or_else(|| name.strip_prefix("overflowing_"))
    {
        return Some(format!(
            "`{name}` returns an `Option` or a tuple with a flag, which device code does not \
             support; check the operands with `if` first, or use `wrapping_{op}` / \
             `saturating_{op}` where they exist"
        ));
    }
    if matches!(
        name,
        "unwrap" | "expect" | "unwrap_or" | "is_some" | "is_none" | "ok"
    ) {
        return Some(format!("`{name}`: {OPTION_HELP}"));
    }
    if iterator.contains(&name) {
        return Some(format!(
            "`{name}` is not supported in device code: iterator adapters and slice algorithms are \
             not available; write a `for` loop (`for i in 0..x.len()`, `for v in x.iter()`)"
        ));
    }
    if matches!(name, "clone" | "to_owned" | "copied") {
        return Some(format!(
            "`{name}` is not needed in device code: device values are `Copy`; use the value itself"
        ));
    }
    if matches!(name, "into" | "try_into" | "from" | "try_from" | "as_()") {
        return Some(format!(
            "conversions with `{name}` are not supported in device code; convert with `as` \
             (`x as f32`)"
        ));
    }
    if matches!(
        name,
        "to_string" | "fmt" | "len_utf8" | "as_str" | "chars" | "bytes"
    ) {
        return Some(format!("`{name}`: there are no strings on the device"));
    }
    None
}

/// `x.name(..)`: the name must be one the compiler implements for some receiver.
pub(crate) fn check_method(name: &str, span: Span) -> syn::Result<()> {
    let known = CONTAINER_METHODS.contains(&name)
        || SCALAR_METHODS.contains(&name)
        || MATH_METHODS.contains(&name);
    if known {
        return Ok(());
    }
    err(span, method_hint(name))
}

/// `T::name(..)` / `f32::name(..)`: a scalar method named through its type, or a conversion.
pub(crate) fn check_assoc_fn(ty: &str, name: &str, span: Span) -> syn::Result<()> {
    let known = SCALAR_METHODS.contains(&name)
        || MATH_METHODS.contains(&name)
        || CONVERSIONS.contains(&name);
    if known {
        return Ok(());
    }
    if CONTAINER_METHODS.contains(&name) {
        return err(
            span,
            format!("`{ty}::{name}` is not supported; call it as a method: `x.{name}()`"),
        );
    }
    err(
        span,
        format!(
            "`{ty}::{name}` is not supported in device code. Through a type, device code calls \
             the methods of integers and floats (`f32::max(a, b)`, `T::sqrt(x)`), the math \
             library and `from_bits` / `from_f32` / `from_f64`{}",
            specific_hint(name)
                .map(|h| format!("; {h}"))
                .unwrap_or_default()
        ),
    )
}

/// Paths whose first segment is a standard library crate.
pub(crate) fn is_std_path(path: &syn::Path) -> bool {
    path.segments.len() >= 2
        && matches!(
            path.segments[0].ident.to_string().as_str(),
            "std" | "core" | "alloc"
        )
}

/// A call of a standard library function.
pub(crate) fn std_call(path: &syn::Path, span: Span) -> syn::Result<()> {
    let text = super::path_text(path);
    let name = path
        .segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default();
    let hint = match name.as_str() {
        "swap" => "swap through a temporary: `let t = a; a = b; b = t;`".to_string(),
        "max" | "min" => format!("use the method instead: `a.{name}(b)`"),
        "size_of" | "align_of" | "size_of_val" | "align_of_val" => format!(
            "compute it on the host in a constant, e.g. `const SIZE: usize = \
             core::mem::{name}::<T>();`, and use the constant"
        ),
        "black_box" => "device code has no use for it; use the value itself".to_string(),
        "replace" | "take" => "assign through a temporary: `let old = x; x = new;`".to_string(),
        "drop" | "forget" => "device values need no dropping; leave it out".to_string(),
        _ => "write the operation in device code or as a `#[device]` fn".to_string(),
    };
    err(
        span,
        format!(
            "`{text}` is a host function of the standard library and cannot be called in device \
             code; {hint}"
        ),
    )
}

/// Heap types named as a call's type (`Vec::new()`, `Box::new(5)`).
pub(crate) const HEAP_TYPES: &[&str] = &[
    "String", "str", "Vec", "Box", "Rc", "Arc", "HashMap", "HashSet", "BTreeMap", "BTreeSet",
    "VecDeque", "Cow", "CString", "CStr", "OsString",
];

pub(crate) fn heap_message(name: &str) -> String {
    format!(
        "`{name}` is not supported in device code: there is no heap or string type on the \
         device; use slices `&[T]` / `&mut [T]` or arrays `[T; N]`"
    )
}

/// `Some`, `None`, `Ok`, `Err`.
pub(crate) fn is_option_variant(name: &str) -> bool {
    matches!(name, "Some" | "None" | "Ok" | "Err" | "Option" | "Result")
}

pub(crate) fn option_message(name: &str) -> String {
    format!("`{name}`: {OPTION_HELP}; use a flag or a sentinel value (e.g. `u32::MAX`) instead")
}

/// A name written like a type, a tuple struct or an enum variant (`Pair`, `Red`), not like a
/// function, a variable or a constant.
pub(crate) fn is_camel(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
        && name.chars().any(|c| c.is_ascii_lowercase())
}

pub(crate) const ENUM_HELP: &str = "enums are not supported in device code; use integer constants \
    (`const RED: u32 = 0;`) and match on them";
