//! Prints the `ptxas` the tests will use (`kernel_testkit::ptxas::find`), so scripts such as
//! `.ci/run` locate it exactly as the code does; exits 1 when there is none.

fn main() {
    match kernel_testkit::ptxas::find() {
        Some(p) => println!("{}", p.display()),
        None => {
            eprintln!(
                "ptxas not found: set PTXAS, or install the nvidia-cuda-nvcc wheel for `python3`"
            );
            std::process::exit(1);
        }
    }
}
