//! The block's asynchronous barriers and copies (`kernel_ir::async_ops`): what the hardware's
//! `mbarrier` objects and `cp.async` units hold, kept beside shared memory.
//!
//! - A barrier is the 8 bytes `barrier_init` wrote, plus its state here: expected and pending
//!   arrivals, transaction bytes still expected, and the phase number (the token `arrive`
//!   returns is the phase arrived at). Every operation also accesses the 8 bytes through the
//!   shared-memory detectors (init as a plain write, the rest as atomics), so using a barrier
//!   before its init is visible is the race or uninitialised read it is. A completed phase
//!   orders every access before it before every access after it (the detectors' epoch moves
//!   on, as at `sync_threads()`): that covers the threads that took part, at the price of also
//!   ordering any that did not.
//! - A copy reads its source when it is issued (so a bad source address is reported at the
//!   call) and lands in shared memory only at the wait that covers it, or when the barrier phase
//!   it was tied to completes: it is then written as a plain write of the issuing thread. Until
//!   it lands, any access of its destination bytes is a race with the copy.
//! - A wait that cannot be answered yet parks the thread (`block`); the scheduler retries parked
//!   threads while anything changes here (`progress`), and reports a wait that nothing left
//!   running could complete.

use kernel_ir::async_ops::AsyncOp;
use kernel_ir::ir::{Space, Ty};

use super::error::SimErrorKind;

/// How an access meets the shared-memory detectors.
#[derive(Clone, Copy)]
pub(crate) enum How {
    Read,
    Write,
    Atomic { reads: bool },
}

/// A problem to report at the operation; `other` the conflicting thread of a race.
pub(crate) struct Fail {
    pub kind: SimErrorKind,
    pub message: String,
    pub other: Option<u32>,
}

fn mem_err(kind: SimErrorKind, message: String) -> Fail {
    Fail {
        kind,
        message,
        other: None,
    }
}

/// What the operations need of the block's machine (the interpreter implements it).
pub(crate) trait Mem {
    fn asyncs(&mut self) -> &mut AsyncState;
    fn shared_len(&self) -> usize;
    /// An access by thread `t`, checked as the interpreter checks its own.
    fn read(&mut self, t: u32, space: Space, addr: u64, ty: Ty, how: How) -> Result<u64, Fail>;
    fn write(
        &mut self,
        t: u32,
        space: Space,
        addr: u64,
        bytes: usize,
        v: u64,
        how: How,
    ) -> Result<(), Fail>;
    /// Every access so far happens before every later one (the detectors' epoch moves on).
    fn order_all(&mut self);
    /// The bytes of the launch's grid-constant parameter that `handle` names.
    fn grid_constant(&self, handle: u64) -> Option<&[u8]>;
}

/// Most arrivals a barrier may expect (`mbarrier.init`'s count, 2^20 - 1).
const MAX_COUNT: u64 = (1 << 20) - 1;

struct Bar {
    expected: u32,
    pending: u32,
    phase: u64,
    tx: i64,
}

/// A bulk store (`tma`) whose source is still being read.
pub(crate) struct PendingStore {
    pub t: u32,
    pub src: u32,
    pub len: u32,
    /// The thread's bulk group, once committed.
    pub group: Option<u32>,
}

pub(crate) struct Copy {
    t: u32,
    dst: u32,
    data: Vec<u8>,
    /// The commit group (per thread), once committed.
    group: Option<u32>,
    /// The barrier whose current phase it completes on (`cp_async_barrier_arrive`).
    bar: Option<u32>,
}

#[derive(Default)]
pub(crate) struct AsyncState {
    bars: Vec<(u32, Bar)>,
    copies: Vec<Copy>,
    /// Per shared byte: 1 + the thread whose copy to it has not landed (0: none).
    pending: Vec<u32>,
    /// Per thread: groups committed so far.
    committed: Vec<u32>,
    /// Per thread: the token of an `arrive_and_wait` parked at its wait.
    arrived: Vec<Option<(u32, u64)>>,
    /// Set by a wait that cannot be answered: park the thread, after the op (`true`: a test
    /// that answered `false`) or at it (retried).
    pub block: Option<bool>,
    /// Per thread: why it is parked (for the report when nothing can wake it).
    pub parked: Vec<String>,
    /// Per thread: the op it is parked at.
    pub parked_pc: Vec<usize>,
    /// Changes that may let a parked thread go on.
    pub progress: u64,
    /// Per shared byte: 1 + the thread whose bulk store still reads it (0: none); writing it is
    /// a race until that thread's `cp_async_bulk_wait_group_read` covers the store.
    pub store_src: Vec<u32>,
    /// Bulk stores whose sources are still being read.
    pub stores: Vec<PendingStore>,
    /// Per thread: bulk groups committed so far.
    pub bulk_committed: Vec<u32>,
}

impl AsyncState {
    pub fn start_block(&mut self, shared_bytes: usize, threads: usize) {
        self.bars.clear();
        self.copies.clear();
        self.pending.clear();
        self.pending.resize(shared_bytes, 0);
        self.committed.clear();
        self.committed.resize(threads, 0);
        self.arrived.clear();
        self.arrived.resize(threads, None);
        self.parked.clear();
        self.parked.resize(threads, String::new());
        self.parked_pc.clear();
        self.parked_pc.resize(threads, 0);
        self.block = None;
        self.store_src.clear();
        self.store_src.resize(shared_bytes, 0);
        self.stores.clear();
        self.bulk_committed.clear();
        self.bulk_committed.resize(threads, 0);
    }

    /// Whether a bulk store still reads `[off, off + len)`: the thread whose store it is.
    #[inline]
    pub fn store_reading(&self, off: usize, len: usize) -> Option<u32> {
        if self.stores.is_empty() {
            return None;
        }
        self.store_src
            .get(off..off + len)?
            .iter()
            .find(|&&p| p != 0)
            .map(|p| p - 1)
    }

    /// Whether a copy to `[off, off + len)` has not landed: the thread whose copy it is.
    #[inline]
    pub fn in_flight(&self, off: usize, len: usize) -> Option<u32> {
        if self.copies.is_empty() {
            return None;
        }
        self.pending
            .get(off..off + len)?
            .iter()
            .find(|&&p| p != 0)
            .map(|p| p - 1)
    }

    fn bar(&mut self, addr: u32) -> Option<&mut Bar> {
        self.bars
            .iter_mut()
            .find(|(a, _)| *a == addr)
            .map(|(_, b)| b)
    }
}

fn race(message: String, other: Option<u32>) -> Fail {
    Fail {
        kind: SimErrorKind::SharedRace,
        message,
        other,
    }
}

fn bar_err(message: String) -> Fail {
    mem_err(SimErrorKind::UninitSharedRead, message)
}

/// Runs `op` for thread `t`.
pub(crate) fn run(
    m: &mut impl Mem,
    t: u32,
    op: AsyncOp,
    a: &[u64],
    o: &mut [u64],
) -> Result<(), Fail> {
    match op {
        AsyncOp::BarInit => {
            let addr = a[0] as u32;
            let count = a[1] as u32 as u64;
            if count == 0 || count > MAX_COUNT {
                return Err(mem_err(
                    SimErrorKind::InvalidParams,
                    format!("`barrier_init` with an expected count of {count}: it must be 1..={MAX_COUNT}"),
                ));
            }
            m.write(t, Space::Shared, addr as u64, 8, count, How::Write)?;
            let s = m.asyncs();
            s.bars.retain(|(b, _)| *b != addr);
            s.bars.push((
                addr,
                Bar {
                    expected: count as u32,
                    pending: count as u32,
                    phase: 0,
                    tx: 0,
                },
            ));
            s.progress += 1;
        }
        AsyncOp::BarArrive { drop, count } => {
            let n = if count { a[1] as u32 } else { 1 };
            o[0] = arrive(m, t, a[0] as u32, n, drop, "barrier_arrive")?;
        }
        AsyncOp::BarArriveWait => {
            let addr = a[0] as u32;
            let token = match m.asyncs().arrived[t as usize] {
                Some((b, tok)) if b == addr => tok,
                _ => arrive(m, t, addr, 1, false, "barrier_arrive_and_wait")?,
            };
            if wait_done(m, t, addr, token, false, "barrier_arrive_and_wait")? {
                m.asyncs().arrived[t as usize] = None;
            } else {
                m.asyncs().arrived[t as usize] = Some((addr, token));
                m.asyncs().block = Some(false);
            }
        }
        AsyncOp::BarWait { parity, blocking } => {
            let what = if parity {
                "barrier_wait_parity"
            } else {
                "barrier_wait"
            };
            let done = wait_done(m, t, a[0] as u32, a[1], parity, what)?;
            if !blocking {
                o[0] = done as u64;
            }
            if !done {
                m.asyncs().block = Some(!blocking);
            }
        }
        AsyncOp::BarExpectTx { arrive: and_arrive } => {
            let addr = a[0] as u32;
            touch(m, t, addr, "barrier_expect_tx")?;
            if let Some(b) = m.asyncs().bar(addr) {
                b.tx += a[1] as u32 as i64;
            }
            m.asyncs().progress += 1;
            if and_arrive {
                o[0] = arrive(m, t, addr, 1, false, "barrier_arrive_expect_tx")?;
            }
        }
        AsyncOp::BarCompleteTx => {
            let addr = a[0] as u32;
            touch(m, t, addr, "barrier_complete_tx")?;
            complete_tx(m, addr, a[1] as u32 as i64)?;
        }
        // The copy engine's operations (`kernel-sim/src/tma.rs`; the interpreter sends them there).
        AsyncOp::TensorLoad { .. }
        | AsyncOp::TensorStore { .. }
        | AsyncOp::BulkLoad
        | AsyncOp::BulkStore
        | AsyncOp::BulkReduce { .. }
        | AsyncOp::BulkCommit
        | AsyncOp::BulkWait { .. }
        | AsyncOp::TensorPrefetch => {
            return Err(mem_err(
                SimErrorKind::MalformedIr,
                format!("internal: {op:?} reached the barrier and cp.async state"),
            ))
        }
        AsyncOp::Copy { bytes, zfill } => copy(m, t, a, bytes, zfill)?,
        AsyncOp::Commit => {
            let s = m.asyncs();
            let g = s.committed[t as usize];
            for c in s
                .copies
                .iter_mut()
                .filter(|c| c.t == t && c.group.is_none())
            {
                c.group = Some(g);
            }
            s.committed[t as usize] += 1;
        }
        AsyncOp::WaitGroup(n) => {
            let done = m.asyncs().committed[t as usize].saturating_sub(n);
            land(m, |c| c.t == t && c.group.is_some_and(|g| g < done))?;
        }
        AsyncOp::WaitAll => land(m, |c| c.t == t)?,
        AsyncOp::CopyArrive { noinc } => {
            let addr = a[0] as u32;
            touch(m, t, addr, "cp_async_barrier_arrive")?;
            for c in m
                .asyncs()
                .copies
                .iter_mut()
                .filter(|c| c.t == t && c.bar.is_none())
            {
                c.bar = Some(addr);
            }
            if noinc {
                arrive(m, t, addr, 1, false, "cp_async_barrier_arrive_noinc")?;
            }
        }
    }
    Ok(())
}

/// `bytes` of the barrier's transactions have completed (the phase may complete with them).
pub(crate) fn complete_tx(m: &mut impl Mem, addr: u32, bytes: i64) -> Result<(), Fail> {
    let done = match m.asyncs().bar(addr) {
        Some(b) => {
            b.tx -= bytes;
            b.pending == 0 && b.tx == 0
        }
        None => false,
    };
    m.asyncs().progress += 1;
    if done {
        complete(m, addr)?;
    }
    Ok(())
}

/// A copy by `t` of `data` to shared offset `dst` that lands when the current phase of the
/// barrier at `bar` completes; its bytes are in flight until then. `what` names it in a race.
pub(crate) fn push_copy(
    m: &mut impl Mem,
    t: u32,
    dst: u32,
    data: Vec<u8>,
    bar: u32,
    what: &str,
) -> Result<(), Fail> {
    let (d, n) = (dst as usize, data.len());
    if let Some(other) = m.asyncs().in_flight(d, n) {
        return Err(race(
            format!("`{what}` to shared bytes {d}..{} races with an earlier copy there by {} that has not landed", d + n, if other == t { "this thread" } else { "thread {OTHER}" }),
            (other != t).then_some(other),
        ));
    }
    let s = m.asyncs();
    s.pending[d..d + n].fill(t + 1);
    s.copies.push(Copy {
        t,
        dst,
        data,
        group: None,
        bar: Some(bar),
    });
    Ok(())
}

pub(crate) fn race_fail(message: String, other: Option<u32>) -> Fail {
    race(message, other)
}

pub(crate) fn fail(kind: SimErrorKind, message: String) -> Fail {
    mem_err(kind, message)
}

/// The barrier's bytes, accessed atomically by `t`, and a check that they hold a barrier.
pub(crate) fn touch(m: &mut impl Mem, t: u32, addr: u32, what: &str) -> Result<(), Fail> {
    m.read(
        t,
        Space::Shared,
        addr as u64,
        Ty::U64,
        How::Atomic { reads: true },
    )?;
    if m.asyncs().bar(addr).is_none() {
        return Err(bar_err(format!(
            "`{what}` on shared bytes {addr}..{} that `barrier_init` never made a barrier",
            addr + 8
        )));
    }
    Ok(())
}

/// `n` arrivals of `t` (`drop`: and one fewer expected from the next phase on); the token.
fn arrive(
    m: &mut impl Mem,
    t: u32,
    addr: u32,
    n: u32,
    drop: bool,
    what: &str,
) -> Result<u64, Fail> {
    touch(m, t, addr, what)?;
    let b = m.asyncs().bar(addr).expect("checked by touch");
    if n == 0 || n > b.pending {
        let (p, e) = (b.pending, b.expected);
        return Err(mem_err(
            SimErrorKind::BarrierDivergence,
            format!("`{what}`: {n} arrival(s) on a barrier phase that waits for only {p} more (of {e} expected)"),
        ));
    }
    let token = b.phase;
    b.pending -= n;
    if drop {
        b.expected -= 1;
    }
    let done = b.pending == 0 && b.tx == 0;
    m.asyncs().progress += 1;
    if done {
        complete(m, addr)?;
    }
    Ok(token)
}

/// Whether the phase of `token` (or of parity `token`) of the barrier has completed; records why
/// `t` waits if not.
fn wait_done(
    m: &mut impl Mem,
    t: u32,
    addr: u32,
    token: u64,
    parity: bool,
    what: &str,
) -> Result<bool, Fail> {
    touch(m, t, addr, what)?;
    let b = m.asyncs().bar(addr).expect("checked by touch");
    let done = if parity {
        (b.phase & 1) != (token & 1)
    } else {
        token < b.phase
    };
    if !done {
        let phase = if parity { b.phase } else { token };
        let msg = format!(
            "the thread waits (`{what}`) for phase {phase} of the barrier at shared offset {addr}, which can never complete: {} of its {} arrivals{} are missing and no thread that could provide them is still running",
            b.pending,
            b.expected,
            if b.tx != 0 { format!(" and {} transaction bytes", b.tx) } else { String::new() }
        );
        m.asyncs().parked[t as usize] = msg;
    }
    Ok(done)
}

/// The barrier's current phase completes: its copies land, the next phase starts.
fn complete(m: &mut impl Mem, addr: u32) -> Result<(), Fail> {
    land(m, |c| c.bar == Some(addr))?;
    let b = m.asyncs().bar(addr).expect("a live barrier");
    b.phase += 1;
    b.pending = b.expected;
    b.tx = 0;
    // Everything before the completion happens before everything after it.
    m.order_all();
    Ok(())
}

fn copy(m: &mut impl Mem, t: u32, a: &[u64], bytes: u32, zfill: bool) -> Result<(), Fail> {
    let (dst, src) = (a[0], a[1]);
    let src_bytes = if zfill { a[2] as u32 } else { bytes };
    if src_bytes > bytes {
        return Err(mem_err(
            SimErrorKind::OutOfBounds,
            format!("`cp.async` of {bytes} bytes told to read {src_bytes} source bytes"),
        ));
    }
    let size = m.shared_len() as u64;
    if dst % bytes as u64 != 0 || (src_bytes > 0 && src % bytes as u64 != 0) {
        return Err(mem_err(
            SimErrorKind::Misaligned,
            format!("`memcpy_async` of {bytes} bytes from global address {src:#x} to shared offset {dst}: both must be {bytes}-byte aligned"),
        ));
    }
    if dst + bytes as u64 > size {
        return Err(mem_err(
            SimErrorKind::OutOfBounds,
            format!("`memcpy_async` of {bytes} bytes to shared offset {dst}, outside the block's {size} bytes of shared memory"),
        ));
    }
    let mut data = vec![0u8; bytes as usize];
    for (i, d) in data.iter_mut().enumerate().take(src_bytes as usize) {
        *d = m.read(t, Space::Global, src + i as u64, Ty::U8, How::Read)? as u8;
    }
    let d = dst as usize;
    if let Some(other) = m.asyncs().in_flight(d, bytes as usize) {
        return Err(race(
            format!("`memcpy_async` to shared bytes {dst}..{} races with an earlier copy there by {} that has not landed", dst + bytes as u64, if other == t { "this thread" } else { "thread {OTHER}" }),
            (other != t).then_some(other),
        ));
    }
    let s = m.asyncs();
    s.pending[d..d + bytes as usize].fill(t + 1);
    s.copies.push(Copy {
        t,
        dst: dst as u32,
        data,
        group: None,
        bar: None,
    });
    Ok(())
}

/// The copies `which` selects land, in issue order.
fn land(m: &mut impl Mem, which: impl Fn(&Copy) -> bool) -> Result<(), Fail> {
    if !m.asyncs().copies.iter().any(&which) {
        return Ok(());
    }
    let (go, stay): (Vec<Copy>, Vec<Copy>) = std::mem::take(&mut m.asyncs().copies)
        .into_iter()
        .partition(|c| which(c));
    m.asyncs().copies = stay;
    for c in &go {
        let d = c.dst as usize;
        m.asyncs().pending[d..d + c.data.len()].fill(0);
    }
    // The data lands as 4-byte writes of the issuing thread (bulk copies are 16-byte units).
    for c in go {
        for (k, w) in c.data.chunks(4).enumerate() {
            let v = u32::from_le_bytes([w[0], w[1], w[2], w[3]]) as u64;
            m.write(
                c.t,
                Space::Shared,
                c.dst as u64 + 4 * k as u64,
                4,
                v,
                How::Write,
            )?;
        }
    }
    m.asyncs().progress += 1;
    Ok(())
}
