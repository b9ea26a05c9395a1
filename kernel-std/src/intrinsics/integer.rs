//! Integer intrinsics: popc, clz, ffs, brev, byte_perm, funnel shifts, mul_hi, mul24, sad, dp4a
//! and the SIMD video family (`vadd2`, `vcmpeq4`...) of the CUDA math API's integer intrinsics.
//!
//! Every SIMD function is one PTX video instruction (`vadd2`, `vset4`...); ptxas expands those into
//! plain integer code on the architectures that lack them, as CUDA's own headers rely on. Video
//! instructions take no immediates, so templates that need a zero declare a private register.

use super::{Class, IntrinsicDef, SimEnv};
use kernel_ir::ir::Ty;

const I32: Ty = Ty::I32;
const U32: Ty = Ty::U32;
const I64: Ty = Ty::I64;
const U64: Ty = Ty::U64;

macro_rules! pure {
    ($name:literal, [$($a:expr),*] -> $r:expr, $sm:literal, $ptx:expr, $sim:expr) => {
        IntrinsicDef {
            name: $name,
            args: &[$($a),*],
            rets: &[$r],
            min_sm: $sm,
            ptx: $ptx,
            class: Class::Pure,
            sim: Some($sim),
            sim_warp: None,
        }
    };
}

fn s32(bits: u64) -> i64 {
    bits as u32 as i32 as i64
}

fn ffs64(x: u64) -> u64 {
    if x == 0 {
        0
    } else {
        x.trailing_zeros() as u64 + 1
    }
}

/// `prmt.b32` in its default mode: byte `i` of the result is byte `s[4i+2..4i]` of `{b, a}`
/// (bytes 0..3 from `a`, 4..7 from `b`); bit `4i+3` replicates that byte's sign bit.
fn byte_perm(a: u64, b: u64, s: u64) -> u64 {
    let src = (a & 0xffff_ffff) | (b & 0xffff_ffff) << 32;
    let mut r = 0u64;
    for i in 0..4 {
        let sel = (s >> (4 * i)) & 0xf;
        let byte = (src >> (8 * (sel & 7))) & 0xff;
        let byte = if sel & 8 != 0 {
            if byte & 0x80 != 0 {
                0xff
            } else {
                0
            }
        } else {
            byte
        };
        r |= byte << (8 * i);
    }
    r
}

fn funnel(lo: u64, hi: u64, shift: u32, left: bool) -> u64 {
    let v = (hi & 0xffff_ffff) << 32 | (lo & 0xffff_ffff);
    if left {
        (v << shift) >> 32 & 0xffff_ffff
    } else {
        (v >> shift) & 0xffff_ffff
    }
}

/// Low 24 bits of a 32-bit operand, sign-extended when `signed` (what `mul24` multiplies).
fn low24(x: u64, signed: bool) -> i64 {
    let v = (x & 0xff_ffff) as i64;
    if signed && v & 0x80_0000 != 0 {
        v - 0x100_0000
    } else {
        v
    }
}

/// Byte `i` of `x`, sign-extended when `signed`.
fn byte(x: u64, i: u32, signed: bool) -> i64 {
    let b = (x >> (8 * i)) & 0xff;
    if signed {
        b as u8 as i8 as i64
    } else {
        b as i64
    }
}

/// Halfword `i` of `x`, sign-extended when `signed`.
fn half(x: u64, i: u32, signed: bool) -> i64 {
    let h = (x >> (16 * i)) & 0xffff;
    if signed {
        h as u16 as i16 as i64
    } else {
        h as i64
    }
}

/// `dp4a`: the four byte products of `a` and `b` summed into `c` (32-bit wrapping).
fn dp4a(a: u64, b: u64, c: u64, signed: bool) -> u64 {
    let mut acc = if signed { s32(c) } else { c as u32 as i64 };
    for i in 0..4 {
        acc += byte(a, i, signed) * byte(b, i, signed);
    }
    acc as u64 & 0xffff_ffff
}

/// `dp2a.lo/hi`: two halfword products of `a` with bytes 0-1 (lo) or 2-3 (hi) of `b`, plus `c`.
fn dp2a(a: u64, b: u64, c: u64, signed: bool, hi: bool) -> u64 {
    let mut acc = if signed { s32(c) } else { c as u32 as i64 };
    let base = if hi { 2 } else { 0 };
    for i in 0..2 {
        acc += half(a, i, signed) * byte(b, base + i, signed);
    }
    acc as u64 & 0xffff_ffff
}

/// One SIMD video operation: `lanes` lanes of `32 / lanes` bits, each computed exactly from the
/// (sign- or zero-extended) lanes of `a` and `b`, then saturated to the lane's range when `sat`
/// or wrapped to its width otherwise.
fn simd(a: u64, b: u64, lanes: u32, signed: bool, sat: bool, f: fn(i64, i64) -> i64) -> u64 {
    let w = 32 / lanes;
    let mask = (1i64 << w) - 1;
    let (lo, hi) = if signed {
        (-(1i64 << (w - 1)), (1i64 << (w - 1)) - 1)
    } else {
        (0, mask)
    };
    let lane = |x: u64, i: u32| -> i64 {
        let v = ((x >> (w * i)) as i64) & mask;
        if signed && v > hi {
            v - (1 << w)
        } else {
            v
        }
    };
    let mut r = 0u64;
    for i in 0..lanes {
        let mut v = f(lane(a, i), lane(b, i));
        if sat {
            v = v.clamp(lo, hi);
        }
        r |= ((v & mask) as u64) << (w * i);
    }
    r
}

fn add(x: i64, y: i64) -> i64 {
    x + y
}
fn sub(x: i64, y: i64) -> i64 {
    x - y
}
fn absdiff(x: i64, y: i64) -> i64 {
    (x - y).abs()
}
/// `vavrg`: the average rounded half away from zero (an H200 gives avg(1, -32768) = -16384).
fn avg(x: i64, y: i64) -> i64 {
    let s = x + y;
    (s + (s >= 0) as i64) >> 1
}
fn min(x: i64, y: i64) -> i64 {
    x.min(y)
}
fn max(x: i64, y: i64) -> i64 {
    x.max(y)
}
fn eq(x: i64, y: i64) -> i64 {
    (x == y) as i64
}
fn ne(x: i64, y: i64) -> i64 {
    (x != y) as i64
}
fn lt(x: i64, y: i64) -> i64 {
    (x < y) as i64
}
fn le(x: i64, y: i64) -> i64 {
    (x <= y) as i64
}
fn gt(x: i64, y: i64) -> i64 {
    (x > y) as i64
}
fn ge(x: i64, y: i64) -> i64 {
    (x >= y) as i64
}
/// The sum of the (unsigned) lanes of `x`, for `vsad*`.
fn lane_sum(x: u64, lanes: u32) -> u64 {
    let w = 32 / lanes;
    (0..lanes).map(|i| (x >> (w * i)) & ((1 << w) - 1)).sum()
}
/// For `vabs`/`vneg`: the operation applied to `(lane, 0)` / `(0, lane)`.
fn abs_first(x: i64, _: i64) -> i64 {
    x.abs()
}
fn neg_first(x: i64, _: i64) -> i64 {
    -x
}
/// `vcmp*`: a true lane becomes all ones (`vset*` gives 1; the template multiplies by the mask).
fn all_ones(f: fn(i64, i64) -> i64, x: i64, y: i64) -> i64 {
    -f(x, y)
}

/// A SIMD entry: `$lanes` lanes, signedness, saturation, the lane function, the PTX instruction.
macro_rules! simd {
    ($name:literal, $lanes:literal, $signed:literal, $sat:literal, $f:expr, $op:literal) => {
        pure!(
            $name,
            [U32, U32] -> U32,
            70,
            concat!(
                ".reg .b32 %fcz{uid}; mov.b32 %fcz{uid}, 0; ",
                $op,
                " {d0}, {a0}, {a1}, %fcz{uid}"
            ),
            |_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]| {
                o[0] = simd(a[0], a[1], $lanes, $signed, $sat, $f)
            }
        )
    };
}

/// A SIMD comparison as CUDA's `__vcmp*`: `vset` gives 1 per true lane, which the template
/// multiplies by the lane mask so true lanes are all ones.
macro_rules! vcmp {
    ($name:literal, $lanes:literal, $signed:literal, $f:ident, $op:literal, $ones:literal) => {
        pure!(
            $name,
            [U32, U32] -> U32,
            70,
            concat!(
                ".reg .b32 %fcz{uid}; mov.b32 %fcz{uid}, 0; ",
                $op,
                " {d0}, {a0}, {a1}, %fcz{uid}; mul.lo.u32 {d0}, {d0}, ",
                $ones
            ),
            |_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]| {
                o[0] = simd(a[0], a[1], $lanes, $signed, false, |x, y| all_ones($f, x, y))
            }
        )
    };
}

/// This category's entries (appended to the table in `mod.rs`'s order).
pub(super) static ENTRIES: &[IntrinsicDef] = &[
    pure!("popc", [U32] -> I32, 70, "popc.b32 {d0}, {a0}", |_, a, o| o[0] =
        (a[0] as u32).count_ones() as u64),
    pure!("popcll", [U64] -> I32, 70, "popc.b64 {d0}, {a0}", |_, a, o| o[0] =
        a[0].count_ones() as u64),
    pure!("clz", [I32] -> I32, 70, "clz.b32 {d0}, {a0}", |_, a, o| o[0] =
        (a[0] as u32).leading_zeros() as u64),
    pure!("clzll", [I64] -> I32, 70, "clz.b64 {d0}, {a0}", |_, a, o| o[0] =
        a[0].leading_zeros() as u64),
    pure!(
        "ffs",
        [I32] -> I32,
        70,
        "brev.b32 {d0}, {a0}; bfind.shiftamt.u32 {d0}, {d0}; add.u32 {d0}, {d0}, 1",
        |_, a, o| o[0] = ffs64(a[0] & 0xffff_ffff)
    ),
    pure!(
        "ffsll",
        [I64] -> I32,
        70,
        ".reg .b64 %fcw{uid}; brev.b64 %fcw{uid}, {a0}; bfind.shiftamt.u64 {d0}, %fcw{uid}; add.u32 {d0}, {d0}, 1",
        |_, a, o| o[0] = ffs64(a[0])
    ),
    pure!("brev", [U32] -> U32, 70, "brev.b32 {d0}, {a0}", |_, a, o| o[0] =
        (a[0] as u32).reverse_bits() as u64),
    pure!("brevll", [U64] -> U64, 70, "brev.b64 {d0}, {a0}", |_, a, o| o[0] =
        a[0].reverse_bits()),
    pure!("byte_perm", [U32, U32, U32] -> U32, 70, "prmt.b32 {d0}, {a0}, {a1}, {a2}", |_, a, o| {
        o[0] = byte_perm(a[0], a[1], a[2])
    }),
    pure!("funnelshift_l", [U32, U32, U32] -> U32, 70, "shf.l.wrap.b32 {d0}, {a0}, {a1}, {a2}", |_, a, o| {
        o[0] = funnel(a[0], a[1], (a[2] & 31) as u32, true)
    }),
    pure!("funnelshift_lc", [U32, U32, U32] -> U32, 70, "shf.l.clamp.b32 {d0}, {a0}, {a1}, {a2}", |_, a, o| {
        o[0] = funnel(a[0], a[1], (a[2] as u32).min(32), true)
    }),
    pure!("funnelshift_r", [U32, U32, U32] -> U32, 70, "shf.r.wrap.b32 {d0}, {a0}, {a1}, {a2}", |_, a, o| {
        o[0] = funnel(a[0], a[1], (a[2] & 31) as u32, false)
    }),
    pure!("funnelshift_rc", [U32, U32, U32] -> U32, 70, "shf.r.clamp.b32 {d0}, {a0}, {a1}, {a2}", |_, a, o| {
        o[0] = funnel(a[0], a[1], (a[2] as u32).min(32), false)
    }),
    pure!("mul_hi", [I32, I32] -> I32, 70, "mul.hi.s32 {d0}, {a0}, {a1}", |_, a, o| {
        o[0] = ((s32(a[0]) * s32(a[1])) >> 32) as u64
    }),
    pure!("umul_hi", [U32, U32] -> U32, 70, "mul.hi.u32 {d0}, {a0}, {a1}", |_, a, o| {
        o[0] = ((a[0] & 0xffff_ffff) * (a[1] & 0xffff_ffff)) >> 32
    }),
    pure!("mul64hi", [I64, I64] -> I64, 70, "mul.hi.s64 {d0}, {a0}, {a1}", |_, a, o| {
        o[0] = ((a[0] as i64 as i128 * a[1] as i64 as i128) >> 64) as u64
    }),
    pure!("umul64hi", [U64, U64] -> U64, 70, "mul.hi.u64 {d0}, {a0}, {a1}", |_, a, o| {
        o[0] = ((a[0] as u128 * a[1] as u128) >> 64) as u64
    }),
    pure!("mul24", [I32, I32] -> I32, 70, "mul24.lo.s32 {d0}, {a0}, {a1}", |_, a, o| {
        o[0] = (low24(a[0], true) * low24(a[1], true)) as u64
    }),
    pure!("umul24", [U32, U32] -> U32, 70, "mul24.lo.u32 {d0}, {a0}, {a1}", |_, a, o| {
        o[0] = (low24(a[0], false) * low24(a[1], false)) as u64
    }),
    pure!("sad", [I32, I32, U32] -> U32, 70, "sad.s32 {d0}, {a0}, {a1}, {a2}", |_, a, o| {
        o[0] = (s32(a[0]) - s32(a[1])).unsigned_abs().wrapping_add(a[2])
    }),
    pure!("usad", [U32, U32, U32] -> U32, 70, "sad.u32 {d0}, {a0}, {a1}, {a2}", |_, a, o| {
        o[0] = ((a[0] as u32 as i64) - (a[1] as u32 as i64)).unsigned_abs().wrapping_add(a[2])
    }),
    pure!("dp4a", [I32, I32, I32] -> I32, 61, "dp4a.s32.s32 {d0}, {a0}, {a1}, {a2}", |_, a, o| {
        o[0] = dp4a(a[0], a[1], a[2], true)
    }),
    pure!("udp4a", [U32, U32, U32] -> U32, 61, "dp4a.u32.u32 {d0}, {a0}, {a1}, {a2}", |_, a, o| {
        o[0] = dp4a(a[0], a[1], a[2], false)
    }),
    pure!("dp2a_lo", [I32, I32, I32] -> I32, 61, "dp2a.lo.s32.s32 {d0}, {a0}, {a1}, {a2}", |_, a, o| {
        o[0] = dp2a(a[0], a[1], a[2], true, false)
    }),
    pure!("dp2a_hi", [I32, I32, I32] -> I32, 61, "dp2a.hi.s32.s32 {d0}, {a0}, {a1}, {a2}", |_, a, o| {
        o[0] = dp2a(a[0], a[1], a[2], true, true)
    }),
    pure!("udp2a_lo", [U32, U32, U32] -> U32, 61, "dp2a.lo.u32.u32 {d0}, {a0}, {a1}, {a2}", |_, a, o| {
        o[0] = dp2a(a[0], a[1], a[2], false, false)
    }),
    pure!("udp2a_hi", [U32, U32, U32] -> U32, 61, "dp2a.hi.u32.u32 {d0}, {a0}, {a1}, {a2}", |_, a, o| {
        o[0] = dp2a(a[0], a[1], a[2], false, true)
    }),
    // SIMD video: halfword (2) and byte (4) lanes.
    simd!("vadd2", 2, false, false, add, "vadd2.u32.u32.u32"),
    simd!("vadd4", 4, false, false, add, "vadd4.u32.u32.u32"),
    simd!("vaddss2", 2, true, true, add, "vadd2.s32.s32.s32.sat"),
    simd!("vaddss4", 4, true, true, add, "vadd4.s32.s32.s32.sat"),
    simd!("vaddus2", 2, false, true, add, "vadd2.u32.u32.u32.sat"),
    simd!("vaddus4", 4, false, true, add, "vadd4.u32.u32.u32.sat"),
    simd!("vsub2", 2, false, false, sub, "vsub2.u32.u32.u32"),
    simd!("vsub4", 4, false, false, sub, "vsub4.u32.u32.u32"),
    simd!("vsubss2", 2, true, true, sub, "vsub2.s32.s32.s32.sat"),
    simd!("vsubss4", 4, true, true, sub, "vsub4.s32.s32.s32.sat"),
    simd!("vsubus2", 2, false, true, sub, "vsub2.u32.u32.u32.sat"),
    simd!("vsubus4", 4, false, true, sub, "vsub4.u32.u32.u32.sat"),
    simd!(
        "vabsdiffs2",
        2,
        true,
        false,
        absdiff,
        "vabsdiff2.s32.s32.s32"
    ),
    simd!(
        "vabsdiffs4",
        4,
        true,
        false,
        absdiff,
        "vabsdiff4.s32.s32.s32"
    ),
    simd!(
        "vabsdiffu2",
        2,
        false,
        false,
        absdiff,
        "vabsdiff2.u32.u32.u32"
    ),
    simd!(
        "vabsdiffu4",
        4,
        false,
        false,
        absdiff,
        "vabsdiff4.u32.u32.u32"
    ),
    simd!("vavgs2", 2, true, false, avg, "vavrg2.s32.s32.s32"),
    simd!("vavgs4", 4, true, false, avg, "vavrg4.s32.s32.s32"),
    simd!("vavgu2", 2, false, false, avg, "vavrg2.u32.u32.u32"),
    simd!("vavgu4", 4, false, false, avg, "vavrg4.u32.u32.u32"),
    simd!("vmaxs2", 2, true, false, max, "vmax2.s32.s32.s32"),
    simd!("vmaxs4", 4, true, false, max, "vmax4.s32.s32.s32"),
    simd!("vmaxu2", 2, false, false, max, "vmax2.u32.u32.u32"),
    simd!("vmaxu4", 4, false, false, max, "vmax4.u32.u32.u32"),
    simd!("vmins2", 2, true, false, min, "vmin2.s32.s32.s32"),
    simd!("vmins4", 4, true, false, min, "vmin4.s32.s32.s32"),
    simd!("vminu2", 2, false, false, min, "vmin2.u32.u32.u32"),
    simd!("vminu4", 4, false, false, min, "vmin4.u32.u32.u32"),
    pure!(
        "vsads2",
        [U32, U32] -> U32,
        70,
        ".reg .b32 %fcz{uid}; mov.b32 %fcz{uid}, 0; vabsdiff2.s32.s32.s32.add {d0}, {a0}, {a1}, %fcz{uid}",
        |_, a, o| o[0] = lane_sum(simd(a[0], a[1], 2, true, false, absdiff), 2)
    ),
    pure!(
        "vsads4",
        [U32, U32] -> U32,
        70,
        ".reg .b32 %fcz{uid}; mov.b32 %fcz{uid}, 0; vabsdiff4.s32.s32.s32.add {d0}, {a0}, {a1}, %fcz{uid}",
        |_, a, o| o[0] = lane_sum(simd(a[0], a[1], 4, true, false, absdiff), 4)
    ),
    pure!(
        "vsadu2",
        [U32, U32] -> U32,
        70,
        ".reg .b32 %fcz{uid}; mov.b32 %fcz{uid}, 0; vabsdiff2.u32.u32.u32.add {d0}, {a0}, {a1}, %fcz{uid}",
        |_, a, o| o[0] = lane_sum(simd(a[0], a[1], 2, false, false, absdiff), 2)
    ),
    pure!(
        "vsadu4",
        [U32, U32] -> U32,
        70,
        ".reg .b32 %fcz{uid}; mov.b32 %fcz{uid}, 0; vabsdiff4.u32.u32.u32.add {d0}, {a0}, {a1}, %fcz{uid}",
        |_, a, o| o[0] = lane_sum(simd(a[0], a[1], 4, false, false, absdiff), 4)
    ),
    // Truncating unsigned average without a video instruction: `(a & b) + ((a ^ b) >> 1)` per
    // lane, the shifted-in bit of each lane masked off so no lane borrows from its neighbour.
    pure!(
        "vhaddu2",
        [U32, U32] -> U32,
        70,
        ".reg .b32 %fct{uid}; .reg .b32 %fcu{uid}; and.b32 %fct{uid}, {a0}, {a1}; xor.b32 %fcu{uid}, {a0}, {a1}; shr.u32 %fcu{uid}, %fcu{uid}, 1; and.b32 %fcu{uid}, %fcu{uid}, 0x7FFF7FFF; add.u32 {d0}, %fct{uid}, %fcu{uid}",
        |_, a, o| o[0] = simd(a[0], a[1], 2, false, false, |x, y| (x + y) >> 1)
    ),
    pure!(
        "vhaddu4",
        [U32, U32] -> U32,
        70,
        ".reg .b32 %fct{uid}; .reg .b32 %fcu{uid}; and.b32 %fct{uid}, {a0}, {a1}; xor.b32 %fcu{uid}, {a0}, {a1}; shr.u32 %fcu{uid}, %fcu{uid}, 1; and.b32 %fcu{uid}, %fcu{uid}, 0x7F7F7F7F; add.u32 {d0}, %fct{uid}, %fcu{uid}",
        |_, a, o| o[0] = simd(a[0], a[1], 4, false, false, |x, y| (x + y) >> 1)
    ),
    pure!(
        "vabs2",
        [U32] -> U32,
        70,
        ".reg .b32 %fcz{uid}; mov.b32 %fcz{uid}, 0; vabsdiff2.s32.s32.s32 {d0}, {a0}, %fcz{uid}, %fcz{uid}",
        |_, a, o| o[0] = simd(a[0], 0, 2, true, false, abs_first)
    ),
    pure!(
        "vabs4",
        [U32] -> U32,
        70,
        ".reg .b32 %fcz{uid}; mov.b32 %fcz{uid}, 0; vabsdiff4.s32.s32.s32 {d0}, {a0}, %fcz{uid}, %fcz{uid}",
        |_, a, o| o[0] = simd(a[0], 0, 4, true, false, abs_first)
    ),
    pure!(
        "vneg2",
        [U32] -> U32,
        70,
        ".reg .b32 %fcz{uid}; mov.b32 %fcz{uid}, 0; vsub2.s32.s32.s32 {d0}, %fcz{uid}, {a0}, %fcz{uid}",
        |_, a, o| o[0] = simd(a[0], 0, 2, true, false, neg_first)
    ),
    pure!(
        "vneg4",
        [U32] -> U32,
        70,
        ".reg .b32 %fcz{uid}; mov.b32 %fcz{uid}, 0; vsub4.s32.s32.s32 {d0}, %fcz{uid}, {a0}, %fcz{uid}",
        |_, a, o| o[0] = simd(a[0], 0, 4, true, false, neg_first)
    ),
    vcmp!("vcmpeq2", 2, false, eq, "vset2.u32.u32.eq", "65535"),
    vcmp!("vcmpeq4", 4, false, eq, "vset4.u32.u32.eq", "255"),
    vcmp!("vcmpne2", 2, false, ne, "vset2.u32.u32.ne", "65535"),
    vcmp!("vcmpne4", 4, false, ne, "vset4.u32.u32.ne", "255"),
    vcmp!("vcmpges2", 2, true, ge, "vset2.s32.s32.ge", "65535"),
    vcmp!("vcmpges4", 4, true, ge, "vset4.s32.s32.ge", "255"),
    vcmp!("vcmpgeu2", 2, false, ge, "vset2.u32.u32.ge", "65535"),
    vcmp!("vcmpgeu4", 4, false, ge, "vset4.u32.u32.ge", "255"),
    vcmp!("vcmpgts2", 2, true, gt, "vset2.s32.s32.gt", "65535"),
    vcmp!("vcmpgts4", 4, true, gt, "vset4.s32.s32.gt", "255"),
    vcmp!("vcmpgtu2", 2, false, gt, "vset2.u32.u32.gt", "65535"),
    vcmp!("vcmpgtu4", 4, false, gt, "vset4.u32.u32.gt", "255"),
    vcmp!("vcmples2", 2, true, le, "vset2.s32.s32.le", "65535"),
    vcmp!("vcmples4", 4, true, le, "vset4.s32.s32.le", "255"),
    vcmp!("vcmpleu2", 2, false, le, "vset2.u32.u32.le", "65535"),
    vcmp!("vcmpleu4", 4, false, le, "vset4.u32.u32.le", "255"),
    vcmp!("vcmplts2", 2, true, lt, "vset2.s32.s32.lt", "65535"),
    vcmp!("vcmplts4", 4, true, lt, "vset4.s32.s32.lt", "255"),
    vcmp!("vcmpltu2", 2, false, lt, "vset2.u32.u32.lt", "65535"),
    vcmp!("vcmpltu4", 4, false, lt, "vset4.u32.u32.lt", "255"),
    simd!("vseteq2", 2, false, false, eq, "vset2.u32.u32.eq"),
    simd!("vseteq4", 4, false, false, eq, "vset4.u32.u32.eq"),
    simd!("vsetne2", 2, false, false, ne, "vset2.u32.u32.ne"),
    simd!("vsetne4", 4, false, false, ne, "vset4.u32.u32.ne"),
    simd!("vsetges2", 2, true, false, ge, "vset2.s32.s32.ge"),
    simd!("vsetges4", 4, true, false, ge, "vset4.s32.s32.ge"),
    simd!("vsetgeu2", 2, false, false, ge, "vset2.u32.u32.ge"),
    simd!("vsetgeu4", 4, false, false, ge, "vset4.u32.u32.ge"),
    simd!("vsetgts2", 2, true, false, gt, "vset2.s32.s32.gt"),
    simd!("vsetgts4", 4, true, false, gt, "vset4.s32.s32.gt"),
    simd!("vsetgtu2", 2, false, false, gt, "vset2.u32.u32.gt"),
    simd!("vsetgtu4", 4, false, false, gt, "vset4.u32.u32.gt"),
    simd!("vsetles2", 2, true, false, le, "vset2.s32.s32.le"),
    simd!("vsetles4", 4, true, false, le, "vset4.s32.s32.le"),
    simd!("vsetleu2", 2, false, false, le, "vset2.u32.u32.le"),
    simd!("vsetleu4", 4, false, false, le, "vset4.u32.u32.le"),
    simd!("vsetlts2", 2, true, false, lt, "vset2.s32.s32.lt"),
    simd!("vsetlts4", 4, true, false, lt, "vset4.s32.s32.lt"),
    simd!("vsetltu2", 2, false, false, lt, "vset2.u32.u32.lt"),
    simd!("vsetltu4", 4, false, false, lt, "vset4.u32.u32.lt"),
];
