//! Stream-ordered allocation from memory pools (`cuMemAllocFromPoolAsync` / `cuMemFreeAsync`).
//!
//! Allocating and freeing in stream order avoids the device-wide synchronization `cuMemFree`
//! implies, and a pool with a release threshold keeps freed memory for reuse, so a loop that
//! allocates temporaries costs no driver allocation after the first iteration. A driver facility:
//! `Err(Unsupported)` on the simulator.

use cudarc::driver::sys::{self, CUmemPool_attribute as PA, CUmemoryPool};
use kernel_std::api::DeviceType;

use crate::cuda::{result, Core};
use crate::memory::{byte_len, check_use};
use crate::{Device, DeviceBuffer, Error, Result, Stream};

/// A device memory pool (`cudaMemPool_t`), for stream-ordered allocation (`cudaMallocFromPoolAsync`).
///
/// Pools are a driver facility: the simulator returns `Err(Error::Unsupported)`, which is what this
/// example checks when it has no GPU.
///
/// ```
/// use ferrocuda::host_runtime::MemPool;
/// use ferrocuda::prelude::*;
///
/// fn main() -> Result<()> {
///     let dev = Device::default()?;
///     let pool = match MemPool::new(&dev) {
///         Ok(pool) => pool,
///         Err(Error::Unsupported(what)) => {
///             println!("no pools here: {what}");
///             return Ok(());
///         }
///         Err(e) => return Err(e),
///     };
///     // Keep up to 64 MiB of freed memory for reuse instead of returning it to the driver.
///     pool.set_release_threshold(64 << 20)?;
///     let s = dev.new_stream()?;
///     for _ in 0..3 {
///         // Allocated, used and freed in stream order: no device-wide synchronization.
///         let tmp = pool.alloc::<f32>(&s, 1 << 20)?;
///         assert_eq!(tmp.len(), 1 << 20);
///     }
///     s.synchronize()?;
///     assert!(pool.reserved_bytes()? >= pool.used_bytes()?);
///     pool.trim_to(0)?;
///     Ok(())
/// }
/// ```
pub struct MemPool {
    device: Device,
    raw: CUmemoryPool,
    generation: u64,
    owned: bool,
}

// SAFETY: pool handles are usable from any thread of the process.
unsafe impl Send for MemPool {}
unsafe impl Sync for MemPool {}

impl Drop for MemPool {
    fn drop(&mut self) {
        if self.owned && self.enter().is_ok() {
            // SAFETY: our pool; outstanding allocations keep it alive until they are freed.
            unsafe {
                let _ = result::mem_pool_destroy(self.raw);
            }
        }
    }
}

impl MemPool {
    fn core(device: &Device) -> Result<&std::sync::Arc<Core>> {
        let core = device.cuda_backend()?.core();
        if !core.props.memory_pools_supported {
            return Err(Error::Unsupported("memory pools on this device"));
        }
        core.ctx.bind()?;
        Ok(core)
    }

    /// The device's default pool (the one [`DeviceBuffer::alloc_async`] uses).
    pub fn device_default(device: &Device) -> Result<MemPool> {
        let core = Self::core(device)?;
        Ok(MemPool {
            device: device.clone(),
            raw: result::device_default_mem_pool(core.cu)?,
            generation: core.ctx.generation(),
            owned: false,
        })
    }

    /// A new pool of device memory on `device`, destroyed when dropped.
    pub fn new(device: &Device) -> Result<MemPool> {
        let core = Self::core(device)?;
        // SAFETY: all-zero is a valid (default) value for every field of the props struct.
        let mut props: sys::CUmemPoolProps = unsafe { std::mem::zeroed() };
        props.allocType = sys::CUmemAllocationType::CU_MEM_ALLOCATION_TYPE_PINNED;
        props.handleTypes = sys::CUmemAllocationHandleType::CU_MEM_HANDLE_TYPE_NONE;
        props.location.type_ = sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE;
        props.location.id = result::to_c_int(core.ordinal, "device ordinal")?;
        Ok(MemPool {
            device: device.clone(),
            raw: result::mem_pool_create(&props)?,
            generation: core.ctx.generation(),
            owned: true,
        })
    }

    fn enter(&self) -> Result<()> {
        self.device.ops().enter(self.generation)
    }

    /// Allocates `len` zeroed elements in stream order on `stream`; freed in stream order when
    /// dropped.
    pub fn alloc<T: DeviceType>(&self, stream: &Stream, len: usize) -> Result<DeviceBuffer<T>> {
        self.enter()?;
        check_use(&self.device, self.generation, stream)?;
        let bytes = byte_len::<T>(len)?;
        let mut addr = 0u64;
        if bytes != 0 {
            self.enter()?;
            // SAFETY: our live pool and a live stream of its device.
            addr = unsafe { result::mem_alloc_from_pool_async(bytes, self.raw, stream.raw())? };
        }
        DeviceBuffer::adopt_stream_ordered(stream, addr, len)
    }

    /// Bytes of freed memory the pool keeps instead of returning to the system at a synchronize.
    pub fn set_release_threshold(&self, bytes: u64) -> Result<()> {
        self.enter()?;
        let mut v = bytes;
        // SAFETY: a live pool; the attribute is a `u64`.
        unsafe {
            result::mem_pool_set_attribute(
                self.raw,
                PA::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                &mut v as *mut u64 as *mut std::ffi::c_void,
            )
        }
    }

    /// Releases unused memory until the pool holds at most `keep` bytes.
    pub fn trim_to(&self, keep: usize) -> Result<()> {
        self.enter()?;
        // SAFETY: a live pool.
        unsafe { result::mem_pool_trim_to(self.raw, keep) }
    }

    fn attr(&self, a: PA) -> Result<u64> {
        self.enter()?;
        let mut v = 0u64;
        // SAFETY: a live pool; these attributes are `u64`s.
        unsafe {
            result::mem_pool_get_attribute(
                self.raw,
                a,
                &mut v as *mut u64 as *mut std::ffi::c_void,
            )?
        };
        Ok(v)
    }

    /// Bytes currently handed out to allocations.
    pub fn used_bytes(&self) -> Result<u64> {
        self.attr(PA::CU_MEMPOOL_ATTR_USED_MEM_CURRENT)
    }

    /// Bytes the pool currently holds from the system.
    pub fn reserved_bytes(&self) -> Result<u64> {
        self.attr(PA::CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT)
    }
}
