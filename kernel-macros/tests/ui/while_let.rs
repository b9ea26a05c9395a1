use ferrocuda::prelude::*;

#[device]
fn d(mut x: u32) -> u32 {
    while let 1..=9 = x {
        x += 1;
    }
    x
}

fn main() {}
