use ferrocuda::prelude::*;

#[kernel(launch_bounds(max_threads = 0))]
pub fn k(y: &mut [f32]) {}

fn main() {}
