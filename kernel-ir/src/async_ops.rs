//! What the asynchronous-data-movement intrinsics ask of the simulator (guide B.25-B.27): the
//! `mbarrier` operations of `cuda::barrier` and the `cp.async` copies with their commit groups.
//! Their table entries (`kernel_std::intrinsics::barrier_async`, `async_copy`) pass one of these
//! to [`SimEnv::async_op`](crate::intrinsic::SimEnv::async_op), so the state the operations share
//! (barrier phases, in-flight copies) lives in the simulator's block, not in the entries.

/// One asynchronous operation; the arguments are the entry's, as raw bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AsyncOp {
    /// `mbarrier.init`: `a0` the barrier's shared address, `a1` the expected arrival count.
    BarInit,
    /// `mbarrier.arrive` (`drop`: `arrive_drop`, which also lowers the expected count of every
    /// later phase): `a0` the barrier; `d0` the token of the phase arrived at. `count`: `a1`
    /// arrivals at once (sm_90) instead of one.
    BarArrive { drop: bool, count: bool },
    /// `mbarrier.arrive` then a blocking wait on its token (`arrive_and_wait`): `a0` the barrier.
    BarArriveWait,
    /// `mbarrier.expect_tx`: `a0` the barrier, `a1` transaction bytes the current phase must also
    /// see completed (`arrive`: `mbarrier.arrive.expect_tx`, which then arrives; `d0` the token).
    BarExpectTx { arrive: bool },
    /// `mbarrier.complete_tx`: `a0` the barrier, `a1` transaction bytes completed.
    BarCompleteTx,
    /// Waiting for a phase: `a0` the barrier, `a1` the token (`parity`: the phase parity).
    /// `blocking`: the thread stays until the phase completes (`barrier_wait`); otherwise `d0`
    /// says whether it has (`test_wait` / `try_wait`).
    BarWait { parity: bool, blocking: bool },
    /// `cp.async` of `bytes` (4, 8 or 16): `a0` the shared destination, `a1` the global
    /// source; `zfill`: `a2` the source bytes to read (the rest of `bytes` is zero-filled).
    Copy { bytes: u32, zfill: bool },
    /// `cp.async.commit_group`: the thread's uncommitted copies become one group.
    Commit,
    /// `cp.async.wait_group n`: the thread's committed groups, all but the newest `n`, land.
    WaitGroup(u32),
    /// `cp.async.wait_all`: every copy of the thread lands, committed or not.
    WaitAll,
    /// `cp.async.mbarrier.arrive` (`noinc`: `.noinc`): `a0` the barrier; the thread's copies so
    /// far land when the barrier's current phase completes. Without `noinc` the arrival is one
    /// the barrier was not expecting (CUDA raises the pending count first); with it, one of the
    /// expected arrivals.
    CopyArrive { noinc: bool },
}
