//! Runs the `simple_graphs` example on the default device (the GPU if there is one, else the
//! simulator) and checks it against the CPU reference.

use ferrocuda_examples::{simple_graphs, util::example_main};

fn main() -> std::process::ExitCode {
    example_main("simple_graphs", |dev| {
        simple_graphs::check(dev, 1 << 20, 10)
    })
}
