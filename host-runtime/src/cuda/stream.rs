//! A CUDA stream: the driver handle, the stream's panic slot, and the event other queues wait on
//! to be ordered after it.

use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

use cudarc::driver::sys::{
    CUevent, CUevent_flags, CUstream, CUstreamAttrID, CUstreamAttrValue, CUstreamCaptureMode,
};

use super::core::Core;
use super::graph::CudaGraph;
use super::panic_slots::SlotHandle;
use super::result;
use crate::access_policy::AccessPolicyWindow;
use crate::backend::{EventOps, GraphOps, StreamOps};
use crate::callback::{host_trampoline, HostCall};
use crate::options::CaptureMode;
use crate::Result;

pub(crate) struct CudaStream {
    core: Arc<Core>,
    raw: CUstream,
    generation: u64,
    id: u64,
    /// Where this stream's kernels report panics.
    slot: SlotHandle,
    /// While nonzero (a capture), the slot kernels launched here get instead.
    slot_override: AtomicU64,
    /// An event other queues wait on to be ordered after this stream's work (created on first
    /// use).
    fence: OnceLock<Fence>,
}

/// A driver event handle (only recorded and waited on; timing disabled).
struct Fence(CUevent);

// SAFETY: stream and event handles are usable from any thread of the process.
unsafe impl Send for CudaStream {}
unsafe impl Sync for CudaStream {}
unsafe impl Send for Fence {}
unsafe impl Sync for Fence {}

impl CudaStream {
    pub(crate) fn create(core: &Arc<Core>, flags: u32, priority: i32, id: u64) -> Result<Self> {
        core.ctx.bind()?;
        let slot = core.panics.take(core.work())?;
        let raw = match result::stream_create_with_priority(flags, priority) {
            Ok(raw) => raw,
            Err(e) => {
                core.panics.retire(&slot);
                return Err(e);
            }
        };
        Ok(CudaStream {
            core: core.clone(),
            raw,
            generation: core.ctx.generation(),
            id,
            slot,
            slot_override: AtomicU64::new(0),
            fence: OnceLock::new(),
        })
    }

    fn enter(&self) -> Result<()> {
        self.core.enter(self.generation)
    }

    fn fence(&self) -> Result<CUevent> {
        if let Some(f) = self.fence.get() {
            return Ok(f.0);
        }
        let ev = result::event_create(CUevent_flags::CU_EVENT_DISABLE_TIMING as u32)?;
        if let Err(Fence(lost)) = self.fence.set(Fence(ev)) {
            // SAFETY: created just now, used by nothing.
            unsafe {
                let _ = result::event_destroy(lost);
            }
        }
        Ok(self.fence.get().expect("just set").0)
    }
}

impl Drop for CudaStream {
    fn drop(&mut self) {
        if self.enter().is_ok() {
            // Pending work still completes; the driver releases the stream afterwards, waits
            // already queued on the fence keep it alive until they resolve, and the panic slot
            // stays reserved until a device synchronize has seen that work finish.
            // SAFETY: our own handles, used by nothing after this.
            unsafe {
                let _ = result::stream_destroy(self.raw);
                if let Some(f) = self.fence.get() {
                    let _ = result::event_destroy(f.0);
                }
            }
            self.core.panics.retire(&self.slot);
        }
    }
}

impl StreamOps for CudaStream {
    fn raw(&self) -> CUstream {
        self.raw
    }

    fn id(&self) -> u64 {
        self.id
    }

    fn generation(&self) -> u64 {
        self.generation
    }

    fn synchronize(&self) -> Result<()> {
        self.enter()?;
        // SAFETY: a live stream of the current context.
        unsafe { result::stream_synchronize(self.raw) }
    }

    fn query(&self) -> Result<bool> {
        self.enter()?;
        // SAFETY: as above.
        unsafe { result::stream_query(self.raw) }
    }

    fn check_panics(&self) -> Result<()> {
        self.enter()?;
        self.core.panics.check_slot(&self.slot, self.core.work())
    }

    fn wait_event(&self, event: &dyn EventOps) -> Result<()> {
        self.enter()?;
        // SAFETY: both objects belong to this context (the caller checked the device).
        unsafe { result::stream_wait_event(self.raw, event.raw()) }
    }

    fn launch_host_fn(&self, call: Box<HostCall>) -> Result<()> {
        self.enter()?;
        let data = Box::into_raw(call) as *mut c_void;
        // SAFETY: the trampoline takes the box back exactly once.
        if let Err(e) = unsafe { result::launch_host_func(self.raw, host_trampoline, data) } {
            // SAFETY: the driver did not take the callback, so the box is still ours.
            drop(unsafe { Box::from_raw(data as *mut HostCall) });
            return Err(e);
        }
        Ok(())
    }

    /// An event recorded now, then `cuStreamWaitEvent`. Recording the same event again later only
    /// makes a wait that has not been queued yet wait longer, never shorter, so concurrent callers
    /// need no lock.
    fn order_before(&self, waiter: CUstream) -> Result<()> {
        self.enter()?;
        let fence = self.fence()?;
        // SAFETY: live handles of the current context.
        unsafe {
            result::event_record(fence, self.raw)?;
            result::stream_wait_event(waiter, fence)
        }
    }

    #[inline]
    fn panic_slot(&self) -> u64 {
        match self.slot_override.load(Ordering::Relaxed) {
            0 => self.slot.dev,
            s => s,
        }
    }

    fn set_slot_override(&self, slot: u64) {
        self.slot_override.store(slot, Ordering::Relaxed);
    }

    fn set_access_policy(&self, window: Option<&AccessPolicyWindow>) -> Result<()> {
        self.enter()?;
        // SAFETY: an all-zero value is a valid (empty) window.
        let mut value: CUstreamAttrValue = unsafe { std::mem::zeroed() };
        if let Some(w) = window {
            value.accessPolicyWindow = super::launch_ex::policy_window(w);
        }
        let id = CUstreamAttrID::CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW;
        // SAFETY: a live stream of the current context.
        unsafe { result::stream_set_attribute(self.raw, id, &value) }
    }

    fn grid_words(&self) -> Option<u64> {
        // A capture is what sets the override.
        (self.slot_override.load(Ordering::Relaxed) == 0).then_some(self.slot.grid_words)
    }

    fn begin_capture(&self, mode: CaptureMode) -> Result<()> {
        self.enter()?;
        let mode = match mode {
            CaptureMode::Global => CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_GLOBAL,
            CaptureMode::ThreadLocal => CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_THREAD_LOCAL,
            CaptureMode::Relaxed => CUstreamCaptureMode::CU_STREAM_CAPTURE_MODE_RELAXED,
        };
        // SAFETY: a live stream of the current context.
        unsafe { result::stream_begin_capture(self.raw, mode) }
    }

    fn end_capture(&self) -> Result<Box<dyn GraphOps>> {
        self.enter()?;
        // SAFETY: as above.
        let raw = unsafe { result::stream_end_capture(self.raw)? };
        Ok(Box::new(CudaGraph::adopt_captured(&self.core, raw)?))
    }
}
