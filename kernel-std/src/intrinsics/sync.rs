//! Barrier variants (`__syncthreads_count/and/or`) and memory fences (B.5, B.6).

use super::{Class, IntrinsicDef, SimEnv};
use crate::intrinsics::collectives as s;
use kernel_ir::ir::Ty;

/// The simulator runs one thread at a time against one memory, so every access is already
/// visible to every later one: a fence has nothing left to order.
fn sim_fence(_: &mut dyn SimEnv, _: &[u64], _: &mut [u64]) {}

macro_rules! fence {
    ($name:literal, $ptx:literal) => {
        IntrinsicDef {
            name: $name,
            args: &[],
            rets: &[],
            min_sm: 70,
            ptx: $ptx,
            class: Class::Memory,
            sim: Some(sim_fence),
            sim_warp: None,
        }
    };
}

macro_rules! reducing_barrier {
    ($name:literal, $ret:expr, $ptx:literal, $sim:expr) => {
        IntrinsicDef {
            name: $name,
            args: &[Ty::Bool],
            rets: &[$ret],
            min_sm: 70,
            ptx: $ptx,
            class: Class::Barrier,
            sim: None,
            sim_warp: Some($sim),
        }
    };
}

/// This category's entries (appended to the table in `mod.rs`'s order).
pub(super) static ENTRIES: &[IntrinsicDef] = &[
    reducing_barrier!(
        "sync_threads_count",
        Ty::U32,
        "bar.red.popc.u32 {d0}, 0, {a0}",
        s::sim_sync_threads_count
    ),
    reducing_barrier!(
        "sync_threads_and",
        Ty::Bool,
        "bar.red.and.pred {d0}, 0, {a0}",
        s::sim_sync_threads_and
    ),
    reducing_barrier!(
        "sync_threads_or",
        Ty::Bool,
        "bar.red.or.pred {d0}, 0, {a0}",
        s::sim_sync_threads_or
    ),
    fence!("thread_fence_block", "fence.acq_rel.cta"),
    fence!("thread_fence", "fence.acq_rel.gpu"),
    fence!("thread_fence_system", "fence.acq_rel.sys"),
];
