use ferrocuda::prelude::*;

#[kernel]
pub fn k(y: &mut [f32]) {
    let v = 'blk: {
        if y.len() == 0 {
            break 'blk 1.0;
        }
        2.0
    };
    y[0] = v;
}

fn main() {}
