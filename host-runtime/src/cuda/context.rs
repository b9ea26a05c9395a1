//! The device's primary context: retained when the device is opened, made current on the calling
//! thread before driver calls, and reset by [`crate::Device::recover`].
//!
//! Every object created in the context records the context's generation; a reset bumps it, so
//! objects from before the reset report [`Error::ContextLost`] instead of touching freed handles,
//! and their destructors skip the driver (the reset already freed everything).

use std::cell::Cell;
use std::sync::atomic::{AtomicPtr, AtomicU64, Ordering};
use std::sync::Mutex;

use cudarc::driver::sys::{CUcontext, CUdevice};

use super::result;
use crate::{Error, Result};

thread_local! {
    /// The (context, generation) this thread last made current, so binding is a compare, not a call.
    static BOUND: Cell<(usize, u64)> = const { Cell::new((0, u64::MAX)) };
}

pub(crate) struct Context {
    dev: CUdevice,
    raw: AtomicPtr<cudarc::driver::sys::CUctx_st>,
    generation: AtomicU64,
    reset_lock: Mutex<()>,
}

impl Context {
    pub(crate) fn retain(dev: CUdevice) -> Result<Self> {
        let raw = result::primary_ctx_retain(dev)?;
        Ok(Context {
            dev,
            raw: AtomicPtr::new(raw),
            generation: AtomicU64::new(0),
            reset_lock: Mutex::new(()),
        })
    }

    /// Makes the context current on this thread (a thread-local compare when it already is).
    ///
    /// This assumes no other code on the thread switches contexts behind the runtime's back; code
    /// that does must call [`crate::Device::bind_to_thread`] afterwards.
    #[inline]
    pub(crate) fn bind(&self) -> Result<()> {
        let raw = self.raw.load(Ordering::Acquire);
        let key = (raw as usize, self.generation.load(Ordering::Acquire));
        if BOUND.with(|b| b.get()) == key {
            return Ok(());
        }
        self.force_bind(raw, key)
    }

    #[cold]
    fn force_bind(&self, raw: CUcontext, key: (usize, u64)) -> Result<()> {
        // SAFETY: `raw` is the retained primary context.
        unsafe { result::ctx_set_current(raw)? };
        BOUND.with(|b| b.set(key));
        Ok(())
    }

    /// Forgets this thread's cached binding so the next [`Context::bind`] calls the driver.
    pub(crate) fn unbind_cache() {
        BOUND.with(|b| b.set((0, u64::MAX)));
    }

    #[inline]
    /// The context handle (for graph nodes that name their context).
    pub(crate) fn raw(&self) -> cudarc::driver::sys::CUcontext {
        self.raw.load(Ordering::Acquire)
    }

    pub(crate) fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// `Err(ContextLost)` when an object created in generation `g` outlived a reset.
    #[inline]
    pub(crate) fn check(&self, g: u64) -> Result<()> {
        if g == self.generation() {
            Ok(())
        } else {
            Err(Error::ContextLost)
        }
    }

    /// Destroys every allocation and module of the primary context and starts a fresh one.
    pub(crate) fn reset(&self) -> Result<()> {
        let _guard = self.reset_lock.lock().unwrap_or_else(|e| e.into_inner());
        result::primary_ctx_reset(self.dev)?;
        self.generation.fetch_add(1, Ordering::AcqRel);
        // Retaining again yields the (re-created) handle and guarantees the context is active
        // whatever the reset did to the reference count. Should the reset have kept our earlier
        // reference, one reference leaks, which only keeps the primary context alive until exit.
        let raw = result::primary_ctx_retain(self.dev)?;
        self.raw.store(raw, Ordering::Release);
        Context::unbind_cache();
        Ok(())
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        // Balances the retain in `Context::retain`; errors at teardown are not actionable.
        let _ = result::primary_ctx_release(self.dev);
        Context::unbind_cache();
    }
}
