//! Runs the `histogram` example on the default device (the GPU if there is one, else the simulator)
//! and checks it against the CPU reference.

use ferrocuda_examples::{histogram, util::example_main};

fn main() -> std::process::ExitCode {
    example_main("histogram", |dev| histogram::check(dev, 1 << 20, 256))
}
