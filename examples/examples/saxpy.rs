//! Runs the `saxpy` example on the default device (the GPU if there is one, else the simulator)
//! and checks it against the CPU reference.

use ferrocuda_examples::{saxpy, util::example_main};

fn main() -> std::process::ExitCode {
    example_main("saxpy", |dev| saxpy::check(dev, 1 << 20))
}
