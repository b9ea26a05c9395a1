use ferrocuda::prelude::*;

fn host_only(x: f32) -> f32 { x }

#[kernel]
pub fn k(y: &mut [f32]) {
    y[0] = host_only(y[0]);
}

fn main() {}
