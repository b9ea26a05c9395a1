use ferrocuda::prelude::*;

#[kernel]
pub fn k(y: &mut [u32]) {
    y[0] = core::hint::black_box(y[1]);
}

fn main() {}
