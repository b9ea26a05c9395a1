//! Occupancy queries: the driver's answers to "how big a block" and "how many blocks fit".

use crate::launch_config::grid_for_elements;
use crate::{Function, LaunchConfig, Result};
use kernel_std::api::Dim3;

impl Function {
    /// The block size that maximizes occupancy with `dyn_shared` bytes of dynamic shared memory
    /// per block, and the smallest grid that reaches it: `(min_grid, block)`.
    pub fn max_potential_block_size(&self, dyn_shared: u32) -> Result<(u32, u32)> {
        self.inner.max_potential_block_size(dyn_shared)
    }

    /// Blocks of `block` threads that can be resident on one multiprocessor at once.
    pub fn max_active_blocks_per_sm(&self, block: u32, dyn_shared: u32) -> Result<u32> {
        self.inner.max_active_blocks_per_sm(block, dyn_shared)
    }

    /// `cudaOccupancyMaxActiveClusters`: how many clusters of `cfg`'s shape (its
    /// [`LaunchConfig::cluster_dim`], or the kernel's compile-time `cluster_dims`) can be resident
    /// on the device at once with `cfg`'s block and shared memory. 0 means such a launch cannot
    /// run. The configuration is validated first (sm_90, cluster size and shape).
    pub fn max_active_clusters(&self, cfg: &LaunchConfig) -> Result<u32> {
        self.inner.validate_for_query(cfg)?;
        self.inner.max_active_clusters(cfg)
    }

    /// `cudaOccupancyMaxPotentialClusterSize`: the most blocks a cluster of this function may hold
    /// with `cfg`'s grid, block and shared memory (8 portably; up to 16 after
    /// [`LaunchConfig::non_portable_cluster_size`]).
    pub fn max_potential_cluster_size(&self, cfg: &LaunchConfig) -> Result<u32> {
        self.inner.validate_for_query(cfg)?;
        self.inner.max_potential_cluster_size(cfg)
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
            attrs: Default::default(),
        })
    }
}
