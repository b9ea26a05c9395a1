use ferrocuda::prelude::*;

#[device]
fn d(x: (u32, u32)) -> u32 {
    let (a, 1) = x else { return 0 };
    a
}

fn main() {}
