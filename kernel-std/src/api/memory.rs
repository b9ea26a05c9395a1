//! Device API: cache-hinted global loads and stores (B.10, "Read-Only Data Cache Load Function"
//! and "Load/Store Functions Using Cache Hints") and address-space predicates (B.19).
//!
//! The loads and stores take a reference to a scalar element of a slice parameter (`&x[i]`,
//! `&mut y[i]`); the index is bounds-checked as any other access.

use super::{device_only, DeviceType};

device_intrinsic!(
    /// `__ldg`: load through the read-only (non-coherent) data cache, `ld.global.nc`. Only valid
    /// for memory no thread writes during the kernel.
    pub fn ldg<T: DeviceType>(p: &T) -> T
);
device_intrinsic!(
    /// `__ldca`: load, caching at all levels (`ld.global.ca`).
    pub fn ldca<T: DeviceType>(p: &T) -> T
);
device_intrinsic!(
    /// `__ldcg`: load, caching in L2 only (`ld.global.cg`).
    pub fn ldcg<T: DeviceType>(p: &T) -> T
);
device_intrinsic!(
    /// `__ldcs`: streaming load, likely accessed once (`ld.global.cs`).
    pub fn ldcs<T: DeviceType>(p: &T) -> T
);
device_intrinsic!(
    /// `__ldlu`: last-use load (`ld.global.lu`).
    pub fn ldlu<T: DeviceType>(p: &T) -> T
);
device_intrinsic!(
    /// `__ldcv`: volatile load that fetches again on every call (`ld.global.cv`).
    pub fn ldcv<T: DeviceType>(p: &T) -> T
);
device_intrinsic!(
    /// `__stwb`: write-back store at all coherent levels (`st.global.wb`).
    pub fn stwb<T: DeviceType>(p: &mut T, value: T)
);
device_intrinsic!(
    /// `__stcg`: store cached in L2 only (`st.global.cg`).
    pub fn stcg<T: DeviceType>(p: &mut T, value: T)
);
device_intrinsic!(
    /// `__stcs`: streaming store, likely accessed once (`st.global.cs`).
    pub fn stcs<T: DeviceType>(p: &mut T, value: T)
);
device_intrinsic!(
    /// `__stwt`: write-through store to system memory (`st.global.wt`).
    pub fn stwt<T: DeviceType>(p: &mut T, value: T)
);
device_intrinsic!(
    /// `__isGlobal`: whether `p` points into global memory. References carry their memory space
    /// in the compiler, so this is a constant.
    pub fn is_global<T: DeviceType>(p: &T) -> bool
);
device_intrinsic!(
    /// `__isShared`: whether `p` points into shared memory (a constant, as `is_global`).
    pub fn is_shared<T: DeviceType>(p: &T) -> bool
);
device_intrinsic!(
    /// `__isLocal`: whether `p` points into thread-local storage (a constant, as `is_global`).
    pub fn is_local<T: DeviceType>(p: &T) -> bool
);
device_intrinsic!(
    /// `__isConstant`: whether `p` points into constant memory; kernels have no references into
    /// it, so always `false`.
    pub fn is_constant<T: DeviceType>(p: &T) -> bool
);
device_intrinsic!(
    /// `__cvta_generic_to_shared(p)`: the shared-window address of a shared-memory reference (what
    /// `ld.shared`/`cp.async`-style PTX takes).
    pub fn cvta_to_shared<T: DeviceType>(p: &T) -> u32
);
device_intrinsic!(
    /// `__cvta_generic_to_global(p)`: the global address of a global-memory reference.
    pub fn cvta_to_global<T: DeviceType>(p: &T) -> u64
);
device_intrinsic!(
    /// `malloc(n * size_of::<T>())` on the device heap (B.33): a block of `n` elements that lives
    /// until `device_free` (or the end of the context), visible to every thread that gets the
    /// slice. When the heap is exhausted (8 MiB by default; see `Device::set_malloc_heap_size`)
    /// CUDA's `malloc` returns null: the slice is then empty, so `buf.is_empty()` tells and every
    /// index fails its bounds check instead of touching address 0. The contents start
    /// unspecified on a GPU (zero in the simulator).
    pub fn device_malloc<T: DeviceType>(n: usize) -> &'static mut [T]
);
device_intrinsic!(
    /// `free(buf)`: returns a `device_malloc` block to the heap; an empty (failed) block is a
    /// no-op, as `free(NULL)`. The simulator reports a double free, a free of anything else
    /// (a parameter slice, a sub-slice) and any later access to the block.
    pub fn device_free<T: DeviceType>(buf: &mut [T])
);
device_intrinsic!(
    /// `__cvta_shared_to_generic(a)`: the generic address of shared-window address `a` (what
    /// `cvta_to_shared` returns). In the simulator the shared window sits at a fixed base, so
    /// only differences and round trips match a GPU.
    pub fn cvta_shared_to_generic(a: u32) -> u64
);
device_intrinsic!(
    /// `__cvta_generic_to_shared(p)`: the shared-window address of a generic address into
    /// shared memory (meaningless for any other address, as in CUDA).
    pub fn cvta_generic_to_shared(p: u64) -> u32
);
device_intrinsic!(
    /// `__cvta_global_to_generic(a)`: the generic address of global address `a` (the same value
    /// on every supported GPU).
    pub fn cvta_global_to_generic(a: u64) -> u64
);
device_intrinsic!(
    /// `__cvta_generic_to_global(p)`: the global address of a generic address into global memory.
    pub fn cvta_generic_to_global(p: u64) -> u64
);
device_intrinsic!(
    /// `alloca(n * size_of::<T>())` (B.17): `n` elements of the thread's own stack (PTX
    /// `alloca`, 16-byte aligned), valid until the kernel returns; bounds-checked like any slice.
    /// Each call takes more stack, also in a loop. The contents start unspecified on a GPU (zero
    /// in the simulator). Stack overflow is not detected on a GPU (the stack size is
    /// `cudaLimitStackSize`); the simulator grants at most 64 KiB per call and reports more.
    pub fn alloca<T: DeviceType>(n: usize) -> &'static mut [T]
);
