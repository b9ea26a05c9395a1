//! Stream-ordered allocation from memory pools (`cuMemAllocFromPoolAsync` / `cuMemFreeAsync`).
//!
//! Allocating and freeing in stream order avoids the device-wide synchronization `cuMemFree`
//! implies, and a pool with a release threshold keeps freed memory for reuse, so a loop that
//! allocates temporaries costs no driver allocation after the first iteration.

use cudarc::driver::sys::{self, CUmemPool_attribute as PA, CUmemoryPool};
use kernel_std::api::DeviceType;

use crate::driver::{cu, to_c_int};
use crate::memory::byte_len;
use crate::{Device, DeviceBuffer, Error, Result, Stream};

/// A device memory pool.
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
        let Ok(cuda) = self.device.cuda_arm() else {
            return;
        };
        if self.owned && cuda.enter(self.generation).is_ok() {
            unsafe {
                let _ = sys::cuMemPoolDestroy(self.raw);
            }
        }
    }
}

impl MemPool {
    /// The device's default pool (the one [`DeviceBuffer::alloc_async`] uses).
    pub fn device_default(device: &Device) -> Result<MemPool> {
        let cuda = device.cuda_arm()?;
        Self::require_support(device)?;
        cuda.ctx.bind()?;
        let mut raw: CUmemoryPool = std::ptr::null_mut();
        unsafe { cu!(cuDeviceGetDefaultMemPool(&mut raw, cuda.cu))? };
        Ok(MemPool {
            device: device.clone(),
            raw,
            generation: cuda.ctx.generation(),
            owned: false,
        })
    }

    /// A new pool of device memory on `device`, destroyed when dropped.
    pub fn new(device: &Device) -> Result<MemPool> {
        let cuda = device.cuda_arm()?;
        Self::require_support(device)?;
        cuda.ctx.bind()?;
        // SAFETY: all-zero is a valid (default) value for every field of the props struct.
        let mut props: sys::CUmemPoolProps = unsafe { std::mem::zeroed() };
        props.allocType = sys::CUmemAllocationType::CU_MEM_ALLOCATION_TYPE_PINNED;
        props.handleTypes = sys::CUmemAllocationHandleType::CU_MEM_HANDLE_TYPE_NONE;
        props.location.type_ = sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE;
        props.location.id = to_c_int(cuda.ordinal, "device ordinal")?;
        let mut raw: CUmemoryPool = std::ptr::null_mut();
        unsafe { cu!(cuMemPoolCreate(&mut raw, &props))? };
        Ok(MemPool {
            device: device.clone(),
            raw,
            generation: cuda.ctx.generation(),
            owned: true,
        })
    }

    fn require_support(device: &Device) -> Result<()> {
        if device.properties().memory_pools_supported {
            Ok(())
        } else {
            Err(Error::Unsupported("memory pools on this device"))
        }
    }

    fn enter(&self) -> Result<()> {
        self.device.cuda_arm()?.enter(self.generation)
    }

    /// Allocates `len` zeroed elements in stream order on `stream`; freed on `stream` when dropped.
    pub fn alloc<T: DeviceType>(&self, stream: &Stream, len: usize) -> Result<DeviceBuffer<T>> {
        self.enter()?;
        if *stream.device() != self.device {
            return Err(Error::WrongDevice);
        }
        stream.enter()?;
        let bytes = byte_len::<T>(len)?;
        let mut addr = 0u64;
        if bytes != 0 {
            unsafe {
                cu!(cuMemAllocFromPoolAsync(
                    &mut addr,
                    bytes,
                    self.raw,
                    stream.raw()
                ))?
            };
        }
        DeviceBuffer::adopt_stream_ordered(stream, addr, len)
    }

    /// Bytes of freed memory the pool keeps instead of returning to the system at a synchronize.
    pub fn set_release_threshold(&self, bytes: u64) -> Result<()> {
        self.enter()?;
        let mut v = bytes;
        unsafe {
            cu!(cuMemPoolSetAttribute(
                self.raw,
                PA::CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                &mut v as *mut u64 as *mut std::ffi::c_void
            ))
        }
    }

    /// Releases unused memory until the pool holds at most `keep` bytes.
    pub fn trim_to(&self, keep: usize) -> Result<()> {
        self.enter()?;
        unsafe { cu!(cuMemPoolTrimTo(self.raw, keep)) }
    }

    fn attr(&self, a: PA) -> Result<u64> {
        self.enter()?;
        let mut v = 0u64;
        unsafe {
            cu!(cuMemPoolGetAttribute(
                self.raw,
                a,
                &mut v as *mut u64 as *mut std::ffi::c_void
            ))?
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
