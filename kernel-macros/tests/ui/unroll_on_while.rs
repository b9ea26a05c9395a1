use ferrocuda::prelude::*;

#[device]
fn d(mut x: u32) -> u32 {
    #[unroll]
    while x < 10 {
        x += 1;
    }
    x
}

fn main() {}
