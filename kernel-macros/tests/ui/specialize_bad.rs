use ferrocuda::prelude::*;

#[kernel(specialize = "no")]
pub fn not_a_bool(y: &mut [u32]) {}

#[kernel(specialize)]
pub fn no_value(y: &mut [u32]) {}

#[kernel(specialize(false))]
pub fn parenthesized(y: &mut [u32]) {}

fn main() {}
