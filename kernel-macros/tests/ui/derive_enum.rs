use ferrocuda::prelude::*;

#[derive(Clone, Copy, DeviceCopy)]
#[repr(C)]
enum E {
    A,
    B,
}

fn main() {}
