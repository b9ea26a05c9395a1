//! Timers, sleeping, traps, profiler counters and the pass-through hints (`likely`, `assume`).

use super::{Class, IntrinsicDef, SimEnv};
use kernel_ir::ir::Ty;

fn sim_globaltimer(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    // The simulator has no wall clock shared by threads; its per-thread cycle counter is
    // monotonic, which is the property kernels may rely on.
    o[0] = e.clock();
}
fn sim_nothing(_: &mut dyn SimEnv, _: &[u64], _: &mut [u64]) {}
fn sim_true(_: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    o[0] = 1;
}
fn sim_copy(_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    o[0] = a[0];
}

const fn effect(
    name: &'static str,
    args: &'static [Ty],
    rets: &'static [Ty],
    min_sm: u32,
    ptx: &'static str,
    sim: super::SimFn,
) -> IntrinsicDef {
    IntrinsicDef {
        name,
        args,
        rets,
        min_sm,
        ptx,
        class: Class::Memory,
        sim: Some(sim),
        sim_warp: None,
    }
}

/// This category's entries (appended to the table in `mod.rs`'s order).
pub(super) static ENTRIES: &[IntrinsicDef] = &[
    effect(
        "globaltimer",
        &[],
        &[Ty::U64],
        70,
        "mov.u64 {d0}, %globaltimer",
        sim_globaltimer,
    ),
    effect(
        "nanosleep",
        &[Ty::U32],
        &[],
        70,
        "nanosleep.u32 {a0}",
        sim_nothing,
    ),
    // The front end follows `trap` with a panic so the simulator reports where it happened; on
    // the GPU `trap` never returns.
    effect("trap", &[], &[], 70, "trap", sim_nothing),
    effect("breakpoint", &[], &[], 70, "brkpt", sim_nothing),
    // `pmevent` takes an immediate: one entry per counter (CUDA's `__prof_trigger(0..15)`).
    effect("pm_counter.0", &[], &[], 70, "pmevent 0", sim_nothing),
    effect("pm_counter.1", &[], &[], 70, "pmevent 1", sim_nothing),
    effect("pm_counter.2", &[], &[], 70, "pmevent 2", sim_nothing),
    effect("pm_counter.3", &[], &[], 70, "pmevent 3", sim_nothing),
    effect("pm_counter.4", &[], &[], 70, "pmevent 4", sim_nothing),
    effect("pm_counter.5", &[], &[], 70, "pmevent 5", sim_nothing),
    effect("pm_counter.6", &[], &[], 70, "pmevent 6", sim_nothing),
    effect("pm_counter.7", &[], &[], 70, "pmevent 7", sim_nothing),
    effect("pm_counter.8", &[], &[], 70, "pmevent 8", sim_nothing),
    effect("pm_counter.9", &[], &[], 70, "pmevent 9", sim_nothing),
    effect("pm_counter.10", &[], &[], 70, "pmevent 10", sim_nothing),
    effect("pm_counter.11", &[], &[], 70, "pmevent 11", sim_nothing),
    effect("pm_counter.12", &[], &[], 70, "pmevent 12", sim_nothing),
    effect("pm_counter.13", &[], &[], 70, "pmevent 13", sim_nothing),
    effect("pm_counter.14", &[], &[], 70, "pmevent 14", sim_nothing),
    effect("pm_counter.15", &[], &[], 70, "pmevent 15", sim_nothing),
    // Whether checks that only the simulator makes are on: `assume` and `assume_aligned` guard
    // their panics with it, and ptxas deletes a branch on a constant false predicate.
    IntrinsicDef {
        name: "sim_checks",
        args: &[],
        rets: &[Ty::Bool],
        min_sm: 70,
        ptx: "mov.pred {d0}, 0",
        class: Class::Pure,
        sim: Some(sim_true),
        sim_warp: None,
    },
    IntrinsicDef {
        name: "likely",
        args: &[Ty::Bool],
        rets: &[Ty::Bool],
        min_sm: 70,
        ptx: "mov.pred {d0}, {a0}",
        class: Class::Pure,
        sim: Some(sim_copy),
        sim_warp: None,
    },
    IntrinsicDef {
        name: "unlikely",
        args: &[Ty::Bool],
        rets: &[Ty::Bool],
        min_sm: 70,
        ptx: "mov.pred {d0}, {a0}",
        class: Class::Pure,
        sim: Some(sim_copy),
        sim_warp: None,
    },
];
