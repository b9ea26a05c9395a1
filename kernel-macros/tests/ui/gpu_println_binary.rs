use ferrocuda::prelude::*;

#[kernel]
pub fn k(y: &mut [u32]) {
    gpu_println!("bits {:b}", y[0]);
}

fn main() {}
