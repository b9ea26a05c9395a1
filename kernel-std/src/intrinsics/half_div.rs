//! Half division (`__hdiv`, `__h2div` on `half2` and `__nv_bfloat162`): the operands widened to
//! f32, one correctly rounded `div.rn.f32`, rounded once to the 16-bit format. That is correctly
//! rounded f16/bf16 division (f32's 24-bit significand is at least twice the format's plus two,
//! so the double rounding never changes the result), and the simulator computes the same way.
//! A NaN quotient is the canonical `0x7fff`, as `cvt.rn.f16.f32` / `cvt.rn.bf16.f32` give it.

use half::{bf16, f16};
use kernel_ir::ir::Ty;

use crate::types::{bfloat162, half2};

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
fn div_h(x: u64, y: u64) -> u64 {
    let w = |v: u64| f16::from_bits(v as u16).to_f32();
    div(w(x), w(y), |q| f16::from_f32(q).to_bits())
}
fn div_b(x: u64, y: u64) -> u64 {
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

intrinsics! {
    table TABLE;

    /// `__hdiv`: `a / b` correctly rounded to f16 (computed as an f32 division, rounded once).
    pub fn hdiv(a: f16, b: f16) -> f16 = pure(
        70,
        concat!(
            ".reg .f32 %fcq{uid}_x0; .reg .f32 %fcq{uid}_y0; ",
            lane!("f16", "{d0}", "{a0}", "{a1}", "0")
        ),
        |_, a, o| o[0] = div_h(a[0], a[1])
    );
    /// `__hdiv` on `bf16`: `a / b` correctly rounded to bf16 (sm_80+).
    pub fn hdiv_bf16(a: bf16, b: bf16) -> bf16 = pure(
        80,
        concat!(
            ".reg .f32 %fcq{uid}_x0; .reg .f32 %fcq{uid}_y0; ",
            lane!("bf16", "{d0}", "{a0}", "{a1}", "0")
        ),
        |_, a, o| o[0] = div_b(a[0], a[1])
    );
    /// `__h2div`: lane-wise `a / b`, each lane as [`hdiv`](fn@hdiv).
    pub fn h2div(a: half2, b: half2) -> half2 = lanes(
        70,
        [H, H, H, H] -> [H, H],
        concat!(
            ".reg .f32 %fcq{uid}_x0; .reg .f32 %fcq{uid}_y0; ",
            ".reg .f32 %fcq{uid}_x1; .reg .f32 %fcq{uid}_y1; ",
            lane!("f16", "{d0}", "{a0}", "{a2}", "0"),
            "; ",
            lane!("f16", "{d1}", "{a1}", "{a3}", "1")
        ),
        |_, a, o| {
            o[0] = div_h(a[0], a[2]);
            o[1] = div_h(a[1], a[3]);
        }
    );
    /// `__h2div` on `bfloat162`: lane-wise `a / b`, each lane as [`hdiv_bf16`](fn@hdiv_bf16) (sm_80+).
    pub fn h2div_bf16(a: bfloat162, b: bfloat162) -> bfloat162 = lanes(
        80,
        [B, B, B, B] -> [B, B],
        concat!(
            ".reg .f32 %fcq{uid}_x0; .reg .f32 %fcq{uid}_y0; ",
            ".reg .f32 %fcq{uid}_x1; .reg .f32 %fcq{uid}_y1; ",
            lane!("bf16", "{d0}", "{a0}", "{a2}", "0"),
            "; ",
            lane!("bf16", "{d1}", "{a1}", "{a3}", "1")
        ),
        |_, a, o| {
            o[0] = div_b(a[0], a[2]);
            o[1] = div_b(a[1], a[3]);
        }
    );
}
