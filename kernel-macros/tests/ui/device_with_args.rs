use ferrocuda::prelude::*;

#[device(inline)]
fn d(x: u32) -> u32 {
    x
}

fn main() {}
