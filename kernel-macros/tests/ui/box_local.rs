use ferrocuda::prelude::*;

#[kernel]
pub fn k(y: &mut [f32]) {
    let b: Box<f32> = Box::new(1.0);
}

fn main() {}
