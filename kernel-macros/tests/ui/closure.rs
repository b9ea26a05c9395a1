use ferrocuda::prelude::*;

#[kernel]
pub fn k(y: &mut [f32]) {
    let f = |v: f32| v * 2.0;
    y[0] = f(1.0);
}

fn main() {}
