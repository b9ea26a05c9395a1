use ferrocuda::prelude::*;

#[kernel]
pub fn k(p: &f32, y: &mut [f32]) {}

fn main() {}
