use ferrocuda::prelude::*;

#[kernel]
pub fn k(y: *mut f32) {}

fn main() {}
