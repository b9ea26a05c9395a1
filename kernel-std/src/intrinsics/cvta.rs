//! Address-space conversions of integer addresses (B.16 `__cvta_shared_to_generic` and
//! friends). References carry their space, so `cvta_to_shared` / `cvta_to_global` (on references)
//! are front-end rewrites; these take and return plain addresses, for code that passes addresses
//! around as integers.
//!
//! In the simulator the generic address of shared byte `o` is `SHARED_WINDOW + o` and global
//! addresses are their own generic addresses (as on every supported GPU), so round trips and
//! differences agree with the GPU while the absolute shared values do not.

use super::{SimEnv, SHARED_WINDOW};

fn shared_to_generic(_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    o[0] = SHARED_WINDOW + (a[0] & 0xffff_ffff);
}
fn generic_to_shared(_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    o[0] = a[0].wrapping_sub(SHARED_WINDOW) & 0xffff_ffff;
}
fn same(_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    o[0] = a[0];
}

intrinsics! {
    table TABLE;

    /// `__cvta_shared_to_generic(a)`: the generic address of shared-window address `a` (what
    /// `cvta_to_shared` returns). In the simulator the shared window sits at a fixed base, so
    /// only differences and round trips match a GPU.
    pub fn cvta_shared_to_generic(a: u32) -> u64 =
        pure(70, "cvt.u64.u32 {d0}, {a0}; cvta.shared.u64 {d0}, {d0}", shared_to_generic);
    /// `__cvta_generic_to_shared(p)`: the shared-window address of a generic address into
    /// shared memory (meaningless for any other address, as in CUDA).
    pub fn cvta_generic_to_shared(p: u64) -> u32 = pure(
        70,
        ".reg .b64 %fcv{uid}; cvta.to.shared.u64 %fcv{uid}, {a0}; cvt.u32.u64 {d0}, %fcv{uid}",
        generic_to_shared
    );
    /// `__cvta_global_to_generic(a)`: the generic address of global address `a` (the same value
    /// on every supported GPU).
    pub fn cvta_global_to_generic(a: u64) -> u64 = pure(70, "cvta.global.u64 {d0}, {a0}", same);
    /// `__cvta_generic_to_global(p)`: the global address of a generic address into global memory.
    pub fn cvta_generic_to_global(p: u64) -> u64 =
        pure(70, "cvta.to.global.u64 {d0}, {a0}", same);
}
