//! Runs the `saxpy` example on the default device (GPU if present, else the simulator) and
//! checks it against the CPU reference.

use ferrocuda::prelude::*;
use ferrocuda_examples::saxpy;

fn main() -> std::process::ExitCode {
    let dev = match Device::default() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("no device: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    println!("backend: {}", dev.describe());
    match saxpy::check(&dev, 1 << 20) {
        Ok(()) => {
            println!("saxpy: result matches the CPU reference");
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("saxpy: FAILED: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
