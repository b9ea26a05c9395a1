use ferrocuda::prelude::*;

#[derive(Clone, Copy, PartialEq)]
pub enum Color {
    Red,
    Green,
}

#[kernel]
pub fn k(y: &mut [u32]) {
    let c = Color::Green;
    y[0] = (c == Color::Red) as u32;
}

fn main() {}
