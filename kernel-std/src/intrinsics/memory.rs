//! Cache-hinted global loads and stores (guide B.10: `__ldg`, `__ldcg`... `__stcs`),
//! address-space predicates (B.19: `__isGlobal`...) and the address of a reference
//! (`__cvta_generic_to_shared`).
//!
//! The loads and stores take a reference to an element of a slice parameter (`&x[i]`,
//! `&mut y[i]`); the index is bounds-checked as any other access. Each hint has one entry per
//! scalar type, named `hint.type` (`ldcg.f32`), whose argument is the global byte address (U64),
//! and vector forms (`ldg.v4.f32`: one 16-byte `ld.global.nc.v4.f32`) for CUDA's aligned vector
//! types (`float4`, `int2`, `double2`, `half2`...): a struct of 2 or 4 equal scalars whose
//! alignment equals its size moves in one access, any other struct of scalars field by field.
//!
//! References carry their memory space in the compiler, so the predicates are constants and
//! `cvta_to_*` is the address the reference already holds.

use kernel_ir::ir::{Space, Ty};

use super::{Class, DeviceType, IntrinsicDef, SimEnv};

fn load(e: &mut dyn SimEnv, a: &[u64], o: &mut [u64], bytes: u32) {
    o[0] = e.atomic_read(Space::Global, a[0], bytes);
}
fn store(e: &mut dyn SimEnv, a: &[u64], bytes: u32) {
    e.atomic_write(Space::Global, a[0], bytes, a[1]);
}
fn vload(e: &mut dyn SimEnv, a: &[u64], o: &mut [u64], bytes: u32) {
    for (k, r) in o.iter_mut().enumerate() {
        *r = e.atomic_read(Space::Global, a[0] + k as u64 * bytes as u64, bytes);
    }
}
fn vstore(e: &mut dyn SimEnv, a: &[u64], bytes: u32) {
    for (k, v) in a[1..].iter().enumerate() {
        e.atomic_write(Space::Global, a[0] + k as u64 * bytes as u64, bytes, *v);
    }
}

/// One scalar entry of a hint (`$op`: `ld` or `st`).
macro_rules! scalar_hinted {
    (ld $hint:literal $ins:literal $ty:ident $bytes:literal $sfx:literal $psfx:literal) => {
        IntrinsicDef {
            name: concat!($hint, ".", $sfx),
            args: &[Ty::U64],
            rets: &[Ty::$ty],
            min_sm: 70,
            ptx: concat!($ins, $psfx, " {d0}, [{a0}]"),
            class: Class::Memory,
            sim: Some(|e: &mut dyn SimEnv, a: &[u64], o: &mut [u64]| load(e, a, o, $bytes)),
            sim_warp: None,
            reg: None,
        }
    };
    (st $hint:literal $ins:literal $ty:ident $bytes:literal $sfx:literal $psfx:literal) => {
        IntrinsicDef {
            name: concat!($hint, ".", $sfx),
            args: &[Ty::U64, Ty::$ty],
            rets: &[],
            min_sm: 70,
            ptx: concat!($ins, $psfx, " [{a0}], {a1}"),
            class: Class::Memory,
            sim: Some(|e: &mut dyn SimEnv, a: &[u64], _: &mut [u64]| store(e, a, $bytes)),
            sim_warp: None,
            reg: None,
        }
    };
}

/// One vector entry of a hint: `$n` lanes of `$ty`; `$dst` / `$src` are the brace-escaped
/// register lists of a load / store.
macro_rules! vec_hinted {
    (ld $hint:literal $ins:literal $ty:ident $bytes:literal $sfx:literal $psfx:literal $n:tt $vn:literal $dst:literal $src:literal) => {
        IntrinsicDef {
            name: concat!($hint, ".", $vn, ".", $sfx),
            args: &[Ty::U64],
            rets: &[Ty::$ty; $n],
            min_sm: 70,
            ptx: concat!($ins, $vn, ".", $psfx, " ", $dst, ", [{a0}]"),
            class: Class::Memory,
            sim: Some(|e: &mut dyn SimEnv, a: &[u64], o: &mut [u64]| vload(e, a, o, $bytes)),
            sim_warp: None,
            reg: None,
        }
    };
    (st $hint:literal $ins:literal $ty:ident $bytes:literal $sfx:literal $psfx:literal $n:tt $vn:literal $dst:literal $src:literal) => {
        IntrinsicDef {
            name: concat!($hint, ".", $vn, ".", $sfx),
            args: &vec_hinted!(@args $ty $n),
            rets: &[],
            min_sm: 70,
            ptx: concat!($ins, $vn, ".", $psfx, " [{a0}], ", $src),
            class: Class::Memory,
            sim: Some(|e: &mut dyn SimEnv, a: &[u64], _: &mut [u64]| vstore(e, a, $bytes)),
            sim_warp: None,
            reg: None,
        }
    };
    (@args $ty:ident 2) => { [Ty::U64, Ty::$ty, Ty::$ty] };
    (@args $ty:ident 4) => { [Ty::U64, Ty::$ty, Ty::$ty, Ty::$ty, Ty::$ty] };
}

/// Every entry of one hint: `$op` (`ld` / `st`), its name and its instruction.
macro_rules! hinted {
    ($op:ident $hint:literal $ins:literal) => {
        &[
            scalar_hinted!($op $hint $ins U8 1 "u8" "u8"),
            scalar_hinted!($op $hint $ins I8 1 "s8" "s8"),
            scalar_hinted!($op $hint $ins U16 2 "u16" "u16"),
            scalar_hinted!($op $hint $ins I16 2 "s16" "s16"),
            scalar_hinted!($op $hint $ins U32 4 "u32" "u32"),
            scalar_hinted!($op $hint $ins I32 4 "s32" "s32"),
            scalar_hinted!($op $hint $ins U64 8 "u64" "u64"),
            scalar_hinted!($op $hint $ins I64 8 "s64" "s64"),
            scalar_hinted!($op $hint $ins F16 2 "f16" "b16"),
            scalar_hinted!($op $hint $ins BF16 2 "bf16" "b16"),
            scalar_hinted!($op $hint $ins F32 4 "f32" "f32"),
            scalar_hinted!($op $hint $ins F64 8 "f64" "f64"),
            vec_hinted!($op $hint $ins U16 2 "u16" "u16" 2 "v2" "{{{d0}, {d1}}}" "{{{a1}, {a2}}}"),
            vec_hinted!($op $hint $ins I16 2 "s16" "s16" 2 "v2" "{{{d0}, {d1}}}" "{{{a1}, {a2}}}"),
            vec_hinted!($op $hint $ins F16 2 "f16" "b16" 2 "v2" "{{{d0}, {d1}}}" "{{{a1}, {a2}}}"),
            vec_hinted!($op $hint $ins BF16 2 "bf16" "b16" 2 "v2" "{{{d0}, {d1}}}" "{{{a1}, {a2}}}"),
            vec_hinted!($op $hint $ins U16 2 "u16" "u16" 4 "v4" "{{{d0}, {d1}, {d2}, {d3}}}" "{{{a1}, {a2}, {a3}, {a4}}}"),
            vec_hinted!($op $hint $ins I16 2 "s16" "s16" 4 "v4" "{{{d0}, {d1}, {d2}, {d3}}}" "{{{a1}, {a2}, {a3}, {a4}}}"),
            vec_hinted!($op $hint $ins F16 2 "f16" "b16" 4 "v4" "{{{d0}, {d1}, {d2}, {d3}}}" "{{{a1}, {a2}, {a3}, {a4}}}"),
            vec_hinted!($op $hint $ins BF16 2 "bf16" "b16" 4 "v4" "{{{d0}, {d1}, {d2}, {d3}}}" "{{{a1}, {a2}, {a3}, {a4}}}"),
            vec_hinted!($op $hint $ins U32 4 "u32" "u32" 2 "v2" "{{{d0}, {d1}}}" "{{{a1}, {a2}}}"),
            vec_hinted!($op $hint $ins I32 4 "s32" "s32" 2 "v2" "{{{d0}, {d1}}}" "{{{a1}, {a2}}}"),
            vec_hinted!($op $hint $ins F32 4 "f32" "f32" 2 "v2" "{{{d0}, {d1}}}" "{{{a1}, {a2}}}"),
            vec_hinted!($op $hint $ins U32 4 "u32" "u32" 4 "v4" "{{{d0}, {d1}, {d2}, {d3}}}" "{{{a1}, {a2}, {a3}, {a4}}}"),
            vec_hinted!($op $hint $ins I32 4 "s32" "s32" 4 "v4" "{{{d0}, {d1}, {d2}, {d3}}}" "{{{a1}, {a2}, {a3}, {a4}}}"),
            vec_hinted!($op $hint $ins F32 4 "f32" "f32" 4 "v4" "{{{d0}, {d1}, {d2}, {d3}}}" "{{{a1}, {a2}, {a3}, {a4}}}"),
            vec_hinted!($op $hint $ins U64 8 "u64" "u64" 2 "v2" "{{{d0}, {d1}}}" "{{{a1}, {a2}}}"),
            vec_hinted!($op $hint $ins I64 8 "s64" "s64" 2 "v2" "{{{d0}, {d1}}}" "{{{a1}, {a2}}}"),
            vec_hinted!($op $hint $ins F64 8 "f64" "f64" 2 "v2" "{{{d0}, {d1}}}" "{{{a1}, {a2}}}"),
        ]
    };
}

intrinsics! {
    table TABLE;

    /// `__ldg`: load through the read-only (non-coherent) data cache, `ld.global.nc`. Only valid
    /// for memory no thread writes during the kernel.
    pub fn ldg<T: DeviceType>(p: &T) -> T =
        access(false, true, entries = hinted!(ld "ldg" "ld.global.nc."));
    /// `__ldca`: load, caching at all levels (`ld.global.ca`).
    pub fn ldca<T: DeviceType>(p: &T) -> T =
        access(false, true, entries = hinted!(ld "ldca" "ld.global.ca."));
    /// `__ldcg`: load, caching in L2 only (`ld.global.cg`).
    pub fn ldcg<T: DeviceType>(p: &T) -> T =
        access(false, true, entries = hinted!(ld "ldcg" "ld.global.cg."));
    /// `__ldcs`: streaming load, likely accessed once (`ld.global.cs`).
    pub fn ldcs<T: DeviceType>(p: &T) -> T =
        access(false, true, entries = hinted!(ld "ldcs" "ld.global.cs."));
    /// `__ldlu`: last-use load (`ld.global.lu`).
    pub fn ldlu<T: DeviceType>(p: &T) -> T =
        access(false, true, entries = hinted!(ld "ldlu" "ld.global.lu."));
    /// `__ldcv`: volatile load that fetches again on every call (`ld.global.cv`).
    pub fn ldcv<T: DeviceType>(p: &T) -> T =
        access(false, true, entries = hinted!(ld "ldcv" "ld.global.cv."));
    /// `__stwb`: write-back store at all coherent levels (`st.global.wb`).
    pub fn stwb<T: DeviceType>(p: &mut T, value: T) =
        access(true, true, entries = hinted!(st "stwb" "st.global.wb."));
    /// `__stcg`: store cached in L2 only (`st.global.cg`).
    pub fn stcg<T: DeviceType>(p: &mut T, value: T) =
        access(true, true, entries = hinted!(st "stcg" "st.global.cg."));
    /// `__stcs`: streaming store, likely accessed once (`st.global.cs`).
    pub fn stcs<T: DeviceType>(p: &mut T, value: T) =
        access(true, true, entries = hinted!(st "stcs" "st.global.cs."));
    /// `__stwt`: write-through store to system memory (`st.global.wt`).
    pub fn stwt<T: DeviceType>(p: &mut T, value: T) =
        access(true, true, entries = hinted!(st "stwt" "st.global.wt."));
    /// `__isGlobal`: whether `p` points into global memory. References carry their memory space
    /// in the compiler, so this is a constant.
    pub fn is_global<T: DeviceType>(p: &T) -> bool = is_in(Some(Space::Global));
    /// `__isShared`: whether `p` points into shared memory (a constant, as `is_global`).
    pub fn is_shared<T: DeviceType>(p: &T) -> bool = is_in(Some(Space::Shared));
    /// `__isLocal`: whether `p` points into thread-local storage (a constant, as `is_global`).
    pub fn is_local<T: DeviceType>(p: &T) -> bool = is_in(Some(Space::Local));
    /// `__isConstant`: whether `p` points into constant memory; kernels have no references into
    /// it, so always `false`.
    pub fn is_constant<T: DeviceType>(p: &T) -> bool = is_in(None);
    /// `__cvta_generic_to_shared(p)`: the shared-window address of a shared-memory reference (what
    /// `ld.shared`/`cp.async`-style PTX takes).
    pub fn cvta_to_shared<T: DeviceType>(p: &T) -> u32 = address_of(Shared);
    /// `__cvta_generic_to_global(p)`: the global address of a global-memory reference.
    pub fn cvta_to_global<T: DeviceType>(p: &T) -> u64 = address_of(Global);
}
