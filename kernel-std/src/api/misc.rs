//! Device API: timers, sleep, traps, profiler counters and compiler hints (B.11, B.19, B.20, B.28).

use super::device_only;

device_intrinsic!(
    /// `%globaltimer`: a nanosecond timer shared by the whole GPU (its resolution varies by
    /// device). In the simulator it is the thread's monotonic cycle counter.
    pub fn globaltimer() -> u64
);
device_intrinsic!(
    /// `__nanosleep(ns)`: suspends the thread for about `ns` nanoseconds (at most ~1 ms). A no-op
    /// in the simulator.
    pub fn nanosleep(ns: u32)
);
device_intrinsic!(
    /// `__trap()`: aborts the kernel launch; on a GPU the context is unusable afterwards, as in
    /// CUDA. The simulator reports it as a panic (`trap() called`) at the call's location.
    pub fn trap()
);
device_intrinsic!(
    /// `__brkpt()`: stops at a breakpoint under a debugger (`brkpt`). A no-op in the simulator.
    pub fn breakpoint()
);
device_intrinsic!(
    /// `__prof_trigger(n)`: increments per-multiprocessor profiler counter `n` (a constant
    /// 0..=15, B.28) with `pmevent n`. A no-op in the simulator.
    pub fn pm_counter(n: u32)
);
device_intrinsic!(
    /// `__builtin_expect(b, 1)`: returns `b`; a hint only (PTX has no branch weights).
    pub fn likely(b: bool) -> bool
);
device_intrinsic!(
    /// `__builtin_expect(b, 0)`: returns `b`; a hint only.
    pub fn unlikely(b: bool) -> bool
);
device_intrinsic!(
    /// `__builtin_assume(cond)`: a hint that `cond` holds. The simulator checks it (a false
    /// assumption panics with `assumption violated` at the call); the PTX carries no check.
    pub fn assume(cond: bool)
);
device_intrinsic!(
    /// `__builtin_assume_aligned(p, align)`: returns the slice `s`, promising that its address is
    /// a multiple of `align` (a constant power of two, in bytes). The simulator checks it and
    /// panics when it is not; the PTX carries no check.
    pub fn assume_aligned<S>(s: S, align: usize) -> S
);

device_intrinsic!(
    /// `__builtin_unreachable()`: marks code that never runs. Unlike Rust's
    /// `unreachable_unchecked`, reaching it is not undefined behaviour here (hence a safe fn): the
    /// GPU traps, aborting the launch, and the simulator reports a panic
    /// (`entered unreachable code`) at the call.
    pub fn unreachable()
);
