//! Runs the `vector_add` example on the default device (the GPU if there is one, else the simulator)
//! and checks it against the CPU reference.

use ferrocuda_examples::{util::example_main, vector_add};

fn main() -> std::process::ExitCode {
    example_main("vector_add", |dev| vector_add::check(dev, 1 << 20))
}
