//! Page-locked host memory: the only host memory asynchronous copies overlap with kernels from,
//! and (when mapped) memory kernels can read and write directly over the bus.

use std::alloc::Layout;
use std::ffi::c_void;
use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

use kernel_std::api::DeviceType;

use crate::driver::cu;
use crate::memory::byte_len;
use crate::{BackendKind, Device, DeviceBuffer, Error, Result, Stream};

/// How page-locked memory is allocated or registered.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PinnedFlags {
    /// Page-locked for every context, not only the allocating one.
    pub portable: bool,
    /// Mapped into the device address space (see [`PinnedBuffer::device_ptr`]).
    pub mapped: bool,
    /// Write-combined: faster host-to-device transfers, very slow host reads. Allocation only.
    pub write_combined: bool,
}

/// A page-locked host array of `T`, zero-initialized.
pub struct PinnedBuffer<T: DeviceType> {
    device: Device,
    ptr: *mut T,
    len: usize,
    generation: u64,
    flags: PinnedFlags,
    dev_ptr: Option<u64>,
    /// On the simulator: the layout of the ordinary host allocation standing in for page-locked
    /// memory (copies from it behave the same; there is no bus to lock pages for).
    sim_layout: Option<Layout>,
}

// SAFETY: plain host memory owned by this value.
unsafe impl<T: DeviceType + Send> Send for PinnedBuffer<T> {}
unsafe impl<T: DeviceType + Sync> Sync for PinnedBuffer<T> {}

impl<T: DeviceType> Drop for PinnedBuffer<T> {
    fn drop(&mut self) {
        if let Some(layout) = self.sim_layout {
            // SAFETY: allocated in `new_sim` with this layout.
            unsafe { std::alloc::dealloc(self.ptr as *mut u8, layout) };
            return;
        }
        let Ok(cuda) = self.device.cuda_arm() else {
            return;
        };
        if self.len != 0 && cuda.enter(self.generation).is_ok() {
            unsafe {
                let _ = cudarc::driver::sys::cuMemFreeHost(self.ptr as *mut c_void);
            }
        }
    }
}

impl<T: DeviceType> PinnedBuffer<T> {
    /// Allocates `len` zeroed elements of page-locked memory.
    pub fn new(device: &Device, len: usize, flags: PinnedFlags) -> Result<Self> {
        if device.backend() == BackendKind::Sim {
            return Self::new_sim(device, len, flags);
        }
        let cuda = device.cuda_arm()?;
        cuda.ctx.bind()?;
        let bytes = byte_len::<T>(len)?;
        if flags.mapped && !cuda.props.can_map_host_memory {
            return Err(Error::Unsupported(
                "mapped page-locked memory on this device",
            ));
        }
        let mut bits = 0;
        if flags.portable {
            bits |= cudarc::driver::sys::CU_MEMHOSTALLOC_PORTABLE;
        }
        if flags.mapped {
            bits |= cudarc::driver::sys::CU_MEMHOSTALLOC_DEVICEMAP;
        }
        if flags.write_combined {
            bits |= cudarc::driver::sys::CU_MEMHOSTALLOC_WRITECOMBINED;
        }
        let mut p: *mut c_void = std::ptr::NonNull::<T>::dangling().as_ptr() as *mut c_void;
        if bytes != 0 {
            unsafe { cu!(cuMemHostAlloc(&mut p, bytes, bits))? };
            unsafe { std::ptr::write_bytes(p as *mut u8, 0, bytes) };
        }
        let mut b = PinnedBuffer {
            device: device.clone(),
            ptr: p as *mut T,
            len,
            generation: cuda.ctx.generation(),
            flags,
            dev_ptr: None,
            sim_layout: None,
        };
        if flags.mapped && bytes != 0 {
            let mut d = 0u64;
            unsafe { cu!(cuMemHostGetDevicePointer_v2(&mut d, p, 0))? };
            b.dev_ptr = Some(d);
        }
        Ok(b)
    }

    /// Ordinary zeroed host memory. Mapped memory would need kernels to address host memory,
    /// which simulated device memory cannot alias.
    fn new_sim(device: &Device, len: usize, flags: PinnedFlags) -> Result<Self> {
        if flags.mapped {
            return Err(Error::Unsupported(
                "mapped page-locked memory on the simulator",
            ));
        }
        byte_len::<T>(len)?;
        let layout = Layout::array::<T>(len)
            .map_err(|_| Error::InvalidValue(format!("{len} elements do not fit in memory")))?;
        let ptr = if layout.size() == 0 {
            std::ptr::NonNull::<T>::dangling().as_ptr()
        } else {
            // SAFETY: the layout has a nonzero size.
            let p = unsafe { std::alloc::alloc_zeroed(layout) } as *mut T;
            if p.is_null() {
                return Err(Error::InvalidValue(format!(
                    "cannot allocate {} bytes of host memory",
                    layout.size()
                )));
            }
            p
        };
        Ok(PinnedBuffer {
            device: device.clone(),
            ptr,
            len,
            generation: 0,
            flags,
            dev_ptr: None,
            sim_layout: (layout.size() != 0).then_some(layout),
        })
    }

    /// Allocates and copies `data` in.
    pub fn from_slice(device: &Device, data: &[T], flags: PinnedFlags) -> Result<Self> {
        let mut b = Self::new(device, data.len(), flags)?;
        b.copy_from_slice(data);
        Ok(b)
    }

    /// The device address of mapped memory (`None` unless allocated with `mapped`).
    pub fn device_ptr(&self) -> Option<u64> {
        self.dev_ptr
    }

    /// The flags the buffer was allocated with.
    pub fn flags(&self) -> PinnedFlags {
        self.flags
    }

    /// Page-locked memory belongs to the context that allocated it unless it is `portable`.
    fn check_stream(&self, stream: &Stream) -> Result<()> {
        if !self.flags.portable && *stream.device() != self.device {
            return Err(Error::WrongDevice);
        }
        Ok(())
    }

    /// Stream-ordered copy of `src` into this buffer.
    ///
    /// # Safety
    /// The buffer must not be read or dropped until the copy completes.
    pub unsafe fn copy_from_device_async(
        &mut self,
        src: &DeviceBuffer<T>,
        stream: &Stream,
    ) -> Result<()> {
        self.check_stream(stream)?;
        let dst: &mut [T] = &mut *self;
        unsafe { src.copy_to_host_async(dst, stream) }
    }

    /// Stream-ordered copy of this buffer into `dst`.
    ///
    /// # Safety
    /// The buffer must not be written or dropped until the copy completes.
    pub unsafe fn copy_to_device_async(
        &self,
        dst: &mut DeviceBuffer<T>,
        stream: &Stream,
    ) -> Result<()> {
        self.check_stream(stream)?;
        unsafe { dst.copy_from_host_async(self, stream) }
    }
}

impl<T: DeviceType> Deref for PinnedBuffer<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        // SAFETY: `len` initialized elements (zeroed at allocation).
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl<T: DeviceType> DerefMut for PinnedBuffer<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

/// Existing host memory page-locked in place for as long as this value lives.
pub struct RegisteredHost<'a, T: DeviceType> {
    device: Device,
    slice: *mut T,
    len: usize,
    generation: u64,
    dev_ptr: Option<u64>,
    _borrow: PhantomData<&'a mut [T]>,
}

impl<T: DeviceType> Drop for RegisteredHost<'_, T> {
    fn drop(&mut self) {
        let Ok(cuda) = self.device.cuda_arm() else {
            return;
        };
        if self.len != 0 && cuda.enter(self.generation).is_ok() {
            unsafe {
                let _ = cudarc::driver::sys::cuMemHostUnregister(self.slice as *mut c_void);
            }
        }
    }
}

impl<'a, T: DeviceType> RegisteredHost<'a, T> {
    /// Page-locks `slice` (`portable` and `mapped` flags apply; `write_combined` is rejected).
    pub fn new(device: &Device, slice: &'a mut [T], flags: PinnedFlags) -> Result<Self> {
        if flags.write_combined {
            return Err(Error::InvalidValue(
                "write-combined applies to allocations, not registrations".into(),
            ));
        }
        if device.backend() == BackendKind::Sim {
            // Any host memory serves the simulator's copies; only mapping is impossible.
            if flags.mapped {
                return Err(Error::Unsupported(
                    "mapped page-locked memory on the simulator",
                ));
            }
            return Ok(RegisteredHost {
                device: device.clone(),
                slice: slice.as_mut_ptr(),
                len: slice.len(),
                generation: 0,
                dev_ptr: None,
                _borrow: PhantomData,
            });
        }
        let cuda = device.cuda_arm()?;
        cuda.ctx.bind()?;
        let bytes = byte_len::<T>(slice.len())?;
        let mut bits = 0;
        if flags.portable {
            bits |= cudarc::driver::sys::CU_MEMHOSTREGISTER_PORTABLE;
        }
        if flags.mapped {
            bits |= cudarc::driver::sys::CU_MEMHOSTREGISTER_DEVICEMAP;
        }
        let p = slice.as_mut_ptr();
        if bytes != 0 {
            unsafe { cu!(cuMemHostRegister_v2(p as *mut c_void, bytes, bits))? };
        }
        let mut r = RegisteredHost {
            device: device.clone(),
            slice: p,
            len: slice.len(),
            generation: cuda.ctx.generation(),
            dev_ptr: None,
            _borrow: PhantomData,
        };
        if flags.mapped && bytes != 0 {
            let mut d = 0u64;
            unsafe { cu!(cuMemHostGetDevicePointer_v2(&mut d, p as *mut c_void, 0))? };
            r.dev_ptr = Some(d);
        }
        Ok(r)
    }

    /// The device address when registered with `mapped`.
    pub fn device_ptr(&self) -> Option<u64> {
        self.dev_ptr
    }
}

impl<T: DeviceType> Deref for RegisteredHost<'_, T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        unsafe { std::slice::from_raw_parts(self.slice, self.len) }
    }
}

impl<T: DeviceType> DerefMut for RegisteredHost<'_, T> {
    fn deref_mut(&mut self) -> &mut [T] {
        unsafe { std::slice::from_raw_parts_mut(self.slice, self.len) }
    }
}
