//! Which streams may still have queued work on a piece of device memory, so that every use of it
//! is ordered after the earlier uses it conflicts with.
//!
//! Each allocation keeps a short list of uses: a stream, a byte range of the allocation, and
//! whether the use writes. A kernel argument or a stream-ordered copy on stream `S` first makes `S`
//! wait for the uses on *other* streams it conflicts with (overlapping ranges, at least one side
//! writing), through an event recorded on the other stream at that moment; then it adds its own
//! use. Reads of the same memory on several streams stay concurrent, and writes to disjoint views
//! on different streams do too. A synchronous copy makes the runtime's internal stream wait the
//! same way before it runs there, and a drop frees the memory in stream order after every use
//! (see `memory`), so safe code never races a copy with a kernel and never frees memory that queued
//! work still uses.
//!
//! Writers hold the memory exclusively (`&mut`), so a write may drop the uses it covers: they are
//! ordered before it now. Readers share it, so a read only adds (and notes, on the write it waited
//! for, that its stream needs no second wait). The common case, every use on one stream, costs one
//! atomic load: the `sole` word names that stream while it is the only one with uses and covers
//! the whole allocation. Streams are named by their process-unique ids, never reused.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::{Device, Result, Stream};

/// A byte range of an allocation.
pub(crate) type Span = std::ops::Range<u64>;

struct Use {
    stream: Stream,
    span: Span,
    write: bool,
    /// Streams that already waited for this use's writes (reads add themselves).
    waited_by: Vec<u64>,
}

/// A stream's uses beyond this many are merged into one span (more waits later, never fewer).
const PER_STREAM: usize = 8;

/// The uses of one allocation, shared by the buffer and the graphs whose nodes use it (see
/// `graph`): a graph launch records its uses here like a launch does, and the allocation is freed
/// when the last of them goes (the buffer's drop hands the free over, [`Uses::free_when_unused`]).
#[derive(Clone)]
pub(crate) struct Uses(Arc<UseState>);

/// What [`Uses`] shares.
pub(crate) struct UseState {
    bytes: u64,
    /// `id << 1 | 1` when the only use is a write of everything on stream `id`, `id << 1` when
    /// it is a read of everything, else 0 (stream ids start at 1).
    sole: AtomicU64,
    list: Mutex<Vec<Use>>,
    /// The allocation's free, once its buffer dropped: run when the last holder goes.
    free: Mutex<Option<PendingFree>>,
}

/// A free handed over by a dropped buffer.
struct PendingFree {
    device: Device,
    addr: u64,
    generation: u64,
    pooled: bool,
}

impl std::ops::Deref for Uses {
    type Target = UseState;
    fn deref(&self) -> &UseState {
        &self.0
    }
}

impl Uses {
    /// No uses yet, for an allocation of `bytes` bytes.
    pub(crate) fn new(bytes: u64) -> Self {
        Uses(Arc::new(UseState {
            bytes,
            sole: AtomicU64::new(0),
            list: Mutex::new(Vec::new()),
            free: Mutex::new(None),
        }))
    }

    /// Whether two handles name the same allocation.
    pub(crate) fn same(&self, other: &Uses) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// The buffer owning the allocation is dropped: frees it in stream order after its uses now,
    /// or, while a graph still holds these uses, when the last graph goes.
    pub(crate) fn free_when_unused(
        &self,
        device: &Device,
        addr: u64,
        generation: u64,
        pooled: bool,
    ) {
        *self.free.lock().unwrap_or_else(|e| e.into_inner()) = Some(PendingFree {
            device: device.clone(),
            addr,
            generation,
            pooled,
        });
    }
}

impl Drop for UseState {
    fn drop(&mut self) {
        let pending = self
            .free
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(p) = pending {
            p.device
                .free_after_uses(p.addr, p.generation, p.pooled, self);
        }
    }
}

impl UseState {
    /// Everything, as a span.
    pub(crate) fn all(&self) -> Span {
        0..self.bytes
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Use>> {
        self.list.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records a use of `span` on `stream`, first calling `wait(other)` for every other stream
    /// whose uses conflict with it (each once). `wait` must make `stream`'s later work wait for
    /// the work `other` has queued so far. A write must come from a holder of exclusive access.
    pub(crate) fn record(
        &self,
        stream: &Stream,
        span: Span,
        write: bool,
        wait: &mut dyn FnMut(&Stream) -> Result<()>,
    ) -> Result<()> {
        let id = stream.id();
        let sole = self.sole.load(Ordering::Acquire);
        if sole == (id << 1 | 1) || (!write && sole == id << 1) {
            return Ok(());
        }
        let mut list = self.lock();
        let mut waited: Vec<u64> = Vec::new();
        for u in list.iter_mut() {
            let other = u.stream.id();
            if other == id || !(write || u.write) || !overlaps(&u.span, &span) {
                continue;
            }
            if !write && u.waited_by.contains(&id) {
                continue;
            }
            if !waited.contains(&other) {
                wait(&u.stream)?;
                waited.push(other);
            }
            if !write {
                u.waited_by.push(id);
            }
        }
        if write {
            // Everything the write covers is ordered before it now (or is on its own stream).
            list.retain(|u| !(u.span.start >= span.start && u.span.end <= span.end));
        }
        add(&mut list, stream, span, write);
        self.publish(&list);
        Ok(())
    }

    /// Calls `wait(other)` for every stream whose uses conflict with an access of `span` that
    /// does not belong to any stream (a copy on the runtime's own stream, the host's).
    pub(crate) fn order_before(
        &self,
        span: &Span,
        write: bool,
        wait: &mut dyn FnMut(&Stream) -> Result<()>,
    ) -> Result<()> {
        let list = self.lock();
        let mut waited: Vec<u64> = Vec::new();
        for u in list.iter() {
            let other = u.stream.id();
            if (write || u.write) && overlaps(&u.span, span) && !waited.contains(&other) {
                wait(&u.stream)?;
                waited.push(other);
            }
        }
        Ok(())
    }

    /// Forgets the uses inside `span`: an exclusive holder's synchronous write waited for them and
    /// completed.
    pub(crate) fn completed(&self, span: &Span) {
        let mut list = self.lock();
        list.retain(|u| !(u.span.start >= span.start && u.span.end <= span.end));
        self.publish(&list);
    }

    /// The streams with uses, each once (what a free must be ordered after).
    pub(crate) fn streams(&self) -> Vec<Stream> {
        let list = self.lock();
        let mut out: Vec<Stream> = Vec::new();
        for u in list.iter() {
            if !out.iter().any(|s| s.id() == u.stream.id()) {
                out.push(u.stream.clone());
            }
        }
        out
    }

    fn publish(&self, list: &[Use]) {
        let sole = match list {
            [u] if u.span.start == 0 && u.span.end >= self.bytes => {
                u.stream.id() << 1 | u64::from(u.write)
            }
            _ => 0,
        };
        self.sole.store(sole, Ordering::Release);
    }
}

/// A use filed instead of tracked, by a stream in recording mode (a graph's own stream while a
/// node is added, or a capturing stream; see `Stream::record_use`): the allocation's shared uses,
/// the bytes, whether the work writes them. A graph replays its recorded uses into the tracking
/// at every launch (see `graph::uses`).
#[derive(Clone)]
pub(crate) struct RecordedUse {
    pub(crate) uses: Uses,
    pub(crate) span: Span,
    pub(crate) write: bool,
}

impl RecordedUse {
    /// Adds the use to `list`, merging it into an earlier one of the same allocation (the union
    /// of the bytes; a write if either writes: more ordering, never less).
    pub(crate) fn merge_into(self, list: &mut Vec<RecordedUse>) {
        if let Some(u) = list.iter_mut().find(|u| u.uses.same(&self.uses)) {
            u.span = u.span.start.min(self.span.start)..u.span.end.max(self.span.end);
            u.write |= self.write;
        } else {
            list.push(self);
        }
    }
}

fn overlaps(a: &Span, b: &Span) -> bool {
    a.start < b.end && b.start < a.end
}

/// Adds a use, merging it with the stream's uses it overlaps or touches. A merged write starts
/// over: no stream has waited for it yet.
fn add(list: &mut Vec<Use>, stream: &Stream, mut span: Span, mut write: bool) {
    let id = stream.id();
    let new_write = write;
    // Streams that waited for every merged write (`None`: no write merged yet).
    let mut waited_by: Option<Vec<u64>> = None;
    let mut absorb = |u: &Use, span: &mut Span, write: &mut bool| {
        *span = span.start.min(u.span.start)..span.end.max(u.span.end);
        *write |= u.write;
        if u.write {
            waited_by = Some(match waited_by.take() {
                None => u.waited_by.clone(),
                Some(mut w) => {
                    w.retain(|s| u.waited_by.contains(s));
                    w
                }
            });
        }
    };
    let mut kept = Vec::with_capacity(list.len());
    for u in list.drain(..) {
        if u.stream.id() == id && u.span.start <= span.end && span.start <= u.span.end {
            absorb(&u, &mut span, &mut write);
        } else {
            kept.push(u);
        }
    }
    if kept.iter().filter(|u| u.stream.id() == id).count() >= PER_STREAM {
        let mut rest = Vec::with_capacity(kept.len());
        for u in kept.drain(..) {
            if u.stream.id() == id {
                absorb(&u, &mut span, &mut write);
            } else {
                rest.push(u);
            }
        }
        kept = rest;
    }
    *list = kept;
    list.push(Use {
        stream: stream.clone(),
        span,
        write,
        waited_by: if new_write {
            Vec::new()
        } else {
            waited_by.unwrap_or_default()
        },
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Device;

    /// Records and returns the ids of the streams it was asked to wait for.
    fn rec(u: &Uses, s: &Stream, span: Span, write: bool) -> Vec<u64> {
        let mut waited = Vec::new();
        u.record(s, span, write, &mut |o| {
            waited.push(o.id());
            Ok(())
        })
        .unwrap();
        waited
    }

    fn streams() -> (Stream, Stream, Stream) {
        let d = Device::simulator();
        (
            d.new_stream().unwrap(),
            d.new_stream().unwrap(),
            d.new_stream().unwrap(),
        )
    }

    #[test]
    fn one_stream_never_waits_and_takes_the_fast_path() {
        let (a, _, _) = streams();
        let u = Uses::new(100);
        assert!(rec(&u, &a, 0..100, true).is_empty());
        assert_eq!(u.sole.load(Ordering::Relaxed), a.id() << 1 | 1);
        assert!(rec(&u, &a, 0..100, false).is_empty());
        assert!(rec(&u, &a, 10..20, true).is_empty());
        assert_eq!(u.lock().len(), 1);
    }

    #[test]
    fn writes_wait_for_everything_they_overlap_reads_only_for_writes() {
        let (a, b, c) = streams();
        let u = Uses::new(100);
        rec(&u, &a, 0..100, false);
        assert!(rec(&u, &b, 0..100, false).is_empty(), "reads share");
        assert_eq!(u.sole.load(Ordering::Relaxed), 0);
        let mut w = rec(&u, &c, 0..100, true);
        w.sort();
        assert_eq!(w, vec![a.id(), b.id()], "a write waits for every reader");
        assert_eq!(u.lock().len(), 1, "and replaces the uses it covers");
        assert_eq!(
            rec(&u, &a, 50..60, false),
            vec![c.id()],
            "a read waits for the writer"
        );
        assert!(rec(&u, &c, 0..100, false).is_empty());
    }

    #[test]
    fn a_reader_waits_for_a_write_once() {
        let (a, b, _) = streams();
        let u = Uses::new(100);
        rec(&u, &a, 0..100, true);
        assert_eq!(rec(&u, &b, 0..100, false), vec![a.id()]);
        assert!(
            rec(&u, &b, 0..100, false).is_empty(),
            "b is ordered after a's write"
        );
        rec(&u, &a, 0..100, false);
        assert!(
            rec(&u, &b, 0..10, false).is_empty(),
            "a's read added no write"
        );
        // A new write by a (exclusive: b's reads were queued before it) needs a new wait.
        rec(&u, &a, 0..100, true);
        assert_eq!(rec(&u, &b, 0..100, false), vec![a.id()]);
    }

    #[test]
    fn disjoint_views_on_different_streams_do_not_wait() {
        let (a, b, c) = streams();
        let u = Uses::new(400);
        assert!(rec(&u, &a, 0..100, true).is_empty());
        assert!(rec(&u, &b, 100..200, true).is_empty());
        assert!(rec(&u, &a, 200..300, true).is_empty());
        assert!(rec(&u, &b, 300..400, true).is_empty());
        assert_eq!(rec(&u, &c, 150..250, false).len(), 2);
        assert_eq!(rec(&u, &c, 0..400, true).len(), 2);
        assert_eq!(u.lock().len(), 1);
    }

    #[test]
    fn host_side_accesses_wait_like_a_stream_and_drops_see_every_stream() {
        let (a, b, _) = streams();
        let u = Uses::new(100);
        rec(&u, &a, 0..50, true);
        rec(&u, &b, 50..100, false);
        let mut w = Vec::new();
        u.order_before(&(0..10), false, &mut |o| {
            w.push(o.id());
            Ok(())
        })
        .unwrap();
        assert_eq!(w, vec![a.id()], "a read waits for writes only");
        w.clear();
        u.order_before(&u.all(), true, &mut |o| {
            w.push(o.id());
            Ok(())
        })
        .unwrap();
        assert_eq!(w.len(), 2);
        assert_eq!(u.streams().len(), 2);
        u.completed(&u.all());
        assert!(u.streams().is_empty());
    }

    #[test]
    fn many_views_of_one_stream_stay_bounded() {
        let (a, b, _) = streams();
        let u = Uses::new(10_000);
        for i in 0..100u64 {
            rec(&u, &a, i * 100..i * 100 + 10, true);
        }
        assert!(u.lock().len() <= PER_STREAM);
        assert_eq!(rec(&u, &b, 0..10_000, false), vec![a.id()]);
    }
}
