use ferrocuda::prelude::*;

pub trait Scale {
    fn scale(self) -> Self;
}

impl Scale for f32 {
    fn scale(self) -> Self {
        self * 2.0
    }
}

#[kernel]
pub fn k<T: Float + Scale>(y: &mut [T]) {
    y[0] = y[0].scale();
}

fn main() {}
