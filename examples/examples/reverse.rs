//! Runs the `reverse` example on the default device (the GPU if there is one, else the simulator)
//! and checks it against the CPU reference.

use ferrocuda_examples::{reverse, util::example_main};

fn main() -> std::process::ExitCode {
    example_main("reverse", |dev| reverse::check(dev, 64))
}
