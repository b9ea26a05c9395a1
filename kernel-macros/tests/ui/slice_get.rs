use ferrocuda::prelude::*;

#[kernel]
pub fn k(x: &[u32], y: &mut [u32]) {
    let i = thread_idx().x as usize;
    y[i] = *x.get(i).unwrap_or(&0);
}

fn main() {}
