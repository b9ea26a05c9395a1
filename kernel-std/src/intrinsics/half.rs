//! f16/bf16 arithmetic and comparisons (`__hadd`, `__hfma`, `__heq`...), conversions with explicit
//! rounding modes (`__float2half_rz`...), and the paired `half2`/`bfloat162` operations.
//!
//! A pair travels as two 16-bit registers (the IR has no 32-bit half vectors); templates pack it
//! with `mov.b32 %r, {lo, hi}` into PTX's `f16x2`/`bf16x2` form and unpack the result the same way.
//! bf16 addition and multiplication are `fma.rn.bf16` with 1.0 or -0.0, as CUDA's headers do
//! before sm_90, so every entry here assembles for sm_80.
//!
//! Simulator semantics: f32 arithmetic rounded once to the 16-bit format, which is correctly
//! rounded because f32's 24-bit significand exceeds twice the formats' plus two (double rounding
//! is innocuous); fma goes through f64 for the same reason.

use half::{bf16, f16};

use super::{Class, IntrinsicDef, SimEnv};
use kernel_ir::ir::Ty;

const H: Ty = Ty::F16;
const B: Ty = Ty::BF16;
const F: Ty = Ty::F32;

macro_rules! pure {
    // Paired entries are named `<api name>_lanes`: the API's wrapper takes and returns the pair.
    (@lanes $name:literal, [$($a:expr),*] -> [$($r:expr),*], $sm:literal, $ptx:expr, $sim:expr) => {
        IntrinsicDef {
            name: concat!($name, "_lanes"),
            args: &[$($a),*],
            rets: &[$($r),*],
            min_sm: $sm,
            ptx: $ptx,
            class: Class::Pure,
            sim: Some($sim),
            sim_warp: None,
        }
    };
    ($name:literal, [$($a:expr),*] -> [$($r:expr),*], $sm:literal, $ptx:expr, $sim:expr) => {
        IntrinsicDef {
            name: $name,
            args: &[$($a),*],
            rets: &[$($r),*],
            min_sm: $sm,
            ptx: $ptx,
            class: Class::Pure,
            sim: Some($sim),
            sim_warp: None,
        }
    };
}

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

/// A pair operation (entry `<name>_lanes`): both operands packed, one `f16x2`/`bf16x2` instruction on `%fcp{uid}_a/_b`
/// into `%fcp{uid}_d`, unpacked into `{d0}, {d1}`.
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

/// A binary pair entry whose lanes follow `$f` (a `fn(u64, u64) -> u64` on lane bits).
macro_rules! pair2 {
    ($name:literal, $t:expr, $sm:literal, $op:literal, $f:expr) => {
        pure!(@lanes $name, [$t, $t, $t, $t] -> [$t, $t], $sm, pair_ptx!(2, $op),
            |_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]| {
                let f: fn(u64, u64) -> u64 = $f;
                o[0] = f(a[0], a[2]);
                o[1] = f(a[1], a[3]);
            })
    };
}
macro_rules! pair1 {
    ($name:literal, $t:expr, $sm:literal, $op:literal, $f:expr) => {
        pure!(@lanes $name, [$t, $t] -> [$t, $t], $sm, pair_ptx!(1, $op),
            |_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]| {
                let f: fn(u64) -> u64 = $f;
                o[0] = f(a[0]);
                o[1] = f(a[1]);
            })
    };
}
macro_rules! pair3 {
    ($name:literal, $t:expr, $sm:literal, $op:literal, $f:expr) => {
        pure!(@lanes $name, [$t, $t, $t, $t, $t, $t] -> [$t, $t], $sm, pair_ptx!(3, $op),
            |_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]| {
                let f: fn(u64, u64, u64) -> u64 = $f;
                o[0] = f(a[0], a[2], a[4]);
                o[1] = f(a[1], a[3], a[5]);
            })
    };
}

fn hfma(x: u64, y: u64, z: u64) -> u64 {
    hb64((h(x) as f64).mul_add(h(y) as f64, h(z) as f64))
}
fn bfma(x: u64, y: u64, z: u64) -> u64 {
    bb64((b(x) as f64).mul_add(b(y) as f64, b(z) as f64))
}

/// This category's entries (appended to the table in `mod.rs`'s order).
pub(super) static ENTRIES: &[IntrinsicDef] = &[
    // f16 scalars.
    pure!("hadd", [H, H] -> [H], 70, "add.rn.f16 {d0}, {a0}, {a1}", |_, a, o| o[0] = hb(h(a[0]) + h(a[1]))),
    pure!("hsub", [H, H] -> [H], 70, "sub.rn.f16 {d0}, {a0}, {a1}", |_, a, o| o[0] = hb(h(a[0]) - h(a[1]))),
    pure!("hmul", [H, H] -> [H], 70, "mul.rn.f16 {d0}, {a0}, {a1}", |_, a, o| o[0] = hb(h(a[0]) * h(a[1]))),
    pure!("hfma", [H, H, H] -> [H], 70, "fma.rn.f16 {d0}, {a0}, {a1}, {a2}", |_, a, o| o[0] = hfma(a[0], a[1], a[2])),
    pure!("hneg", [H] -> [H], 70, "neg.f16 {d0}, {a0}", |_, a, o| o[0] = a[0] ^ 0x8000),
    pure!("habs", [H] -> [H], 70, "abs.f16 {d0}, {a0}", |_, a, o| o[0] = a[0] & 0x7fff),
    pure!("hmin", [H, H] -> [H], 80, "min.f16 {d0}, {a0}, {a1}", |_, a, o| o[0] = hb(h(a[0]).min(h(a[1])))),
    pure!("hmax", [H, H] -> [H], 80, "max.f16 {d0}, {a0}, {a1}", |_, a, o| o[0] = hb(h(a[0]).max(h(a[1])))),
    pure!("heq", [H, H] -> [Ty::Bool], 70, "setp.eq.f16 {d0}, {a0}, {a1}", |_, a, o| o[0] = (h(a[0]) == h(a[1])) as u64),
    pure!("hne", [H, H] -> [Ty::Bool], 70, "setp.ne.f16 {d0}, {a0}, {a1}", |_, a, o| {
        let (x, y) = (h(a[0]), h(a[1]));
        o[0] = (!x.is_nan() && !y.is_nan() && x != y) as u64
    }),
    pure!("hlt", [H, H] -> [Ty::Bool], 70, "setp.lt.f16 {d0}, {a0}, {a1}", |_, a, o| o[0] = (h(a[0]) < h(a[1])) as u64),
    pure!("hle", [H, H] -> [Ty::Bool], 70, "setp.le.f16 {d0}, {a0}, {a1}", |_, a, o| o[0] = (h(a[0]) <= h(a[1])) as u64),
    pure!("hgt", [H, H] -> [Ty::Bool], 70, "setp.gt.f16 {d0}, {a0}, {a1}", |_, a, o| o[0] = (h(a[0]) > h(a[1])) as u64),
    pure!("hge", [H, H] -> [Ty::Bool], 70, "setp.ge.f16 {d0}, {a0}, {a1}", |_, a, o| o[0] = (h(a[0]) >= h(a[1])) as u64),
    pure!("hisnan", [H] -> [Ty::Bool], 70, "setp.nan.f16 {d0}, {a0}, {a0}", |_, a, o| o[0] = h(a[0]).is_nan() as u64),
    // bf16 scalars.
    pure!("hadd_bf16", [B, B] -> [B], 80,
        ".reg .b16 %fco{uid}; mov.b16 %fco{uid}, 0x3F80; fma.rn.bf16 {d0}, {a0}, %fco{uid}, {a1}",
        |_, a, o| o[0] = bb(b(a[0]) + b(a[1]))),
    pure!("hsub_bf16", [B, B] -> [B], 80,
        ".reg .b16 %fco{uid}; mov.b16 %fco{uid}, 0xBF80; fma.rn.bf16 {d0}, {a1}, %fco{uid}, {a0}",
        |_, a, o| o[0] = bb(b(a[0]) - b(a[1]))),
    pure!("hmul_bf16", [B, B] -> [B], 80,
        ".reg .b16 %fco{uid}; mov.b16 %fco{uid}, 0x8000; fma.rn.bf16 {d0}, {a0}, {a1}, %fco{uid}",
        |_, a, o| o[0] = bb(b(a[0]) * b(a[1]))),
    pure!("hfma_bf16", [B, B, B] -> [B], 80, "fma.rn.bf16 {d0}, {a0}, {a1}, {a2}", |_, a, o| o[0] = bfma(a[0], a[1], a[2])),
    pure!("hneg_bf16", [B] -> [B], 80, "neg.bf16 {d0}, {a0}", |_, a, o| o[0] = a[0] ^ 0x8000),
    pure!("habs_bf16", [B] -> [B], 80, "abs.bf16 {d0}, {a0}", |_, a, o| o[0] = a[0] & 0x7fff),
    pure!("hmin_bf16", [B, B] -> [B], 80, "min.bf16 {d0}, {a0}, {a1}", |_, a, o| o[0] = bb(b(a[0]).min(b(a[1])))),
    pure!("hmax_bf16", [B, B] -> [B], 80, "max.bf16 {d0}, {a0}, {a1}", |_, a, o| o[0] = bb(b(a[0]).max(b(a[1])))),
    // Conversions.
    pure!("f32_to_f16_rn", [F] -> [H], 70, "cvt.rn.f16.f32 {d0}, {a0}", |_, a, o| o[0] = hb(f32::from_bits(a[0] as u32))),
    pure!("f32_to_f16_rz", [F] -> [H], 70, "cvt.rz.f16.f32 {d0}, {a0}", |_, a, o| {
        o[0] = directed(f32::from_bits(a[0] as u32), Round::Zero, hb, h)
    }),
    pure!("f32_to_f16_ru", [F] -> [H], 70, "cvt.rp.f16.f32 {d0}, {a0}", |_, a, o| {
        o[0] = directed(f32::from_bits(a[0] as u32), Round::Up, hb, h)
    }),
    pure!("f32_to_f16_rd", [F] -> [H], 70, "cvt.rm.f16.f32 {d0}, {a0}", |_, a, o| {
        o[0] = directed(f32::from_bits(a[0] as u32), Round::Down, hb, h)
    }),
    pure!("f32_to_bf16_rn", [F] -> [B], 80, "cvt.rn.bf16.f32 {d0}, {a0}", |_, a, o| o[0] = bb(f32::from_bits(a[0] as u32))),
    pure!("f32_to_bf16_rz", [F] -> [B], 80, "cvt.rz.bf16.f32 {d0}, {a0}", |_, a, o| {
        o[0] = directed(f32::from_bits(a[0] as u32), Round::Zero, bb, b)
    }),
    pure!("f32_to_bf16_ru", [F] -> [B], 90, "cvt.rp.bf16.f32 {d0}, {a0}", |_, a, o| {
        o[0] = directed(f32::from_bits(a[0] as u32), Round::Up, bb, b)
    }),
    pure!("f32_to_bf16_rd", [F] -> [B], 90, "cvt.rm.bf16.f32 {d0}, {a0}", |_, a, o| {
        o[0] = directed(f32::from_bits(a[0] as u32), Round::Down, bb, b)
    }),
    pure!("f16_to_f32", [H] -> [F], 70, "cvt.f32.f16 {d0}, {a0}", |_, a, o| o[0] = h(a[0]).to_bits() as u64),
    pure!("bf16_to_f32", [B] -> [F], 80, "cvt.f32.bf16 {d0}, {a0}", |_, a, o| o[0] = b(a[0]).to_bits() as u64),
    pure!("f16_to_i32_rn", [H] -> [Ty::I32], 70, "cvt.rni.s32.f16 {d0}, {a0}", |_, a, o| o[0] = h(a[0]).round_ties_even() as i32 as u32 as u64),
    pure!("f16_to_i32_rz", [H] -> [Ty::I32], 70, "cvt.rzi.s32.f16 {d0}, {a0}", |_, a, o| o[0] = h(a[0]).trunc() as i32 as u32 as u64),
    pure!("f16_to_i32_ru", [H] -> [Ty::I32], 70, "cvt.rpi.s32.f16 {d0}, {a0}", |_, a, o| o[0] = h(a[0]).ceil() as i32 as u32 as u64),
    pure!("f16_to_i32_rd", [H] -> [Ty::I32], 70, "cvt.rmi.s32.f16 {d0}, {a0}", |_, a, o| o[0] = h(a[0]).floor() as i32 as u32 as u64),
    // Every i32 of f16's range is exact in f32, and beyond it only the overflow direction matters.
    pure!("i32_to_f16_rn", [Ty::I32] -> [H], 70, "cvt.rn.f16.s32 {d0}, {a0}", |_, a, o| o[0] = hb(a[0] as u32 as i32 as f32)),
    pure!("i32_to_f16_rz", [Ty::I32] -> [H], 70, "cvt.rz.f16.s32 {d0}, {a0}", |_, a, o| {
        o[0] = directed(a[0] as u32 as i32 as f32, Round::Zero, hb, h)
    }),
    pure!("i32_to_f16_ru", [Ty::I32] -> [H], 70, "cvt.rp.f16.s32 {d0}, {a0}", |_, a, o| {
        o[0] = directed(a[0] as u32 as i32 as f32, Round::Up, hb, h)
    }),
    pure!("i32_to_f16_rd", [Ty::I32] -> [H], 70, "cvt.rm.f16.s32 {d0}, {a0}", |_, a, o| {
        o[0] = directed(a[0] as u32 as i32 as f32, Round::Down, hb, h)
    }),
    // half2.
    pair2!("hadd2", H, 70, "add.rn.f16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b", |x, y| hb(h(x) + h(y))),
    pair2!("hsub2", H, 70, "sub.rn.f16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b", |x, y| hb(h(x) - h(y))),
    pair2!("hmul2", H, 70, "mul.rn.f16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b", |x, y| hb(h(x) * h(y))),
    pair2!("hmin2", H, 80, "min.f16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b", |x, y| hb(h(x).min(h(y)))),
    pair2!("hmax2", H, 80, "max.f16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b", |x, y| hb(h(x).max(h(y)))),
    pair3!("hfma2", H, 70, "fma.rn.f16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b, %fcp{uid}_c", hfma),
    pair1!("hneg2", H, 70, "neg.f16x2 %fcp{uid}_d, %fcp{uid}_a", |x| x ^ 0x8000),
    pair1!("habs2", H, 70, "abs.f16x2 %fcp{uid}_d, %fcp{uid}_a", |x| x & 0x7fff),
    pair2!("heq2", H, 70, "set.eq.f16x2.f16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b", |x, y| one_if(h(x) == h(y))),
    pair2!("hne2", H, 70, "set.ne.f16x2.f16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b", |x, y| {
        one_if(!h(x).is_nan() && !h(y).is_nan() && h(x) != h(y))
    }),
    pair2!("hlt2", H, 70, "set.lt.f16x2.f16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b", |x, y| one_if(h(x) < h(y))),
    pair2!("hle2", H, 70, "set.le.f16x2.f16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b", |x, y| one_if(h(x) <= h(y))),
    pair2!("hgt2", H, 70, "set.gt.f16x2.f16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b", |x, y| one_if(h(x) > h(y))),
    pair2!("hge2", H, 70, "set.ge.f16x2.f16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b", |x, y| one_if(h(x) >= h(y))),
    // bfloat162.
    pair2!("hadd2_bf16", B, 80,
        ".reg .b32 %fcp{uid}_o; mov.b32 %fcp{uid}_o, 0x3F803F80; fma.rn.bf16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_o, %fcp{uid}_b",
        |x, y| bb(b(x) + b(y))),
    pair2!("hsub2_bf16", B, 80,
        ".reg .b32 %fcp{uid}_o; mov.b32 %fcp{uid}_o, 0xBF80BF80; fma.rn.bf16x2 %fcp{uid}_d, %fcp{uid}_b, %fcp{uid}_o, %fcp{uid}_a",
        |x, y| bb(b(x) - b(y))),
    pair2!("hmul2_bf16", B, 80,
        ".reg .b32 %fcp{uid}_o; mov.b32 %fcp{uid}_o, 0x80008000; fma.rn.bf16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b, %fcp{uid}_o",
        |x, y| bb(b(x) * b(y))),
    pair2!("hmin2_bf16", B, 80, "min.bf16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b", |x, y| bb(b(x).min(b(y)))),
    pair2!("hmax2_bf16", B, 80, "max.bf16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b", |x, y| bb(b(x).max(b(y)))),
    pair3!("hfma2_bf16", B, 80, "fma.rn.bf16x2 %fcp{uid}_d, %fcp{uid}_a, %fcp{uid}_b, %fcp{uid}_c", bfma),
    pair1!("hneg2_bf16", B, 80, "neg.bf16x2 %fcp{uid}_d, %fcp{uid}_a", |x| x ^ 0x8000),
    pair1!("habs2_bf16", B, 80, "abs.bf16x2 %fcp{uid}_d, %fcp{uid}_a", |x| x & 0x7fff),
];
