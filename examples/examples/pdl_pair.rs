//! Runs the `pdl_pair` example (sm_90: a GPU, or the simulator with `FERROCUDA_SIM_ARCH=90`) and
//! checks it against the CPU reference.

use ferrocuda_examples::{pdl_pair, util::example_main};

fn main() -> std::process::ExitCode {
    example_main("pdl_pair", |dev| pdl_pair::check(dev, 1 << 20))
}
