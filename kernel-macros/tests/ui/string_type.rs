use ferrocuda::prelude::*;

#[device]
fn d(s: String) -> u32 {
    0
}

fn main() {}
