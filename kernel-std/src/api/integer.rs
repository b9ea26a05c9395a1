//! Device API: the CUDA math API's integer intrinsics (`__popc`, `__clz`, `__byte_perm`,
//! `__funnelshift_l`, `__mulhi`, `__dp4a`, the SIMD `__vadd2` family...), named without the
//! leading underscores. Semantics match CUDA's; the simulator implements each independently of PTX.
//!
//! The count/abs/min/max helpers also exist as Rust methods (`x.count_ones()`, `x.leading_zeros()`,
//! `x.reverse_bits()`, `x.abs()`, `x.min(y)`), which work on every integer width.

use super::device_only;

device_intrinsic!(
    /// `__popc`: number of set bits.
    pub fn popc(x: u32) -> i32
);
device_intrinsic!(
    /// `__popcll`: number of set bits of a 64-bit value.
    pub fn popcll(x: u64) -> i32
);
device_intrinsic!(
    /// `__clz`: number of leading zero bits (32 for 0).
    pub fn clz(x: i32) -> i32
);
device_intrinsic!(
    /// `__clzll`: number of leading zero bits of a 64-bit value (64 for 0).
    pub fn clzll(x: i64) -> i32
);
device_intrinsic!(
    /// `__ffs`: 1-based position of the least significant set bit, 0 when `x == 0`.
    pub fn ffs(x: i32) -> i32
);
device_intrinsic!(
    /// `__ffsll`: `ffs` of a 64-bit value.
    pub fn ffsll(x: i64) -> i32
);
device_intrinsic!(
    /// `__brev`: the bits of `x` in reverse order (same as `x.reverse_bits()`).
    pub fn brev(x: u32) -> u32
);
device_intrinsic!(
    /// `__brevll`: 64-bit `brev`.
    pub fn brevll(x: u64) -> u64
);
device_intrinsic!(
    /// `__byte_perm(x, y, s)`: byte `i` of the result is byte `(s >> 4i) & 7` of the 8-byte value `y:x`
    /// (`x` supplies bytes 0-3); bit `4i + 3` of `s` replicates that byte's sign instead (PTX `prmt`).
    pub fn byte_perm(x: u32, y: u32, s: u32) -> u32
);
device_intrinsic!(
    /// `__funnelshift_l(lo, hi, shift)`: the high 32 bits of `hi:lo << (shift & 31)`.
    pub fn funnelshift_l(lo: u32, hi: u32, shift: u32) -> u32
);
device_intrinsic!(
    /// `__funnelshift_lc`: as `funnelshift_l` with the shift clamped to 32 (32 or more returns `lo`).
    pub fn funnelshift_lc(lo: u32, hi: u32, shift: u32) -> u32
);
device_intrinsic!(
    /// `__funnelshift_r(lo, hi, shift)`: the low 32 bits of `hi:lo >> (shift & 31)`.
    pub fn funnelshift_r(lo: u32, hi: u32, shift: u32) -> u32
);
device_intrinsic!(
    /// `__funnelshift_rc`: as `funnelshift_r` with the shift clamped to 32 (32 or more returns `hi`).
    pub fn funnelshift_rc(lo: u32, hi: u32, shift: u32) -> u32
);
device_intrinsic!(
    /// `__mulhi`: the high 32 bits of the 64-bit product.
    pub fn mul_hi(x: i32, y: i32) -> i32
);
device_intrinsic!(
    /// `__umulhi`: the high 32 bits of the unsigned 64-bit product.
    pub fn umul_hi(x: u32, y: u32) -> u32
);
device_intrinsic!(
    /// `__mul64hi`: the high 64 bits of the 128-bit product.
    pub fn mul64hi(x: i64, y: i64) -> i64
);
device_intrinsic!(
    /// `__umul64hi`: the high 64 bits of the unsigned 128-bit product.
    pub fn umul64hi(x: u64, y: u64) -> u64
);
device_intrinsic!(
    /// `__mul24`: the low 32 bits of the product of the sign-extended low 24 bits of `x` and `y`.
    pub fn mul24(x: i32, y: i32) -> i32
);
device_intrinsic!(
    /// `__umul24`: the low 32 bits of the product of the low 24 bits of `x` and `y`.
    pub fn umul24(x: u32, y: u32) -> u32
);
device_intrinsic!(
    /// `__sad(x, y, z)`: `|x - y| + z` (wrapping).
    pub fn sad(x: i32, y: i32, z: u32) -> u32
);
device_intrinsic!(
    /// `__usad(x, y, z)`: `|x - y| + z` on unsigned values (wrapping).
    pub fn usad(x: u32, y: u32, z: u32) -> u32
);
device_intrinsic!(
    /// `__dp4a(a, b, c)`: `c` plus the four products of the signed bytes of `a` and `b` (sm_61+).
    pub fn dp4a(a: i32, b: i32, c: i32) -> i32
);
device_intrinsic!(
    /// `__dp4a` on unsigned bytes (sm_61+).
    pub fn udp4a(a: u32, b: u32, c: u32) -> u32
);
device_intrinsic!(
    /// `__dp2a_lo(a, b, c)`: `c` plus the products of the two signed halfwords of `a` with bytes 0 and 1
    /// of `b` (sm_61+).
    pub fn dp2a_lo(a: i32, b: i32, c: i32) -> i32
);
device_intrinsic!(
    /// `__dp2a_hi(a, b, c)`: as `dp2a_lo` with bytes 2 and 3 of `b` (sm_61+).
    pub fn dp2a_hi(a: i32, b: i32, c: i32) -> i32
);
device_intrinsic!(
    /// `__dp2a_lo` on unsigned values (sm_61+).
    pub fn udp2a_lo(a: u32, b: u32, c: u32) -> u32
);
device_intrinsic!(
    /// `__dp2a_hi` on unsigned values (sm_61+).
    pub fn udp2a_hi(a: u32, b: u32, c: u32) -> u32
);
device_intrinsic!(
    /// `__vadd2`: per-halfword wrapping addition.
    pub fn vadd2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vadd4`: per-byte wrapping addition.
    pub fn vadd4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vaddss2`: per-halfword signed saturating addition.
    pub fn vaddss2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vaddss4`: per-byte signed saturating addition.
    pub fn vaddss4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vaddus2`: per-halfword unsigned saturating addition.
    pub fn vaddus2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vaddus4`: per-byte unsigned saturating addition.
    pub fn vaddus4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsub2`: per-halfword wrapping subtraction.
    pub fn vsub2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsub4`: per-byte wrapping subtraction.
    pub fn vsub4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsubss2`: per-halfword signed saturating subtraction.
    pub fn vsubss2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsubss4`: per-byte signed saturating subtraction.
    pub fn vsubss4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsubus2`: per-halfword unsigned saturating subtraction (floors at 0).
    pub fn vsubus2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsubus4`: per-byte unsigned saturating subtraction (floors at 0).
    pub fn vsubus4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vabsdiffs2`: per-halfword `|a - b|` of signed lanes.
    pub fn vabsdiffs2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vabsdiffs4`: per-byte `|a - b|` of signed lanes.
    pub fn vabsdiffs4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vabsdiffu2`: per-halfword `|a - b|` of unsigned lanes.
    pub fn vabsdiffu2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vabsdiffu4`: per-byte `|a - b|` of unsigned lanes.
    pub fn vabsdiffu4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vavgs2`: per-halfword signed average `(a + b + 1) >> 1`.
    pub fn vavgs2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vavgs4`: per-byte signed average `(a + b + 1) >> 1`.
    pub fn vavgs4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vavgu2`: per-halfword unsigned average `(a + b + 1) >> 1`.
    pub fn vavgu2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vavgu4`: per-byte unsigned average `(a + b + 1) >> 1`.
    pub fn vavgu4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vmaxs2`: per-halfword signed maximum.
    pub fn vmaxs2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vmaxs4`: per-byte signed maximum.
    pub fn vmaxs4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vmaxu2`: per-halfword unsigned maximum.
    pub fn vmaxu2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vmaxu4`: per-byte unsigned maximum.
    pub fn vmaxu4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vmins2`: per-halfword signed minimum.
    pub fn vmins2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vmins4`: per-byte signed minimum.
    pub fn vmins4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vminu2`: per-halfword unsigned minimum.
    pub fn vminu2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vminu4`: per-byte unsigned minimum.
    pub fn vminu4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vabs2`: per-halfword signed absolute value (`-32768` stays `0x8000`).
    pub fn vabs2(a: u32) -> u32
);
device_intrinsic!(
    /// `__vabs4`: per-byte signed absolute value (`-128` stays `0x80`).
    pub fn vabs4(a: u32) -> u32
);
device_intrinsic!(
    /// `__vneg2`: per-halfword negation.
    pub fn vneg2(a: u32) -> u32
);
device_intrinsic!(
    /// `__vneg4`: per-byte negation.
    pub fn vneg4(a: u32) -> u32
);
device_intrinsic!(
    /// `__vcmpeq2`: per-halfword equal; a true lane is all ones, a false one 0.
    pub fn vcmpeq2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vseteq2`: per-halfword equal; a true lane is 1, a false one 0.
    pub fn vseteq2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vcmpeq4`: per-byte equal; a true lane is all ones, a false one 0.
    pub fn vcmpeq4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vseteq4`: per-byte equal; a true lane is 1, a false one 0.
    pub fn vseteq4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vcmpne2`: per-halfword not equal; a true lane is all ones, a false one 0.
    pub fn vcmpne2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsetne2`: per-halfword not equal; a true lane is 1, a false one 0.
    pub fn vsetne2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vcmpne4`: per-byte not equal; a true lane is all ones, a false one 0.
    pub fn vcmpne4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsetne4`: per-byte not equal; a true lane is 1, a false one 0.
    pub fn vsetne4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vcmpges2`: per-halfword signed >=; a true lane is all ones, a false one 0.
    pub fn vcmpges2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsetges2`: per-halfword signed >=; a true lane is 1, a false one 0.
    pub fn vsetges2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vcmpges4`: per-byte signed >=; a true lane is all ones, a false one 0.
    pub fn vcmpges4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsetges4`: per-byte signed >=; a true lane is 1, a false one 0.
    pub fn vsetges4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vcmpgeu2`: per-halfword unsigned >=; a true lane is all ones, a false one 0.
    pub fn vcmpgeu2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsetgeu2`: per-halfword unsigned >=; a true lane is 1, a false one 0.
    pub fn vsetgeu2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vcmpgeu4`: per-byte unsigned >=; a true lane is all ones, a false one 0.
    pub fn vcmpgeu4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsetgeu4`: per-byte unsigned >=; a true lane is 1, a false one 0.
    pub fn vsetgeu4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vcmpgts2`: per-halfword signed >; a true lane is all ones, a false one 0.
    pub fn vcmpgts2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsetgts2`: per-halfword signed >; a true lane is 1, a false one 0.
    pub fn vsetgts2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vcmpgts4`: per-byte signed >; a true lane is all ones, a false one 0.
    pub fn vcmpgts4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsetgts4`: per-byte signed >; a true lane is 1, a false one 0.
    pub fn vsetgts4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vcmpgtu2`: per-halfword unsigned >; a true lane is all ones, a false one 0.
    pub fn vcmpgtu2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsetgtu2`: per-halfword unsigned >; a true lane is 1, a false one 0.
    pub fn vsetgtu2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vcmpgtu4`: per-byte unsigned >; a true lane is all ones, a false one 0.
    pub fn vcmpgtu4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsetgtu4`: per-byte unsigned >; a true lane is 1, a false one 0.
    pub fn vsetgtu4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vcmples2`: per-halfword signed <=; a true lane is all ones, a false one 0.
    pub fn vcmples2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsetles2`: per-halfword signed <=; a true lane is 1, a false one 0.
    pub fn vsetles2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vcmples4`: per-byte signed <=; a true lane is all ones, a false one 0.
    pub fn vcmples4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsetles4`: per-byte signed <=; a true lane is 1, a false one 0.
    pub fn vsetles4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vcmpleu2`: per-halfword unsigned <=; a true lane is all ones, a false one 0.
    pub fn vcmpleu2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsetleu2`: per-halfword unsigned <=; a true lane is 1, a false one 0.
    pub fn vsetleu2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vcmpleu4`: per-byte unsigned <=; a true lane is all ones, a false one 0.
    pub fn vcmpleu4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsetleu4`: per-byte unsigned <=; a true lane is 1, a false one 0.
    pub fn vsetleu4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vcmplts2`: per-halfword signed <; a true lane is all ones, a false one 0.
    pub fn vcmplts2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsetlts2`: per-halfword signed <; a true lane is 1, a false one 0.
    pub fn vsetlts2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vcmplts4`: per-byte signed <; a true lane is all ones, a false one 0.
    pub fn vcmplts4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsetlts4`: per-byte signed <; a true lane is 1, a false one 0.
    pub fn vsetlts4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vcmpltu2`: per-halfword unsigned <; a true lane is all ones, a false one 0.
    pub fn vcmpltu2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsetltu2`: per-halfword unsigned <; a true lane is 1, a false one 0.
    pub fn vsetltu2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vcmpltu4`: per-byte unsigned <; a true lane is all ones, a false one 0.
    pub fn vcmpltu4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsetltu4`: per-byte unsigned <; a true lane is 1, a false one 0.
    pub fn vsetltu4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsads2`: the sum of the per-halfword `|a - b|` of signed lanes.
    pub fn vsads2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsads4`: the sum of the per-byte `|a - b|` of signed lanes.
    pub fn vsads4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsadu2`: the sum of the per-halfword `|a - b|` of unsigned lanes.
    pub fn vsadu2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vsadu4`: the sum of the per-byte `|a - b|` of unsigned lanes.
    pub fn vsadu4(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vhaddu2`: per-halfword unsigned average rounded down, `(a + b) >> 1`.
    pub fn vhaddu2(a: u32, b: u32) -> u32
);
device_intrinsic!(
    /// `__vhaddu4`: per-byte unsigned average rounded down, `(a + b) >> 1`.
    pub fn vhaddu4(a: u32, b: u32) -> u32
);
