use ferrocuda::prelude::*;

#[kernel]
pub fn k(y: &mut [f32]) {
    println!("{}", y[0]);
}

fn main() {}
