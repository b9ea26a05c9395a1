//! Events: markers in a stream, for ordering between streams and for GPU-side timing.

use cudarc::driver::sys::{self, CUevent, CUresult};

use crate::driver::{cu, driver_error, symbol};
use std::sync::Mutex;
use std::time::Instant;

use crate::{BackendKind, Device, Error, Result, Stream};

/// How an event behaves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EventFlags {
    /// Don't record timestamps (cheaper; [`Event::elapsed_ms`] then fails).
    pub disable_timing: bool,
    /// Make [`Event::synchronize`] block the thread instead of spinning.
    pub blocking_sync: bool,
}

impl EventFlags {
    /// Timing on, spin-waiting (the driver's default).
    pub const TIMING: EventFlags = EventFlags {
        disable_timing: false,
        blocking_sync: false,
    };
    /// For pure ordering between streams.
    pub const NO_TIMING: EventFlags = EventFlags {
        disable_timing: true,
        blocking_sync: false,
    };

    fn bits(self) -> u32 {
        let mut f = sys::CUevent_flags::CU_EVENT_DEFAULT as u32;
        if self.disable_timing {
            f |= sys::CUevent_flags::CU_EVENT_DISABLE_TIMING as u32;
        }
        if self.blocking_sync {
            f |= sys::CUevent_flags::CU_EVENT_BLOCKING_SYNC as u32;
        }
        f
    }
}

/// A CUDA event.
pub struct Event {
    device: Device,
    raw: CUevent,
    generation: u64,
    flags: EventFlags,
    /// On the simulator: the host time of the last record (work is complete when recorded).
    sim_stamp: Mutex<Option<Instant>>,
    /// The stream of the last record, whose kernel panics [`Event::synchronize`] reports.
    recorded_on: Mutex<Option<Stream>>,
}

// SAFETY: event handles are usable from any thread of the process.
unsafe impl Send for Event {}
unsafe impl Sync for Event {}

impl Drop for Event {
    fn drop(&mut self) {
        let Ok(cuda) = self.device.cuda_arm() else {
            return;
        };
        if cuda.enter(self.generation).is_ok() {
            unsafe {
                let _ = sys::cuEventDestroy_v2(self.raw);
            }
        }
    }
}

impl std::fmt::Debug for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Event").field("flags", &self.flags).finish()
    }
}

impl Event {
    /// Creates an event on `device`.
    pub fn new(device: &Device, flags: EventFlags) -> Result<Event> {
        if device.backend() == BackendKind::Sim {
            return Ok(Event {
                device: device.clone(),
                raw: std::ptr::null_mut(),
                generation: 0,
                flags,
                sim_stamp: Mutex::new(None),
                recorded_on: Mutex::new(None),
            });
        }
        let cuda = device.cuda_arm()?;
        cuda.ctx.bind()?;
        let mut raw: CUevent = std::ptr::null_mut();
        unsafe { cu!(cuEventCreate(&mut raw, flags.bits()))? };
        Ok(Event {
            device: device.clone(),
            raw,
            generation: cuda.ctx.generation(),
            flags,
            sim_stamp: Mutex::new(None),
            recorded_on: Mutex::new(None),
        })
    }

    /// The raw driver handle, for interop with code calling the driver directly (null on the
    /// simulator).
    pub fn raw(&self) -> CUevent {
        self.raw
    }

    pub(crate) fn check_device(&self, d: &Device) -> Result<()> {
        if *d == self.device {
            Ok(())
        } else {
            Err(Error::WrongDevice)
        }
    }

    fn is_sim(&self) -> bool {
        self.device.backend() == BackendKind::Sim
    }

    fn stamp(&self) -> Option<Instant> {
        *self.sim_stamp.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn enter(&self) -> Result<&crate::device::CudaDevice> {
        let cuda = self.device.cuda_arm()?;
        cuda.enter(self.generation)?;
        Ok(cuda)
    }

    /// Captures the work enqueued on `stream` so far.
    pub fn record(&self, stream: &Stream) -> Result<()> {
        self.check_device(stream.device())?;
        if self.is_sim() {
            *self.sim_stamp.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
        } else {
            self.enter()?;
            unsafe { cu!(cuEventRecord(self.raw, stream.raw()))? };
        }
        *self.recorded_on.lock().unwrap_or_else(|e| e.into_inner()) = Some(stream.clone());
        Ok(())
    }

    /// `Ok(true)` once the captured work has completed.
    pub fn query(&self) -> Result<bool> {
        if self.is_sim() {
            return Ok(true);
        }
        self.enter()?;
        match unsafe { sys::cuEventQuery(self.raw) } {
            CUresult::CUDA_SUCCESS => Ok(true),
            CUresult::CUDA_ERROR_NOT_READY => Ok(false),
            e => Err(driver_error("cuEventQuery", e)),
        }
    }

    /// Waits for the captured work, then reports a panic of a kernel of the stream the event was
    /// last recorded on (once).
    pub fn synchronize(&self) -> Result<()> {
        if !self.is_sim() {
            self.enter()?;
            unsafe { cu!(cuEventSynchronize(self.raw))? };
        }
        let stream = self
            .recorded_on
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        match stream {
            Some(s) => s.check_panics(),
            None => Ok(()),
        }
    }

    /// Milliseconds between `self` (the start) and `end`, both recorded and completed, both with
    /// timing enabled.
    pub fn elapsed_ms(&self, end: &Event) -> Result<f32> {
        end.check_device(&self.device)?;
        if self.flags.disable_timing || end.flags.disable_timing {
            return Err(Error::InvalidValue(
                "elapsed time needs events created with timing enabled".into(),
            ));
        }
        if self.is_sim() {
            return match (self.stamp(), end.stamp()) {
                (Some(a), Some(b)) => Ok(b.saturating_duration_since(a).as_secs_f32() * 1e3),
                _ => Err(Error::InvalidValue(
                    "elapsed time needs both events recorded".into(),
                )),
            };
        }
        self.enter()?;
        let mut ms = 0f32;
        type Elapsed = unsafe extern "C" fn(*mut f32, CUevent, CUevent) -> CUresult;
        // CUDA 12.8 added the `_v2` entry point; older drivers only have the original.
        let (name, f) = match unsafe { symbol::<Elapsed>("cuEventElapsedTime_v2") } {
            Some(f) => ("cuEventElapsedTime_v2", f),
            None => match unsafe { symbol::<Elapsed>("cuEventElapsedTime") } {
                Some(f) => ("cuEventElapsedTime", f),
                None => return Err(Error::Unsupported("cuEventElapsedTime")),
            },
        };
        crate::driver::check(name, unsafe { f(&mut ms, self.raw, end.raw) })?;
        Ok(ms)
    }
}
