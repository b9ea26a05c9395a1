use ferrocuda::prelude::*;

#[kernel]
pub fn k(y: &mut [f32]) -> f32 {
    y[0]
}

fn main() {}
