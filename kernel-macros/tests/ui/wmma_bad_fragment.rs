use ferrocuda::prelude::wmma::*;
use ferrocuda::prelude::*;

#[kernel]
pub fn bad_shape(a: &[f16]) {
    let mut f: Fragment<MatrixA, 16, 16, 8, f16, RowMajor> = fragment();
    load_matrix_sync(&mut f, a, 0, 16);
}

#[kernel]
pub fn accumulator_with_layout(c: &[f32]) {
    let f: Fragment<Accumulator, 16, 16, 16, f32, RowMajor> = fragment();
}

#[kernel]
pub fn mixed_inputs(d: &mut [f32]) {
    let a: Fragment<MatrixA, 16, 16, 16, f16, RowMajor> = fragment();
    let b: Fragment<MatrixB, 16, 16, 16, bf16, ColMajor> = fragment();
    let c: Fragment<Accumulator, 16, 16, 16, f32> = fragment();
    let r: Fragment<Accumulator, 16, 16, 16, f32> = mma_sync(&a, &b, &c);
    store_matrix_sync(d, 0, &r, 16, MEM_ROW_MAJOR);
}

#[kernel]
pub fn accumulator_without_layout(c: &[f32]) {
    let mut f: Fragment<Accumulator, 16, 16, 16, f32> = fragment();
    load_matrix_sync(&mut f, c, 0, 16);
}

fn main() {}
