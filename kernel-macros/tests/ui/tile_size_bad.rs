use ferrocuda::prelude::*;

#[kernel]
pub fn tile_of_three(y: &mut [u32]) {
    tile_sync::<3>();
}

#[kernel]
pub fn tile_of_sixty_four(y: &mut [u32]) {
    let i = thread_idx().x as usize;
    y[i] = tile_reduce_add::<64, u32>(y[i]);
}

fn main() {}
