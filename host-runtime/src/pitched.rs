//! Pitched 2-D device memory: rows padded so each starts at the alignment the hardware coalesces
//! best, with 2-D copies between dense host arrays, dense device buffers and other pitched arrays.

use std::ffi::c_void;
use std::marker::PhantomData;

use cudarc::driver::sys::{self, CUmemorytype as MT};
use kernel_std::api::DeviceType;

use crate::device::Backend;
use crate::driver::cu;
use crate::launch_api::{KernelSlice, KernelSliceMut, SliceArg};
use crate::memory::{byte_len, check_use};
use crate::memory_ops::{track, Target};
use crate::sim_backend::SimDevice;
use crate::uses::Uses;
use crate::{Device, DeviceBuffer, Error, Result, Stream};

/// Row alignment of pitched memory on the simulator.
const SIM_PITCH_ALIGN: usize = 512;

/// A `height` x `width` array of `T` whose rows are `pitch` bytes apart.
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
        self.device
            .free_after_uses(self.addr, self.generation, false, &self.uses);
    }
}

/// One side of a 2-D copy.
enum End {
    Host(*const c_void),
    HostMut(*mut c_void),
    Device(u64),
}

impl<T: DeviceType> PitchedBuffer<T> {
    /// Allocates `height` rows of `width` elements, zeroed (padding included).
    pub fn new(device: &Device, width: usize, height: usize) -> Result<Self> {
        if let Backend::Sim(sim) = &device.inner.backend {
            return Self::new_sim(device, sim, width, height);
        }
        let cuda = device.cuda_arm()?;
        cuda.ctx.bind()?;
        let size = std::mem::size_of::<T>();
        let row = byte_len::<T>(width)?;
        let mut addr = 0u64;
        let mut pitch = row;
        if row != 0 && height != 0 {
            // The driver only accepts 4, 8 or 16 as the element size (it picks the alignment).
            let elem = match size {
                0..=4 => 4,
                5..=8 => 8,
                _ => 16,
            };
            unsafe { cu!(cuMemAllocPitch_v2(&mut addr, &mut pitch, row, height, elem))? };
            if pitch % size != 0 {
                unsafe {
                    let _ = sys::cuMemFree_v2(addr);
                }
                return Err(Error::InvalidValue(format!(
                    "pitch {pitch} is not a multiple of the {size}-byte element size"
                )));
            }
        }
        let b = PitchedBuffer {
            device: device.clone(),
            addr,
            pitch,
            width,
            height,
            generation: cuda.ctx.generation(),
            uses: Uses::new((pitch * height) as u64),
            _t: PhantomData,
        };
        if addr != 0 {
            let span = b.uses.all();
            let at = Target {
                addr,
                generation: b.generation,
                uses: &b.uses,
                span: &span,
            };
            b.device.raw_fill(at, 1, 0, pitch * height)?;
        }
        Ok(b)
    }

    /// The simulator pads rows to 512 bytes (and whole elements), like typical GPU pitches, so
    /// code that wrongly assumes dense rows fails there too.
    fn new_sim(device: &Device, sim: &SimDevice, width: usize, height: usize) -> Result<Self> {
        let size = std::mem::size_of::<T>().max(1);
        let row = byte_len::<T>(width)?;
        let gcd = |mut a: usize, mut b: usize| {
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        };
        let unit = SIM_PITCH_ALIGN / gcd(SIM_PITCH_ALIGN, size) * size;
        let pitch = row
            .checked_next_multiple_of(unit)
            .ok_or_else(|| Error::InvalidValue(format!("rows of {row} bytes are too long")))?;
        let total = pitch
            .checked_mul(height)
            .ok_or_else(|| Error::InvalidValue(format!("{height} rows of {pitch} bytes")))?;
        Ok(PitchedBuffer {
            device: device.clone(),
            addr: if row == 0 { 0 } else { sim.alloc(total) },
            pitch,
            width,
            height,
            generation: 0,
            uses: Uses::new(total as u64),
            _t: PhantomData,
        })
    }

    /// Row-by-row copies through the simulator's memory.
    fn copy_2d_sim(&self, sim: &SimDevice, src: (End, usize), dst: (End, usize)) -> Result<()> {
        let row = byte_len::<T>(self.width)?;
        if row == 0 || self.height == 0 {
            return Ok(());
        }
        for r in 0..self.height {
            let (so, d_o) = (r * src.1, r * dst.1);
            match (&src.0, &dst.0) {
                (End::Host(h), End::Device(d)) => {
                    // SAFETY: the callers pass host arrays of `height` rows of `pitch` bytes.
                    let bytes =
                        unsafe { std::slice::from_raw_parts((*h as *const u8).add(so), row) };
                    sim.write(d + d_o as u64, bytes)?;
                }
                (End::HostMut(h), End::Device(d)) => {
                    let bytes =
                        unsafe { std::slice::from_raw_parts((*h as *const u8).add(so), row) };
                    sim.write(d + d_o as u64, bytes)?;
                }
                (End::Device(s), End::HostMut(h)) => {
                    let bytes =
                        unsafe { std::slice::from_raw_parts_mut((*h as *mut u8).add(d_o), row) };
                    sim.read(s + so as u64, bytes)?;
                }
                (End::Device(s), End::Device(d)) => sim.copy(d + d_o as u64, s + so as u64, row)?,
                _ => return Err(Error::InvalidValue("host-to-host 2-D copy".into())),
            }
        }
        Ok(())
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

    /// A 2-D copy of this array's shape. On CUDA it runs on the runtime's work stream after the
    /// uses of the device memory involved it conflicts with (`order`: each allocation's uses and
    /// whether the copy writes it), and the host waits for it; `written` (held exclusively by the
    /// caller) then has no pending uses left.
    fn copy_2d(
        &self,
        src: (End, usize),
        dst: (End, usize),
        order: &[(&Uses, bool)],
        written: Option<&Uses>,
    ) -> Result<()> {
        if let Backend::Sim(sim) = &self.device.inner.backend {
            return self.copy_2d_sim(sim, src, dst);
        }
        let cuda = self.device.cuda_arm()?;
        cuda.enter(self.generation)?;
        let row = byte_len::<T>(self.width)?;
        if row == 0 || self.height == 0 {
            return Ok(());
        }
        // Built field by field: CUmemorytype has no zero variant, so an all-zero value is invalid Rust.
        let (src_type, src_host, src_device) = match src.0 {
            End::Host(h) => (MT::CU_MEMORYTYPE_HOST, h, 0),
            End::HostMut(h) => (MT::CU_MEMORYTYPE_HOST, h as *const c_void, 0),
            End::Device(d) => (MT::CU_MEMORYTYPE_DEVICE, std::ptr::null(), d),
        };
        let (dst_type, dst_host, dst_device) = match dst.0 {
            End::HostMut(h) => (MT::CU_MEMORYTYPE_HOST, h, 0),
            End::Host(_) => return Err(Error::InvalidValue("read-only copy destination".into())),
            End::Device(d) => (MT::CU_MEMORYTYPE_DEVICE, std::ptr::null_mut(), d),
        };
        let mut p = sys::CUDA_MEMCPY2D {
            srcXInBytes: 0,
            srcY: 0,
            srcMemoryType: src_type,
            srcHost: src_host,
            srcDevice: src_device,
            srcArray: std::ptr::null_mut(),
            srcPitch: src.1,
            dstXInBytes: 0,
            dstY: 0,
            dstMemoryType: dst_type,
            dstHost: dst_host,
            dstDevice: dst_device,
            dstArray: std::ptr::null_mut(),
            dstPitch: dst.1,
            WidthInBytes: 0,
            Height: 0,
        };
        p.WidthInBytes = row;
        p.Height = self.height;
        let q = cuda.internal_stream();
        for (uses, write) in order {
            uses.order_before(&uses.all(), *write, &mut |s| s.order_before(q))?;
        }
        cuda.enter(self.generation)?;
        unsafe { cu!(cuMemcpy2DAsync_v2(&p, q))? };
        cuda.wait_internal()?;
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
            (End::Host(src.as_ptr() as *const c_void), row),
            (End::Device(self.addr), self.pitch),
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
            (End::Device(self.addr), self.pitch),
            (End::HostMut(dst as *mut c_void), row),
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
            (End::Device(src.addr), src.pitch),
            (End::Device(self.addr), self.pitch),
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
            (End::Device(src.device_ptr()), row),
            (End::Device(self.addr), self.pitch),
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
            (End::Device(self.addr), self.pitch),
            (End::Device(dst.device_ptr()), row),
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
