//! Asynchronous barriers (guide B.25, `cuda::barrier<thread_scope_block>`) on the hardware's
//! `mbarrier` objects in shared memory (sm_80; the transaction-count forms sm_90).
//!
//! A [`Barrier`] is declared like any `__shared__` object, `shared_array::<Barrier>()` (or an
//! array of them), and initialised by one thread before the block meets:
//!
//! ```
//! use ferrocuda::prelude::*;
//!
//! #[kernel]
//! pub fn rotate(out: &mut [u32]) {
//!     let bar = shared_array::<Barrier>();
//!     let buf = shared_array::<[u32; 64]>();
//!     let t = thread_idx().x;
//!     if t == 0 {
//!         barrier_init(bar, block_dim().x); // every thread of the block arrives
//!     }
//!     sync_threads(); // the init is visible to the block from here on
//!     buf[t as usize] = t * 10;
//!     let token = barrier_arrive(bar); // this thread's writes happen before the phase completes
//!     barrier_wait(bar, token); // every thread arrived: all of `buf` is written
//!     out[t as usize] = buf[((t + 1) % 64) as usize];
//! }
//!
//! fn main() -> Result<()> {
//!     let dev = Device::simulator();
//!     let s = dev.new_stream()?;
//!     let mut out = dev.alloc_zeroed::<u32>(64)?;
//!     rotate::launch(&s, LaunchConfig::for_elements(64, 64), &mut out)?;
//!     let want: Vec<u32> = (0..64).map(|t| (t + 1) % 64 * 10).collect();
//!     assert_eq!(out.to_vec()?, want);
//!     Ok(())
//! }
//! ```
//!
//! The `Barrier`'s state is private: it can only be used through these functions, which take
//! a reference into shared memory (a reference into any other space is a compile error at the
//! call). The simulator models every barrier's phase, pending arrivals and transaction bytes:
//! a use before `barrier_init` (or before a `sync_threads()` made the init visible to the using
//! thread) is reported as the race or uninitialised read it is, and a wait for a phase that can
//! never complete (arrivals missing when every other thread has exited or waits too) is
//! reported at the wait instead of hanging.
//!
//! The token `barrier_arrive` returns names the phase arrived at; `barrier_wait(bar, token)`
//! returns once that phase has completed. A phase completes when its pending arrivals reach
//! zero and (sm_90) its expected transaction bytes have all completed; the barrier then starts
//! the next phase with its expected count (lowered by every `barrier_arrive_and_drop`).

use kernel_ir::async_ops::AsyncOp;
use kernel_ir::ir::Ty;
use kernel_macros::{device, DeviceCopy};

use super::registers::{sync_threads, thread_idx};
use super::{Class, Custom, IntrinsicDef, SimEnv};

/// `cuda::barrier<cuda::thread_scope_block>`: a hardware `mbarrier` object (8 bytes, 8-byte
/// aligned) in shared memory. Declare it with `shared_array::<Barrier>()` (or
/// `shared_array::<[Barrier; N]>()`), and initialise it with `barrier_init_block(bar, count)`
/// from every thread (or `barrier_init` from one thread, then `sync_threads()` before any thread
/// uses it).
#[repr(C, align(8))]
#[derive(Clone, Copy, DeviceCopy)]
pub struct Barrier {
    state: u64,
}

/// A barrier entry: `$ptx` on the barrier's shared address (`{a0}`), simulated as `$op`.
macro_rules! mbar {
    ($name:literal, [$($a:ident),*] -> [$($r:ident),*], $sm:literal, $ptx:expr, $op:expr) => {
        IntrinsicDef {
            name: $name,
            args: &[Ty::U32 $(, Ty::$a)*],
            rets: &[$(Ty::$r),*],
            min_sm: $sm,
            ptx: $ptx,
            class: Class::Memory,
            sim: Some(|e: &mut dyn SimEnv, a: &[u64], o: &mut [u64]| e.async_op($op, a, o)),
            sim_warp: None,
            reg: None,
        }
    };
}
pub(super) use mbar;

static INIT: IntrinsicDef = mbar!("mbarrier.init", [U32] -> [], 80,
    "mbarrier.init.shared::cta.b64 [{a0}], {a1}", AsyncOp::BarInit);
static ARRIVE: IntrinsicDef = mbar!("mbarrier.arrive", [] -> [U64], 80,
    "mbarrier.arrive.shared::cta.b64 {d0}, [{a0}]",
    AsyncOp::BarArrive { drop: false, count: false });
static ARRIVE_COUNT: IntrinsicDef = mbar!("mbarrier.arrive.count", [U32] -> [U64], 90,
    "mbarrier.arrive.shared::cta.b64 {d0}, [{a0}], {a1}",
    AsyncOp::BarArrive { drop: false, count: true });
static ARRIVE_DROP: IntrinsicDef = mbar!("mbarrier.arrive_drop", [] -> [U64], 80,
    "mbarrier.arrive_drop.shared::cta.b64 {d0}, [{a0}]",
    AsyncOp::BarArrive { drop: true, count: false });
// The blocking waits spin on `test_wait` (sm_80) or, from sm_90 on, on `try_wait`, which lets
// the hardware suspend the thread for a while before answering: [0] and [1] of each pair.
static WAIT: [IntrinsicDef; 2] = [
    mbar!("mbarrier.wait", [U64] -> [], 80,
        ".reg .pred %fcb{uid};\
         $Lfc_b{uid}: mbarrier.test_wait.shared::cta.b64 %fcb{uid}, [{a0}], {a1};\
         @!%fcb{uid} bra $Lfc_b{uid}",
        AsyncOp::BarWait { parity: false, blocking: true }),
    mbar!("mbarrier.wait.try", [U64] -> [], 90,
        ".reg .pred %fcb{uid};\
         $Lfc_b{uid}: mbarrier.try_wait.shared::cta.b64 %fcb{uid}, [{a0}], {a1};\
         @!%fcb{uid} bra $Lfc_b{uid}",
        AsyncOp::BarWait { parity: false, blocking: true }),
];
// `arrive` then the wait on its token, one entry so the token never leaves the template.
static ARRIVE_WAIT: [IntrinsicDef; 2] = [
    mbar!("mbarrier.arrive_wait", [] -> [], 80,
        ".reg .pred %fcb{uid};\
         .reg .b64 %fcbt{uid};\
         mbarrier.arrive.shared::cta.b64 %fcbt{uid}, [{a0}];\
         $Lfc_b{uid}: mbarrier.test_wait.shared::cta.b64 %fcb{uid}, [{a0}], %fcbt{uid};\
         @!%fcb{uid} bra $Lfc_b{uid}",
        AsyncOp::BarArriveWait),
    mbar!("mbarrier.arrive_wait.try", [] -> [], 90,
        ".reg .pred %fcb{uid};\
         .reg .b64 %fcbt{uid};\
         mbarrier.arrive.shared::cta.b64 %fcbt{uid}, [{a0}];\
         $Lfc_b{uid}: mbarrier.try_wait.shared::cta.b64 %fcb{uid}, [{a0}], %fcbt{uid};\
         @!%fcb{uid} bra $Lfc_b{uid}",
        AsyncOp::BarArriveWait),
];
static WAIT_PARITY: [IntrinsicDef; 2] = [
    mbar!("mbarrier.wait_parity", [U32] -> [], 80,
        ".reg .pred %fcb{uid};\
         $Lfc_b{uid}: mbarrier.test_wait.parity.shared::cta.b64 %fcb{uid}, [{a0}], {a1};\
         @!%fcb{uid} bra $Lfc_b{uid}",
        AsyncOp::BarWait { parity: true, blocking: true }),
    mbar!("mbarrier.wait_parity.try", [U32] -> [], 90,
        ".reg .pred %fcb{uid};\
         $Lfc_b{uid}: mbarrier.try_wait.parity.shared::cta.b64 %fcb{uid}, [{a0}], {a1};\
         @!%fcb{uid} bra $Lfc_b{uid}",
        AsyncOp::BarWait { parity: true, blocking: true }),
];
static TEST_WAIT: IntrinsicDef = mbar!("mbarrier.test_wait", [U64] -> [Bool], 80,
    "mbarrier.test_wait.shared::cta.b64 {d0}, [{a0}], {a1}",
    AsyncOp::BarWait { parity: false, blocking: false });
static TEST_WAIT_PARITY: IntrinsicDef = mbar!("mbarrier.test_wait_parity", [U32] -> [Bool], 80,
    "mbarrier.test_wait.parity.shared::cta.b64 {d0}, [{a0}], {a1}",
    AsyncOp::BarWait { parity: true, blocking: false });
static TRY_WAIT: IntrinsicDef = mbar!("mbarrier.try_wait", [U64] -> [Bool], 90,
    "mbarrier.try_wait.shared::cta.b64 {d0}, [{a0}], {a1}",
    AsyncOp::BarWait { parity: false, blocking: false });
static TRY_WAIT_FOR: IntrinsicDef = mbar!("mbarrier.try_wait_for", [U64, U32] -> [Bool], 90,
    "mbarrier.try_wait.shared::cta.b64 {d0}, [{a0}], {a1}, {a2}",
    AsyncOp::BarWait { parity: false, blocking: false });
static TRY_WAIT_PARITY: IntrinsicDef = mbar!("mbarrier.try_wait_parity", [U32] -> [Bool], 90,
    "mbarrier.try_wait.parity.shared::cta.b64 {d0}, [{a0}], {a1}",
    AsyncOp::BarWait { parity: true, blocking: false });
static EXPECT_TX: IntrinsicDef = mbar!("mbarrier.expect_tx", [U32] -> [], 90,
    "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [{a0}], {a1}",
    AsyncOp::BarExpectTx { arrive: false });
static ARRIVE_EXPECT_TX: IntrinsicDef = mbar!("mbarrier.arrive.expect_tx", [U32] -> [U64], 90,
    "mbarrier.arrive.expect_tx.shared::cta.b64 {d0}, [{a0}], {a1}",
    AsyncOp::BarExpectTx { arrive: true });
static COMPLETE_TX: IntrinsicDef = mbar!("mbarrier.complete_tx", [U32] -> [], 90,
    "mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [{a0}], {a1}",
    AsyncOp::BarCompleteTx);

intrinsics! {
    table TABLE;

    /// `init(&bar, count)`: makes `bar` a barrier whose phases complete after `count` arrivals
    /// (`mbarrier.init`, at most 2^20 - 1). One thread initialises; `sync_threads()` then makes
    /// the barrier visible to the others before any of them arrives or waits.
    pub fn barrier_init(bar: &Barrier, count: u32) =
        custom(Custom::SharedRef(&INIT, None), entries = ::core::slice::from_ref(&INIT));
    /// `bar.arrive()`: this thread's arrival on the current phase (its earlier memory accesses
    /// happen before the phase completes); returns the token `barrier_wait` takes.
    pub fn barrier_arrive(bar: &Barrier) -> u64 =
        custom(Custom::SharedRef(&ARRIVE, None), entries = ::core::slice::from_ref(&ARRIVE));
    /// `bar.arrive(n)`: `n` arrivals at once (sm_90).
    pub fn barrier_arrive_n(bar: &Barrier, n: u32) -> u64 =
        custom(Custom::SharedRef(&ARRIVE_COUNT, None), entries = ::core::slice::from_ref(&ARRIVE_COUNT));
    /// `bar.wait(std::move(token))`: returns once the phase `token` was returned for has
    /// completed (spins on `mbarrier.test_wait`; on sm_90 and newer on `mbarrier.try_wait`, which
    /// suspends the thread in hardware between tries); the accesses of every thread that arrived on it
    /// happen before this thread's later ones.
    pub fn barrier_wait(bar: &Barrier, token: u64) =
        custom(Custom::SharedRef(&WAIT[0], Some(&WAIT[1])), entries = &WAIT);
    /// `bar.arrive_and_wait()`: `barrier_wait(bar, barrier_arrive(bar))`.
    pub fn barrier_arrive_and_wait(bar: &Barrier) =
        custom(Custom::SharedRef(&ARRIVE_WAIT[0], Some(&ARRIVE_WAIT[1])), entries = &ARRIVE_WAIT);
    /// `bar.arrive_and_drop()`: arrives on the current phase and lowers the expected count of
    /// every later phase by one: what a thread that leaves the loop early calls, so the others'
    /// phases still complete. Returns the token (of the phase arrived at), which a dropped thread
    /// normally ignores.
    pub fn barrier_arrive_and_drop(bar: &Barrier) -> u64 =
        custom(Custom::SharedRef(&ARRIVE_DROP, None), entries = ::core::slice::from_ref(&ARRIVE_DROP));
    /// `bar.wait_parity(parity)`: returns once the phase of parity `parity` (0 or 1) has
    /// completed: the current phase's parity starts at 0 and flips at each completion. For
    /// threads that never arrive (a consumer waiting on a producer's barrier).
    pub fn barrier_wait_parity(bar: &Barrier, parity: u32) =
        custom(Custom::SharedRef(&WAIT_PARITY[0], Some(&WAIT_PARITY[1])), entries = &WAIT_PARITY);
    /// `mbarrier.test_wait`: whether the phase of `token` has completed, without waiting.
    pub fn barrier_test_wait(bar: &Barrier, token: u64) -> bool =
        custom(Custom::SharedRef(&TEST_WAIT, None), entries = ::core::slice::from_ref(&TEST_WAIT));
    /// `mbarrier.test_wait.parity`: whether the phase of parity `parity` has completed.
    pub fn barrier_test_wait_parity(bar: &Barrier, parity: u32) -> bool = custom(
        Custom::SharedRef(&TEST_WAIT_PARITY, None),
        entries = ::core::slice::from_ref(&TEST_WAIT_PARITY),
    );
    /// `bar.try_wait(token)` (sm_90, `mbarrier.try_wait`): as `barrier_test_wait`, but the
    /// hardware may suspend the thread for a system-dependent time before answering `false`.
    pub fn barrier_try_wait(bar: &Barrier, token: u64) -> bool =
        custom(Custom::SharedRef(&TRY_WAIT, None), entries = ::core::slice::from_ref(&TRY_WAIT));
    /// `mbarrier.try_wait` with a time hint (sm_90): suspends for at most about `hint_ns`
    /// nanoseconds before answering `false`.
    pub fn barrier_try_wait_for(bar: &Barrier, token: u64, hint_ns: u32) -> bool =
        custom(Custom::SharedRef(&TRY_WAIT_FOR, None), entries = ::core::slice::from_ref(&TRY_WAIT_FOR));
    /// `mbarrier.try_wait.parity` (sm_90).
    pub fn barrier_try_wait_parity(bar: &Barrier, parity: u32) -> bool = custom(
        Custom::SharedRef(&TRY_WAIT_PARITY, None),
        entries = ::core::slice::from_ref(&TRY_WAIT_PARITY),
    );
    /// `mbarrier.expect_tx` (sm_90): the current phase also waits for `bytes` of transactions
    /// (what bulk copies complete on the barrier, or `barrier_complete_tx`).
    pub fn barrier_expect_tx(bar: &Barrier, bytes: u32) =
        custom(Custom::SharedRef(&EXPECT_TX, None), entries = ::core::slice::from_ref(&EXPECT_TX));
    /// `mbarrier.arrive.expect_tx` (sm_90): `barrier_expect_tx`, then an arrival; returns the
    /// token.
    pub fn barrier_arrive_expect_tx(bar: &Barrier, bytes: u32) -> u64 = custom(
        Custom::SharedRef(&ARRIVE_EXPECT_TX, None),
        entries = ::core::slice::from_ref(&ARRIVE_EXPECT_TX),
    );
    /// `mbarrier.complete_tx` (sm_90): `bytes` of the current phase's expected transactions
    /// have completed.
    pub fn barrier_complete_tx(bar: &Barrier, bytes: u32) =
        custom(Custom::SharedRef(&COMPLETE_TX, None), entries = ::core::slice::from_ref(&COMPLETE_TX));
}

/// The guide's initialisation, `if (block.thread_rank() == 0) init(&bar, count); block.sync();`,
/// as one call every thread of the block makes: thread (0, 0, 0) initialises `bar`, and the
/// block barrier makes the init visible to every thread before any of them returns, so the
/// barrier cannot be used too early. A block-wide barrier: every thread must call it.
#[device]
pub fn barrier_init_block(bar: &Barrier, count: u32) {
    let t = thread_idx();
    if t.x == 0 && t.y == 0 && t.z == 0 {
        barrier_init(bar, count);
    }
    sync_threads();
}
