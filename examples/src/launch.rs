//! An empty kernel with three arguments, for measuring launch overhead.

use ferrocuda::prelude::*;

#[kernel]
pub fn empty3(a: f32, x: &[f32], y: &mut [f32]) {
    let _ = (a, x.len(), y.len());
}
