use ferrocuda::prelude::*;

#[kernel(block_size = 128)]
pub fn k(y: &mut [f32]) {}

fn main() {}
