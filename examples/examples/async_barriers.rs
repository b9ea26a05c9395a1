//! Runs the `async_barriers` example (the guide's `cuda::barrier` patterns) on the default
//! device (the GPU if there is one, else the simulator) and checks it against CPU references.

use ferrocuda_examples::{async_barriers, util::example_main};

fn main() -> std::process::ExitCode {
    example_main("async_barriers", async_barriers::check)
}
