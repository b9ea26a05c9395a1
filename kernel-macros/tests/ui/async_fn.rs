use ferrocuda::prelude::*;

#[device]
async fn d(x: u32) -> u32 {
    x
}

fn main() {}
