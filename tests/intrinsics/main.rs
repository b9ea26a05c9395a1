//! Device intrinsics of the guide's Appendix B, one module per family: the same test bodies run
//! on the simulator in `cargo test` and on a GPU with `--ignored`. One test binary for all of
//! them, so the GPU bundle carries one copy of the compiler instead of seven.

mod intr_common;

mod alloca;
mod assume_cvta;
mod async_barrier;
mod async_copy;
mod atomic_cas16;
mod cluster;
mod dsmem;
mod half_div_atomics;
mod half_vector;
mod heap;
mod integer;
mod memory_misc;
mod tma;
mod vector_access;
mod wmma;
