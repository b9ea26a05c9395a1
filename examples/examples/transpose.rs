//! Runs the `transpose` example on the default device (the GPU if there is one, else the simulator)
//! and checks it against the CPU reference.

use ferrocuda_examples::{transpose, util::example_main};

fn main() -> std::process::ExitCode {
    example_main("transpose", |dev| transpose::check(dev, 1000, 700))
}
