use ferrocuda::prelude::*;

fn main() {
    #[kernel]
    pub fn k(y: &mut [u32]) {
        y[0] = 1;
    }
}
