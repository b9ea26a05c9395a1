//! The porting corpus: classic CUDA kernels written the way a CUDA programmer first ports them
//! to Ferrocuda, each beside a CUDA C twin written the way one first writes it in CUDA
//! (`benches/reference/corpus/*.cu`). It is the measuring instrument for "a kernel written like
//! its CUDA C twin runs as fast as nvcc's build": `cargo xtask bench corpus` times every case
//! against its twin.
//!
//! The plain style, on purpose: `i32` parameters cast to `usize`, `usize` index math, `while`
//! and `for` loops as a C loop would be ported, no `block_dim`, `launch_bounds` or `#[unroll]`
//! attributes, vector types (`float4`, `uint4`, `[u8; 4]` pixels) read and written through plain
//! indexing, `x.exp()` / `x.sqrt()` math. The twins in turn carry no `__restrict__`, no
//! `__launch_bounds__` and no `#pragma unroll`, use `int` indices, and take read-only tables as
//! plain pointer parameters (no `__constant__`). No case may carry a performance attribute its
//! twin lacks.
//!
//! Every case runs on the simulator in `cargo test` at a small size (`tests/corpus_sim.rs`) and
//! on the GPU at the timed size, where both sides are checked against the CPU reference before
//! they are timed.

pub mod black_scholes;
pub mod convolution;
pub mod elementwise;
pub mod gemv;
pub mod harness;
pub mod histogram;
pub mod image;
pub mod mandelbrot;
pub mod matmul;
pub mod nbody;
pub mod reduce;
pub mod rows;
pub mod scan;
pub mod sort;
pub mod spmv;
pub mod stencil;
pub mod transpose;

use harness::Case;

/// Every case, family by family.
pub fn cases() -> impl Iterator<Item = &'static Case> {
    [
        elementwise::CASES,
        transpose::CASES,
        matmul::CASES,
        reduce::CASES,
        scan::CASES,
        histogram::CASES,
        stencil::CASES,
        convolution::CASES,
        rows::CASES,
        sort::CASES,
        spmv::CASES,
        nbody::CASES,
        black_scholes::CASES,
        mandelbrot::CASES,
        image::CASES,
        gemv::CASES,
    ]
    .into_iter()
    .flatten()
}

/// The case named `name`.
pub fn find(name: &str) -> Option<&'static Case> {
    cases().find(|c| c.name == name)
}
