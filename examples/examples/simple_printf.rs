//! Runs the `simplePrintf` port on the default device: every thread prints a line (on a GPU the
//! driver prints them when the host synchronizes). On the simulator the printed lines are also
//! captured and checked against the expected set.

use ferrocuda_examples::{simple_printf, util::example_main};

fn main() -> std::process::ExitCode {
    example_main("simple_printf", |dev| simple_printf::check(dev, 10))
}
