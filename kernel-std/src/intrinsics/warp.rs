//! Warp vote, match, reduce and shuffle collectives, `__syncwarp` (guide B.19-B.22).
//!
//! `mask` names the lanes taking part, as in CUDA (`0xffff_ffff` for the full warp); every lane it
//! names must reach the same call. The value-generic collectives (`shfl*_sync`, `match_*_sync`,
//! `reduce_*_sync`) have one entry per value type, named `family.type` (`shfl_sync.f32`); the
//! front end picks the entry from the type of the value argument. Shuffles move 32 bits: 64-bit
//! values take two shuffles, 16-bit values ride in the low half of one.

use super::{Class, DeviceType, IntrinsicDef};
use crate::intrinsics::collectives as s;
use kernel_ir::ir::Ty;

const U32: Ty = Ty::U32;
const B: Ty = Ty::Bool;

/// Values a shuffle moves: 32-bit in one `shfl.sync`, 64-bit in two, 16-bit in one.
pub trait ShuffleValue: DeviceType {}
/// Values `match_any_sync` / `match_all_sync` compare (32- and 64-bit, by their bits).
pub trait MatchValue: DeviceType {}
/// Values the `redux.sync` reductions take (sm_80+).
pub trait ReduceValue: DeviceType {}

value_types!(ShuffleValue, SHUFFLE_TYPES: u32, i32, f32, u64, i64, f64, half::f16, half::bf16);
value_types!(MatchValue, MATCH_TYPES: u32, i32, f32, u64, i64, f64);
value_types!(ReduceValue, REDUCE_TYPES: u32, i32);

macro_rules! warp {
    ($name:expr, $args:expr, $rets:expr, $sm:expr, $ptx:expr, $sim:expr) => {
        IntrinsicDef {
            name: $name,
            args: $args,
            rets: $rets,
            min_sm: $sm,
            ptx: $ptx,
            class: Class::Warp,
            sim: None,
            sim_warp: Some($sim),
            reg: None,
        }
    };
}

/// The `c` operand of `shfl.sync` from `width` ({a3}): segment mask in bits 8-12, clamp in 0-4
/// (`31` for idx/down/xor; `0` for up, which clamps at the segment's first lane).
macro_rules! shfl_c {
    ($clamp:literal) => {
        concat!(
            ".reg .b32 %fcw{uid}_c; sub.u32 %fcw{uid}_c, 32, {a3}; shl.b32 %fcw{uid}_c, %fcw{uid}_c, 8; or.b32 %fcw{uid}_c, %fcw{uid}_c, ",
            $clamp,
            "; "
        )
    };
}

/// One shuffle mode over every value type.
macro_rules! shfl_family {
    ($fam:literal, $mode:literal, $clamp:literal, $sim:expr) => {
        [
            warp!(
                concat!($fam, ".u32"),
                &[U32, U32, U32, U32],
                &[U32],
                70,
                concat!(
                    shfl_c!($clamp),
                    "shfl.sync.",
                    $mode,
                    ".b32 {d0}, {a1}, {a2}, %fcw{uid}_c, {a0}"
                ),
                $sim
            ),
            warp!(
                concat!($fam, ".i32"),
                &[U32, Ty::I32, U32, U32],
                &[Ty::I32],
                70,
                concat!(
                    shfl_c!($clamp),
                    "shfl.sync.",
                    $mode,
                    ".b32 {d0}, {a1}, {a2}, %fcw{uid}_c, {a0}"
                ),
                $sim
            ),
            warp!(
                concat!($fam, ".f32"),
                &[U32, Ty::F32, U32, U32],
                &[Ty::F32],
                70,
                concat!(
                    shfl_c!($clamp),
                    "shfl.sync.",
                    $mode,
                    ".b32 {d0}, {a1}, {a2}, %fcw{uid}_c, {a0}"
                ),
                $sim
            ),
            warp!(
                concat!($fam, ".u64"),
                &[U32, Ty::U64, U32, U32],
                &[Ty::U64],
                70,
                concat!(shfl_c!($clamp), shfl64!($mode, "{a1}", "{d0}")),
                $sim
            ),
            warp!(
                concat!($fam, ".i64"),
                &[U32, Ty::I64, U32, U32],
                &[Ty::I64],
                70,
                concat!(shfl_c!($clamp), shfl64!($mode, "{a1}", "{d0}")),
                $sim
            ),
            warp!(
                concat!($fam, ".f64"),
                &[U32, Ty::F64, U32, U32],
                &[Ty::F64],
                70,
                concat!(
                    shfl_c!($clamp),
                    ".reg .b64 %fcw{uid}_f; mov.b64 %fcw{uid}_f, {a1}; ",
                    shfl64!($mode, "%fcw{uid}_f", "%fcw{uid}_f"),
                    "; mov.b64 {d0}, %fcw{uid}_f"
                ),
                $sim
            ),
            warp!(
                concat!($fam, ".f16"),
                &[U32, Ty::F16, U32, U32],
                &[Ty::F16],
                70,
                concat!(shfl_c!($clamp), shfl16!($mode)),
                $sim
            ),
            warp!(
                concat!($fam, ".bf16"),
                &[U32, Ty::BF16, U32, U32],
                &[Ty::BF16],
                70,
                concat!(shfl_c!($clamp), shfl16!($mode)),
                $sim
            ),
        ]
    };
}

/// A 64-bit shuffle as two 32-bit ones (`$src`, `$dst`: 64-bit integer registers).
macro_rules! shfl64 {
    ($mode:literal, $src:literal, $dst:literal) => {
        concat!(
            ".reg .b32 %fcw{uid}_v<4>; .reg .b64 %fcw{uid}_t; ",
            "cvt.u32.u64 %fcw{uid}_v0, ",
            $src,
            "; shr.b64 %fcw{uid}_t, ",
            $src,
            ", 32; cvt.u32.u64 %fcw{uid}_v1, %fcw{uid}_t; ",
            "shfl.sync.",
            $mode,
            ".b32 %fcw{uid}_v2, %fcw{uid}_v0, {a2}, %fcw{uid}_c, {a0}; ",
            "shfl.sync.",
            $mode,
            ".b32 %fcw{uid}_v3, %fcw{uid}_v1, {a2}, %fcw{uid}_c, {a0}; ",
            "cvt.u64.u32 %fcw{uid}_t, %fcw{uid}_v3; shl.b64 %fcw{uid}_t, %fcw{uid}_t, 32; ",
            "cvt.u64.u32 ",
            $dst,
            ", %fcw{uid}_v2; or.b64 ",
            $dst,
            ", ",
            $dst,
            ", %fcw{uid}_t"
        )
    };
}

/// A 16-bit shuffle in the low half of a 32-bit one.
macro_rules! shfl16 {
    ($mode:literal) => {
        concat!(
            ".reg .b32 %fcw{uid}_v<2>; cvt.u32.u16 %fcw{uid}_v0, {a1}; ",
            "shfl.sync.",
            $mode,
            ".b32 %fcw{uid}_v1, %fcw{uid}_v0, {a2}, %fcw{uid}_c, {a0}; ",
            "cvt.u16.u32 {d0}, %fcw{uid}_v1"
        )
    };
}

/// `match.any` / `match.all` for one value type.
macro_rules! match_any {
    ($suffix:literal, $ty:expr, $bits:literal) => {
        warp!(
            concat!("match_any_sync.", $suffix),
            &[U32, $ty],
            &[U32],
            70,
            concat!("match.any.sync.b", $bits, " {d0}, {a1}, {a0}"),
            s::sim_match_any_sync
        )
    };
}
macro_rules! match_all {
    ($suffix:literal, $ty:expr, $bits:literal) => {
        warp!(
            concat!("match_all_sync.", $suffix),
            &[U32, $ty],
            &[U32, B],
            70,
            concat!("match.all.sync.b", $bits, " {d0}|{d1}, {a1}, {a0}"),
            s::sim_match_all_sync
        )
    };
}

macro_rules! redux {
    ($fam:literal, $op:literal, $suffix:literal, $ptxty:literal, $ty:expr, $sim:expr) => {
        warp!(
            concat!($fam, ".", $suffix),
            &[U32, $ty],
            &[$ty],
            80,
            concat!("redux.sync.", $op, ".", $ptxty, " {d0}, {a1}, {a0}"),
            $sim
        )
    };
}

intrinsics! {
    table TABLE;

    /// `__all_sync(mask, pred)`: whether `pred` is true on every lane of `mask`.
    pub fn all_sync(mask: u32, pred: bool) -> bool =
        warp(70, "vote.sync.all.pred {d0}, {a1}, {a0}", s::sim_all_sync);
    /// `__any_sync(mask, pred)`: whether `pred` is true on any lane of `mask`.
    pub fn any_sync(mask: u32, pred: bool) -> bool =
        warp(70, "vote.sync.any.pred {d0}, {a1}, {a0}", s::sim_any_sync);
    /// `__ballot_sync(mask, pred)`: bit `i` is set when lane `i` of `mask` has `pred` true.
    pub fn ballot_sync(mask: u32, pred: bool) -> u32 =
        warp(70, "vote.sync.ballot.b32 {d0}, {a1}, {a0}", s::sim_ballot_sync);
    /// `__activemask()`: the lanes executing this call together.
    pub fn activemask() -> u32 = warp(70, "activemask.b32 {d0}", s::sim_activemask);
    /// `__syncwarp(mask)`: the lanes of `mask` meet here; orders their memory accesses.
    pub fn sync_warp(mask: u32) = warp(70, "bar.warp.sync {a0}", s::sim_sync_warp);
    /// `__shfl_sync(mask, v, src_lane, width)`: `v` of lane `src_lane` of this lane's
    /// `width`-lane segment (`width`: a power of two up to 32).
    pub fn shfl_sync<T: ShuffleValue>(mask: u32, v: T, src_lane: u32, width: u32) -> T =
        typed(1, entries = &shfl_family!("shfl_sync", "idx", "31", s::sim_shfl_sync));
    /// `__shfl_up_sync(mask, v, delta, width)`: `v` of the lane `delta` below; lanes with none
    /// keep their own.
    pub fn shfl_up_sync<T: ShuffleValue>(mask: u32, v: T, delta: u32, width: u32) -> T =
        typed(1, entries = &shfl_family!("shfl_up_sync", "up", "0", s::sim_shfl_up_sync));
    /// `__shfl_down_sync(mask, v, delta, width)`: `v` of the lane `delta` above; lanes with none
    /// keep their own.
    pub fn shfl_down_sync<T: ShuffleValue>(mask: u32, v: T, delta: u32, width: u32) -> T =
        typed(1, entries = &shfl_family!("shfl_down_sync", "down", "31", s::sim_shfl_down_sync));
    /// `__shfl_xor_sync(mask, v, lane_mask, width)`: `v` of lane `lane ^ lane_mask` (butterfly).
    pub fn shfl_xor_sync<T: ShuffleValue>(mask: u32, v: T, lane_mask: u32, width: u32) -> T =
        typed(1, entries = &shfl_family!("shfl_xor_sync", "bfly", "31", s::sim_shfl_xor_sync));
    /// `__match_any_sync(mask, v)` (sm_70): the lanes of `mask` whose `v` equals this lane's.
    pub fn match_any_sync<T: MatchValue>(mask: u32, v: T) -> u32 = typed(1, entries = &[
        match_any!("u32", U32, "32"),
        match_any!("i32", Ty::I32, "32"),
        match_any!("f32", Ty::F32, "32"),
        match_any!("u64", Ty::U64, "64"),
        match_any!("i64", Ty::I64, "64"),
        match_any!("f64", Ty::F64, "64"),
    ]);
    /// `__match_all_sync(mask, v, &pred)` (sm_70): `(mask, true)` when every lane of `mask` has
    /// the same `v`, else `(0, false)`.
    pub fn match_all_sync<T: MatchValue>(mask: u32, v: T) -> (u32, bool) = typed(1, entries = &[
        match_all!("u32", U32, "32"),
        match_all!("i32", Ty::I32, "32"),
        match_all!("f32", Ty::F32, "32"),
        match_all!("u64", Ty::U64, "64"),
        match_all!("i64", Ty::I64, "64"),
        match_all!("f64", Ty::F64, "64"),
    ]);
    /// `__reduce_add_sync(mask, v)` (sm_80): the wrapping sum of `v` over the lanes of `mask`.
    pub fn reduce_add_sync<T: ReduceValue>(mask: u32, v: T) -> T = typed(1, entries = &[
        redux!("reduce_add_sync", "add", "u32", "u32", U32, s::sim_reduce_add_sync),
        redux!("reduce_add_sync", "add", "i32", "s32", Ty::I32, s::sim_reduce_add_sync),
    ]);
    /// `__reduce_min_sync(mask, v)` (sm_80).
    pub fn reduce_min_sync<T: ReduceValue>(mask: u32, v: T) -> T = typed(1, entries = &[
        redux!("reduce_min_sync", "min", "u32", "u32", U32, s::sim_reduce_min_u32_sync),
        redux!("reduce_min_sync", "min", "i32", "s32", Ty::I32, s::sim_reduce_min_i32_sync),
    ]);
    /// `__reduce_max_sync(mask, v)` (sm_80).
    pub fn reduce_max_sync<T: ReduceValue>(mask: u32, v: T) -> T = typed(1, entries = &[
        redux!("reduce_max_sync", "max", "u32", "u32", U32, s::sim_reduce_max_u32_sync),
        redux!("reduce_max_sync", "max", "i32", "s32", Ty::I32, s::sim_reduce_max_i32_sync),
    ]);
    /// `__reduce_and_sync(mask, v)` (sm_80).
    pub fn reduce_and_sync<T: ReduceValue>(mask: u32, v: T) -> T = typed(1, entries = &[
        redux!("reduce_and_sync", "and", "u32", "b32", U32, s::sim_reduce_and_sync),
        redux!("reduce_and_sync", "and", "i32", "b32", Ty::I32, s::sim_reduce_and_sync),
    ]);
    /// `__reduce_or_sync(mask, v)` (sm_80).
    pub fn reduce_or_sync<T: ReduceValue>(mask: u32, v: T) -> T = typed(1, entries = &[
        redux!("reduce_or_sync", "or", "u32", "b32", U32, s::sim_reduce_or_sync),
        redux!("reduce_or_sync", "or", "i32", "b32", Ty::I32, s::sim_reduce_or_sync),
    ]);
    /// `__reduce_xor_sync(mask, v)` (sm_80).
    pub fn reduce_xor_sync<T: ReduceValue>(mask: u32, v: T) -> T = typed(1, entries = &[
        redux!("reduce_xor_sync", "xor", "u32", "b32", U32, s::sim_reduce_xor_sync),
        redux!("reduce_xor_sync", "xor", "i32", "b32", Ty::I32, s::sim_reduce_xor_sync),
    ]);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each family holds one entry per value type of its stub's trait.
    #[test]
    fn families_take_their_traits_types() {
        let types = |es: &[IntrinsicDef]| es.iter().map(|e| e.args[1]).collect::<Vec<_>>();
        for es in [
            shfl_sync::ENTRIES,
            shfl_up_sync::ENTRIES,
            shfl_down_sync::ENTRIES,
            shfl_xor_sync::ENTRIES,
        ] {
            assert_eq!(types(es), SHUFFLE_TYPES);
        }
        for es in [match_any_sync::ENTRIES, match_all_sync::ENTRIES] {
            assert_eq!(types(es), MATCH_TYPES);
        }
        for es in [
            reduce_add_sync::ENTRIES,
            reduce_min_sync::ENTRIES,
            reduce_max_sync::ENTRIES,
            reduce_and_sync::ENTRIES,
            reduce_or_sync::ENTRIES,
            reduce_xor_sync::ENTRIES,
        ] {
            assert_eq!(types(es), REDUCE_TYPES);
        }
    }
}
