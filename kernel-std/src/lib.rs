//! Ferrocuda's device standard library: the functions and types kernels call (`thread_idx()`,
//! `sync_threads()`, warp collectives, atomics, math...), each with its intrinsic-table entry (PTX
//! lowering and simulator semantics) and the math library written in the kernel language.

// Lets `#[device]` code inside this crate name `::ferrocuda::__private::...` like user code does.
extern crate self as ferrocuda;

pub mod api;
pub mod groups;
pub mod intrinsics;
#[doc(hidden)]
pub mod macro_checks;
pub mod math;
mod types;

/// Paths used by macro-generated code; not a public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::macro_checks::{const_value, declare_at_module_level, not_a_device_fn};
    pub use crate::types::{DeviceCopy, DeviceType};
    pub use kernel_ir::ast;
    pub use kernel_ir::GenericValue;
}

/// CUDA's device `printf` with Rust's format syntax: prints numbers from a kernel.
///
/// Inside `#[kernel]` / `#[device]` code the attribute macro compiles each call to a `vprintf`
/// call with a C format string (`docs/printf.md` tells how Rust specs map to C conversions and
/// what is rejected); the GPU driver prints the text to stdout when the host synchronizes, the
/// simulator as each thread runs. This `macro_rules!` definition only serves the hidden host copy of the
/// kernel that rustc type-checks, so rustc checks the format string and that every argument
/// implements the trait its placeholder names, exactly as for `print!`. Called in ordinary host
/// code it prints nothing (it cannot panic like the device-only functions: the host copy of
/// every kernel that prints would then end in unreachable code).
///
/// On the simulator, `kernel_sim::capture_output` collects what the launches inside it print
/// (what a test of printed output needs); on a GPU the driver writes to the process's stdout.
///
/// ```
/// use ferrocuda::prelude::*;
///
/// #[kernel]
/// pub fn show(x: &[f32]) {
///     let i = thread_idx().x;
///     gpu_print!("thread {:>2}: {:.3}", i, x[i as usize]);
///     gpu_print!(" bits {:#x} {:e}\n", x[i as usize].to_bits(), x[i as usize]);
/// }
///
/// fn main() -> Result<()> {
///     let dev = Device::simulator();
///     let s = dev.new_stream()?;
///     let x = dev.upload(&[0.5f32, -1.25])?;
///     let (launched, text) = ferrocuda::kernel_sim::capture_output(|| {
///         show::launch(&s, LaunchConfig::for_elements(2, 2), &x) // two threads
///     });
///     launched?;
///     s.synchronize()?;
///     // C's `%e` form, as CUDA's printf writes it.
///     assert_eq!(
///         text,
///         "thread  0: 0.500 bits 0x3f000000 5.000000e-01\n\
///          thread  1: -1.250 bits 0xbfa00000 -1.250000e+00\n"
///     );
///     Ok(())
/// }
/// ```
#[macro_export]
macro_rules! gpu_print {
    ($($arg:tt)*) => {{
        let _ = ::core::format_args!($($arg)*);
    }};
}

/// [`gpu_print!`] followed by a newline (CUDA `printf("...\n")`).
///
/// ```
/// use ferrocuda::prelude::*;
///
/// #[kernel]
/// pub fn hello(tag: u32) {
///     if thread_idx().x % 16 == 0 {
///         gpu_println!("block {} thread {:>2}: tag {:04x}", block_idx().x, thread_idx().x, tag);
///     }
/// }
///
/// fn main() -> Result<()> {
///     let dev = Device::simulator();
///     let s = dev.new_stream()?;
///     let (launched, text) = ferrocuda::kernel_sim::capture_output(|| {
///         hello::launch(&s, LaunchConfig::for_elements(64, 32), 0xbeef) // 2 blocks of 32
///     });
///     launched?;
///     let mut lines: Vec<&str> = text.lines().collect();
///     lines.sort(); // a GPU prints in no fixed order
///     assert_eq!(
///         lines,
///         [
///             "block 0 thread  0: tag beef",
///             "block 0 thread 16: tag beef",
///             "block 1 thread  0: tag beef",
///             "block 1 thread 16: tag beef",
///         ]
///     );
///     Ok(())
/// }
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
