//! Asynchronous copies from global to shared memory (guide B.26-B.27, `memcpy_async`, PTX
//! `cp.async`, sm_80): a copy is issued by one thread and lands in shared memory later, at the
//! thread's `cp_async_wait_group` / `cp_async_wait_all`, or when the phase of a [`Barrier`] it
//! was tied to (`cp_async_barrier_arrive`) completes. Until then the destination must not be
//! read or written (the simulator reports such an access as a race with the copy), and other
//! threads see it only after a barrier (`sync_threads()` or the `Barrier`'s wait).
//!
//! One call copies one element of 4, 8 or 16 bytes (`f32`, `float2`, `float4`, `[u32; 4]`...):
//! another size is a compile error at the call. Both references come from indexing (`&mut
//! tile[i]`, `&a[j]`), so both ranges are bounds-checked as any index is; an element type whose
//! alignment is below its size (`[f32; 4]`: 4-byte aligned, 16 bytes) is also checked at run
//! time for the alignment `cp.async` needs, a `KernelPanic` at the call otherwise. 16-byte
//! copies bypass L1 (`.cg`), smaller ones cache at all levels (`.ca`), as `cuda::memcpy_async`
//! does.
//!
//! Copies are grouped per thread: `cp_async_commit_group()` closes the group of the copies
//! issued since the last one, and `cp_async_wait_group(n)` waits until at most the `n` newest
//! groups are still in flight (the multi-stage pipeline's `wait_prior<n>`).

use kernel_ir::ast::{AsyncCopyEntries, AsyncCopyForm};
use kernel_ir::async_ops::AsyncOp;
use kernel_ir::ir::Ty;

use super::barrier_async::{mbar, Barrier};
use super::{Class, Custom, DeviceType, IntrinsicDef, SimEnv};

/// A `cp.async` entry: `[{a0}]` the shared destination, `[{a1}]` the global source.
macro_rules! cp {
    ($name:literal, $ptx:literal, $bytes:literal, $zfill:literal, [$($a:ident),*]) => {
        IntrinsicDef {
            name: $name,
            args: &[Ty::U32, Ty::U64 $(, Ty::$a)*],
            rets: &[],
            min_sm: 80,
            ptx: $ptx,
            class: Class::Memory,
            sim: Some(|e: &mut dyn SimEnv, a: &[u64], o: &mut [u64]| {
                e.async_op(AsyncOp::Copy { bytes: $bytes, zfill: $zfill }, a, o)
            }),
            sim_warp: None,
            reg: None,
        }
    };
}

static COPIES: [IntrinsicDef; 6] = [
    cp!(
        "cp_async.ca.4",
        "cp.async.ca.shared.global [{a0}], [{a1}], 4",
        4,
        false,
        []
    ),
    cp!(
        "cp_async.ca.8",
        "cp.async.ca.shared.global [{a0}], [{a1}], 8",
        8,
        false,
        []
    ),
    cp!(
        "cp_async.cg.16",
        "cp.async.cg.shared.global [{a0}], [{a1}], 16",
        16,
        false,
        []
    ),
    cp!(
        "cp_async.ca.4.zfill",
        "cp.async.ca.shared.global [{a0}], [{a1}], 4, {a2}",
        4,
        true,
        [U32]
    ),
    cp!(
        "cp_async.ca.8.zfill",
        "cp.async.ca.shared.global [{a0}], [{a1}], 8, {a2}",
        8,
        true,
        [U32]
    ),
    cp!(
        "cp_async.cg.16.zfill",
        "cp.async.cg.shared.global [{a0}], [{a1}], 16, {a2}",
        16,
        true,
        [U32]
    ),
];

static DEFAULT: AsyncCopyEntries = AsyncCopyEntries {
    plain: [&COPIES[0], &COPIES[1], &COPIES[2]],
    zfill: [&COPIES[3], &COPIES[4], &COPIES[5]],
};

fn sim_commit(e: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    e.async_op(AsyncOp::Commit, a, o)
}
fn sim_wait_all(e: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    e.async_op(AsyncOp::WaitAll, a, o)
}

/// One `cp.async.wait_group N` entry (the count is the instruction's immediate).
macro_rules! wait_group {
    ($($n:literal),*) => {
        [$(IntrinsicDef {
            name: concat!("cp_async.wait_group.", $n),
            args: &[],
            rets: &[],
            min_sm: 80,
            ptx: concat!("cp.async.wait_group ", $n),
            class: Class::Memory,
            sim: Some(|e: &mut dyn SimEnv, a: &[u64], o: &mut [u64]| {
                e.async_op(AsyncOp::WaitGroup($n), a, o)
            }),
            sim_warp: None,
            reg: None,
        }),*]
    };
}
static WAIT_GROUP: [IntrinsicDef; 8] = wait_group!(0, 1, 2, 3, 4, 5, 6, 7);

static ARRIVE: IntrinsicDef = mbar!("cp_async.mbarrier.arrive", [] -> [], 80,
    "cp.async.mbarrier.arrive.shared::cta.b64 [{a0}]", AsyncOp::CopyArrive { noinc: false });
static ARRIVE_NOINC: IntrinsicDef = mbar!("cp_async.mbarrier.arrive.noinc", [] -> [], 80,
    "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [{a0}]", AsyncOp::CopyArrive { noinc: true });

intrinsics! {
    table TABLE;

    /// `memcpy_async(&mut dst, &src)` (`__pipeline_memcpy_async`): `dst = src` through `cp.async`,
    /// landing at the thread's next `cp_async_wait_*` covering it (see the module doc). `T` is
    /// 4, 8 or 16 bytes; `dst` a shared element, `src` a global one.
    pub fn memcpy_async<T: DeviceType>(dst: &mut T, src: &T) = custom(
        Custom::AsyncCopy(AsyncCopyForm::Element, &DEFAULT),
        entries = &COPIES,
    );
    /// `memcpy_async` of `src[i]`, or zeros when `i >= src.len()` (the zero-fill form of
    /// `cp.async`, source size 0): loads a tile's ragged edge without a branch. `dst` is
    /// bounds-checked; `i` never faults.
    pub fn memcpy_async_or_zero<T: DeviceType>(dst: &mut T, src: &[T], i: usize) = custom(
        Custom::AsyncCopy(AsyncCopyForm::OrZero, &DEFAULT),
        entries = &[],
    );
    /// `cp.async.commit_group` (`__pipeline_commit`): the thread's copies since the last commit
    /// become one group.
    pub fn cp_async_commit_group() = memory(80, "cp.async.commit_group", sim_commit);
    /// `cp.async.wait_group n` (`__pipeline_wait_prior(n)`): waits until at most the `n` newest
    /// committed groups of the thread are in flight; `n` is a constant 0..=7.
    pub fn cp_async_wait_group(n: u32) =
        custom(Custom::ConstIndex(&WAIT_GROUP), entries = &WAIT_GROUP);
    /// `cp.async.wait_all`: waits for every copy of the thread, committed or not.
    pub fn cp_async_wait_all() = memory(80, "cp.async.wait_all", sim_wait_all);
    /// `cp.async.mbarrier.arrive`: the thread's copies so far complete on `bar`'s current phase,
    /// which then also waits for them (an arrival the barrier does not count: `cuda::memcpy_async`
    /// with a barrier). The thread still arrives itself.
    pub fn cp_async_barrier_arrive(bar: &Barrier) =
        custom(Custom::SharedRef(&ARRIVE, None), entries = ::core::slice::from_ref(&ARRIVE));
    /// `cp.async.mbarrier.arrive.noinc`: as `cp_async_barrier_arrive`, but the copies' completion
    /// is one of the arrivals the barrier was initialised to expect.
    pub fn cp_async_barrier_arrive_noinc(bar: &Barrier) = custom(
        Custom::SharedRef(&ARRIVE_NOINC, None),
        entries = ::core::slice::from_ref(&ARRIVE_NOINC),
    );
}
