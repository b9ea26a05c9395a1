use ferrocuda::prelude::*;

unsafe fn danger() -> f32 { 1.0 }

#[kernel]
pub fn k(y: &mut [f32]) {
    let v = unsafe { *y.get_unchecked(0) + danger() };
    y[0] = v;
}

fn main() {}
