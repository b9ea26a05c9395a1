//! Events: markers in a stream, for ordering between streams and for GPU-side timing.

use std::sync::Mutex;

use crate::backend::EventOps;
use crate::{Device, Error, Result, Stream};

pub use crate::options::EventFlags;

/// A CUDA event (`cudaEvent_t`): a marker in a stream, for timing and for ordering other streams
/// after it.
///
/// ```
/// use ferrocuda::prelude::*;
///
/// #[kernel]
/// pub fn iota(y: &mut [u32]) {
///     let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
///     if i < y.len() {
///         y[i] = i as u32;
///     }
/// }
///
/// #[kernel]
/// pub fn add_into(x: &[u32], y: &mut [u32]) {
///     let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
///     if i < y.len() {
///         y[i] += x[i];
///     }
/// }
///
/// fn main() -> Result<()> {
///     let dev = Device::default()?;
///     let (producer, consumer) = (dev.new_stream()?, dev.new_stream()?);
///     let (start, end) = (Event::new(&dev, EventFlags::TIMING)?, Event::new(&dev, EventFlags::TIMING)?);
///     let n = 1000;
///     let mut x = dev.alloc_zeroed::<u32>(n)?;
///     let mut y = dev.upload(&vec![1u32; n])?;
///
///     start.record(&producer)?;
///     iota::launch(&producer, LaunchConfig::for_elements(n, 128), &mut x)?;
///     end.record(&producer)?;
///     // Work queued on `consumer` after this waits for everything `end` captured.
///     consumer.wait_event(&end)?;
///     add_into::launch(&consumer, LaunchConfig::for_elements(n, 128), &x, &mut y)?;
///
///     end.synchronize()?; // waits for the captured work; reports a panic of its kernels
///     assert!(end.query()?);
///     assert!(start.elapsed_ms(&end)? >= 0.0);
///     consumer.synchronize()?;
///     assert_eq!(y.to_vec()?[999], 1000);
///     Ok(())
/// }
/// ```
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
