use ferrocuda::prelude::*;

#[kernel(block_dim(32, 0))]
pub fn zero_axis(y: &mut [f32]) {}

#[kernel(block_dim(64, 32))]
pub fn too_many_threads(y: &mut [f32]) {}

#[kernel(block_dim(32, 8), launch_bounds(max_threads = 128))]
pub fn over_launch_bound(y: &mut [f32]) {}

#[kernel(block_dim)]
pub fn no_shape(y: &mut [f32]) {}

fn main() {}
