use ferrocuda::prelude::*;

#[device]
fn d(x: impl Float) -> u32 {
    0
}

fn main() {}
