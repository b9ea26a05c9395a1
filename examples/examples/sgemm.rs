//! Runs the `sgemm` example on the default device (the GPU if there is one, else the simulator)
//! and checks it against the CPU reference.

use ferrocuda_examples::{sgemm, util::example_main};

fn main() -> std::process::ExitCode {
    example_main("sgemm", |dev| sgemm::check(dev, 256, 256, 64))
}
