//! Device API: half precision (the CUDA math API's "Half Precision" and "Bfloat16 Precision"
//! intrinsics): f16/bf16 arithmetic, comparisons, rounding-mode conversions, and the
//! paired `half2` / `bfloat162` types with their lane-wise operations.
//!
//! Plain operators (`a + b`, `a < b`, `x.to_f32()`) also work on `f16`/`bf16`; these functions add
//! CUDA's names, explicit rounding modes and the paired forms, which compile to one `f16x2` /
//! `bf16x2` instruction. bf16 functions carry a `_bf16` suffix where CUDA overloads one name.

#![allow(non_camel_case_types)]

use half::{bf16, f16};
use kernel_macros::{device, DeviceCopy};

use super::device_only;

/// CUDA's `half2` (`__half2`): two f16 lanes in one 32-bit word, `x` in the low half.
#[repr(C, align(4))]
#[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
pub struct half2 {
    pub x: f16,
    pub y: f16,
}

/// CUDA's `nv_bfloat162`: two bf16 lanes in one 32-bit word, `x` in the low half.
#[repr(C, align(4))]
#[derive(Clone, Copy, Debug, Default, PartialEq, DeviceCopy)]
pub struct bfloat162 {
    pub x: bf16,
    pub y: bf16,
}

impl half2 {
    /// Host-side constructor; in device code write `make_half2(x, y)` or `half2 { x, y }`.
    pub const fn new(x: f16, y: f16) -> Self {
        half2 { x, y }
    }
}
impl bfloat162 {
    /// Host-side constructor; in device code write `make_bfloat162(x, y)` or `bfloat162 { x, y }`.
    pub const fn new(x: bf16, y: bf16) -> Self {
        bfloat162 { x, y }
    }
}

/// `make_half2(x, y)` (`__halves2half2`).
#[device]
pub fn make_half2(x: f16, y: f16) -> half2 {
    half2 { x, y }
}
/// `make_bfloat162(x, y)` (`__halves2bfloat162`).
#[device]
pub fn make_bfloat162(x: bf16, y: bf16) -> bfloat162 {
    bfloat162 { x, y }
}
/// `__float22half2_rn`: both lanes rounded to nearest even.
#[device]
pub fn floats_to_half2_rn(x: f32, y: f32) -> half2 {
    half2 {
        x: f32_to_f16_rn(x),
        y: f32_to_f16_rn(y),
    }
}
/// `__half22float2`: both lanes widened exactly, as `(x, y)`.
#[device]
pub fn half2_to_floats(v: half2) -> (f32, f32) {
    (f16_to_f32(v.x), f16_to_f32(v.y))
}

device_intrinsic!(
    /// `__hadd`: `a + b`, rounded to nearest even.
    pub fn hadd(a: f16, b: f16) -> f16
);
device_intrinsic!(
    /// `__hsub`: `a - b`.
    pub fn hsub(a: f16, b: f16) -> f16
);
device_intrinsic!(
    /// `__hmul`: `a * b`.
    pub fn hmul(a: f16, b: f16) -> f16
);
device_intrinsic!(
    /// `__hfma`: `a * b + c` with one rounding.
    pub fn hfma(a: f16, b: f16, c: f16) -> f16
);
device_intrinsic!(
    /// `__hneg`: `-a`.
    pub fn hneg(a: f16) -> f16
);
device_intrinsic!(
    /// `__habs`: `|a|`.
    pub fn habs(a: f16) -> f16
);
device_intrinsic!(
    /// `__hmin`: the smaller; if one is NaN, the other (sm_80+).
    pub fn hmin(a: f16, b: f16) -> f16
);
device_intrinsic!(
    /// `__hmax`: the larger; if one is NaN, the other (sm_80+).
    pub fn hmax(a: f16, b: f16) -> f16
);
device_intrinsic!(
    /// `__heq`: `a == b` (false on NaN).
    pub fn heq(a: f16, b: f16) -> bool
);
device_intrinsic!(
    /// `__hne`: ordered `a != b` (false on NaN, unlike Rust's `!=`).
    pub fn hne(a: f16, b: f16) -> bool
);
device_intrinsic!(
    /// `__hlt`: `a < b`.
    pub fn hlt(a: f16, b: f16) -> bool
);
device_intrinsic!(
    /// `__hle`: `a <= b`.
    pub fn hle(a: f16, b: f16) -> bool
);
device_intrinsic!(
    /// `__hgt`: `a > b`.
    pub fn hgt(a: f16, b: f16) -> bool
);
device_intrinsic!(
    /// `__hge`: `a >= b`.
    pub fn hge(a: f16, b: f16) -> bool
);
device_intrinsic!(
    /// `__hisnan`.
    pub fn hisnan(a: f16) -> bool
);
device_intrinsic!(
    /// `__hadd` on bf16 (sm_80+).
    pub fn hadd_bf16(a: bf16, b: bf16) -> bf16
);
device_intrinsic!(
    /// `__hsub` on bf16 (sm_80+).
    pub fn hsub_bf16(a: bf16, b: bf16) -> bf16
);
device_intrinsic!(
    /// `__hmul` on bf16 (sm_80+).
    pub fn hmul_bf16(a: bf16, b: bf16) -> bf16
);
device_intrinsic!(
    /// `__hfma` on bf16: one rounding (sm_80+).
    pub fn hfma_bf16(a: bf16, b: bf16, c: bf16) -> bf16
);
device_intrinsic!(
    /// `__hneg` on bf16 (sm_80+).
    pub fn hneg_bf16(a: bf16) -> bf16
);
device_intrinsic!(
    /// `__habs` on bf16 (sm_80+).
    pub fn habs_bf16(a: bf16) -> bf16
);
device_intrinsic!(
    /// `__hmin` on bf16 (sm_80+).
    pub fn hmin_bf16(a: bf16, b: bf16) -> bf16
);
device_intrinsic!(
    /// `__hmax` on bf16 (sm_80+).
    pub fn hmax_bf16(a: bf16, b: bf16) -> bf16
);
device_intrinsic!(
    /// `__float2half_rn`: round to nearest even (what `as`/`f16::from_f32` do).
    pub fn f32_to_f16_rn(x: f32) -> f16
);
device_intrinsic!(
    /// `__float2half_rz`: round towards zero.
    pub fn f32_to_f16_rz(x: f32) -> f16
);
device_intrinsic!(
    /// `__float2half_ru`: round up (towards +inf).
    pub fn f32_to_f16_ru(x: f32) -> f16
);
device_intrinsic!(
    /// `__float2half_rd`: round down (towards -inf).
    pub fn f32_to_f16_rd(x: f32) -> f16
);
device_intrinsic!(
    /// `__float2bfloat16_rn` (sm_80+).
    pub fn f32_to_bf16_rn(x: f32) -> bf16
);
device_intrinsic!(
    /// `__float2bfloat16_rz` (sm_80+).
    pub fn f32_to_bf16_rz(x: f32) -> bf16
);
device_intrinsic!(
    /// `__float2bfloat16_ru` (sm_90+: `cvt.rp.bf16.f32`).
    pub fn f32_to_bf16_ru(x: f32) -> bf16
);
device_intrinsic!(
    /// `__float2bfloat16_rd` (sm_90+: `cvt.rm.bf16.f32`).
    pub fn f32_to_bf16_rd(x: f32) -> bf16
);
device_intrinsic!(
    /// `__half2float` (exact).
    pub fn f16_to_f32(x: f16) -> f32
);
device_intrinsic!(
    /// `__bfloat162float` (exact, sm_80+).
    pub fn bf16_to_f32(x: bf16) -> f32
);

device_intrinsic!(
    /// `__half2int_rn`: round to nearest even; saturating, NaN gives 0.
    pub fn f16_to_i32_rn(x: f16) -> i32
);
device_intrinsic!(
    /// `__half2int_rz`: round towards zero (what `as i32` does); saturating, NaN gives 0.
    pub fn f16_to_i32_rz(x: f16) -> i32
);
device_intrinsic!(
    /// `__half2int_ru`: round up; saturating, NaN gives 0.
    pub fn f16_to_i32_ru(x: f16) -> i32
);
device_intrinsic!(
    /// `__half2int_rd`: round down; saturating, NaN gives 0.
    pub fn f16_to_i32_rd(x: f16) -> i32
);
device_intrinsic!(
    /// `__int2half_rn`: round to nearest even (beyond ±65504: infinity).
    pub fn i32_to_f16_rn(x: i32) -> f16
);
device_intrinsic!(
    /// `__int2half_rz`: round towards zero (beyond ±65504: ±65504).
    pub fn i32_to_f16_rz(x: i32) -> f16
);
device_intrinsic!(
    /// `__int2half_ru`: round up.
    pub fn i32_to_f16_ru(x: i32) -> f16
);
device_intrinsic!(
    /// `__int2half_rd`: round down.
    pub fn i32_to_f16_rd(x: i32) -> f16
);

// Paired operations: public wrappers over the lane-flattened table entries (`__hadd2`...).

device_intrinsic!(
    #[doc(hidden)]
    /// The lanes of [`hadd2`] as separate values (the table entry's flat signature).
    pub fn hadd2_lanes(ax: f16, ay: f16, bx: f16, by: f16) -> (f16, f16)
);
/// `__hadd2`: lane-wise `a + b`.
#[device]
pub fn hadd2(a: half2, b: half2) -> half2 {
    let (x, y) = hadd2_lanes(a.x, a.y, b.x, b.y);
    half2 { x, y }
}
device_intrinsic!(
    #[doc(hidden)]
    /// The lanes of [`hsub2`] as separate values (the table entry's flat signature).
    pub fn hsub2_lanes(ax: f16, ay: f16, bx: f16, by: f16) -> (f16, f16)
);
/// `__hsub2`: lane-wise `a - b`.
#[device]
pub fn hsub2(a: half2, b: half2) -> half2 {
    let (x, y) = hsub2_lanes(a.x, a.y, b.x, b.y);
    half2 { x, y }
}
device_intrinsic!(
    #[doc(hidden)]
    /// The lanes of [`hmul2`] as separate values (the table entry's flat signature).
    pub fn hmul2_lanes(ax: f16, ay: f16, bx: f16, by: f16) -> (f16, f16)
);
/// `__hmul2`: lane-wise `a * b`.
#[device]
pub fn hmul2(a: half2, b: half2) -> half2 {
    let (x, y) = hmul2_lanes(a.x, a.y, b.x, b.y);
    half2 { x, y }
}
device_intrinsic!(
    #[doc(hidden)]
    /// The lanes of [`hmin2`] as separate values (the table entry's flat signature).
    pub fn hmin2_lanes(ax: f16, ay: f16, bx: f16, by: f16) -> (f16, f16)
);
/// `__hmin2`: lane-wise minimum (NaN loses; sm_80+).
#[device]
pub fn hmin2(a: half2, b: half2) -> half2 {
    let (x, y) = hmin2_lanes(a.x, a.y, b.x, b.y);
    half2 { x, y }
}
device_intrinsic!(
    #[doc(hidden)]
    /// The lanes of [`hmax2`] as separate values (the table entry's flat signature).
    pub fn hmax2_lanes(ax: f16, ay: f16, bx: f16, by: f16) -> (f16, f16)
);
/// `__hmax2`: lane-wise maximum (NaN loses; sm_80+).
#[device]
pub fn hmax2(a: half2, b: half2) -> half2 {
    let (x, y) = hmax2_lanes(a.x, a.y, b.x, b.y);
    half2 { x, y }
}
device_intrinsic!(
    #[doc(hidden)]
    /// The lanes of [`hfma2`] as separate values (the table entry's flat signature).
    pub fn hfma2_lanes(ax: f16, ay: f16, bx: f16, by: f16, cx: f16, cy: f16) -> (f16, f16)
);
/// `__hfma2`: lane-wise `a * b + c`, one rounding.
#[device]
pub fn hfma2(a: half2, b: half2, c: half2) -> half2 {
    let (x, y) = hfma2_lanes(a.x, a.y, b.x, b.y, c.x, c.y);
    half2 { x, y }
}
device_intrinsic!(
    #[doc(hidden)]
    /// The lanes of [`hneg2`] as separate values (the table entry's flat signature).
    pub fn hneg2_lanes(ax: f16, ay: f16) -> (f16, f16)
);
/// `__hneg2`: lane-wise `-a`.
#[device]
pub fn hneg2(a: half2) -> half2 {
    let (x, y) = hneg2_lanes(a.x, a.y);
    half2 { x, y }
}
device_intrinsic!(
    #[doc(hidden)]
    /// The lanes of [`habs2`] as separate values (the table entry's flat signature).
    pub fn habs2_lanes(ax: f16, ay: f16) -> (f16, f16)
);
/// `__habs2`: lane-wise `|a|`.
#[device]
pub fn habs2(a: half2) -> half2 {
    let (x, y) = habs2_lanes(a.x, a.y);
    half2 { x, y }
}
device_intrinsic!(
    #[doc(hidden)]
    /// The lanes of [`heq2`] as separate values (the table entry's flat signature).
    pub fn heq2_lanes(ax: f16, ay: f16, bx: f16, by: f16) -> (f16, f16)
);
/// `__heq2`: lane-wise `a == b` as 1.0 / 0.0.
#[device]
pub fn heq2(a: half2, b: half2) -> half2 {
    let (x, y) = heq2_lanes(a.x, a.y, b.x, b.y);
    half2 { x, y }
}
device_intrinsic!(
    #[doc(hidden)]
    /// The lanes of [`hne2`] as separate values (the table entry's flat signature).
    pub fn hne2_lanes(ax: f16, ay: f16, bx: f16, by: f16) -> (f16, f16)
);
/// `__hne2`: lane-wise ordered `a != b` as 1.0 / 0.0.
#[device]
pub fn hne2(a: half2, b: half2) -> half2 {
    let (x, y) = hne2_lanes(a.x, a.y, b.x, b.y);
    half2 { x, y }
}
device_intrinsic!(
    #[doc(hidden)]
    /// The lanes of [`hlt2`] as separate values (the table entry's flat signature).
    pub fn hlt2_lanes(ax: f16, ay: f16, bx: f16, by: f16) -> (f16, f16)
);
/// `__hlt2`: lane-wise `a < b` as 1.0 / 0.0.
#[device]
pub fn hlt2(a: half2, b: half2) -> half2 {
    let (x, y) = hlt2_lanes(a.x, a.y, b.x, b.y);
    half2 { x, y }
}
device_intrinsic!(
    #[doc(hidden)]
    /// The lanes of [`hle2`] as separate values (the table entry's flat signature).
    pub fn hle2_lanes(ax: f16, ay: f16, bx: f16, by: f16) -> (f16, f16)
);
/// `__hle2`: lane-wise `a <= b` as 1.0 / 0.0.
#[device]
pub fn hle2(a: half2, b: half2) -> half2 {
    let (x, y) = hle2_lanes(a.x, a.y, b.x, b.y);
    half2 { x, y }
}
device_intrinsic!(
    #[doc(hidden)]
    /// The lanes of [`hgt2`] as separate values (the table entry's flat signature).
    pub fn hgt2_lanes(ax: f16, ay: f16, bx: f16, by: f16) -> (f16, f16)
);
/// `__hgt2`: lane-wise `a > b` as 1.0 / 0.0.
#[device]
pub fn hgt2(a: half2, b: half2) -> half2 {
    let (x, y) = hgt2_lanes(a.x, a.y, b.x, b.y);
    half2 { x, y }
}
device_intrinsic!(
    #[doc(hidden)]
    /// The lanes of [`hge2`] as separate values (the table entry's flat signature).
    pub fn hge2_lanes(ax: f16, ay: f16, bx: f16, by: f16) -> (f16, f16)
);
/// `__hge2`: lane-wise `a >= b` as 1.0 / 0.0.
#[device]
pub fn hge2(a: half2, b: half2) -> half2 {
    let (x, y) = hge2_lanes(a.x, a.y, b.x, b.y);
    half2 { x, y }
}
device_intrinsic!(
    #[doc(hidden)]
    /// The lanes of [`hadd2_bf16`] as separate values (the table entry's flat signature).
    pub fn hadd2_bf16_lanes(ax: bf16, ay: bf16, bx: bf16, by: bf16) -> (bf16, bf16)
);
/// `__hadd2` on `bfloat162` (sm_80+).
#[device]
pub fn hadd2_bf16(a: bfloat162, b: bfloat162) -> bfloat162 {
    let (x, y) = hadd2_bf16_lanes(a.x, a.y, b.x, b.y);
    bfloat162 { x, y }
}
device_intrinsic!(
    #[doc(hidden)]
    /// The lanes of [`hsub2_bf16`] as separate values (the table entry's flat signature).
    pub fn hsub2_bf16_lanes(ax: bf16, ay: bf16, bx: bf16, by: bf16) -> (bf16, bf16)
);
/// `__hsub2` on `bfloat162` (sm_80+).
#[device]
pub fn hsub2_bf16(a: bfloat162, b: bfloat162) -> bfloat162 {
    let (x, y) = hsub2_bf16_lanes(a.x, a.y, b.x, b.y);
    bfloat162 { x, y }
}
device_intrinsic!(
    #[doc(hidden)]
    /// The lanes of [`hmul2_bf16`] as separate values (the table entry's flat signature).
    pub fn hmul2_bf16_lanes(ax: bf16, ay: bf16, bx: bf16, by: bf16) -> (bf16, bf16)
);
/// `__hmul2` on `bfloat162` (sm_80+).
#[device]
pub fn hmul2_bf16(a: bfloat162, b: bfloat162) -> bfloat162 {
    let (x, y) = hmul2_bf16_lanes(a.x, a.y, b.x, b.y);
    bfloat162 { x, y }
}
device_intrinsic!(
    #[doc(hidden)]
    /// The lanes of [`hmin2_bf16`] as separate values (the table entry's flat signature).
    pub fn hmin2_bf16_lanes(ax: bf16, ay: bf16, bx: bf16, by: bf16) -> (bf16, bf16)
);
/// `__hmin2` on `bfloat162` (sm_80+).
#[device]
pub fn hmin2_bf16(a: bfloat162, b: bfloat162) -> bfloat162 {
    let (x, y) = hmin2_bf16_lanes(a.x, a.y, b.x, b.y);
    bfloat162 { x, y }
}
device_intrinsic!(
    #[doc(hidden)]
    /// The lanes of [`hmax2_bf16`] as separate values (the table entry's flat signature).
    pub fn hmax2_bf16_lanes(ax: bf16, ay: bf16, bx: bf16, by: bf16) -> (bf16, bf16)
);
/// `__hmax2` on `bfloat162` (sm_80+).
#[device]
pub fn hmax2_bf16(a: bfloat162, b: bfloat162) -> bfloat162 {
    let (x, y) = hmax2_bf16_lanes(a.x, a.y, b.x, b.y);
    bfloat162 { x, y }
}
device_intrinsic!(
    #[doc(hidden)]
    /// The lanes of [`hfma2_bf16`] as separate values (the table entry's flat signature).
    pub fn hfma2_bf16_lanes(ax: bf16, ay: bf16, bx: bf16, by: bf16, cx: bf16, cy: bf16) -> (bf16, bf16)
);
/// `__hfma2` on `bfloat162` (sm_80+).
#[device]
pub fn hfma2_bf16(a: bfloat162, b: bfloat162, c: bfloat162) -> bfloat162 {
    let (x, y) = hfma2_bf16_lanes(a.x, a.y, b.x, b.y, c.x, c.y);
    bfloat162 { x, y }
}
device_intrinsic!(
    #[doc(hidden)]
    /// The lanes of [`hneg2_bf16`] as separate values (the table entry's flat signature).
    pub fn hneg2_bf16_lanes(ax: bf16, ay: bf16) -> (bf16, bf16)
);
/// `__hneg2` on `bfloat162` (sm_80+).
#[device]
pub fn hneg2_bf16(a: bfloat162) -> bfloat162 {
    let (x, y) = hneg2_bf16_lanes(a.x, a.y);
    bfloat162 { x, y }
}
device_intrinsic!(
    #[doc(hidden)]
    /// The lanes of [`habs2_bf16`] as separate values (the table entry's flat signature).
    pub fn habs2_bf16_lanes(ax: bf16, ay: bf16) -> (bf16, bf16)
);
/// `__habs2` on `bfloat162` (sm_80+).
#[device]
pub fn habs2_bf16(a: bfloat162) -> bfloat162 {
    let (x, y) = habs2_bf16_lanes(a.x, a.y);
    bfloat162 { x, y }
}
