//! Launch attributes beyond `<<<grid, block, shared>>>`: thread block clusters and programmatic
//! dependent launch (guide 3.2.x / seed 004, sm_90), and cooperative launches (any arch). A launch that sets any of them goes through
//! `cuLaunchKernelEx` with one `CUlaunchAttribute` each; one that sets none takes the plain
//! `cuLaunchKernel` path, unchanged.

use kernel_std::api::Dim3;

use crate::access_policy::AccessPolicyWindow;

/// The attributes of one launch that `<<<..>>>` cannot say. `LaunchAttrs::default()` (also
/// `LaunchAttrs::NONE`) is an ordinary launch.
///
/// Checked before the driver with the rest of the configuration (`crate::launch::validate`): a
/// cluster needs sm_90, no zero extent, a grid that is a whole number of clusters, at most 8 blocks
/// (16 with [`LaunchConfig::non_portable_cluster_size`](crate::LaunchConfig::non_portable_cluster_size)), and the kernel's own
/// `#[kernel(cluster_dims(..))]` when it has one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct LaunchAttrs {
    /// Blocks per cluster (`CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION`, `__cluster_dims__` at run
    /// time). `None`: the kernel's compile-time `cluster_dims`, or no clusters.
    pub cluster: Option<Dim3>,
    /// Allows clusters of 9 to 16 blocks (`CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED`,
    /// raised on the function once); the H100 schedules 16, other sm_90 parts may not.
    pub non_portable_cluster: bool,
    /// Programmatic dependent launch (`CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION`):
    /// this, the secondary kernel, may start once every block of the previous kernel on the stream
    /// has called `trigger_programmatic_launch_completion()` (or exited); it must call
    /// `grid_dependency_sync()` before reading what the primary wrote.
    pub programmatic_serialization: bool,
    /// A cooperative launch (`CU_LAUNCH_ATTRIBUTE_COOPERATIVE`, `cudaLaunchCooperativeKernel`):
    /// every block of the grid is resident at once, so the kernel may call `grid_sync()`. The
    /// grid is checked against the device's occupancy (blocks per multiprocessor times
    /// multiprocessors) before the driver; a kernel that calls `grid_sync()` must be launched so.
    pub cooperative: bool,
    /// An L2 access policy window (`CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW`, sm_80+): a hint
    /// to the cache only, checked against the device's largest window.
    pub access_policy: Option<AccessPolicyWindow>,
    /// The launch's priority (`CU_LAUNCH_ATTRIBUTE_PRIORITY`), as a stream priority: lower is
    /// more urgent, within [`Device::stream_priority_range`](crate::Device::stream_priority_range)
    /// (the driver clamps values outside it). `None`: the stream's.
    pub priority: Option<i32>,
}

impl LaunchAttrs {
    /// No attributes: an ordinary launch.
    pub const NONE: LaunchAttrs = LaunchAttrs {
        cluster: None,
        non_portable_cluster: false,
        programmatic_serialization: false,
        cooperative: false,
        access_policy: None,
        priority: None,
    };

    /// Whether any attribute is set (the launch then needs `cuLaunchKernelEx`).
    pub fn any(&self) -> bool {
        *self != LaunchAttrs::NONE
    }
}
