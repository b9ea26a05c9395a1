//! A CUDA event.

use std::any::Any;
use std::sync::Arc;

use cudarc::driver::sys::CUevent;

use super::core::Core;
use super::result;
use crate::backend::{EventOps, StreamOps};
use crate::options::EventFlags;
use crate::Result;

pub(crate) struct CudaEvent {
    core: Arc<Core>,
    raw: CUevent,
    generation: u64,
}

// SAFETY: event handles are usable from any thread of the process.
unsafe impl Send for CudaEvent {}
unsafe impl Sync for CudaEvent {}

impl CudaEvent {
    pub(crate) fn create(core: &Arc<Core>, flags: EventFlags) -> Result<Self> {
        core.ctx.bind()?;
        Ok(CudaEvent {
            core: core.clone(),
            raw: result::event_create(flags.bits())?,
            generation: core.ctx.generation(),
        })
    }

    fn enter(&self) -> Result<()> {
        self.core.enter(self.generation)
    }
}

impl Drop for CudaEvent {
    fn drop(&mut self) {
        if self.enter().is_ok() {
            // SAFETY: our own handle, used by nothing after this.
            unsafe {
                let _ = result::event_destroy(self.raw);
            }
        }
    }
}

impl EventOps for CudaEvent {
    fn raw(&self) -> CUevent {
        self.raw
    }

    fn record(&self, stream: &dyn StreamOps) -> Result<()> {
        self.enter()?;
        // SAFETY: both belong to this context (the caller checked the device).
        unsafe { result::event_record(self.raw, stream.raw()) }
    }

    fn query(&self) -> Result<bool> {
        self.enter()?;
        // SAFETY: a live event.
        unsafe { result::event_query(self.raw) }
    }

    fn synchronize(&self) -> Result<()> {
        self.enter()?;
        // SAFETY: a live event.
        unsafe { result::event_synchronize(self.raw) }
    }

    fn elapsed_ms(&self, end: &dyn EventOps) -> Result<f32> {
        self.enter()?;
        // SAFETY: both live events of this context (the caller checked the device).
        unsafe { result::event_elapsed_ms(self.raw, end.raw()) }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}
