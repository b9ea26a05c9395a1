//! IR text in: [`parse_ir`] reads what `kernel_ir::print` writes, with intrinsics resolved in
//! the device library's table (the filetests and the round-trip tests use it).

use kernel_ir::ir::Kernel;
use kernel_ir::parse::{parse, ParseError};

/// Parses a kernel printed by `kernel_ir::print` (`impl Display for Kernel`).
pub fn parse_ir(text: &str) -> Result<Kernel, ParseError> {
    parse(text, &kernel_std::intrinsics::lookup)
}
