use ferrocuda::prelude::*;

#[kernel]
pub unsafe fn k(y: &mut [f32]) {}

fn main() {}
