use ferrocuda::prelude::*;

#[kernel]
pub fn k(y: &mut [u32]) {
    let v = match y[0] {
        0 => None,
        n => Some(n),
    };
    y[1] = match v {
        Some(n) => n,
        None => 0,
    };
}

fn main() {}
