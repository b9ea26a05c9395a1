//! Runs the `transpose` example on the default device (GPU if present, else the simulator) and
//! checks it against the CPU reference.

use ferrocuda::prelude::*;
use ferrocuda_examples::transpose;

fn main() -> std::process::ExitCode {
    let dev = match Device::default() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("no device: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    println!("backend: {}", dev.describe());
    match transpose::check(&dev, 1000, 700) {
        Ok(()) => {
            println!("transpose: result matches the CPU reference");
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("transpose: FAILED: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
