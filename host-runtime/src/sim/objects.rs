//! Streams and events on the simulator: every launch completes before it returns, so ordering
//! between them is trivially satisfied; event times are host times.

use std::any::Any;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use cudarc::driver::sys::{CUevent, CUstream};

use super::graph::SimGraph;
use super::Shared;
use crate::access_policy::AccessPolicyWindow;
use crate::backend::{EventOps, GraphOps, StreamOps};
use crate::callback::{host_trampoline, HostCall};
use crate::options::CaptureMode;
use crate::{Error, Result};

pub(crate) struct SimStream {
    device: Arc<Shared>,
    id: u64,
}

impl SimStream {
    pub(super) fn new(device: Arc<Shared>, id: u64) -> Self {
        SimStream { device, id }
    }
}

/// A capture the closure left unfinished (the safe layer always ends them) dies with the stream.
impl Drop for SimStream {
    fn drop(&mut self) {
        self.device.captures.end(self.id);
    }
}

impl StreamOps for SimStream {
    fn raw(&self) -> CUstream {
        std::ptr::null_mut()
    }

    fn id(&self) -> u64 {
        self.id
    }

    fn generation(&self) -> u64 {
        0
    }

    fn synchronize(&self) -> Result<()> {
        Ok(())
    }

    fn query(&self) -> Result<bool> {
        Ok(true)
    }

    fn check_panics(&self) -> Result<()> {
        self.device.synchronize_stream(self.id)
    }

    fn wait_event(&self, _: &dyn EventOps) -> Result<()> {
        Ok(())
    }

    /// Earlier work is complete already, so the callback's turn is now.
    fn launch_host_fn(&self, call: Box<HostCall>) -> Result<()> {
        // SAFETY: a fresh box, passed exactly once.
        unsafe { host_trampoline(Box::into_raw(call) as *mut std::ffi::c_void) };
        Ok(())
    }

    fn order_before(&self, _: CUstream) -> Result<()> {
        Ok(())
    }

    fn panic_slot(&self) -> u64 {
        0
    }

    /// The simulator has no panic slots (errors are filed by stream).
    fn set_slot_override(&self, _: u64) {}

    fn set_access_policy(&self, _: Option<&AccessPolicyWindow>) -> Result<()> {
        // No cache model: the safe `Stream` records the window.
        Ok(())
    }

    fn grid_words(&self) -> Option<u64> {
        // The scheduler runs grid barriers itself (captures are refused at the kernel).
        Some(0)
    }

    /// Every mode behaves the same: the simulator forbids no call during a capture. The capture
    /// is filed on the device (see `nodes::Captures`), where launches and copies find it.
    fn begin_capture(&self, _: CaptureMode) -> Result<()> {
        if !self.device.captures.begin(self.id) {
            return Err(crate::graph::GraphError::AlreadyCapturing.into());
        }
        Ok(())
    }

    fn end_capture(&self) -> Result<Box<dyn GraphOps>> {
        match self.device.captures.end(self.id) {
            Some(nodes) => Ok(Box::new(SimGraph {
                device: self.device.clone(),
                nodes,
            })),
            None => Err(Error::InvalidValue("the stream is not capturing".into())),
        }
    }
}

/// The host time of the last record (work is complete when recorded).
#[derive(Default)]
pub(crate) struct SimEvent {
    stamp: Mutex<Option<Instant>>,
}

impl SimEvent {
    fn stamp(&self) -> Option<Instant> {
        *self.stamp.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl EventOps for SimEvent {
    fn raw(&self) -> CUevent {
        std::ptr::null_mut()
    }

    fn record(&self, _: &dyn StreamOps) -> Result<()> {
        *self.stamp.lock().unwrap_or_else(|e| e.into_inner()) = Some(Instant::now());
        Ok(())
    }

    fn query(&self) -> Result<bool> {
        Ok(true)
    }

    fn synchronize(&self) -> Result<()> {
        Ok(())
    }

    fn elapsed_ms(&self, end: &dyn EventOps) -> Result<f32> {
        let end = end.as_any().downcast_ref::<SimEvent>();
        match (self.stamp(), end.and_then(SimEvent::stamp)) {
            (Some(a), Some(b)) => Ok(b.saturating_duration_since(a).as_secs_f32() * 1e3),
            _ => Err(Error::InvalidValue(
                "elapsed time needs both events recorded".into(),
            )),
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
