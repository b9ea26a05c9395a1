use ferrocuda::prelude::*;

#[kernel]
pub fn k(y: &mut [u32]) {
    y[0] = core::cmp::max(y[0], y[1]);
}

fn main() {}
