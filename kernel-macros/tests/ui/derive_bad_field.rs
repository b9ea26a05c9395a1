use ferrocuda::prelude::*;

#[derive(Clone, Copy, DeviceCopy)]
#[repr(C)]
struct P {
    x: f32,
    name: &'static str,
}

fn main() {}
