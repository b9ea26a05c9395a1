//! Runs the `sgemm` example on the default device (GPU if present, else the simulator) and
//! checks it against the CPU reference.

use ferrocuda::prelude::*;
use ferrocuda_examples::sgemm;

fn main() -> std::process::ExitCode {
    let dev = match Device::default() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("no device: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    println!("backend: {}", dev.describe());
    match sgemm::check(&dev, 256, 256, 64) {
        Ok(()) => {
            println!("sgemm: result matches the CPU reference");
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("sgemm: FAILED: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
