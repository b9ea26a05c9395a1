//! What the tests and tools of the kernel crates share (never a dependency of a library): running
//! NVIDIA's `ptxas` on emitted PTX, building IR kernels by hand and running them on the
//! simulator, and what GPU tests adapt when they run under compute-sanitizer.
// `SimError` travels by value, as in the simulator's own API.
#![allow(clippy::result_large_err)]

pub mod ptxas;
pub mod sanitizer;
pub mod sim;
