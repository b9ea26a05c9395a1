//! The languages Ferrocuda's stages speak to each other: the kernel AST that `#[kernel]` builds,
//! the IR the compiler optimizes and the simulator runs, the C format of a device `printf`, and
//! the record a panicking thread leaves for the host.
//!
//! Nothing here compiles or runs anything; every other kernel crate sits above this one.

pub mod ast;
pub mod async_ops;
pub mod float16;
pub mod intrinsic;
pub mod ir;
pub mod panic_record;
pub mod parse;
pub mod print;
pub mod printf;
pub mod props;
pub mod tensor_map;
pub mod ty;
pub mod visit;

pub use ast::GenericValue;
