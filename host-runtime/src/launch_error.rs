//! [`LaunchError`]: why the runtime refused a launch before the driver saw it. Each limit has its
//! own variant, with the numbers that broke it.

use kernel_std::api::Dim3;

/// Why a launch configuration was rejected. Each limit has its own variant.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LaunchError {
    /// A grid extent is zero.
    #[error("grid {grid:?} has a zero dimension")]
    ZeroGrid {
        /// The requested grid.
        grid: Dim3,
    },
    /// A block extent is zero.
    #[error("block {block:?} has a zero dimension")]
    ZeroBlock {
        /// The requested block.
        block: Dim3,
    },
    /// More threads per block than the device allows.
    #[error("block of {threads} threads exceeds the device limit of {max}")]
    TooManyThreads {
        /// Threads requested per block.
        threads: u64,
        /// The device's limit.
        max: u32,
    },
    /// More threads per block than this compiled function allows (registers, launch bounds).
    #[error("block of {threads} threads exceeds this kernel's limit of {max} (register use or launch bounds)")]
    KernelThreadLimit {
        /// Threads requested per block.
        threads: u64,
        /// The function's limit.
        max: u32,
    },
    /// The kernel was compiled for one block shape (`block_dim(..)`) and launched with another.
    #[error("block {block:?} is not this kernel's required block_dim {required:?}")]
    BlockShape {
        /// The requested block.
        block: Dim3,
        /// The shape the kernel requires.
        required: Dim3,
    },
    /// One block extent exceeds its per-axis limit.
    #[error("block {axis} = {value} exceeds the limit {max}")]
    BlockDimTooLarge {
        /// `'x'`, `'y'` or `'z'`.
        axis: char,
        /// Requested extent.
        value: u32,
        /// The device's limit for the axis.
        max: u32,
    },
    /// One grid extent exceeds its per-axis limit.
    #[error("grid {axis} = {value} exceeds the limit {max}")]
    GridDimTooLarge {
        /// `'x'`, `'y'` or `'z'`.
        axis: char,
        /// Requested extent.
        value: u32,
        /// The device's limit for the axis.
        max: u32,
    },
    /// Static plus dynamic shared memory exceeds what a block may opt in to.
    #[error("{static_bytes} B static + {dynamic_bytes} B dynamic shared memory exceeds the block limit of {max} B")]
    SharedMemTooLarge {
        /// Shared memory the kernel declares statically.
        static_bytes: u32,
        /// Dynamic shared memory requested by the launch.
        dynamic_bytes: u32,
        /// The device's opt-in limit per block.
        max: u32,
    },
    /// One thread per element needs more blocks than a grid holds along x.
    #[error("{elements} elements at {block} threads per block need {blocks} blocks; a grid holds at most {max} along x")]
    TooManyElements {
        /// Elements to cover.
        elements: u64,
        /// Threads per block.
        block: u32,
        /// Blocks needed.
        blocks: u64,
        /// Blocks allowed along x.
        max: u32,
    },
    /// The launcher passed a different number of arguments than the kernel has parameters.
    #[error("kernel takes {expected} parameters, {got} were passed")]
    ArgCount {
        /// Parameters of the compiled kernel.
        expected: usize,
        /// Argument pointers passed.
        got: usize,
    },
    /// A cluster extent is zero.
    #[error("cluster {cluster:?} has a zero dimension")]
    ZeroCluster {
        /// The requested cluster shape.
        cluster: Dim3,
    },
    /// Clusters (or programmatic dependent launch) on a device older than sm_90.
    #[error("{what} need compute capability 9.0; this device is sm_{sm}")]
    NeedsSm90 {
        /// `"thread block clusters"` or `"programmatic dependent launches"`.
        what: &'static str,
        /// The device's `major * 10 + minor`.
        sm: u32,
    },
    /// A grid extent that is not a whole number of clusters along the same axis.
    #[error("grid {axis} = {grid} is not a multiple of the cluster's {axis} = {cluster}")]
    GridNotClusterMultiple {
        /// `'x'`, `'y'` or `'z'`.
        axis: char,
        /// The grid's extent.
        grid: u32,
        /// The cluster's extent.
        cluster: u32,
    },
    /// More than 8 blocks per cluster without [`LaunchConfig::non_portable_cluster_size`].
    ///
    /// [`LaunchConfig::non_portable_cluster_size`]: crate::LaunchConfig::non_portable_cluster_size
    #[error("a cluster of {blocks} blocks is above the portable 8; opt in with `.non_portable_cluster_size()` (at most 16)")]
    ClusterNotPortable {
        /// Blocks per cluster.
        blocks: u64,
    },
    /// More than 16 blocks per cluster: no device schedules that.
    #[error("a cluster of {blocks} blocks exceeds the limit of {max}")]
    ClusterTooLarge {
        /// Blocks per cluster.
        blocks: u64,
        /// The most a cluster may hold (16, non-portable).
        max: u32,
    },
    /// A kernel that calls `grid_sync()` launched without [`LaunchConfig::cooperative`]: its
    /// blocks need not all be resident, so the barrier could wait forever.
    ///
    /// [`LaunchConfig::cooperative`]: crate::LaunchConfig::cooperative
    #[error("kernel `{kernel}` calls `grid_sync()`, so it must be launched cooperatively (`LaunchConfig::cooperative()`)")]
    GridSyncNeedsCooperative {
        /// The kernel's name.
        kernel: String,
    },
    /// A cooperative launch on a device without `CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH`.
    #[error("this device does not support cooperative launches")]
    CooperativeUnsupported,
    /// A cooperative launch whose grid the device cannot hold at once.
    #[error("a cooperative launch of {blocks} blocks cannot be resident at once: {per_sm} blocks of this configuration fit per multiprocessor, times {sms} multiprocessors, is {}", per_sm * sms)]
    CooperativeGridTooLarge {
        /// Blocks in the grid.
        blocks: u64,
        /// Blocks of this kernel, block size and shared memory resident per multiprocessor.
        per_sm: u64,
        /// Multiprocessors of the device.
        sms: u64,
    },
    /// A cooperative launch that is also the secondary of a programmatic dependent launch: it
    /// could overlap the kernel before it, which may be using the stream's grid barrier.
    #[error("a cooperative launch cannot also be a programmatic dependent launch")]
    CooperativeProgrammatic,
    /// A cooperative launch in a graph (captured or a kernel node): not supported, since the
    /// stream's grid barrier would be shared by every replay of the graph.
    #[error("cooperative launches (`grid_sync()`) in graphs are not supported")]
    CooperativeInGraph,
    /// The launch's L2 access policy window (`LaunchConfig::access_policy`) is not one the
    /// device takes.
    #[error("access policy window: {0}")]
    AccessPolicy(#[from] crate::access_policy::AccessPolicyError),
    /// The kernel was compiled for one cluster shape (`cluster_dims(..)`) and launched with another.
    #[error("cluster {cluster:?} is not this kernel's compile-time cluster_dims {required:?}")]
    ClusterShape {
        /// The launch's cluster shape.
        cluster: Dim3,
        /// The shape the kernel was compiled for.
        required: Dim3,
    },
}
