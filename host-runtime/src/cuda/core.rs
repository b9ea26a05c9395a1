//! What every object of a CUDA device shares: the primary context, the properties and limits,
//! the panic table and the runtime's own streams and pool. Streams, events and modules hold it,
//! so it lives as long as any of them.

use cudarc::driver::sys::{CUdevice, CUstream};

use super::context::Context;
use super::internal::Internal;
use super::panic_slots::PanicSlots;
use super::result;
use crate::backend::StreamOps;
use crate::launch::Limits;
use crate::properties::DeviceProperties;
use crate::Result;

/// What every object of a CUDA device shares.
pub(crate) struct Core {
    pub(crate) ordinal: usize,
    pub(crate) cu: CUdevice,
    pub(crate) ctx: Context,
    pub(crate) props: DeviceProperties,
    pub(crate) limits: Limits,
    pub(crate) panics: PanicSlots,
    pub(crate) driver_version: i32,
    /// The runtime's own streams and memory pool.
    pub(crate) internal: Internal,
}

impl Core {
    /// Binds the context and fails with `ContextLost` for objects from before a reset.
    #[inline]
    pub(crate) fn enter(&self, generation: u64) -> Result<()> {
        self.ctx.check(generation)?;
        self.ctx.bind()
    }

    /// The runtime's work stream (see `internal`): where synchronous copies and the panic
    /// table's writes run.
    #[inline]
    pub(crate) fn work(&self) -> CUstream {
        self.internal.work()
    }

    /// Waits for the work stream (what every synchronous operation ends with).
    pub(crate) fn wait_work(&self) -> Result<()> {
        // SAFETY: the runtime's own live stream.
        unsafe { result::stream_synchronize(self.work()) }
    }

    /// Makes the work stream wait for everything queued on `after` so far.
    pub(crate) fn work_after(&self, after: &[&dyn StreamOps]) -> Result<()> {
        let q = self.work();
        after.iter().try_for_each(|s| s.order_before(q))
    }

    /// Waits for all work of the context, then reports kernel panics of any stream.
    pub(crate) fn synchronize(&self) -> Result<()> {
        self.ctx.bind()?;
        let mark = self.panics.mark();
        result::ctx_synchronize()?;
        self.panics.check_all(mark, self.work())
    }
}

impl Drop for Core {
    fn drop(&mut self) {
        if self.ctx.bind().is_ok() {
            self.panics.free_pages();
            self.internal.destroy();
        }
    }
}
