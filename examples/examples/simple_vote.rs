//! Runs the `simple_vote` example on the default device (the GPU if there is one, else the simulator)
//! and checks it against the CPU reference.

use ferrocuda_examples::{simple_vote, util::example_main};

fn main() -> std::process::ExitCode {
    example_main("simple_vote", |dev| simple_vote::check(dev, 64))
}
