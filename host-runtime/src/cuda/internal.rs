//! What the runtime creates in a device's context for itself (CUDA backend), re-created after a
//! context reset:
//!
//! - the *work* stream (non-blocking): synchronous copies, memsets and allocations run there, after
//!   waiting for the streams whose uses of the memory they conflict with, then the host waits for
//!   it. Not the legacy default stream, which non-blocking streams are not ordered against, and
//!   which would also wait for every blocking stream's unrelated work;
//! - the *free* stream (non-blocking): frees of memory that several streams used wait there for all
//!   of them, without making any user stream wait for another; the host never waits for it;
//! - a memory pool for `DeviceBuffer`s (where the device supports pools), so that a drop can free
//!   in stream order (`cuMemFreeAsync`) instead of synchronizing the context. Unlike the device's
//!   default pool it may not make an allocation wait for a pending free on another stream
//!   (`CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES` off), so the work stream never inherits
//!   a wait for user kernels from a drop.

use std::sync::atomic::{AtomicPtr, Ordering};

use cudarc::driver::sys::{
    self, CUmemPool_attribute as PA, CUmemoryPool, CUstream, CUstream_flags,
};

use super::result::{self, to_c_int};
use crate::Result;

pub(crate) struct Internal {
    work: AtomicPtr<sys::CUstream_st>,
    frees: AtomicPtr<sys::CUstream_st>,
    /// Null where the device has no memory pools.
    pool: AtomicPtr<sys::CUmemPoolHandle_st>,
}

impl Internal {
    /// Creates the objects in the current context of device `ordinal`.
    pub(crate) fn create(ordinal: usize, pools: bool) -> Result<Internal> {
        let i = Internal {
            work: AtomicPtr::new(std::ptr::null_mut()),
            frees: AtomicPtr::new(std::ptr::null_mut()),
            pool: AtomicPtr::new(std::ptr::null_mut()),
        };
        i.recreate(ordinal, pools)?;
        Ok(i)
    }

    /// Creates fresh objects (after a reset destroyed the old ones with the context).
    pub(crate) fn recreate(&self, ordinal: usize, pools: bool) -> Result<()> {
        self.work.store(new_stream()?, Ordering::Release);
        self.frees.store(new_stream()?, Ordering::Release);
        // Without a pool, buffers fall back to `cuMemAlloc` (their drops then wait for the streams
        // that used them): a slower path, not a reason to refuse the device.
        let pool = match pools {
            true => new_pool(ordinal).unwrap_or(std::ptr::null_mut()),
            false => std::ptr::null_mut(),
        };
        self.pool.store(pool, Ordering::Release);
        Ok(())
    }

    #[inline]
    pub(crate) fn work(&self) -> CUstream {
        self.work.load(Ordering::Acquire)
    }

    #[inline]
    pub(crate) fn frees(&self) -> CUstream {
        self.frees.load(Ordering::Acquire)
    }

    /// The runtime's pool, `None` where the device has none.
    #[inline]
    pub(crate) fn pool(&self) -> Option<CUmemoryPool> {
        let p = self.pool.load(Ordering::Acquire);
        (!p.is_null()).then_some(p)
    }

    /// Releases everything at device teardown (the context is current and alive).
    pub(crate) fn destroy(&self) {
        // SAFETY: the runtime's own objects, used by nothing once the device is dropped.
        unsafe {
            let _ = result::stream_destroy(self.work());
            let _ = result::stream_destroy(self.frees());
            if let Some(p) = self.pool() {
                // Outstanding allocations keep the pool until they are freed.
                let _ = result::mem_pool_destroy(p);
            }
        }
    }
}

fn new_stream() -> Result<CUstream> {
    result::stream_create(CUstream_flags::CU_STREAM_NON_BLOCKING as u32)
}

fn new_pool(ordinal: usize) -> Result<CUmemoryPool> {
    // SAFETY: all-zero is a valid (default) value for every field of the props struct.
    let mut props: sys::CUmemPoolProps = unsafe { std::mem::zeroed() };
    props.allocType = sys::CUmemAllocationType::CU_MEM_ALLOCATION_TYPE_PINNED;
    props.handleTypes = sys::CUmemAllocationHandleType::CU_MEM_HANDLE_TYPE_NONE;
    props.location.type_ = sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = to_c_int(ordinal, "device ordinal")?;
    let pool = result::mem_pool_create(&props)?;
    let mut off: i32 = 0;
    // SAFETY: a live pool; the attribute is an `int`.
    let r = unsafe {
        result::mem_pool_set_attribute(
            pool,
            PA::CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES,
            &mut off as *mut i32 as *mut std::ffi::c_void,
        )
    };
    if let Err(e) = r {
        // SAFETY: just created, used by nothing.
        unsafe {
            let _ = result::mem_pool_destroy(pool);
        }
        return Err(e);
    }
    Ok(pool)
}
