//! Runs the `cooperative_groups` example (block, tile and coalesced groups) and checks it
//! against the CPU reference.

use ferrocuda_examples::{cooperative_groups, util::example_main};

fn main() -> std::process::ExitCode {
    example_main("cooperative_groups", cooperative_groups::check_all)
}
