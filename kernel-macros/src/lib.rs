//! `#[kernel]`, `#[device]` and `#[derive(DeviceCopy)]`.
//!
//! Each macro keeps the user's function for rustc to type-check (so type errors carry the user's
//! spans) and adds code that builds the function's [`FnDef`] at run time. Names that rustc can
//! resolve (callees, structs, host constants) are emitted as Rust paths inside that code, so `use`,
//! modules and re-exports behave exactly as in ordinary Rust; everything else becomes plain data.
//! Unsupported syntax is reported as a `compile_error!` at the user's span; nothing here panics.
//!
//! [`FnDef`]: https://docs.rs/ferrocuda (kernel_std::ast::FnDef)

use proc_macro::TokenStream;

mod attrs;
mod derive;
mod device;
mod kernel;
mod launcher;
mod lower;
mod paths;
mod scope;
mod span;
mod strip;

/// Marks a function as a GPU kernel and generates `name::launch(stream, cfg, args...)`.
///
/// Options: `#[kernel(launch_bounds(max_threads = N, min_blocks = M), max_registers = R)]`.
#[proc_macro_attribute]
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    kernel::expand(attr.into(), item.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Marks a function as callable from kernels and other device functions.
#[proc_macro_attribute]
pub fn device(attr: TokenStream, item: TokenStream) -> TokenStream {
    device::expand(attr.into(), item.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Makes a `#[repr(C)]` struct usable by value in kernels and as a slice element.
#[proc_macro_derive(DeviceCopy)]
pub fn derive_device_copy(item: TokenStream) -> TokenStream {
    derive::expand(item.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
