use ferrocuda::prelude::*;

#[kernel]
pub fn k<'a>(y: &'a mut [f32]) {}

fn main() {}
