//! Timers, sleeping, traps, profiler counters and compiler hints (guide B.11, B.18-B.20, B.28).

use kernel_ir::ir::Ty;

use super::{Class, Custom, IntrinsicDef, SimEnv};

fn sim_globaltimer(e: &mut dyn SimEnv, _: &[u64], o: &mut [u64]) {
    // The simulator has no wall clock shared by threads; its per-thread cycle counter is
    // monotonic, which is the property kernels may rely on.
    o[0] = e.clock();
}
fn sim_nothing(_: &mut dyn SimEnv, _: &[u64], _: &mut [u64]) {}
fn sim_copy(_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    o[0] = a[0];
}

/// `trap`. The front end follows it with a panic so the simulator reports where it happened; on
/// the GPU `trap` never returns.
static TRAP: IntrinsicDef = IntrinsicDef {
    name: "trap",
    args: &[],
    rets: &[],
    min_sm: 70,
    ptx: "trap",
    class: Class::Memory,
    sim: Some(sim_nothing),
    sim_warp: None,
    reg: None,
};

/// Whether checks that only the simulator makes are on: `assume` and `assume_aligned` guard
/// their panics with it, and ptxas deletes a branch on a constant false predicate.
static SIM_CHECKS: IntrinsicDef = IntrinsicDef {
    name: "sim_checks",
    args: &[],
    rets: &[Ty::Bool],
    min_sm: 70,
    ptx: "mov.pred {d0}, 0",
    class: Class::Pure,
    sim: Some(|_, _, o| o[0] = 1),
    sim_warp: None,
    reg: None,
};

/// `pmevent` takes an immediate: one entry per counter (CUDA's `__prof_trigger(0..15)`).
macro_rules! pm_counter {
    ($($n:literal)*) => {
        [$(IntrinsicDef {
            name: concat!("pm_counter.", $n),
            args: &[],
            rets: &[],
            min_sm: 70,
            ptx: concat!("pmevent ", $n),
            class: Class::Memory,
            sim: Some(sim_nothing),
            sim_warp: None,
            reg: None,
        }),*]
    };
}
static PM_COUNTERS: [IntrinsicDef; 16] = pm_counter!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);

intrinsics! {
    table TABLE;

    /// `%globaltimer`: a nanosecond timer shared by the whole GPU (its resolution varies by
    /// device). In the simulator it is the thread's monotonic cycle counter.
    pub fn globaltimer() -> u64 = memory(70, "mov.u64 {d0}, %globaltimer", sim_globaltimer);
    /// `__nanosleep(ns)`: suspends the thread for about `ns` nanoseconds (at most ~1 ms). A no-op
    /// in the simulator.
    pub fn nanosleep(ns: u32) = memory(70, "nanosleep.u32 {a0}", sim_nothing);
    /// `__trap()`: aborts the kernel launch; on a GPU the context is unusable afterwards, as in
    /// CUDA. The simulator reports it as a panic (`trap() called`) at the call's location.
    pub fn trap() = custom(
        Custom::Trap(&TRAP, "trap() called"),
        entries = ::core::slice::from_ref(&TRAP),
    );
    /// `__brkpt()`: stops at a breakpoint under a debugger (`brkpt`). A no-op in the simulator.
    pub fn breakpoint() = memory(70, "brkpt", sim_nothing);
    /// `__prof_trigger(n)`: increments per-multiprocessor profiler counter `n` (a constant
    /// 0..=15, B.28) with `pmevent n`. A no-op in the simulator.
    pub fn pm_counter(n: u32) = custom(Custom::PmCounter(&PM_COUNTERS), entries = &PM_COUNTERS);
    /// `__builtin_expect(b, 1)`: returns `b`; a hint only (PTX has no branch weights).
    pub fn likely(b: bool) -> bool = pure(70, "mov.pred {d0}, {a0}", sim_copy);
    /// `__builtin_expect(b, 0)`: returns `b`; a hint only.
    pub fn unlikely(b: bool) -> bool = pure(70, "mov.pred {d0}, {a0}", sim_copy);
    /// `__builtin_assume(cond)`: a hint that `cond` holds. The simulator checks it (a false
    /// assumption panics with `assumption violated` at the call); the PTX carries no check.
    pub fn assume(cond: bool) = custom(
        Custom::Assume(&SIM_CHECKS),
        entries = ::core::slice::from_ref(&SIM_CHECKS),
    );
    /// `__builtin_assume_aligned(p, align)`: returns the slice `s`, promising that its address is
    /// a multiple of `align` (a constant power of two, in bytes). The simulator checks it and
    /// panics when it is not; the PTX carries no check.
    pub fn assume_aligned<S>(s: S, align: usize) -> S = custom(Custom::AssumeAligned(&SIM_CHECKS));
    /// `__builtin_unreachable()`: marks code that never runs. Unlike Rust's
    /// `unreachable_unchecked`, reaching it is not undefined behaviour here (hence a safe fn): the
    /// GPU traps, aborting the launch, and the simulator reports a panic
    /// (`entered unreachable code`) at the call.
    pub fn unreachable() = custom(Custom::Trap(&TRAP, "entered unreachable code"));
}
