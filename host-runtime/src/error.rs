//! The one error type of the host layer.
//!
//! Every failure is a value: a missing driver, a driver call that failed (with the call's name and
//! the driver's own name and description of the code), a launch the runtime rejected before the
//! driver saw it, a JIT failure with its log, or a panic inside a kernel or a host callback.

use cudarc::driver::sys::CUresult;

use crate::launch_error::LaunchError;
use crate::panic::KernelPanic;

/// Every fallible host call returns this.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The kernel compiler rejected the kernel.
    #[error(transparent)]
    Compile(#[from] kernel_compiler::CompileError),
    /// Placeholder for features a backend does not offer.
    #[error("not supported: {0}")]
    Unsupported(&'static str),
    /// No CUDA driver library (`libcuda.so`) could be loaded on this machine.
    #[error("no CUDA driver found (libcuda could not be loaded)")]
    NoDriver,
    /// The driver loaded but reports no usable device (or not the requested ordinal).
    #[error("no CUDA device available{}", .ordinal.map(|o| format!(" (ordinal {o})")).unwrap_or_default())]
    NoDevice {
        /// The ordinal that was asked for, when one was.
        ordinal: Option<usize>,
    },
    /// A driver call returned an error code.
    #[error("{call} failed: {name} ({meaning})")]
    Driver {
        /// The driver entry point, e.g. `cuMemAlloc_v2`.
        call: &'static str,
        /// The raw result code.
        code: CUresult,
        /// The code's symbolic name, e.g. `CUDA_ERROR_OUT_OF_MEMORY`.
        name: &'static str,
        /// The driver's description of the code.
        meaning: &'static str,
    },
    /// The PTX JIT (or linker) rejected a module.
    #[error("PTX JIT compilation failed{}:\n{log}", .ptx_line.as_ref().map(|(n, t)| format!(" at PTX line {n}: `{}`", t.trim())).unwrap_or_default())]
    Jit {
        /// The JIT's error log followed by its info log.
        log: String,
        /// The first PTX line the log points at (1-based number and its text), when it names one.
        ptx_line: Option<(u32, String)>,
    },
    /// The launch configuration was rejected before reaching the driver.
    #[error("invalid launch: {0}")]
    InvalidLaunch(#[from] LaunchError),
    /// A kernel thread panicked (bounds check, division by zero, `assert!`...).
    #[error(transparent)]
    KernelPanic(#[from] Box<KernelPanic>),
    /// A host callback enqueued with [`crate::Stream::launch_host_fn`] panicked.
    #[error("host callback panicked: {message}")]
    CallbackPanic {
        /// The panic payload, when it was a string.
        message: String,
    },
    /// The simulator caught a bug inside a kernel that a GPU would hide or turn into a fault
    /// (out-of-bounds or misaligned access, shared-memory race, divergent barrier...).
    #[error("{0}")]
    Simulator(Box<kernel_sim::SimError>),
    /// The object belongs to a context that was destroyed by [`crate::Device::recover`].
    #[error("the object belongs to a CUDA context that was reset; re-create it")]
    ContextLost,
    /// Objects of different devices were combined: a buffer, stream, event, module or pool of one
    /// device used with a stream (or buffer) of another. Nothing reached the driver. Peer access
    /// between devices is not supported; copy through the host instead.
    #[error(
        "objects of different devices were combined (memory, streams, events and modules belong to          the device that created them; peer access between devices is not supported)"
    )]
    WrongDevice,
    /// Host and device extents differ.
    #[error("length mismatch: expected {expected} elements, got {got}")]
    LengthMismatch {
        /// Elements the destination (or the call) requires.
        expected: usize,
        /// Elements that were given.
        got: usize,
    },
    /// A range outside a buffer.
    #[error("range {start}..{end} out of bounds for a buffer of {len} elements")]
    OutOfRange {
        /// First element of the range.
        start: usize,
        /// One past the last element of the range.
        end: usize,
        /// Elements in the buffer.
        len: usize,
    },
    /// A graph was built or used in a way the runtime refuses (see [`crate::graph`]).
    #[error("graph: {0}")]
    Graph(#[from] crate::graph::GraphError),
    /// An argument the runtime cannot act on (size overflow, missing symbol, bad option...).
    #[error("invalid argument: {0}")]
    InvalidValue(String),
    /// A tensor map description that breaks an encoding rule (checked before the driver).
    #[error("tensor map: {0}")]
    TensorMap(#[from] crate::tensor_map::TensorMapError),
}

/// The host layer's result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;

impl Error {
    /// Whether this error leaves the CUDA context unusable ("sticky" errors such as an illegal
    /// address or a failed launch): every later call on the context fails the same way until
    /// [`crate::Device::recover`] resets it.
    pub fn is_sticky(&self) -> bool {
        match self {
            Error::Driver { code, .. } => crate::cuda::error_codes::is_sticky(*code),
            _ => false,
        }
    }
}

impl From<KernelPanic> for Error {
    fn from(p: KernelPanic) -> Self {
        Error::KernelPanic(Box::new(p))
    }
}

impl From<crate::access_policy::AccessPolicyError> for Error {
    fn from(e: crate::access_policy::AccessPolicyError) -> Self {
        Error::InvalidValue(e.to_string())
    }
}
