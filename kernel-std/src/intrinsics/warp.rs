//! Warp vote, match, reduce and shuffle collectives, `__syncwarp` (guide B.19-B.22).
//!
//! The value-generic collectives (`shfl*_sync`, `match_*_sync`, `reduce_*_sync`) have one entry per
//! value type, named `family.type` (`shfl_sync.f32`); the front end picks the entry from the type of
//! the value argument (see [`super::typed_family`]). Shuffles move 32 bits: 64-bit values take two
//! shuffles, 16-bit values ride in the low half of one.

use super::{Class, IntrinsicDef};
use crate::intrinsics::collectives as s;
use kernel_ir::ir::Ty;

const U32: Ty = Ty::U32;
const B: Ty = Ty::Bool;

/// The families whose entries are picked by the type of argument 1 (the value).
pub(super) const FAMILIES: &[&str] = &[
    "shfl_sync",
    "shfl_up_sync",
    "shfl_down_sync",
    "shfl_xor_sync",
    "match_any_sync",
    "match_all_sync",
    "reduce_add_sync",
    "reduce_min_sync",
    "reduce_max_sync",
    "reduce_and_sync",
    "reduce_or_sync",
    "reduce_xor_sync",
];

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

static SHFL: [[IntrinsicDef; 8]; 4] = [
    shfl_family!("shfl_sync", "idx", "31", s::sim_shfl_sync),
    shfl_family!("shfl_up_sync", "up", "0", s::sim_shfl_up_sync),
    shfl_family!("shfl_down_sync", "down", "31", s::sim_shfl_down_sync),
    shfl_family!("shfl_xor_sync", "bfly", "31", s::sim_shfl_xor_sync),
];

static MATCH: [IntrinsicDef; 12] = [
    match_any!("u32", U32, "32"),
    match_any!("i32", Ty::I32, "32"),
    match_any!("f32", Ty::F32, "32"),
    match_any!("u64", Ty::U64, "64"),
    match_any!("i64", Ty::I64, "64"),
    match_any!("f64", Ty::F64, "64"),
    match_all!("u32", U32, "32"),
    match_all!("i32", Ty::I32, "32"),
    match_all!("f32", Ty::F32, "32"),
    match_all!("u64", Ty::U64, "64"),
    match_all!("i64", Ty::I64, "64"),
    match_all!("f64", Ty::F64, "64"),
];

static REDUX: [IntrinsicDef; 12] = [
    redux!(
        "reduce_add_sync",
        "add",
        "u32",
        "u32",
        U32,
        s::sim_reduce_add_sync
    ),
    redux!(
        "reduce_add_sync",
        "add",
        "i32",
        "s32",
        Ty::I32,
        s::sim_reduce_add_sync
    ),
    redux!(
        "reduce_min_sync",
        "min",
        "u32",
        "u32",
        U32,
        s::sim_reduce_min_u32_sync
    ),
    redux!(
        "reduce_min_sync",
        "min",
        "i32",
        "s32",
        Ty::I32,
        s::sim_reduce_min_i32_sync
    ),
    redux!(
        "reduce_max_sync",
        "max",
        "u32",
        "u32",
        U32,
        s::sim_reduce_max_u32_sync
    ),
    redux!(
        "reduce_max_sync",
        "max",
        "i32",
        "s32",
        Ty::I32,
        s::sim_reduce_max_i32_sync
    ),
    redux!(
        "reduce_and_sync",
        "and",
        "u32",
        "b32",
        U32,
        s::sim_reduce_and_sync
    ),
    redux!(
        "reduce_and_sync",
        "and",
        "i32",
        "b32",
        Ty::I32,
        s::sim_reduce_and_sync
    ),
    redux!(
        "reduce_or_sync",
        "or",
        "u32",
        "b32",
        U32,
        s::sim_reduce_or_sync
    ),
    redux!(
        "reduce_or_sync",
        "or",
        "i32",
        "b32",
        Ty::I32,
        s::sim_reduce_or_sync
    ),
    redux!(
        "reduce_xor_sync",
        "xor",
        "u32",
        "b32",
        U32,
        s::sim_reduce_xor_sync
    ),
    redux!(
        "reduce_xor_sync",
        "xor",
        "i32",
        "b32",
        Ty::I32,
        s::sim_reduce_xor_sync
    ),
];

static VOTE: [IntrinsicDef; 5] = [
    warp!(
        "all_sync",
        &[U32, B],
        &[B],
        70,
        "vote.sync.all.pred {d0}, {a1}, {a0}",
        s::sim_all_sync
    ),
    warp!(
        "any_sync",
        &[U32, B],
        &[B],
        70,
        "vote.sync.any.pred {d0}, {a1}, {a0}",
        s::sim_any_sync
    ),
    warp!(
        "ballot_sync",
        &[U32, B],
        &[U32],
        70,
        "vote.sync.ballot.b32 {d0}, {a1}, {a0}",
        s::sim_ballot_sync
    ),
    warp!(
        "activemask",
        &[],
        &[U32],
        70,
        "activemask.b32 {d0}",
        s::sim_activemask
    ),
    warp!(
        "sync_warp",
        &[U32],
        &[],
        70,
        "bar.warp.sync {a0}",
        s::sim_sync_warp
    ),
];

/// This category's entries (appended to the table in `mod.rs`'s order).
pub(super) static ENTRIES: std::sync::LazyLock<Vec<IntrinsicDef>> =
    std::sync::LazyLock::new(|| {
        let mut v = VOTE.to_vec();
        v.extend(SHFL.iter().flatten());
        v.extend(MATCH.iter());
        v.extend(REDUX.iter());
        v
    });
