use ferrocuda::prelude::*;

#[kernel]
pub fn k(y: &mut [f32]) {
    let v = Vec::new();
    y[0] = v.len() as f32;
}

fn main() {}
