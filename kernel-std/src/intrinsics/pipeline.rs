//! `cuda::pipeline` (guide B.27, "using cuda::pipeline") on `cp.async` commit groups: a FIFO of
//! stages, each the group of copies committed together. The state is the two stage counters,
//! in registers, so a pipeline costs no shared memory.
//!
//! ```text
//! let mut pipe = make_block_pipeline();             // every thread produces and consumes
//! for stage in 0..STAGES { producer_acquire(&mut pipe); memcpy_async(..); producer_commit(&mut pipe); }
//! loop {
//!     consumer_wait(&mut pipe);                     // the oldest stage has landed, block-wide
//!     .. compute on it ..
//!     consumer_release(&mut pipe);                  // its buffers may be refilled
//!     producer_acquire(&mut pipe); memcpy_async(..); producer_commit(&mut pipe);
//! }
//! ```
//!
//! `make_pipeline()` is `cuda::pipeline<cuda::thread_scope_thread>`: each thread waits for its
//! own copies only (the guide's optimised form, with a `sync_threads()` of the caller's after
//! `consumer_wait` when threads read each other's elements). `make_block_pipeline()` is the
//! unified `cuda::pipeline<cuda::thread_scope_block>` of a whole block: `consumer_wait` also
//! waits for every thread's copies of the stage (a block barrier after the thread's own wait),
//! and `consumer_release` keeps a stage's buffers from being refilled until every thread is done
//! reading them (a block barrier), so `producer_acquire` has nothing left to wait for. Every
//! thread of the block must call the block pipeline's functions, in the same order.

use kernel_macros::{device, DeviceCopy};

use super::async_copy::{cp_async_commit_group, cp_async_wait_group};
use super::registers::sync_threads;

/// `cuda::pipeline`: stages committed (`head`) and released (`tail`) so far, and whether the
/// whole block takes part (`block != 0`).
#[repr(C)]
#[derive(Clone, Copy, DeviceCopy)]
pub struct Pipeline {
    head: u32,
    tail: u32,
    block: u32,
}

/// `cuda::make_pipeline()`: a thread-scoped pipeline.
#[device]
pub fn make_pipeline() -> Pipeline {
    Pipeline {
        head: 0,
        tail: 0,
        block: 0,
    }
}

/// `cuda::make_pipeline(block, &shared_state)` for a block whose every thread is producer and
/// consumer.
#[device]
pub fn make_block_pipeline() -> Pipeline {
    Pipeline {
        head: 0,
        tail: 0,
        block: 1,
    }
}

/// `pipeline.producer_acquire()`: the head stage is free (copies are unbounded in flight and
/// `consumer_release` already waited for the stage's readers), so nothing to wait for.
#[device]
pub fn producer_acquire(_pipe: &mut Pipeline) {}

/// `pipeline.producer_commit()`: the thread's copies since the last commit form the head stage.
#[device]
pub fn producer_commit(pipe: &mut Pipeline) {
    cp_async_commit_group();
    pipe.head += 1;
}

/// `pipeline.consumer_wait()`: waits until the oldest unreleased stage has landed (for a block
/// pipeline: every thread's part of it).
#[device]
pub fn consumer_wait(pipe: &mut Pipeline) {
    // The stages after the oldest may stay in flight; `wait_group` takes an immediate, so the
    // count picks one of eight waits: through three compares (a balanced tree), not a chain of up
    // to seven, which an eight-stage pipeline would walk to its end on every stage.
    let n = pipe.head - pipe.tail;
    if n <= 4 {
        if n <= 2 {
            if n <= 1 {
                cp_async_wait_group(0);
            } else {
                cp_async_wait_group(1);
            }
        } else if n == 3 {
            cp_async_wait_group(2);
        } else {
            cp_async_wait_group(3);
        }
    } else if n <= 6 {
        if n == 5 {
            cp_async_wait_group(4);
        } else {
            cp_async_wait_group(5);
        }
    } else if n == 7 {
        cp_async_wait_group(6);
    } else {
        cp_async_wait_group(7);
    }
    if pipe.block != 0 {
        sync_threads();
    }
}

/// `cuda::pipeline_consumer_wait_prior<N>(pipeline)`: waits until at most the `N` newest stages
/// are in flight (`N` 0..=7; for a block pipeline, block-wide).
#[device]
pub fn pipeline_wait_prior<const N: u32>(pipe: &mut Pipeline) {
    cp_async_wait_group(N);
    if pipe.block != 0 {
        sync_threads();
    }
}

/// `pipeline.consumer_release()`: the oldest stage's buffers may be refilled (for a block
/// pipeline, once every thread is done with them).
#[device]
pub fn consumer_release(pipe: &mut Pipeline) {
    pipe.tail += 1;
    if pipe.block != 0 {
        sync_threads();
    }
}
