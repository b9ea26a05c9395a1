use ferrocuda::prelude::*;

#[kernel]
pub fn k(y: &mut [u32]) {
    let b = Box::new(5);
    y[0] = *b;
}

fn main() {}
