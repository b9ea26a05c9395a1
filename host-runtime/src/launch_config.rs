//! Launch configuration.

use kernel_std::api::Dim3;

use crate::launch_attrs::LaunchAttrs;
use crate::launch_error::LaunchError;

/// Grid, block and dynamic shared memory of one launch (`<<<grid, block, shared_mem_bytes>>>`).
///
/// Every launch checks it against the device and the kernel before anything runs: zero extents,
/// per-axis and total block limits, the grid's limits, the kernel's `block_dim` / `launch_bounds`,
/// and shared memory beyond what a block may opt in to are distinct [`LaunchError`]s
/// (`Err(Error::InvalidLaunch(..))`). Grids never wrap: a count that needs more than `u32::MAX`
/// blocks is an error, not a smaller grid.
///
/// ```
/// use ferrocuda::host_runtime::LaunchError;
/// use ferrocuda::prelude::*;
///
/// /// Each block reverses its run of `block_dim().x` elements through dynamic shared memory.
/// #[kernel]
/// pub fn reverse_runs(x: &mut [f32]) {
///     let tile = dynamic_shared::<f32>();
///     let (t, n) = (thread_idx().x as usize, block_dim().x as usize);
///     let i = block_idx().x as usize * n + t;
///     tile[t] = x[i];
///     sync_threads();
///     x[i] = tile[n - 1 - t];
/// }
///
/// fn main() -> Result<()> {
///     let dev = Device::default()?;
///     let s = dev.new_stream()?;
///
///     // One thread per element, rounded up to whole blocks.
///     let cfg = LaunchConfig::for_elements(1000, 256);
///     assert_eq!((cfg.grid, cfg.block, cfg.shared_mem_bytes), (Dim3::new(4, 1, 1), Dim3::new(256, 1, 1), 0));
///
///     // Spelled out, with dynamic shared memory (`extern __shared__`): 8 blocks of 64 threads.
///     let mut x = dev.upload(&(0..512).map(|v| v as f32).collect::<Vec<_>>())?;
///     let cfg = LaunchConfig {
///         grid: Dim3::new(8, 1, 1),
///         block: Dim3::new(64, 1, 1),
///         shared_mem_bytes: 64 * 4,
///         attrs: Default::default(),
///     };
///     reverse_runs::launch(&s, cfg, &mut x)?;
///     let got = x.to_vec()?;
///     assert_eq!((got[0], got[63], got[64]), (63.0, 0.0, 127.0));
///
///     // Bad configurations are errors before the launch.
///     let zero = LaunchConfig { grid: Dim3::new(0, 1, 1), ..cfg };
///     assert!(matches!(
///         reverse_runs::launch(&s, zero, &mut x),
///         Err(Error::InvalidLaunch(LaunchError::ZeroGrid { .. }))
///     ));
///     let huge = LaunchConfig { block: Dim3::new(64, 32, 1), ..cfg }; // 2048 threads
///     assert!(matches!(
///         reverse_runs::launch(&s, huge, &mut x),
///         Err(Error::InvalidLaunch(LaunchError::TooManyThreads { threads: 2048, .. }))
///     ));
///     assert!(LaunchConfig::try_for_elements(usize::MAX, 1).is_err());
///     assert!(LaunchConfig::try_for_elements(10, 0).is_err());
///     Ok(())
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchConfig {
    /// Blocks in the grid (`gridDim`).
    pub grid: Dim3,
    /// Threads per block (`blockDim`).
    pub block: Dim3,
    /// Dynamic shared memory per block in bytes (`extern __shared__`); above 48 KiB the runtime
    /// opts the kernel in automatically.
    pub shared_mem_bytes: u32,
    /// Clusters and programmatic dependent launch (`cudaLaunchKernelEx`'s attributes); the
    /// builders [`LaunchConfig::cluster_dim`] and
    /// [`LaunchConfig::programmatic_stream_serialization`] set them.
    pub attrs: LaunchAttrs,
}

impl LaunchConfig {
    /// One thread per element, `block` threads per block, rounded up (at least one block).
    ///
    /// A count that needs more than `u32::MAX` blocks gives a grid of `u32::MAX` blocks, which
    /// every launch rejects (`LaunchError::GridDimTooLarge`): the grid never wraps to fewer blocks
    /// than the elements need. [`LaunchConfig::try_for_elements`] reports it here instead.
    pub fn for_elements(n: usize, block: u32) -> Self {
        let blocks = blocks_for(n as u64, block.max(1));
        LaunchConfig {
            grid: Dim3::new(u32::try_from(blocks).unwrap_or(u32::MAX), 1, 1),
            block: Dim3::new(block, 1, 1),
            shared_mem_bytes: 0,
            attrs: LaunchAttrs::NONE,
        }
    }

    /// [`LaunchConfig::for_elements`], with an error when `block` is zero or the grid would need
    /// more than `u32::MAX` blocks. (The device's own grid limit is checked at launch.)
    pub fn try_for_elements(n: usize, block: u32) -> Result<Self, LaunchError> {
        if block == 0 {
            return Err(LaunchError::ZeroBlock {
                block: Dim3::new(0, 1, 1),
            });
        }
        grid_for_elements(n as u64, block, u32::MAX)?;
        Ok(LaunchConfig::for_elements(n, block))
    }
}

impl LaunchConfig {
    /// This launch in clusters of `dim` blocks (`cudaLaunchAttributeClusterDimension`):
    /// `LaunchConfig::for_elements(n, 256).cluster_dim((2, 1, 1))`.
    pub fn cluster_dim(mut self, dim: impl Into<Dim3>) -> Self {
        self.attrs.cluster = Some(dim.into());
        self
    }

    /// Allows a cluster of more than 8 (up to 16) blocks, which the driver refuses unless the
    /// function opts in (`cudaFuncAttributeNonPortableClusterSizeAllowed`).
    pub fn non_portable_cluster_size(mut self) -> Self {
        self.attrs.non_portable_cluster = true;
        self
    }

    /// Launches this kernel as the secondary of a programmatic dependent launch
    /// (`cudaLaunchAttributeProgrammaticStreamSerialization`): it may overlap the end of the
    /// kernel before it on the stream. See [`LaunchAttrs::programmatic_serialization`].
    pub fn programmatic_stream_serialization(mut self) -> Self {
        self.attrs.programmatic_serialization = true;
        self
    }

    /// A cooperative launch (`cudaLaunchCooperativeKernel`, `cudaLaunchAttributeCooperative`):
    /// every block resident at once, so the kernel may call `grid_sync()`. A grid larger than
    /// the device holds at once is `LaunchError::CooperativeGridTooLarge` before the driver.
    /// See [`LaunchAttrs::cooperative`].
    pub fn cooperative(mut self) -> Self {
        self.attrs.cooperative = true;
        self
    }

    /// An L2 access policy window for this launch (`cudaLaunchAttributeAccessPolicyWindow`):
    /// `window`'s hit fraction persisting (or streaming) in L2 while the kernel runs. Checked
    /// against the device before the driver (`LaunchError::AccessPolicy`).
    pub fn access_policy(mut self, window: crate::AccessPolicyWindow) -> Self {
        self.attrs.access_policy = Some(window);
        self
    }

    /// This launch's priority (`cudaLaunchAttributePriority`), overriding its stream's: lower
    /// is more urgent (see [`LaunchAttrs::priority`]).
    pub fn priority(mut self, priority: i32) -> Self {
        self.attrs.priority = Some(priority);
        self
    }
}

/// Blocks of `block` threads covering `n` elements, at least one.
fn blocks_for(n: u64, block: u32) -> u64 {
    n.div_ceil(u64::from(block)).max(1)
}

/// The grid extent covering `elements` with `block` threads per block (at least one block), or
/// an error when that exceeds `max` blocks.
pub(crate) fn grid_for_elements(elements: u64, block: u32, max: u32) -> Result<u32, LaunchError> {
    let blocks = blocks_for(elements, block.max(1));
    match u32::try_from(blocks) {
        Ok(b) if b <= max => Ok(b),
        _ => Err(LaunchError::TooManyElements {
            elements,
            block,
            blocks,
            max,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::launch::{validate, FuncLimits, Limits};

    #[test]
    fn grids_cover_every_element() {
        assert_eq!(LaunchConfig::for_elements(0, 256).grid, Dim3::new(1, 1, 1));
        assert_eq!(
            LaunchConfig::for_elements(256, 256).grid,
            Dim3::new(1, 1, 1)
        );
        assert_eq!(
            LaunchConfig::for_elements(257, 256).grid,
            Dim3::new(2, 1, 1)
        );
        let most = u32::MAX as usize * 256;
        assert_eq!(LaunchConfig::for_elements(most, 256).grid.x, u32::MAX);
    }

    /// 2^40 + 1280 elements at 256 per block need 2^32 + 5 blocks: `as u32` made that 5.
    #[test]
    fn too_many_elements_never_wrap() {
        let n = (1usize << 40) + 1280;
        let c = LaunchConfig::for_elements(n, 256);
        assert_eq!(c.grid.x, u32::MAX, "saturates instead of wrapping to 5");
        let limits = Limits {
            max_threads_per_block: 1024,
            max_block: [1024, 1024, 64],
            max_grid: [i32::MAX as u32, 65535, 65535],
            max_shared_optin: 48 << 10,
            default_shared: 48 << 10,
            sm: 80,
            cooperative: true,
            max_access_policy_window: 0,
        };
        assert!(matches!(
            validate(&c, &limits, &FuncLimits::default()),
            Err(LaunchError::GridDimTooLarge { axis: 'x', .. })
        ));
        assert_eq!(
            LaunchConfig::try_for_elements(n, 256),
            Err(LaunchError::TooManyElements {
                elements: n as u64,
                block: 256,
                blocks: (1 << 32) + 5,
                max: u32::MAX
            })
        );
        assert!(LaunchConfig::try_for_elements(1 << 20, 256).is_ok());
        assert!(matches!(
            LaunchConfig::try_for_elements(10, 0),
            Err(LaunchError::ZeroBlock { .. })
        ));
        assert_eq!(grid_for_elements(1000, 10, 100), Ok(100));
        assert!(grid_for_elements(1001, 10, 100).is_err());
        assert_eq!(grid_for_elements(u64::MAX, 1, u32::MAX).unwrap_err().to_string(),
            format!("{} elements at 1 threads per block need {} blocks; a grid holds at most {} along x", u64::MAX, u64::MAX, u32::MAX));
    }
}
