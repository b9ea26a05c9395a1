//! The intrinsics examples (atomics, votes, shuffles, reductions, histogram, fence reduction)
//! against their CPU references: on the simulator in `cargo test`, on the GPU with
//! `--include-ignored` (skipped without one unless FERROCUDA_REQUIRE_GPU is set).

use ferrocuda::prelude::*;
use ferrocuda_examples::{
    fence_reduction, histogram, reduction, shfl_scan, simple_atomics, simple_vote,
};

fn sim() -> Device {
    Device::simulator()
}

#[test]
fn simple_atomics_sim() {
    simple_atomics::check(&sim(), 3).unwrap();
}

#[test]
fn simple_vote_sim() {
    simple_vote::check(&sim(), 3).unwrap();
}

#[test]
fn shfl_scan_sim() {
    shfl_scan::check(&sim(), 256 * 5 + 77).unwrap();
}

#[test]
fn reduction_sim() {
    reduction::check(&sim(), 10_000, 7).unwrap();
}

#[test]
fn histogram_sim() {
    histogram::check(&sim(), 5_000, 6).unwrap();
}

#[test]
fn fence_reduction_sim() {
    fence_reduction::check(&sim(), 9_000, 5).unwrap();
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
fn intrinsics_examples_gpu() {
    let Some(dev) = gpu() else { return };
    simple_atomics::check(&dev, 512).unwrap();
    simple_vote::check(&dev, 1000).unwrap();
    shfl_scan::check(&dev, 256 * 256).unwrap();
    shfl_scan::check(&dev, 12_345).unwrap();
    reduction::check(&dev, (1 << 24) + 5, 1024).unwrap();
    histogram::check(&dev, (1 << 22) + 3, 512).unwrap();
    fence_reduction::check(&dev, (1 << 20) + 9, 256).unwrap();
}
