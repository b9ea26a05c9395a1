//! PTX emission from optimized IR.

use crate::compile::CompileOptions;
use crate::error::CompileError;
use crate::ir::Kernel;

pub fn emit(kernel: &Kernel, _opts: &CompileOptions) -> Result<String, CompileError> {
    Err(CompileError {
        kernel: kernel.display_name.clone(),
        file: String::new(),
        line: 0,
        col: 0,
        message: "PTX emitter not written yet".into(),
    })
}
