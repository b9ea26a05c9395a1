//! Ferrocuda's device side: the API kernels call, the kernel AST and IR, the compiler from AST to
//! PTX, and the simulator that runs the same optimized IR on the CPU.
//!
//! Pipeline (each stage dumpable with `cargo xtask ptx --stage ...`):
//! `ast::FnDef` --frontend--> `ir::Kernel` --passes--> optimized `ir::Kernel` --ptx--> PTX text.

// Lets `#[device]` code inside this crate name `::ferrocuda::__private::...` like user code does.
extern crate self as ferrocuda;

pub mod api;
pub mod ast;
pub mod compile;
pub mod error;
pub mod frontend;
pub mod intrinsics;
pub mod ir;
pub mod ir_print;
#[doc(hidden)]
pub mod macro_checks;
pub mod math;
pub mod panic_record;
pub mod passes;
pub mod printf;
pub mod ptx;
pub mod ptxas;
pub mod sim;

pub use compile::{compile, CompileOptions, Compiled, GenericValue};
pub use error::CompileError;

/// Paths used by macro-generated code; not a public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::api::{DeviceCopy, DeviceType};
    pub use crate::ast;
    pub use crate::compile::GenericValue;
    pub use crate::macro_checks::{const_value, declare_at_module_level, not_a_device_fn};
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
