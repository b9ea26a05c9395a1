//! Paths of the runtime items that generated code names.

use proc_macro2::TokenStream;
use quote::quote;

/// `kernel_ir::ast`, reached through the facade crate (kernel-std aliases itself as `ferrocuda`).
pub(crate) fn ast() -> TokenStream {
    quote!(::ferrocuda::__private::ast)
}

pub(crate) fn private() -> TokenStream {
    quote!(::ferrocuda::__private)
}

/// The host runtime (`host_runtime`), only available through the facade crate.
pub(crate) fn rt() -> TokenStream {
    quote!(::ferrocuda::__private::rt)
}
