//! Runs the `simple_atomics` example on the default device (the GPU if there is one, else the simulator)
//! and checks it against the CPU reference.

use ferrocuda_examples::{simple_atomics, util::example_main};

fn main() -> std::process::ExitCode {
    example_main("simple_atomics", |dev| simple_atomics::check(dev, 64))
}
