use ferrocuda::prelude::*;

#[device]
fn d(x: u32) -> u32 {
    let v = x.checked_add(1)?;
    v
}

fn main() {}
