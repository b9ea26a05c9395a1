//! Cache-hinted global loads and stores (`__ldg`, `__ldcg`... `__stcs`): one entry per hint and
//! scalar type, named `hint.type` (`ldcg.f32`); the front end picks the entry from the reference's
//! element type. Arguments are global byte addresses (U64).
//!
//! Vector forms (`ldg.v4.f32`: one 16-byte `ld.global.nc.v4.f32`) serve CUDA's aligned vector
//! types (`float4`, `int2`, `double2`, `half2`...): the front end uses them when the element is a
//! struct of 2 or 4 equal scalars whose alignment equals its size.

use super::{Class, IntrinsicDef, SimEnv};
use kernel_ir::ir::{Space, Ty};

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

/// Vector entries (expanded by `hinted!`): `$n` lanes of `$ty`; `$dst` / `$src` are the brace-escaped register lists.
macro_rules! vec_hinted {
    (@ld $hint:literal, $ins:literal, $ty:ident, $bytes:literal, $sfx:literal, $psfx:literal, $n:tt, $vn:literal, $dst:literal) => {
        IntrinsicDef {
            name: concat!($hint, ".", $vn, ".", $sfx),
            args: &[Ty::U64],
            rets: &[Ty::$ty; $n],
            min_sm: 70,
            ptx: concat!($ins, $vn, ".", $psfx, " ", $dst, ", [{a0}]"),
            class: Class::Memory,
            sim: Some(|e: &mut dyn SimEnv, a: &[u64], o: &mut [u64]| vload(e, a, o, $bytes)),
            sim_warp: None,
        }
    };
    (@st $hint:literal, $ins:literal, $ty:ident, $bytes:literal, $sfx:literal, $psfx:literal, $n:tt, $vn:literal, $src:literal) => {
        IntrinsicDef {
            name: concat!($hint, ".", $vn, ".", $sfx),
            args: &vec_hinted!(@args $ty $n),
            rets: &[],
            min_sm: 70,
            ptx: concat!($ins, $vn, ".", $psfx, " [{a0}], ", $src),
            class: Class::Memory,
            sim: Some(|e: &mut dyn SimEnv, a: &[u64], _: &mut [u64]| vstore(e, a, $bytes)),
            sim_warp: None,
        }
    };
    (@args $ty:ident 2) => { [Ty::U64, Ty::$ty, Ty::$ty] };
    (@args $ty:ident 4) => { [Ty::U64, Ty::$ty, Ty::$ty, Ty::$ty, Ty::$ty] };
}

macro_rules! hinted {
    (
        $($ty:ident $bytes:literal $sfx:literal $psfx:literal),*;
        $($vty:ident $vbytes:literal $vsfx:literal $vpsfx:literal $n:tt $vn:literal $dst:literal $src:literal),*
    ) => {
        &[$(
            hinted!(@ld "ldg", "ld.global.nc.", $ty, $bytes, $sfx, $psfx),
            hinted!(@ld "ldca", "ld.global.ca.", $ty, $bytes, $sfx, $psfx),
            hinted!(@ld "ldcg", "ld.global.cg.", $ty, $bytes, $sfx, $psfx),
            hinted!(@ld "ldcs", "ld.global.cs.", $ty, $bytes, $sfx, $psfx),
            hinted!(@ld "ldlu", "ld.global.lu.", $ty, $bytes, $sfx, $psfx),
            hinted!(@ld "ldcv", "ld.global.cv.", $ty, $bytes, $sfx, $psfx),
            hinted!(@st "stwb", "st.global.wb.", $ty, $bytes, $sfx, $psfx),
            hinted!(@st "stcg", "st.global.cg.", $ty, $bytes, $sfx, $psfx),
            hinted!(@st "stcs", "st.global.cs.", $ty, $bytes, $sfx, $psfx),
            hinted!(@st "stwt", "st.global.wt.", $ty, $bytes, $sfx, $psfx),
        )* $(
            vec_hinted!(@ld "ldg", "ld.global.nc.", $vty, $vbytes, $vsfx, $vpsfx, $n, $vn, $dst),
            vec_hinted!(@ld "ldca", "ld.global.ca.", $vty, $vbytes, $vsfx, $vpsfx, $n, $vn, $dst),
            vec_hinted!(@ld "ldcg", "ld.global.cg.", $vty, $vbytes, $vsfx, $vpsfx, $n, $vn, $dst),
            vec_hinted!(@ld "ldcs", "ld.global.cs.", $vty, $vbytes, $vsfx, $vpsfx, $n, $vn, $dst),
            vec_hinted!(@ld "ldlu", "ld.global.lu.", $vty, $vbytes, $vsfx, $vpsfx, $n, $vn, $dst),
            vec_hinted!(@ld "ldcv", "ld.global.cv.", $vty, $vbytes, $vsfx, $vpsfx, $n, $vn, $dst),
            vec_hinted!(@st "stwb", "st.global.wb.", $vty, $vbytes, $vsfx, $vpsfx, $n, $vn, $src),
            vec_hinted!(@st "stcg", "st.global.cg.", $vty, $vbytes, $vsfx, $vpsfx, $n, $vn, $src),
            vec_hinted!(@st "stcs", "st.global.cs.", $vty, $vbytes, $vsfx, $vpsfx, $n, $vn, $src),
            vec_hinted!(@st "stwt", "st.global.wt.", $vty, $vbytes, $vsfx, $vpsfx, $n, $vn, $src),
        )*]
    };
    (@ld $hint:literal, $ins:literal, $ty:ident, $bytes:literal, $sfx:literal, $psfx:literal) => {
        IntrinsicDef {
            name: concat!($hint, ".", $sfx),
            args: &[Ty::U64],
            rets: &[Ty::$ty],
            min_sm: 70,
            ptx: concat!($ins, $psfx, " {d0}, [{a0}]"),
            class: Class::Memory,
            sim: Some(|e: &mut dyn SimEnv, a: &[u64], o: &mut [u64]| load(e, a, o, $bytes)),
            sim_warp: None,
        }
    };
    (@st $hint:literal, $ins:literal, $ty:ident, $bytes:literal, $sfx:literal, $psfx:literal) => {
        IntrinsicDef {
            name: concat!($hint, ".", $sfx),
            args: &[Ty::U64, Ty::$ty],
            rets: &[],
            min_sm: 70,
            ptx: concat!($ins, $psfx, " [{a0}], {a1}"),
            class: Class::Memory,
            sim: Some(|e: &mut dyn SimEnv, a: &[u64], _: &mut [u64]| store(e, a, $bytes)),
            sim_warp: None,
        }
    };
}

/// This category's entries (appended to the table in `mod.rs`'s order).
pub(super) static ENTRIES: &[IntrinsicDef] = hinted!(
    U8 1 "u8" "u8", I8 1 "s8" "s8", U16 2 "u16" "u16", I16 2 "s16" "s16",
    U32 4 "u32" "u32", I32 4 "s32" "s32", U64 8 "u64" "u64", I64 8 "s64" "s64",
    F16 2 "f16" "b16", BF16 2 "bf16" "b16", F32 4 "f32" "f32", F64 8 "f64" "f64";
    U16 2 "u16" "u16" 2 "v2" "{{{d0}, {d1}}}" "{{{a1}, {a2}}}",
    I16 2 "s16" "s16" 2 "v2" "{{{d0}, {d1}}}" "{{{a1}, {a2}}}",
    F16 2 "f16" "b16" 2 "v2" "{{{d0}, {d1}}}" "{{{a1}, {a2}}}",
    BF16 2 "bf16" "b16" 2 "v2" "{{{d0}, {d1}}}" "{{{a1}, {a2}}}",
    U16 2 "u16" "u16" 4 "v4" "{{{d0}, {d1}, {d2}, {d3}}}" "{{{a1}, {a2}, {a3}, {a4}}}",
    I16 2 "s16" "s16" 4 "v4" "{{{d0}, {d1}, {d2}, {d3}}}" "{{{a1}, {a2}, {a3}, {a4}}}",
    F16 2 "f16" "b16" 4 "v4" "{{{d0}, {d1}, {d2}, {d3}}}" "{{{a1}, {a2}, {a3}, {a4}}}",
    BF16 2 "bf16" "b16" 4 "v4" "{{{d0}, {d1}, {d2}, {d3}}}" "{{{a1}, {a2}, {a3}, {a4}}}",
    U32 4 "u32" "u32" 2 "v2" "{{{d0}, {d1}}}" "{{{a1}, {a2}}}",
    I32 4 "s32" "s32" 2 "v2" "{{{d0}, {d1}}}" "{{{a1}, {a2}}}",
    F32 4 "f32" "f32" 2 "v2" "{{{d0}, {d1}}}" "{{{a1}, {a2}}}",
    U32 4 "u32" "u32" 4 "v4" "{{{d0}, {d1}, {d2}, {d3}}}" "{{{a1}, {a2}, {a3}, {a4}}}",
    I32 4 "s32" "s32" 4 "v4" "{{{d0}, {d1}, {d2}, {d3}}}" "{{{a1}, {a2}, {a3}, {a4}}}",
    F32 4 "f32" "f32" 4 "v4" "{{{d0}, {d1}, {d2}, {d3}}}" "{{{a1}, {a2}, {a3}, {a4}}}",
    U64 8 "u64" "u64" 2 "v2" "{{{d0}, {d1}}}" "{{{a1}, {a2}}}",
    I64 8 "s64" "s64" 2 "v2" "{{{d0}, {d1}}}" "{{{a1}, {a2}}}",
    F64 8 "f64" "f64" 2 "v2" "{{{d0}, {d1}}}" "{{{a1}, {a2}}}"
);
