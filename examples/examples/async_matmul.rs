//! Runs the `async_matmul` example (globalToShmemAsyncCopy's three stagings) on the default
//! device (the GPU if there is one, else the simulator) and checks each against the CPU
//! reference.

use ferrocuda_examples::{async_matmul, util::example_main};

fn main() -> std::process::ExitCode {
    example_main("async_matmul", |dev| {
        async_matmul::check(dev, 256, 512, 192, false)
    })
}
