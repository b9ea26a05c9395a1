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
    /// `cp.async.bulk.tensor.Nd.shared::cluster.global...mbarrier::complete_tx::bytes` (TMA,
    /// sm_90): `a0` the shared destination, `a1` the tensor map (a grid-constant parameter's
    /// address), then `dims` coordinates (`i32`, innermost first); `im2col`: then `dims - 2`
    /// offsets (`u16`) inside the filter's box; then the barrier the box's bytes complete on;
    /// `multicast`: then the `u16` mask of the cluster's blocks that receive the box.
    TensorLoad {
        dims: u8,
        im2col: bool,
        multicast: bool,
    },
    /// `cp.async.bulk.tensor.Nd.global.shared::cta.bulk_group` (`reduce`: `cp.reduce.async.bulk
    /// .tensor` with that operation): `a0` the tensor map, then `dims` coordinates, then the
    /// shared source. Joins the thread's next bulk group.
    TensorStore {
        dims: u8,
        reduce: Option<BulkReduce>,
    },
    /// `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes`: `a0` the shared
    /// destination, `a1` the global source, `a2` bytes, `a3` the barrier.
    BulkLoad,
    /// `cp.async.bulk.global.shared::cta.bulk_group`: `a0` the global destination, `a1` the
    /// shared source, `a2` bytes.
    BulkStore,
    /// `cp.reduce.async.bulk.global.shared::cta.bulk_group.op.type`: as [`AsyncOp::BulkStore`],
    /// but each global element (of type `ty`) becomes `op(global, shared)`. Joins the thread's
    /// next bulk group.
    BulkReduce { op: BulkReduce, ty: crate::ty::Ty },
    /// `cp.async.bulk.commit_group`: the thread's bulk stores since the last one become a group.
    BulkCommit,
    /// `cp.async.bulk.wait_group n` (`read`: `.read`, only until the sources have been read):
    /// all but the newest `n` of the thread's bulk groups complete.
    BulkWait { n: u32, read: bool },
    /// `prefetch.tensormap`: `a0` the tensor map (checked to be one).
    TensorPrefetch,
}

/// The operation of a bulk reduction (`cp.reduce.async.bulk{.tensor}`): the global element becomes
/// `op(global, shared)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BulkReduce {
    Add,
    Min,
    Max,
    Inc,
    Dec,
    And,
    Or,
    Xor,
}

impl BulkReduce {
    /// The PTX spelling (`.add`...).
    pub fn ptx(self) -> &'static str {
        match self {
            BulkReduce::Add => "add",
            BulkReduce::Min => "min",
            BulkReduce::Max => "max",
            BulkReduce::Inc => "inc",
            BulkReduce::Dec => "dec",
            BulkReduce::And => "and",
            BulkReduce::Or => "or",
            BulkReduce::Xor => "xor",
        }
    }
}
