//! Half precision (the CUDA math API's "Half Precision" and "Bfloat16 Precision" intrinsics):
//! f16/bf16 arithmetic and comparisons (`__hadd`, `__hfma`, `__heq`...), conversions with explicit
//! rounding modes (`__float2half_rz`...), and the lane-wise operations of the paired `half2` /
//! `bfloat162` types (`__hadd2`...), each one `f16x2` / `bf16x2` instruction.
//!
//! Plain operators (`a + b`, `a < b`, `x.to_f32()`) also work on `f16`/`bf16`; these functions add
//! CUDA's names, explicit rounding modes and the paired forms. bf16 functions carry a `_bf16`
//! suffix where CUDA overloads one name.
//!
//! A pair travels as two 16-bit registers (the IR has no 32-bit half vectors): its entries take
//! the lanes (`hadd2_lanes`), and templates pack them with `mov.b32 %r, {lo, hi}` into PTX's
//! `f16x2`/`bf16x2` form and unpack the result the same way. bf16 addition and multiplication are
//! `fma.rn.bf16` with 1.0 or -0.0, as CUDA's headers do before sm_90, so every entry here
//! assembles for sm_80.
//!
//! Simulator semantics: f32 arithmetic rounded once to the 16-bit format, which is correctly
//! rounded because f32's 24-bit significand exceeds twice the formats' plus two (double rounding
//! is innocuous); fma goes through f64 for the same reason.

use half::{bf16, f16};
use kernel_ir::ir::Ty;
use kernel_macros::device;

use super::SimEnv;
use crate::types::{bfloat162, half2};

const H: Ty = Ty::F16;
const B: Ty = Ty::BF16;

fn h(b: u64) -> f32 {
    f16::from_bits(b as u16).to_f32()
}
fn hb(x: f32) -> u64 {
    f16::from_f32(x).to_bits() as u64
}
fn hb64(x: f64) -> u64 {
    kernel_ir::float16::f16_from_f64(x) as u64
}
fn b(b: u64) -> f32 {
    bf16::from_bits(b as u16).to_f32()
}
fn bb(x: f32) -> u64 {
    bf16::from_f32(x).to_bits() as u64
}
fn bb64(x: f64) -> u64 {
    kernel_ir::float16::bf16_from_f64(x) as u64
}

/// How an f32 is rounded to a 16-bit format.
#[derive(Clone, Copy)]
enum Round {
    Zero,
    Up,
    Down,
}

/// The 16-bit neighbour of `bits` towards +inf (`up`) or -inf; both formats are sign-magnitude.
fn step(bits: u16, up: bool) -> u16 {
    let neg = bits & 0x8000 != 0;
    match (bits, up) {
        (0x8000, true) => 0x0001,
        (0x0000, false) => 0x8001,
        _ if neg == up => bits - 1,
        _ => bits + 1,
    }
}

/// Rounds `x` to a 16-bit format in `mode`: its round-to-nearest result, moved one step when that
/// went the wrong way. `to` rounds to nearest; `back` widens exactly.
fn directed(x: f32, mode: Round, to: fn(f32) -> u64, back: fn(u64) -> f32) -> u64 {
    let r = to(x) as u16;
    if x.is_nan() {
        return r as u64;
    }
    let v = back(r as u64);
    let fix = match mode {
        Round::Zero => (v.abs() > x.abs()).then_some(v < 0.0),
        Round::Up => (v < x).then_some(true),
        Round::Down => (v > x).then_some(false),
    };
    match fix {
        Some(up) => step(r, up) as u64,
        None => r as u64,
    }
}

/// `set.cmp.f16x2` lanes: 1.0 when true.
fn one_if(c: bool) -> u64 {
    hb(if c { 1.0 } else { 0.0 })
}

/// The PTX of a pair entry (`<name>_lanes`): the operands packed, one `f16x2`/`bf16x2`
/// instruction on `%fcp{uid}_a/_b` into `%fcp{uid}_d`, unpacked into `{d0}, {d1}`.
macro_rules! pair_ptx {
    (2, $op:literal) => {
        concat!(
            ".reg .b32 %fcp{uid}_a; .reg .b32 %fcp{uid}_b; .reg .b32 %fcp{uid}_d; ",
            "mov.b32 %fcp{uid}_a, {{{a0}, {a1}}}; mov.b32 %fcp{uid}_b, {{{a2}, {a3}}}; ",
            $op,
            "; mov.b32 {{{d0}, {d1}}}, %fcp{uid}_d"
        )
    };
    (1, $op:literal) => {
        concat!(
            ".reg .b32 %fcp{uid}_a; .reg .b32 %fcp{uid}_d; ",
            "mov.b32 %fcp{uid}_a, {{{a0}, {a1}}}; ",
            $op,
            "; mov.b32 {{{d0}, {d1}}}, %fcp{uid}_d"
        )
    };
    (3, $op:literal) => {
        concat!(
            ".reg .b32 %fcp{uid}_a; .reg .b32 %fcp{uid}_b; .reg .b32 %fcp{uid}_c; .reg .b32 %fcp{uid}_d; ",
            "mov.b32 %fcp{uid}_a, {{{a0}, {a1}}}; mov.b32 %fcp{uid}_b, {{{a2}, {a3}}}; ",
            "mov.b32 %fcp{uid}_c, {{{a4}, {a5}}}; ",
            $op,
            "; mov.b32 {{{d0}, {d1}}}, %fcp{uid}_d"
        )
    };
}

/// The simulator semantics of a pair entry whose lanes follow `$f` (on lane bits; `pair2_sim`:
/// binary, `pair1_sim`: unary, `pair3_sim`: ternary).
macro_rules! pair2_sim {
    ($f:expr) => {
        |_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]| {
            let f: fn(u64, u64) -> u64 = $f;
            o[0] = f(a[0], a[2]);
            o[1] = f(a[1], a[3]);
        }
    };
}
macro_rules! pair1_sim {
    ($f:expr) => {
        |_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]| {
            let f: fn(u64) -> u64 = $f;
            o[0] = f(a[0]);
            o[1] = f(a[1]);
        }
    };
}
macro_rules! pair3_sim {
    ($f:expr) => {
        |_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]| {
            let f: fn(u64, u64, u64) -> u64 = $f;
            o[0] = f(a[0], a[2], a[4]);
            o[1] = f(a[1], a[3], a[5]);
        }
    };
}

fn fma_h(x: u64, y: u64, z: u64) -> u64 {
    hb64((h(x) as f64).mul_add(h(y) as f64, h(z) as f64))
}
fn fma_b(x: u64, y: u64, z: u64) -> u64 {
    bb64((b(x) as f64).mul_add(b(y) as f64, b(z) as f64))
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

intrinsics! {
    table TABLE;

    /// `__hadd`: `a + b`, rounded to nearest even.
    pub fn hadd(a: f16, b: f16) -> f16 =
        pure(70, "add.rn.f16 {d0}, {a0}, {a1}", |_, a, o| o[0] = hb(h(a[0]) + h(a[1])));
    /// `__hsub`: `a - b`.
    pub fn hsub(a: f16, b: f16) -> f16 =
        pure(70, "sub.rn.f16 {d0}, {a0}, {a1}", |_, a, o| o[0] = hb(h(a[0]) - h(a[1])));
    /// `__hmul`: `a * b`.
    pub fn hmul(a: f16, b: f16) -> f16 =
        pure(70, "mul.rn.f16 {d0}, {a0}, {a1}", |_, a, o| o[0] = hb(h(a[0]) * h(a[1])));
    /// `__hfma`: `a * b + c` with one rounding.
    pub fn hfma(a: f16, b: f16, c: f16) -> f16 =
        pure(70, "fma.rn.f16 {d0}, {a0}, {a1}, {a2}", |_, a, o| o[0] = fma_h(a[0], a[1], a[2]));
    /// `__hneg`: `-a`.
    pub fn hneg(a: f16) -> f16 = pure(70, "neg.f16 {d0}, {a0}", |_, a, o| o[0] = a[0] ^ 0x8000);
    /// `__habs`: `|a|`.
    pub fn habs(a: f16) -> f16 = pure(70, "abs.f16 {d0}, {a0}", |_, a, o| o[0] = a[0] & 0x7fff);
    /// `__hmin`: the smaller; if one is NaN, the other (sm_80+).
    pub fn hmin(a: f16, b: f16) -> f16 =
        pure(80, "min.f16 {d0}, {a0}, {a1}", |_, a, o| o[0] = hb(h(a[0]).min(h(a[1]))));
    /// `__hmax`: the larger; if one is NaN, the other (sm_80+).
    pub fn hmax(a: f16, b: f16) -> f16 =
        pure(80, "max.f16 {d0}, {a0}, {a1}", |_, a, o| o[0] = hb(h(a[0]).max(h(a[1]))));
    /// `__heq`: `a == b` (false on NaN).
    pub fn heq(a: f16, b: f16) -> bool =
        pure(70, "setp.eq.f16 {d0}, {a0}, {a1}", |_, a, o| o[0] = (h(a[0]) == h(a[1])) as u64);
    /// `__hne`: ordered `a != b` (false on NaN, unlike Rust's `!=`).
    pub fn hne(a: f16, b: f16) -> bool = pure(
        70,
        "setp.ne.f16 {d0}, {a0}, {a1}",
        |_, a, o| {
            let (x, y) = (h(a[0]), h(a[1]));
            o[0] = (!x.is_nan() && !y.is_nan() && x != y) as u64
        }
    );
    /// `__hlt`: `a < b`.
    pub fn hlt(a: f16, b: f16) -> bool =
        pure(70, "setp.lt.f16 {d0}, {a0}, {a1}", |_, a, o| o[0] = (h(a[0]) < h(a[1])) as u64);
    /// `__hle`: `a <= b`.
    pub fn hle(a: f16, b: f16) -> bool =
        pure(70, "setp.le.f16 {d0}, {a0}, {a1}", |_, a, o| o[0] = (h(a[0]) <= h(a[1])) as u64);
    /// `__hgt`: `a > b`.
    pub fn hgt(a: f16, b: f16) -> bool =
        pure(70, "setp.gt.f16 {d0}, {a0}, {a1}", |_, a, o| o[0] = (h(a[0]) > h(a[1])) as u64);
    /// `__hge`: `a >= b`.
    pub fn hge(a: f16, b: f16) -> bool =
        pure(70, "setp.ge.f16 {d0}, {a0}, {a1}", |_, a, o| o[0] = (h(a[0]) >= h(a[1])) as u64);
    /// `__hisnan`.
    pub fn hisnan(a: f16) -> bool =
        pure(70, "setp.nan.f16 {d0}, {a0}, {a0}", |_, a, o| o[0] = h(a[0]).is_nan() as u64);
    /// `__hadd` on bf16 (sm_80+).
    pub fn hadd_bf16(a: bf16, b: bf16) -> bf16 = pure(
        80,
        ".reg .b16 %fco{uid}; mov.b16 %fco{uid}, 0x3F80; fma.rn.bf16 {d0}, {a0}, %fco{uid}, {a1}",
        |_, a, o| o[0] = bb(b(a[0]) + b(a[1]))
    );
    /// `__hsub` on bf16 (sm_80+).
    pub fn hsub_bf16(a: bf16, b: bf16) -> bf16 = pure(
        80,
        ".reg .b16 %fco{uid}; mov.b16 %fco{uid}, 0xBF80; fma.rn.bf16 {d0}, {a1}, %fco{uid}, {a0}",
        |_, a, o| o[0] = bb(b(a[0]) - b(a[1]))
    );
    /// `__hmul` on bf16 (sm_80+).
    pub fn hmul_bf16(a: bf16, b: bf16) -> bf16 = pure(
        80,
        ".reg .b16 %fco{uid}; mov.b16 %fco{uid}, 0x8000; fma.rn.bf16 {d0}, {a0}, {a1}, %fco{uid}",
        |_, a, o| o[0] = bb(b(a[0]) * b(a[1]))
    );
    /// `__hfma` on bf16: one rounding (sm_80+).
    pub fn hfma_bf16(a: bf16, b: bf16, c: bf16) -> bf16 =
        pure(80, "fma.rn.bf16 {d0}, {a0}, {a1}, {a2}", |_, a, o| o[0] = fma_b(a[0], a[1], a[2]));
    /// `__hneg` on bf16 (sm_80+).
    pub fn hneg_bf16(a: bf16) -> bf16 =
        pure(80, "neg.bf16 {d0}, {a0}", |_, a, o| o[0] = a[0] ^ 0x8000);
    /// `__habs` on bf16 (sm_80+).
    pub fn habs_bf16(a: bf16) -> bf16 =
        pure(80, "abs.bf16 {d0}, {a0}", |_, a, o| o[0] = a[0] & 0x7fff);
    /// `__hmin` on bf16 (sm_80+).
    pub fn hmin_bf16(a: bf16, b: bf16) -> bf16 =
        pure(80, "min.bf16 {d0}, {a0}, {a1}", |_, a, o| o[0] = bb(b(a[0]).min(b(a[1]))));
    /// `__hmax` on bf16 (sm_80+).
    pub fn hmax_bf16(a: bf16, b: bf16) -> bf16 =
        pure(80, "max.bf16 {d0}, {a0}, {a1}", |_, a, o| o[0] = bb(b(a[0]).max(b(a[1]))));
    /// `__float2half_rn`: round to nearest even (what `as`/`f16::from_f32` do).
    pub fn f32_to_f16_rn(x: f32) -> f16 =
        pure(70, "cvt.rn.f16.f32 {d0}, {a0}", |_, a, o| o[0] = hb(f32::from_bits(a[0] as u32)));
    /// `__float2half_rz`: round towards zero.
    pub fn f32_to_f16_rz(x: f32) -> f16 = pure(
        70,
        "cvt.rz.f16.f32 {d0}, {a0}",
        |_, a, o| { o[0] = directed(f32::from_bits(a[0] as u32), Round::Zero, hb, h) }
    );
    /// `__float2half_ru`: round up (towards +inf).
    pub fn f32_to_f16_ru(x: f32) -> f16 = pure(
        70,
        "cvt.rp.f16.f32 {d0}, {a0}",
        |_, a, o| { o[0] = directed(f32::from_bits(a[0] as u32), Round::Up, hb, h) }
    );
    /// `__float2half_rd`: round down (towards -inf).
    pub fn f32_to_f16_rd(x: f32) -> f16 = pure(
        70,
        "cvt.rm.f16.f32 {d0}, {a0}",
        |_, a, o| { o[0] = directed(f32::from_bits(a[0] as u32), Round::Down, hb, h) }
    );
    /// `__float2bfloat16_rn` (sm_80+).
    pub fn f32_to_bf16_rn(x: f32) -> bf16 =
        pure(80, "cvt.rn.bf16.f32 {d0}, {a0}", |_, a, o| o[0] = bb(f32::from_bits(a[0] as u32)));
    /// `__float2bfloat16_rz` (sm_80+).
    pub fn f32_to_bf16_rz(x: f32) -> bf16 = pure(
        80,
        "cvt.rz.bf16.f32 {d0}, {a0}",
        |_, a, o| { o[0] = directed(f32::from_bits(a[0] as u32), Round::Zero, bb, b) }
    );
    /// `__float2bfloat16_ru` (sm_90+: `cvt.rp.bf16.f32`).
    pub fn f32_to_bf16_ru(x: f32) -> bf16 = pure(
        90,
        "cvt.rp.bf16.f32 {d0}, {a0}",
        |_, a, o| { o[0] = directed(f32::from_bits(a[0] as u32), Round::Up, bb, b) }
    );
    /// `__float2bfloat16_rd` (sm_90+: `cvt.rm.bf16.f32`).
    pub fn f32_to_bf16_rd(x: f32) -> bf16 = pure(
        90,
        "cvt.rm.bf16.f32 {d0}, {a0}",
        |_, a, o| { o[0] = directed(f32::from_bits(a[0] as u32), Round::Down, bb, b) }
    );
    /// `__half2float` (exact).
    pub fn f16_to_f32(x: f16) -> f32 =
        pure(70, "cvt.f32.f16 {d0}, {a0}", |_, a, o| o[0] = h(a[0]).to_bits() as u64);
    /// `__bfloat162float` (exact, sm_80+).
    pub fn bf16_to_f32(x: bf16) -> f32 =
        pure(80, "cvt.f32.bf16 {d0}, {a0}", |_, a, o| o[0] = b(a[0]).to_bits() as u64);
    /// `__half2int_rn`: round to nearest even; saturating, NaN gives 0.
    pub fn f16_to_i32_rn(x: f16) -> i32 = pure(
        70,
        "cvt.rni.s32.f16 {d0}, {a0}",
        |_, a, o| o[0] = h(a[0]).round_ties_even() as i32 as u32 as u64
    );
    /// `__half2int_rz`: round towards zero (what `as i32` does); saturating, NaN gives 0.
    pub fn f16_to_i32_rz(x: f16) -> i32 = pure(
        70,
        "cvt.rzi.s32.f16 {d0}, {a0}",
        |_, a, o| o[0] = h(a[0]).trunc() as i32 as u32 as u64
    );
    /// `__half2int_ru`: round up; saturating, NaN gives 0.
    pub fn f16_to_i32_ru(x: f16) -> i32 = pure(
        70,
        "cvt.rpi.s32.f16 {d0}, {a0}",
        |_, a, o| o[0] = h(a[0]).ceil() as i32 as u32 as u64
    );
    /// `__half2int_rd`: round down; saturating, NaN gives 0.
    pub fn f16_to_i32_rd(x: f16) -> i32 = pure(
        70,
        "cvt.rmi.s32.f16 {d0}, {a0}",
        |_, a, o| o[0] = h(a[0]).floor() as i32 as u32 as u64
    );
    /// `__int2half_rn`: round to nearest even (beyond ±65504: infinity).
    pub fn i32_to_f16_rn(x: i32) -> f16 =
        pure(70, "cvt.rn.f16.s32 {d0}, {a0}", |_, a, o| o[0] = hb(a[0] as u32 as i32 as f32));
    /// `__int2half_rz`: round towards zero (beyond ±65504: ±65504).
    pub fn i32_to_f16_rz(x: i32) -> f16 = pure(
        70,
        "cvt.rz.f16.s32 {d0}, {a0}",
        |_, a, o| { o[0] = directed(a[0] as u32 as i32 as f32, Round::Zero, hb, h) }
    );
    /// `__int2half_ru`: round up.
    pub fn i32_to_f16_ru(x: i32) -> f16 = pure(
        70,
        "cvt.rp.f16.s32 {d0}, {a0}",
        |_, a, o| { o[0] = directed(a[0] as u32 as i32 as f32, Round::Up, hb, h) }
    );
    /// `__int2half_rd`: round down.
    pub fn i32_to_f16_rd(x: i32) -> f16 = pure(
        70,
        "cvt.rm.f16.s32 {d0}, {a0}",
        |_, a, o| { o[0] = directed(a[0] as u32 as i32 as f32, Round::Down, hb, h) }
    );
    /// `__hadd2`: lane-wise `a + b`.
    pub fn hadd2(a: half2, b: half2) -> half2 = lanes(
        70,
        [H, H, H, H] -> [H, H],
        pair_ptx!(2, "add.rn.f16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b"),
        pair2_sim!(|x, y| hb(h(x) + h(y)))
    );
    /// `__hsub2`: lane-wise `a - b`.
    pub fn hsub2(a: half2, b: half2) -> half2 = lanes(
        70,
        [H, H, H, H] -> [H, H],
        pair_ptx!(2, "sub.rn.f16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b"),
        pair2_sim!(|x, y| hb(h(x) - h(y)))
    );
    /// `__hmul2`: lane-wise `a * b`.
    pub fn hmul2(a: half2, b: half2) -> half2 = lanes(
        70,
        [H, H, H, H] -> [H, H],
        pair_ptx!(2, "mul.rn.f16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b"),
        pair2_sim!(|x, y| hb(h(x) * h(y)))
    );
    /// `__hmin2`: lane-wise minimum (NaN loses; sm_80+).
    pub fn hmin2(a: half2, b: half2) -> half2 = lanes(
        80,
        [H, H, H, H] -> [H, H],
        pair_ptx!(2, "min.f16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b"),
        pair2_sim!(|x, y| hb(h(x).min(h(y))))
    );
    /// `__hmax2`: lane-wise maximum (NaN loses; sm_80+).
    pub fn hmax2(a: half2, b: half2) -> half2 = lanes(
        80,
        [H, H, H, H] -> [H, H],
        pair_ptx!(2, "max.f16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b"),
        pair2_sim!(|x, y| hb(h(x).max(h(y))))
    );
    /// `__hfma2`: lane-wise `a * b + c`, one rounding.
    pub fn hfma2(a: half2, b: half2, c: half2) -> half2 = lanes(
        70,
        [H, H, H, H, H, H] -> [H, H],
        pair_ptx!(3, "fma.rn.f16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b, %fcp{uid}_c"),
        pair3_sim!(fma_h)
    );
    /// `__hneg2`: lane-wise `-a`.
    pub fn hneg2(a: half2) -> half2 = lanes(
        70,
        [H, H] -> [H, H],
        pair_ptx!(1, "neg.f16x2 %fcp{uid}_d, %fcp{uid}_a"),
        pair1_sim!(|x| x ^ 0x8000)
    );
    /// `__habs2`: lane-wise `|a|`.
    pub fn habs2(a: half2) -> half2 = lanes(
        70,
        [H, H] -> [H, H],
        pair_ptx!(1, "abs.f16x2 %fcp{uid}_d, %fcp{uid}_a"),
        pair1_sim!(|x| x & 0x7fff)
    );
    /// `__heq2`: lane-wise `a == b` as 1.0 / 0.0.
    pub fn heq2(a: half2, b: half2) -> half2 = lanes(
        70,
        [H, H, H, H] -> [H, H],
        pair_ptx!(2, "set.eq.f16x2.f16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b"),
        pair2_sim!(|x, y| one_if(h(x) == h(y)))
    );
    /// `__hne2`: lane-wise ordered `a != b` as 1.0 / 0.0.
    pub fn hne2(a: half2, b: half2) -> half2 = lanes(
        70,
        [H, H, H, H] -> [H, H],
        pair_ptx!(2, "set.ne.f16x2.f16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b"),
        pair2_sim!(|x, y| { one_if(!h(x).is_nan() && !h(y).is_nan() && h(x) != h(y)) })
    );
    /// `__hlt2`: lane-wise `a < b` as 1.0 / 0.0.
    pub fn hlt2(a: half2, b: half2) -> half2 = lanes(
        70,
        [H, H, H, H] -> [H, H],
        pair_ptx!(2, "set.lt.f16x2.f16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b"),
        pair2_sim!(|x, y| one_if(h(x) < h(y)))
    );
    /// `__hle2`: lane-wise `a <= b` as 1.0 / 0.0.
    pub fn hle2(a: half2, b: half2) -> half2 = lanes(
        70,
        [H, H, H, H] -> [H, H],
        pair_ptx!(2, "set.le.f16x2.f16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b"),
        pair2_sim!(|x, y| one_if(h(x) <= h(y)))
    );
    /// `__hgt2`: lane-wise `a > b` as 1.0 / 0.0.
    pub fn hgt2(a: half2, b: half2) -> half2 = lanes(
        70,
        [H, H, H, H] -> [H, H],
        pair_ptx!(2, "set.gt.f16x2.f16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b"),
        pair2_sim!(|x, y| one_if(h(x) > h(y)))
    );
    /// `__hge2`: lane-wise `a >= b` as 1.0 / 0.0.
    pub fn hge2(a: half2, b: half2) -> half2 = lanes(
        70,
        [H, H, H, H] -> [H, H],
        pair_ptx!(2, "set.ge.f16x2.f16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b"),
        pair2_sim!(|x, y| one_if(h(x) >= h(y)))
    );
    /// `__hadd2` on `bfloat162` (sm_80+).
    pub fn hadd2_bf16(a: bfloat162, b: bfloat162) -> bfloat162 = lanes(
        80,
        [B, B, B, B] -> [B, B],
        pair_ptx!(2, ".reg .b32 %fcp{uid}_o; mov.b32 %fcp{uid}_o, 0x3F803F80; fma.rn.bf16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_o, %fcp{uid}_b"),
        pair2_sim!(|x, y| bb(b(x) + b(y)))
    );
    /// `__hsub2` on `bfloat162` (sm_80+).
    pub fn hsub2_bf16(a: bfloat162, b: bfloat162) -> bfloat162 = lanes(
        80,
        [B, B, B, B] -> [B, B],
        pair_ptx!(2, ".reg .b32 %fcp{uid}_o; mov.b32 %fcp{uid}_o, 0xBF80BF80; fma.rn.bf16x2 %fcp{uid}_d, %fcp{uid}_b, %fcp{uid}_o, %fcp{uid}_a"),
        pair2_sim!(|x, y| bb(b(x) - b(y)))
    );
    /// `__hmul2` on `bfloat162` (sm_80+).
    pub fn hmul2_bf16(a: bfloat162, b: bfloat162) -> bfloat162 = lanes(
        80,
        [B, B, B, B] -> [B, B],
        pair_ptx!(2, ".reg .b32 %fcp{uid}_o; mov.b32 %fcp{uid}_o, 0x80008000; fma.rn.bf16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b, %fcp{uid}_o"),
        pair2_sim!(|x, y| bb(b(x) * b(y)))
    );
    /// `__hmin2` on `bfloat162` (sm_80+).
    pub fn hmin2_bf16(a: bfloat162, b: bfloat162) -> bfloat162 = lanes(
        80,
        [B, B, B, B] -> [B, B],
        pair_ptx!(2, "min.bf16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b"),
        pair2_sim!(|x, y| bb(b(x).min(b(y))))
    );
    /// `__hmax2` on `bfloat162` (sm_80+).
    pub fn hmax2_bf16(a: bfloat162, b: bfloat162) -> bfloat162 = lanes(
        80,
        [B, B, B, B] -> [B, B],
        pair_ptx!(2, "max.bf16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b"),
        pair2_sim!(|x, y| bb(b(x).max(b(y))))
    );
    /// `__hfma2` on `bfloat162` (sm_80+).
    pub fn hfma2_bf16(a: bfloat162, b: bfloat162, c: bfloat162) -> bfloat162 = lanes(
        80,
        [B, B, B, B, B, B] -> [B, B],
        pair_ptx!(3, "fma.rn.bf16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b, %fcp{uid}_c"),
        pair3_sim!(fma_b)
    );
    /// `__hneg2` on `bfloat162` (sm_80+).
    pub fn hneg2_bf16(a: bfloat162) -> bfloat162 = lanes(
        80,
        [B, B] -> [B, B],
        pair_ptx!(1, "neg.bf16x2 %fcp{uid}_d, %fcp{uid}_a"),
        pair1_sim!(|x| x ^ 0x8000)
    );
    /// `__habs2` on `bfloat162` (sm_80+).
    pub fn habs2_bf16(a: bfloat162) -> bfloat162 = lanes(
        80,
        [B, B] -> [B, B],
        pair_ptx!(1, "abs.bf16x2 %fcp{uid}_d, %fcp{uid}_a"),
        pair1_sim!(|x| x & 0x7fff)
    );
}
