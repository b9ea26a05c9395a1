//! `#[kernel]`, `#[device]`, `#[derive(DeviceCopy)]`.

use proc_macro::TokenStream;

/// Marks a function as a GPU kernel (placeholder until the macro lands: emits the function unchanged).
#[proc_macro_attribute]
pub fn kernel(_attr: TokenStream, item: TokenStream) -> TokenStream {
    item
}

/// Marks a function as callable from kernels (placeholder until the macro lands).
#[proc_macro_attribute]
pub fn device(_attr: TokenStream, item: TokenStream) -> TokenStream {
    item
}

/// Derives `DeviceCopy` (placeholder until the macro lands).
#[proc_macro_derive(DeviceCopy)]
pub fn derive_device_copy(_item: TokenStream) -> TokenStream {
    TokenStream::new()
}
