use ferrocuda::prelude::*;

#[derive(Clone, Copy, DeviceCopy)]
#[repr(C)]
struct P<T> {
    x: T,
}

fn main() {}
