//! Half division (`__hdiv`, `__h2div` on `half2` and `__nv_bfloat162`): the operands widened to
//! f32, one correctly rounded `div.rn.f32`, rounded once to the 16-bit format. That is correctly
//! rounded f16/bf16 division (f32's 24-bit significand is at least twice the format's plus two,
//! so the double rounding never changes the result), and the simulator computes the same way.
//! A NaN quotient is the canonical `0x7fff`, as `cvt.rn.f16.f32` / `cvt.rn.bf16.f32` give it.

use half::{bf16, f16};

use super::{Class, IntrinsicDef};
use kernel_ir::ir::Ty;

const H: Ty = Ty::F16;
const B: Ty = Ty::BF16;

fn div(x: f32, y: f32, narrow: fn(f32) -> u16) -> u64 {
    let q = x / y;
    if q.is_nan() {
        0x7fff
    } else {
        narrow(q) as u64
    }
}
fn hdiv(x: u64, y: u64) -> u64 {
    let w = |v: u64| f16::from_bits(v as u16).to_f32();
    div(w(x), w(y), |q| f16::from_f32(q).to_bits())
}
fn bdiv(x: u64, y: u64) -> u64 {
    let w = |v: u64| bf16::from_bits(v as u16).to_f32();
    div(w(x), w(y), |q| bf16::from_f32(q).to_bits())
}

/// One lane: `{a}` / `{b}` into `{d}` through the f32 temporaries `%fcq{uid}_*`.
macro_rules! lane {
    ($t:literal, $d:literal, $a:literal, $b:literal, $k:literal) => {
        concat!(
            "cvt.f32.",
            $t,
            " %fcq{uid}_x",
            $k,
            ", ",
            $a,
            "; ",
            "cvt.f32.",
            $t,
            " %fcq{uid}_y",
            $k,
            ", ",
            $b,
            "; ",
            "div.rn.f32 %fcq{uid}_x",
            $k,
            ", %fcq{uid}_x",
            $k,
            ", %fcq{uid}_y",
            $k,
            "; ",
            "cvt.rn.",
            $t,
            ".f32 ",
            $d,
            ", %fcq{uid}_x",
            $k
        )
    };
}

const fn entry(
    name: &'static str,
    args: &'static [Ty],
    rets: &'static [Ty],
    min_sm: u32,
    ptx: &'static str,
    sim: super::SimFn,
) -> IntrinsicDef {
    IntrinsicDef {
        name,
        args,
        rets,
        min_sm,
        ptx,
        class: Class::Pure,
        sim: Some(sim),
        sim_warp: None,
    }
}

/// This category's entries (appended to the table in `mod.rs`'s order).
pub(super) static ENTRIES: &[IntrinsicDef] = &[
    entry(
        "hdiv",
        &[H, H],
        &[H],
        70,
        concat!(
            ".reg .f32 %fcq{uid}_x0; .reg .f32 %fcq{uid}_y0; ",
            lane!("f16", "{d0}", "{a0}", "{a1}", "0")
        ),
        |_, a, o| o[0] = hdiv(a[0], a[1]),
    ),
    entry(
        "hdiv_bf16",
        &[B, B],
        &[B],
        80,
        concat!(
            ".reg .f32 %fcq{uid}_x0; .reg .f32 %fcq{uid}_y0; ",
            lane!("bf16", "{d0}", "{a0}", "{a1}", "0")
        ),
        |_, a, o| o[0] = bdiv(a[0], a[1]),
    ),
    entry(
        "h2div_lanes",
        &[H, H, H, H],
        &[H, H],
        70,
        concat!(
            ".reg .f32 %fcq{uid}_x0; .reg .f32 %fcq{uid}_y0; ",
            ".reg .f32 %fcq{uid}_x1; .reg .f32 %fcq{uid}_y1; ",
            lane!("f16", "{d0}", "{a0}", "{a2}", "0"),
            "; ",
            lane!("f16", "{d1}", "{a1}", "{a3}", "1")
        ),
        |_, a, o| {
            o[0] = hdiv(a[0], a[2]);
            o[1] = hdiv(a[1], a[3]);
        },
    ),
    entry(
        "h2div_bf16_lanes",
        &[B, B, B, B],
        &[B, B],
        80,
        concat!(
            ".reg .f32 %fcq{uid}_x0; .reg .f32 %fcq{uid}_y0; ",
            ".reg .f32 %fcq{uid}_x1; .reg .f32 %fcq{uid}_y1; ",
            lane!("bf16", "{d0}", "{a0}", "{a2}", "0"),
            "; ",
            lane!("bf16", "{d1}", "{a1}", "{a3}", "1")
        ),
        |_, a, o| {
            o[0] = bdiv(a[0], a[2]);
            o[1] = bdiv(a[1], a[3]);
        },
    ),
];
