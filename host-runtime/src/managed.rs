//! Managed (unified) memory: one address valid on host and device, migrated on demand, with
//! prefetching and placement advice.

use std::marker::PhantomData;

use cudarc::driver::sys::{self, CUmem_advise as MA};
use kernel_std::api::DeviceType;

use crate::device::Backend;
use crate::driver::{cu, has_symbol, to_c_int};
use crate::launch_api::{KernelSlice, KernelSliceMut, SliceArg};
use crate::memory::{byte_len, check_use};
use crate::memory_ops::track;
use crate::sim_backend::SimDevice;
use crate::uses::Uses;
use crate::{Device, Error, Result, Stream};

/// Where managed memory should live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location {
    /// The buffer's device.
    Device,
    /// Host memory.
    Host,
}

/// Placement hints for managed memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Advice {
    /// Mostly read: the driver may keep read-only copies on each processor.
    SetReadMostly,
    /// Undo [`Advice::SetReadMostly`].
    UnsetReadMostly,
    /// Prefer to keep pages at the location.
    SetPreferredLocation(Location),
    /// Undo [`Advice::SetPreferredLocation`].
    UnsetPreferredLocation,
    /// The location will access the memory: keep it mapped there.
    SetAccessedBy(Location),
    /// Undo [`Advice::SetAccessedBy`].
    UnsetAccessedBy(Location),
}

/// A managed array of `T`, zero-initialized, usable from host and kernels.
///
/// Host access goes through [`ManagedBuffer::as_slice`] / [`ManagedBuffer::as_mut_slice`], which
/// synchronize the device first: touching managed memory while a kernel may be using it is a data
/// race (and a fault on devices without concurrent managed access).
pub struct ManagedBuffer<T: DeviceType> {
    device: Device,
    addr: u64,
    len: usize,
    generation: u64,
    /// Where the host reads the elements: `addr` itself on a GPU, the simulator allocation's
    /// bytes on the simulator.
    host: *mut T,
    /// Streams with queued kernels on the buffer (what a drop waits for).
    uses: Uses,
    _t: PhantomData<T>,
}

unsafe impl<T: DeviceType> Send for ManagedBuffer<T> {}
unsafe impl<T: DeviceType> Sync for ManagedBuffer<T> {}

impl<T: DeviceType> Drop for ManagedBuffer<T> {
    fn drop(&mut self) {
        self.device
            .free_after_uses(self.addr, self.generation, false, &self.uses);
    }
}

impl<T: DeviceType> ManagedBuffer<T> {
    /// Allocates `len` zeroed elements attached globally (any stream may use them).
    pub fn new(device: &Device, len: usize) -> Result<Self> {
        if let Backend::Sim(sim) = &device.inner.backend {
            return Self::new_sim(device, sim, len);
        }
        let cuda = device.cuda_arm()?;
        cuda.ctx.bind()?;
        if !cuda.props.managed_memory {
            return Err(Error::Unsupported("managed memory on this device"));
        }
        let bytes = byte_len::<T>(len)?;
        let mut addr = 0u64;
        if bytes != 0 {
            unsafe {
                cu!(cuMemAllocManaged(
                    &mut addr,
                    bytes,
                    sys::CUmemAttach_flags::CU_MEM_ATTACH_GLOBAL as u32
                ))?
            };
            unsafe { std::ptr::write_bytes(addr as usize as *mut u8, 0, bytes) };
        }
        Ok(ManagedBuffer {
            device: device.clone(),
            addr,
            len,
            generation: cuda.ctx.generation(),
            host: addr as usize as *mut T,
            uses: Uses::new(bytes as u64),
            _t: PhantomData,
        })
    }

    /// The simulator's managed memory: one simulated allocation, read and written in place by the
    /// host (launches run to completion before they return, so the host never races a kernel).
    fn new_sim(device: &Device, sim: &SimDevice, len: usize) -> Result<Self> {
        let bytes = byte_len::<T>(len)?;
        let addr = sim.alloc(bytes);
        let host = match bytes {
            0 => std::ptr::null_mut(),
            _ => sim
                .host_ptr(addr)
                .ok_or(Error::InvalidValue("simulator allocation vanished".into()))?,
        };
        let b = ManagedBuffer {
            device: device.clone(),
            addr,
            len,
            generation: 0,
            host: host as *mut T,
            uses: Uses::new(bytes as u64),
            _t: PhantomData,
        };
        if !host.is_null() && !(host as usize).is_multiple_of(std::mem::align_of::<T>()) {
            return Err(Error::Unsupported(
                "managed memory of this element alignment on the simulator",
            ));
        }
        Ok(b)
    }

    fn is_sim(&self) -> bool {
        matches!(self.device.inner.backend, Backend::Sim(_))
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the buffer is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    fn ptr(&self) -> *mut T {
        if self.len == 0 {
            std::ptr::NonNull::dangling().as_ptr()
        } else {
            self.host
        }
    }

    /// Waits for the device (reporting kernel panics), then borrows the memory on the host.
    pub fn as_slice(&self) -> Result<&[T]> {
        self.device.check_generation(self.generation)?;
        self.device.synchronize()?;
        Ok(unsafe { std::slice::from_raw_parts(self.ptr(), self.len) })
    }

    /// Waits for the device, then borrows the memory mutably on the host.
    pub fn as_mut_slice(&mut self) -> Result<&mut [T]> {
        self.device.check_generation(self.generation)?;
        self.device.synchronize()?;
        Ok(unsafe { std::slice::from_raw_parts_mut(self.ptr(), self.len) })
    }

    fn location(&self, l: Location) -> Result<sys::CUmemLocation> {
        // SAFETY: all-zero is a valid location value; the fields are set right after.
        let mut loc: sys::CUmemLocation = unsafe { std::mem::zeroed() };
        match l {
            Location::Device => {
                loc.type_ = sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_DEVICE;
                loc.id = to_c_int(self.device.ordinal(), "device ordinal")?;
            }
            Location::Host => {
                loc.type_ = sys::CUmemLocationType::CU_MEM_LOCATION_TYPE_HOST;
                loc.id = 0;
            }
        }
        Ok(loc)
    }

    /// Migrates the pages to `to` in stream order on `stream`.
    pub fn prefetch(&self, to: Location, stream: &Stream) -> Result<()> {
        check_use(&self.device, self.generation, stream)?;
        if self.is_sim() {
            // One memory serves host and kernels: nothing to migrate.
            return Ok(());
        }
        self.device.cuda_arm()?.enter(self.generation)?;
        stream.enter()?;
        if !self.device.properties().concurrent_managed_access {
            return Err(Error::Unsupported(
                "prefetching without concurrent managed access",
            ));
        }
        if !has_symbol("cuMemPrefetchAsync_v2") {
            return Err(Error::Unsupported(
                "cuMemPrefetchAsync_v2 (needs a CUDA 12.2+ driver)",
            ));
        }
        let bytes = byte_len::<T>(self.len)?;
        if bytes == 0 {
            return Ok(());
        }
        let loc = self.location(to)?;
        unsafe {
            cu!(cuMemPrefetchAsync_v2(
                self.addr,
                bytes,
                loc,
                0,
                stream.raw()
            ))
        }
    }

    /// Gives the driver a placement hint for the whole buffer.
    pub fn advise(&self, advice: Advice) -> Result<()> {
        if self.is_sim() {
            // Placement hints mean nothing where there is one memory.
            return Ok(());
        }
        self.device.cuda_arm()?.enter(self.generation)?;
        if !has_symbol("cuMemAdvise_v2") {
            return Err(Error::Unsupported(
                "cuMemAdvise_v2 (needs a CUDA 12.2+ driver)",
            ));
        }
        let bytes = byte_len::<T>(self.len)?;
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
        unsafe { cu!(cuMemAdvise_v2(self.addr, bytes, a, loc)) }
    }
}

// SAFETY: `launch_arg` checks device and context; the buffer outlives the borrow.
unsafe impl<T: DeviceType> KernelSlice<T> for ManagedBuffer<T> {
    fn kernel_arg(&self) -> SliceArg {
        SliceArg {
            ptr: self.addr,
            len: self.len as u64,
        }
    }

    fn launch_arg(&self, stream: &Stream) -> Result<SliceArg> {
        check_use(&self.device, self.generation, stream)?;
        track(&self.uses, stream, self.uses.all(), false)?;
        Ok(self.kernel_arg())
    }
}

// SAFETY: as above.
unsafe impl<T: DeviceType> KernelSliceMut<T> for ManagedBuffer<T> {
    fn kernel_arg_mut(&mut self) -> SliceArg {
        self.kernel_arg()
    }

    fn launch_arg_mut(&mut self, stream: &Stream) -> Result<SliceArg> {
        check_use(&self.device, self.generation, stream)?;
        track(&self.uses, stream, self.uses.all(), true)?;
        Ok(self.kernel_arg())
    }
}
