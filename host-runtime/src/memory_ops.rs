//! Backend-dispatched operations on device byte ranges (a `CUdeviceptr` on CUDA, a simulator
//! address on the simulator), ordered against the streams that use the memory: what the typed
//! buffers are built on.
//!
//! On CUDA a synchronous write (host to device, device to device, memset) runs on the runtime's
//! work stream after that stream waited for the uses it conflicts with (`uses`), and the host
//! waits for the work stream; reads to the host synchronize the whole device first, which also
//! reports kernel panics. Frees are stream-ordered: pool memory is released with `cuMemFreeAsync`
//! on the one stream that used it (the work stream when none did), or on the runtime's free stream
//! after it waited for all of them; other memory waits for its streams (not the whole context)
//! before `cuMemFree`.

use std::ffi::c_void;

use cudarc::driver::sys::{self, CUstream};

use crate::device::{Backend, CudaDevice};
use crate::driver::cu;
use crate::uses::{Span, Uses};
use crate::{Device, Error, Result, Stream};

/// Where a synchronous operation's bytes are: the allocation's uses and the span within it.
#[derive(Clone, Copy)]
pub(crate) struct Target<'a> {
    pub(crate) addr: u64,
    pub(crate) generation: u64,
    pub(crate) uses: &'a Uses,
    pub(crate) span: &'a Span,
}

impl Device {
    /// Allocates `bytes` for a buffer that is initialized right after: from the runtime's pool on
    /// its work stream (the caller queues the initialization there and waits), or with `cuMemAlloc`
    /// on devices without pools. Returns the address and whether it came from the pool.
    pub(crate) fn alloc_for_init(&self, bytes: usize) -> Result<(u64, bool)> {
        let cuda = match &self.inner.backend {
            Backend::Cuda(c) => c,
            Backend::Sim(s) => return Ok((s.alloc(bytes), false)),
        };
        cuda.ctx.bind()?;
        if bytes == 0 {
            return Ok((0, false));
        }
        let mut p = 0u64;
        match cuda.internal.pool() {
            Some(pool) => {
                let q = cuda.internal.work();
                unsafe { cu!(cuMemAllocFromPoolAsync(&mut p, bytes, pool, q))? };
                Ok((p, true))
            }
            None => {
                unsafe { cu!(cuMemAlloc_v2(&mut p, bytes))? };
                Ok((p, false))
            }
        }
    }

    /// Waits for what the runtime queued on its work stream (allocation and initialization).
    pub(crate) fn finish_init(&self) -> Result<()> {
        match &self.inner.backend {
            Backend::Cuda(c) => c.wait_internal(),
            Backend::Sim(_) => Ok(()),
        }
    }

    /// Frees memory of generation `generation` once every use in `uses` is done, without making
    /// the host wait for it (pool memory) or waiting only for the streams that used it.
    pub(crate) fn free_after_uses(&self, addr: u64, generation: u64, pooled: bool, uses: &Uses) {
        let cuda = match &self.inner.backend {
            Backend::Cuda(c) => c,
            Backend::Sim(s) => return s.free(addr),
        };
        if addr == 0 || cuda.enter(generation).is_err() {
            return; // nothing, or the context was reset and freed it already
        }
        let streams = uses.streams();
        // SAFETY: `addr` is a live allocation of this context; every use is ordered before the
        // free (or the host waited for it).
        unsafe {
            if !pooled {
                for s in &streams {
                    let _ = sys::cuStreamSynchronize(s.raw());
                }
                let _ = sys::cuMemFree_v2(addr);
                return;
            }
            let q = match streams.as_slice() {
                // After the runtime's own allocation and initialization (or a synchronous write
                // that waited for every use), both on the work stream.
                [] => cuda.internal.work(),
                [one] if one.enter().is_ok() => one.raw(),
                many => {
                    // Several streams (or one from before a reset, which fails to order and falls
                    // back to waiting).
                    let q = cuda.internal.frees();
                    if many.iter().any(|s| s.order_before(q).is_err()) {
                        // Cannot order the free: fall back to waiting for everything.
                        let _ = sys::cuCtxSynchronize();
                    }
                    q
                }
            };
            let _ = cuda.enter(generation);
            let _ = sys::cuMemFreeAsync(addr, q);
        }
    }

    /// Host to device; `src` points at `bytes` readable bytes.
    pub(crate) fn raw_write(&self, at: Target<'_>, src: *const c_void, bytes: usize) -> Result<()> {
        self.sync_write(
            at,
            bytes,
            |s| s.write(at.addr, unsafe { host_bytes(src, bytes) }),
            |q| unsafe { cu!(cuMemcpyHtoDAsync_v2(at.addr, src, bytes, q)) },
        )
    }

    /// Waits for the device, reports panics, then copies device to host.
    pub(crate) fn raw_read(
        &self,
        gen: u64,
        addr: u64,
        dst: *mut c_void,
        bytes: usize,
    ) -> Result<()> {
        let cuda = match &self.inner.backend {
            Backend::Cuda(c) => c,
            Backend::Sim(s) => {
                s.synchronize()?;
                if bytes == 0 {
                    return Ok(());
                }
                // SAFETY: the caller guarantees `bytes` writable bytes at `dst`.
                let out = unsafe { std::slice::from_raw_parts_mut(dst as *mut u8, bytes) };
                return s.read(addr, out);
            }
        };
        cuda.enter(gen)?;
        cuda.synchronize()?;
        if bytes == 0 {
            return Ok(());
        }
        // Every stream is idle now, and no one can be writing this memory (the caller holds it
        // shared), so the legacy stream's synchronous copy races nothing.
        unsafe { cu!(cuMemcpyDtoH_v2(dst, addr, bytes)) }
    }

    /// Device to device: `dst` (held exclusively) from `src` (shared).
    pub(crate) fn raw_copy(&self, dst: Target<'_>, src: Target<'_>, bytes: usize) -> Result<()> {
        let cuda = match &self.inner.backend {
            Backend::Cuda(c) => c,
            Backend::Sim(s) => return s.copy(dst.addr, src.addr, bytes),
        };
        self.check_generation(src.generation)?;
        let src_uses = |q: CUstream| {
            src.uses
                .order_before(src.span, false, &mut |s| s.order_before(q))
        };
        cuda.enter(dst.generation)?;
        if bytes == 0 {
            return Ok(());
        }
        let q = cuda.internal.work();
        src_uses(q)?;
        self.sync_write_cuda(cuda, dst, |q| unsafe {
            cu!(cuMemcpyDtoDAsync_v2(dst.addr, src.addr, bytes, q))
        })
    }

    /// Fills `count` elements of `elem` bytes each (1, 2 or 4) with `pattern`.
    pub(crate) fn raw_fill(
        &self,
        at: Target<'_>,
        elem: usize,
        pattern: u32,
        count: usize,
    ) -> Result<()> {
        if !matches!(elem, 1 | 2 | 4) {
            return Err(Error::InvalidValue(format!(
                "memset of {elem}-byte elements"
            )));
        }
        let a = at.addr;
        self.sync_write(
            at,
            count,
            |s| s.fill(a, elem, pattern, count),
            |q| unsafe {
                match elem {
                    1 => cu!(cuMemsetD8Async(a, pattern as u8, count, q)),
                    2 => cu!(cuMemsetD16Async(a, pattern as u16, count, q)),
                    _ => cu!(cuMemsetD32Async(a, pattern, count, q)),
                }
            },
        )
    }

    /// A synchronous write of `size` units (nothing to do at 0): `sim` on the simulator, `queue`
    /// on the CUDA work stream after the conflicting uses.
    fn sync_write(
        &self,
        at: Target<'_>,
        size: usize,
        sim: impl FnOnce(&crate::sim_backend::SimDevice) -> Result<()>,
        queue: impl FnOnce(CUstream) -> Result<()>,
    ) -> Result<()> {
        match &self.inner.backend {
            Backend::Sim(s) => {
                if size == 0 {
                    Ok(())
                } else {
                    sim(s)
                }
            }
            Backend::Cuda(c) => {
                c.enter(at.generation)?;
                if size == 0 {
                    return Ok(());
                }
                self.sync_write_cuda(c, at, queue)
            }
        }
    }

    /// Queues `op` on the work stream after every use `at` conflicts with, waits for it, and
    /// forgets those uses (the caller holds the memory exclusively, so none can be added).
    fn sync_write_cuda(
        &self,
        cuda: &CudaDevice,
        at: Target<'_>,
        op: impl FnOnce(CUstream) -> Result<()>,
    ) -> Result<()> {
        let q = cuda.internal.work();
        at.uses
            .order_before(at.span, true, &mut |s| s.order_before(q))?;
        cuda.enter(at.generation)?;
        op(q)?;
        cuda.wait_internal()?;
        at.uses.completed(at.span);
        Ok(())
    }
}

/// Records a use of `span` of an allocation on `stream` (a kernel argument or a stream-ordered
/// copy): `stream` first waits for the conflicting uses of other streams. Nothing to track on the
/// simulator, where work completes when it is enqueued.
#[inline]
pub(crate) fn track(uses: &Uses, stream: &Stream, span: Span, write: bool) -> Result<()> {
    if stream.is_sim() {
        return Ok(());
    }
    uses.record(stream, span, write, &mut |other| {
        other.order_before(stream.raw())
    })
}

/// Views `bytes` host bytes at `p` (a dangling-safe empty slice for zero bytes).
///
/// # Safety
/// `p` must point at `bytes` readable bytes that outlive the returned slice.
pub(crate) unsafe fn host_bytes<'a>(p: *const c_void, bytes: usize) -> &'a [u8] {
    if bytes == 0 {
        &[]
    } else {
        unsafe { std::slice::from_raw_parts(p as *const u8, bytes) }
    }
}
