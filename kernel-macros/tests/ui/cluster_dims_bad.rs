use ferrocuda::prelude::*;

#[kernel(cluster_dims(2, 0))]
pub fn zero_axis(y: &mut [f32]) {}

#[kernel(cluster_dims(4, 4, 2))]
pub fn too_many_blocks(y: &mut [f32]) {}

#[kernel(cluster_dims(17))]
pub fn axis_too_long(y: &mut [f32]) {}

#[kernel(cluster_dims)]
pub fn no_shape(y: &mut [f32]) {}

fn main() {}
