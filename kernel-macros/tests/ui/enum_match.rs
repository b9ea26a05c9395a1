use ferrocuda::prelude::*;

#[derive(Clone, Copy, PartialEq)]
pub enum Color {
    Red,
    Green,
}

#[kernel]
pub fn k(y: &mut [u32]) {
    let c = Color::Red;
    y[0] = match c {
        Color::Red => 1,
        Color::Green => 2,
    };
}

fn main() {}
