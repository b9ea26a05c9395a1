//! The intrinsics examples (atomics, votes, shuffles, reductions, histogram, fence reduction)
//! against their CPU references: on the simulator in `cargo test`, on the GPU with
//! `--include-ignored` (skipped without one unless FERROCUDA_REQUIRE_GPU is set).

use ferrocuda::prelude::*;
use ferrocuda_examples::simple_atomics;

fn sim() -> Device {
    Device::simulator()
}

#[test]
fn simple_atomics_sim() {
    simple_atomics::check(&sim(), 3).unwrap();
}
