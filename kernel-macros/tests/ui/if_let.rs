use ferrocuda::prelude::*;

#[device]
fn d(x: u32) -> u32 {
    if let 3 = x {
        return 1;
    }
    x
}

fn main() {}
