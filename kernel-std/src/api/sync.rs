//! Device API: block barriers with a vote, and memory fences.

use super::device_only;

device_intrinsic!(
    /// `__syncthreads_count(pred)`: a block barrier that returns how many threads passed `true`.
    pub fn sync_threads_count(pred: bool) -> u32
);
device_intrinsic!(
    /// `__syncthreads_and(pred)`: a block barrier that returns whether every thread passed `true`.
    pub fn sync_threads_and(pred: bool) -> bool
);
device_intrinsic!(
    /// `__syncthreads_or(pred)`: a block barrier that returns whether any thread passed `true`.
    pub fn sync_threads_or(pred: bool) -> bool
);
device_intrinsic!(
    /// `__threadfence_block()`: this thread's memory accesses before it are seen by the block
    /// before those after it.
    pub fn thread_fence_block()
);
device_intrinsic!(
    /// `__threadfence()`: as `thread_fence_block`, for every thread of the device (the
    /// last-block-done pattern publishes partial results with it before bumping a counter).
    pub fn thread_fence()
);
device_intrinsic!(
    /// `__threadfence_system()`: as `thread_fence`, also for the host and peer devices.
    pub fn thread_fence_system()
);
