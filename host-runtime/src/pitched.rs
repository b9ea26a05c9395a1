//! Pitched 2-D device memory: rows padded so each starts at the alignment the hardware coalesces
//! best, with 2-D copies between dense host arrays, dense device buffers and other pitched arrays.

use std::ffi::c_void;
use std::marker::PhantomData;

use kernel_std::api::DeviceType;

use crate::backend::{Copy2d, End2d, StreamOps};
use crate::launch_api::{KernelSlice, KernelSliceMut, SliceArg};
use crate::memory::{byte_len, check_use};
use crate::memory_ops::track;
use crate::uses::Uses;
use crate::{Device, DeviceBuffer, Error, Result, Stream};

/// A `height` x `width` array of `T` whose rows are `pitch` bytes apart (`cudaMallocPitch`).
///
/// Copies go to and from dense arrays row by row (`cudaMemcpy2D`); a kernel sees the padded array,
/// `pitch_elems() * height` elements with row `r` starting at `r * pitch_elems()`.
///
/// ```
/// use ferrocuda::host_runtime::PitchedBuffer;
/// use ferrocuda::prelude::*;
///
/// #[kernel]
/// pub fn add_row_index(pitch: u32, width: u32, a: &mut [f32]) {
///     let (x, y) = (block_idx().x * block_dim().x + thread_idx().x, block_idx().y);
///     if x < width {
///         a[(y * pitch + x) as usize] += y as f32;
///     }
/// }
///
/// fn main() -> Result<()> {
///     let dev = Device::default()?;
///     let s = dev.new_stream()?;
///     let (width, height) = (5usize, 3usize);
///     let mut a = PitchedBuffer::<f32>::new(&dev, width, height)?;
///     assert!(a.pitch_elems() >= width && a.pitch_bytes() == a.pitch_elems() * 4);
///     a.copy_from_host(&[1.0; 15])?; // dense rows in, padded rows on the device
///     let cfg = LaunchConfig {
///         grid: Dim3::new(1, height as u32, 1),
///         block: Dim3::new(32, 1, 1),
///         shared_mem_bytes: 0,
///         attrs: Default::default(),
///     };
///     add_row_index::launch(&s, cfg, a.pitch_elems() as u32, width as u32, &mut a)?;
///     let dense = a.to_vec()?; // dense rows out
///     assert_eq!(&dense[10..], [3.0; 5]);
///
///     let mut flat = dev.alloc_zeroed::<f32>(width * height)?;
///     a.copy_to_dense(&mut flat)?;
///     assert_eq!(flat.to_vec()?, dense);
///     Ok(())
/// }
/// ```
pub struct PitchedBuffer<T: DeviceType> {
    device: Device,
    addr: u64,
    pitch: usize,
    width: usize,
    height: usize,
    generation: u64,
    /// Streams with queued work on the array.
    uses: Uses,
    _t: PhantomData<T>,
}

unsafe impl<T: DeviceType> Send for PitchedBuffer<T> {}
unsafe impl<T: DeviceType> Sync for PitchedBuffer<T> {}

impl<T: DeviceType> Drop for PitchedBuffer<T> {
    fn drop(&mut self) {
        self.uses
            .free_when_unused(&self.device, self.addr, self.generation, false);
    }
}

impl<T: DeviceType> PitchedBuffer<T> {
    /// Allocates `height` rows of `width` elements, zeroed (padding included). The simulator pads
    /// rows to 512 bytes (and whole elements), like typical GPU pitches, so code that wrongly
    /// assumes dense rows fails there too.
    pub fn new(device: &Device, width: usize, height: usize) -> Result<Self> {
        let row = byte_len::<T>(width)?;
        let (addr, pitch) = device
            .ops()
            .alloc_pitched(row, height, std::mem::size_of::<T>())?;
        Ok(PitchedBuffer {
            device: device.clone(),
            addr,
            pitch,
            width,
            height,
            generation: device.generation(),
            uses: Uses::new((pitch * height) as u64),
            _t: PhantomData,
        })
    }

    /// Elements per row.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Bytes between the starts of consecutive rows.
    pub fn pitch_bytes(&self) -> usize {
        self.pitch
    }

    /// Elements between the starts of consecutive rows (what kernels index with).
    pub fn pitch_elems(&self) -> usize {
        self.pitch / std::mem::size_of::<T>().max(1)
    }

    /// The device address of row 0.
    pub fn device_ptr(&self) -> u64 {
        self.addr
    }

    /// A 2-D copy of this array's shape, after the uses of the device memory involved it
    /// conflicts with (`order`: each allocation's uses and whether the copy writes it); then
    /// `written` (held exclusively by the caller) has no pending uses left.
    fn copy_2d(
        &self,
        src: (End2d, usize),
        dst: (End2d, usize),
        order: &[(&Uses, bool)],
        written: Option<&Uses>,
    ) -> Result<()> {
        self.device.check_generation(self.generation)?;
        let copy = Copy2d {
            src: src.0,
            src_pitch: src.1,
            dst: dst.0,
            dst_pitch: dst.1,
            row_bytes: byte_len::<T>(self.width)?,
            height: self.height,
        };
        let mut after: Vec<Stream> = Vec::new();
        for (uses, write) in order {
            uses.order_before(&uses.all(), *write, &mut |s| {
                if !after.iter().any(|o| o.id() == s.id()) {
                    after.push(s.clone());
                }
                Ok(())
            })?;
        }
        let ops: Vec<&dyn StreamOps> = after.iter().map(Stream::ops).collect();
        // SAFETY: the host ends are the callers' slices of `height` rows of their pitch.
        unsafe { self.device.ops().copy_2d(self.generation, &copy, &ops)? };
        if let Some(w) = written {
            w.completed(&w.all());
        }
        Ok(())
    }

    fn dense_len(&self) -> usize {
        self.width * self.height
    }

    /// Copies a dense row-major host array (`width * height` elements) in.
    pub fn copy_from_host(&mut self, src: &[T]) -> Result<()> {
        if src.len() != self.dense_len() {
            return Err(Error::LengthMismatch {
                expected: self.dense_len(),
                got: src.len(),
            });
        }
        let row = byte_len::<T>(self.width)?;
        self.copy_2d(
            (End2d::Host(src.as_ptr() as *const c_void), row),
            (End2d::Device(self.addr), self.pitch),
            &[(&self.uses, true)],
            Some(&self.uses),
        )
    }

    /// Copies out to a dense row-major host array (waits for the device first).
    pub fn copy_to_host(&self, dst: &mut [T]) -> Result<()> {
        if dst.len() != self.dense_len() {
            return Err(Error::LengthMismatch {
                expected: self.dense_len(),
                got: dst.len(),
            });
        }
        self.read_dense(dst.as_mut_ptr())
    }

    /// Waits for the device, then writes `dense_len()` elements at `dst`.
    fn read_dense(&self, dst: *mut T) -> Result<()> {
        self.device.check_generation(self.generation)?;
        self.device.synchronize()?;
        let row = byte_len::<T>(self.width)?;
        self.copy_2d(
            (End2d::Device(self.addr), self.pitch),
            (End2d::HostMut(dst as *mut c_void), row),
            &[(&self.uses, false)],
            None,
        )
    }

    /// The contents as a dense row-major `Vec` (waits for the device first).
    pub fn to_vec(&self) -> Result<Vec<T>> {
        let n = self.dense_len();
        let mut v: Vec<T> = Vec::with_capacity(n);
        self.read_dense(v.as_mut_ptr())?;
        // SAFETY: the copy wrote all `n` elements.
        unsafe { v.set_len(n) };
        Ok(v)
    }

    /// Copies from another pitched array of the same shape.
    pub fn copy_from(&mut self, src: &PitchedBuffer<T>) -> Result<()> {
        if src.device != self.device {
            return Err(Error::WrongDevice);
        }
        if (src.width, src.height) != (self.width, self.height) {
            return Err(Error::LengthMismatch {
                expected: self.dense_len(),
                got: src.dense_len(),
            });
        }
        src.device.check_generation(src.generation)?;
        self.copy_2d(
            (End2d::Device(src.addr), src.pitch),
            (End2d::Device(self.addr), self.pitch),
            &[(&src.uses, false), (&self.uses, true)],
            Some(&self.uses),
        )
    }

    /// Copies from a dense device buffer (`width * height` elements, row-major).
    pub fn copy_from_dense(&mut self, src: &DeviceBuffer<T>) -> Result<()> {
        if *src.device() != self.device {
            return Err(Error::WrongDevice);
        }
        if src.len() != self.dense_len() {
            return Err(Error::LengthMismatch {
                expected: self.dense_len(),
                got: src.len(),
            });
        }
        let row = byte_len::<T>(self.width)?;
        src.device().check_generation(src.generation())?;
        self.copy_2d(
            (End2d::Device(src.device_ptr()), row),
            (End2d::Device(self.addr), self.pitch),
            &[(src.uses(), false), (&self.uses, true)],
            Some(&self.uses),
        )
    }

    /// Copies into a dense device buffer (`width * height` elements, row-major).
    pub fn copy_to_dense(&self, dst: &mut DeviceBuffer<T>) -> Result<()> {
        if *dst.device() != self.device {
            return Err(Error::WrongDevice);
        }
        if dst.len() != self.dense_len() {
            return Err(Error::LengthMismatch {
                expected: self.dense_len(),
                got: dst.len(),
            });
        }
        let row = byte_len::<T>(self.width)?;
        dst.device().check_generation(dst.generation())?;
        self.copy_2d(
            (End2d::Device(self.addr), self.pitch),
            (End2d::Device(dst.device_ptr()), row),
            &[(&self.uses, false), (dst.uses(), true)],
            Some(dst.uses()),
        )
    }
}

/// Kernels see the padded array: `pitch_elems() * height` elements, row `r` at `r * pitch_elems()`.
// SAFETY: `launch_arg` checks device and context; the buffer outlives the borrow.
unsafe impl<T: DeviceType> KernelSlice<T> for PitchedBuffer<T> {
    fn kernel_arg(&self) -> SliceArg {
        SliceArg {
            ptr: self.addr,
            len: (self.pitch_elems() * self.height) as u64,
        }
    }

    fn launch_arg(&self, stream: &Stream) -> Result<SliceArg> {
        check_use(&self.device, self.generation, stream)?;
        track(&self.uses, stream, self.uses.all(), false)?;
        Ok(self.kernel_arg())
    }
}

// SAFETY: as above.
unsafe impl<T: DeviceType> KernelSliceMut<T> for PitchedBuffer<T> {
    fn kernel_arg_mut(&mut self) -> SliceArg {
        self.kernel_arg()
    }

    fn launch_arg_mut(&mut self, stream: &Stream) -> Result<SliceArg> {
        check_use(&self.device, self.generation, stream)?;
        track(&self.uses, stream, self.uses.all(), true)?;
        Ok(self.kernel_arg())
    }
}
