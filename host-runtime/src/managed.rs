//! Managed (unified) memory: one address valid on host and device, migrated on demand, with
//! prefetching and placement advice.

use std::marker::PhantomData;

use kernel_std::api::DeviceType;

use crate::launch_api::{KernelSlice, KernelSliceMut, SliceArg};
use crate::memory::{byte_len, check_use};
use crate::memory_ops::track;
use crate::uses::Uses;
use crate::{Device, Error, Result, Stream};

pub use crate::options::{Advice, Location};

/// A managed array of `T` (`cudaMallocManaged`), zero-initialized, usable from host and kernels.
///
/// Host access goes through [`ManagedBuffer::as_slice`] / [`ManagedBuffer::as_mut_slice`], which
/// synchronize the device first: touching managed memory while a kernel may be using it is a data
/// race (and a fault on devices without concurrent managed access).
///
/// ```
/// use ferrocuda::host_runtime::{Advice, Location, ManagedBuffer};
/// use ferrocuda::prelude::*;
///
/// #[kernel]
/// pub fn bump(x: &mut [u64]) {
///     let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
///     if i < x.len() {
///         x[i] += i as u64;
///     }
/// }
///
/// fn main() -> Result<()> {
///     let dev = Device::default()?;
///     let s = dev.new_stream()?;
///     let mut m = ManagedBuffer::<u64>::new(&dev, 8)?;
///     m.as_mut_slice()?.fill(100); // written in place on the host
///     m.advise(Advice::SetPreferredLocation(Location::Device))?;
///     m.prefetch(Location::Device, &s)?;
///     bump::launch(&s, LaunchConfig::for_elements(8, 32), &mut m)?;
///     // Host access waits for the device first.
///     assert_eq!(m.as_slice()?[7], 107);
///     Ok(())
/// }
/// ```
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
        self.uses
            .free_when_unused(&self.device, self.addr, self.generation, false);
    }
}

impl<T: DeviceType> ManagedBuffer<T> {
    /// Allocates `len` zeroed elements attached globally (any stream may use them). On the
    /// simulator it is one simulated allocation the host reads and writes in place (launches run
    /// to completion before they return, so the host never races a kernel).
    pub fn new(device: &Device, len: usize) -> Result<Self> {
        let bytes = byte_len::<T>(len)?;
        let (addr, host) = device.ops().alloc_managed(bytes)?;
        let b = ManagedBuffer {
            device: device.clone(),
            addr,
            len,
            generation: device.generation(),
            host: host as *mut T,
            uses: Uses::new(bytes as u64),
            _t: PhantomData,
        };
        if !host.is_null() && !(host as usize).is_multiple_of(std::mem::align_of::<T>()) {
            return Err(Error::Unsupported(
                "managed memory of this element alignment on this backend",
            ));
        }
        Ok(b)
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

    /// Migrates the pages to `to` in stream order on `stream` (nothing to do on the simulator,
    /// where one memory serves host and kernels).
    pub fn prefetch(&self, to: Location, stream: &Stream) -> Result<()> {
        check_use(&self.device, self.generation, stream)?;
        let bytes = byte_len::<T>(self.len)?;
        self.device
            .ops()
            .prefetch(self.addr, bytes, to, stream.ops())
    }

    /// Gives the driver a placement hint for the whole buffer (meaningless, and accepted, on the
    /// simulator).
    pub fn advise(&self, advice: Advice) -> Result<()> {
        self.device.check_generation(self.generation)?;
        let bytes = byte_len::<T>(self.len)?;
        self.device.ops().advise(self.addr, bytes, advice)
    }
}

// SAFETY: `launch_arg` checks device and context; the buffer outlives the borrow, and its free
// is ordered after the uses it records.
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
