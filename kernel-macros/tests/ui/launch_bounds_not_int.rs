use ferrocuda::prelude::*;

#[kernel(launch_bounds(max_threads = "many", min_blocks = 2))]
pub fn k(y: &mut [f32]) {}

fn main() {}
