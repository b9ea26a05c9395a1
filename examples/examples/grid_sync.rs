//! Runs the `grid_sync` example (a cooperative single-launch reduction and a loop of grid
//! barriers) and checks it against the CPU reference.

use ferrocuda_examples::{grid_sync, util::example_main};

fn main() -> std::process::ExitCode {
    example_main("grid_sync", grid_sync::check_all)
}
