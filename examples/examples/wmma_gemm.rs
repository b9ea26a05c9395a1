//! Runs the `wmma_gemm` example (tensor cores, f16 in, f32 out) on the default device (the GPU if
//! there is one, else the simulator) and checks it against an f64 CPU reference.

use ferrocuda_examples::{util::example_main, wmma_gemm};

fn main() -> std::process::ExitCode {
    example_main("wmma_gemm", |dev| wmma_gemm::check(dev, 256, 256, 128))
}
