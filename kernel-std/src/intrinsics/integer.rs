//! Integer intrinsics of the CUDA math API (`__popc`, `__clz`, `__byte_perm`, `__funnelshift_l`,
//! `__mulhi`, `__dp4a`, the SIMD video family `__vadd2`, `__vcmpeq4`...), named without the
//! leading underscores. Semantics match CUDA's; the simulator implements each independently of
//! PTX.
//!
//! The count/abs/min/max helpers also exist as Rust methods (`x.count_ones()`,
//! `x.leading_zeros()`, `x.reverse_bits()`, `x.abs()`, `x.min(y)`), which work on every integer
//! width.
//!
//! Every SIMD function is one PTX video instruction (`vadd2`, `vset4`...); ptxas expands those into
//! plain integer code on the architectures that lack them, as CUDA's own headers rely on. Video
//! instructions take no immediates, so templates that need a zero declare a private register.

use super::SimEnv;

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

/// `fns`: the bit position reached by walking from bit `base` of `mask` (up for a positive
/// `offset`, down for a negative one) to its `|offset|`-th set bit, `base` itself when `offset`
/// is 0 and that bit is set; `0xffff_ffff` when there is none.
fn nth_set_bit(mask: u32, base: u32, offset: i32) -> u64 {
    if base > 31 {
        return 0xffff_ffff;
    }
    if offset == 0 {
        return if mask >> base & 1 == 1 {
            base as u64
        } else {
            0xffff_ffff
        };
    }
    let mut left = offset.unsigned_abs();
    let mut pos = base as i32;
    while (0..32).contains(&pos) {
        if mask >> pos & 1 == 1 {
            left -= 1;
            if left == 0 {
                return pos as u64;
            }
        }
        pos += offset.signum();
    }
    0xffff_ffff
}

/// `prmt.b32` in its default mode: byte `i` of the result is byte `s[4i+2..4i]` of `{b, a}`
/// (bytes 0..3 from `a`, 4..7 from `b`); bit `4i+3` replicates that byte's sign bit.
fn prmt(a: u64, b: u64, s: u64) -> u64 {
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
fn dot4(a: u64, b: u64, c: u64, signed: bool) -> u64 {
    let mut acc = if signed { s32(c) } else { c as u32 as i64 };
    for i in 0..4 {
        acc += byte(a, i, signed) * byte(b, i, signed);
    }
    acc as u64 & 0xffff_ffff
}

/// `dp2a.lo/hi`: two halfword products of `a` with bytes 0-1 (lo) or 2-3 (hi) of `b`, plus `c`.
fn dot2(a: u64, b: u64, c: u64, signed: bool, hi: bool) -> u64 {
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

/// The PTX of a SIMD video entry: `$op {d0}, {a0}, {a1}` with a zero third operand.
macro_rules! simd_ptx {
    ($op:literal) => {
        concat!(
            ".reg .b32 %fcz{uid}; mov.b32 %fcz{uid}, 0; ",
            $op,
            " {d0}, {a0}, {a1}, %fcz{uid}"
        )
    };
}

/// The simulator semantics of a SIMD entry: `$lanes` lanes, signedness, saturation, the lane
/// function.
macro_rules! simd_sim {
    ($lanes:literal, $signed:literal, $sat:literal, $f:expr) => {
        |_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]| {
            o[0] = simd(a[0], a[1], $lanes, $signed, $sat, $f)
        }
    };
}

/// A SIMD comparison as CUDA's `__vcmp*`: `vset` gives 1 per true lane, which the template
/// multiplies by the lane mask `$ones` so true lanes are all ones.
macro_rules! vcmp_ptx {
    ($op:literal, $ones:literal) => {
        concat!(
            ".reg .b32 %fcz{uid}; mov.b32 %fcz{uid}, 0; ",
            $op,
            " {d0}, {a0}, {a1}, %fcz{uid}; mul.lo.u32 {d0}, {d0}, ",
            $ones
        )
    };
}
macro_rules! vcmp_sim {
    ($lanes:literal, $signed:literal, $f:ident) => {
        |_: &mut dyn SimEnv, a: &[u64], o: &mut [u64]| {
            o[0] = simd(a[0], a[1], $lanes, $signed, false, |x, y| {
                all_ones($f, x, y)
            })
        }
    };
}

intrinsics! {
    table TABLE;

    /// `__popc`: number of set bits.
    pub fn popc(x: u32) -> i32 =
        pure(70, "popc.b32 {d0}, {a0}", |_, a, o| o[0] = (a[0] as u32).count_ones() as u64);
    /// `__popcll`: number of set bits of a 64-bit value.
    pub fn popcll(x: u64) -> i32 =
        pure(70, "popc.b64 {d0}, {a0}", |_, a, o| o[0] = a[0].count_ones() as u64);
    /// `__clz`: number of leading zero bits (32 for 0).
    pub fn clz(x: i32) -> i32 =
        pure(70, "clz.b32 {d0}, {a0}", |_, a, o| o[0] = (a[0] as u32).leading_zeros() as u64);
    /// `__clzll`: number of leading zero bits of a 64-bit value (64 for 0).
    pub fn clzll(x: i64) -> i32 =
        pure(70, "clz.b64 {d0}, {a0}", |_, a, o| o[0] = a[0].leading_zeros() as u64);
    /// `__ffs`: 1-based position of the least significant set bit, 0 when `x == 0`.
    pub fn ffs(x: i32) -> i32 = pure(
        70,
        "brev.b32 {d0}, {a0}; bfind.shiftamt.u32 {d0}, {d0}; add.u32 {d0}, {d0}, 1",
        |_, a, o| o[0] = ffs64(a[0] & 0xffff_ffff)
    );
    /// `__ffsll`: `ffs` of a 64-bit value.
    pub fn ffsll(x: i64) -> i32 = pure(
        70,
        ".reg .b64 %fcw{uid}; brev.b64 %fcw{uid}, {a0}; bfind.shiftamt.u64 {d0}, %fcw{uid}; add.u32 {d0}, {d0}, 1",
        |_, a, o| o[0] = ffs64(a[0])
    );
    /// `__brev`: the bits of `x` in reverse order (same as `x.reverse_bits()`).
    pub fn brev(x: u32) -> u32 =
        pure(70, "brev.b32 {d0}, {a0}", |_, a, o| o[0] = (a[0] as u32).reverse_bits() as u64);
    /// `__brevll`: 64-bit `brev`.
    pub fn brevll(x: u64) -> u64 =
        pure(70, "brev.b64 {d0}, {a0}", |_, a, o| o[0] = a[0].reverse_bits());
    /// `__fns(mask, base, offset)`: the position of the `offset`-th set bit of `mask` counting
    /// from bit `base` (`base` is the first), upwards for a positive `offset` and downwards for a
    /// negative one; for `offset == 0`, `base` if that bit is set. `0xffff_ffff` when there is no
    /// such bit. `base` must be 0..=31.
    pub fn fns(mask: u32, base: u32, offset: i32) -> u32 = pure(
        70,
        "fns.b32 {d0}, {a0}, {a1}, {a2}",
        |_, a, o| o[0] = nth_set_bit(a[0] as u32, a[1] as u32, a[2] as u32 as i32)
    );
    /// `__byte_perm(x, y, s)`: byte `i` of the result is byte `(s >> 4i) & 7` of the 8-byte value
    /// `y:x` (`x` supplies bytes 0-3); bit `4i + 3` of `s` replicates that byte's sign instead
    /// (PTX `prmt`).
    pub fn byte_perm(x: u32, y: u32, s: u32) -> u32 = pure(
        70,
        "prmt.b32 {d0}, {a0}, {a1}, {a2}",
        |_, a, o| { o[0] = prmt(a[0], a[1], a[2]) }
    );
    /// `__funnelshift_l(lo, hi, shift)`: the high 32 bits of `hi:lo << (shift & 31)`.
    pub fn funnelshift_l(lo: u32, hi: u32, shift: u32) -> u32 = pure(
        70,
        "shf.l.wrap.b32 {d0}, {a0}, {a1}, {a2}",
        |_, a, o| { o[0] = funnel(a[0], a[1], (a[2] & 31) as u32, true) }
    );
    /// `__funnelshift_lc`: as `funnelshift_l` with the shift clamped to 32 (32 or more returns `lo`).
    pub fn funnelshift_lc(lo: u32, hi: u32, shift: u32) -> u32 = pure(
        70,
        "shf.l.clamp.b32 {d0}, {a0}, {a1}, {a2}",
        |_, a, o| { o[0] = funnel(a[0], a[1], (a[2] as u32).min(32), true) }
    );
    /// `__funnelshift_r(lo, hi, shift)`: the low 32 bits of `hi:lo >> (shift & 31)`.
    pub fn funnelshift_r(lo: u32, hi: u32, shift: u32) -> u32 = pure(
        70,
        "shf.r.wrap.b32 {d0}, {a0}, {a1}, {a2}",
        |_, a, o| { o[0] = funnel(a[0], a[1], (a[2] & 31) as u32, false) }
    );
    /// `__funnelshift_rc`: as `funnelshift_r` with the shift clamped to 32 (32 or more returns `hi`).
    pub fn funnelshift_rc(lo: u32, hi: u32, shift: u32) -> u32 = pure(
        70,
        "shf.r.clamp.b32 {d0}, {a0}, {a1}, {a2}",
        |_, a, o| { o[0] = funnel(a[0], a[1], (a[2] as u32).min(32), false) }
    );
    /// `__mulhi`: the high 32 bits of the 64-bit product.
    pub fn mul_hi(x: i32, y: i32) -> i32 = pure(
        70,
        "mul.hi.s32 {d0}, {a0}, {a1}",
        |_, a, o| { o[0] = ((s32(a[0]) * s32(a[1])) >> 32) as u64 }
    );
    /// `__umulhi`: the high 32 bits of the unsigned 64-bit product.
    pub fn umul_hi(x: u32, y: u32) -> u32 = pure(
        70,
        "mul.hi.u32 {d0}, {a0}, {a1}",
        |_, a, o| { o[0] = ((a[0] & 0xffff_ffff) * (a[1] & 0xffff_ffff)) >> 32 }
    );
    /// `__mul64hi`: the high 64 bits of the 128-bit product.
    pub fn mul64hi(x: i64, y: i64) -> i64 = pure(
        70,
        "mul.hi.s64 {d0}, {a0}, {a1}",
        |_, a, o| { o[0] = ((a[0] as i64 as i128 * a[1] as i64 as i128) >> 64) as u64 }
    );
    /// `__umul64hi`: the high 64 bits of the unsigned 128-bit product.
    pub fn umul64hi(x: u64, y: u64) -> u64 = pure(
        70,
        "mul.hi.u64 {d0}, {a0}, {a1}",
        |_, a, o| { o[0] = ((a[0] as u128 * a[1] as u128) >> 64) as u64 }
    );
    /// `__mul24`: the low 32 bits of the product of the sign-extended low 24 bits of `x` and `y`.
    pub fn mul24(x: i32, y: i32) -> i32 = pure(
        70,
        "mul24.lo.s32 {d0}, {a0}, {a1}",
        |_, a, o| { o[0] = (low24(a[0], true) * low24(a[1], true)) as u64 }
    );
    /// `__umul24`: the low 32 bits of the product of the low 24 bits of `x` and `y`.
    pub fn umul24(x: u32, y: u32) -> u32 = pure(
        70,
        "mul24.lo.u32 {d0}, {a0}, {a1}",
        |_, a, o| { o[0] = (low24(a[0], false) * low24(a[1], false)) as u64 }
    );
    /// `__sad(x, y, z)`: `|x - y| + z` (wrapping).
    pub fn sad(x: i32, y: i32, z: u32) -> u32 = pure(
        70,
        "sad.s32 {d0}, {a0}, {a1}, {a2}",
        |_, a, o| { o[0] = (s32(a[0]) - s32(a[1])).unsigned_abs().wrapping_add(a[2]) }
    );
    /// `__usad(x, y, z)`: `|x - y| + z` on unsigned values (wrapping).
    pub fn usad(x: u32, y: u32, z: u32) -> u32 = pure(
        70,
        "sad.u32 {d0}, {a0}, {a1}, {a2}",
        |_, a, o| {
            let d = (a[0] as u32 as i64) - (a[1] as u32 as i64);
            o[0] = d.unsigned_abs().wrapping_add(a[2])
        }
    );
    /// `__dp4a(a, b, c)`: `c` plus the four products of the signed bytes of `a` and `b` (sm_61+).
    pub fn dp4a(a: i32, b: i32, c: i32) -> i32 = pure(
        61,
        "dp4a.s32.s32 {d0}, {a0}, {a1}, {a2}",
        |_, a, o| { o[0] = dot4(a[0], a[1], a[2], true) }
    );
    /// `__dp4a` on unsigned bytes (sm_61+).
    pub fn udp4a(a: u32, b: u32, c: u32) -> u32 = pure(
        61,
        "dp4a.u32.u32 {d0}, {a0}, {a1}, {a2}",
        |_, a, o| { o[0] = dot4(a[0], a[1], a[2], false) }
    );
    /// `__dp2a_lo(a, b, c)`: `c` plus the products of the two signed halfwords of `a` with bytes 0 and 1
    /// of `b` (sm_61+).
    pub fn dp2a_lo(a: i32, b: i32, c: i32) -> i32 = pure(
        61,
        "dp2a.lo.s32.s32 {d0}, {a0}, {a1}, {a2}",
        |_, a, o| { o[0] = dot2(a[0], a[1], a[2], true, false) }
    );
    /// `__dp2a_hi(a, b, c)`: as `dp2a_lo` with bytes 2 and 3 of `b` (sm_61+).
    pub fn dp2a_hi(a: i32, b: i32, c: i32) -> i32 = pure(
        61,
        "dp2a.hi.s32.s32 {d0}, {a0}, {a1}, {a2}",
        |_, a, o| { o[0] = dot2(a[0], a[1], a[2], true, true) }
    );
    /// `__dp2a_lo` on unsigned values (sm_61+).
    pub fn udp2a_lo(a: u32, b: u32, c: u32) -> u32 = pure(
        61,
        "dp2a.lo.u32.u32 {d0}, {a0}, {a1}, {a2}",
        |_, a, o| { o[0] = dot2(a[0], a[1], a[2], false, false) }
    );
    /// `__dp2a_hi` on unsigned values (sm_61+).
    pub fn udp2a_hi(a: u32, b: u32, c: u32) -> u32 = pure(
        61,
        "dp2a.hi.u32.u32 {d0}, {a0}, {a1}, {a2}",
        |_, a, o| { o[0] = dot2(a[0], a[1], a[2], false, true) }
    );
    /// `__vadd2`: per-halfword wrapping addition.
    pub fn vadd2(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vadd2.u32.u32.u32"), simd_sim!(2, false, false, add));
    /// `__vadd4`: per-byte wrapping addition.
    pub fn vadd4(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vadd4.u32.u32.u32"), simd_sim!(4, false, false, add));
    /// `__vaddss2`: per-halfword signed saturating addition.
    pub fn vaddss2(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vadd2.s32.s32.s32.sat"), simd_sim!(2, true, true, add));
    /// `__vaddss4`: per-byte signed saturating addition.
    pub fn vaddss4(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vadd4.s32.s32.s32.sat"), simd_sim!(4, true, true, add));
    /// `__vaddus2`: per-halfword unsigned saturating addition.
    pub fn vaddus2(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vadd2.u32.u32.u32.sat"), simd_sim!(2, false, true, add));
    /// `__vaddus4`: per-byte unsigned saturating addition.
    pub fn vaddus4(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vadd4.u32.u32.u32.sat"), simd_sim!(4, false, true, add));
    /// `__vsub2`: per-halfword wrapping subtraction.
    pub fn vsub2(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vsub2.u32.u32.u32"), simd_sim!(2, false, false, sub));
    /// `__vsub4`: per-byte wrapping subtraction.
    pub fn vsub4(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vsub4.u32.u32.u32"), simd_sim!(4, false, false, sub));
    /// `__vsubss2`: per-halfword signed saturating subtraction.
    pub fn vsubss2(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vsub2.s32.s32.s32.sat"), simd_sim!(2, true, true, sub));
    /// `__vsubss4`: per-byte signed saturating subtraction.
    pub fn vsubss4(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vsub4.s32.s32.s32.sat"), simd_sim!(4, true, true, sub));
    /// `__vsubus2`: per-halfword unsigned saturating subtraction (floors at 0).
    pub fn vsubus2(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vsub2.u32.u32.u32.sat"), simd_sim!(2, false, true, sub));
    /// `__vsubus4`: per-byte unsigned saturating subtraction (floors at 0).
    pub fn vsubus4(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vsub4.u32.u32.u32.sat"), simd_sim!(4, false, true, sub));
    /// `__vabsdiffs2`: per-halfword `|a - b|` of signed lanes.
    pub fn vabsdiffs2(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vabsdiff2.s32.s32.s32"), simd_sim!(2, true, false, absdiff));
    /// `__vabsdiffs4`: per-byte `|a - b|` of signed lanes.
    pub fn vabsdiffs4(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vabsdiff4.s32.s32.s32"), simd_sim!(4, true, false, absdiff));
    /// `__vabsdiffu2`: per-halfword `|a - b|` of unsigned lanes.
    pub fn vabsdiffu2(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vabsdiff2.u32.u32.u32"), simd_sim!(2, false, false, absdiff));
    /// `__vabsdiffu4`: per-byte `|a - b|` of unsigned lanes.
    pub fn vabsdiffu4(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vabsdiff4.u32.u32.u32"), simd_sim!(4, false, false, absdiff));
    /// `__vavgs2`: per-halfword signed average `(a + b + 1) >> 1`.
    pub fn vavgs2(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vavrg2.s32.s32.s32"), simd_sim!(2, true, false, avg));
    /// `__vavgs4`: per-byte signed average `(a + b + 1) >> 1`.
    pub fn vavgs4(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vavrg4.s32.s32.s32"), simd_sim!(4, true, false, avg));
    /// `__vavgu2`: per-halfword unsigned average `(a + b + 1) >> 1`.
    pub fn vavgu2(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vavrg2.u32.u32.u32"), simd_sim!(2, false, false, avg));
    /// `__vavgu4`: per-byte unsigned average `(a + b + 1) >> 1`.
    pub fn vavgu4(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vavrg4.u32.u32.u32"), simd_sim!(4, false, false, avg));
    /// `__vmaxs2`: per-halfword signed maximum.
    pub fn vmaxs2(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vmax2.s32.s32.s32"), simd_sim!(2, true, false, max));
    /// `__vmaxs4`: per-byte signed maximum.
    pub fn vmaxs4(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vmax4.s32.s32.s32"), simd_sim!(4, true, false, max));
    /// `__vmaxu2`: per-halfword unsigned maximum.
    pub fn vmaxu2(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vmax2.u32.u32.u32"), simd_sim!(2, false, false, max));
    /// `__vmaxu4`: per-byte unsigned maximum.
    pub fn vmaxu4(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vmax4.u32.u32.u32"), simd_sim!(4, false, false, max));
    /// `__vmins2`: per-halfword signed minimum.
    pub fn vmins2(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vmin2.s32.s32.s32"), simd_sim!(2, true, false, min));
    /// `__vmins4`: per-byte signed minimum.
    pub fn vmins4(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vmin4.s32.s32.s32"), simd_sim!(4, true, false, min));
    /// `__vminu2`: per-halfword unsigned minimum.
    pub fn vminu2(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vmin2.u32.u32.u32"), simd_sim!(2, false, false, min));
    /// `__vminu4`: per-byte unsigned minimum.
    pub fn vminu4(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vmin4.u32.u32.u32"), simd_sim!(4, false, false, min));
    /// `__vabs2`: per-halfword signed absolute value (`-32768` stays `0x8000`).
    pub fn vabs2(a: u32) -> u32 = pure(
        70,
        ".reg .b32 %fcz{uid}; mov.b32 %fcz{uid}, 0; vabsdiff2.s32.s32.s32 {d0}, {a0}, %fcz{uid}, %fcz{uid}",
        |_, a, o| o[0] = simd(a[0], 0, 2, true, false, abs_first)
    );
    /// `__vabs4`: per-byte signed absolute value (`-128` stays `0x80`).
    pub fn vabs4(a: u32) -> u32 = pure(
        70,
        ".reg .b32 %fcz{uid}; mov.b32 %fcz{uid}, 0; vabsdiff4.s32.s32.s32 {d0}, {a0}, %fcz{uid}, %fcz{uid}",
        |_, a, o| o[0] = simd(a[0], 0, 4, true, false, abs_first)
    );
    /// `__vneg2`: per-halfword negation.
    pub fn vneg2(a: u32) -> u32 = pure(
        70,
        ".reg .b32 %fcz{uid}; mov.b32 %fcz{uid}, 0; vsub2.s32.s32.s32 {d0}, %fcz{uid}, {a0}, %fcz{uid}",
        |_, a, o| o[0] = simd(a[0], 0, 2, true, false, neg_first)
    );
    /// `__vneg4`: per-byte negation.
    pub fn vneg4(a: u32) -> u32 = pure(
        70,
        ".reg .b32 %fcz{uid}; mov.b32 %fcz{uid}, 0; vsub4.s32.s32.s32 {d0}, %fcz{uid}, {a0}, %fcz{uid}",
        |_, a, o| o[0] = simd(a[0], 0, 4, true, false, neg_first)
    );
    /// `__vcmpeq2`: per-halfword equal; a true lane is all ones, a false one 0.
    pub fn vcmpeq2(a: u32, b: u32) -> u32 =
        pure(70, vcmp_ptx!("vset2.u32.u32.eq", "65535"), vcmp_sim!(2, false, eq));
    /// `__vseteq2`: per-halfword equal; a true lane is 1, a false one 0.
    pub fn vseteq2(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vset2.u32.u32.eq"), simd_sim!(2, false, false, eq));
    /// `__vcmpeq4`: per-byte equal; a true lane is all ones, a false one 0.
    pub fn vcmpeq4(a: u32, b: u32) -> u32 =
        pure(70, vcmp_ptx!("vset4.u32.u32.eq", "255"), vcmp_sim!(4, false, eq));
    /// `__vseteq4`: per-byte equal; a true lane is 1, a false one 0.
    pub fn vseteq4(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vset4.u32.u32.eq"), simd_sim!(4, false, false, eq));
    /// `__vcmpne2`: per-halfword not equal; a true lane is all ones, a false one 0.
    pub fn vcmpne2(a: u32, b: u32) -> u32 =
        pure(70, vcmp_ptx!("vset2.u32.u32.ne", "65535"), vcmp_sim!(2, false, ne));
    /// `__vsetne2`: per-halfword not equal; a true lane is 1, a false one 0.
    pub fn vsetne2(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vset2.u32.u32.ne"), simd_sim!(2, false, false, ne));
    /// `__vcmpne4`: per-byte not equal; a true lane is all ones, a false one 0.
    pub fn vcmpne4(a: u32, b: u32) -> u32 =
        pure(70, vcmp_ptx!("vset4.u32.u32.ne", "255"), vcmp_sim!(4, false, ne));
    /// `__vsetne4`: per-byte not equal; a true lane is 1, a false one 0.
    pub fn vsetne4(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vset4.u32.u32.ne"), simd_sim!(4, false, false, ne));
    /// `__vcmpges2`: per-halfword signed >=; a true lane is all ones, a false one 0.
    pub fn vcmpges2(a: u32, b: u32) -> u32 =
        pure(70, vcmp_ptx!("vset2.s32.s32.ge", "65535"), vcmp_sim!(2, true, ge));
    /// `__vsetges2`: per-halfword signed >=; a true lane is 1, a false one 0.
    pub fn vsetges2(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vset2.s32.s32.ge"), simd_sim!(2, true, false, ge));
    /// `__vcmpges4`: per-byte signed >=; a true lane is all ones, a false one 0.
    pub fn vcmpges4(a: u32, b: u32) -> u32 =
        pure(70, vcmp_ptx!("vset4.s32.s32.ge", "255"), vcmp_sim!(4, true, ge));
    /// `__vsetges4`: per-byte signed >=; a true lane is 1, a false one 0.
    pub fn vsetges4(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vset4.s32.s32.ge"), simd_sim!(4, true, false, ge));
    /// `__vcmpgeu2`: per-halfword unsigned >=; a true lane is all ones, a false one 0.
    pub fn vcmpgeu2(a: u32, b: u32) -> u32 =
        pure(70, vcmp_ptx!("vset2.u32.u32.ge", "65535"), vcmp_sim!(2, false, ge));
    /// `__vsetgeu2`: per-halfword unsigned >=; a true lane is 1, a false one 0.
    pub fn vsetgeu2(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vset2.u32.u32.ge"), simd_sim!(2, false, false, ge));
    /// `__vcmpgeu4`: per-byte unsigned >=; a true lane is all ones, a false one 0.
    pub fn vcmpgeu4(a: u32, b: u32) -> u32 =
        pure(70, vcmp_ptx!("vset4.u32.u32.ge", "255"), vcmp_sim!(4, false, ge));
    /// `__vsetgeu4`: per-byte unsigned >=; a true lane is 1, a false one 0.
    pub fn vsetgeu4(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vset4.u32.u32.ge"), simd_sim!(4, false, false, ge));
    /// `__vcmpgts2`: per-halfword signed >; a true lane is all ones, a false one 0.
    pub fn vcmpgts2(a: u32, b: u32) -> u32 =
        pure(70, vcmp_ptx!("vset2.s32.s32.gt", "65535"), vcmp_sim!(2, true, gt));
    /// `__vsetgts2`: per-halfword signed >; a true lane is 1, a false one 0.
    pub fn vsetgts2(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vset2.s32.s32.gt"), simd_sim!(2, true, false, gt));
    /// `__vcmpgts4`: per-byte signed >; a true lane is all ones, a false one 0.
    pub fn vcmpgts4(a: u32, b: u32) -> u32 =
        pure(70, vcmp_ptx!("vset4.s32.s32.gt", "255"), vcmp_sim!(4, true, gt));
    /// `__vsetgts4`: per-byte signed >; a true lane is 1, a false one 0.
    pub fn vsetgts4(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vset4.s32.s32.gt"), simd_sim!(4, true, false, gt));
    /// `__vcmpgtu2`: per-halfword unsigned >; a true lane is all ones, a false one 0.
    pub fn vcmpgtu2(a: u32, b: u32) -> u32 =
        pure(70, vcmp_ptx!("vset2.u32.u32.gt", "65535"), vcmp_sim!(2, false, gt));
    /// `__vsetgtu2`: per-halfword unsigned >; a true lane is 1, a false one 0.
    pub fn vsetgtu2(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vset2.u32.u32.gt"), simd_sim!(2, false, false, gt));
    /// `__vcmpgtu4`: per-byte unsigned >; a true lane is all ones, a false one 0.
    pub fn vcmpgtu4(a: u32, b: u32) -> u32 =
        pure(70, vcmp_ptx!("vset4.u32.u32.gt", "255"), vcmp_sim!(4, false, gt));
    /// `__vsetgtu4`: per-byte unsigned >; a true lane is 1, a false one 0.
    pub fn vsetgtu4(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vset4.u32.u32.gt"), simd_sim!(4, false, false, gt));
    /// `__vcmples2`: per-halfword signed <=; a true lane is all ones, a false one 0.
    pub fn vcmples2(a: u32, b: u32) -> u32 =
        pure(70, vcmp_ptx!("vset2.s32.s32.le", "65535"), vcmp_sim!(2, true, le));
    /// `__vsetles2`: per-halfword signed <=; a true lane is 1, a false one 0.
    pub fn vsetles2(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vset2.s32.s32.le"), simd_sim!(2, true, false, le));
    /// `__vcmples4`: per-byte signed <=; a true lane is all ones, a false one 0.
    pub fn vcmples4(a: u32, b: u32) -> u32 =
        pure(70, vcmp_ptx!("vset4.s32.s32.le", "255"), vcmp_sim!(4, true, le));
    /// `__vsetles4`: per-byte signed <=; a true lane is 1, a false one 0.
    pub fn vsetles4(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vset4.s32.s32.le"), simd_sim!(4, true, false, le));
    /// `__vcmpleu2`: per-halfword unsigned <=; a true lane is all ones, a false one 0.
    pub fn vcmpleu2(a: u32, b: u32) -> u32 =
        pure(70, vcmp_ptx!("vset2.u32.u32.le", "65535"), vcmp_sim!(2, false, le));
    /// `__vsetleu2`: per-halfword unsigned <=; a true lane is 1, a false one 0.
    pub fn vsetleu2(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vset2.u32.u32.le"), simd_sim!(2, false, false, le));
    /// `__vcmpleu4`: per-byte unsigned <=; a true lane is all ones, a false one 0.
    pub fn vcmpleu4(a: u32, b: u32) -> u32 =
        pure(70, vcmp_ptx!("vset4.u32.u32.le", "255"), vcmp_sim!(4, false, le));
    /// `__vsetleu4`: per-byte unsigned <=; a true lane is 1, a false one 0.
    pub fn vsetleu4(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vset4.u32.u32.le"), simd_sim!(4, false, false, le));
    /// `__vcmplts2`: per-halfword signed <; a true lane is all ones, a false one 0.
    pub fn vcmplts2(a: u32, b: u32) -> u32 =
        pure(70, vcmp_ptx!("vset2.s32.s32.lt", "65535"), vcmp_sim!(2, true, lt));
    /// `__vsetlts2`: per-halfword signed <; a true lane is 1, a false one 0.
    pub fn vsetlts2(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vset2.s32.s32.lt"), simd_sim!(2, true, false, lt));
    /// `__vcmplts4`: per-byte signed <; a true lane is all ones, a false one 0.
    pub fn vcmplts4(a: u32, b: u32) -> u32 =
        pure(70, vcmp_ptx!("vset4.s32.s32.lt", "255"), vcmp_sim!(4, true, lt));
    /// `__vsetlts4`: per-byte signed <; a true lane is 1, a false one 0.
    pub fn vsetlts4(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vset4.s32.s32.lt"), simd_sim!(4, true, false, lt));
    /// `__vcmpltu2`: per-halfword unsigned <; a true lane is all ones, a false one 0.
    pub fn vcmpltu2(a: u32, b: u32) -> u32 =
        pure(70, vcmp_ptx!("vset2.u32.u32.lt", "65535"), vcmp_sim!(2, false, lt));
    /// `__vsetltu2`: per-halfword unsigned <; a true lane is 1, a false one 0.
    pub fn vsetltu2(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vset2.u32.u32.lt"), simd_sim!(2, false, false, lt));
    /// `__vcmpltu4`: per-byte unsigned <; a true lane is all ones, a false one 0.
    pub fn vcmpltu4(a: u32, b: u32) -> u32 =
        pure(70, vcmp_ptx!("vset4.u32.u32.lt", "255"), vcmp_sim!(4, false, lt));
    /// `__vsetltu4`: per-byte unsigned <; a true lane is 1, a false one 0.
    pub fn vsetltu4(a: u32, b: u32) -> u32 =
        pure(70, simd_ptx!("vset4.u32.u32.lt"), simd_sim!(4, false, false, lt));
    /// `__vsads2`: the sum of the per-halfword `|a - b|` of signed lanes.
    pub fn vsads2(a: u32, b: u32) -> u32 = pure(
        70,
        ".reg .b32 %fcz{uid}; mov.b32 %fcz{uid}, 0; vabsdiff2.s32.s32.s32.add {d0}, {a0}, {a1}, %fcz{uid}",
        |_, a, o| o[0] = lane_sum(simd(a[0], a[1], 2, true, false, absdiff), 2)
    );
    /// `__vsads4`: the sum of the per-byte `|a - b|` of signed lanes.
    pub fn vsads4(a: u32, b: u32) -> u32 = pure(
        70,
        ".reg .b32 %fcz{uid}; mov.b32 %fcz{uid}, 0; vabsdiff4.s32.s32.s32.add {d0}, {a0}, {a1}, %fcz{uid}",
        |_, a, o| o[0] = lane_sum(simd(a[0], a[1], 4, true, false, absdiff), 4)
    );
    /// `__vsadu2`: the sum of the per-halfword `|a - b|` of unsigned lanes.
    pub fn vsadu2(a: u32, b: u32) -> u32 = pure(
        70,
        ".reg .b32 %fcz{uid}; mov.b32 %fcz{uid}, 0; vabsdiff2.u32.u32.u32.add {d0}, {a0}, {a1}, %fcz{uid}",
        |_, a, o| o[0] = lane_sum(simd(a[0], a[1], 2, false, false, absdiff), 2)
    );
    /// `__vsadu4`: the sum of the per-byte `|a - b|` of unsigned lanes.
    pub fn vsadu4(a: u32, b: u32) -> u32 = pure(
        70,
        ".reg .b32 %fcz{uid}; mov.b32 %fcz{uid}, 0; vabsdiff4.u32.u32.u32.add {d0}, {a0}, {a1}, %fcz{uid}",
        |_, a, o| o[0] = lane_sum(simd(a[0], a[1], 4, false, false, absdiff), 4)
    );
    /// `__vhaddu2`: per-halfword unsigned average rounded down, `(a + b) >> 1`.
    pub fn vhaddu2(a: u32, b: u32) -> u32 = pure(
        70,
        ".reg .b32 %fct{uid}; .reg .b32 %fcu{uid}; and.b32 %fct{uid}, {a0}, {a1}; xor.b32 %fcu{uid}, {a0}, {a1}; shr.u32 %fcu{uid}, %fcu{uid}, 1; and.b32 %fcu{uid}, %fcu{uid}, 0x7FFF7FFF; add.u32 {d0}, %fct{uid}, %fcu{uid}",
        |_, a, o| o[0] = simd(a[0], a[1], 2, false, false, |x, y| (x + y) >> 1)
    );
    /// `__vhaddu4`: per-byte unsigned average rounded down, `(a + b) >> 1`.
    pub fn vhaddu4(a: u32, b: u32) -> u32 = pure(
        70,
        ".reg .b32 %fct{uid}; .reg .b32 %fcu{uid}; and.b32 %fct{uid}, {a0}, {a1}; xor.b32 %fcu{uid}, {a0}, {a1}; shr.u32 %fcu{uid}, %fcu{uid}, 1; and.b32 %fcu{uid}, %fcu{uid}, 0x7F7F7F7F; add.u32 {d0}, %fct{uid}, %fcu{uid}",
        |_, a, o| o[0] = simd(a[0], a[1], 4, false, false, |x, y| (x + y) >> 1)
    );
}
