//! `atomicAdd` on `half2` and `__nv_bfloat162` (B.14.1.1): one `atom.add.noftz.f16x2` /
//! `.bf16x2` on the packed 32-bit word, on global or shared memory. Entries are named
//! `atomic_add_half2_lanes.global` and take the lanes separately, as the other pair operations;
//! f16x2 needs sm_60 (so every target), bf16x2 sm_90.
//!
//! The simulator adds each lane in f32 and rounds once, which is the correctly rounded 16-bit
//! sum, as one uninterrupted read-modify-write of the word.

use half::{bf16, f16};
use kernel_ir::ir::{Space, Ty};

use super::{Class, IntrinsicDef, SimEnv};
use crate::types::{bfloat162, half2};

fn add_lanes<const BF: bool, const SHARED: bool>(e: &mut dyn SimEnv, a: &[u64], o: &mut [u64]) {
    let space = if SHARED { Space::Shared } else { Space::Global };
    let old = e.atomic_read(space, a[0], 4);
    let add = |x: u64, y: u64| -> u64 {
        if BF {
            (bf16::from_bits(x as u16) + bf16::from_bits(y as u16)).to_bits() as u64
        } else {
            (f16::from_bits(x as u16) + f16::from_bits(y as u16)).to_bits() as u64
        }
    };
    let (lo, hi) = (old & 0xffff, (old >> 16) & 0xffff);
    let new = add(lo, a[1]) | add(hi, a[2]) << 16;
    e.atomic_write(space, a[0], 4, new);
    o[0] = lo;
    o[1] = hi;
}

macro_rules! entry {
    ($name:literal, $t:expr, $addr:expr, $sm:literal, $ptx_ty:literal, $space:literal, $sim:expr) => {
        IntrinsicDef {
            name: $name,
            args: &[$addr, $t, $t],
            rets: &[$t, $t],
            min_sm: $sm,
            ptx: concat!(
                ".reg .b32 %fch{uid}_v; .reg .b32 %fch{uid}_o; ",
                "mov.b32 %fch{uid}_v, {{{a1}, {a2}}}; ",
                "atom.",
                $space,
                ".add.noftz.",
                $ptx_ty,
                " %fch{uid}_o, [{a0}], %fch{uid}_v; ",
                "mov.b32 {{{d0}, {d1}}}, %fch{uid}_o"
            ),
            class: Class::Memory,
            sim: Some($sim),
            sim_warp: None,
            reg: None,
        }
    };
}

intrinsics! {
    table TABLE;

    /// `atomicAdd(__half2*, __half2)`: adds `v` lane-wise to `*p` as one 32-bit atomic
    /// (`atom.add.noftz.f16x2`; each lane is atomic, rounded to nearest, subnormals kept); returns
    /// the old value.
    pub fn atomic_add_half2(p: &mut half2, v: half2) -> half2 = access(true, false, entries = &[
        entry!(
            "atomic_add_half2_lanes.global",
            Ty::F16,
            Ty::U64,
            70,
            "f16x2",
            "global",
            add_lanes::<false, false>
        ),
        entry!(
            "atomic_add_half2_lanes.shared",
            Ty::F16,
            Ty::U32,
            70,
            "f16x2",
            "shared",
            add_lanes::<false, true>
        ),
    ]);
    /// `atomicAdd(__nv_bfloat162*, __nv_bfloat162)`: as [`atomic_add_half2`](fn@atomic_add_half2) with
    /// `atom.add.noftz.bf16x2`, which needs sm_90 (compiling for an older target is an error).
    pub fn atomic_add_bfloat162(p: &mut bfloat162, v: bfloat162) -> bfloat162 =
        access(true, false, entries = &[
            entry!(
                "atomic_add_bfloat162_lanes.global",
                Ty::BF16,
                Ty::U64,
                90,
                "bf16x2",
                "global",
                add_lanes::<true, false>
            ),
            entry!(
                "atomic_add_bfloat162_lanes.shared",
                Ty::BF16,
                Ty::U32,
                90,
                "bf16x2",
                "shared",
                add_lanes::<true, true>
            ),
        ]);
}
