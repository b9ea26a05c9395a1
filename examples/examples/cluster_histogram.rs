//! Runs the distributed-shared-memory histogram (sm_90: a GPU, or the simulator with
//! `FERROCUDA_SIM_ARCH=90`) and checks every variant against the CPU reference.

use ferrocuda_examples::{cluster_histogram, util::example_main};

fn main() -> std::process::ExitCode {
    example_main("cluster_histogram", |dev| {
        let big = dev.backend() == ferrocuda::host_runtime::BackendKind::Cuda;
        cluster_histogram::check_all(dev, big)
    })
}
