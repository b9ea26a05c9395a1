use ferrocuda::prelude::*;

#[kernel]
pub fn k(y: &mut [u32]) {
    let mut a = y[0];
    let mut b = y[1];
    core::mem::swap(&mut a, &mut b);
    y[0] = a;
}

fn main() {}
