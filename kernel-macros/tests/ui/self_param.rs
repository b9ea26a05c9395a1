use ferrocuda::prelude::*;

#[device]
fn d(self, x: u32) -> u32 {
    x
}

fn main() {}
