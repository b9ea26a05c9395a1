use ferrocuda::prelude::*;

#[kernel]
pub fn k(y: &mut [usize]) {
    y[0] = core::mem::size_of::<f32>();
}

fn main() {}
