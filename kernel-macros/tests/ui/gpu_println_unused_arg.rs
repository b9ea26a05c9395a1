use ferrocuda::prelude::*;

#[kernel]
pub fn k(y: &mut [u32]) {
    gpu_println!("{} only", y[0], y[1]);
}

fn main() {}
