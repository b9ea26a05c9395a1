//! Device properties, queried once when a device is opened so launch validation and the compiler's
//! target selection never call the driver again.

use cudarc::driver::sys::{CUdevice, CUdevice_attribute as A};

use crate::driver::cu;
use crate::Result;

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
}

impl DeviceProperties {
    /// Compute capability as the compiler wants it: `major * 10 + minor`.
    pub fn sm(&self) -> u32 {
        self.compute_capability.0 * 10 + self.compute_capability.1
    }

    pub(crate) fn query(dev: CUdevice) -> Result<Self> {
        let attr = |a: A| -> Result<u32> {
            let mut v = 0i32;
            unsafe { cu!(cuDeviceGetAttribute(&mut v, a, dev))? };
            Ok(v.max(0) as u32)
        };
        let mut name_buf = [0 as std::ffi::c_char; 256];
        unsafe {
            cu!(cuDeviceGetName(
                name_buf.as_mut_ptr(),
                name_buf.len() as i32,
                dev
            ))?
        };
        let name = unsafe { std::ffi::CStr::from_ptr(name_buf.as_ptr()) }
            .to_string_lossy()
            .into_owned();
        let mut total = 0usize;
        unsafe { cu!(cuDeviceTotalMem_v2(&mut total, dev))? };
        Ok(DeviceProperties {
            name,
            compute_capability: (
                attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
                attr(A::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
            ),
            multiprocessor_count: attr(A::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
            max_threads_per_block: attr(A::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?,
            max_block_dim: [
                attr(A::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)?,
                attr(A::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)?,
                attr(A::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)?,
            ],
            max_grid_dim: [
                attr(A::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X)?,
                attr(A::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y)?,
                attr(A::CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z)?,
            ],
            shared_mem_per_block: attr(A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK)?,
            shared_mem_per_block_optin: attr(
                A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
            )?,
            shared_mem_per_multiprocessor: attr(
                A::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
            )?,
            registers_per_block: attr(A::CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK)?,
            warp_size: attr(A::CU_DEVICE_ATTRIBUTE_WARP_SIZE)?,
            max_threads_per_multiprocessor: attr(
                A::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
            )?,
            total_memory: total,
            l2_cache_bytes: attr(A::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)?,
            concurrent_kernels: attr(A::CU_DEVICE_ATTRIBUTE_CONCURRENT_KERNELS)? != 0,
            async_engine_count: attr(A::CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT)?,
            can_map_host_memory: attr(A::CU_DEVICE_ATTRIBUTE_CAN_MAP_HOST_MEMORY)? != 0,
            managed_memory: attr(A::CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY)? != 0,
            concurrent_managed_access: attr(A::CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS)? != 0,
            memory_pools_supported: attr(A::CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED)? != 0,
            pci_bus_id: attr(A::CU_DEVICE_ATTRIBUTE_PCI_BUS_ID)?,
        })
    }
}
