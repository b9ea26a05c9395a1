use ferrocuda::prelude::*;

#[device]
fn d(x: u32, rest: ...) -> u32 {
    x
}

fn main() {}
