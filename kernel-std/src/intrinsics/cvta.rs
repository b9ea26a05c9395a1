//! Address-space conversions of integer addresses (B.16 `__cvta_shared_to_generic` and
//! friends). References carry their space, so `cvta_to_shared` / `cvta_to_global` (on references)
//! are front-end rewrites; these take and return plain addresses, for code that passes addresses
//! around as integers.
//!
//! In the simulator the generic address of shared byte `o` is `SHARED_WINDOW + o` and global
//! addresses are their own generic addresses (as on every supported GPU), so round trips and
//! differences agree with the GPU while the absolute shared values do not.

use super::{Class, IntrinsicDef, SimEnv};
use kernel_ir::ir::Ty;

/// Where the simulator puts the shared window in the generic address space: above any global
/// allocation of `sim::GlobalMemory`, like the GPU's window above its global heap.
pub const SHARED_WINDOW: u64 = 0xff00_0000_0000;

fn shared_to_generic(_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    o[0] = SHARED_WINDOW + (a[0] & 0xffff_ffff);
}
fn generic_to_shared(_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    o[0] = a[0].wrapping_sub(SHARED_WINDOW) & 0xffff_ffff;
}
fn same(_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    o[0] = a[0];
}

const fn pure(
    name: &'static str,
    args: &'static [Ty],
    rets: &'static [Ty],
    ptx: &'static str,
    sim: super::SimFn,
) -> IntrinsicDef {
    IntrinsicDef {
        name,
        args,
        rets,
        min_sm: 70,
        ptx,
        class: Class::Pure,
        sim: Some(sim),
        sim_warp: None,
    }
}

/// This category's entries (appended to the table in `mod.rs`'s order).
pub(super) static ENTRIES: &[IntrinsicDef] = &[
    pure(
        "cvta_shared_to_generic",
        &[Ty::U32],
        &[Ty::U64],
        "cvt.u64.u32 {d0}, {a0}; cvta.shared.u64 {d0}, {d0}",
        shared_to_generic,
    ),
    pure(
        "cvta_generic_to_shared",
        &[Ty::U64],
        &[Ty::U32],
        ".reg .b64 %fcv{uid}; cvta.to.shared.u64 %fcv{uid}, {a0}; cvt.u32.u64 {d0}, %fcv{uid}",
        generic_to_shared,
    ),
    pure(
        "cvta_global_to_generic",
        &[Ty::U64],
        &[Ty::U64],
        "cvta.global.u64 {d0}, {a0}",
        same,
    ),
    pure(
        "cvta_generic_to_global",
        &[Ty::U64],
        &[Ty::U64],
        "cvta.to.global.u64 {d0}, {a0}",
        same,
    ),
];
