//! Page-locked host memory: the only host memory asynchronous copies overlap with kernels from,
//! and (when mapped) memory kernels can read and write directly over the bus.

use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};

use kernel_std::api::DeviceType;

use crate::memory::byte_len;
use crate::{Device, DeviceBuffer, Error, Result, Stream};

pub use crate::options::PinnedFlags;

/// A page-locked host array of `T` (`cudaMallocHost`), zero-initialized. It derefs to `[T]`, and
/// stream-ordered copies from and to it overlap with kernels. On the simulator it is ordinary host
/// memory (copies from it behave the same; there is no bus to lock pages for), and `mapped` memory
/// is `Err(Unsupported)`.
///
/// ```
/// use ferrocuda::host_runtime::{PinnedBuffer, PinnedFlags, RegisteredHost};
/// use ferrocuda::prelude::*;
///
/// fn main() -> Result<()> {
///     let dev = Device::default()?;
///     let s = dev.new_stream()?;
///     let mut staging = PinnedBuffer::<f32>::new(&dev, 4, PinnedFlags::default())?;
///     staging.copy_from_slice(&[1.0, 2.0, 3.0, 4.0]);
///     let mut d = dev.alloc_zeroed::<f32>(4)?;
///     // SAFETY: `staging` outlives the copy and is not written until `s` is synchronized.
///     unsafe { d.copy_from_host_async(&staging, &s)? };
///     s.synchronize()?;
///     assert_eq!(d.to_vec()?, [1.0, 2.0, 3.0, 4.0]);
///
///     // Existing memory can be page-locked in place for a while.
///     let mut v = vec![0.0f32; 4];
///     let mut locked = RegisteredHost::new(&dev, &mut v, PinnedFlags::default())?;
///     d.copy_to_host(&mut locked)?;
///     drop(locked);
///     assert_eq!(v, [1.0, 2.0, 3.0, 4.0]);
///     Ok(())
/// }
/// ```
pub struct PinnedBuffer<T: DeviceType> {
    device: Device,
    ptr: *mut T,
    len: usize,
    generation: u64,
    flags: PinnedFlags,
    dev_ptr: Option<u64>,
}

// SAFETY: plain host memory owned by this value.
unsafe impl<T: DeviceType + Send> Send for PinnedBuffer<T> {}
unsafe impl<T: DeviceType + Sync> Sync for PinnedBuffer<T> {}

impl<T: DeviceType> Drop for PinnedBuffer<T> {
    fn drop(&mut self) {
        let bytes = self.len * std::mem::size_of::<T>();
        // SAFETY: allocated in `new` with this size and alignment.
        unsafe {
            self.device.ops().free_pinned(
                self.ptr as *mut u8,
                bytes,
                std::mem::align_of::<T>(),
                self.generation,
            )
        }
    }
}

impl<T: DeviceType> PinnedBuffer<T> {
    /// Allocates `len` zeroed elements of page-locked memory.
    pub fn new(device: &Device, len: usize, flags: PinnedFlags) -> Result<Self> {
        let bytes = byte_len::<T>(len)?;
        let a = device
            .ops()
            .alloc_pinned(bytes, std::mem::align_of::<T>(), flags)?;
        let ptr = if a.host.is_null() {
            std::ptr::NonNull::<T>::dangling().as_ptr()
        } else {
            a.host as *mut T
        };
        Ok(PinnedBuffer {
            device: device.clone(),
            ptr,
            len,
            generation: device.generation(),
            flags,
            dev_ptr: a.device,
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

/// Existing host memory page-locked in place (`cudaHostRegister`) for as long as this value
/// lives; it derefs to the slice. See [`PinnedBuffer`] for an example.
pub struct RegisteredHost<'a, T: DeviceType> {
    device: Device,
    slice: *mut T,
    len: usize,
    generation: u64,
    dev_ptr: Option<u64>,
    /// Whether there were bytes to register (an empty slice is not).
    registered: bool,
    _borrow: PhantomData<&'a mut [T]>,
}

impl<T: DeviceType> Drop for RegisteredHost<'_, T> {
    fn drop(&mut self) {
        if self.len != 0 && self.registered {
            // SAFETY: registered in `new` in this generation (checked by the backend).
            unsafe {
                self.device
                    .ops()
                    .unregister_host(self.slice as *mut u8, self.generation)
            }
        }
    }
}

impl<'a, T: DeviceType> RegisteredHost<'a, T> {
    /// Page-locks `slice` (`portable` and `mapped` flags apply; `write_combined` is rejected).
    /// On the simulator any host memory serves the copies; only mapping is impossible.
    pub fn new(device: &Device, slice: &'a mut [T], flags: PinnedFlags) -> Result<Self> {
        if flags.write_combined {
            return Err(Error::InvalidValue(
                "write-combined applies to allocations, not registrations".into(),
            ));
        }
        let bytes = byte_len::<T>(slice.len())?;
        let p = slice.as_mut_ptr();
        // SAFETY: the borrow keeps the slice allocated until `self` unregisters it.
        let dev_ptr = unsafe { device.ops().register_host(p as *mut u8, bytes, flags)? };
        Ok(RegisteredHost {
            device: device.clone(),
            slice: p,
            len: slice.len(),
            generation: device.generation(),
            dev_ptr,
            registered: bytes != 0,
            _borrow: PhantomData,
        })
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
