//! Launch configuration.

use kernel_std::api::Dim3;

/// Grid, block and dynamic shared memory of one launch (`<<<grid, block, shared_mem_bytes>>>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchConfig {
    /// Blocks in the grid (`gridDim`).
    pub grid: Dim3,
    /// Threads per block (`blockDim`).
    pub block: Dim3,
    /// Dynamic shared memory per block in bytes (`extern __shared__`); above 48 KiB the runtime
    /// opts the kernel in automatically.
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
