use ferrocuda::prelude::*;

#[kernel(overflow_checks = 1)]
pub fn not_a_bool(y: &mut [u32]) {}

#[kernel(overflow_checks)]
pub fn no_value(y: &mut [u32]) {}

#[device(overflow_checks = false)]
fn on_a_device_function(x: u32) -> u32 {
    x + 1
}

fn main() {}
