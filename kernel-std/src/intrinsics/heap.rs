//! The device heap (B.33 `malloc`/`free`: `device_malloc` / `device_free`) and the thread's stack
//! (B.17 `alloca`): PTX calls the CUDA runtime's `malloc` and `free`,
//! which the driver links in when a module declares them `.extern .func`; the simulator
//! allocates blocks in its global memory under the same 8 MiB default limit.
//!
//! Arguments and results are global addresses (U64), as every slice pointer in the IR:
//! `malloc` returns a generic pointer, which `cvta.to.global` turns into one (the identity on
//! every supported GPU), and `free` converts back.

use kernel_ir::ir::Ty;

use super::{Class, Custom, DeviceType, IntrinsicDef, SimEnv, ALLOCA, HEAP_FREE, HEAP_MALLOC};

/// `alloca(bytes)`: `d0` the block's `.local` address.
fn sim_alloca(e: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    o[0] = e.stack_alloc(a[0]);
}

/// `malloc(bytes)`: `d0` the block's address, `d1` whether it is null (heap exhausted, or
/// nothing asked for).
fn sim_malloc(e: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    let addr = if a[0] == 0 { 0 } else { e.heap_alloc(a[0]) };
    o[0] = addr;
    o[1] = (addr == 0) as u64;
}

/// `free(ptr)`.
fn sim_free(e: &mut dyn SimEnv, a: &[u64], _: &mut [u64]) {
    e.heap_free(a[0]);
}

// The entries are `Memory` class so no pass merges two calls or drops one whose result is
// unused. The calls are plain `call`, not `call.uni`: threads of a warp may reach them
// divergently. Both are guarded: a request of 0 bytes never reaches `malloc` (it gives the
// null block, as an exhausted heap does: CUDA's `malloc(0)` hands out a block anyway, which
// compute-sanitizer's memcheck reports and then aborts the kernel), and a null block never
// reaches `free`.

/// PTX `alloca` (ISA 7.3, sm_52): 16-byte alignment covers every element type.
pub(super) static ALLOCA_ENTRY: IntrinsicDef = IntrinsicDef {
    name: ALLOCA,
    args: &[Ty::U64],
    rets: &[Ty::U64],
    min_sm: 70,
    ptx: "alloca.u64 {d0}, {a0}, 16",
    class: Class::Memory,
    sim: Some(sim_alloca),
    sim_warp: None,
    reg: None,
};

pub(super) static MALLOC_ENTRY: IntrinsicDef = IntrinsicDef {
    name: HEAP_MALLOC,
    args: &[Ty::U64],
    rets: &[Ty::U64, Ty::Bool],
    min_sm: 70,
    ptx: ".param .b64 fc_malloc_arg{uid};\
          .param .b64 fc_malloc_ret{uid};\
          .reg .pred %fcm{uid};\
          .reg .b64 %fcmr{uid};\
          setp.eq.u64 %fcm{uid}, {a0}, 0;\
          mov.u64 %fcmr{uid}, 0;\
          @%fcm{uid} bra $Lfc_m{uid}_z;\
          st.param.b64 [fc_malloc_arg{uid}], {a0};\
          call (fc_malloc_ret{uid}), malloc, (fc_malloc_arg{uid});\
          ld.param.b64 %fcmr{uid}, [fc_malloc_ret{uid}];\
          $Lfc_m{uid}_z: setp.eq.u64 {d1}, %fcmr{uid}, 0;\
          cvta.to.global.u64 {d0}, %fcmr{uid}",
    class: Class::Memory,
    sim: Some(sim_malloc),
    sim_warp: None,
    reg: None,
};

pub(super) static FREE_ENTRY: IntrinsicDef = IntrinsicDef {
    name: HEAP_FREE,
    args: &[Ty::U64],
    rets: &[],
    min_sm: 70,
    ptx: ".reg .b64 %fcf{uid};\
          .reg .pred %fcfp{uid};\
          setp.ne.u64 %fcfp{uid}, {a0}, 0;\
          cvta.global.u64 %fcf{uid}, {a0};\
          .param .b64 fc_free_arg{uid};\
          st.param.b64 [fc_free_arg{uid}], %fcf{uid};\
          @%fcfp{uid} call free, (fc_free_arg{uid})",
    class: Class::Memory,
    sim: Some(sim_free),
    sim_warp: None,
    reg: None,
};

intrinsics! {
    table TABLE;

    /// `malloc(n * size_of::<T>())` on the device heap (B.33): a block of `n` elements that lives
    /// until `device_free` (or the end of the context), visible to every thread that gets the
    /// slice. When the heap is exhausted (8 MiB by default; see `Device::set_malloc_heap_size`)
    /// CUDA's `malloc` returns null: the slice is then empty, so `buf.is_empty()` tells and every
    /// index fails its bounds check instead of touching address 0 (with bounds checks switched
    /// off nothing guards it: test `is_empty()` first). `n == 0` gives the same empty block
    /// without calling `malloc` at all, like a zero-length `Vec`, so it needs no `device_free`
    /// (which accepts it as a no-op). The contents start unspecified on a GPU (zero in the
    /// simulator).
    pub fn device_malloc<T: DeviceType>(n: usize) -> &'static mut [T] = custom(
        Custom::DeviceMalloc(&MALLOC_ENTRY),
        entries = ::core::slice::from_ref(&MALLOC_ENTRY),
    );
    /// `free(buf)`: returns a `device_malloc` block to the heap; an empty (failed) block is a
    /// no-op, as `free(NULL)`. The simulator reports a double free, a free of anything else
    /// (a parameter slice, a sub-slice) and any later access to the block.
    pub fn device_free<T: DeviceType>(buf: &mut [T]) = custom(
        Custom::DeviceFree(&FREE_ENTRY),
        entries = ::core::slice::from_ref(&FREE_ENTRY),
    );
    /// `alloca(n * size_of::<T>())` (B.17): `n` elements of the thread's own stack (PTX
    /// `alloca`, 16-byte aligned), valid until the kernel returns; bounds-checked like any slice.
    /// Each call takes more stack, also in a loop. The contents start unspecified on a GPU (zero
    /// in the simulator). Stack overflow is not detected on a GPU (the stack size is
    /// `cudaLimitStackSize`); the simulator grants at most 64 KiB per call and reports more.
    pub fn alloca<T: DeviceType>(n: usize) -> &'static mut [T] = custom(
        Custom::Alloca(&ALLOCA_ENTRY),
        entries = ::core::slice::from_ref(&ALLOCA_ENTRY),
    );
}
