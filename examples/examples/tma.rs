//! Runs the `tma` example (sm_90: a GPU, or the simulator with `FERROCUDA_SIM_ARCH=90`): a
//! TMA-tiled 2-D copy and a 128-byte-swizzled TMA transpose, checked against the CPU.

use ferrocuda_examples::{tma, util::example_main};

fn main() -> std::process::ExitCode {
    example_main("tma", tma::check_all)
}
