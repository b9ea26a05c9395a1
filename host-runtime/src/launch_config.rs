//! Launch configuration.

use kernel_std::api::Dim3;

use crate::launch_error::LaunchError;

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
