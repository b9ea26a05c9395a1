use ferrocuda::prelude::*;

#[kernel]
pub fn k(y: &mut [f32]) {
    let v = vec![1.0f32];
    y[0] = v[0];
}

fn main() {}
