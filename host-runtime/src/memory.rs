//! Device memory: owned buffers and borrowed range views.
//!
//! The synchronous helpers are safe by construction, whatever streams (blocking or not) use the
//! buffer: reads to the host (`to_vec`, `copy_to_host`) first wait for *all* work on the device (so
//! results written by kernels on any stream are visible, and kernel panics are reported); writes
//! (`copy_from_host`, `copy_from`, `fill`, `memset`) are ordered after every queued kernel and copy
//! that uses the bytes they overwrite, on any stream (see `uses`). Launches and the `_async`
//! copies are ordered after the conflicting uses on other streams the same way; the `_async`
//! copies are `unsafe` where the host memory's lifetime cannot be checked.
//!
//! Dropping a buffer never waits: its memory comes from a pool and is freed in stream order after
//! its last uses (`cuMemFreeAsync`), so a drop stalls neither the host nor any stream (on devices
//! without memory pools it waits for the streams that used it, not the whole context).

use std::ffi::c_void;
use std::marker::PhantomData;
use std::ops::{Bound, RangeBounds};

use kernel_std::api::DeviceType;

use crate::backend::AsyncCopy;
use crate::launch_api::{KernelSlice, KernelSliceMut, SliceArg};
use crate::memory_ops::{track, Target};
use crate::uses::{Span, Uses};
use crate::{Device, Error, Result, Stream};

/// What every launch argument checks: memory of `device` (allocated in context generation
/// `generation`) may be used by work on `stream`. Peer access between devices is not supported, so
/// another device's memory is always an error.
#[inline]
pub(crate) fn check_use(device: &Device, generation: u64, stream: &Stream) -> Result<()> {
    if *stream.device() != *device {
        return Err(Error::WrongDevice);
    }
    device.check_generation(generation)
}

/// Byte size of `len` elements of `T`, or an error instead of an overflow.
pub(crate) fn byte_len<T>(len: usize) -> Result<usize> {
    len.checked_mul(std::mem::size_of::<T>())
        .ok_or_else(|| Error::InvalidValue(format!("{len} elements overflow the address space")))
}

/// Resolves a range against a length without panicking.
pub(crate) fn resolve_range(r: impl RangeBounds<usize>, len: usize) -> Result<(usize, usize)> {
    let start = match r.start_bound() {
        Bound::Included(&s) => Some(s),
        Bound::Excluded(&s) => s.checked_add(1),
        Bound::Unbounded => Some(0),
    };
    let end = match r.end_bound() {
        Bound::Included(&e) => e.checked_add(1),
        Bound::Excluded(&e) => Some(e),
        Bound::Unbounded => Some(len),
    };
    match (start, end) {
        (Some(s), Some(e)) if s <= e && e <= len => Ok((s, e)),
        (s, e) => Err(Error::OutOfRange {
            start: s.unwrap_or(usize::MAX),
            end: e.unwrap_or(usize::MAX),
            len,
        }),
    }
}

/// A region of device memory: what buffers and views share.
#[derive(Clone)]
struct Region<'a> {
    device: &'a Device,
    generation: u64,
    addr: u64,
    len: usize,
    uses: &'a Uses,
    /// The region's bytes within its allocation.
    span: Span,
}

impl Region<'_> {
    fn target(&self) -> Target<'_> {
        Target {
            addr: self.addr,
            generation: self.generation,
            uses: self.uses,
            span: &self.span,
        }
    }

    fn to_vec<T: DeviceType>(&self) -> Result<Vec<T>> {
        let bytes = byte_len::<T>(self.len)?;
        let mut v: Vec<T> = Vec::with_capacity(self.len);
        self.device.raw_read(
            self.generation,
            self.addr,
            v.as_mut_ptr() as *mut c_void,
            bytes,
        )?;
        // SAFETY: the driver wrote `len` elements; `DeviceType` values are valid for any bits the
        // device stores.
        unsafe { v.set_len(self.len) };
        Ok(v)
    }

    fn copy_to_host<T: DeviceType>(&self, dst: &mut [T]) -> Result<()> {
        if dst.len() != self.len {
            return Err(Error::LengthMismatch {
                expected: self.len,
                got: dst.len(),
            });
        }
        let bytes = byte_len::<T>(self.len)?;
        self.device.raw_read(
            self.generation,
            self.addr,
            dst.as_mut_ptr() as *mut c_void,
            bytes,
        )
    }

    /// Callers hold the region exclusively.
    fn copy_from_host<T: DeviceType>(&self, src: &[T]) -> Result<()> {
        if src.len() != self.len {
            return Err(Error::LengthMismatch {
                expected: self.len,
                got: src.len(),
            });
        }
        let bytes = byte_len::<T>(self.len)?;
        self.device
            .raw_write(self.target(), src.as_ptr() as *const c_void, bytes)
    }

    /// Callers hold `self` exclusively.
    fn copy_from(&self, src: &Region<'_>, elem: usize) -> Result<()> {
        if src.device != self.device {
            return Err(Error::WrongDevice);
        }
        if src.len != self.len {
            return Err(Error::LengthMismatch {
                expected: self.len,
                got: src.len,
            });
        }
        self.device
            .raw_copy(self.target(), src.target(), self.len * elem)
    }

    /// Callers hold the region exclusively.
    fn fill<T: DeviceType>(&self, value: T) -> Result<()> {
        let size = std::mem::size_of::<T>();
        let mut bits = 0u32;
        if matches!(size, 1 | 2 | 4) {
            // SAFETY: copies the value's `size` bytes into the low bytes of a u32 (little endian,
            // as the device is).
            unsafe {
                std::ptr::copy_nonoverlapping(
                    &value as *const T as *const u8,
                    &mut bits as *mut u32 as *mut u8,
                    size,
                )
            };
            return self.device.raw_fill(self.target(), size, bits, self.len);
        }
        self.copy_from_host(&vec![value; self.len])
    }
}

/// An owned array of `T` in device memory (`cudaMalloc`), freed when dropped, but never before the
/// work queued on it is done (dropping never waits).
///
/// Copies to the host ([`DeviceBuffer::to_vec`], [`DeviceBuffer::copy_to_host`]) wait for the
/// device first, so they see every kernel's results and report kernel panics. Writes from the host
/// are ordered after the queued work that uses the memory. Lengths must match (an
/// [`Error::LengthMismatch`], never a partial copy). Kernels take `&buf` for a `&[T]` parameter and
/// `&mut buf` for `&mut [T]`, or a [`DeviceView`] / [`DeviceViewMut`] of a range.
///
/// ```
/// use ferrocuda::prelude::*;
///
/// #[kernel]
/// pub fn square(x: &mut [i32]) {
///     let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
///     if i < x.len() {
///         x[i] *= x[i];
///     }
/// }
///
/// fn main() -> Result<()> {
///     let dev = Device::default()?;
///     let s = dev.new_stream()?;
///
///     let mut a = DeviceBuffer::upload(&dev, &[1, 2, 3, 4, 5, 6])?; // or dev.upload(..)
///     let mut b = DeviceBuffer::<i32>::zeroed(&dev, 6)?; // or dev.alloc_zeroed(6)
///     assert_eq!((a.len(), b.to_vec()?), (6, vec![0; 6]));
///
///     // A kernel on part of the buffer: a view is a checked sub-range.
///     square::launch(&s, LaunchConfig::for_elements(3, 128), &mut a.view_mut(3..)?)?;
///     assert_eq!(a.to_vec()?, [1, 2, 3, 16, 25, 36]);
///     assert!(a.view(4..9).is_err()); // out of range: an error, not a panic
///
///     // Device-to-device, host-to-device and fills.
///     b.copy_from(&a)?;
///     b.view_mut(..2)?.fill(-1)?;
///     let mut host = [0; 6];
///     b.copy_to_host(&mut host)?;
///     assert_eq!(host, [-1, -1, 3, 16, 25, 36]);
///     a.copy_from_host(&[6, 5, 4, 3, 2, 1])?;
///     a.memset(0)?;
///     assert_eq!(a.to_vec()?, [0; 6]);
///     assert!(matches!(a.copy_from_host(&[1, 2]), Err(Error::LengthMismatch { expected: 6, got: 2 })));
///
///     // Stream-ordered: allocated, copied and freed in the order of `s`.
///     let mut c = DeviceBuffer::<i32>::alloc_async(&s, 6)?;
///     c.copy_from_async(&b, &s)?;
///     square::launch(&s, LaunchConfig::for_elements(6, 128), &mut c)?;
///     assert_eq!(c.to_vec()?, [1, 1, 9, 256, 625, 1296]);
///     Ok(())
/// }
/// ```
pub struct DeviceBuffer<T: DeviceType> {
    device: Device,
    addr: u64,
    len: usize,
    generation: u64,
    /// From a memory pool: freed with `cuMemFreeAsync` in stream order.
    pooled: bool,
    /// Streams with queued work on the buffer.
    uses: Uses,
    _t: PhantomData<T>,
}

// SAFETY: device memory is not tied to a host thread; `T: DeviceType` has no references.
unsafe impl<T: DeviceType> Send for DeviceBuffer<T> {}
unsafe impl<T: DeviceType> Sync for DeviceBuffer<T> {}

impl<T: DeviceType> Drop for DeviceBuffer<T> {
    fn drop(&mut self) {
        self.uses
            .free_when_unused(&self.device, self.addr, self.generation, self.pooled);
    }
}

impl<T: DeviceType> std::fmt::Debug for DeviceBuffer<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DeviceBuffer")
            .field("type", &std::any::type_name::<T>())
            .field("len", &self.len)
            .field("addr", &format_args!("{:#x}", self.addr))
            .finish()
    }
}

impl<T: DeviceType> DeviceBuffer<T> {
    /// Allocates `len` zeroed elements (same as [`DeviceBuffer::zeroed`]; zeroing keeps every
    /// later read defined, and costs one memset next to the allocation).
    pub fn alloc(device: &Device, len: usize) -> Result<Self> {
        Self::zeroed(device, len)
    }

    /// Allocates `len` elements set to all-zero bytes.
    pub fn zeroed(device: &Device, len: usize) -> Result<Self> {
        let mut b = Self::alloc_on_work(device, len)?;
        b.memset(0)?;
        Ok(b)
    }

    /// Allocates without initializing.
    ///
    /// # Safety
    /// Reading elements before writing them yields whatever bytes the memory held, which must be
    /// valid for `T` (e.g. not for `bool`).
    pub unsafe fn alloc_uninit(device: &Device, len: usize) -> Result<Self> {
        let b = Self::alloc_on_work(device, len)?;
        device.ops().finish_init()?;
        Ok(b)
    }

    /// An allocation queued on the runtime's work stream: usable once the work stream has been
    /// waited for, which every synchronous write (the initialization) does.
    fn alloc_on_work(device: &Device, len: usize) -> Result<Self> {
        let bytes = byte_len::<T>(len)?;
        let (addr, pooled) = device.ops().alloc(bytes)?;
        Ok(DeviceBuffer {
            device: device.clone(),
            addr,
            len,
            generation: device.generation(),
            pooled,
            uses: Uses::new(bytes as u64),
            _t: PhantomData,
        })
    }

    /// Allocates and copies `data` in.
    pub fn upload(device: &Device, data: &[T]) -> Result<Self> {
        let mut b = Self::alloc_on_work(device, data.len())?;
        b.copy_from_host(data)?;
        Ok(b)
    }

    /// Stream-ordered allocation from the device's default memory pool (`cuMemAllocAsync`),
    /// zeroed on `stream`, and freed in stream order when dropped.
    pub fn alloc_async(stream: &Stream, len: usize) -> Result<Self> {
        let bytes = byte_len::<T>(len)?;
        let addr = stream.device().ops().alloc_on_stream(stream.ops(), bytes)?;
        Self::adopt_stream_ordered(stream, addr, len)
    }

    /// Wraps a stream-ordered allocation and zeroes it on the stream (its first use, a write).
    pub(crate) fn adopt_stream_ordered(stream: &Stream, addr: u64, len: usize) -> Result<Self> {
        let bytes = byte_len::<T>(len)?;
        let b = DeviceBuffer {
            device: stream.device().clone(),
            addr,
            len,
            generation: stream.device().generation(),
            pooled: true,
            uses: Uses::new(bytes as u64),
            _t: PhantomData,
        };
        if addr != 0 {
            track(&b.uses, stream, b.uses.all(), true)?;
            b.device.ops().zero_on_stream(stream.ops(), addr, bytes)?;
        }
        Ok(b)
    }

    fn region(&self) -> Region<'_> {
        Region {
            device: &self.device,
            generation: self.generation,
            addr: self.addr,
            len: self.len,
            uses: &self.uses,
            span: self.uses.all(),
        }
    }

    /// Number of elements.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the buffer has no elements.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The device the memory lives on.
    pub fn device(&self) -> &Device {
        &self.device
    }

    /// The raw device address (for raw launches and interop). Work that uses it behind the
    /// runtime's back (raw launches, other libraries) is not ordered against the buffer's copies
    /// and its free: synchronize that work's stream before either.
    pub fn device_ptr(&self) -> u64 {
        self.addr
    }

    pub(crate) fn uses(&self) -> &Uses {
        &self.uses
    }

    pub(crate) fn generation(&self) -> u64 {
        self.generation
    }

    /// Copies the whole buffer to a new `Vec` (waits for the device first).
    pub fn to_vec(&self) -> Result<Vec<T>> {
        self.region().to_vec()
    }

    /// Copies the whole buffer into `dst` (same length; waits for the device first).
    pub fn copy_to_host(&self, dst: &mut [T]) -> Result<()> {
        self.region().copy_to_host(dst)
    }

    /// Overwrites the whole buffer with `src` (same length).
    pub fn copy_from_host(&mut self, src: &[T]) -> Result<()> {
        self.region().copy_from_host(src)
    }

    /// Device-to-device copy of a buffer of the same length.
    pub fn copy_from(&mut self, src: &DeviceBuffer<T>) -> Result<()> {
        self.region()
            .copy_from(&src.region(), std::mem::size_of::<T>())
    }

    /// Sets every byte to `byte`.
    pub fn memset(&mut self, byte: u8) -> Result<()> {
        let bytes = byte_len::<T>(self.len)?;
        self.device
            .raw_fill(self.region().target(), 1, u32::from(byte), bytes)
    }

    /// Sets every element to `value` (a device memset for 1, 2 and 4-byte types).
    pub fn fill(&mut self, value: T) -> Result<()> {
        self.region().fill(value)
    }

    /// Stream-ordered host-to-device copy.
    ///
    /// # Safety
    /// `src` must stay alive and unmodified until the copy completes (synchronize `stream` or an
    /// event recorded after it). Use page-locked memory ([`crate::PinnedBuffer`]) for real overlap.
    pub unsafe fn copy_from_host_async(&mut self, src: &[T], stream: &Stream) -> Result<()> {
        check_use(&self.device, self.generation, stream)?;
        if src.len() != self.len {
            return Err(Error::LengthMismatch {
                expected: self.len,
                got: src.len(),
            });
        }
        let bytes = byte_len::<T>(self.len)?;
        if bytes == 0 {
            return Ok(());
        }
        track(&self.uses, stream, self.uses.all(), true)?;
        let copy = AsyncCopy::HostToDevice {
            dst: self.addr,
            src: src.as_ptr() as *const c_void,
            bytes,
        };
        // SAFETY: the caller keeps `src` alive until the copy completes.
        unsafe { self.device.ops().copy_on_stream(stream.ops(), copy) }
    }

    /// Stream-ordered device-to-host copy.
    ///
    /// # Safety
    /// `dst` must stay alive and must not be read until the copy completes.
    pub unsafe fn copy_to_host_async(&self, dst: &mut [T], stream: &Stream) -> Result<()> {
        check_use(&self.device, self.generation, stream)?;
        if dst.len() != self.len {
            return Err(Error::LengthMismatch {
                expected: self.len,
                got: dst.len(),
            });
        }
        let bytes = byte_len::<T>(self.len)?;
        if bytes == 0 {
            return Ok(());
        }
        track(&self.uses, stream, self.uses.all(), false)?;
        let copy = AsyncCopy::DeviceToHost {
            dst: dst.as_mut_ptr() as *mut c_void,
            src: self.addr,
            bytes,
        };
        // SAFETY: the caller keeps `dst` alive and unread until the copy completes.
        unsafe { self.device.ops().copy_on_stream(stream.ops(), copy) }
    }

    /// Stream-ordered device-to-device copy.
    pub fn copy_from_async(&mut self, src: &DeviceBuffer<T>, stream: &Stream) -> Result<()> {
        check_use(&src.device, src.generation, stream)?;
        check_use(&self.device, self.generation, stream)?;
        if src.len != self.len {
            return Err(Error::LengthMismatch {
                expected: self.len,
                got: src.len,
            });
        }
        let bytes = byte_len::<T>(self.len)?;
        if bytes == 0 {
            return Ok(());
        }
        track(&src.uses, stream, src.uses.all(), false)?;
        track(&self.uses, stream, self.uses.all(), true)?;
        let copy = AsyncCopy::DeviceToDevice {
            dst: self.addr,
            src: src.addr,
            bytes,
        };
        // SAFETY: both buffers outlive the copy: their frees are ordered after it.
        unsafe { self.device.ops().copy_on_stream(stream.ops(), copy) }
    }

    /// A read-only view of `range` (an error, not a panic, when out of bounds).
    pub fn view(&self, range: impl RangeBounds<usize>) -> Result<DeviceView<'_, T>> {
        let (s, e) = resolve_range(range, self.len)?;
        Ok(DeviceView {
            buf: self,
            offset: s,
            len: e - s,
        })
    }

    /// A mutable view of `range`.
    pub fn view_mut(&mut self, range: impl RangeBounds<usize>) -> Result<DeviceViewMut<'_, T>> {
        let (s, e) = resolve_range(range, self.len)?;
        Ok(DeviceViewMut {
            buf: self,
            offset: s,
            len: e - s,
        })
    }
}

/// A borrowed, read-only range of a [`DeviceBuffer`]: [`DeviceBuffer::view`]. Kernels take it
/// where they take `&[T]`; views of views narrow further (see [`DeviceBuffer`] for an example).
#[derive(Clone, Copy)]
pub struct DeviceView<'a, T: DeviceType> {
    buf: &'a DeviceBuffer<T>,
    offset: usize,
    len: usize,
}

/// A borrowed, mutable range of a [`DeviceBuffer`]: [`DeviceBuffer::view_mut`]. Kernels take it
/// where they take `&mut [T]`.
pub struct DeviceViewMut<'a, T: DeviceType> {
    buf: &'a mut DeviceBuffer<T>,
    offset: usize,
    len: usize,
}

macro_rules! view_common {
    ($ty:ident) => {
        impl<'a, T: DeviceType> $ty<'a, T> {
            fn region(&self) -> Region<'_> {
                Region {
                    device: &self.buf.device,
                    generation: self.buf.generation,
                    addr: self.buf.addr + (self.offset * std::mem::size_of::<T>()) as u64,
                    len: self.len,
                    uses: &self.buf.uses,
                    span: self.span(),
                }
            }

            /// The view's bytes within the buffer.
            fn span(&self) -> Span {
                let size = std::mem::size_of::<T>() as u64;
                self.offset as u64 * size..(self.offset + self.len) as u64 * size
            }

            /// Number of elements in the view.
            pub fn len(&self) -> usize {
                self.len
            }

            /// Whether the view is empty.
            pub fn is_empty(&self) -> bool {
                self.len == 0
            }

            /// Device address of the view's first element.
            pub fn device_ptr(&self) -> u64 {
                self.region().addr
            }

            /// Copies the view to a new `Vec` (waits for the device first).
            pub fn to_vec(&self) -> Result<Vec<T>> {
                self.region().to_vec()
            }

            /// Copies the view into `dst` (same length; waits for the device first).
            pub fn copy_to_host(&self, dst: &mut [T]) -> Result<()> {
                self.region().copy_to_host(dst)
            }
        }

        // SAFETY: `launch_arg` checks the device and context of the viewed buffer, which the
        // borrow keeps alive.
        unsafe impl<T: DeviceType> KernelSlice<T> for $ty<'_, T> {
            #[inline]
            fn kernel_arg(&self) -> SliceArg {
                SliceArg {
                    ptr: self.buf.addr + (self.offset * std::mem::size_of::<T>()) as u64,
                    len: self.len as u64,
                }
            }

            #[inline]
            fn launch_arg(&self, stream: &Stream) -> Result<SliceArg> {
                check_use(&self.buf.device, self.buf.generation, stream)?;
                track(&self.buf.uses, stream, self.span(), false)?;
                Ok(self.kernel_arg())
            }
        }
    };
}

view_common!(DeviceView);
view_common!(DeviceViewMut);

impl<'a, T: DeviceType> DeviceView<'a, T> {
    /// A narrower view, `range` relative to this view.
    pub fn view(&self, range: impl RangeBounds<usize>) -> Result<DeviceView<'a, T>> {
        let (s, e) = resolve_range(range, self.len)?;
        Ok(DeviceView {
            buf: self.buf,
            offset: self.offset + s,
            len: e - s,
        })
    }
}

impl<T: DeviceType> DeviceViewMut<'_, T> {
    /// A narrower mutable view, `range` relative to this view.
    pub fn view_mut(&mut self, range: impl RangeBounds<usize>) -> Result<DeviceViewMut<'_, T>> {
        let (s, e) = resolve_range(range, self.len)?;
        Ok(DeviceViewMut {
            offset: self.offset + s,
            len: e - s,
            buf: self.buf,
        })
    }

    /// Overwrites the view with `src` (same length).
    pub fn copy_from_host(&mut self, src: &[T]) -> Result<()> {
        self.region().copy_from_host(src)
    }

    /// Sets every element of the view to `value`.
    pub fn fill(&mut self, value: T) -> Result<()> {
        self.region().fill(value)
    }

    /// Device-to-device copy from a view of the same length.
    pub fn copy_from(&mut self, src: &DeviceView<'_, T>) -> Result<()> {
        self.region()
            .copy_from(&src.region(), std::mem::size_of::<T>())
    }
}

// SAFETY: as for `DeviceView`.
unsafe impl<T: DeviceType> KernelSliceMut<T> for DeviceViewMut<'_, T> {
    #[inline]
    fn kernel_arg_mut(&mut self) -> SliceArg {
        self.kernel_arg()
    }

    #[inline]
    fn launch_arg_mut(&mut self, stream: &Stream) -> Result<SliceArg> {
        check_use(&self.buf.device, self.buf.generation, stream)?;
        track(&self.buf.uses, stream, self.span(), true)?;
        Ok(self.kernel_arg())
    }
}

// SAFETY: `launch_arg` checks device and context; the buffer outlives the borrow, and its drop is
// ordered after queued work.
unsafe impl<T: DeviceType> KernelSlice<T> for DeviceBuffer<T> {
    #[inline]
    fn kernel_arg(&self) -> SliceArg {
        SliceArg {
            ptr: self.addr,
            len: self.len as u64,
        }
    }

    #[inline]
    fn launch_arg(&self, stream: &Stream) -> Result<SliceArg> {
        check_use(&self.device, self.generation, stream)?;
        track(&self.uses, stream, self.uses.all(), false)?;
        Ok(self.kernel_arg())
    }
}

// SAFETY: as above.
unsafe impl<T: DeviceType> KernelSliceMut<T> for DeviceBuffer<T> {
    #[inline]
    fn kernel_arg_mut(&mut self) -> SliceArg {
        self.kernel_arg()
    }

    #[inline]
    fn launch_arg_mut(&mut self, stream: &Stream) -> Result<SliceArg> {
        check_use(&self.device, self.generation, stream)?;
        track(&self.uses, stream, self.uses.all(), true)?;
        Ok(self.kernel_arg())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::reversed_empty_ranges)]
    fn ranges_resolve_or_fail_without_panicking() {
        assert_eq!(resolve_range(.., 10).unwrap(), (0, 10));
        assert_eq!(resolve_range(2..5, 10).unwrap(), (2, 5));
        assert_eq!(resolve_range(2..=5, 10).unwrap(), (2, 6));
        assert_eq!(resolve_range(..=9, 10).unwrap(), (0, 10));
        assert_eq!(resolve_range(10.., 10).unwrap(), (10, 10));
        assert!(matches!(
            resolve_range(5..11, 10),
            Err(Error::OutOfRange {
                start: 5,
                end: 11,
                len: 10
            })
        ));
        assert!(matches!(
            resolve_range(6..5, 10),
            Err(Error::OutOfRange { .. })
        ));
        assert!(matches!(
            resolve_range(..=usize::MAX, 10),
            Err(Error::OutOfRange { .. })
        ));
        assert!(matches!(
            resolve_range((Bound::Excluded(usize::MAX), Bound::Unbounded), 10),
            Err(Error::OutOfRange { .. })
        ));
    }

    #[test]
    fn byte_lengths_do_not_overflow() {
        assert_eq!(byte_len::<f32>(10).unwrap(), 40);
        assert!(matches!(
            byte_len::<u64>(usize::MAX / 4),
            Err(Error::InvalidValue(_))
        ));
    }
}
