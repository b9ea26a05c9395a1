use ferrocuda::prelude::*;

#[derive(Clone, Copy, DeviceCopy)]
struct P {
    x: f32,
}

fn main() {}
