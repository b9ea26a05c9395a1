//! Runs the `cluster_sum` example (sm_90: a GPU, or the simulator with `FERROCUDA_SIM_ARCH=90`,
//! which runs clusters of one block) and checks it against the CPU reference.

use ferrocuda_examples::{cluster_sum, util::example_main};

fn main() -> std::process::ExitCode {
    example_main("cluster_sum", cluster_sum::check_all)
}
