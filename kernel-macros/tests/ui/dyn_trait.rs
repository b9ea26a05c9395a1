use ferrocuda::prelude::*;

#[device]
fn d(x: &dyn Float) -> u32 {
    0
}

fn main() {}
