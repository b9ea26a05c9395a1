//! The differential suite's host reference checked against rustc (see `rustc_check.rs`). Its own
//! test binary: the 30 printed kernels are host code and `#[kernel]`s that the GPU bundle, which
//! carries `differential_random`, does not need.

// The generator, printer, reference and simulator runner of `differential_random`; what only its
// GPU run uses is unused here.
#![allow(dead_code)]

#[path = "../differential_random/backends.rs"]
mod backends;
#[path = "../differential_random/compare.rs"]
mod compare;
#[path = "../differential_random/gen.rs"]
mod gen;
#[path = "../differential_random/print.rs"]
mod print;
#[path = "../differential_random/reference.rs"]
mod reference;
#[path = "../differential_random/rng.rs"]
mod rng;
mod rustc_check;
// Generated (see `rustc_check.rs`): compared with the generator's output as printed.
#[rustfmt::skip]
mod rustc_kernels;
#[path = "../differential_random/syntax.rs"]
mod syntax;
#[path = "../differential_random/value.rs"]
mod value;
