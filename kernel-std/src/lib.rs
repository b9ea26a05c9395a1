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
}

/// What kernel code imports: `use ferrocuda::prelude::*` re-exports this.
pub mod prelude {
    pub use crate::api::*;
    pub use half::{bf16, f16};
}
