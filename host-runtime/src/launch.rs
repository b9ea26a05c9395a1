//! Launch validation, the same for every backend.
//!
//! Every configuration is checked against the device's limits (cached when the device opened) and
//! the function's own limits (cached when it was loaded) before a backend sees it, so a bad launch
//! is a precise [`LaunchError`] instead of a bare `CUDA_ERROR_INVALID_VALUE` (and the simulator
//! refuses exactly what a GPU would).

use kernel_std::api::Dim3;

use crate::launch_config::LaunchConfig;
use crate::properties::DeviceProperties;

pub use crate::launch_error::LaunchError;

/// The device limits launch validation needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Threads per block.
    pub max_threads_per_block: u32,
    /// Per-axis block limits.
    pub max_block: [u32; 3],
    /// Per-axis grid limits.
    pub max_grid: [u32; 3],
    /// Shared memory per block after opting in.
    pub max_shared_optin: u32,
    /// Shared memory per block without opting in.
    pub default_shared: u32,
    /// Compute capability as `major * 10 + minor` (clusters and PDL need 90).
    pub sm: u32,
    /// Whether the device runs cooperative launches.
    pub cooperative: bool,
    /// The largest L2 access policy window in bytes (0: the device has none).
    pub max_access_policy_window: u32,
}

impl Limits {
    /// The limits of a device.
    pub fn from_properties(p: &DeviceProperties) -> Self {
        Limits {
            max_threads_per_block: p.max_threads_per_block,
            max_block: p.max_block_dim,
            max_grid: p.max_grid_dim,
            max_shared_optin: p.shared_mem_per_block_optin.max(p.shared_mem_per_block),
            default_shared: p.shared_mem_per_block,
            sm: p.sm(),
            cooperative: p.cooperative_launch,
            max_access_policy_window: p.max_access_policy_window_size,
        }
    }
}

/// What a compiled function adds to the device limits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FuncLimits {
    /// `CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK` (0 = no function limit known).
    pub max_threads_per_block: u32,
    /// Static shared memory the function declares.
    pub static_shared: u32,
    /// The block shape the function was compiled for (`#[kernel(block_dim(..))]`, `.reqntid`).
    pub required_block: Option<[u32; 3]>,
    /// The cluster shape the function was compiled for (`#[kernel(cluster_dims(..))]`,
    /// `.reqnctapercluster`).
    pub required_cluster: Option<[u32; 3]>,
    /// `Some(kernel name)` when the kernel calls `grid_sync()`: it then takes the hidden
    /// grid-barrier argument and must be launched cooperatively.
    pub grid_sync: Option<String>,
}

/// Checks a configuration against device and function limits without calling the driver.
pub fn validate(cfg: &LaunchConfig, dev: &Limits, func: &FuncLimits) -> Result<(), LaunchError> {
    let (g, b) = (cfg.grid, cfg.block);
    if g.x == 0 || g.y == 0 || g.z == 0 {
        return Err(LaunchError::ZeroGrid { grid: g });
    }
    if b.x == 0 || b.y == 0 || b.z == 0 {
        return Err(LaunchError::ZeroBlock { block: b });
    }
    for (i, axis) in ['x', 'y', 'z'].into_iter().enumerate() {
        let v = [b.x, b.y, b.z][i];
        if v > dev.max_block[i] {
            return Err(LaunchError::BlockDimTooLarge {
                axis,
                value: v,
                max: dev.max_block[i],
            });
        }
    }
    let threads = b.volume();
    if threads > dev.max_threads_per_block as u64 {
        return Err(LaunchError::TooManyThreads {
            threads,
            max: dev.max_threads_per_block,
        });
    }
    if func.max_threads_per_block != 0 && threads > func.max_threads_per_block as u64 {
        return Err(LaunchError::KernelThreadLimit {
            threads,
            max: func.max_threads_per_block,
        });
    }
    if let Some(want) = func.required_block {
        if [b.x, b.y, b.z] != want {
            return Err(LaunchError::BlockShape {
                block: b,
                required: Dim3::new(want[0], want[1], want[2]),
            });
        }
    }
    for (i, axis) in ['x', 'y', 'z'].into_iter().enumerate() {
        let v = [g.x, g.y, g.z][i];
        if v > dev.max_grid[i] {
            return Err(LaunchError::GridDimTooLarge {
                axis,
                value: v,
                max: dev.max_grid[i],
            });
        }
    }
    if func.static_shared as u64 + cfg.shared_mem_bytes as u64 > dev.max_shared_optin as u64 {
        return Err(LaunchError::SharedMemTooLarge {
            static_bytes: func.static_shared,
            dynamic_bytes: cfg.shared_mem_bytes,
            max: dev.max_shared_optin,
        });
    }
    crate::launch_cluster::validate_attrs(cfg, dev.sm, func.required_cluster)?;
    crate::launch_cooperative::validate_cooperative(
        cfg,
        dev.cooperative,
        func.grid_sync.as_deref(),
    )?;
    if let Some(w) = &cfg.attrs.access_policy {
        w.check(dev.max_access_policy_window)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const H100: Limits = Limits {
        max_threads_per_block: 1024,
        max_block: [1024, 1024, 64],
        max_grid: [i32::MAX as u32, 65535, 65535],
        max_shared_optin: 232448,
        default_shared: 49152,
        sm: 90,
        cooperative: true,
        max_access_policy_window: 128 << 20,
    };

    fn cfg(grid: (u32, u32, u32), block: (u32, u32, u32), smem: u32) -> LaunchConfig {
        LaunchConfig {
            grid: Dim3::new(grid.0, grid.1, grid.2),
            block: Dim3::new(block.0, block.1, block.2),
            shared_mem_bytes: smem,
            attrs: Default::default(),
        }
    }

    fn check(c: LaunchConfig) -> Result<(), LaunchError> {
        validate(&c, &H100, &FuncLimits::default())
    }

    #[test]
    fn valid_configs_pass() {
        assert_eq!(check(cfg((1, 1, 1), (1, 1, 1), 0)), Ok(()));
        assert_eq!(
            check(cfg((i32::MAX as u32, 65535, 65535), (1024, 1, 1), 0)),
            Ok(())
        );
        assert_eq!(check(cfg((8, 1, 1), (16, 16, 4), 232448)), Ok(()));
        assert_eq!(check(LaunchConfig::for_elements(1 << 20, 256)), Ok(()));
    }

    #[test]
    fn zero_dimensions() {
        assert!(matches!(
            check(cfg((0, 1, 1), (32, 1, 1), 0)),
            Err(LaunchError::ZeroGrid { .. })
        ));
        assert!(matches!(
            check(cfg((1, 1, 0), (32, 1, 1), 0)),
            Err(LaunchError::ZeroGrid { .. })
        ));
        assert!(matches!(
            check(cfg((1, 1, 1), (32, 0, 1), 0)),
            Err(LaunchError::ZeroBlock { .. })
        ));
    }

    #[test]
    fn block_limits() {
        assert_eq!(
            check(cfg((1, 1, 1), (1025, 1, 1), 0)),
            Err(LaunchError::BlockDimTooLarge {
                axis: 'x',
                value: 1025,
                max: 1024
            })
        );
        assert_eq!(
            check(cfg((1, 1, 1), (1, 1, 65), 0)),
            Err(LaunchError::BlockDimTooLarge {
                axis: 'z',
                value: 65,
                max: 64
            })
        );
        assert_eq!(
            check(cfg((1, 1, 1), (64, 32, 1), 0)),
            Err(LaunchError::TooManyThreads {
                threads: 2048,
                max: 1024
            })
        );
        assert_eq!(
            validate(
                &cfg((1, 1, 1), (1024, 1, 1), 0),
                &H100,
                &FuncLimits {
                    max_threads_per_block: 768,
                    ..FuncLimits::default()
                }
            ),
            Err(LaunchError::KernelThreadLimit {
                threads: 1024,
                max: 768
            })
        );
    }

    #[test]
    fn required_block_shape() {
        let f = FuncLimits {
            required_block: Some([32, 8, 1]),
            ..FuncLimits::default()
        };
        assert_eq!(validate(&cfg((4, 4, 1), (32, 8, 1), 0), &H100, &f), Ok(()));
        assert_eq!(
            validate(&cfg((4, 4, 1), (16, 16, 1), 0), &H100, &f),
            Err(LaunchError::BlockShape {
                block: Dim3::new(16, 16, 1),
                required: Dim3::new(32, 8, 1)
            })
        );
    }

    #[test]
    fn grid_limits() {
        assert_eq!(
            check(cfg((1, 65536, 1), (32, 1, 1), 0)),
            Err(LaunchError::GridDimTooLarge {
                axis: 'y',
                value: 65536,
                max: 65535
            })
        );
        assert_eq!(
            check(cfg((u32::MAX, 1, 1), (32, 1, 1), 0)),
            Err(LaunchError::GridDimTooLarge {
                axis: 'x',
                value: u32::MAX,
                max: i32::MAX as u32
            })
        );
        assert_eq!(
            check(cfg((1, 1, 70000), (32, 1, 1), 0)),
            Err(LaunchError::GridDimTooLarge {
                axis: 'z',
                value: 70000,
                max: 65535
            })
        );
    }

    #[test]
    fn shared_memory_limit_counts_static_and_dynamic() {
        assert_eq!(
            check(cfg((1, 1, 1), (32, 1, 1), 232449)),
            Err(LaunchError::SharedMemTooLarge {
                static_bytes: 0,
                dynamic_bytes: 232449,
                max: 232448
            })
        );
        let f = FuncLimits {
            max_threads_per_block: 1024,
            static_shared: 40000,
            required_block: None,
            required_cluster: None,
            grid_sync: None,
        };
        assert_eq!(
            validate(&cfg((1, 1, 1), (32, 1, 1), 200000), &H100, &f),
            Err(LaunchError::SharedMemTooLarge {
                static_bytes: 40000,
                dynamic_bytes: 200000,
                max: 232448
            })
        );
        assert_eq!(
            validate(&cfg((1, 1, 1), (32, 1, 1), 192448), &H100, &f),
            Ok(())
        );
    }

    /// The cluster and PDL rules (`launch_cluster`) are part of every launch's validation, with
    /// the device's arch and the function's compile-time cluster shape.
    #[test]
    fn validation_includes_the_cluster_rules() {
        let c = cfg((6, 1, 1), (32, 1, 1), 0);
        assert_eq!(
            check(c.cluster_dim((4, 1, 1))),
            Err(LaunchError::GridNotClusterMultiple {
                axis: 'x',
                grid: 6,
                cluster: 4
            })
        );
        let fixed = FuncLimits {
            required_cluster: Some([4, 1, 1]),
            ..FuncLimits::default()
        };
        assert!(matches!(
            validate(&c, &H100, &fixed),
            Err(LaunchError::GridNotClusterMultiple { .. })
        ));
        let a100 = Limits { sm: 80, ..H100 };
        assert!(matches!(
            validate(
                &c.programmatic_stream_serialization(),
                &a100,
                &FuncLimits::default()
            ),
            Err(LaunchError::NeedsSm90 { sm: 80, .. })
        ));
    }

    #[test]
    fn errors_render_their_numbers() {
        let e = crate::Error::from(LaunchError::TooManyThreads {
            threads: 2048,
            max: 1024,
        });
        assert_eq!(
            e.to_string(),
            "invalid launch: block of 2048 threads exceeds the device limit of 1024"
        );
    }
}
