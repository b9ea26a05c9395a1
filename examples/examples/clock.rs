//! Runs the `clock` example on the default device (the GPU if there is one, else the simulator):
//! per-block timing with `clock64()`, minima checked against the CPU.

use ferrocuda_examples::{clock, util::example_main};

fn main() -> std::process::ExitCode {
    example_main("clock", |dev| {
        let cycles = clock::check(dev, 64)?;
        println!("average cycles per block: {cycles:.0}");
        Ok(())
    })
}
