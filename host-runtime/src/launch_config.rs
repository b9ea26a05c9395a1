//! Launch configuration.

use kernel_std::api::Dim3;

/// Grid, block and dynamic shared memory of one launch (`<<<grid, block, shared_mem_bytes>>>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchConfig {
    pub grid: Dim3,
    pub block: Dim3,
    pub shared_mem_bytes: u32,
}

impl LaunchConfig {
    /// One thread per element, `block` threads per block, rounded up.
    pub fn for_elements(n: usize, block: u32) -> Self {
        let blocks = n.div_ceil(block.max(1) as usize).max(1) as u32;
        LaunchConfig {
            grid: Dim3::new(blocks, 1, 1),
            block: Dim3::new(block, 1, 1),
            shared_mem_bytes: 0,
        }
    }
}
