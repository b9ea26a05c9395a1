//! Occupancy queries: the driver's answers to "how big a block" and "how many blocks fit".

use crate::driver::{cu, to_c_int};
use crate::launch_config::grid_for_elements;
use crate::{Function, LaunchConfig, Result};
use kernel_std::api::Dim3;

impl Function {
    /// The block size that maximizes occupancy with `dyn_shared` bytes of dynamic shared memory
    /// per block, and the smallest grid that reaches it: `(min_grid, block)`.
    pub fn max_potential_block_size(&self, dyn_shared: u32) -> Result<(u32, u32)> {
        let cuda = self.device().cuda_arm()?;
        cuda.enter(self.inner.generation)?;
        let (mut grid, mut block) = (0i32, 0i32);
        unsafe {
            cu!(cuOccupancyMaxPotentialBlockSize(
                &mut grid,
                &mut block,
                self.inner.raw,
                None,
                dyn_shared as usize,
                0
            ))?
        };
        Ok((grid.max(0) as u32, block.max(0) as u32))
    }

    /// Blocks of `block` threads that can be resident on one multiprocessor at once.
    pub fn max_active_blocks_per_sm(&self, block: u32, dyn_shared: u32) -> Result<u32> {
        let cuda = self.device().cuda_arm()?;
        cuda.enter(self.inner.generation)?;
        let block = to_c_int(block, "threads per block")?;
        let mut n = 0i32;
        unsafe {
            cu!(cuOccupancyMaxActiveBlocksPerMultiprocessor(
                &mut n,
                self.inner.raw,
                block,
                dyn_shared as usize
            ))?
        };
        Ok(n.max(0) as u32)
    }
}

impl LaunchConfig {
    /// One thread per element with the block size the driver's occupancy calculator picks for
    /// `function` (given `dyn_shared` bytes of dynamic shared memory per block).
    /// `Err(InvalidLaunch(TooManyElements))` when the elements need more blocks than the device's
    /// grid holds (the grid is never cut short of the elements).
    pub fn occupancy_based(
        function: &Function,
        elements: usize,
        dyn_shared: u32,
    ) -> Result<LaunchConfig> {
        let (_, block) = function.max_potential_block_size(dyn_shared)?;
        let block = block.max(1);
        let max_x = function.device().properties().max_grid_dim[0].max(1);
        let blocks = grid_for_elements(elements as u64, block, max_x)?;
        Ok(LaunchConfig {
            grid: Dim3::new(blocks, 1, 1),
            block: Dim3::new(block, 1, 1),
            shared_mem_bytes: dyn_shared,
        })
    }
}
