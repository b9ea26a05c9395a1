use ferrocuda::prelude::*;

#[kernel]
pub struct S {
    x: f32,
}

fn main() {}
