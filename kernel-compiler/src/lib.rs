//! The compiler from kernel AST to PTX.
//!
//! Pipeline (each stage dumpable with `cargo xtask ptx --stage ...`):
//! `ast::FnDef` --[`frontend`]--> `ir::Kernel` --[`passes`]--> optimized `ir::Kernel`
//! --[`ptx`]--> PTX text. [`compile`] runs them in order; [`options`] says what is asked for.

pub mod compile;
pub mod error;
pub mod frontend;
pub mod ir_text;
pub mod options;
pub mod passes;
pub mod ptx;
pub mod specialize;

pub use compile::{compile, lower, Compiled};
pub use error::CompileError;
pub use ir_text::parse_ir;
pub use options::CompileOptions;
pub use specialize::Specialization;
