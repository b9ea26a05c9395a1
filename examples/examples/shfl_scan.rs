//! Runs the `shfl_scan` example on the default device (the GPU if there is one, else the simulator)
//! and checks it against the CPU reference.

use ferrocuda_examples::{shfl_scan, util::example_main};

fn main() -> std::process::ExitCode {
    example_main("shfl_scan", |dev| shfl_scan::check(dev, 50_000))
}
