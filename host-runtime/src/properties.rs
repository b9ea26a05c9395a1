//! Device properties, queried once when a device is opened so launch validation and the compiler's
//! target selection never call the driver again.

/// What the runtime (and users sizing launches) need to know about a device.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceProperties {
    /// Marketing name, e.g. `NVIDIA H100 80GB HBM3`.
    pub name: String,
    /// Compute capability (major, minor).
    pub compute_capability: (u32, u32),
    /// Streaming multiprocessors.
    pub multiprocessor_count: u32,
    /// Threads per block the hardware allows.
    pub max_threads_per_block: u32,
    /// Per-axis block extent limits.
    pub max_block_dim: [u32; 3],
    /// Per-axis grid extent limits.
    pub max_grid_dim: [u32; 3],
    /// Shared memory a block may use without opting in (48 KiB on every supported GPU).
    pub shared_mem_per_block: u32,
    /// Shared memory a block may use after raising the function's dynamic limit.
    pub shared_mem_per_block_optin: u32,
    /// Shared memory per multiprocessor.
    pub shared_mem_per_multiprocessor: u32,
    /// 32-bit registers per block.
    pub registers_per_block: u32,
    /// Threads per warp.
    pub warp_size: u32,
    /// Maximum resident threads per multiprocessor.
    pub max_threads_per_multiprocessor: u32,
    /// Device memory in bytes.
    pub total_memory: usize,
    /// L2 cache bytes.
    pub l2_cache_bytes: u32,
    /// Whether kernels may run concurrently.
    pub concurrent_kernels: bool,
    /// Copy engines able to overlap with kernels.
    pub async_engine_count: u32,
    /// Whether page-locked host memory can be mapped into the device's address space.
    pub can_map_host_memory: bool,
    /// Whether managed (unified) memory is supported.
    pub managed_memory: bool,
    /// Whether host and device may access managed memory concurrently.
    pub concurrent_managed_access: bool,
    /// Whether stream-ordered allocation (`cuMemAllocAsync`) is supported.
    pub memory_pools_supported: bool,
    /// PCI bus id.
    pub pci_bus_id: u32,
    /// Whether the device runs cooperative launches (`CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH`),
    /// which `grid_sync` needs.
    pub cooperative_launch: bool,
    /// Resident blocks per multiprocessor at most, whatever their size.
    pub max_blocks_per_multiprocessor: u32,
    /// The largest L2 access policy window (`CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE`;
    /// 0 where the device has none).
    pub max_access_policy_window_size: u32,
    /// The most L2 that may be set aside for persisting accesses
    /// (`CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE`; 0 where the device has none).
    pub max_persisting_l2_cache_size: u32,
}

impl DeviceProperties {
    /// Compute capability as the compiler wants it: `major * 10 + minor`.
    pub fn sm(&self) -> u32 {
        self.compute_capability.0 * 10 + self.compute_capability.1
    }
}

/// Compile-time facts about a loaded function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FunctionAttributes {
    /// Most threads per block this function can launch with (registers, launch bounds).
    pub max_threads_per_block: u32,
    /// Statically declared shared memory.
    pub static_shared_bytes: u32,
    /// Local (spill and stack) memory per thread.
    pub local_bytes: u32,
    /// Registers per thread.
    pub num_regs: u32,
    /// PTX ISA version the function was compiled from (`major * 10 + minor`).
    pub ptx_version: u32,
    /// Architecture of the binary (`major * 10 + minor`).
    pub binary_version: u32,
}
