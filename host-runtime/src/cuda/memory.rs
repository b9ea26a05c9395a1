//! Device, managed, pitched and page-locked memory on CUDA, ordered against the streams that use
//! it.
//!
//! A synchronous write (host to device, device to device, memset, 2-D copy) runs on the runtime's
//! work stream after that stream waited for the uses it conflicts with (the caller passes their
//! streams, see `uses`), and the host waits for the work stream. Buffers come from the runtime's
//! pool where the device has one, allocated on the work stream; they are freed with
//! `cuMemFreeAsync` on the one stream that used them (the work stream when none did), or on the
//! runtime's free stream after it waited for all of them, so a free stalls neither the host nor a
//! stream. Other memory waits for its streams (not the whole context) before `cuMemFree`.

use std::ffi::c_void;

use cudarc::driver::sys::{self, CUmem_advise as MA, CUmemorytype as MT, CUstream};

use super::device::CudaDevice;
use super::result::{self, has_symbol, to_c_int};
use crate::backend::{Copy2d, End2d, PinnedAlloc, StreamOps};
use crate::options::{Advice, Location, PinnedFlags};
use crate::{Error, Result};

impl CudaDevice {
    /// Allocates `bytes` for a buffer initialized next on the work stream: from the runtime's pool
    /// (queued there), or with `cuMemAlloc` on devices without pools.
    pub(super) fn alloc_for_init(&self, bytes: usize) -> Result<(u64, bool)> {
        self.0.ctx.bind()?;
        if bytes == 0 {
            return Ok((0, false));
        }
        match self.0.internal.pool() {
            Some(pool) => {
                // SAFETY: the runtime's own pool and stream.
                let p = unsafe { result::mem_alloc_from_pool_async(bytes, pool, self.0.work())? };
                Ok((p, true))
            }
            None => Ok((result::mem_alloc(bytes)?, false)),
        }
    }

    /// See `DeviceOps::free`.
    pub(super) fn free_after(
        &self,
        addr: u64,
        generation: u64,
        pooled: bool,
        after: &[&dyn StreamOps],
    ) {
        let core = &self.0;
        if addr == 0 || core.enter(generation).is_err() {
            return; // nothing, or the context was reset and freed it already
        }
        // SAFETY: `addr` is a live allocation of this context; every use is ordered before the
        // free (or the host waited for it).
        unsafe {
            if !pooled {
                for s in after {
                    let _ = s.synchronize();
                }
                let _ = result::mem_free(addr);
                return;
            }
            let q = match after {
                // After the runtime's own allocation and initialization (or a synchronous write
                // that waited for every use), both on the work stream.
                [] => core.work(),
                [one] if one.generation() == generation => one.raw(),
                many => {
                    // Several streams (or one from before a reset, which fails to order and falls
                    // back to waiting).
                    let q = core.internal.frees();
                    if many.iter().any(|s| s.order_before(q).is_err()) {
                        let _ = result::ctx_synchronize();
                    }
                    q
                }
            };
            let _ = core.enter(generation);
            let _ = result::mem_free_async(addr, q);
        }
    }

    /// Queues `op` on the work stream after `after`'s work and waits for it (nothing to do for a
    /// `size` of 0).
    pub(super) fn on_work(
        &self,
        generation: u64,
        size: usize,
        after: &[&dyn StreamOps],
        op: impl FnOnce(CUstream) -> Result<()>,
    ) -> Result<()> {
        let core = &self.0;
        core.enter(generation)?;
        if size == 0 {
            return Ok(());
        }
        core.work_after(after)?;
        core.enter(generation)?;
        op(core.work())?;
        core.wait_work()
    }

    /// See `DeviceOps::copy_2d`.
    ///
    /// # Safety
    /// Every host end must be valid for the rows described.
    pub(super) unsafe fn copy_2d_on_work(
        &self,
        generation: u64,
        c: &Copy2d,
        after: &[&dyn StreamOps],
    ) -> Result<()> {
        // Built field by field: CUmemorytype has no zero variant, so an all-zero value is invalid
        // Rust.
        let (src_type, src_host, src_device) = match c.src {
            End2d::Host(h) => (MT::CU_MEMORYTYPE_HOST, h, 0),
            End2d::HostMut(h) => (MT::CU_MEMORYTYPE_HOST, h as *const c_void, 0),
            End2d::Device(d) => (MT::CU_MEMORYTYPE_DEVICE, std::ptr::null(), d),
        };
        let (dst_type, dst_host, dst_device) = match c.dst {
            End2d::HostMut(h) => (MT::CU_MEMORYTYPE_HOST, h, 0),
            End2d::Host(_) => return Err(Error::InvalidValue("read-only copy destination".into())),
            End2d::Device(d) => (MT::CU_MEMORYTYPE_DEVICE, std::ptr::null_mut(), d),
        };
        let p = sys::CUDA_MEMCPY2D {
            srcXInBytes: 0,
            srcY: 0,
            srcMemoryType: src_type,
            srcHost: src_host,
            srcDevice: src_device,
            srcArray: std::ptr::null_mut(),
            srcPitch: c.src_pitch,
            dstXInBytes: 0,
            dstY: 0,
            dstMemoryType: dst_type,
            dstHost: dst_host,
            dstDevice: dst_device,
            dstArray: std::ptr::null_mut(),
            dstPitch: c.dst_pitch,
            WidthInBytes: c.row_bytes,
            Height: c.height,
        };
        let size = c.row_bytes * c.height;
        // SAFETY: the caller's contract.
        self.on_work(generation, size, after, |q| unsafe {
            result::memcpy_2d_async(&p, q)
        })
    }

    /// Managed memory of `bytes`, attached globally (any stream may use it), zeroed.
    pub(super) fn managed_alloc(&self, bytes: usize) -> Result<(u64, *mut u8)> {
        self.0.ctx.bind()?;
        if !self.0.props.managed_memory {
            return Err(Error::Unsupported("managed memory on this device"));
        }
        if bytes == 0 {
            return Ok((0, std::ptr::null_mut()));
        }
        let flags = sys::CUmemAttach_flags::CU_MEM_ATTACH_GLOBAL as u32;
        let addr = result::mem_alloc_managed(bytes, flags)?;
        // SAFETY: managed memory is host-addressable; nothing runs on it yet.
        unsafe { std::ptr::write_bytes(addr as usize as *mut u8, 0, bytes) };
        Ok((addr, addr as usize as *mut u8))
    }

    fn location(&self, l: Location) -> Result<sys::CUmemLocation> {
        // SAFETY: all-zero is a valid location value; the fields are set right after.
        let mut loc: sys::CUmemLocation = unsafe { std::mem::zeroed() };
        match l {
            Location::Device => {
                loc.type_ = sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE;
                loc.id = to_c_int(self.0.ordinal, "device ordinal")?;
            }
            Location::Host => {
                loc.type_ = sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_HOST;
                loc.id = 0;
            }
        }
        Ok(loc)
    }

    pub(super) fn managed_prefetch(
        &self,
        addr: u64,
        bytes: usize,
        to: Location,
        stream: &dyn StreamOps,
    ) -> Result<()> {
        self.0.enter(stream.generation())?;
        if !self.0.props.concurrent_managed_access {
            return Err(Error::Unsupported(
                "prefetching without concurrent managed access",
            ));
        }
        if !has_symbol("cuMemPrefetchAsync_v2") {
            return Err(Error::Unsupported(
                "cuMemPrefetchAsync_v2 (needs a CUDA 12.2+ driver)",
            ));
        }
        if bytes == 0 {
            return Ok(());
        }
        let loc = self.location(to)?;
        // SAFETY: the caller's managed allocation of `bytes` bytes.
        unsafe { result::mem_prefetch_async(addr, bytes, loc, stream.raw()) }
    }

    pub(super) fn managed_advise(&self, addr: u64, bytes: usize, advice: Advice) -> Result<()> {
        self.0.ctx.bind()?;
        if !has_symbol("cuMemAdvise_v2") {
            return Err(Error::Unsupported(
                "cuMemAdvise_v2 (needs a CUDA 12.2+ driver)",
            ));
        }
        if bytes == 0 {
            return Ok(());
        }
        let (a, loc) = match advice {
            Advice::SetReadMostly => (MA::CU_MEM_ADVISE_SET_READ_MOSTLY, Location::Device),
            Advice::UnsetReadMostly => (MA::CU_MEM_ADVISE_UNSET_READ_MOSTLY, Location::Device),
            Advice::SetPreferredLocation(l) => (MA::CU_MEM_ADVISE_SET_PREFERRED_LOCATION, l),
            Advice::UnsetPreferredLocation => {
                (MA::CU_MEM_ADVISE_UNSET_PREFERRED_LOCATION, Location::Device)
            }
            Advice::SetAccessedBy(l) => (MA::CU_MEM_ADVISE_SET_ACCESSED_BY, l),
            Advice::UnsetAccessedBy(l) => (MA::CU_MEM_ADVISE_UNSET_ACCESSED_BY, l),
        };
        let loc = self.location(loc)?;
        // SAFETY: the caller's managed allocation of `bytes` bytes.
        unsafe { result::mem_advise(addr, bytes, a, loc) }
    }

    /// `height` rows of `row_bytes` at the pitch the driver picks, zeroed (padding included).
    pub(super) fn pitched_alloc(
        &self,
        row_bytes: usize,
        height: usize,
        elem_size: usize,
    ) -> Result<(u64, usize)> {
        self.0.ctx.bind()?;
        if row_bytes == 0 || height == 0 {
            return Ok((0, row_bytes));
        }
        // The driver only accepts 4, 8 or 16 as the element size (it picks the alignment).
        let elem = match elem_size {
            0..=4 => 4,
            5..=8 => 8,
            _ => 16,
        };
        let (addr, pitch) = result::mem_alloc_pitch(row_bytes, height, elem)?;
        let free = || unsafe {
            // SAFETY: just allocated, used by nothing.
            let _ = result::mem_free(addr);
        };
        if pitch % elem_size.max(1) != 0 {
            free();
            return Err(Error::InvalidValue(format!(
                "pitch {pitch} is not a multiple of the {elem_size}-byte element size"
            )));
        }
        let generation = self.0.ctx.generation();
        let zero = self.on_work(generation, pitch * height, &[], |q| unsafe {
            // SAFETY: the allocation is `pitch * height` bytes.
            result::memset_async(addr, 1, 0, pitch * height, q)
        });
        if let Err(e) = zero {
            free();
            return Err(e);
        }
        Ok((addr, pitch))
    }

    /// Page-locked memory of `bytes`, zeroed, with its device address when mapped.
    pub(super) fn pinned_alloc(&self, bytes: usize, flags: PinnedFlags) -> Result<PinnedAlloc> {
        self.0.ctx.bind()?;
        if flags.mapped && !self.0.props.can_map_host_memory {
            return Err(Error::Unsupported(
                "mapped page-locked memory on this device",
            ));
        }
        if bytes == 0 {
            return Ok(PinnedAlloc {
                host: std::ptr::null_mut(),
                device: None,
            });
        }
        let mut bits = 0;
        if flags.portable {
            bits |= sys::CU_MEMHOSTALLOC_PORTABLE;
        }
        if flags.mapped {
            bits |= sys::CU_MEMHOSTALLOC_DEVICEMAP;
        }
        if flags.write_combined {
            bits |= sys::CU_MEMHOSTALLOC_WRITECOMBINED;
        }
        let p = result::mem_host_alloc(bytes, bits)?;
        // SAFETY: just allocated, `bytes` long.
        unsafe { std::ptr::write_bytes(p as *mut u8, 0, bytes) };
        let device = if flags.mapped {
            // SAFETY: mapped page-locked memory.
            match unsafe { result::mem_host_get_device_pointer(p) } {
                Ok(d) => Some(d),
                Err(e) => {
                    // SAFETY: ours, used by nothing.
                    unsafe {
                        let _ = result::mem_free_host(p);
                    }
                    return Err(e);
                }
            }
        } else {
            None
        };
        Ok(PinnedAlloc {
            host: p as *mut u8,
            device,
        })
    }

    /// Page-locks `bytes` at `p`; the device address when mapped.
    ///
    /// # Safety
    /// `p` must point at `bytes` bytes that stay allocated until unregistered.
    pub(super) unsafe fn host_register(
        &self,
        p: *mut u8,
        bytes: usize,
        flags: PinnedFlags,
    ) -> Result<Option<u64>> {
        self.0.ctx.bind()?;
        if bytes == 0 {
            return Ok(None);
        }
        let mut bits = 0;
        if flags.portable {
            bits |= sys::CU_MEMHOSTREGISTER_PORTABLE;
        }
        if flags.mapped {
            bits |= sys::CU_MEMHOSTREGISTER_DEVICEMAP;
        }
        // SAFETY: the caller's contract.
        unsafe { result::mem_host_register(p as *mut c_void, bytes, bits)? };
        if !flags.mapped {
            return Ok(None);
        }
        // SAFETY: registered with DEVICEMAP just now.
        match unsafe { result::mem_host_get_device_pointer(p as *mut c_void) } {
            Ok(d) => Ok(Some(d)),
            Err(e) => {
                // SAFETY: registered above.
                unsafe {
                    let _ = result::mem_host_unregister(p as *mut c_void);
                }
                Err(e)
            }
        }
    }
}
