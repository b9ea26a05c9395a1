use ferrocuda::prelude::*;

#[device]
fn d(mut x: u32) -> u32 {
    #[unroll(0)]
    for i in 0..4 {
        x += i;
    }
    x
}

fn main() {}
