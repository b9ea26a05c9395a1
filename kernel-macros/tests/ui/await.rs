use ferrocuda::prelude::*;

#[device]
fn d(x: u32) -> u32 {
    let v = x.await;
    v
}

fn main() {}
