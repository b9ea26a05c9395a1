//! Barrier variants (`__syncthreads_count/and/or`) and memory fences (guide B.5, B.6).

use super::SimEnv;
use crate::intrinsics::collectives as s;

/// The simulator runs one thread at a time against one memory, so every access is already
/// visible to every later one: a fence has nothing left to order.
fn sim_fence(_: &mut dyn SimEnv, _: &[u64], _: &mut [u64]) {}

intrinsics! {
    table TABLE;

    /// `__syncthreads_count(pred)`: a block barrier that returns how many threads passed `true`.
    pub fn sync_threads_count(pred: bool) -> u32 =
        barrier(70, "bar.red.popc.u32 {d0}, 0, {a0}", s::sim_sync_threads_count);
    /// `__syncthreads_and(pred)`: a block barrier that returns whether every thread passed `true`.
    pub fn sync_threads_and(pred: bool) -> bool =
        barrier(70, "bar.red.and.pred {d0}, 0, {a0}", s::sim_sync_threads_and);
    /// `__syncthreads_or(pred)`: a block barrier that returns whether any thread passed `true`.
    pub fn sync_threads_or(pred: bool) -> bool =
        barrier(70, "bar.red.or.pred {d0}, 0, {a0}", s::sim_sync_threads_or);
    /// `__threadfence_block()`: this thread's memory accesses before it are seen by the block
    /// before those after it.
    pub fn thread_fence_block() = memory(70, "fence.acq_rel.cta", sim_fence);
    /// `__threadfence()`: as `thread_fence_block`, for every thread of the device (the
    /// last-block-done pattern publishes partial results with it before bumping a counter).
    pub fn thread_fence() = memory(70, "fence.acq_rel.gpu", sim_fence);
    /// `__threadfence_system()`: as `thread_fence`, also for the host and peer devices.
    pub fn thread_fence_system() = memory(70, "fence.acq_rel.sys", sim_fence);
}
