//! Every example against its CPU reference on the default device: the simulator in `cargo test`
//! (no GPU here), the GPU when run from the gpu-bundle with `--include-ignored`.

use ferrocuda::prelude::*;
use ferrocuda_examples::{
    async_barriers, async_matmul, clock, reverse, saxpy, sgemm, transpose, vector_add, wmma_gemm,
};

fn sim() -> Device {
    Device::simulator()
}

#[test]
fn vector_add_sim() {
    vector_add::check(&sim(), 10_000).unwrap();
}

#[test]
fn saxpy_sim() {
    saxpy::check(&sim(), 10_001).unwrap();
}

#[test]
fn async_barriers_sim() {
    async_barriers::check(&sim()).unwrap();
}

#[test]
fn async_matmul_sim() {
    // 16 x 16 tiles, then 32 x 32 ones (the 8-stage pipeline's 64 KiB of dynamic shared
    // memory is past the 48 KiB default: the launch opts in).
    async_matmul::check(&sim(), 48, 64, 32, true).unwrap();
    async_matmul::check(&sim(), 64, 96, 64, false).unwrap();
}

#[test]
fn reverse_sim() {
    reverse::check(&sim(), 8).unwrap();
}

#[test]
fn transpose_sim() {
    transpose::check(&sim(), 100, 70).unwrap();
}

#[test]
fn transpose_short_input_reports_the_first_failing_row_sim() {
    transpose::check_short_input(&sim()).unwrap();
}

#[test]
fn transpose_refuses_another_block_shape_sim() {
    transpose::check_wrong_block(&sim()).unwrap();
}

#[test]
fn sgemm_sim() {
    sgemm::check(&sim(), 128, 256, 16).unwrap();
}

#[test]
fn wmma_gemm_sim() {
    wmma_gemm::check(&sim(), 128, 256, 128).unwrap();
}

#[test]
fn clock_sim() {
    let cycles = clock::check(&sim(), 5).unwrap();
    assert!(cycles > 0.0);
}

fn gpu() -> Option<Device> {
    match Device::cuda(0) {
        Ok(d) => Some(d),
        Err(e) if std::env::var_os("FERROCUDA_REQUIRE_GPU").is_none() => {
            eprintln!("skipping GPU test: {e}");
            None
        }
        Err(e) => panic!("GPU required: {e}"),
    }
}

#[test]
#[ignore = "needs a GPU"]
fn examples_gpu() {
    let Some(dev) = gpu() else { return };
    vector_add::check(&dev, 1 << 22).unwrap();
    saxpy::check(&dev, (1 << 22) + 3).unwrap();
    reverse::check(&dev, 4096).unwrap();
    transpose::check(&dev, 4099, 2051).unwrap();
    transpose::check_wrong_block(&dev).unwrap();
    transpose::check_short_input(&dev).unwrap();
    sgemm::check(&dev, 1024, 512, 256).unwrap();
    wmma_gemm::check(&dev, 1024, 768, 512).unwrap();
    wmma_gemm::check(&dev, 128, 128, 64).unwrap();
    async_barriers::check(&dev).unwrap();
    async_matmul::check(&dev, 1024, 1024, 768, false).unwrap();
    async_matmul::check(&dev, 256, 128, 256, true).unwrap();
}

#[test]
#[ignore = "needs a GPU"]
fn clock_gpu() {
    let Some(dev) = gpu() else { return };
    let cycles = clock::check(&dev, 64).unwrap();
    eprintln!("clock: {cycles:.0} cycles per block on average");
}
