//! Streams: ordered queues of device work, with host callbacks and timing.
//!
//! Host callbacks are Rust closures run by the driver's callback thread. A panic in one must not
//! unwind into the driver (that is undefined behaviour), so the trampoline catches it and stores
//! the message on the stream; the next [`Stream::synchronize`] returns it as
//! [`Error::CallbackPanic`]. Callbacks must not call into CUDA (a driver rule).

use std::any::Any;
use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use cudarc::driver::sys::{self, CUevent, CUresult, CUstream};

use crate::device::Backend;
use crate::driver::cu;
use crate::event::{Event, EventFlags};
use crate::panic_slots::SlotHandle;
use crate::{BackendKind, Device, Error, Result};

/// How to create a stream.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StreamOptions {
    /// Don't synchronize with the legacy default stream (`CU_STREAM_NON_BLOCKING`). The runtime's
    /// own copies, launches and frees are ordered after the work that uses the same memory on any
    /// stream either way (see `memory`); this only matters for work queued behind the runtime's
    /// back (raw launches, other libraries) on the legacy stream.
    pub non_blocking: bool,
    /// Priority within [`Device::stream_priority_range`] (lower is more urgent; 0 is normal).
    pub priority: i32,
}

/// An ordered queue of device work.
#[derive(Clone)]
pub struct Stream {
    pub(crate) inner: Arc<StreamInner>,
}

pub(crate) struct StreamInner {
    device: Device,
    raw: CUstream,
    generation: u64,
    /// Process-unique: what the simulator files a kernel's errors under.
    id: u64,
    /// Where this stream's kernels report panics (CUDA only).
    slot: Option<SlotHandle>,
    /// An event other queues wait on to be ordered after this stream's work (created on first use).
    fence: OnceLock<Fence>,
    /// Messages of callbacks that panicked, reported at the next synchronize.
    panics: Arc<Mutex<Vec<String>>>,
}

static NEXT_STREAM_ID: AtomicU64 = AtomicU64::new(1);

/// A driver event handle (only recorded and waited on; timing disabled).
struct Fence(CUevent);

// SAFETY: event handles are usable from any thread of the process.
unsafe impl Send for Fence {}
unsafe impl Sync for Fence {}

// SAFETY: CUstream handles are usable from any thread of the process.
unsafe impl Send for StreamInner {}
unsafe impl Sync for StreamInner {}

impl Drop for StreamInner {
    fn drop(&mut self) {
        let Ok(cuda) = self.device.cuda_arm() else {
            return;
        };
        if cuda.enter(self.generation).is_ok() {
            // Pending work still completes; the driver releases the stream afterwards, and the
            // panic slot stays reserved until a device synchronize has seen that work finish.
            unsafe {
                let _ = sys::cuStreamDestroy_v2(self.raw);
                // Waits already queued on the event keep it alive until they resolve.
                if let Some(f) = self.fence.get() {
                    let _ = sys::cuEventDestroy_v2(f.0);
                }
            }
            if let Some(slot) = &self.slot {
                cuda.panics.retire(slot);
            }
        }
    }
}

impl std::fmt::Debug for Stream {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Stream")
            .field("device", &self.inner.device)
            .field("raw", &self.inner.raw)
            .finish()
    }
}

impl Stream {
    /// Creates a stream with default options.
    pub fn new(device: &Device) -> Result<Stream> {
        Stream::with_options(device, StreamOptions::default())
    }

    /// Creates a stream with the given flags and priority.
    pub fn with_options(device: &Device, opts: StreamOptions) -> Result<Stream> {
        if device.backend() == BackendKind::Sim {
            // Simulated launches complete before they return: a stream is only a handle.
            return Ok(Stream {
                inner: Arc::new(StreamInner {
                    device: device.clone(),
                    raw: std::ptr::null_mut(),
                    generation: 0,
                    id: NEXT_STREAM_ID.fetch_add(1, Ordering::Relaxed),
                    slot: None,
                    fence: OnceLock::new(),
                    panics: Arc::default(),
                }),
            });
        }
        let cuda = device.cuda_arm()?;
        cuda.ctx.bind()?;
        let flags = if opts.non_blocking {
            sys::CUstream_flags::CU_STREAM_NON_BLOCKING as u32
        } else {
            sys::CUstream_flags::CU_STREAM_DEFAULT as u32
        };
        let slot = cuda.panics.take(cuda.internal_stream())?;
        let mut raw: CUstream = std::ptr::null_mut();
        if let Err(e) = unsafe { cu!(cuStreamCreateWithPriority(&mut raw, flags, opts.priority)) } {
            cuda.panics.retire(&slot);
            return Err(e);
        }
        Ok(Stream {
            inner: Arc::new(StreamInner {
                device: device.clone(),
                raw,
                generation: cuda.ctx.generation(),
                id: NEXT_STREAM_ID.fetch_add(1, Ordering::Relaxed),
                slot: Some(slot),
                fence: OnceLock::new(),
                panics: Arc::default(),
            }),
        })
    }

    /// The device the stream belongs to.
    #[inline]
    pub fn device(&self) -> &Device {
        &self.inner.device
    }

    #[inline]
    pub(crate) fn generation(&self) -> u64 {
        self.inner.generation
    }

    /// The raw driver handle, for interop with code calling the driver directly (null on the
    /// simulator).
    #[inline]
    pub fn raw(&self) -> CUstream {
        self.inner.raw
    }

    /// Process-unique id of the stream.
    #[inline]
    pub(crate) fn id(&self) -> u64 {
        self.inner.id
    }

    /// The device address of the stream's panic slot: the trailing kernel argument (0 on the
    /// simulator, which reports panics itself).
    #[inline]
    pub(crate) fn panic_slot_addr(&self) -> u64 {
        self.inner.slot.as_ref().map_or(0, |s| s.dev)
    }

    /// Makes the driver queue `waiter` wait for all work enqueued on this stream so far (an event
    /// recorded now, then `cuStreamWaitEvent`). Recording the same event again later only makes a
    /// wait that has not been enqueued yet wait longer, never shorter, so concurrent callers need
    /// no lock. Nothing to do on the simulator, whose work completes when enqueued.
    pub(crate) fn order_before(&self, waiter: CUstream) -> Result<()> {
        if self.is_sim() {
            return Ok(());
        }
        self.enter()?;
        let fence = match self.inner.fence.get() {
            Some(f) => f.0,
            None => {
                let mut ev: CUevent = std::ptr::null_mut();
                let flags = sys::CUevent_flags::CU_EVENT_DISABLE_TIMING as u32;
                unsafe { cu!(cuEventCreate(&mut ev, flags))? };
                if let Err(Fence(lost)) = self.inner.fence.set(Fence(ev)) {
                    unsafe {
                        let _ = sys::cuEventDestroy_v2(lost);
                    }
                }
                self.inner.fence.get().expect("just set").0
            }
        };
        unsafe {
            cu!(cuEventRecord(fence, self.raw()))?;
            cu!(cuStreamWaitEvent(waiter, fence, 0))
        }
    }

    /// Reports a kernel panic of this stream's kernels (once). Call after its work completed.
    pub(crate) fn check_panics(&self) -> Result<()> {
        match &self.device().inner.backend {
            Backend::Cuda(cuda) => match &self.inner.slot {
                Some(slot) => cuda.panics.check_slot(slot, cuda.internal_stream()),
                None => Ok(()),
            },
            Backend::Sim(sim) => sim.synchronize_stream(self.id()),
        }
    }

    #[inline]
    pub(crate) fn is_sim(&self) -> bool {
        self.device().backend() == BackendKind::Sim
    }

    /// Binds the stream's context; `ContextLost` after a reset.
    #[inline]
    pub(crate) fn enter(&self) -> Result<&crate::device::CudaDevice> {
        let cuda = self.inner.device.cuda_arm()?;
        cuda.enter(self.inner.generation)?;
        Ok(cuda)
    }

    /// Waits for the stream's work, then reports a driver error, a panic of a kernel this stream
    /// ran, or a panicked host callback of this stream, in that order. Panics of kernels on other
    /// streams are left for their own stream's (or the device's) synchronize.
    pub fn synchronize(&self) -> Result<()> {
        if !self.is_sim() {
            self.enter()?;
            unsafe { cu!(cuStreamSynchronize(self.raw()))? };
        }
        self.check_panics()?;
        self.take_callback_panic()
    }

    /// `Ok(true)` when all work has completed, `Ok(false)` while some is pending.
    pub fn query(&self) -> Result<bool> {
        if self.is_sim() {
            return Ok(true);
        }
        self.enter()?;
        match unsafe { sys::cuStreamQuery(self.raw()) } {
            CUresult::CUDA_SUCCESS => Ok(true),
            CUresult::CUDA_ERROR_NOT_READY => Ok(false),
            e => Err(crate::driver::driver_error("cuStreamQuery", e)),
        }
    }

    /// Makes later work on this stream wait until `event` (as last recorded) has completed.
    pub fn wait_event(&self, event: &Event) -> Result<()> {
        event.check_device(self.device())?;
        if self.is_sim() {
            return Ok(());
        }
        self.enter()?;
        unsafe { cu!(cuStreamWaitEvent(self.raw(), event.raw(), 0)) }
    }

    /// Runs `f` on a driver thread once all earlier work on the stream completes; later work waits
    /// for it. A panic in `f` is caught and reported by the next [`Stream::synchronize`].
    pub fn launch_host_fn<F: FnOnce() + Send + 'static>(&self, f: F) -> Result<()> {
        let call = Box::new(HostCall {
            f: Box::new(f),
            panics: self.inner.panics.clone(),
        });
        let data = Box::into_raw(call) as *mut c_void;
        if self.is_sim() {
            // Earlier work is complete already, so the callback's turn is now.
            // SAFETY: `data` is a fresh `Box<HostCall>`, passed exactly once.
            unsafe { host_trampoline(data) };
            return Ok(());
        }
        if let Err(e) = self.enter() {
            // SAFETY: not handed to the driver, so the box is still ours.
            drop(unsafe { Box::from_raw(data as *mut HostCall) });
            return Err(e);
        }
        let r = unsafe { sys::cuLaunchHostFunc(self.raw(), Some(host_trampoline), data) };
        if r != CUresult::CUDA_SUCCESS {
            // SAFETY: the driver did not take the callback, so the box is still ours.
            drop(unsafe { Box::from_raw(data as *mut HostCall) });
            return Err(crate::driver::driver_error("cuLaunchHostFunc", r));
        }
        Ok(())
    }

    /// Times the work `f` enqueues: records an event before and after, waits for the second and
    /// returns `f`'s result with the elapsed GPU time in milliseconds.
    pub fn time<R>(&self, f: impl FnOnce(&Stream) -> Result<R>) -> Result<(R, f32)> {
        let start = Event::new(self.device(), EventFlags::default())?;
        let end = Event::new(self.device(), EventFlags::default())?;
        start.record(self)?;
        let r = f(self)?;
        end.record(self)?;
        end.synchronize()?;
        let ms = start.elapsed_ms(&end)?;
        self.take_callback_panic()?;
        Ok((r, ms))
    }

    fn take_callback_panic(&self) -> Result<()> {
        let mut p = self.inner.panics.lock().unwrap_or_else(|e| e.into_inner());
        if p.is_empty() {
            Ok(())
        } else {
            Err(Error::CallbackPanic {
                message: p.remove(0),
            })
        }
    }
}

/// What the driver carries to the callback thread.
pub(crate) struct HostCall {
    pub(crate) f: Box<dyn FnOnce() + Send>,
    pub(crate) panics: Arc<Mutex<Vec<String>>>,
}

/// The `CUhostFn` every Rust callback goes through; it never unwinds.
///
/// # Safety
/// `data` must come from `Box::into_raw(Box<HostCall>)` and be passed exactly once.
pub(crate) unsafe extern "C" fn host_trampoline(data: *mut c_void) {
    let call = unsafe { Box::from_raw(data as *mut HostCall) };
    let HostCall { f, panics } = *call;
    if let Err(payload) = catch_unwind(AssertUnwindSafe(f)) {
        let message = payload_message(&*payload);
        // Dropping a payload can itself panic; keep that inside too.
        let _ = catch_unwind(AssertUnwindSafe(move || drop(payload)));
        panics
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(message);
    }
}

fn payload_message(p: &(dyn Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "non-string panic payload".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU32, Ordering};

    fn run(f: impl FnOnce() + Send + 'static) -> Arc<Mutex<Vec<String>>> {
        let panics: Arc<Mutex<Vec<String>>> = Arc::default();
        let call = Box::new(HostCall {
            f: Box::new(f),
            panics: panics.clone(),
        });
        unsafe { host_trampoline(Box::into_raw(call) as *mut c_void) };
        panics
    }

    #[test]
    fn trampoline_runs_the_closure_once() {
        let n = Arc::new(AtomicU32::new(0));
        let m = n.clone();
        let panics = run(move || {
            m.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(n.load(Ordering::SeqCst), 1);
        assert!(panics.lock().unwrap().is_empty());
    }

    #[test]
    fn trampoline_catches_panics_and_keeps_the_message() {
        let panics = run(|| panic!("callback exploded: {}", 42));
        assert_eq!(
            *panics.lock().unwrap(),
            vec!["callback exploded: 42".to_string()]
        );
        let panics = run(|| std::panic::panic_any(7u8));
        assert_eq!(
            *panics.lock().unwrap(),
            vec!["non-string panic payload".to_string()]
        );
    }

    #[test]
    fn trampoline_survives_a_payload_whose_drop_panics() {
        struct Bomb;
        impl Drop for Bomb {
            fn drop(&mut self) {
                panic!("drop bomb");
            }
        }
        let panics = run(|| std::panic::panic_any(Bomb));
        assert_eq!(panics.lock().unwrap().len(), 1);
    }
}
