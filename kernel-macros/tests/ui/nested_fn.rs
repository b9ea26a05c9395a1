use ferrocuda::prelude::*;

#[kernel]
pub fn k(y: &mut [f32]) {
    fn helper(x: f32) -> f32 { x }
    y[0] = helper(1.0);
}

fn main() {}
