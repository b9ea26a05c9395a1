//! `#[kernel]`, `#[device]` and `#[derive(DeviceCopy)]`.
//!
//! Each macro keeps the user's function for rustc to type-check (so type errors carry the user's
//! spans) and adds code that builds the function's `kernel_ir::ast::FnDef` at run time. Names that
//! rustc can resolve (callees, named types, host constants) are emitted as Rust paths inside that
//! code, so `use`, modules and re-exports behave exactly as in ordinary Rust; everything else
//! becomes plain data. Unsupported syntax is a `compile_error!` at the user's span; nothing here
//! panics.
//!
//! Generated items, for `#[device] fn foo` and `#[kernel] fn saxpy`:
//! - `fn foo` unchanged (minus `#[unroll]`-style loop attributes), `fn __fc_build_foo() -> FnDef`,
//!   and `mod foo { pub fn __fc_callable() -> Callable }` with the fn's visibility: a call `foo(x)`
//!   in device code becomes `Callee { path: "foo", resolve: foo::__fc_callable }`.
//! - `fn __fc_host_saxpy` (the body, for rustc only), `fn __fc_build_saxpy() -> FnDef`, and
//!   `mod saxpy { pub fn ast(); pub fn __fc_def(); static KERNEL; pub fn launch(stream, cfg, args..) }`.
//!
//! Kernels and device functions must be declared at module level (the generated modules reach
//! their builders through `super::`).
//!
//! Conventions of the AST this crate builds (what the front end can rely on):
//! - Spans are the first token of a node (1-based line and column, from
//!   `proc_macro::Span::{line, column}`), except: method calls point at the method name (like
//!   rustc's caller locations), `let` at the `let` keyword, `for` at `for` (or its label), blocks at
//!   `{`, match arms at their pattern, the function at its name.
//! - `for` keeps its iterator as written: `Range`, or `MethodCall`s `rev` / `step_by(n)` on one.
//! - `x.len()`, `x.get_unchecked(i)`, `x.get_unchecked_mut(i)` are `MethodCall`s. `unsafe` blocks
//!   become plain `Block`s; they are only accepted around `get_unchecked(_mut)` without calls.
//! - Labels keep their apostrophe (`"'outer"`). Negative integer literals in patterns are stored as
//!   the 128-bit two's complement (`v as i128` recovers them). Float literals are exact (`f64`
//!   bits); an integer literal with a float suffix (`2f32`) is a `Lit::Float`.
//! - `T::NAME` / `<T as Tr>::NAME` with `T` a generic parameter is `AssocConst`; `T::f(..)`,
//!   `<T as Tr>::f(..)` and `f32::f(..)` are `AssocCall`; any other path value is a `HostConst`.
//!   A bare `SCREAMING_CASE` name is a constant in match patterns and in turbofish arguments.
//! - Named types (structs, aliases) are `<P as DeviceType>::ast_type()`, evaluated by the builder.
//! - `debug_assert*!` is an `Assert` only when the user's crate has debug assertions, otherwise
//!   `Tuple([])`; `FnDef::overflow_checks` is the user's crate's `cfg!(debug_assertions)` too;
//!   `matches!(e, p if g)` is a two-arm `Match` yielding `bool` literals.

use proc_macro::TokenStream;

mod attrs;
mod cfg;
#[cfg(test)]
mod corpus;
mod derive;
mod device;
mod kernel;
mod launcher;
mod lower;
mod nesting;
mod paths;
mod rebalance;
mod scope;
mod span;
mod strip;

#[doc = include_str!("../doc/kernel.md")]
#[proc_macro_attribute]
pub fn kernel(attr: TokenStream, item: TokenStream) -> TokenStream {
    kernel::expand(attr.into(), item.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

#[doc = include_str!("../doc/device.md")]
#[proc_macro_attribute]
pub fn device(attr: TokenStream, item: TokenStream) -> TokenStream {
    device::expand(attr.into(), item.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

#[doc = include_str!("../doc/derive_device_copy.md")]
#[proc_macro_derive(DeviceCopy)]
pub fn derive_device_copy(item: TokenStream) -> TokenStream {
    derive::expand(item.into())
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}
