use ferrocuda::prelude::*;

#[kernel]
pub fn k(y: &mut [f32]) {
    if y.len() < 4 {
        panic!("too short: {}", y.len());
    }
}

fn main() {}
