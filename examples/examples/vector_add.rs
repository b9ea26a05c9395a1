//! Runs the `vector_add` example on the default device (GPU if present, else the simulator) and
//! checks it against the CPU reference.

use ferrocuda::prelude::*;
use ferrocuda_examples::vector_add;

fn main() -> std::process::ExitCode {
    let dev = match Device::default() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("no device: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    println!("backend: {}", dev.describe());
    match vector_add::check(&dev, 1 << 20) {
        Ok(()) => {
            println!("vector_add: result matches the CPU reference");
            std::process::ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("vector_add: FAILED: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
