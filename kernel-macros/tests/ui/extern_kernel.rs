use ferrocuda::prelude::*;

#[kernel]
pub extern "C" fn k(y: &mut [f32]) {}

fn main() {}
