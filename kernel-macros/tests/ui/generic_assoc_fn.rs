use ferrocuda::prelude::*;

pub trait Scale {
    fn scale(v: Self) -> Self;
}

#[kernel]
pub fn k<T: Float + Scale>(y: &mut [T]) {
    y[0] = T::scale(y[0]);
}

fn main() {}
