//! The checks of [`LaunchAttrs`](crate::LaunchAttrs) before a backend sees the launch: cluster
//! shape, size and arch, and the arch of a programmatic dependent launch. Each broken rule is its
//! own [`LaunchError`], where the driver would only say `CUDA_ERROR_INVALID_VALUE` or
//! `CUDA_ERROR_INVALID_CLUSTER_SIZE`.

use kernel_std::api::Dim3;

use crate::launch_config::LaunchConfig;
use crate::launch_error::LaunchError;

/// Blocks per cluster that every sm_90 device schedules.
pub(crate) const PORTABLE_CLUSTER: u64 = 8;
/// Blocks per cluster with the non-portable opt-in (H100).
pub(crate) const MAX_CLUSTER: u32 = 16;

/// The cluster shape a launch runs with: its own, else the kernel's compile-time one
/// (`required`), else none.
pub(crate) fn effective_cluster(
    cfg: &LaunchConfig,
    required: Option<[u32; 3]>,
) -> Option<[u32; 3]> {
    cfg.attrs.cluster.map(|d| [d.x, d.y, d.z]).or(required)
}

/// The attribute rules of `launch::validate` (after the block, grid and shared-memory checks):
/// for a device of compute capability `sm` and a function compiled for cluster shape
/// `required`.
pub(crate) fn validate_attrs(
    cfg: &LaunchConfig,
    sm: u32,
    required: Option<[u32; 3]>,
) -> Result<(), LaunchError> {
    if cfg.attrs.programmatic_serialization && sm < 90 {
        return Err(LaunchError::NeedsSm90 {
            what: "programmatic dependent launches",
            sm,
        });
    }
    let Some(c) = effective_cluster(cfg, required) else {
        return Ok(());
    };
    let dim = Dim3::new(c[0], c[1], c[2]);
    if c.contains(&0) {
        return Err(LaunchError::ZeroCluster { cluster: dim });
    }
    if sm < 90 {
        return Err(LaunchError::NeedsSm90 {
            what: "thread block clusters",
            sm,
        });
    }
    if let (Some(want), Some(_)) = (required, cfg.attrs.cluster) {
        if want != c {
            return Err(LaunchError::ClusterShape {
                cluster: dim,
                required: Dim3::new(want[0], want[1], want[2]),
            });
        }
    }
    let blocks = dim.volume();
    if blocks > u64::from(MAX_CLUSTER) {
        return Err(LaunchError::ClusterTooLarge {
            blocks,
            max: MAX_CLUSTER,
        });
    }
    if blocks > PORTABLE_CLUSTER && !cfg.attrs.non_portable_cluster {
        return Err(LaunchError::ClusterNotPortable { blocks });
    }
    let g = [cfg.grid.x, cfg.grid.y, cfg.grid.z];
    for (i, axis) in ['x', 'y', 'z'].into_iter().enumerate() {
        if !g[i].is_multiple_of(c[i]) {
            return Err(LaunchError::GridNotClusterMultiple {
                axis,
                grid: g[i],
                cluster: c[i],
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Compute capabilities of an H100 and an A100.
    const H100: u32 = 90;
    const A100: u32 = 80;

    /// The rules for a device of `sm` and a function compiled for `required`.
    fn validate(c: &LaunchConfig, sm: u32, required: Option<[u32; 3]>) -> Result<(), LaunchError> {
        validate_attrs(c, sm, required)
    }

    fn grid(x: u32, y: u32) -> LaunchConfig {
        LaunchConfig {
            grid: Dim3::new(x, y, 1),
            ..LaunchConfig::for_elements(1, 128)
        }
    }

    fn check(c: LaunchConfig) -> Result<(), LaunchError> {
        validate(&c, H100, None)
    }

    fn compiled_for(c: [u32; 3]) -> Option<[u32; 3]> {
        Some(c)
    }

    #[test]
    fn valid_clusters_pass() {
        assert_eq!(check(grid(8, 1).cluster_dim((2, 1, 1))), Ok(()));
        assert_eq!(check(grid(8, 4).cluster_dim((4, 2, 1))), Ok(()));
        assert_eq!(check(grid(8, 1).cluster_dim((1, 1, 1))), Ok(()));
        let big = grid(32, 1)
            .cluster_dim((16, 1, 1))
            .non_portable_cluster_size();
        assert_eq!(check(big), Ok(()));
        assert_eq!(
            check(grid(8, 1).programmatic_stream_serialization()),
            Ok(())
        );
        // The compile-time shape alone, or repeated by the launch.
        let f = compiled_for([4, 1, 1]);
        assert_eq!(validate(&grid(8, 1), H100, f), Ok(()));
        assert_eq!(
            validate(&grid(8, 1).cluster_dim((4, 1, 1)), H100, f),
            Ok(())
        );
        assert_eq!(effective_cluster(&grid(8, 1), f), Some([4, 1, 1]));
        assert_eq!(effective_cluster(&grid(8, 1), None), None);
    }

    #[test]
    fn grid_must_be_whole_clusters() {
        assert_eq!(
            check(grid(6, 1).cluster_dim((4, 1, 1))),
            Err(LaunchError::GridNotClusterMultiple {
                axis: 'x',
                grid: 6,
                cluster: 4
            })
        );
        assert_eq!(
            check(grid(8, 3).cluster_dim((2, 2, 1))),
            Err(LaunchError::GridNotClusterMultiple {
                axis: 'y',
                grid: 3,
                cluster: 2
            })
        );
        // The compile-time shape counts too.
        assert_eq!(
            validate(&grid(6, 1), H100, compiled_for([4, 1, 1])),
            Err(LaunchError::GridNotClusterMultiple {
                axis: 'x',
                grid: 6,
                cluster: 4
            })
        );
    }

    #[test]
    fn cluster_size_limits() {
        assert_eq!(
            check(grid(32, 1).cluster_dim((16, 1, 1))),
            Err(LaunchError::ClusterNotPortable { blocks: 16 })
        );
        assert_eq!(
            check(grid(36, 1).cluster_dim((3, 3, 1))),
            Err(LaunchError::ClusterNotPortable { blocks: 9 })
        );
        let huge = grid(64, 1)
            .cluster_dim((32, 1, 1))
            .non_portable_cluster_size();
        assert_eq!(
            check(huge),
            Err(LaunchError::ClusterTooLarge {
                blocks: 32,
                max: 16
            })
        );
        assert_eq!(
            check(grid(64, 1).cluster_dim((32, 1, 1))),
            Err(LaunchError::ClusterTooLarge {
                blocks: 32,
                max: 16
            })
        );
    }

    #[test]
    fn zero_cluster_extent() {
        assert_eq!(
            check(grid(8, 1).cluster_dim((2, 0, 1))),
            Err(LaunchError::ZeroCluster {
                cluster: Dim3::new(2, 0, 1)
            })
        );
    }

    #[test]
    fn clusters_and_pdl_need_sm90() {
        let f = None;
        assert_eq!(
            validate(&grid(8, 1).cluster_dim((2, 1, 1)), A100, f),
            Err(LaunchError::NeedsSm90 {
                what: "thread block clusters",
                sm: 80
            })
        );
        assert_eq!(
            validate(&grid(8, 1), A100, compiled_for([2, 1, 1])),
            Err(LaunchError::NeedsSm90 {
                what: "thread block clusters",
                sm: 80
            })
        );
        assert_eq!(
            validate(&grid(8, 1).programmatic_stream_serialization(), A100, f),
            Err(LaunchError::NeedsSm90 {
                what: "programmatic dependent launches",
                sm: 80
            })
        );
        assert_eq!(validate(&grid(8, 1), A100, f), Ok(()));
    }

    #[test]
    fn launch_shape_must_match_compile_time_shape() {
        assert_eq!(
            validate(
                &grid(8, 1).cluster_dim((2, 1, 1)),
                H100,
                compiled_for([4, 1, 1])
            ),
            Err(LaunchError::ClusterShape {
                cluster: Dim3::new(2, 1, 1),
                required: Dim3::new(4, 1, 1)
            })
        );
    }

    #[test]
    fn errors_render_their_numbers() {
        let e = check(grid(6, 1).cluster_dim((4, 1, 1))).unwrap_err();
        assert_eq!(
            e.to_string(),
            "grid x = 6 is not a multiple of the cluster's x = 4"
        );
        let e = check(grid(32, 1).cluster_dim((16, 1, 1))).unwrap_err();
        assert!(e.to_string().contains("non_portable_cluster_size"), "{e}");
    }
}
