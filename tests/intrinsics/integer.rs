//! The CUDA math API's integer intrinsics (`popc` ... `dp4a`, the SIMD video family) against CPU
//! references written with Rust's own integer methods: on the simulator, on a GPU (`--ignored`),
//! and assembled by ptxas for sm_80 and sm_90.

// The lane references cast every lane to its signed or unsigned type uniformly, including the
// lanes already of that type.
#![allow(clippy::unnecessary_cast)]

use crate::intr_common;

use ferrocuda::prelude::*;
use intr_common::{assembles, gpu, inputs, sim};

#[kernel]
pub fn int_scalar(a: &[u32], b: &[u32], c: &[u32], out: &mut [u32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < a.len() {
        let (x, y, z) = (a[i], b[i], c[i]);
        let xy = (x as u64) << 32 | y as u64;
        let yz = (y as u64) << 32 | z as u64;
        let s = z & 63;
        let o = i * 42;
        out[o + 0] = popc(x) as u32;
        out[o + 1] = popcll(xy) as u32;
        out[o + 2] = clz(x as i32) as u32;
        out[o + 3] = clzll(xy as i64) as u32;
        out[o + 4] = ffs(x as i32) as u32;
        out[o + 5] = ffsll(xy as i64) as u32;
        out[o + 6] = ffsll(((x as u64) << 40) as i64) as u32;
        out[o + 7] = brev(x);
        out[o + 8] = brevll(xy) as u32;
        out[o + 9] = (brevll(xy) >> 32) as u32;
        out[o + 10] = x.reverse_bits();
        out[o + 11] = (xy.reverse_bits() >> 32) as u32;
        out[o + 12] = (x as u16).reverse_bits() as u32;
        out[o + 13] = (x as i8).reverse_bits() as u8 as u32;
        out[o + 14] = byte_perm(x, y, z);
        out[o + 15] = byte_perm(x, y, 0x3210);
        out[o + 16] = byte_perm(x, y, 0x0123);
        out[o + 17] = funnelshift_l(x, y, z);
        out[o + 18] = funnelshift_l(x, y, s);
        out[o + 19] = funnelshift_lc(x, y, s);
        out[o + 20] = funnelshift_r(x, y, s);
        out[o + 21] = funnelshift_rc(x, y, s);
        out[o + 22] = mul_hi(x as i32, y as i32) as u32;
        out[o + 23] = umul_hi(x, y);
        out[o + 24] = mul64hi(xy as i64, yz as i64) as u32;
        out[o + 25] = (mul64hi(xy as i64, yz as i64) >> 32) as u32;
        out[o + 26] = umul64hi(xy, yz) as u32;
        out[o + 27] = (umul64hi(xy, yz) >> 32) as u32;
        out[o + 28] = mul24(x as i32, y as i32) as u32;
        out[o + 29] = umul24(x, y);
        out[o + 30] = sad(x as i32, y as i32, z);
        out[o + 31] = usad(x, y, z);
        out[o + 32] = dp4a(x as i32, y as i32, z as i32) as u32;
        out[o + 33] = udp4a(x, y, z);
        out[o + 34] = dp2a_lo(x as i32, y as i32, z as i32) as u32;
        out[o + 35] = dp2a_hi(x as i32, y as i32, z as i32) as u32;
        out[o + 36] = udp2a_lo(x, y, z);
        out[o + 37] = udp2a_hi(x, y, z);
        out[o + 38] = fns(x, z & 31, (y % 7) as i32 - 3);
        out[o + 39] = fns(x, 0, 1);
        out[o + 40] = fns(x, 31, -1);
        out[o + 41] = fns(x, z & 31, 0);
    }
}

#[kernel]
pub fn int_simd(a: &[u32], b: &[u32], c: &[u32], out: &mut [u32]) {
    let i = (block_idx().x * block_dim().x + thread_idx().x) as usize;
    if i < a.len() {
        let (x, y, z) = (a[i], b[i], c[i]);
        let _ = z;
        let o = i * 78;
        out[o + 0] = vadd2(x, y);
        out[o + 1] = vadd4(x, y);
        out[o + 2] = vaddss2(x, y);
        out[o + 3] = vaddss4(x, y);
        out[o + 4] = vaddus2(x, y);
        out[o + 5] = vaddus4(x, y);
        out[o + 6] = vsub2(x, y);
        out[o + 7] = vsub4(x, y);
        out[o + 8] = vsubss2(x, y);
        out[o + 9] = vsubss4(x, y);
        out[o + 10] = vsubus2(x, y);
        out[o + 11] = vsubus4(x, y);
        out[o + 12] = vabsdiffs2(x, y);
        out[o + 13] = vabsdiffs4(x, y);
        out[o + 14] = vabsdiffu2(x, y);
        out[o + 15] = vabsdiffu4(x, y);
        out[o + 16] = vavgs2(x, y);
        out[o + 17] = vavgs4(x, y);
        out[o + 18] = vavgu2(x, y);
        out[o + 19] = vavgu4(x, y);
        out[o + 20] = vmaxs2(x, y);
        out[o + 21] = vmaxs4(x, y);
        out[o + 22] = vmaxu2(x, y);
        out[o + 23] = vmaxu4(x, y);
        out[o + 24] = vmins2(x, y);
        out[o + 25] = vmins4(x, y);
        out[o + 26] = vminu2(x, y);
        out[o + 27] = vminu4(x, y);
        out[o + 28] = vabs2(x);
        out[o + 29] = vneg2(x);
        out[o + 30] = vabs4(x);
        out[o + 31] = vneg4(x);
        out[o + 32] = vcmpeq2(x, y);
        out[o + 33] = vseteq2(x, y);
        out[o + 34] = vcmpeq4(x, y);
        out[o + 35] = vseteq4(x, y);
        out[o + 36] = vcmpne2(x, y);
        out[o + 37] = vsetne2(x, y);
        out[o + 38] = vcmpne4(x, y);
        out[o + 39] = vsetne4(x, y);
        out[o + 40] = vcmpges2(x, y);
        out[o + 41] = vsetges2(x, y);
        out[o + 42] = vcmpges4(x, y);
        out[o + 43] = vsetges4(x, y);
        out[o + 44] = vcmpgeu2(x, y);
        out[o + 45] = vsetgeu2(x, y);
        out[o + 46] = vcmpgeu4(x, y);
        out[o + 47] = vsetgeu4(x, y);
        out[o + 48] = vcmpgts2(x, y);
        out[o + 49] = vsetgts2(x, y);
        out[o + 50] = vcmpgts4(x, y);
        out[o + 51] = vsetgts4(x, y);
        out[o + 52] = vcmpgtu2(x, y);
        out[o + 53] = vsetgtu2(x, y);
        out[o + 54] = vcmpgtu4(x, y);
        out[o + 55] = vsetgtu4(x, y);
        out[o + 56] = vcmples2(x, y);
        out[o + 57] = vsetles2(x, y);
        out[o + 58] = vcmples4(x, y);
        out[o + 59] = vsetles4(x, y);
        out[o + 60] = vcmpleu2(x, y);
        out[o + 61] = vsetleu2(x, y);
        out[o + 62] = vcmpleu4(x, y);
        out[o + 63] = vsetleu4(x, y);
        out[o + 64] = vcmplts2(x, y);
        out[o + 65] = vsetlts2(x, y);
        out[o + 66] = vcmplts4(x, y);
        out[o + 67] = vsetlts4(x, y);
        out[o + 68] = vcmpltu2(x, y);
        out[o + 69] = vsetltu2(x, y);
        out[o + 70] = vcmpltu4(x, y);
        out[o + 71] = vsetltu4(x, y);
        out[o + 72] = vsads2(x, y);
        out[o + 73] = vsads4(x, y);
        out[o + 74] = vsadu2(x, y);
        out[o + 75] = vsadu4(x, y);
        out[o + 76] = vhaddu2(x, y);
        out[o + 77] = vhaddu4(x, y);
    }
}

/// `__byte_perm` as the CUDA documentation describes it.
fn perm(x: u32, y: u32, s: u32) -> u32 {
    let src = [x.to_le_bytes(), y.to_le_bytes()].concat();
    let mut r = [0u8; 4];
    for (i, b) in r.iter_mut().enumerate() {
        let sel = (s >> (4 * i)) as usize & 0xf;
        let v = src[sel & 7];
        *b = if sel & 8 == 0 {
            v
        } else {
            ((v as i8) >> 7) as u8
        };
    }
    u32::from_le_bytes(r)
}
/// `__fns` as the CUDA documentation describes it: the set bits of `mask` from `base` on (up or
/// down by the sign of `offset`), the `|offset|`-th of them.
fn fns_ref(mask: u32, base: u32, offset: i32) -> u32 {
    let set = |b: &u32| mask >> b & 1 == 1;
    if offset == 0 {
        return if set(&base) { base } else { u32::MAX };
    }
    let bits: Vec<u32> = if offset > 0 {
        (base..32).filter(set).collect()
    } else {
        (0..=base).rev().filter(set).collect()
    };
    bits.get(offset.unsigned_abs() as usize - 1)
        .copied()
        .unwrap_or(u32::MAX)
}
fn fsl(lo: u32, hi: u32, n: u32) -> u32 {
    (((hi as u64) << 32 | lo as u64) << n >> 32) as u32
}
fn fsr(lo: u32, hi: u32, n: u32) -> u32 {
    (((hi as u64) << 32 | lo as u64) >> n) as u32
}
/// `dp4a` (`n == 4`) and `dp2a` (`n == 2`, bytes of `b` from `first`): products summed into `c`.
fn dot(a: u32, b: u32, c: u32, signed: bool, n: usize, first: usize) -> u32 {
    let (ab, bb) = (a.to_le_bytes(), b.to_le_bytes());
    let ah = [a as u16, (a >> 16) as u16];
    let mut acc = c as i64;
    if signed {
        acc = c as i32 as i64;
    }
    for k in 0..n {
        let av = match (n, signed) {
            (4, true) => ab[k] as i8 as i64,
            (4, false) => ab[k] as i64,
            (_, true) => ah[k] as i16 as i64,
            _ => ah[k] as i64,
        };
        let bv = if signed {
            bb[first + k] as i8 as i64
        } else {
            bb[first + k] as i64
        };
        acc += av * bv;
    }
    acc as u32
}
fn lanes2(a: u32, b: u32, f: impl Fn(u16, u16) -> u16) -> u32 {
    let lo = f(a as u16, b as u16) as u32;
    let hi = f((a >> 16) as u16, (b >> 16) as u16) as u32;
    lo | hi << 16
}
fn lanes4(a: u32, b: u32, f: impl Fn(u8, u8) -> u8) -> u32 {
    let (x, y) = (a.to_le_bytes(), b.to_le_bytes());
    u32::from_le_bytes([f(x[0], y[0]), f(x[1], y[1]), f(x[2], y[2]), f(x[3], y[3])])
}

fn int_scalar_ref(x: u32, y: u32, z: u32) -> Vec<u32> {
    let xy = (x as u64) << 32 | y as u64;
    let yz = (y as u64) << 32 | z as u64;
    let s = z & 63;
    let _ = (xy, yz, s);
    vec![
        x.count_ones(),
        xy.count_ones(),
        x.leading_zeros(),
        xy.leading_zeros(),
        if x == 0 { 0 } else { x.trailing_zeros() + 1 },
        if xy == 0 { 0 } else { xy.trailing_zeros() + 1 },
        if x & 0xff_ffff == 0 {
            0
        } else {
            (x as u64).trailing_zeros() + 41
        },
        x.reverse_bits(),
        xy.reverse_bits() as u32,
        (xy.reverse_bits() >> 32) as u32,
        x.reverse_bits(),
        (xy.reverse_bits() >> 32) as u32,
        (x as u16).reverse_bits() as u32,
        (x as i8).reverse_bits() as u8 as u32,
        perm(x, y, z),
        x,
        x.swap_bytes(),
        fsl(x, y, z & 31),
        fsl(x, y, s & 31),
        fsl(x, y, s.min(32)),
        fsr(x, y, s & 31),
        fsr(x, y, s.min(32)),
        ((x as i32 as i64 * y as i32 as i64) >> 32) as u32,
        ((x as u64 * y as u64) >> 32) as u32,
        ((xy as i64 as i128 * yz as i64 as i128) >> 64) as u32,
        ((xy as i64 as i128 * yz as i64 as i128) >> 96) as u32,
        ((xy as u128 * yz as u128) >> 64) as u32,
        ((xy as u128 * yz as u128) >> 96) as u32,
        (((x << 8) as i32 >> 8).wrapping_mul((y << 8) as i32 >> 8)) as u32,
        (x & 0xff_ffff).wrapping_mul(y & 0xff_ffff),
        (x as i32).abs_diff(y as i32).wrapping_add(z),
        x.abs_diff(y).wrapping_add(z),
        dot(x, y, z, true, 4, 0),
        dot(x, y, z, false, 4, 0),
        dot(x, y, z, true, 2, 0),
        dot(x, y, z, true, 2, 2),
        dot(x, y, z, false, 2, 0),
        dot(x, y, z, false, 2, 2),
        fns_ref(x, z & 31, (y % 7) as i32 - 3),
        fns_ref(x, 0, 1),
        fns_ref(x, 31, -1),
        fns_ref(x, z & 31, 0),
    ]
}

fn int_simd_ref(x: u32, y: u32, z: u32) -> Vec<u32> {
    let xy = (x as u64) << 32 | y as u64;
    let yz = (y as u64) << 32 | z as u64;
    let s = z & 63;
    let _ = (xy, yz, s);
    vec![
        lanes2(x, y, |a, b| {
            let (a, b) = (a as u16, b as u16);
            (a.wrapping_add(b)) as u16 as _
        }),
        lanes4(x, y, |a, b| {
            let (a, b) = (a as u8, b as u8);
            (a.wrapping_add(b)) as u8 as _
        }),
        lanes2(x, y, |a, b| {
            let (a, b) = (a as i16, b as i16);
            (a.saturating_add(b)) as i16 as _
        }),
        lanes4(x, y, |a, b| {
            let (a, b) = (a as i8, b as i8);
            (a.saturating_add(b)) as i8 as _
        }),
        lanes2(x, y, |a, b| {
            let (a, b) = (a as u16, b as u16);
            (a.saturating_add(b)) as u16 as _
        }),
        lanes4(x, y, |a, b| {
            let (a, b) = (a as u8, b as u8);
            (a.saturating_add(b)) as u8 as _
        }),
        lanes2(x, y, |a, b| {
            let (a, b) = (a as u16, b as u16);
            (a.wrapping_sub(b)) as u16 as _
        }),
        lanes4(x, y, |a, b| {
            let (a, b) = (a as u8, b as u8);
            (a.wrapping_sub(b)) as u8 as _
        }),
        lanes2(x, y, |a, b| {
            let (a, b) = (a as i16, b as i16);
            (a.saturating_sub(b)) as i16 as _
        }),
        lanes4(x, y, |a, b| {
            let (a, b) = (a as i8, b as i8);
            (a.saturating_sub(b)) as i8 as _
        }),
        lanes2(x, y, |a, b| {
            let (a, b) = (a as u16, b as u16);
            (a.saturating_sub(b)) as u16 as _
        }),
        lanes4(x, y, |a, b| {
            let (a, b) = (a as u8, b as u8);
            (a.saturating_sub(b)) as u8 as _
        }),
        lanes2(x, y, |a, b| {
            let (a, b) = (a as i16, b as i16);
            (a.abs_diff(b)) as i16 as _
        }),
        lanes4(x, y, |a, b| {
            let (a, b) = (a as i8, b as i8);
            (a.abs_diff(b)) as i8 as _
        }),
        lanes2(x, y, |a, b| {
            let (a, b) = (a as u16, b as u16);
            (a.abs_diff(b)) as u16 as _
        }),
        lanes4(x, y, |a, b| {
            let (a, b) = (a as u8, b as u8);
            (a.abs_diff(b)) as u8 as _
        }),
        lanes2(x, y, |a, b| {
            let (a, b) = (a as i16, b as i16);
            {
                // Rounded half away from zero, as the hardware's vavrg (measured on an H200).
                let s = a as i32 + b as i32;
                ((s + (s >= 0) as i32) >> 1) as i16 as _
            }
        }),
        lanes4(x, y, |a, b| {
            let (a, b) = (a as i8, b as i8);
            {
                let s = a as i32 + b as i32;
                ((s + (s >= 0) as i32) >> 1) as i8 as _
            }
        }),
        lanes2(x, y, |a, b| {
            let (a, b) = (a as u16, b as u16);
            ((a as u32 + b as u32 + 1) >> 1) as u16 as _
        }),
        lanes4(x, y, |a, b| {
            let (a, b) = (a as u8, b as u8);
            ((a as u32 + b as u32 + 1) >> 1) as u8 as _
        }),
        lanes2(x, y, |a, b| {
            let (a, b) = (a as i16, b as i16);
            (a.max(b)) as i16 as _
        }),
        lanes4(x, y, |a, b| {
            let (a, b) = (a as i8, b as i8);
            (a.max(b)) as i8 as _
        }),
        lanes2(x, y, |a, b| {
            let (a, b) = (a as u16, b as u16);
            (a.max(b)) as u16 as _
        }),
        lanes4(x, y, |a, b| {
            let (a, b) = (a as u8, b as u8);
            (a.max(b)) as u8 as _
        }),
        lanes2(x, y, |a, b| {
            let (a, b) = (a as i16, b as i16);
            (a.min(b)) as i16 as _
        }),
        lanes4(x, y, |a, b| {
            let (a, b) = (a as i8, b as i8);
            (a.min(b)) as i8 as _
        }),
        lanes2(x, y, |a, b| {
            let (a, b) = (a as u16, b as u16);
            (a.min(b)) as u16 as _
        }),
        lanes4(x, y, |a, b| {
            let (a, b) = (a as u8, b as u8);
            (a.min(b)) as u8 as _
        }),
        lanes2(x, 0, |a, _| (a as i16).wrapping_abs() as _),
        lanes2(x, 0, |a, _| (a as i16).wrapping_neg() as _),
        lanes4(x, 0, |a, _| (a as i8).wrapping_abs() as _),
        lanes4(x, 0, |a, _| (a as i8).wrapping_neg() as _),
        lanes2(
            x,
            y,
            |a, b| if (a as u16) == (b as u16) { 0xffff } else { 0 },
        ),
        lanes2(x, y, |a, b| ((a as u16) == (b as u16)) as _),
        lanes4(x, y, |a, b| if (a as u8) == (b as u8) { 0xff } else { 0 }),
        lanes4(x, y, |a, b| ((a as u8) == (b as u8)) as _),
        lanes2(
            x,
            y,
            |a, b| if (a as u16) != (b as u16) { 0xffff } else { 0 },
        ),
        lanes2(x, y, |a, b| ((a as u16) != (b as u16)) as _),
        lanes4(x, y, |a, b| if (a as u8) != (b as u8) { 0xff } else { 0 }),
        lanes4(x, y, |a, b| ((a as u8) != (b as u8)) as _),
        lanes2(
            x,
            y,
            |a, b| if (a as i16) >= (b as i16) { 0xffff } else { 0 },
        ),
        lanes2(x, y, |a, b| ((a as i16) >= (b as i16)) as _),
        lanes4(x, y, |a, b| if (a as i8) >= (b as i8) { 0xff } else { 0 }),
        lanes4(x, y, |a, b| ((a as i8) >= (b as i8)) as _),
        lanes2(
            x,
            y,
            |a, b| if (a as u16) >= (b as u16) { 0xffff } else { 0 },
        ),
        lanes2(x, y, |a, b| ((a as u16) >= (b as u16)) as _),
        lanes4(x, y, |a, b| if (a as u8) >= (b as u8) { 0xff } else { 0 }),
        lanes4(x, y, |a, b| ((a as u8) >= (b as u8)) as _),
        lanes2(
            x,
            y,
            |a, b| if (a as i16) > (b as i16) { 0xffff } else { 0 },
        ),
        lanes2(x, y, |a, b| ((a as i16) > (b as i16)) as _),
        lanes4(x, y, |a, b| if (a as i8) > (b as i8) { 0xff } else { 0 }),
        lanes4(x, y, |a, b| ((a as i8) > (b as i8)) as _),
        lanes2(
            x,
            y,
            |a, b| if (a as u16) > (b as u16) { 0xffff } else { 0 },
        ),
        lanes2(x, y, |a, b| ((a as u16) > (b as u16)) as _),
        lanes4(x, y, |a, b| if (a as u8) > (b as u8) { 0xff } else { 0 }),
        lanes4(x, y, |a, b| ((a as u8) > (b as u8)) as _),
        lanes2(
            x,
            y,
            |a, b| if (a as i16) <= (b as i16) { 0xffff } else { 0 },
        ),
        lanes2(x, y, |a, b| ((a as i16) <= (b as i16)) as _),
        lanes4(x, y, |a, b| if (a as i8) <= (b as i8) { 0xff } else { 0 }),
        lanes4(x, y, |a, b| ((a as i8) <= (b as i8)) as _),
        lanes2(
            x,
            y,
            |a, b| if (a as u16) <= (b as u16) { 0xffff } else { 0 },
        ),
        lanes2(x, y, |a, b| ((a as u16) <= (b as u16)) as _),
        lanes4(x, y, |a, b| if (a as u8) <= (b as u8) { 0xff } else { 0 }),
        lanes4(x, y, |a, b| ((a as u8) <= (b as u8)) as _),
        lanes2(
            x,
            y,
            |a, b| if (a as i16) < (b as i16) { 0xffff } else { 0 },
        ),
        lanes2(x, y, |a, b| ((a as i16) < (b as i16)) as _),
        lanes4(x, y, |a, b| if (a as i8) < (b as i8) { 0xff } else { 0 }),
        lanes4(x, y, |a, b| ((a as i8) < (b as i8)) as _),
        lanes2(
            x,
            y,
            |a, b| if (a as u16) < (b as u16) { 0xffff } else { 0 },
        ),
        lanes2(x, y, |a, b| ((a as u16) < (b as u16)) as _),
        lanes4(x, y, |a, b| if (a as u8) < (b as u8) { 0xff } else { 0 }),
        lanes4(x, y, |a, b| ((a as u8) < (b as u8)) as _),
        lanes2(x, y, |a, b| (a as i16).abs_diff(b as i16))
            .to_le_bytes()
            .chunks(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]) as u32)
            .sum::<u32>(),
        lanes4(x, y, |a, b| (a as i8).abs_diff(b as i8))
            .to_le_bytes()
            .iter()
            .map(|&c| c as u32)
            .sum::<u32>(),
        lanes2(x, y, |a, b| a.abs_diff(b))
            .to_le_bytes()
            .chunks(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]) as u32)
            .sum::<u32>(),
        lanes4(x, y, |a, b| a.abs_diff(b))
            .to_le_bytes()
            .iter()
            .map(|&c| c as u32)
            .sum::<u32>(),
        lanes2(x, y, |a, b| ((a as u32 + b as u32) >> 1) as u16),
        lanes4(x, y, |a, b| ((a as u32 + b as u32) >> 1) as u8),
    ]
}

type Launch = fn(
    &Stream,
    LaunchConfig,
    &DeviceBuffer<u32>,
    &DeviceBuffer<u32>,
    &DeviceBuffer<u32>,
    &mut DeviceBuffer<u32>,
) -> ferrocuda::host_runtime::Result<()>;

/// Runs one kernel over `n` input triples on `dev` and compares every result with `reference`.
fn check(
    dev: &Device,
    n: usize,
    per: usize,
    launch: Launch,
    reference: fn(u32, u32, u32) -> Vec<u32>,
    names: &[&str],
) {
    let (a, b) = (inputs(n, 1), inputs(n, 7));
    // Every fourth `b` repeats bytes of `a`, so equal lanes show up in the comparisons.
    let b: Vec<u32> = b
        .iter()
        .zip(&a)
        .enumerate()
        .map(|(i, (&y, &x))| {
            if i % 4 == 3 {
                (x & 0xff00_ff00) | (y & 0x00ff_00ff)
            } else {
                y
            }
        })
        .collect();
    let c = inputs(n, 13);
    let s = dev.new_stream().unwrap();
    let (da, db, dc) = (
        dev.upload(&a).unwrap(),
        dev.upload(&b).unwrap(),
        dev.upload(&c).unwrap(),
    );
    let mut out = dev.upload(&vec![0xdead_beefu32; n * per]).unwrap();
    launch(
        &s,
        LaunchConfig::for_elements(n, 64),
        &da,
        &db,
        &dc,
        &mut out,
    )
    .unwrap();
    let got = out.to_vec().unwrap();
    for i in 0..n {
        let want = reference(a[i], b[i], c[i]);
        assert_eq!(want.len(), per);
        for k in 0..per {
            assert_eq!(
                got[i * per + k],
                want[k],
                "{}: inputs {:#x} {:#x} {:#x}",
                names[k],
                a[i],
                b[i],
                c[i]
            );
        }
    }
}

const SCALAR: &[&str] = &[
    "popc(x) as u32",
    "popcll(xy) as u32",
    "clz(x as i32) as u32",
    "clzll(xy as i64) as u32",
    "ffs(x as i32) as u32",
    "ffsll(xy as i64) as u32",
    "ffsll(((x as u64) << 40) as i64) as u32",
    "brev(x)",
    "brevll(xy) as u32",
    "(brevll(xy) >> 32) as u32",
    "x.reverse_bits()",
    "(xy.reverse_bits() >> 32) as u32",
    "(x as u16).reverse_bits() as u32",
    "(x as i8).reverse_bits() as u8 as u32",
    "byte_perm(x, y, z)",
    "byte_perm(x, y, 0x3210)",
    "byte_perm(x, y, 0x0123)",
    "funnelshift_l(x, y, z)",
    "funnelshift_l(x, y, s)",
    "funnelshift_lc(x, y, s)",
    "funnelshift_r(x, y, s)",
    "funnelshift_rc(x, y, s)",
    "mul_hi(x as i32, y as i32) as u32",
    "umul_hi(x, y)",
    "mul64hi(xy as i64, yz as i64) as u32",
    "(mul64hi(xy as i64, yz as i64) >> 32) as u32",
    "umul64hi(xy, yz) as u32",
    "(umul64hi(xy, yz) >> 32) as u32",
    "mul24(x as i32, y as i32) as u32",
    "umul24(x, y)",
    "sad(x as i32, y as i32, z)",
    "usad(x, y, z)",
    "dp4a(x as i32, y as i32, z as i32) as u32",
    "udp4a(x, y, z)",
    "dp2a_lo(x as i32, y as i32, z as i32) as u32",
    "dp2a_hi(x as i32, y as i32, z as i32) as u32",
    "udp2a_lo(x, y, z)",
    "udp2a_hi(x, y, z)",
    "fns(x, z & 31, (y % 7) as i32 - 3)",
    "fns(x, 0, 1)",
    "fns(x, 31, -1)",
    "fns(x, z & 31, 0)",
];
const SIMD: &[&str] = &[
    "vadd2(x, y)",
    "vadd4(x, y)",
    "vaddss2(x, y)",
    "vaddss4(x, y)",
    "vaddus2(x, y)",
    "vaddus4(x, y)",
    "vsub2(x, y)",
    "vsub4(x, y)",
    "vsubss2(x, y)",
    "vsubss4(x, y)",
    "vsubus2(x, y)",
    "vsubus4(x, y)",
    "vabsdiffs2(x, y)",
    "vabsdiffs4(x, y)",
    "vabsdiffu2(x, y)",
    "vabsdiffu4(x, y)",
    "vavgs2(x, y)",
    "vavgs4(x, y)",
    "vavgu2(x, y)",
    "vavgu4(x, y)",
    "vmaxs2(x, y)",
    "vmaxs4(x, y)",
    "vmaxu2(x, y)",
    "vmaxu4(x, y)",
    "vmins2(x, y)",
    "vmins4(x, y)",
    "vminu2(x, y)",
    "vminu4(x, y)",
    "vabs2(x)",
    "vneg2(x)",
    "vabs4(x)",
    "vneg4(x)",
    "vcmpeq2(x, y)",
    "vseteq2(x, y)",
    "vcmpeq4(x, y)",
    "vseteq4(x, y)",
    "vcmpne2(x, y)",
    "vsetne2(x, y)",
    "vcmpne4(x, y)",
    "vsetne4(x, y)",
    "vcmpges2(x, y)",
    "vsetges2(x, y)",
    "vcmpges4(x, y)",
    "vsetges4(x, y)",
    "vcmpgeu2(x, y)",
    "vsetgeu2(x, y)",
    "vcmpgeu4(x, y)",
    "vsetgeu4(x, y)",
    "vcmpgts2(x, y)",
    "vsetgts2(x, y)",
    "vcmpgts4(x, y)",
    "vsetgts4(x, y)",
    "vcmpgtu2(x, y)",
    "vsetgtu2(x, y)",
    "vcmpgtu4(x, y)",
    "vsetgtu4(x, y)",
    "vcmples2(x, y)",
    "vsetles2(x, y)",
    "vcmples4(x, y)",
    "vsetles4(x, y)",
    "vcmpleu2(x, y)",
    "vsetleu2(x, y)",
    "vcmpleu4(x, y)",
    "vsetleu4(x, y)",
    "vcmplts2(x, y)",
    "vsetlts2(x, y)",
    "vcmplts4(x, y)",
    "vsetlts4(x, y)",
    "vcmpltu2(x, y)",
    "vsetltu2(x, y)",
    "vcmpltu4(x, y)",
    "vsetltu4(x, y)",
    "vsads2(x, y)",
    "vsads4(x, y)",
    "vsadu2(x, y)",
    "vsadu4(x, y)",
    "vhaddu2(x, y)",
    "vhaddu4(x, y)",
];

fn scalar_on(dev: &Device, n: usize) {
    check(
        dev,
        n,
        SCALAR.len(),
        int_scalar::launch,
        int_scalar_ref,
        SCALAR,
    );
}
fn simd_on(dev: &Device, n: usize) {
    check(dev, n, SIMD.len(), int_simd::launch, int_simd_ref, SIMD);
}

#[test]
fn integer_intrinsics_match_cpu_on_the_simulator() {
    scalar_on(&sim(), 200);
}

#[test]
fn simd_video_intrinsics_match_cpu_on_the_simulator() {
    simd_on(&sim(), 200);
}

#[test]
fn integer_intrinsics_assemble_for_sm80_and_sm90() {
    assembles(int_scalar::ast());
    assembles(int_simd::ast());
}

#[test]
#[ignore = "needs a GPU"]
fn integer_intrinsics_match_cpu_on_the_gpu() {
    let Some(dev) = gpu() else { return };
    scalar_on(&dev, 1 << 14);
    simd_on(&dev, 1 << 14);
}
