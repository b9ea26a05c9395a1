//! Runs the `fence_reduction` example on the default device (the GPU if there is one, else the simulator)
//! and checks it against the CPU reference.

use ferrocuda_examples::{fence_reduction, util::example_main};

fn main() -> std::process::ExitCode {
    example_main("fence_reduction", |dev| {
        fence_reduction::check(dev, 1 << 20, 256)
    })
}
