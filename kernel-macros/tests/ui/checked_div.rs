use ferrocuda::prelude::*;

#[kernel]
pub fn k(y: &mut [u32]) {
    y[0] = y[0].checked_div(y[1]).unwrap_or(0);
}

fn main() {}
