use ferrocuda::prelude::*;

#[kernel]
pub fn k(v: Vec<f32>) {}

fn main() {}
