use ferrocuda::prelude::*;

#[derive(Clone, Copy, DeviceCopy)]
#[repr(C)]
union U {
    a: f32,
    b: u32,
}

fn main() {}
