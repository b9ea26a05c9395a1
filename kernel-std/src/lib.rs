//! Ferrocuda's device standard library: the functions and types kernels call (`thread_idx()`,
//! `sync_threads()`, warp collectives, atomics, math...), each with its intrinsic-table entry (PTX
//! lowering and simulator semantics) and the math library written in the kernel language.

// Lets `#[device]` code inside this crate name `::ferrocuda::__private::...` like user code does.
extern crate self as ferrocuda;

pub mod api;
pub mod intrinsics;
#[doc(hidden)]
pub mod macro_checks;
pub mod math;

/// Paths used by macro-generated code; not a public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::api::{DeviceCopy, DeviceType};
    pub use crate::macro_checks::{const_value, declare_at_module_level, not_a_device_fn};
    pub use kernel_ir::ast;
    pub use kernel_ir::GenericValue;
}

/// CUDA's device `printf` with Rust's format syntax: prints numbers from a kernel.
///
/// Inside `#[kernel]` / `#[device]` code the attribute macro compiles each call to a `vprintf`
/// call with a C format string (see [`printf`] for how Rust specs map to C conversions and what is
/// rejected); the GPU driver prints the text to stdout when the host synchronizes, the simulator
/// as each thread runs. This `macro_rules!` definition only serves the hidden host copy of the
/// kernel that rustc type-checks, so rustc checks the format string and that every argument
/// implements the trait its placeholder names, exactly as for `print!`. Called in ordinary host
/// code it prints nothing (it cannot panic like the device-only functions: the host copy of
/// every kernel that prints would then end in unreachable code).
///
/// ```ignore
/// gpu_print!("block {} thread {}: {:.3}", block_idx().x, thread_idx().x, x);
/// ```
#[macro_export]
macro_rules! gpu_print {
    ($($arg:tt)*) => {{
        let _ = ::core::format_args!($($arg)*);
    }};
}

/// [`gpu_print!`] followed by a newline (CUDA `printf("...\n")`).
///
/// ```ignore
/// gpu_println!("thread {:>3}: {:x}", thread_idx().x, bits);
/// ```
#[macro_export]
macro_rules! gpu_println {
    () => {{}};
    ($($arg:tt)*) => {{
        let _ = ::core::format_args!($($arg)*);
    }};
}

/// What kernel code imports: `use ferrocuda::prelude::*` re-exports this.
pub mod prelude {
    pub use crate::api::*;
    pub use crate::{gpu_print, gpu_println};
    pub use half::{bf16, f16};
}
