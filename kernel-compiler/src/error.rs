//! Compile errors, reported like rustc's: `file:line:col: message`.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileError {
    /// `module::function` of the kernel being compiled.
    pub kernel: String,
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: error compiling kernel `{}`: {}",
            self.file, self.line, self.col, self.kernel, self.message
        )
    }
}

impl std::error::Error for CompileError {}
