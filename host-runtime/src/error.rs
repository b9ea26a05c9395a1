//! The one error type of the host layer.

/// Every fallible host call returns this.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The kernel compiler rejected the kernel.
    #[error(transparent)]
    Compile(#[from] kernel_std::CompileError),
    /// Placeholder while the runtime is being written.
    #[error("not yet supported: {0}")]
    Unsupported(&'static str),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
