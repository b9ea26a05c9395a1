//! Runs the `reverse` example on the default device (GPU if present, else the simulator) and
//! checks it against the CPU reference.

use ferrocuda::prelude::*;
use ferrocuda_examples::reverse;

fn main() -> std::process::ExitCode {
    let dev = match Device::default() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("no device: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    println!("backend: {}", dev.describe());
    match reverse::check(&dev, 64) {
        Ok(()) => {
            println!("reverse: result matches the CPU reference");
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("reverse: FAILED: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
