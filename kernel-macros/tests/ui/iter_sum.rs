use ferrocuda::prelude::*;

#[kernel]
pub fn k(x: &[u32], y: &mut [u32]) {
    y[0] = x.iter().sum();
}

fn main() {}
