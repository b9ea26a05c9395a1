//! Operations on device byte ranges, ordered against the streams that use the memory: what the
//! typed buffers are built on (the backend does the copying, see `DeviceOps`).
//!
//! A synchronous write first collects the streams whose queued uses of the bytes it overwrites
//! (or, for a copy's source, whose writes of the bytes it reads) it must follow, hands them to the
//! backend, and once the write is done forgets those uses: the caller holds the memory
//! exclusively, so no new use can have appeared meanwhile. A read to the host synchronizes the
//! whole device, which orders it after everything (and reports kernel panics).

use std::ffi::c_void;

use crate::backend::StreamOps;
use crate::uses::{Span, UseState, Uses};
use crate::{Device, Error, Result, Stream};

/// Where a synchronous operation's bytes are: the allocation's uses and the span within it.
#[derive(Clone, Copy)]
pub(crate) struct Target<'a> {
    pub(crate) addr: u64,
    pub(crate) generation: u64,
    pub(crate) uses: &'a Uses,
    pub(crate) span: &'a Span,
}

/// The streams whose uses of `span` an access (writing or not) must follow, each once.
fn conflicts(uses: &UseState, span: &Span, write: bool) -> Result<Vec<Stream>> {
    let mut out: Vec<Stream> = Vec::new();
    uses.order_before(span, write, &mut |s| {
        if !out.iter().any(|o| o.id() == s.id()) {
            out.push(s.clone());
        }
        Ok(())
    })?;
    Ok(out)
}

fn ops_of(streams: &[Stream]) -> Vec<&dyn StreamOps> {
    streams.iter().map(Stream::ops).collect()
}

impl Device {
    /// Frees memory of generation `generation` after every use in `uses`.
    pub(crate) fn free_after_uses(
        &self,
        addr: u64,
        generation: u64,
        pooled: bool,
        uses: &UseState,
    ) {
        let streams = uses.streams();
        self.ops().free(addr, generation, pooled, &ops_of(&streams))
    }

    /// Host to device; `src` points at `bytes` readable bytes. The caller holds `at` exclusively.
    pub(crate) fn raw_write(&self, at: Target<'_>, src: *const c_void, bytes: usize) -> Result<()> {
        self.sync_write(at, Vec::new(), |after| {
            // SAFETY: the caller's contract; `at` is a live buffer of at least `bytes` bytes.
            unsafe { self.ops().write(at.generation, at.addr, src, bytes, after) }
        })
    }

    /// Waits for the device, reports panics, then copies device to host.
    pub(crate) fn raw_read(
        &self,
        gen: u64,
        addr: u64,
        dst: *mut c_void,
        bytes: usize,
    ) -> Result<()> {
        // SAFETY: the caller guarantees `bytes` writable bytes at `dst` and a live buffer.
        unsafe { self.ops().read(gen, addr, dst, bytes) }
    }

    /// Device to device: `dst` (held exclusively) from `src` (shared).
    pub(crate) fn raw_copy(&self, dst: Target<'_>, src: Target<'_>, bytes: usize) -> Result<()> {
        self.check_generation(src.generation)?;
        let src_writers = conflicts(src.uses, src.span, false)?;
        self.sync_write(dst, src_writers, |after| {
            self.ops()
                .copy(dst.generation, dst.addr, src.addr, bytes, after)
        })
    }

    /// Fills `count` elements of `elem` bytes each (1, 2 or 4) with `pattern`. The caller holds
    /// `at` exclusively.
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
        self.sync_write(at, Vec::new(), |after| {
            self.ops()
                .fill(at.generation, at.addr, elem, pattern, count, after)
        })
    }

    /// Runs a synchronous write of `at` after the uses it conflicts with (and `also`), then
    /// forgets those uses.
    pub(crate) fn sync_write(
        &self,
        at: Target<'_>,
        also: Vec<Stream>,
        op: impl FnOnce(&[&dyn StreamOps]) -> Result<()>,
    ) -> Result<()> {
        let mut after = conflicts(at.uses, at.span, true)?;
        for s in also {
            if !after.iter().any(|o| o.id() == s.id()) {
                after.push(s);
            }
        }
        op(&ops_of(&after))?;
        at.uses.completed(at.span);
        Ok(())
    }
}

/// Records a use of `span` of an allocation on `stream` (a kernel argument or a stream-ordered
/// copy): `stream` first waits for the conflicting uses of other streams (a no-op on backends
/// whose work completes when it is enqueued).
#[inline]
pub(crate) fn track(uses: &Uses, stream: &Stream, span: Span, write: bool) -> Result<()> {
    if stream.recording() {
        // A graph node's use: replayed into the tracking at each launch of the graph.
        stream.record_use(crate::uses::RecordedUse {
            uses: uses.clone(),
            span,
            write,
        });
        return Ok(());
    }
    uses.record(stream, span, write, &mut |other| {
        other.order_before(stream.raw())
    })
}
