use ferrocuda::prelude::*;

#[device]
fn d() -> u32 {
    'a' as u32
}

fn main() {}
