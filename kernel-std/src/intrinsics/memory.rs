//! Cache-hinted global loads and stores (`__ldg`, `__ldcg`... `__stcs`): one entry per hint and
//! scalar type, named `hint.type` (`ldcg.f32`); the front end picks the entry from the reference's
//! element type. Arguments are global byte addresses (U64).

use super::{Class, IntrinsicDef, SimEnv};
use crate::ir::{Space, Ty};

fn load(e: &mut dyn SimEnv, a: &[u64], o: &mut [u64], bytes: u32) {
    o[0] = e.atomic_read(Space::Global, a[0], bytes);
}
fn store(e: &mut dyn SimEnv, a: &[u64], bytes: u32) {
    e.atomic_write(Space::Global, a[0], bytes, a[1]);
}

macro_rules! hinted {
    ($($ty:ident $bytes:literal $sfx:literal $psfx:literal),*) => {
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
    F16 2 "f16" "b16", BF16 2 "bf16" "b16", F32 4 "f32" "f32", F64 8 "f64" "f64"
);
