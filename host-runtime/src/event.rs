//! Events: markers in a stream, for ordering between streams and for GPU-side timing.

use std::sync::Mutex;

use crate::backend::EventOps;
use crate::{Device, Error, Result, Stream};

pub use crate::options::EventFlags;

/// A CUDA event.
pub struct Event {
    device: Device,
    /// The backend's event.
    ops: Box<dyn EventOps>,
    flags: EventFlags,
    /// The stream of the last record, whose kernel panics [`Event::synchronize`] reports.
    recorded_on: Mutex<Option<Stream>>,
}

impl std::fmt::Debug for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Event").field("flags", &self.flags).finish()
    }
}

impl Event {
    /// Creates an event on `device`.
    pub fn new(device: &Device, flags: EventFlags) -> Result<Event> {
        Ok(Event {
            device: device.clone(),
            ops: device.ops().new_event(flags)?,
            flags,
            recorded_on: Mutex::new(None),
        })
    }

    /// The raw driver handle, for interop with code calling the driver directly (null on the
    /// simulator).
    pub fn raw(&self) -> cudarc::driver::sys::CUevent {
        self.ops.raw()
    }

    pub(crate) fn ops(&self) -> &dyn EventOps {
        &*self.ops
    }

    pub(crate) fn check_device(&self, d: &Device) -> Result<()> {
        if *d == self.device {
            Ok(())
        } else {
            Err(Error::WrongDevice)
        }
    }

    /// Captures the work enqueued on `stream` so far.
    pub fn record(&self, stream: &Stream) -> Result<()> {
        self.check_device(stream.device())?;
        self.ops.record(stream.ops())?;
        *self.recorded_on.lock().unwrap_or_else(|e| e.into_inner()) = Some(stream.clone());
        Ok(())
    }

    /// `Ok(true)` once the captured work has completed.
    pub fn query(&self) -> Result<bool> {
        self.ops.query()
    }

    /// Waits for the captured work, then reports a panic of a kernel of the stream the event was
    /// last recorded on (once).
    pub fn synchronize(&self) -> Result<()> {
        self.ops.synchronize()?;
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
        self.ops.elapsed_ms(end.ops())
    }
}
